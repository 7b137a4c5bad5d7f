"""A player's request for a delay of the deadline (`delay_policy`, `delay_hours`,
`max_auto_delays`): what becomes of it. Pure: the service passes the ruleset, the deadline, the
time the request was received and how many delays the player has had granted at once this game
year; tests/unit/test_delays.py holds the table.

- `auto_grant_gm_may_refuse` (000 VII(5), 001 IV(5); 002 ORDERS 0 [P reading]): "Requests for
  delay received before the deadline will generally be granted": a request received before the
  deadline moves it by `delay_hours` for everyone, at once, up to `max_auto_delays` per player
  per game year [P count]. The grant that uses up the player's allowance says so: that is the
  warning after which "the GM reserves the right ... not to grant further delay requests".
  Further requests, requests received after the deadline and requests from a power in civil
  disorder go to the GM, who decides ("further requests go to the GM").
- `gm_decides` (003 [10]: "If you need an extension of the deadline, notify the GM and deliver a
  good explanation"): every request goes to the GM; the player is told it was passed on.
- `none`: refused; only the GM moves deadlines.
A game with no deadline (paused, or waiting for a replacement) has nothing to delay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal
from zoneinfo import ZoneInfo

from gmserver.rules.ruleset import Ruleset

Outcome = Literal["granted", "to_gm", "refused"]



@dataclass(frozen=True)
class DelayRequest:
    """What the service knows of one request."""

    phase: str  # the game's current phase, e.g. "S1901M"
    deadline: datetime | None  # the current deadline; None: paused or waiting
    received: datetime  # when the request reached the server (time_basis = receipt)
    used: int  # delays granted at once to this player in the phase's game year
    civil_disorder: bool = False
    zone: str = "UTC"  # the game's time zone: whole days keep the deadline's time of day


@dataclass(frozen=True)
class DelayDecision:
    outcome: Outcome
    said: str  # for the player, in words, the clause after the rule
    new_deadline: datetime | None = None  # when granted
    last_automatic: bool = False  # granted, and the player's last automatic delay this year


def clause(ruleset: Ruleset) -> str:
    """"house rules 000 VII(5)" where the game's document says what its delay_policy does."""
    cited = ruleset.cites("delay_policy")
    if cited:
        return f"house rules {cited}"
    return "this game's rules, where its house rules are silent"


def how_to_ask(ruleset: Ruleset) -> str:
    """The start mail's key point on delays (rules/briefing.py): how to ask and what follows."""
    cited = clause(ruleset)
    cited = f" ({cited.removeprefix('house rules ')})" if cited.startswith("house rules") else ""
    if ruleset.delay_policy == "none":
        return "Deadlines are not delayed at a player's request: only the GM moves a deadline."
    ask = "To ask for a delay, send the GM a message whose first line is DELAY, with your reason"
    if ruleset.delay_policy == "gm_decides":
        return f"{ask}; the GM decides{cited}."
    return (f"{ask}: a request received before the deadline moves it by {ruleset.delay_hours} hours for every "
            f"player, up to {_delays(ruleset.max_auto_delays)} for each player a game year; the GM decides on "
            f"further requests{cited}.")


def game_year(phase: str) -> int | None:
    """1901 for "S1901M"; None for a phase that names no year ("COMPLETED")."""
    digits = phase[1:5]
    return int(digits) if digits.isdigit() else None


def delayed_deadline(deadline: datetime, hours: int, zone: str) -> datetime:
    """`deadline` moved by `hours`; whole days are counted on the game's clocks, so an 18:00
    deadline stays 18:00 across a change to or from summer time (as the schedule does)."""
    if hours % 24:
        return (deadline + timedelta(hours=hours)).astimezone(timezone.utc)
    local = deadline.astimezone(ZoneInfo(zone))
    wall = local.replace(tzinfo=None) + timedelta(hours=hours)
    return wall.replace(tzinfo=ZoneInfo(zone)).astimezone(timezone.utc)


def decide_delay(ruleset: Ruleset, request: DelayRequest) -> DelayDecision:
    """What becomes of one delay request (see the module doc)."""
    cited = clause(ruleset)
    policy = ruleset.delay_policy
    if policy == "none":
        return DelayDecision("refused", "Deadlines are not delayed at a player's request in this game: only the "
                                        f"GM may move a deadline ({cited}).")
    if request.deadline is None:
        return DelayDecision("refused", "The game has no deadline to delay just now (it is paused, or waits "
                                        "for a new player); the GM will set the next one.")
    if policy == "gm_decides":
        return DelayDecision("to_gm", "Your request was passed on to the GM, who decides on every delay in this "
                                      f"game ({cited}). The deadline stands unless the GM moves it.")
    return _automatic(ruleset, request, cited)


def _automatic(ruleset: Ruleset, request: DelayRequest, cited: str) -> DelayDecision:
    """auto_grant_gm_may_refuse: granted at once before the deadline, within the allowance."""
    assert request.deadline is not None
    allowance = ruleset.max_auto_delays
    if request.received >= request.deadline:
        return _to_gm("A delay is granted at once only on a request received before the deadline "
                      f"({cited}); yours came after it.")
    if request.civil_disorder:
        return _to_gm(f"Your power is in civil disorder, so a delay is not granted at once ({cited}).")
    year = game_year(request.phase)
    if allowance == 0:
        return _to_gm(f"No delay is granted at once in this game ({cited}).")
    if request.used >= allowance:
        return _to_gm(f"Each player may have {_delays(allowance)} a game year granted at once, and you have had "
                      f"{request.used} in {year} ({cited}: after a warning the GM may refuse further delays).")
    new = delayed_deadline(request.deadline, ruleset.delay_hours, request.zone)
    last = request.used + 1 >= allowance
    said = (f"Your request is granted: the deadline is delayed by {ruleset.delay_hours} hours for every player "
            f"({cited}: delay requests received before the deadline are generally granted).")
    if last:
        said += (f" This was your last delay granted at once in {year}: the GM decides on any further request "
                 "this year, and may refuse it if play is disrupted.")
    return DelayDecision("granted", said, new, last)


def _to_gm(why: str) -> DelayDecision:
    return DelayDecision("to_gm", f"{why} Your request was passed on to the GM, who decides; the deadline stands "
                                  "unless the GM moves it.")


def _delays(count: int) -> str:
    return f"{count} delay" + ("" if count == 1 else "s")
