"""GM corrections: may the last adjudication be rolled back, which deadline the
turn after a correction gets, and the clause behind each answer, in words a player can read.

Pure: the caller passes the facts (when the phase was adjudicated, whether a later one was) and
the time. A rollback is a correction: the stored orders of the corrected turn are adjudicated
again, with the GM's corrected reading where the reading was the error; players never send new
orders for it (`season_replay = never`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from gmserver.rules.position import describe_phase
from gmserver.rules.ruleset import Ruleset

# 000 VIII(1): "within 24 hours"
MHR_WINDOW = timedelta(hours=24)

def cite(ruleset: Ruleset, option: str) -> str:
    """"house rules 000 VIII(1)" where the game's document decides `option` as the game has it;
    otherwise words that say it is this server's rule (never the option's key: players read it)."""
    cited = ruleset.cites(option)
    if cited:
        return f"house rules {cited}"
    return "this game's rules, where its house rules are silent"


@dataclass(frozen=True)
class Adjudicated:
    """The latest adjudication of a game, as a rollback sees it."""

    phase: str
    adjudicated_at: datetime
    # a later phase was adjudicated and published after it (or it was already rolled back once
    # and the turn after it published): its errors stand (000 VIII(1), 001 VI(1), 002 GM ERRORS 2)
    followed_by_another: bool


def rollback_refusal(ruleset: Ruleset, last: Adjudicated | None, now: datetime, *, replay: bool = False,
                     reopened: str | None = None, reported: datetime | None = None) -> str | None:
    """Why the GM may not roll back `last` now, in words with the clause; None if they may.
    `reopened`: the current turn, when it is itself a rolled-back turn awaiting re-adjudication;
    `reported`: when the error was brought to the GM (000 VIII(1) counts 24 hours to that), if
    before now."""
    if replay:
        # season_replay = never (002 GM ERRORS 5 "Under no circumstances will a season be replayed")
        return ("A season is never replayed: players do not send new orders for a turn already adjudicated "
                f"({cite(ruleset, 'season_replay')}). Roll it back without --replay to correct it: the orders "
                "on file are adjudicated again, with your corrections (`gmserver game orders`).")
    if reopened is not None:
        waiting = (f"The adjudication of {describe_phase(reopened)} was rolled back already; it waits to be "
                   "adjudicated again (gmserver adjudicate).")
        if last is None:
            return waiting
        return (f"{waiting} The result of {describe_phase(last.phase)} before it stands: another adjudication was "
                f"published after it ({cite(ruleset, 'correction_window')}).")
    if last is None:
        return "Nothing has been adjudicated in this game yet: there is nothing to roll back."
    turn = describe_phase(last.phase)
    if last.followed_by_another:
        return (f"The result of {turn} stands: another adjudication was published after it, and an error not "
                f"corrected before the next adjudication stands ({cite(ruleset, 'correction_window')}).")
    asked = min(reported or now, now)
    if ruleset.correction_window == "24h_and_before_next" and asked - last.adjudicated_at > MHR_WINDOW:
        # 000 VIII(1): errors brought to the GM's attention within 24 hours are corrected
        return (f"The result of {turn} stands: it was published more than 24 hours ago, and only errors "
                f"reported within 24 hours are corrected ({cite(ruleset, 'correction_window')}).")
    return None


def deadline_after_correction(ruleset: Ruleset, *, first: datetime | None, fresh: datetime | None,
                              now: datetime) -> datetime | None:
    """The deadline of the turn that follows a corrected (re-adjudicated) turn: the one the first
    adjudication gave it stands (the GM may move it; under on_single_request one player's request
    extends it: `extension_on_request`), unless it has passed already: then the schedule's."""
    if first is None or first <= now:
        return fresh
    return first


def extension_on_request(ruleset: Ruleset, *, deadline: datetime | None, fresh: datetime | None, after_correction: bool,
                         extended_before: bool) -> datetime | None:
    """extension_after_correction = on_single_request (002 GM ERRORS 3: "A player may ask for an
    extension after the GM corrects an error. Only one request is necessary"): the new deadline
    a player's delay request gives the turn that follows a correction (its whole length from the
    request, at the game's time of day), once per correction; None when it gives none (another
    rule, no correction, extended already, or the deadline is later anyway)."""
    if ruleset.extension_after_correction != "on_single_request" or not after_correction or extended_before:
        return None
    if fresh is None or (deadline is not None and fresh <= deadline):
        return None
    return fresh
