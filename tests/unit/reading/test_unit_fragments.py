"""A fragment of a name standing for the ordered unit ("A Bu - Ser", "Ki - Den").

Expectations reasoned by hand from the seeds:
- 002 FORMAT 7: "I-GRE will also be translated as F ION -> Gre" -- email_rules reads a fragment as
  the one unit of the player's it fits (`unit_location_matching = own_units`); danivon does the same
  by analogy with 001 II(1) ("a presumption ... that each player wishes to submit a complete set of
  valid orders").
- The other profiles are silent and find a unit by the province written (`map_only`): the line is
  no order, and the reply says which order it would have been.
- Two of the player's units fitting the fragment make the line ambiguous (000 III(2), 001 II(2):
  only abbreviations that are "not ambiguous" are acceptable), unless exactly one of the readings is
  a valid order where the profile presumes a complete valid set (001 II(1); 002 by analogy).
- Unit type: 001 III(3) makes an order without it void, 002 FORMAT 7 accepts it ("I-GRE");
  a wrong type is void under 001 III(4) and 002 ORDERS 1.
"""

from __future__ import annotations

import pytest

from gmserver.rules.reading.rule_words import rules_in_words
from tests.unit.reading.support import one, position, read

OWN_UNITS = ("danivon", "email_rules")
MAP_ONLY = ("standard", "mhr", "scorpion", "gwm")
CLAUSE = {"danivon": "001 II(1)", "email_rules": "002 FORMAT 7"}

# Spring 1902: Austria's army in Bulgaria is the only unit of hers whose province starts "Bu";
# Germany's fleet in Kiel the only one starting "Ki".
ONE_FITS = position("S1902M", austria=["A BUL", "F TRI", "A VIE"], germany=["F KIE", "A MUN", "A BER"],
                    turkey=["A CON"])
# Austria with armies in both Bulgaria and Budapest: "Bu" fits two of her units.
TWO_FIT = position("S1902M", austria=["A BUL", "A BUD", "F TRI"], russia=["A WAR"])


@pytest.mark.parametrize("profile", OWN_UNITS)
@pytest.mark.parametrize("power, text, order", [
    ("austria", "A Bu - Ser", "A BUL - SER"),
    ("austria", "A Bu-Gre", "A BUL - GRE"),
    ("germany", "F Ki - Den", "F KIE - DEN"),
    ("germany", "F Ki - Hol", "F KIE - HOL"),
])
def test_fragment_read_as_the_one_own_unit_it_fits(profile, power, text, order):
    """002 FORMAT 7 "I-GRE" / 001 II(1): the fragment is read as the player's one unit it fits, and
    the reply says so."""
    line = one(text, ONE_FITS, power, profile)
    assert str(line.order) == order
    assert line.status == "corrected"
    assert CLAUSE[profile] in line.rule
    unit = "your army in Bulgaria" if power == "austria" else "your fleet in Kiel"
    assert f"as {unit}, the only one of your units it fits" in line.message


def test_fragment_without_unit_type_002_format_7_accepts_it():
    """002 FORMAT 7: "I-GRE" has no unit type and is still read; so is "Ki - Den"."""
    line = one("Ki - Den", ONE_FITS, "germany", "email_rules")
    assert str(line.order) == "F KIE - DEN" and line.status == "corrected"


def test_fragment_without_unit_type_001_iii_3_is_void():
    """001 III(3): an order without the unit type is void, even when the fragment is read; the
    unit holds (001 III(1)) and the reply says what would have been accepted."""
    line = one("Ki - Den", ONE_FITS, "germany", "danivon")
    assert str(line.order) == "F KIE H" and line.status == "rejected"
    assert "001 III(3)" in line.rule
    assert "Did you mean F KIE - DEN?" in line.message


@pytest.mark.parametrize("profile, clause", [("danivon", "001 III(4)"), ("email_rules", "002 ORDERS 1")])
def test_fragment_with_wrong_unit_type_is_void(profile, clause):
    """001 III(4), 002 ORDERS 1: the fragment finds the fleet in Kiel, but "A" is the wrong type."""
    line = one("A Ki - Den", ONE_FITS, "germany", profile)
    assert line.status == "rejected" and str(line.order) == "F KIE H"
    assert clause in line.rule
    assert "Did you mean F KIE - DEN?" in line.message


@pytest.mark.parametrize("profile", MAP_ONLY)
@pytest.mark.parametrize("power, text, meant", [
    ("austria", "A Bu - Ser", "A BUL - SER"),
    ("austria", "Bu - Ser", "A BUL - SER"),
    ("germany", "F Ki - Den", "F KIE - DEN"),
    ("germany", "Ki - Den", "F KIE - DEN"),
])
def test_fragment_not_read_where_the_profile_finds_units_by_province(profile, power, text, meant):
    """000, 003, 004 and the rulebook are silent: a unit is found by the province written
    (map_only). The line gives no order; the reply says why, in words, and what would have been
    accepted (with the unit type, which 003 [15] requires)."""
    line = one(text, ONE_FITS, power, profile)
    assert line.order is None and line.status == "rejected"
    assert f"Did you mean {meant}?" in line.message
    fragment = text.split()[-3]
    assert f"'{fragment}' is not a province I know; this game does not read part of a name" in line.message
    assert rules_in_words(line.rule) == "a unit is found by the province written, a rule of this game"


@pytest.mark.parametrize("profile", OWN_UNITS)
@pytest.mark.parametrize("text", ["A Bu - Ser", "Bu - Ser", "A Bu - Rum"])
def test_fragment_two_own_units_fit_is_ambiguous(profile, text):
    """000 III(2)/001 II(2): "Bu" is both Austria's army in Bulgaria and her army in Budapest, and
    both can reach Serbia (and Rumania): ambiguous, both named, nothing used."""
    line = one(text, TWO_FIT, "austria", profile)
    assert line.order is None and line.status == "rejected"
    assert "'Bu' is ambiguous: it could be your army in Bulgaria or your army in Budapest" in line.message
    if text.startswith("A "):  # without the type 001 III(3) voids both readings, so none is offered
        dest = text.split()[-1].upper()
        assert f"Did you mean A BUL - {dest} or A BUD - {dest}?" in line.message


@pytest.mark.parametrize("profile", OWN_UNITS)
@pytest.mark.parametrize("text, order, unit", [
    ("A Bu - Gre", "A BUL - GRE", "army in Bulgaria"),   # Budapest does not border Greece
    ("A Bu - Gal", "A BUD - GAL", "army in Budapest"),   # Bulgaria does not border Galicia
])
def test_fragment_two_fit_one_valid_001_ii_1(profile, text, order, unit):
    """001 II(1) (002 by analogy): of two readings only one is a valid order, so that one is used
    and the reply says why."""
    line = one(text, TWO_FIT, "austria", profile)
    assert str(line.order) == order and line.status == "corrected"
    assert f"read as your {unit}, the only reading that makes a valid order" in line.message


@pytest.mark.parametrize("profile", MAP_ONLY)
def test_fragment_two_fit_map_only_names_both(profile):
    """map_only: "Bu" is no province; the reply names both units it could start and both orders."""
    line = one("A Bu - Ser", TWO_FIT, "austria", profile)
    assert line.order is None and line.status == "rejected"
    assert "your army in Bulgaria or your army in Budapest" in line.message
    assert "Did you mean A BUL - SER or A BUD - SER?" in line.message


@pytest.mark.parametrize("profile", OWN_UNITS + MAP_ONLY)
def test_fragment_fitting_no_own_unit_is_no_province(profile):
    """A fragment none of the player's units fits is read in no profile: "Ze" is no province."""
    line = one("A Ze - Ser", ONE_FITS, "austria", profile)
    assert line.order is None and line.status == "rejected"
    assert "'Ze' is not a province I know." in line.message


# 001 II(1) (002 by analogy), of readings that are all valid orders, the one "consistent
# with the player's other orders". Austria has armies in Bulgaria, Budapest, Serbia and Galicia; both
# Bulgaria and Budapest border Rumania, so "A Bu - Rum" is a valid order either way. A set orders
# each unit once (a complete set), so a unit another line already orders is not the one meant; a
# support of one of the two moves on another line names the one meant. Where the other lines point
# both ways, or nowhere, the line stays ambiguous.
THREE = position("S1902M", austria=["A BUL", "A BUD", "A SER", "A GAL", "F TRI"])


@pytest.mark.parametrize("profile", OWN_UNITS)
@pytest.mark.parametrize("text, order, unit, because", [
    ("A Bu - Rum\nA Bud - Gal", "A BUL - RUM", "army in Bulgaria", "A BUD - GAL"),   # Budapest has its order
    ("A Bu - Rum\nA Bud H", "A BUL - RUM", "army in Bulgaria", "A BUD H"),
    ("A Bud - Gal\nA Bu - Rum", "A BUL - RUM", "army in Bulgaria", "A BUD - GAL"),   # the other line first
    ("A Bu - Rum\nA Ser S A Bul - Rum", "A BUL - RUM", "army in Bulgaria", "A SER S A BUL - RUM"),  # backed
    ("A Bu - Rum\nA Ser S A Bud - Rum", "A BUD - RUM", "army in Budapest", "A SER S A BUD - RUM"),
])
def test_fragment_two_valid_readings_settled_by_other_lines_001_ii_1(profile, text, order, unit, because):
    reading = read(text, THREE, "austria", profile)
    (line,) = [line for line in reading.lines if line.text.startswith("A Bu ")]
    assert (line.status, str(line.order)) == ("corrected", order)
    assert line.message == ("'Bu' could be your army in Bulgaria or your army in Budapest; read as your "
                            f"{unit}, the only reading consistent with your order {because}.")
    assert CLAUSE[profile] in line.rule
    assert order in {str(o) for o in reading.orders}


@pytest.mark.parametrize("profile", OWN_UNITS)
@pytest.mark.parametrize("text", [
    "A Bu - Rum",                                          # nothing else to go by
    "A Bu - Rum\nA Bud - Gal\nA Ser S A Bud - Rum",        # Budapest ordered, yet its move supported
    "A Bu - Rum\nA Ser S A Bul - Rum\nA Gal S A Bud - Rum",  # both moves supported
])
def test_fragment_two_valid_readings_other_lines_undecided(profile, text):
    line = read(text, THREE, "austria", profile).lines[0]
    assert line.order is None and line.status == "rejected"
    assert "'Bu' is ambiguous: it could be your army in Bulgaria or your army in Budapest" in line.message


@pytest.mark.parametrize("profile", MAP_ONLY)
def test_fragment_not_settled_by_other_lines_where_read_literally(profile):
    """000 III(1) literal (and the other profiles without 001 II(1)): the other lines never choose
    between readings, and map_only never reads the fragment at all."""
    line = read("A Bu - Rum\nA Bud - Gal", THREE, "austria", profile).lines[0]
    assert line.order is None and line.status == "rejected"


# The same fragment before a hold, a support or a convoy ("A Bu H", "A Bu S A Ser - Rum"), read by
# the same rules as before a move (002 FORMAT 7; 001 II(1) by analogy; map_only elsewhere). Before
# this, such a line was no order at all, and "A Bu S A Ser - Rum" was even filed as A SER - RUM.
BUL_SER = position("S1902M", austria=["A BUL", "A SER", "F TRI"])


@pytest.mark.parametrize("profile", OWN_UNITS)
@pytest.mark.parametrize("text, order", [
    ("A Bu H", "A BUL H"),
    ("A Bu S A Ser - Rum", "A BUL S A SER - RUM"),  # Bulgaria borders Rumania
    ("A Bu S A Ser", "A BUL S A SER"),
])
def test_fragment_before_hold_or_support_read_where_own_units(profile, text, order):
    reading = read(text, BUL_SER, "austria", profile)
    (line,) = reading.lines
    assert (line.status, str(line.order)) == ("corrected", order)
    assert line.message.startswith("Read 'Bu' as your army in Bulgaria, the only one of your units it fits.")
    assert CLAUSE[profile] in line.rule


@pytest.mark.parametrize("profile", MAP_ONLY)
@pytest.mark.parametrize("text, order", [("A Bu H", "A BUL H"), ("A Bu S A Ser - Rum", "A BUL S A SER - RUM")])
def test_fragment_before_hold_or_support_map_only_says_the_order(profile, text, order):
    reading = read(text, BUL_SER, "austria", profile)
    (line,) = reading.lines
    assert (line.status, line.order, reading.orders) == ("rejected", None, ())
    assert line.message.endswith(f"Did you mean {order}?")


@pytest.mark.parametrize("profile", OWN_UNITS)
def test_fragment_support_settled_by_other_lines_001_ii_1(profile):
    """Both Bulgaria and Budapest could support Serbia into Rumania; Budapest has its own order."""
    reading = read("A Bu S A Ser - Rum\nA Bud - Gal", THREE, "austria", profile)
    line = reading.lines[0]
    assert (line.status, str(line.order)) == ("corrected", "A BUL S A SER - RUM")
    assert "the only reading consistent with your order A BUD - GAL" in line.message
