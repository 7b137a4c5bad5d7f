"""The schedule's maths, by tables ("Deadline maths is pure and tested with tables").

Every expected value is worked out by hand from the calendar: 2026's DST changes are Europe/London
29 March (GMT -> BST) and 25 October (BST -> GMT), America/New_York 8 March and 1 November,
Australia/Sydney 5 April (AEDT -> AEST) and 4 October (AEST -> AEDT); 2028 is a leap year.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from gmserver.rules.deadlines import TurnLengths
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.ruleset_options import Reminder
from gmserver.rules.schedule import (
    Schedule,
    adjudication_due,
    adjudication_time,
    deadline_problems,
    default_lengths,
    due_reminders,
    early_adjudication_ready,
    early_major_turn,
    first_deadline,
    length_problems,
    minimums_of,
    next_deadline,
    reminder_times,
    report_reminders,
    scheduled_deadline,
)

UTC = UTC
H = timedelta(hours=1)
STANDARD = TurnLengths(48 * H, 24 * H, 24 * H)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def at(zone: str, tod: time | None = None, lengths: TurnLengths = STANDARD, **kw) -> Schedule:
    return Schedule(lengths, zone, tod, **kw)


# -- on time: the deadline after an 18:00 local deadline is 18:00 local, N calendar days on -----

@pytest.mark.parametrize(("previous", "phase", "schedule", "expected"), [
    pytest.param(utc(2026, 11, 4, 18), "F1901M", at("UTC"), utc(2026, 11, 6, 18), id="UTC movement 48 h"),
    pytest.param(utc(2026, 11, 6, 18), "F1901R", at("UTC"), utc(2026, 11, 7, 18), id="UTC retreat 24 h"),
    pytest.param(utc(2026, 10, 23, 17), "F1901M", at("Europe/London"), utc(2026, 10, 25, 18),
                 id="London BST->GMT: 18:00 stays 18:00 (49 h)"),
    pytest.param(utc(2026, 3, 27, 18), "S1901M", at("Europe/London"), utc(2026, 3, 29, 17),
                 id="London GMT->BST: 18:00 stays 18:00 (47 h)"),
    pytest.param(utc(2026, 3, 6, 23), "S1901M", at("America/New_York"), utc(2026, 3, 8, 22),
                 id="New York EST->EDT"),
    pytest.param(utc(2026, 10, 30, 22), "F1901M", at("America/New_York"), utc(2026, 11, 1, 23),
                 id="New York EDT->EST"),
    pytest.param(utc(2026, 4, 3, 7), "S1901M", at("Australia/Sydney"), utc(2026, 4, 5, 8),
                 id="Sydney AEDT->AEST (southern autumn)"),
    pytest.param(utc(2026, 10, 2, 8), "F1901M", at("Australia/Sydney"), utc(2026, 10, 4, 7),
                 id="Sydney AEST->AEDT (southern spring)"),
    pytest.param(utc(2026, 1, 30, 18), "S1901M", at("UTC"), utc(2026, 2, 1, 18), id="month end: 30 Jan + 2 days"),
    pytest.param(utc(2026, 12, 31, 18), "F1901R", at("UTC"), utc(2027, 1, 1, 18), id="year end: 31 Dec + 1 day"),
    pytest.param(utc(2028, 2, 28, 18), "S1901M", at("UTC"), utc(2028, 3, 1, 18), id="leap year: 28 Feb + 2 = 1 Mar"),
    pytest.param(utc(2027, 2, 28, 18), "S1901M", at("UTC"), utc(2027, 3, 2, 18), id="common year: 28 Feb + 2 = 2 Mar"),
    pytest.param(utc(2026, 10, 30, 5, 30), "F1901M", at("America/New_York", time(1, 30)), utc(2026, 11, 1, 5, 30),
                 id="01:30 on the night clocks go back: the first 01:30 (EDT)"),
    pytest.param(utc(2026, 3, 6, 7, 30), "S1901M", at("America/New_York", time(2, 30)), utc(2026, 3, 8, 7, 30),
                 id="02:30 on the night clocks skip it: 03:30 EDT"),
    pytest.param(utc(2026, 3, 8, 7, 30), "S1901R", at("America/New_York", time(2, 30)), utc(2026, 3, 9, 6, 30),
                 id="after the skipped night the fixed 02:30 comes back"),
    pytest.param(utc(2026, 11, 4, 18), "COMPLETED", at("UTC"), None, id="game over: no deadline"),
])
def test_scheduled_deadline(previous, phase, schedule, expected) -> None:
    assert scheduled_deadline(previous, phase, schedule) == expected
    assert next_deadline(previous, phase, schedule, now=previous) == expected


# -- early and late processing never shift the schedule; only a too-short turn moves by days ------

MIN_24 = TurnLengths(24 * H, 24 * H, 24 * H)


@pytest.mark.parametrize(("previous", "now", "phase", "schedule", "expected"), [
    pytest.param(utc(2026, 11, 5, 18), utc(2026, 11, 4, 20, 13), "S1902M", at("UTC"), utc(2026, 11, 7, 18),
                 id="early (000 VII(2) winter): still from the winter deadline"),
    pytest.param(utc(2026, 11, 4, 18), utc(2026, 11, 4, 18, 40), "F1901M", at("UTC"), utc(2026, 11, 6, 18),
                 id="40 minutes late (a restart): schedule kept"),
    pytest.param(utc(2026, 11, 4, 18), utc(2026, 11, 4, 21), "F1901M", at("UTC"), utc(2026, 11, 7, 18),
                 id="3 hours late: 45 h left < 48 h minimum, a whole day on, still 18:00"),
    pytest.param(utc(2026, 11, 4, 18), utc(2026, 11, 6, 19), "F1901M", at("UTC"), utc(2026, 11, 9, 18),
                 id="2 days late (daemon down): the first 18:00 at least 48 h away"),
    pytest.param(utc(2026, 11, 4, 18), utc(2026, 11, 5, 12), "F1901M",
                 at("UTC", lengths=TurnLengths(72 * H, 24 * H, 24 * H), minimums=TurnLengths(48 * H, 24 * H, 24 * H)),
                 utc(2026, 11, 7, 18), id="18 h late, 72 h turn, 48 h minimum: 54 h left, schedule kept"),
    pytest.param(utc(2026, 10, 24, 17), utc(2026, 10, 24, 22), "F1901R", at("Europe/London"), utc(2026, 10, 26, 18),
                 id="5 h late across BST->GMT: Monday 18:00 GMT"),
    pytest.param(utc(2026, 11, 4, 18), utc(2026, 11, 4, 19, 20), "F1901M", at("UTC", grace=30 * timedelta(minutes=1)),
                 utc(2026, 11, 6, 18), id="80 min after the deadline with 30 min grace: on time"),
    pytest.param(utc(2026, 11, 4, 18), utc(2026, 11, 4, 19, 20), "F1901M", at("UTC"), utc(2026, 11, 7, 18),
                 id="80 min after the deadline without grace: a day on"),
    pytest.param(utc(2026, 11, 4, 21, 30), utc(2026, 11, 4, 21, 30), "F1901M", at("UTC", time(18, 0)),
                 utc(2026, 11, 7, 18), id="GM-extended to 21:30: back to 18:00, a full 48 h minimum"),
    pytest.param(utc(2026, 11, 4, 21, 30), utc(2026, 11, 4, 21, 30), "F1901M", at("UTC", time(18, 0), minimums=MIN_24),
                 utc(2026, 11, 6, 18), id="GM-extended to 21:30, 24 h minimum: back to 18:00 two days on"),
    pytest.param(utc(2026, 11, 22, 12), utc(2026, 11, 22, 12, 0, 0, 200000), "S1901M",
                 at("UTC", lengths=TurnLengths(15 * timedelta(seconds=1), 5 * timedelta(seconds=1),
                                               5 * timedelta(seconds=1))),
                 utc(2026, 11, 22, 12, 0, 15), id="15-second demo turn: exact durations"),
    pytest.param(utc(2026, 11, 22, 12), utc(2026, 11, 22, 12, 1), "S1901M",
                 at("UTC", lengths=TurnLengths(15 * timedelta(seconds=1), 5 * timedelta(seconds=1),
                                               5 * timedelta(seconds=1))),
                 utc(2026, 11, 22, 12, 1, 15), id="demo turn a minute late: whole 15 s steps"),
])
def test_processing_early_or_late(previous, now, phase, schedule, expected) -> None:
    assert next_deadline(previous, phase, schedule, now) == expected


def test_no_drift_over_a_year_of_turns_processed_late_each_time() -> None:
    """73 game years of Spring (48 h), Fall (48 h), Winter (24 h), each adjudicated 40 minutes
    after its deadline, across both London DST changes: every deadline is 18:00 London, and 365
    days after Monday 2 November 2026 18:00 GMT comes Tuesday 2 November 2027 18:00 GMT."""
    schedule = at("Europe/London", time(18, 0))
    deadline = utc(2026, 11, 2, 18)
    phases = ["F1901M", "W1901A", "S1902M"] * 73
    for phase in phases:
        deadline = next_deadline(deadline, phase, schedule, now=deadline + 40 * timedelta(minutes=1))
        local = deadline.astimezone(ZoneInfo("Europe/London"))
        assert (local.hour, local.minute, local.second) == (18, 0, 0), phase
    assert deadline == utc(2027, 11, 2, 18)


@pytest.mark.parametrize(("now", "schedule", "expected"), [
    pytest.param(datetime(2026, 11, 22, 13, 33, 34, 354602, tzinfo=UTC), at("UTC"), utc(2026, 11, 24, 13, 34),
                 id="no time of day: a full turn, to the next whole minute"),
    pytest.param(utc(2026, 11, 22, 13, 33), at("Europe/London", time(18, 0)), utc(2026, 11, 24, 18),
                 id="18:00 London: the first 18:00 a full turn away"),
    pytest.param(utc(2026, 11, 22, 13, 33), at("UTC", time(12, 0)), utc(2026, 11, 25, 12),
                 id="12:00: the 24th's is less than a full turn away, so the 25th"),
])
def test_first_deadline(now, schedule, expected) -> None:
    assert first_deadline("S1901M", now, schedule) == expected


def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError):
        next_deadline(datetime(2026, 1, 1), "S1901M", at("UTC"), utc(2026, 1, 1))
    with pytest.raises(ValueError):
        next_deadline(utc(2026, 1, 1), "S1901M", at("UTC"), datetime(2026, 1, 1))


# -- the minimums are enforced (min_hours_*) --------------------------------------------

def test_minimums_come_from_the_profile_001_IV_4() -> None:
    """001 IV(4): 72 hours for a movement turn, 24 for retreats and adjustments."""
    assert minimums_of(load_ruleset("danivon")) == TurnLengths(72 * H, 24 * H, 24 * H)
    assert minimums_of(load_ruleset("mhr")) == TurnLengths(48 * H, 24 * H, 24 * H)  # 000 VII(4)


# -- the lengths a GM leaves open (min_hours_*, target_days_per_game_turn) ---------------
# 001 IV(4): minimums 3 days / 1 day / 1 day, "the guide will be that each Turn takes a week": a Fall
# Turn of movement + retreat + adjustment = 7 days, so the movement turn gets 7 - 1 - 1 = 5 days.

D = timedelta(days=1)


def _with_target(profile: str, days: int | None):
    return dataclasses.replace(load_ruleset(profile), target_days_per_game_turn=days)


@pytest.mark.parametrize(("ruleset", "given", "expected"), [
    pytest.param(load_ruleset("danivon"), {}, TurnLengths(5 * D, D, D), id="001 IV(4) a week: 5 + 1 + 1 days"),
    pytest.param(load_ruleset("danivon"), {"retreat": 2 * D}, TurnLengths(4 * D, 2 * D, D),
                 id="001 IV(4) a 2-day retreat turn leaves the movement turn 4 days"),
    pytest.param(load_ruleset("danivon"), {"movement": 4 * D}, TurnLengths(4 * D, D, D),
                 id="001 IV(4) the GM's own movement length is kept"),
    pytest.param(_with_target("danivon", 4), {}, TurnLengths(3 * D, D, D),
                 id="a target below the minimums' sum: the 72 h minimum stands (001 IV(4))"),
    pytest.param(_with_target("danivon", 10), {"adjustment": 36 * H}, TurnLengths(7 * D + 12 * H, D, 36 * H),
                 id="a 10-day target with a 36 h adjustment turn: 10 d - 1 d - 1.5 d"),
    pytest.param(_with_target("scorpion", 14), {}, TurnLengths(14 * D, D, D),
                 id="003 [5] two-season game: the movement turn is the whole Turn (a 2-week vote, 003 [23])"),
    pytest.param(load_ruleset("scorpion"), {}, TurnLengths(7 * D, D, D), id="003 [23] no target: 168 h minimum"),
    pytest.param(load_ruleset("mhr"), {}, TurnLengths(2 * D, D, D), id="000 VII(4) no target: the minimums"),
    pytest.param(load_ruleset("standard"), {"movement": 3 * D}, TurnLengths(3 * D, D, D), id="standard, GM's movement"),
])
def test_default_lengths_001_IV_4_a_turn_takes_a_week(ruleset, given, expected) -> None:
    assert default_lengths(ruleset, **given) == expected


def test_a_shorter_turn_length_is_refused_at_game_create_001_IV_4() -> None:
    problems = length_problems(TurnLengths(48 * H, 24 * H, 12 * H), minimums_of(load_ruleset("danivon")), load_ruleset("danivon"))
    assert problems == [
        "a movement turn must last at least 72 hours (house rules 001 IV(4)); 48 hours is too short",
        "an adjustment turn must last at least 24 hours (house rules 001 IV(4)); 12 hours is too short",
    ]
    assert length_problems(TurnLengths(72 * H, 24 * H, 24 * H), minimums_of(load_ruleset("danivon"))) == []


MHR_MIN = TurnLengths(48 * H, 24 * H, 24 * H)


@pytest.mark.parametrize(("phase", "deadline", "now", "expected"), [
    pytest.param("S1901M", utc(2026, 11, 24, 12), utc(2026, 11, 22, 12), [], id="exactly 48 h: fine"),
    pytest.param("S1901M", utc(2026, 11, 30, 12), utc(2026, 11, 23, 12), [], id="extended: fine"),
    pytest.param("S1901M", utc(2026, 11, 24, 11, 59), utc(2026, 11, 22, 12),
                 ["a movement turn must last at least 48 hours (house rules 000 VII(4)): Spring 1901 Movement "
                  "began 2026-11-22T12:00+00:00, so its deadline may be 2026-11-24T12:00+00:00 at the earliest"],
                 id="a minute short of 48 h"),
    pytest.param("F1901R", utc(2026, 11, 23, 11), utc(2026, 11, 22, 12),
                 ["a retreat turn must last at least 24 hours (house rules 000 VII(4)): Fall 1901 Retreats "
                  "began 2026-11-22T12:00+00:00, so its deadline may be 2026-11-23T12:00+00:00 at the earliest"],
                 id="retreat 23 h"),
    pytest.param("S1901M", utc(2026, 11, 25, 12), utc(2026, 11, 26, 12),
                 ["the deadline 2026-11-25T12:00:00+00:00 has already passed"], id="in the past"),
    pytest.param("COMPLETED", utc(2026, 11, 25, 12), utc(2026, 11, 22, 12),
                 ["the game is over (COMPLETED): it has no deadline to set"], id="game over"),
])
def test_deadline_problems_000_VII_4(phase, deadline, now, expected) -> None:
    opened = utc(2026, 11, 22, 12)
    assert deadline_problems(phase, deadline, opened_at=opened, now=now, minimums=MHR_MIN, ruleset=load_ruleset("mhr")) == expected


def test_a_deadline_without_a_time_zone_is_refused() -> None:
    assert deadline_problems("S1901M", datetime(2026, 12, 1, 18), opened_at=utc(2026, 11, 22), now=utc(2026, 11, 22),
                             minimums=MHR_MIN) == ["the deadline needs a time zone (e.g. 2026-12-01T18:00+00:00)"]


# -- grace period and trigger ---------------------------------------------------------

STD = load_ruleset("standard")
D = utc(2026, 11, 24, 18)


@pytest.mark.parametrize(("ruleset", "expected"), [
    pytest.param(STD, D, id="automatic, no grace: at the deadline"),
    pytest.param(dataclasses.replace(STD, processing_grace_minutes=30), D + 30 * timedelta(minutes=1),
                 id="processing_grace_minutes = 30: half an hour after"),
    pytest.param(dataclasses.replace(STD, adjudication_trigger="gm_command"), None,
                 id="adjudication_trigger = gm_command: only the GM's command"),
])
def test_adjudication_time(ruleset, expected) -> None:
    assert adjudication_time(D, ruleset) == expected
    assert adjudication_time(None, ruleset) is None


def test_adjudication_is_due_only_after_the_grace_period() -> None:
    graced = dataclasses.replace(STD, processing_grace_minutes=30)
    assert not adjudication_due(D, graced, D + 29 * timedelta(minutes=1))
    assert adjudication_due(D, graced, D + 30 * timedelta(minutes=1))
    assert adjudication_due(D, STD, D)
    assert not adjudication_due(D, dataclasses.replace(STD, adjudication_trigger="gm_command"), D + 100 * H)


# -- early adjudication, 000 VII(2): minor seasons only ---------------------------------------------

WHEN_FINAL = dataclasses.replace(STD, early_processing="minor_when_all_final")


@pytest.mark.parametrize(("ruleset", "phase", "owing", "ready", "expected"), [
    pytest.param(WHEN_FINAL, "F1901R", {"AUSTRIA", "ITALY"}, {"AUSTRIA", "ITALY"}, True, id="retreats, all final"),
    pytest.param(WHEN_FINAL, "W1901A", {"FRANCE"}, {"FRANCE", "RUSSIA"}, True, id="adjustments, all final"),
    pytest.param(WHEN_FINAL, "W1901A", {"FRANCE", "RUSSIA"}, {"FRANCE"}, False, id="one power not final"),
    pytest.param(WHEN_FINAL, "F1901M", {"FRANCE"}, {"FRANCE"}, False, id="000 VII(2): Fall never early"),
    pytest.param(WHEN_FINAL, "S1902M", {"FRANCE"}, {"FRANCE"}, False, id="000 VII(2): Spring never early"),
    pytest.param(WHEN_FINAL, "W1901A", set(), set(), False, id="nobody owes orders: nothing to wait for"),
    pytest.param(STD, "W1901A", {"FRANCE"}, {"FRANCE"}, False, id="early_processing = never"),
    pytest.param(load_ruleset("mhr"), "W1901A", {"FRANCE"}, {"FRANCE"}, False,
                 id="minor_gm_discretion (000 VII(2)): the GM decides"),
])
def test_early_adjudication_000_VII_2(ruleset, phase, owing, ready, expected) -> None:
    assert early_adjudication_ready(ruleset, phase, frozenset(owing), frozenset(ready)) is expected


# -- reminders: every entry of the profile's list ----------------------------------------------------

TWO = dataclasses.replace(STD, reminders=(Reminder("powers_without_set", 24), Reminder("all_powers", 2)))
OPENED = D - 48 * H


@pytest.mark.parametrize(("ruleset", "opened", "now", "first_offset", "expected"), [
    pytest.param(STD, OPENED, D - 25 * H, None, [], id="before the 24 h reminder"),
    pytest.param(STD, OPENED, D - 24 * H, None, [(0, "powers_without_set")], id="24 h before"),
    pytest.param(STD, OPENED, D - timedelta(seconds=1), None, [(0, "powers_without_set")], id="a second before"),
    pytest.param(STD, OPENED, D, None, [], id="at the deadline: too late"),
    pytest.param(TWO, OPENED, D - 3 * H, None, [(0, "powers_without_set")], id="two reminders: first only"),
    pytest.param(TWO, OPENED, D - 1 * H, None, [(0, "powers_without_set"), (1, "all_powers")], id="both"),
    pytest.param(STD, OPENED, D - 13 * H, 12 * H, [], id="the game's own 12 h offset: not yet"),
    pytest.param(STD, OPENED, D - 12 * H, 12 * H, [(0, "powers_without_set")], id="the game's own 12 h offset"),
    pytest.param(TWO, OPENED, D - 1 * H, timedelta(0), [], id="the game switched reminders off"),
    pytest.param(STD, D - 10 * H, D - 5 * H, None, [], id="a turn shorter than the offset: the report told them"),
    pytest.param(load_ruleset("scorpion"), OPENED, D - 1 * H, None, [(0, "powers_without_set")],
                 id="003 [11]: the with_report entry is not a clock reminder"),
])
def test_due_reminders(ruleset, opened, now, first_offset, expected) -> None:
    assert [(r.number, r.audience) for r in due_reminders(ruleset, D, opened, now, first_offset)] == expected


def test_reminder_times_and_reminders_with_the_report_003_11() -> None:
    assert reminder_times(TWO, D) == [D - 24 * H, D - 2 * H]
    assert reminder_times(TWO, None) == []
    assert report_reminders(load_ruleset("scorpion")) == ["all_powers"]
    assert report_reminders(STD) == []


EARLY_NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("profile, phase, deadline_in_hours, refused", [
    ("mhr", "S1901M", 48, "000 VII(2)"),  # 000 VII(2): "major turns never before the deadline"
    ("danivon", "F1901M", 1, "001 IV(2)"),  # 001 IV(2)
    ("mhr", "F1901R", 24, None),  # a minor turn: 000 VII(2) leaves it to the GM
    ("mhr", "S1901M", -1, None),  # the deadline has passed
    ("standard", "S1901M", 48, None),  # no such rule: the GM may
    ("scorpion", "S1901M", 48, None),
])
def test_major_turns_early_000_VII_2_001_IV_2(profile, phase, deadline_in_hours, refused) -> None:
    """major_turns_early = never (000 VII(2), 001 IV(2)): the GM's adjudication of a movement
    turn before its deadline is against the house rules, which are cited."""
    why = early_major_turn(load_ruleset(profile), phase, EARLY_NOW + timedelta(hours=deadline_in_hours), EARLY_NOW)
    if refused is None:
        assert why is None
    else:
        assert why is not None and f"never adjudicated before its deadline ({refused})" in why
