"""The pure pieces of 002's press rules (email_rules): the retreat turn held for press (002 PRESS 7),
press from non-players (002 PRESS 2)."""

from __future__ import annotations

import dataclasses

from gmserver.rules.press import NON_PLAYER, as_non_player, judge, read_item
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.schedule import empty_retreat_turn

EMAIL_RULES = load_ruleset("email_rules")


def test_002_press_7_the_retreat_turn_is_held_when_the_engine_skipped_it() -> None:
    assert empty_retreat_turn(EMAIL_RULES, "S1901M", "F1901M") == "S1901R"
    assert empty_retreat_turn(EMAIL_RULES, "F1901M", "W1901A") == "F1901R"
    assert empty_retreat_turn(EMAIL_RULES, "F1901M", "S1902M") == "F1901R"


def test_002_press_7_no_extra_turn_when_there_are_retreats_after_adjustments_or_at_the_end() -> None:
    assert empty_retreat_turn(EMAIL_RULES, "S1901M", "S1901R") is None  # a real retreat turn
    assert empty_retreat_turn(EMAIL_RULES, "S1901R", "F1901M") is None  # only after movement
    assert empty_retreat_turn(EMAIL_RULES, "W1901A", "S1902M") is None
    assert empty_retreat_turn(EMAIL_RULES, "F1905M", "COMPLETED") is None  # the game is over


def test_report_empty_retreat_season_false_skips_it() -> None:
    ruleset = dataclasses.replace(EMAIL_RULES, report_empty_retreat_season=False)
    assert empty_retreat_turn(ruleset, "S1901M", "F1901M") is None


def test_002_press_2_a_non_players_unsigned_press_is_grey_and_may_not_carry_a_power_name() -> None:
    unsigned = as_non_player(read_item("PRESS", "Hello.", NON_PLAYER))
    assert unsigned.kind == "grey" and unsigned.signature is None
    assert judge(EMAIL_RULES, unsigned, NON_PLAYER, may_sign_as_players=False).action == "send"
    as_france = as_non_player(read_item("PRESS FROM France", "Hello.", NON_PLAYER))
    verdict = judge(EMAIL_RULES, as_france, NON_PLAYER, may_sign_as_players=False)
    assert verdict.action == "refused" and "(house rules 002 PRESS 2)" in verdict.reason
    dark = as_non_player(read_item("DARK GREY PRESS FROM Italy", "Hello.", NON_PLAYER))
    assert judge(EMAIL_RULES, dark, NON_PLAYER, may_sign_as_players=False).action == "refused"
