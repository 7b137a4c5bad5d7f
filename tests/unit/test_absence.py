"""What registered absences do to a deadline (gmserver/rules/absence.py), by tables.

The deadlines are 18:00 in Europe/London. 2026's summer time begins on 29 March (18:00 GMT is
18:00 UTC before it, 18:00 BST is 17:00 UTC after it) and ends on 25 October (the reverse).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime

import pytest

from gmserver.rules.absence import Absence, decide_absences, effect_words, registration_problem
from gmserver.rules.ruleset import load_ruleset

LONDON = "Europe/London"
MHR = load_ruleset("mhr")  # absence_policy = move_deadline (000 VII(5)), absence_days_per_year = 7


def at(month: int, day: int, hour: int = 18) -> datetime:
    return datetime(2026, month, day, hour, 0, tzinfo=UTC)


def away(power: str, first: tuple[int, int], last: tuple[int, int], zone: str = LONDON) -> Absence:
    return Absence(power, date(2026, *first), date(2026, *last), zone)


@pytest.mark.parametrize(("deadline", "absences", "used", "expected", "days_used"), [
    # inside: the deadline moves to the day after the last day away, at the same time of day
    (at(12, 22), [away("ENGLAND", (12, 20), (12, 24))], {}, at(12, 25), {"ENGLAND": 3}),
    # on the last day away (across the absence's end): the day after
    (at(12, 24), [away("ENGLAND", (12, 20), (12, 24))], {}, at(12, 25), {"ENGLAND": 1}),
    # after the absence: it stands
    (at(12, 25), [away("ENGLAND", (12, 20), (12, 24))], {}, at(12, 25), {}),
    # before it: it stands
    (at(12, 19), [away("ENGLAND", (12, 20), (12, 24))], {}, at(12, 19), {}),
    # two players away at once: the later end
    (at(12, 23), [away("ENGLAND", (12, 20), (12, 24)), away("FRANCE", (12, 22), (12, 27), "Europe/Paris")], {},
     at(12, 28), {"FRANCE": 5}),
    # one absence after the other: moved past the first, then past the second
    (at(12, 23), [away("ENGLAND", (12, 20), (12, 24)), away("FRANCE", (12, 25), (12, 27))], {},
     at(12, 28), {"ENGLAND": 2, "FRANCE": 3}),
    # the allowance partly used (5 of 7 days): moved by the 2 days left only
    (at(12, 21), [away("ENGLAND", (12, 20), (12, 26))], {"ENGLAND": 5}, at(12, 23), {"ENGLAND": 2}),
    # the allowance wholly used: it stands
    (at(12, 21), [away("ENGLAND", (12, 20), (12, 26))], {"ENGLAND": 7}, at(12, 21), {}),
    # the player's own calendar: 22:00 on 22 December in New York is 03:00 on the 23rd in London
    (at(12, 23, 3), [away("ENGLAND", (12, 20), (12, 22), "America/New_York")], {}, at(12, 24, 3), {"ENGLAND": 1}),
    # summer time begins inside the absence: 18:00 GMT (18:00 UTC) becomes 18:00 BST (17:00 UTC)
    (at(3, 28), [away("ENGLAND", (3, 27), (3, 30))], {}, at(3, 31, 17), {"ENGLAND": 3}),
    # summer time ends inside the absence: 18:00 BST (17:00 UTC) becomes 18:00 GMT (18:00 UTC)
    (at(10, 24, 17), [away("ENGLAND", (10, 23), (10, 26))], {}, at(10, 27, 18), {"ENGLAND": 3}),
], ids=["inside", "last-day", "after", "before", "two-overlapping", "two-in-a-row", "allowance-partly-used",
       "allowance-used-up", "player-zone", "dst-march", "dst-october"])
def test_000_VII_5_move_deadline_moves_a_deadline_in_an_absence_to_its_end(deadline, absences, used, expected,
                                                                            days_used) -> None:
    plan = decide_absences(MHR, deadline, absences, used, LONDON)
    assert plan.deadline == expected
    assert dict(plan.days_used) == days_used
    assert plan.holding == frozenset()


def test_000_VII_5_a_deadline_the_allowance_cannot_move_leaves_the_player_absent_at_it() -> None:
    plan = decide_absences(MHR, at(12, 21), [away("ENGLAND", (12, 20), (12, 26))], {"ENGLAND": 7}, LONDON)
    assert plan.absent == frozenset({"ENGLAND"}) and not plan.moved


def test_hold_without_nmr_keeps_the_deadline_and_holds_the_absent_power_without_a_missed_turn() -> None:
    ruleset = dataclasses.replace(MHR, absence_policy="hold_without_nmr")
    plan = decide_absences(ruleset, at(12, 22), [away("ENGLAND", (12, 20), (12, 24)),
                                                 away("FRANCE", (12, 26), (12, 27))], {}, LONDON)
    assert plan.deadline == at(12, 22)
    assert plan.holding == frozenset({"ENGLAND"}) == plan.absent


@pytest.mark.parametrize("policy", ["gm_decides", "none"])
def test_gm_decides_and_none_never_move_the_deadline(policy) -> None:
    ruleset = dataclasses.replace(MHR, absence_policy=policy)
    plan = decide_absences(ruleset, at(12, 22), [away("ENGLAND", (12, 20), (12, 24))], {}, LONDON)
    assert plan.deadline == at(12, 22) and plan.holding == frozenset() and not plan.moved
    assert plan.absent == (frozenset({"ENGLAND"}) if policy == "gm_decides" else frozenset())


def test_000_VII_5_an_absence_longer_than_the_days_left_is_refused_saying_how_many_are_left() -> None:
    problem = registration_problem(MHR, days=5, used=4)
    assert problem is not None
    assert "5 days long" in problem and "you have 3 days left this year" in problem and "000 VII(5)" in problem
    assert registration_problem(MHR, days=3, used=4) is None


def test_the_answer_names_the_clause_of_the_profile_or_says_the_house_rules_are_silent() -> None:
    assert "(house rules 000 VII(5))" in effect_words(MHR)
    assert "up to 7 days in each game year" in effect_words(MHR)
    assert "where its house rules are silent" in effect_words(load_ruleset("scorpion"))
    assert "GM is told and decides" in effect_words(load_ruleset("scorpion"))


def test_absence_days_per_year_is_the_allowance_a_game_sets() -> None:
    """absence_days_per_year at another value than the profiles' 7: three days a year move a
    deadline by three days at most, and a four-day absence is refused with what is left."""
    ruleset = dataclasses.replace(MHR, absence_days_per_year=3)
    plan = decide_absences(ruleset, at(12, 21), [away("ENGLAND", (12, 20), (12, 26))], {}, LONDON)
    assert plan.deadline == at(12, 24) and dict(plan.days_used) == {"ENGLAND": 3}
    assert registration_problem(ruleset, 3, 0) is None
    assert "by 3 days a game year" in (registration_problem(ruleset, 4, 0) or "")
