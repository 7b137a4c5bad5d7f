"""What the players' registered absences do to a deadline (`absence_policy`,
`absence_days_per_year`). Pure: the service passes the ruleset, the deadline the schedule gives,
every power's absences (days in the player's own calendar) and the days each player's absences
have already added this game year; tests/unit/test_absence.py holds the table.

- `move_deadline` (000 VII(5), 001 IV(5): delays asked before the deadline are generally granted;
  the GM may replace a player whose extended or repeated absences disrupt the game): a deadline
  that falls on a day a player is away moves to the first deadline time after that absence ends
  (the day after its last day, at the game's time of day, which a change of summer time does not
  shift), by no more than the days the player has left of `absence_days_per_year` this game year;
  two players away, the later end. Each day moved is counted to the absent player it was moved for.
- `hold_without_nmr`: the deadline stands; an absent player's units hold and the turn is not
  counted as missed.
- `gm_decides`: the deadline stands; the GM is told who is away and acts with the usual commands.
- `none`: absences are not registered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from gmserver.rules.ruleset import Ruleset
from gmserver.rules.schedule import local_instant, local_time_of_day


@dataclass(frozen=True)
class Absence:
    """One registered absence: the days a power's player is away, both included, in `zone`."""

    power: str
    first: date
    last: date
    zone: str  # the player's zone (SET ZONE), else the game's

    def covers(self, moment: datetime) -> bool:
        """Whether `moment` falls on a day of the absence, by the player's own calendar."""
        return self.first <= moment.astimezone(ZoneInfo(self.zone)).date() <= self.last

    def ends(self) -> datetime:
        """The first moment after the absence: midnight after its last day, in the player's zone."""
        return local_instant(self.last + timedelta(days=1), datetime.min.time(), self.zone)


@dataclass(frozen=True)
class AbsencePlan:
    """What the absences do to one deadline."""

    deadline: datetime  # the deadline the turn gets (the scheduled one where nothing moves it)
    days_used: Mapping[str, int] = field(default_factory=dict)  # power -> days the deadline moved for it
    holding: frozenset[str] = frozenset()  # hold_without_nmr: absent powers whose missed turn is not counted
    absent: frozenset[str] = frozenset()  # the powers away at the deadline the turn gets

    @property
    def moved(self) -> bool:
        return bool(self.days_used)


def clause(ruleset: Ruleset) -> str:
    """"house rules 000 VII(5)" where the game's document decides its absence_policy."""
    cited = ruleset.cites("absence_policy")
    return f"house rules {cited}" if cited else "this game's rules, where its house rules are silent"


def days_left(ruleset: Ruleset, used: int) -> int:
    """The days a player's absences may still move deadlines this game year."""
    return max(0, ruleset.absence_days_per_year - used)


def decide_absences(ruleset: Ruleset, deadline: datetime, absences: Sequence[Absence], used: Mapping[str, int],
                    zone: str) -> AbsencePlan:
    """The deadline the turn gets and the powers whose absence counts at it (see the module doc).
    `deadline`: the schedule's; `used`: days already moved this game year per power; `zone`: the
    game's, whose time of day the deadline keeps."""
    policy = ruleset.absence_policy
    if policy == "none" or not absences:
        return AbsencePlan(deadline)
    if policy != "move_deadline":
        absent = frozenset(a.power for a in absences if a.covers(deadline))
        return AbsencePlan(deadline, holding=absent if policy == "hold_without_nmr" else frozenset(), absent=absent)
    at = local_time_of_day(deadline, zone)
    moved: dict[str, int] = {}

    def left(power: str) -> int:
        return days_left(ruleset, used.get(power, 0) + moved.get(power, 0))

    current = deadline
    while True:
        covering = [a for a in absences if a.covers(current) and left(a.power) > 0]
        if not covering:
            break
        latest = max(covering, key=Absence.ends)  # 000 VII(5): two players away, the later end
        day = current.astimezone(ZoneInfo(zone)).date()
        target = day
        while local_instant(target, at, zone) < latest.ends():
            target += timedelta(days=1)
        days = min((target - day).days, left(latest.power))  # the allowance left, no more
        current = local_instant(day + timedelta(days=days), at, zone)
        moved[latest.power] = moved.get(latest.power, 0) + days
    return AbsencePlan(current, moved, absent=frozenset(a.power for a in absences if a.covers(current)))


def effect_words(ruleset: Ruleset) -> str:
    """What a registered absence does in this game, in words with the clause (the player's answer)."""
    cited = clause(ruleset)
    policy = ruleset.absence_policy
    if policy == "move_deadline":
        return (f"A deadline that falls on a day you are away moves to the day after your absence, at the usual "
                f"time, for every player; your absences may move deadlines by up to "
                f"{ruleset.absence_days_per_year} days in each game year ({cited}).")
    if policy == "hold_without_nmr":
        return (f"The deadlines stand; at a deadline that falls while you are away your units hold and the turn is "
                f"not counted as a missed turn ({cited}).")
    return (f"The GM is told and decides what your absence does (a later deadline, a stand-in, or nothing); the "
            f"deadlines stand unless the GM moves them ({cited}).")


def registration_problem(ruleset: Ruleset, days: int, used: int) -> str | None:
    """Why an absence of `days` days cannot be registered, or None."""
    if ruleset.absence_policy == "none":
        return f"absences are not registered in this game ({clause(ruleset)}); ask the GM."
    if ruleset.absence_policy == "move_deadline" and days > days_left(ruleset, used):
        left = days_left(ruleset, used)
        return (f"it is {days} days long, and your absences may move deadlines by {ruleset.absence_days_per_year} "
                f"days a game year ({clause(ruleset)}): you have {left} day" + ("" if left == 1 else "s")
                + " left this year. Register a shorter absence, or ask the GM.")
    return None
