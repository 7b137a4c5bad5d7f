"""A game's schedule: deadlines at a fixed time of day, each from the one before. Pure; time is a
parameter (tests/unit/test_schedule.py holds the tables).

A schedule, not a stopwatch: the next deadline is the previous DEADLINE plus the next
phase's length, at the game's fixed local time of day, so processing a turn early or late never
shifts the deadlines after it. Whole-day lengths are counted in calendar days in the game's time
zone (18:00 stays 18:00 across a DST change, 31 January + 2 days is 2 February); other lengths
(a test or demo game of minutes) are exact durations. Only when processing is so late that the
scheduled deadline would leave less than the minimum turn length does the deadline move, by
whole days (whole lengths for sub-day turns), keeping the time of day. Processing in the grace
period, or a little after it (`late_tolerance`: a daemon restart, the sweep's interval), is on
time: otherwise a turn as long as its minimum would lose a day to a second's lateness.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from gmserver.rules.deadlines import DAY, TurnLengths
from gmserver.rules.position import describe_phase, phase_type
from gmserver.rules.ruleset import Ruleset

_PHASE_WORDS = {"M": "a movement", "R": "a retreat", "A": "an adjustment"}


@dataclass(frozen=True)
class Schedule:
    """What a game's deadlines follow. `time_of_day` is local to `zone`; None keeps the previous
    deadline's own time of day. `minimums` are the profile's minimum turn lengths (None: the
    game's own lengths are the minimums)."""

    lengths: TurnLengths
    zone: str = "UTC"
    time_of_day: time | None = None
    minimums: TurnLengths | None = None
    grace: timedelta = timedelta(0)  # processing_grace_minutes: adjudication runs this long after a deadline

    def minimum(self, phase: str) -> timedelta | None:
        """The least time a phase must leave the players: the profile's minimum, never more
        than the game's own length (a game set up before minimums were enforced keeps its)."""
        length = self.lengths.for_phase(phase)
        floor = self.minimums.for_phase(phase) if self.minimums is not None else None
        if length is None:
            return None
        return length if floor is None else min(floor, length)


def minimums_of(ruleset: Ruleset) -> TurnLengths:
    """The profile's minimum turn lengths (min_hours_movement/retreat/adjustment)."""
    return TurnLengths(timedelta(hours=ruleset.min_hours_movement), timedelta(hours=ruleset.min_hours_retreat),
                       timedelta(hours=ruleset.min_hours_adjustment))


def default_lengths(ruleset: Ruleset, movement: timedelta | None = None, retreat: timedelta | None = None,
                    adjustment: timedelta | None = None) -> TurnLengths:
    """A new game's turn lengths: those the GM gives, the others derived from the profile.

    001 IV(4) (`target_days_per_game_turn`): "the guide will be that each Turn takes a week". A
    Turn is a season with its retreat and adjustment turns (Fall's is the longest), so the
    lengths the GM leaves open are chosen so that movement + retreat + adjustment make the
    target: retreat and adjustment turns get their minimum, the movement turn (where the
    diplomacy happens) the rest, and never less than its minimum (a target below the minimums'
    sum is not met). Under 003 [5]'s two-season game (`uk_two_season`) retreats and builds ride
    with the moves, so the movement turn is the whole Turn. Without a target every open length
    is the profile's minimum (min_hours_*)."""
    floors = minimums_of(ruleset)
    retreat = retreat if retreat is not None else floors.retreat
    adjustment = adjustment if adjustment is not None else floors.adjustment
    if movement is None:
        movement = floors.movement
        target = ruleset.target_days_per_game_turn
        if target is not None:
            # 001 IV(4): the movement turn takes what the retreat and adjustment turns leave of the Turn
            minor = timedelta(0) if ruleset.season_structure == "uk_two_season" else retreat + adjustment
            movement = max(floors.movement, target * DAY - minor)
    return TurnLengths(movement, retreat, adjustment)


def local_instant(day: date, at: time, zone: str) -> datetime:
    """`day` at wall-clock `at` in `zone`, in UTC. A time the DST change skips (02:30 on the
    spring-forward night) comes out an hour later on the clock; one it repeats is its first."""
    local = datetime.combine(day, at.replace(tzinfo=None), tzinfo=ZoneInfo(zone))
    return local.astimezone(UTC)


def local_time_of_day(moment: datetime, zone: str) -> time:
    """The wall-clock time of `moment` in `zone`, to the second: the time of day a schedule keeps."""
    return moment.astimezone(ZoneInfo(zone)).time().replace(microsecond=0, tzinfo=None)


def scheduled_deadline(previous: datetime, phase: str, schedule: Schedule) -> datetime | None:
    """Where the schedule puts `phase`'s deadline, given the deadline of the phase before it.
    None when the game is over (no phase to order)."""
    _aware(previous, "previous")
    length = schedule.lengths.for_phase(phase)
    if length is None:
        return None
    if length % DAY:
        return (previous + length).astimezone(UTC)
    day, at = _scheduled_day(previous, length, schedule)
    return local_instant(day, at, schedule.zone)


def _scheduled_day(previous: datetime, length: timedelta, schedule: Schedule) -> tuple[date, time]:
    """The local date and time of day of a whole-day turn's deadline, counted in calendar days."""
    local = previous.astimezone(ZoneInfo(schedule.zone))
    at = schedule.time_of_day or local.time().replace(tzinfo=None)
    return local.date() + timedelta(days=length // DAY), at


def next_deadline(previous: datetime, phase: str, schedule: Schedule, now: datetime) -> datetime | None:
    """The deadline of `phase`, opened at `now` after the phase whose deadline was `previous`.

    Early processing (`now` before `previous`) and late processing keep the scheduled deadline;
    only a deadline that would leave less than the phase's minimum after `now` moves forward, by
    whole days at the fixed time of day (by whole lengths for sub-day turns)."""
    _aware(now, "now")
    deadline = scheduled_deadline(previous, phase, schedule)
    minimum = schedule.minimum(phase)
    if deadline is None or minimum is None:
        return deadline
    if turn_length(now, deadline, schedule.zone) >= minimum - schedule.grace - late_tolerance(minimum):
        return deadline
    length = schedule.lengths.for_phase(phase)
    assert length is not None
    if length % DAY:
        steps = math.ceil((now + minimum - deadline) / length)
        return deadline + steps * length
    day, at = _scheduled_day(previous, length, schedule)

    def on(extra: int) -> datetime:
        return local_instant(day + timedelta(days=extra), at, schedule.zone)

    # a first guess in whole days, then corrected: a DST change makes one day 23 or 25 hours
    days = max(1, math.ceil((now + minimum - deadline) / DAY))
    while days > 1 and turn_length(now, on(days - 1), schedule.zone) >= minimum:
        days -= 1
    while turn_length(now, on(days), schedule.zone) < minimum:
        days += 1
    return on(days)


def turn_length(start: datetime, end: datetime, zone: str) -> timedelta:
    """How long a turn from `start` to `end` lasts, as the players' clocks in `zone` count it: a
    turn over the night clocks go forward is "2 days" from 18:00 to 18:00 though 47 hours pass,
    so a whole-day minimum is met on the calendar, not shortened by DST (nor lengthened)."""
    local = ZoneInfo(zone)
    return end.astimezone(local).replace(tzinfo=None) - start.astimezone(local).replace(tzinfo=None)


def late_tolerance(minimum: timedelta) -> timedelta:
    """How much late processing may cut from the next turn before its deadline moves: an hour,
    or a 24th of a shorter turn (a test game of minutes must not be cut by an hour)."""
    return min(timedelta(hours=1), minimum / 24)


def first_deadline(phase: str, now: datetime, schedule: Schedule) -> datetime | None:
    """A new game's first deadline when the GM gives none: one full turn from `now`, at the
    fixed time of day if there is one (the first at least a full turn away), else rounded up to
    the whole minute (turns of an hour or more), so that the schedule starts on a readable time."""
    _aware(now, "now")
    length = schedule.lengths.for_phase(phase)
    if length is None:
        return None
    earliest = now + length
    if length < timedelta(hours=1):
        return earliest.astimezone(UTC)  # a demo's turn of seconds: no rounding
    if schedule.time_of_day is None or length % DAY:
        rounded = earliest.replace(second=0, microsecond=0)
        return (rounded if rounded == earliest else rounded + timedelta(minutes=1)).astimezone(UTC)
    local_day = earliest.astimezone(ZoneInfo(schedule.zone)).date()
    candidate = local_instant(local_day, schedule.time_of_day, schedule.zone)
    return candidate if candidate >= earliest else local_instant(local_day + timedelta(days=1),
                                                                 schedule.time_of_day, schedule.zone)


# -- the minimums, enforced (min_hours_*) ---------------------------------------------


def _hours(length: timedelta) -> str:
    hours = length / timedelta(hours=1)
    shown = f"{hours:g}"
    return f"{shown} hour" + ("" if shown == "1" else "s")


def _clause(ruleset: Ruleset | None) -> str:
    """The clause the profile takes its minimum turn lengths from (its min_hours_movement's)."""
    cited = ruleset.cites("min_hours_movement") if ruleset is not None else None
    return f"house rules {cited}" if cited else "the minimum turn lengths of this game's house rules"


def length_problems(lengths: TurnLengths, minimums: TurnLengths, ruleset: Ruleset | None = None) -> list[str]:
    """A GM-chosen turn length shorter than the profile's minimum, in words (game create)."""
    problems = []
    for kind, word in _PHASE_WORDS.items():
        length, floor = getattr(lengths, _FIELDS[kind]), getattr(minimums, _FIELDS[kind])
        if length < floor:
            problems.append(f"{word} turn must last at least {_hours(floor)} ({_clause(ruleset)}); "
                            f"{_hours(length)} is too short")
    return problems


_FIELDS = {"M": "movement", "R": "retreat", "A": "adjustment"}


def deadline_problems(phase: str, deadline: datetime, *, opened_at: datetime, now: datetime,
                      minimums: TurnLengths, ruleset: Ruleset | None = None, zone: str = "UTC") -> list[str]:
    """Why a deadline the GM sets for `phase` (at game create, or `game deadline NAME ISO-TIME`)
    cannot be used, in words; [] when it can. The turn, from `opened_at` (when the phase opened;
    at create, now) to the deadline, must last the profile's minimum for its kind of phase, and
    the deadline must be in the future. The length is counted on the clocks of the game's
    `zone` (`turn_length`), as the schedule counts it."""
    if deadline.tzinfo is None:
        return ["the deadline needs a time zone (e.g. 2026-12-01T18:00+00:00)"]
    kind = phase_type(phase)
    if kind == "-":
        return [f"the game is over ({phase}): it has no deadline to set"]
    problems = []
    if deadline <= now:
        problems.append(f"the deadline {deadline.isoformat()} has already passed")
    floor = minimums.for_phase(phase)
    if floor is not None and turn_length(opened_at, deadline, zone) < floor:
        problems.append(
            f"{_PHASE_WORDS[kind]} turn must last at least {_hours(floor)} ({_clause(ruleset)}): "
            f"{describe_phase(phase)} began {opened_at.isoformat(timespec='minutes')}, so its deadline may be "
            f"{(opened_at + floor).isoformat(timespec='minutes')} at the earliest")
    return problems


def _aware(moment: datetime, name: str) -> None:
    if moment.tzinfo is None:
        raise ValueError(f"{name} must be timezone-aware")


# -- when a turn is adjudicated -------------------------------------------------------


def adjudication_time(deadline: datetime | None, ruleset: Ruleset) -> datetime | None:
    """When the server adjudicates a phase by itself: the deadline plus `processing_grace_minutes`;
    None when nothing is automatic (no deadline, or adjudication_trigger = gm_command: the GM's
    `gmserver adjudicate NAME` starts it, and under adjudication_start orders are taken until then,
    000 VII(3))."""
    if deadline is None or ruleset.adjudication_trigger == "gm_command":
        return None
    return deadline + timedelta(minutes=ruleset.processing_grace_minutes)


def adjudication_due(deadline: datetime | None, ruleset: Ruleset, now: datetime) -> bool:
    at = adjudication_time(deadline, ruleset)
    return at is not None and at <= now


def empty_retreat_turn(ruleset: Ruleset, phase: str, next_phase: str) -> str | None:
    """report_empty_retreat_season (002 PRESS 7 "Press will be allowed for the retreat season, even
    if there are no retreats that season"): the retreat turn to hold after movement `phase` when the
    engine went on to `next_phase` without one ("S1901R" after "S1901M" -> "F1901M"); None when the
    rules skip it or the season had retreats."""
    if not ruleset.report_empty_retreat_season or phase_type(phase) != "M" or phase_type(next_phase) == "-":
        return None
    retreat = phase[:-1] + "R"
    return None if next_phase == retreat else retreat


def minor_turn_complete(phase: str, owing: set[str] | frozenset[str], ready: set[str] | frozenset[str]) -> bool:
    """A retreat or adjustment turn in which every power that owes orders has a final set (or
    contingent orders) on file: `ready`. A movement turn (Spring, Fall) never is (000 VII(2))."""
    return phase_type(phase) in ("R", "A") and bool(owing) and owing <= ready


def early_adjudication_ready(ruleset: Ruleset, phase: str, owing: set[str] | frozenset[str],
                             ready: set[str] | frozenset[str]) -> bool:
    """early_processing = minor_when_all_final (000 VII(2)): a complete minor turn is adjudicated
    before its deadline. (minor_gm_discretion only tells the GM, who decides.)"""
    return ruleset.early_processing == "minor_when_all_final" and minor_turn_complete(phase, owing, ready)


def early_major_turn(ruleset: Ruleset, phase: str, deadline: datetime | None, now: datetime) -> str | None:
    """major_turns_early = never (000 VII(2) "major turns never before the deadline", 001 IV(2)):
    why the GM may not adjudicate this movement turn now, its deadline still ahead; None when the
    house rules let the GM do it (or the deadline has passed, or it is no movement turn)."""
    if ruleset.major_turns_early != "never" or phase_type(phase) != "M" or deadline is None or now >= deadline:
        return None
    cited = ruleset.cites("major_turns_early")
    return (f"the deadline of {describe_phase(phase)} has not passed: under the house rules a movement turn is "
            f"never adjudicated before its deadline{f' ({cited})' if cited else ''}")


# -- reminders (`reminders`) -----------------------------------------------------------


@dataclass(frozen=True)
class DueReminder:
    """The `number`th entry of the profile's reminders list, due now, for `audience`."""

    number: int
    audience: str  # powers_without_set | all_powers


def clock_reminders(ruleset: Ruleset, first_offset: timedelta | None = None) -> list[tuple[int, timedelta, str]]:
    """(number, how long before the deadline, audience) of each clock reminder of the profile, in
    list order. `first_offset`: the game's own offset for the first of them (`--reminder-hours`);
    zero switches the clock reminders off."""
    entries = [(n, timedelta(hours=r.hours_before), r.audience)
               for n, r in enumerate(ruleset.reminders) if r.hours_before is not None]
    if first_offset is not None and entries:
        if first_offset <= timedelta(0):
            return []
        entries[0] = (entries[0][0], first_offset, entries[0][2])
    return [e for e in entries if e[1] > timedelta(0)]


def due_reminders(ruleset: Ruleset, deadline: datetime | None, opened_at: datetime, now: datetime,
                  first_offset: timedelta | None = None) -> list[DueReminder]:
    """The clock reminders whose time has come: in [deadline - offset, deadline), for a phase
    that opened before that time (a turn shorter than the offset: its report just told them).
    Each is sent once per phase and power (the caller's outbox dedupe key)."""
    if deadline is None or now >= deadline:
        return []
    return [DueReminder(n, audience) for n, offset, audience in clock_reminders(ruleset, first_offset)
            if deadline - offset <= now and opened_at < deadline - offset]


def next_reminder_time(ruleset: Ruleset, deadline: datetime | None, opened_at: datetime, now: datetime,
                       first_offset: timedelta | None = None) -> datetime | None:
    """When the next clock reminder after `now` falls due (`due_reminders` turns to it then);
    None when no other is left in the phase."""
    if deadline is None:
        return None
    ahead = [deadline - offset for _, offset, _ in clock_reminders(ruleset, first_offset)
             if now < deadline - offset and opened_at < deadline - offset]
    return min(ahead, default=None)


def reminder_times(ruleset: Ruleset, deadline: datetime | None, first_offset: timedelta | None = None) -> list[datetime]:
    """When each clock reminder of the phase falls, earliest first (for the scheduler's jobs)."""
    if deadline is None:
        return []
    return sorted(deadline - offset for _, offset, _ in clock_reminders(ruleset, first_offset))


def report_reminders(ruleset: Ruleset) -> list[str]:
    """The audiences of the reminders sent with the report that opens a turn (003 [11]: "send
    provisional orders as soon as the adjudication arrives")."""
    return [r.audience for r in ruleset.reminders if r.hours_before is None]
