"""Class by profile: the rows the other tables left out, so that every class of reading (names,
void orders, conditional builds, words) has a table under every profile it concerns. Prefixes:
test_prefixes.py; quoted mail: test_quoting.py; abbreviations of own units: test_unit_fragments.py;
supports of another power's units: test_foreign_supports.py.

Every expectation is reasoned by hand from the seeds' clauses, named in each table.
"""

from __future__ import annotations

import pytest

from gmserver.rules.position import Position
from gmserver.rules.reading.reader import read_contingent, read_orders
from gmserver.rules.reading.rule_words import rules_in_words
from tests.unit.reading.support import PROFILES, as_orders, geography, notation, one, position, read, ruleset

# ------------------------------------------------------------------------------------------
# Names. Full names are read alike in every profile; a partial name fitting one province the unit
# can reach is accepted (partial_names = accept: 000 III(2), 001 II(2), 002 FORMAT 7 "F Ionian
# Sea-Greece", 003 [15] "unambiguous, however badly written", 004 I(1) "West Med", the rulebook's
# "only one meaning"); a misspelling that leaves no doubt is corrected (000 III(2) "typographical
# error ... understandable", 001 II(2), 002 FORMAT 5, 003 [17] "leaves no doubt which space is
# meant"; 004 and the rulebook silent: unambiguous_only).

PARTIAL = {"standard": "partial_names = accept", "mhr": "000 III(2)", "danivon": "001 II(2)",
           "email_rules": "002 FORMAT 7", "scorpion": "003 [15]", "gwm": "004 I(1)"}
TYPO = {"standard": "typo_tolerance = unambiguous_only", "mhr": "000 III(2)", "danivon": "001 II(2)",
        "email_rules": "002 FORMAT 5", "scorpion": "003 [17]", "gwm": "typo_tolerance = unambiguous_only"}


@pytest.mark.parametrize("profile", PROFILES)
def test_army_finland_to_sweden_every_profile(profile):
    """Full names with "to": Finland borders Sweden; nothing to correct (the issue's email_rules
    reading of a move to Denmark was the bug)."""
    line = one("Army Finland to Sweden", position("S1902M", russia=["A FIN"]), "russia", profile)
    assert (str(line.order), line.status) == ("A FIN - SWE", "accepted")


@pytest.mark.parametrize("profile", PROFILES)
def test_partial_name_only_one_reachable_every_profile(profile):
    """"Atlantic" is part of Mid-Atlantic Ocean and North Atlantic Ocean; only the first borders
    Brest, so it is read, and the reply says how."""
    line = one("F Brest - Atlantic", position("S1902M", france=["F BRE"]), "france", profile)
    assert (str(line.order), line.status) == ("F BRE - MAO", "corrected")
    assert PARTIAL[profile] in line.rule
    assert "read as Mid-Atlantic Ocean, the only one that fits this order" in line.message


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, unit, order, said", [
    ("A Ankra - Smyrna", "A ANK", "A ANK - SMY", "Read 'Ankra' as Ankara."),        # one letter from Ankara
    ("F Ank - Blak Sea", "F ANK", "F ANK - BLA", "Read 'Blak Sea' as Black Sea."),  # one letter from Black
    ("F Ankra - Black See", "F ANK", "F ANK - BLA", "Read 'Ankra' as Ankara. Read 'Black See' as Black Sea."),
    ("F Ank - Black See", "F ANK", "F ANK - BLA", "Read 'Black See' as Black Sea."),  # "See" one letter from "Sea"
])
def test_misspelt_names_every_profile(profile, text, unit, order, said):
    line = one(text, position("S1902M", turkey=[unit]), "turkey", profile)
    assert (str(line.order), line.status) == (order, "corrected")
    assert said in line.message
    assert TYPO[profile] in line.rule


@pytest.mark.parametrize("profile", PROFILES)
def test_run_together_names(profile):
    """002 FORMAT 5 ("PIE-mars" read) is typo_tolerance = generous: email_rules splits "ankbla".
    Elsewhere it is refused, with the order it could be -- never read as a hold."""
    line = one("f ankbla", position("S1902M", turkey=["F ANK"]), "turkey", profile)
    if profile == "email_rules":
        assert str(line.order) == "F ANK - BLA"
    else:
        assert line.order is None and line.status == "rejected"
        assert "Did you mean 'F Ank - Bla'?" in line.message


# ------------------------------------------------------------------------------------------
# Void orders of the player's own units. A void move (impossible) leaves a hold that may be
# supported under 001 III(1) ("presumed to have been ordered to hold, and may receive support to
# hold"), 002 FORMAT 5/11, 004 I(3) and DATC 4.E.1; under 000 III(5) and 003 [10 b] it may not
# (test_seed_examples.py holds those two rows).

FRENCH_PAIR = Position(phase="F1902M", units={"FRANCE": ("F BRE", "A GAS")}, centers={})


@pytest.mark.parametrize("profile", ["standard", "danivon", "email_rules", "gwm"])
def test_support_of_own_unit_whose_move_is_void_stands_where_the_hold_may_be_supported(profile):
    reading = read("F Bre - Par\nA Gas S F Bre", FRENCH_PAIR, "france", profile)
    assert sorted(notation(reading.orders)) == ["A GAS S F BRE", "F BRE H"]
    assert notation(reading.unsupportable) == ()
    assert reading.lines[1].status == "accepted"
    assert "which may receive support to hold" in reading.lines[0].message


# coast_support_mismatch for a support of the player's own fleet move naming the other coast:
# void under DATC 4.B.4 (standard, and email_rules where 002 is silent: invalid); counted for the
# fleet's coast under 001 III(9) and 004 II(3)c (accept_if_unique). 000 IV(7) and 003 [10 c]:
# test_seed_examples.py.
COAST = Position(phase="F1902M", units={"FRANCE": ("F MAO", "F POR")}, centers={})


@pytest.mark.parametrize("profile, clause, orders, status", [
    ("standard", "DATC 4.B.4", ["F MAO - SPA/NC", "F POR H"], "rejected"),
    ("email_rules", "DATC 4.B.4", ["F MAO - SPA/NC", "F POR H"], "rejected"),
    ("danivon", "001 III(9)", ["F MAO - SPA/NC", "F POR S F MAO - SPA/SC"], "corrected"),
    ("gwm", "004 II(3)c", ["F MAO - SPA/NC", "F POR S F MAO - SPA/SC"], "corrected"),
])
def test_support_naming_the_other_coast_of_own_move(profile, clause, orders, status):
    reading = read("F Mao - Spa/nc\nF Por S F Mao - Spa/sc", COAST, "france", profile)
    assert sorted(notation(reading.orders)) == orders
    support = reading.lines[1]
    assert support.status == status and clause in support.rule
    assert "Spain (north coast)" in support.message


# ------------------------------------------------------------------------------------------
# Conditional builds. Every profile accepts conditions on the adjustment that test the board
# (conditional_adjustment_orders = objective_only: 000 II(5), 001 III(10), 003 [5 a]; 002, 004 and
# the rulebook silent). "If I have a second build" holds with two builds due, not one.

WINTER_TWO = Position(phase="W1901A", units={"FRANCE": ("A MAR", "A SPA")},
                      centers={"FRANCE": ("BRE", "MAR", "PAR", "SPA")}, adjustments={"FRANCE": 2})
WINTER_ONE = Position(phase="W1901A", units={"FRANCE": ("A MAR", "A SPA", "A BUR")},
                      centers={"FRANCE": ("BRE", "MAR", "PAR", "SPA")}, adjustments={"FRANCE": 1})
CONDITION = {"standard": "conditional_adjustment_orders = objective_only", "mhr": "000 II(5)",
             "danivon": "001 III(10)", "email_rules": "conditional_adjustment_orders = objective_only",
             "scorpion": "003 [5 a]", "gwm": "conditional_adjustment_orders = objective_only"}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("winter, text, orders", [
    (WINTER_TWO, "If I have a second build: build A Paris", ["A PAR B"]),
    (WINTER_TWO, "Build F Bre\nIf I have a second build: build A Paris", ["A PAR B", "F BRE B"]),
    (WINTER_ONE, "If I have a second build: build A Paris", []),
    (WINTER_ONE, "Build F Bre\nIf I have a second build: build A Paris", ["F BRE B"]),
])
def test_conditional_build_every_profile(profile, winter, text, orders):
    reading = read_orders(text, position=winter, power="FRANCE", ruleset=ruleset(profile), geography=geography())
    assert sorted(notation(reading.orders)) == orders
    conditional = reading.lines[-1]
    assert CONDITION[profile] in conditional.rule
    if winter is WINTER_TWO:
        assert conditional.status == "accepted"
        assert "holds" in conditional.message
    else:
        assert conditional.status == "ignored"
        assert "does not hold, so this line is not used" in conditional.message


# The same line sent with the Fall moves (000 II(5), 001 II(6), 003 [5] "builds (conditional or
# otherwise) are sent in with the autumn moves"; the others silent: accepted) is kept
# with its condition, said so, and decided in the Winter by the builds then due.
FALL = Position(phase="F1901M", units={"FRANCE": ("A MAR", "A SPA")}, centers={"FRANCE": ("BRE", "MAR", "PAR")})
KEPT = {"standard": "contingent_minor_orders = accepted", "mhr": "000 II(5)", "danivon": "001 II(6)",
        "email_rules": "contingent_minor_orders = accepted", "scorpion": "003 [5]",
        "gwm": "contingent_minor_orders = accepted"}


@pytest.mark.parametrize("profile", PROFILES)
def test_conditional_build_sent_with_the_moves_is_kept_every_profile(profile):
    line = "If I have a second build: build A Paris"
    reading = read_orders(f"A Spa H\n{line}", position=FALL, power="FRANCE", ruleset=ruleset(profile),
                          geography=geography())
    assert reading.contingent == (line,)
    assert KEPT[profile] in reading.lines[1].rule
    # 003 [5]: the two-season game processes the builds at once after the moves, with no turn of their own
    kept = "kept for the retreats and builds processed at once" if profile == "scorpion" else \
        "kept for the retreat or adjustment turn"
    assert kept in reading.lines[1].message
    for winter, orders in ((WINTER_TWO, ("A PAR B",)), (WINTER_ONE, ())):
        later = read_contingent(reading.contingent, position=winter, power="FRANCE", ruleset=ruleset(profile),
                                geography=geography())
        assert notation(later.orders) == orders


# ------------------------------------------------------------------------------------------
# Words: how a new set stands to the one on file, in words, the clause after (never an option key
# and never "merged" for a set that replaced). 003 [10] "only the last set ... will be used";
# 004 silent: the rulebook (DATC 4.D.1). The other profiles: test_sets_and_adjustments.py.

FR = Position(phase="F1902M", units={"FRANCE": ("A PAR", "A MAR", "F BRE")}, centers={})


@pytest.mark.parametrize("profile, note", [
    ("scorpion", "This set replaces the set on file (house rules 003 [10])."),
    ("gwm", "This set replaces the set on file (the 2000 rulebook as the DATC reads it, 4.D.1)."),
])
def test_set_note_in_words(profile, note):
    reading = read_orders("A Par - Pic", position=FR, power="FRANCE", ruleset=ruleset(profile),
                          geography=geography(), previous=as_orders(("F BRE - MAO", "A MAR H", "A PAR - BUR")))
    assert reading.notes[0] == note
    assert notation(reading.orders) == ("A PAR - PIC",)


@pytest.mark.parametrize("profile", PROFILES)
def test_rules_cited_for_names_are_words(profile):
    """Whatever the profile, the rule behind a corrected name reaches the player as words."""
    line = one("A Ankra - Smyrna", position("S1902M", turkey=["A ANK"]), "turkey", profile)
    words = rules_in_words(line.rule)
    assert "_" not in words and " = " not in words
