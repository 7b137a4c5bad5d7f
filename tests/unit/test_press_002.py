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


# --- 002 PRESS 4: press conditional on other press ------------------------------------------------

def test_002_press_4_the_two_forms_of_a_condition_on_other_press_are_read() -> None:
    from gmserver.rules.press_conditions import PressCondition, read_press_condition

    assert read_press_condition("press item 12 is published") == PressCondition(item=12)
    assert read_press_condition("PRESS #3 IS PUBLISHED.") == PressCondition(item=3)
    assert read_press_condition("England's press is published") == PressCondition(power="ENGLAND")
    assert read_press_condition("press from Fra is published") == PressCondition(power="FRANCE")
    assert read_press_condition("I gain Belgium") is None  # a condition on the moves
    for vague in ("the press is funny", "press from Zurich is published", "most press is published"):
        refusal = read_press_condition(vague)
        assert isinstance(refusal, str) and "is not one the server can decide" in refusal


def test_002_press_4_publication_follows_chains_and_never_circles() -> None:
    from gmserver.rules.press_conditions import Candidate, PressCondition, published

    items = [
        Candidate(1, "ENGLAND"),                                            # plain
        Candidate(2, "FRANCE", PressCondition(power="ENGLAND")),            # England's press: 1
        Candidate(3, None, PressCondition(item=2)),                         # a chain through 2
        Candidate(4, "ITALY", PressCondition(item=5)),                      # a circle: 4 and 5
        Candidate(5, "ITALY", PressCondition(item=4)),
        Candidate(6, "GERMANY", PressCondition(item=1), negated=True),      # unless 1: 1 is published
        Candidate(7, "GERMANY", PressCondition(power="RUSSIA"), negated=True),  # unless Russia's: none
        Candidate(8, None, PressCondition(item=7)),                         # after an UNLESS item
        Candidate(9, None, PressCondition(item=42)),                        # no such item this turn
    ]
    assert published(items) == {1, 2, 3, 7, 8}


def test_002_press_4_own_press_does_not_satisfy_its_own_power_condition() -> None:
    from gmserver.rules.press_conditions import Candidate, PressCondition, published

    assert published([Candidate(1, "ENGLAND", PressCondition(power="ENGLAND"))]) == set()


def test_002_press_3_the_start_mail_and_rules_answer_say_how_to_decline_edits() -> None:
    from gmserver.rules.briefing import key_points

    assert ("The GM may correct the spelling and punctuation of your press; a line \"NO EDITS\" in a piece of press "
            "asks the GM to publish it exactly as written (002 PRESS 3).") in key_points(EMAIL_RULES)
    assert not [point for point in key_points(load_ruleset("mhr")) if "press" in point]  # press_editing none


def test_002_press_3_the_no_edits_line() -> None:
    from gmserver.rules.press import declines_edits, edit_refusal

    assert declines_edits("Teh end.\nNO EDITS") and declines_edits("[verbatim]\nx") and declines_edits("Do not edit.")
    assert not declines_edits("There will be no edits to the treaty, said France.")  # not a line of its own
    assert edit_refusal(EMAIL_RULES, "France is teh enemy", "France is the enemy.") is None
    assert "more than spelling" in edit_refusal(EMAIL_RULES, "France is teh enemy", "Germany is a friend")
