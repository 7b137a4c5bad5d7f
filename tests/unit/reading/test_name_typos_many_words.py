"""A misspelt name of several words ("North See") is read as "Black See" is,
under the profile's typo_tolerance.

Expectations reasoned by hand from the seeds: every profile tolerates a misspelling that leaves no
doubt (000 III(2) "typographical error ... understandable", 001 II(2), 002 FORMAT 5, 003 [17]
"leaves no doubt which space is meant"; 004 and the rulebook silent: unambiguous_only).
"North See" is one letter from North Sea and two or more from every other name, exactly as
"Black See" is from Black Sea; that "North" alone begins three names (North Sea, North Atlantic
Ocean, North Africa) while "Black" begins one changes nothing. Under typo_tolerance = none (a GM
override; no profile) neither is read, and both are refused with the name suggested.
"""

from __future__ import annotations

import pytest

from gmserver.rules.reading.reader import read_orders
from tests.unit.reading.support import PROFILES, geography, position, read, ruleset

TYPO = {"standard": "typo_tolerance = unambiguous_only", "mhr": "000 III(2)", "danivon": "001 II(2)",
        "email_rules": "002 FORMAT 5", "scorpion": "003 [17]", "gwm": "typo_tolerance = unambiguous_only"}
FLEETS = position("S1902M", england=["F LON", "F EDI", "F LVP"], turkey=["F ANK", "F CON"], france=["F MAR"])

MISSPELT = [
    ("england", "F Lon - North See", "F LON - NTH", "North See", "North Sea"),    # "See": one letter
    ("turkey", "F Ank - Black See", "F ANK - BLA", "Black See", "Black Sea"),     # the same, the case
    ("england", "F Edi - Norh Sea", "F EDI - NTH", "Norh Sea", "North Sea"),      # "Norh": one letter from North
    ("england", "F Lvp - Irish See", "F LVP - IRI", "Irish See", "Irish Sea"),
    ("turkey", "F Con - Aegean See", "F CON - AEG", "Aegean See", "Aegean Sea"),
    ("england", "F Lon - English Chanel", "F LON - ENG", "English Chanel", "English Channel"),
    ("france", "F Mar - Gulf of Lion", "F MAR - LYO", "Gulf Of Lion", "Gulf of Lyon"),  # "Lion": one letter
]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("power, text, order, written, name", MISSPELT)
def test_misspelt_name_of_several_words_read_every_profile(profile, power, text, order, written, name):
    reading = read(text, FLEETS, power, profile)
    (line,) = reading.lines
    assert (line.status, str(line.order)) == ("corrected", order)
    assert line.message == f"Read '{written}' as {name}."
    assert line.rule == TYPO[profile]


@pytest.mark.parametrize("power, text, order, written, name", MISSPELT)
def test_misspelt_name_of_several_words_refused_without_typo_tolerance(power, text, order, written, name):
    """typo_tolerance = none: not read, refused with the name it is one letter from; the fleet
    holds (DATC 4.E.1, the standard profile's rule for a void move)."""
    rules = ruleset("standard").with_overrides({"typo_tolerance": "none"})
    (line,) = read_orders(text, position=FLEETS, power=power.upper(), ruleset=rules, geography=geography()).lines
    assert line.status == "rejected"
    assert str(line.order) == order.split(" - ")[0] + " H"
    assert f"'{written}' is not a province I know. Did you mean {name}" in line.message


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, order", [
    ("F Lon - Nth Sea", "F LON - NTH"),          # an abbreviation and "Sea": exact, nothing to say
    ("F Lon - North Sea please", "F LON - NTH"),  # a word after the name is no part of it
])
def test_exact_names_with_a_sea_word_stay_exact(profile, text, order):
    (line,) = read(text, FLEETS, "england", profile).lines
    assert (line.status, str(line.order), line.message) == ("accepted", order, None)


@pytest.mark.parametrize("profile", PROFILES)
def test_two_words_far_from_any_name_are_not_a_typo(profile):
    """"North Pole" is four letters from North Sea: no name, no guess, in every profile."""
    (line,) = read("F Lon - North Pole", FLEETS, "england", profile).lines
    assert line.status == "rejected" and str(line.order) == "F LON H"
    assert "'North Pole' is not a province I know." in line.message
