"""Conditional press (conditional_press; 003 [9] "Press submitted may be conditional on
the season's moves", 002 PRESS 4): the condition is decided on the season's results with the
objective tests of conditional orders."""

from __future__ import annotations

import dataclasses

from gmserver import engine
from gmserver.rules.position import Position
from gmserver.rules.press import judge, read_item
from gmserver.rules.press_conditions import condition_holds
from gmserver.rules.ruleset import load_ruleset
from tests.support.adjudicate import adjudicate as adjudicate_state


def fall() -> object:
    """France takes Belgium from Germany and is dislodged from Burgundy? No: A BUR moves to BEL,
    Germany's A MUN takes Burgundy behind it (tests/unit/test_reports.py's scenario)."""
    position = Position(
        phase="F1901M",
        units={"FRANCE": ("A PAR", "A MAR", "F BRE", "A BUR"), "GERMANY": ("A MUN", "A RUH"),
               "ENGLAND": ("F NTH", "A YOR", "F EDI")},
        centers={"FRANCE": ("PAR", "MAR", "BRE"), "GERMANY": ("MUN", "BER", "KIE", "BEL"),
                 "ENGLAND": ("LON", "EDI", "LVP")})
    return adjudicate_state(engine.state_from_position(position), {
        "FRANCE": ["A BUR - BEL", "A MAR - SPA", "F BRE - POR", "A PAR - PIC"],
        "GERMANY": ["A RUH S A MUN - BUR", "A MUN - BUR"],
        "ENGLAND": ["F NTH - HOL", "A YOR - LON", "F EDI - NWY"],
    })


def test_003_9_press_conditional_on_the_season_s_moves_is_decided_on_the_results() -> None:
    outcome, ruleset, geo = fall(), load_ruleset("scorpion"), engine.map_info()
    # France moved into Belgium, Spain and Portugal in the Fall: it gains Belgium
    assert condition_holds("I gain Belgium", False, "FRANCE", outcome, ruleset, geo) == (True, None)
    assert condition_holds("I gain Holland", False, "FRANCE", outcome, ruleset, geo)[0] is False
    assert condition_holds("I gain Belgium", True, "FRANCE", outcome, ruleset, geo) == (False, None)
    # a subjective condition is false and says why (003 [5 a] "the same objective tests")
    holds, why = condition_holds("Germany betrays me", False, "FRANCE", outcome, ruleset, geo)
    assert holds is False and why


def test_conditional_press_none_refuses_a_condition_and_moves_accepts_it() -> None:
    item = read_item("PRESS IF I GAIN BELGIUM", "Merci, Allemagne.", "FRANCE")
    assert (item.condition, item.negated) == ("I GAIN BELGIUM", False)
    unless = read_item("press unless I gain Belgium", "Hm.", "FRANCE")
    assert (unless.condition, unless.negated) == ("I gain Belgium", True)
    standard = load_ruleset("standard")  # conditional_press = none
    refused = judge(standard, item, "FRANCE")
    assert refused.action == "refused" and refused.reason.startswith("press conditional on the season's moves")
    moves = dataclasses.replace(standard, conditional_press="moves")
    assert judge(moves, item, "FRANCE").action == "send"
