"""Missed orders and civil disorder (rules/nmr.py): tables named by clause, values by hand from
the seeds (000 VII(6), 001 V(1)-(5), 002 ORDERS 0 and 4, 003 [12]-[14]) and the options of
docs/rulesets.md 2.6 to 2.8."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gmserver.engine import map_info
from gmserver.rules.defaults import hopeless_powers
from gmserver.rules.nmr import (
    ASK_GM_CHOOSE,
    ENTER_CD,
    ONE_TURN_CD,
    RECORD_CD,
    SEEK_REPLACEMENT,
    TELL_GM_CD,
    NmrState,
    abandoned,
    after_turn,
    missed_turn,
    preliminary_checkpoint,
    search_over,
    search_until,
    spring_1901_waits_for,
    suspends_game,
)
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset


def rules(profile: str, **overrides):
    ruleset = load_ruleset(profile)
    return ruleset.with_overrides(overrides) if overrides else ruleset


@pytest.mark.parametrize(("owes", "ordered", "phase_type", "hopeless", "ruleset", "expected"), [
    pytest.param(True, False, "M", False, rules("standard"), True, id="owed moves, sent none: a miss"),
    pytest.param(True, True, "M", False, rules("standard"), False, id="sent a set: no miss"),
    pytest.param(False, False, "M", False, rules("standard"), None, id="no units: nothing owed"),
    pytest.param(True, False, "R", False, rules("danivon"), None, id="001 V(4): an NRR is not an NMR"),
    pytest.param(True, False, "A", False, rules("danivon"), None, id="001 V(5): an NBR/NDR is not an NMR"),
    pytest.param(True, False, "R", False, rules("standard", nmr_counts_minor_turns=True), True,
                 id="nmr_counts_minor_turns: a missed retreat counts"),
    pytest.param(True, False, "A", True, rules("email_rules", nmr_counts_minor_turns=True), None,
                 id="002 ORDERS 4: a hopeless removal is no miss"),
    pytest.param(True, False, "A", True, rules("email_rules", nmr_counts_minor_turns=True,
                                               hopeless_orders_exempt=False), True,
                 id="hopeless_orders_exempt false: a hopeless removal missed counts"),
])
def test_missed_turn(owes, ordered, phase_type, hopeless, ruleset, expected) -> None:
    assert missed_turn(owes=owes, ordered=ordered, phase_type=phase_type, hopeless=hopeless,
                       ruleset=ruleset) is expected


def run(ruleset, turns):
    """Each turn's missed flag through after_turn: the final state and every step's actions."""
    state, actions = NmrState(), []
    for missed in turns:
        step = after_turn(state, missed, ruleset)
        state = step.state
        actions.append(step.actions)
    return state, actions


def test_two_consecutive_nmrs_put_the_country_in_cd_and_mark_the_player_000_VII_6() -> None:
    """000 VII(6) ¶2: "two consecutive NMR's ... the GM will place this country in CD ... A
    player whose country has to go into CD will be marked as such" (record_cd_on_player)."""
    state, actions = run(rules("mhr"), [True, True])
    assert actions == [(), (ENTER_CD, TELL_GM_CD, RECORD_CD)]
    assert state == NmrState(in_a_row=2, total=2, civil_disorder=True)


def test_cd_is_not_marked_on_the_player_by_default() -> None:
    _, actions = run(rules("standard"), [True, True])
    assert actions[-1] == (ENTER_CD, TELL_GM_CD)


def test_nmrs_must_be_successive_003_13() -> None:
    """003 [13] "After two successive NMR's": orders in between end the run."""
    state, actions = run(rules("scorpion"), [True, False, True])
    assert not state.civil_disorder and state == NmrState(in_a_row=1, total=2)
    assert actions == [(), (), ()]


def test_a_turn_that_does_not_count_leaves_the_run_unbroken_001_V_4() -> None:
    """A minor turn (not counted, 001 V(4)-(5)) between two missed moves: still two in a row."""
    state, _ = run(rules("standard"), [True, None, True])
    assert state.civil_disorder and state.in_a_row == 2


def test_cd_stays_after_later_orders_000_VII_6() -> None:
    """000 VII(6) ¶2: "All units from that point forward will hold" (cd_mode = permanent)."""
    state, actions = run(rules("mhr"), [True, True, False])
    assert state.civil_disorder and state.in_a_row == 0 and actions[-1] == ()


def test_nmr_limit_to_cd_three() -> None:
    state, actions = run(rules("standard", nmr_limit_to_cd=3), [True, True])
    assert not state.civil_disorder and actions == [(), ()]
    state, actions = run(rules("standard", nmr_limit_to_cd=3), [True, True, True])
    assert state.civil_disorder and actions[-1] == (ENTER_CD, TELL_GM_CD)


def test_nmr_limit_none_never_puts_in_cd() -> None:
    state, actions = run(rules("standard", nmr_limit_to_cd="none"), [True] * 5)
    assert not state.civil_disorder and actions == [()] * 5 and state.total == 5


def test_two_turns_in_a_row_flag_the_gm_who_chooses_001_V_2_V_3() -> None:
    """001 V(2) "two Turns in a row", V(3): the GM chooses among three courses; nothing automatic."""
    state, actions = run(rules("danivon"), [True, True, True])
    assert actions == [(), (ASK_GM_CHOOSE,), ()]
    assert not state.civil_disorder


def test_cd_mode_gm_chooses() -> None:
    state, actions = run(rules("standard", cd_mode="gm_chooses"), [True, True])
    assert actions[-1] == (ASK_GM_CHOOSE,) and not state.civil_disorder


def test_each_nmr_is_a_one_turn_cd_then_a_replacement_is_sought_002_ORDERS_0() -> None:
    """002 ORDERS 0: a missed turn is civil disorder ("All your units HOLD."); "If you fail to
    turn in moves for a couple of turns, I will attempt to replace you" (nmr_replacement_after 2)."""
    state, actions = run(rules("email_rules"), [True])
    # one turn only: nothing lasts, so the power's next orders are used (no lasting civil disorder)
    assert actions == [(ONE_TURN_CD,)] and not state.civil_disorder
    _, actions = run(rules("email_rules"), [True, True])
    assert actions == [(ONE_TURN_CD,), (ONE_TURN_CD, SEEK_REPLACEMENT)]


def test_no_replacement_sought_by_default() -> None:
    _, actions = run(rules("standard", nmr_limit_to_cd="none"), [True, True, True])
    assert SEEK_REPLACEMENT not in sum(actions, ())


@pytest.mark.parametrize(("profile", "phase", "ordered", "expected"), [
    pytest.param("scorpion", "S1901M", {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY"}, ("RUSSIA", "TURKEY"),
                 id="003 [14]: two silent in Spring 1901, the game waits for them"),
    pytest.param("scorpion", "F1901M", {"AUSTRIA"}, (), id="003 [14] is about Spring 1901 only"),
    pytest.param("scorpion", "S1902M", set(), (), id="003 [14]: not a later spring"),
    pytest.param("standard", "S1901M", {"AUSTRIA"}, (), id="standard: adjudicated as usual"),
])
def test_spring_1901_waits_for_003_14(profile, phase, ordered, expected) -> None:
    owing = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    assert spring_1901_waits_for(phase, rules(profile), owing, ordered) == expected


def fall_retreat(turkey_retreats, other_retreats=("ION",), turkey_centres=("ANK",), russian_at="A ANK"):
    return Position(
        phase="F1905R",
        units={"RUSSIA": (russian_at,), "ITALY": ("F TYS",)},
        centers={"TURKEY": turkey_centres, "RUSSIA": ("SEV",), "ITALY": ("NAP",)},
        dislodged={"TURKEY": ("F AEG",), "ITALY": ("F NAF",)},
        retreats={"F AEG": turkey_retreats, "F NAF": other_retreats},
    )


@pytest.mark.parametrize(("position", "expected"), [
    pytest.param(fall_retreat(("EAS",)), {"TURKEY"},
                 id="002 ORDERS 4: no centre after the Fall update, no centre to retreat to, nobody else's destination"),
    pytest.param(fall_retreat(("EAS", "GRE")), set(), id="002 ORDERS 4: may retreat onto a centre"),
    pytest.param(fall_retreat(("EAS",), other_retreats=("EAS",)), set(),
                 id="002 ORDERS 4: shares a destination with another power's unit"),
    pytest.param(fall_retreat(("EAS",), russian_at="A ARM"), set(), id="A9 (1): keeps Ankara after the update"),
    pytest.param(Position(phase="S1905R", units={}, dislodged={"TURKEY": ("F AEG",)}, retreats={"F AEG": ("EAS",)}),
                 set(), id="002 ORDERS 4: a Spring retreat is never hopeless"),
    pytest.param(Position(phase="W1905A", units={"TURKEY": ("F AEG",)}, centers={"RUSSIA": ("ANK",)},
                          adjustments={"TURKEY": -1}), {"TURKEY"}, id="002 ORDERS 4: removal with no centre"),
    pytest.param(Position(phase="W1905A", units={"TURKEY": ("F AEG", "A SMY")}, centers={"TURKEY": ("SMY",)},
                          adjustments={"TURKEY": -1}), set(), id="002 ORDERS 4: removal with a centre left"),
])
def test_hopeless_retreats_and_removals_A9_002_ORDERS_4(position, expected) -> None:
    assert hopeless_powers(position, map_info()) == frozenset(expected)


MISSED_AT = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(("profile", "heard", "now", "expected"), [
    pytest.param("danivon", False, MISSED_AT + timedelta(hours=23, minutes=59), None,
                 id="001 V(1): within 24 hours, wait"),
    pytest.param("danivon", False, MISSED_AT + timedelta(hours=24), True, id="001 V(1): no word in 24 hours, abandoned"),
    pytest.param("danivon", True, MISSED_AT + timedelta(hours=30), False, id="001 V(1): the player wrote"),
    pytest.param("standard", False, MISSED_AT + timedelta(days=30), False, id="no contact window by default"),
])
def test_abandoned_after_the_contact_window_001_V_1(profile, heard, now, expected) -> None:
    assert abandoned(MISSED_AT, heard, rules(profile), now) is expected


@pytest.mark.parametrize(("profile", "phase", "expected"), [
    ("danivon", "F1901M", True),  # 001 V(3): the first game year
    ("danivon", "S1902M", False),
    ("standard", "S1901M", False),
])
def test_an_abandonment_in_the_first_year_suspends_the_game_001_V_3(profile, phase, expected) -> None:
    assert suspends_game(rules(profile), phase) is expected


OPENED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("profile", "phase", "expected"), [
    pytest.param("mhr", "S1901M", OPENED + timedelta(hours=24), id="000 II(1): halfway to the Spring 01 deadline"),
    pytest.param("mhr", "F1901M", None, id="000 II(1): Spring 01 only"),
    pytest.param("standard", "S1901M", None, id="no checkpoint by default"),
])
def test_preliminary_orders_checkpoint_000_II_1(profile, phase, expected) -> None:
    assert preliminary_checkpoint(phase, rules(profile), OPENED, OPENED + timedelta(hours=48)) == expected


@pytest.mark.parametrize(("profile", "phase", "expected"), [
    pytest.param("danivon", "F1903M", 1905, id="001 V(3)(ii): sought for two game years"),
    pytest.param("standard", "F1903M", None, id="no search period by default"),
])
def test_search_for_a_replacement_lasts_two_years_001_V_3_ii(profile, phase, expected) -> None:
    assert search_until(phase, rules(profile)) == expected


def test_the_search_ends_with_the_first_phase_of_its_last_year() -> None:
    assert not search_over(1905, "W1904A") and search_over(1905, "S1905M")
