"""Game end (rules/game_end.py): the solo count, when it is checked, the Spring solo notice of
003 [23] and the stalemate notice of 000 IX(2) ¶2 / 002 DRAWS 4. Values by hand from the seeds."""

from __future__ import annotations

import pytest

from gmserver.rules.game_end import (
    ownership_updated,
    solo_winner,
    spring_over,
    spring_solo_candidates,
    spring_solo_winner,
    stalemate_notice,
    years_without_change,
)
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset

EIGHTEEN = ("BEL", "BER", "BRE", "DEN", "EDI", "HOL", "KIE", "LON", "LVP", "MAR", "MUN", "NWY", "PAR", "POR",
            "SPA", "SWE", "TUN", "VEN")


def rules(profile: str, **overrides):
    ruleset = load_ruleset(profile)
    return ruleset.with_overrides(overrides) if overrides else ruleset


@pytest.mark.parametrize(("phase", "next_phase", "expected"), [
    ("F1901M", "W1901A", True),  # no retreats: ownership updated on the way to Winter
    ("F1901M", "F1901R", False),  # retreats first
    ("F1901R", "W1901A", True),
    ("F1901M", "S1902M", True),  # nobody adjusts: Winter skipped
    ("S1901M", "F1901M", False),
    ("W1901A", "S1902M", False),
])
def test_ownership_is_updated_after_the_fall_turn(phase, next_phase, expected) -> None:
    assert ownership_updated(phase, next_phase) is expected


@pytest.mark.parametrize(("phase", "next_phase", "expected"), [
    ("S1901M", "F1901M", True), ("S1901M", "S1901R", False), ("S1901R", "F1901M", True), ("F1901M", "W1901A", False),
])
def test_spring_over(phase, next_phase, expected) -> None:
    assert spring_over(phase, next_phase) is expected


@pytest.mark.parametrize(("centres", "ruleset", "expected"), [
    pytest.param({"FRANCE": EIGHTEEN, "ITALY": ("ROM",)}, rules("mhr"), "FRANCE", id="000 IX(1): eighteen wins"),
    pytest.param({"FRANCE": EIGHTEEN[:17]}, rules("mhr"), None, id="000 IX(1): seventeen does not"),
    pytest.param({"FRANCE": EIGHTEEN[:17]}, rules("standard", solo_centres=17), "FRANCE",
                 id="solo_centres 17: seventeen wins"),
    pytest.param({"FRANCE": EIGHTEEN}, rules("standard", solo_centres=20), None,
                 id="solo_centres 20: eighteen does not"),
    pytest.param({"FRANCE": EIGHTEEN[:17], "ITALY": ("ROM", "NAP", "ANK", "CON", "SMY", "BUL", "GRE", "SER", "TRI",
                                                     "BUD", "VIE", "WAR", "MOS", "SEV", "STP", "RUM", "VEN")},
                 rules("standard", solo_centres=17), None, id="two at a low count: nobody yet"),
])
def test_solo_winner(centres, ruleset, expected) -> None:
    assert solo_winner(centres, ruleset) == expected


SCS = set(EIGHTEEN) | {"ROM", "NAP"}


def test_a_spring_solo_is_reported_to_the_gm_003_23() -> None:
    """003 [23] "conquers the 18th supply centre (Spring or Autumn)": after Spring, 17 owned plus
    Rome occupied makes eighteen; Paris, owned and occupied, counts once."""
    owned = EIGHTEEN[:17]  # all but Venice
    position = Position(phase="F1905M", units={"FRANCE": ("A ROM", "A PAR")}, centers={"FRANCE": owned})
    assert spring_solo_candidates(position, SCS, rules("scorpion")) == ("FRANCE",)
    assert spring_solo_candidates(position, SCS, rules("standard")) == ()
    short = Position(phase="F1905M", units={"FRANCE": ("A PAR", "A PIC")}, centers={"FRANCE": owned})
    assert spring_solo_candidates(short, SCS, rules("scorpion")) == ()


def test_a_spring_solo_wins_the_game_003_23() -> None:
    """003 [23]: the one power conquering the count in Spring has won; two reaching it together (a
    centre one owns and the other occupies counts for both) have no winner by the count."""
    owned = EIGHTEEN[:17]
    position = Position(phase="F1905M", units={"FRANCE": ("A ROM",)}, centers={"FRANCE": owned})
    assert spring_solo_winner(position, SCS, rules("scorpion")) == "FRANCE"
    assert spring_solo_winner(position, SCS, rules("standard")) is None
    low = rules("scorpion", solo_centres=2)
    tie = Position(phase="F1905M", units={"FRANCE": ("A ROM",), "ITALY": ("A PAR",)},
                   centers={"FRANCE": ("PAR",), "ITALY": ("ROM",)})
    assert spring_solo_candidates(tie, SCS, low) == ("FRANCE", "ITALY")
    assert spring_solo_winner(tie, SCS, low) is None


A = {"FRANCE": ("PAR", "MAR"), "ITALY": ("ROM",)}
B = {"FRANCE": ("PAR",), "ITALY": ("ROM", "MAR")}


@pytest.mark.parametrize(("history", "expected"), [
    ([A], 0), ([A, B], 0), ([A, B, B], 1), ([A, B, B, B], 2), ([A, A, B], 0),
    ([A, {"ITALY": ("ROM",), "FRANCE": ("MAR", "PAR")}], 1),  # the same owners written in another order
])
def test_years_without_change(history, expected) -> None:
    assert years_without_change(history) == expected


def test_stalemate_after_four_years_000_IX_2() -> None:
    """000 IX(2) ¶2: "after a period of 4 game years, no Supply Centers have changed ownership, the
    GM reserves the right, after a warning is given, to declare a draw including all survivors"."""
    assert stalemate_notice(3, rules("mhr")) is None
    notice = stalemate_notice(4, rules("mhr"))
    assert notice is not None and notice.clause.startswith("000 IX(2)") and "warning" in notice.text
    assert stalemate_notice(10, rules("standard")) is None  # no stalemate rule


def test_stalemate_settlement_after_three_years_002_DRAWS_4() -> None:
    """002 DRAWS 4: "impose a reasonable settlement based on stalemate lines, no change to supply
    center ownership for the last three game-years"."""
    assert stalemate_notice(2, rules("email_rules")) is None
    notice = stalemate_notice(3, rules("email_rules"))
    assert notice is not None and notice.clause == "002 DRAWS 4" and "settlement" in notice.text
