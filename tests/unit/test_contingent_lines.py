"""Retreat and adjustment lines in a movement set (contingent_minor_orders, 003 [5], 000 II(5)):
said to be kept where they are kept, and said not to be used where no such turn follows (QA
walkthrough, scorpion)."""

from __future__ import annotations

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import build_confirmation
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.ruleset import load_ruleset

FRANCE = {"FRANCE": ("A MAR", "A PAR", "F BRE")}
CENTRES = {"FRANCE": ("BRE", "MAR", "PAR")}


def _read(phase: str, text: str):
    return read_orders(text, position=Position(phase, FRANCE, CENTRES), power="FRANCE",
                       ruleset=load_ruleset("scorpion"), geography=engine.map_info())


def test_003_5_a_build_in_a_spring_set_is_not_used_since_no_adjustment_turn_follows_spring() -> None:
    reading = _read("S1901M", "A PAR - BUR\nBUILD A PAR\nWAIVE\nA MAR R GAS\n")
    build, waive, retreat = reading.lines[1:]
    assert "BUILD A PAR" not in reading.contingent and "WAIVE" not in reading.contingent
    for line in (build, waive):
        assert line.status == "ignored"
        assert "not used: builds and removals are made only after the Fall moves" in line.message
        assert "kept" not in line.message
    assert "A MAR R GAS" in reading.contingent and "kept for the retreats and builds processed at once" in retreat.message


def test_a_spring_build_under_a_profile_without_a_clause_cites_the_rulebook_not_the_keeping_rule() -> None:
    """Under `standard` (no house-rule clause) the Spring build was told it is not used, then cited
    'retreat and adjustment orders sent with moves are kept for the turn that follows': the rule
    that keeps lines, beside a line not kept. The reason is the 2000 rulebook's order of turns."""
    reading = read_orders("A PAR - BUR\nBUILD A PAR\n", position=Position("S1901M", FRANCE, CENTRES),
                          power="FRANCE", ruleset=load_ruleset("standard"), geography=engine.map_info())
    build = next(line for line in reading.lines if line.text == "BUILD A PAR")
    assert build.status == "ignored" and "BUILD A PAR" not in reading.contingent
    assert build.rule == "RB2000"
    confirmation = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=None, readings=reading.lines,
        orders_on_file=reading.orders, version=1, geography=engine.map_info())
    (explained,) = [line.explanation for line in confirmation.lines if line.text == "BUILD A PAR"]
    assert explained.endswith("no adjustment turn follows Spring. (the 2000 rulebook)")


def test_003_5_a_kept_line_is_said_to_be_used_with_these_moves_not_in_a_later_turn() -> None:
    """003 [5], the UK two-season game: the retreats and builds sent with the moves are processed at
    once after them, so there is no later turn to send a set for; 'used there only if you send no
    set for that turn' told a scorpion player of a turn that never opens."""
    reading = _read("F1901M", "A PAR - BUR\nBUILD A PAR\n")
    build = reading.lines[1]
    assert reading.contingent == ("BUILD A PAR",)
    assert "processed at once after these moves" in build.message
    assert "send no set" not in build.message and "(if that turn comes)" not in build.message
    confirmation = build_confirmation(
        game_name="beta", power="FRANCE", phase="F1901M", deadline=None, readings=reading.lines,
        orders_on_file=reading.orders, version=1, geography=engine.map_info())
    assert [line.status for line in confirmation.lines] == ["accepted", "kept"]


def test_000_II_5_a_kept_line_still_waits_for_the_turn_that_follows() -> None:
    """000 II(5) (mhr): a separate retreat or adjustment turn follows, where a set replaces the
    lines kept; the wording for the two-season game is not used there."""
    reading = read_orders("A PAR - BUR\nBUILD A PAR\n", position=Position("F1901M", FRANCE, CENTRES),
                          power="FRANCE", ruleset=load_ruleset("mhr"), geography=engine.map_info())
    assert "used there only if you send no set for that turn" in reading.lines[1].message


def test_003_5_a_build_in_a_fall_set_is_still_kept() -> None:
    reading = _read("F1901M", "A PAR - BUR\nBUILD A PAR\n")
    assert reading.contingent == ("BUILD A PAR",)


def test_003_5_kept_lines_are_labelled_kept_not_ignored_in_the_confirmation() -> None:
    reading = _read("F1901M", "A PAR - BUR\nBUILD A PAR\n")
    confirmation = build_confirmation(
        game_name="uk", power="FRANCE", phase="F1901M", deadline=None, readings=reading.lines,
        orders_on_file=[Order.parse("A PAR - BUR")], version=1, geography=engine.map_info(),
        units=["A PAR", "A MAR", "F BRE"])
    assert confirmation.summary == "1 accepted, 1 kept for a later turn"
    body = Composer(TEMPLATES_DIR, gm_name="GM", gm_address="gm@gm.test").render(confirmation.template, confirmation)
    assert "ignored" not in body
    assert "    kept: A retreat or adjustment order in a movement set: kept for the\n" in body
