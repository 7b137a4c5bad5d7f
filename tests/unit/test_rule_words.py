"""Players never see option keys nor bare clause numbers; the rule in words,
the clause after (expected texts written by hand)."""

from __future__ import annotations

import pytest

from gmserver.reports.replies import _explanation
from gmserver.rules.reading.options import clause
from gmserver.rules.reading.rule_words import rule_in_words, rules_in_words
from tests.unit.reading.support import PROFILES, ruleset


@pytest.mark.parametrize("rule, words", [
    ("000 IV(1)", "house rules 000 IV(1)"),
    ("003 [10 b]", "house rules 003 [10 b]"),
    ("RB2000", "the 2000 rulebook"),
    # QA: a bare "(DATC 4.D.1)" told players nothing: whose rule, then the DATC's number
    ("DATC 4.D.3", "the 2000 rulebook as the DATC reads it, 4.D.3"),
    ("DATC 4.D.4, 4.D.6", "the 2000 rulebook as the DATC reads it, 4.D.4, 4.D.6"),
    ("conditional_movement_orders = void_line", "a movement order with a condition is void, a rule of this game"),
    ("orders_for_missing_units = void_and_report",
     "an order for a unit you do not have is void, a rule of this game"),
    ("some_new_option = keep_it", "this game's rule on some new option: keep it, a rule of this game"),
])
def test_rule_in_words(rule, words):
    assert rule_in_words(rule) == words


def test_several_rules_each_once():
    assert rules_in_words("000 III(2); 000 III(2); RB2000") == "house rules 000 III(2); the 2000 rulebook"
    assert rules_in_words(None) is None and rules_in_words("") is None


def test_several_datc_numbers_are_said_once_together():
    """QA: "(DATC 4.B.1; DATC 4.E.1)"; the source in words once, its numbers after it."""
    assert rules_in_words("DATC 4.B.1; DATC 4.E.1") == "the 2000 rulebook as the DATC reads it, 4.B.1 and 4.E.1"
    assert rules_in_words("000 III(2); DATC 4.B.6; RB2000; DATC 4.B.6") == (
        "house rules 000 III(2); the 2000 rulebook as the DATC reads it, 4.B.6; the 2000 rulebook")


def test_explanation_puts_the_rule_after_the_words():
    assert _explanation("The condition was not met.", "conditional_movement_orders = void_line") == (
        "The condition was not met. (a movement order with a condition is void, a rule of this game)")
    assert _explanation("Read as A Mun - Bur.", "000 III(2)") == "Read as A Mun - Bur. (house rules 000 III(2))"


@pytest.mark.parametrize("profile", PROFILES)
def test_no_reader_clause_reaches_a_player_as_an_option_key(profile):
    """Every clause the reader may cite, under every profile, is said without an option key."""
    for name in {c.option for other in PROFILES for c in ruleset(other).citations if "." not in c.option}:
        said = rule_in_words(clause(ruleset(profile), name))
        assert " = " not in said and "_" not in said, (name, said)
