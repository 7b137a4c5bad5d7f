"""Order sets and versions (000 III(4), 001 II(7), 002 ORDERS 2) and the retreat and adjustment
options the reader applies, each row named by its clause."""

from __future__ import annotations

import pytest

from gmserver.rules.position import Position
from gmserver.rules.reading.output import reading_to_json
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.reading.sets import (
    StoredSet,
    combine_sets,
    combined_orders,
    effective_orders,
    is_change_marker,
    ordered_sets,
    out_of_order_versions,
    set_status_marker,
    version_marker,
)
from tests.unit.reading.support import as_orders, geography, notation, ruleset, stored_set

FR = Position(phase="F1902M", units={"FRANCE": ("A PAR", "A MAR", "F BRE")}, centers={})
PREVIOUS = ("F BRE - MAO", "A MAR H", "A PAR - BUR")


def _read(text, profile, previous=PREVIOUS, subject="", position=FR, power="FRANCE", overrides=None):
    rs = ruleset(profile)
    if overrides:
        rs = rs.with_overrides(overrides)
    return read_orders(text, position=position, power=power, ruleset=rs, geography=geography(),
                       previous=previous if previous and isinstance(previous[0], StoredSet) else as_orders(previous),
                       subject=subject)


@pytest.mark.parametrize("clause, profile, subject, text, orders", [
    ("001 II(7) ¶2 replace", "danivon", "", "A Par - Pic", ("A PAR - PIC",)),
    ("003 [10] replace", "scorpion", "", "A Par - Pic", ("A PAR - PIC",)),
    ("000 III(4) merge_per_unit", "mhr", "", "A Par - Pic", ("F BRE - MAO", "A MAR H", "A PAR - PIC")),
    ("002 ORDERS 2 change set merges", "email_rules", "Lepanto changes #2", "A Par - Pic",
     ("F BRE - MAO", "A MAR H", "A PAR - PIC")),
    ("002 ORDERS 2 unmarked set replaces", "email_rules", "Lepanto orders #2", "A Par - Pic", ("A PAR - PIC",)),
], ids=lambda v: v if isinstance(v, str) and v[:1].isdigit() else None)
def test_set_combination(clause, profile, subject, text, orders):
    assert notation(_read(text, profile, subject=subject).orders) == orders


def test_merge_replaces_adjustment_lines_as_a_whole():  # 000 III(4), for builds [P]
    from gmserver.rules.reading.sets import merge_per_unit
    assert notation(merge_per_unit(as_orders(("A PAR B", "F BRE B")), as_orders(("WAIVE",)))) == ("WAIVE",)


@pytest.mark.parametrize("on_file, newer", [
    (("A SER D",), ("A SER R BUD",)),  # an illegal retreat read as its disband, then the corrected retreat
    (("A SER R BUD",), ("A SER D",)),  # a retreat, then the player disbands instead
])
def test_000_III_4_a_retreat_and_a_disband_of_one_unit_merge_by_unit(on_file, newer):
    """000 III(4): in a retreat turn the newer set's order for a unit replaces the unit's order on
    file, a disband like a retreat: the unit never ends up with both (the engine then disbanded a
    unit whose corrected retreat was on file)."""
    from gmserver.rules.reading.sets import merge_per_unit
    assert notation(merge_per_unit(as_orders(on_file), as_orders(newer))) == newer


SETS = [stored_set(("A PAR - BUR",), received=1, version="2"), stored_set(("A PAR - PIC",), received=2, version="1")]


@pytest.mark.parametrize("profile", ["standard", "mhr", "danivon", "email_rules", "scorpion", "gwm"])
@pytest.mark.parametrize("base, newer, is_change", [
    ((), ("A PAR - PIC",), False),
    (("F BRE - MAO", "A MAR H", "A PAR - BUR"), ("A PAR - PIC",), False),
    (("F BRE - MAO", "A MAR H", "A PAR - BUR"), ("A PAR - PIC",), True),
    (("A PAR - BUR",), ("A PAR - PIC", "A MAR H"), True),
])
def test_combined_orders_are_those_combine_sets_replies_with(profile, base, newer, is_change):
    """The deadline combines the sets without the reply's words: the same orders as the reply's."""
    stored = stored_set(newer, received=2, is_change=is_change)
    orders, how = combine_sets(as_orders(base), stored, ruleset(profile))
    assert combined_orders(as_orders(base), stored, ruleset(profile)) == orders
    assert how


def test_000_III_4_receipt_time_decides():
    assert notation(effective_orders(SETS, ruleset("mhr"))) == ("A PAR - PIC",)


def test_001_II_7_version_then_receipt():
    assert notation(effective_orders(SETS, ruleset("danivon"))) == ("A PAR - BUR",)
    assert [s.version for s in ordered_sets(SETS, ruleset("email_rules"))] == ["1", "2"]


def test_A14_version_without_marker_falls_back_to_receipt():
    sets = [stored_set(("A PAR - BUR",), 1, "2"), stored_set(("A PAR - PIC",), 2, None)]
    assert notation(effective_orders(sets, ruleset("danivon"))) == ("A PAR - PIC",)


def test_A14_out_of_order_versions_reported():
    assert out_of_order_versions(SETS) == [SETS[1]]


def test_001_II_7_a_lower_numbered_later_set_is_read_as_the_earlier_one():
    """The reader files the new set with the same function as the adjudication: under danivon a
    "v1" arriving after a "v2" leaves the "v2" orders on file and says so."""
    reading = _read("A Par - Pic", "danivon", previous=SETS[:1], subject="France v1")
    assert reading.orders == effective_orders([*SETS[:1], stored_set(("A PAR - PIC",), 2, "1")], ruleset("danivon"))
    assert notation(reading.orders) == ("A PAR - BUR",)
    assert "replaces" not in " ".join(reading.notes) and "001 II(7)" in reading.notes[0]


def test_000_III_4_a_lower_numbered_later_set_counts_and_is_reported():
    """000 III(4): under receipt_time the late set counts, and the reply says its number is out of order."""
    reading = _read("A Par - Pic", "mhr", previous=SETS[:1], subject="France [1]")
    assert notation(reading.orders) == ("A PAR - PIC",)
    assert any("already sent a set numbered 2" in note and "000 III(4)" in note for note in reading.notes)


@pytest.mark.parametrize("text, marker", [
    ("Dc179 [BlackMarch] S01: English Orders [1]", "1"), ("orders (2)", "2"), ("Lepanto #3", "3"),
    ("v2.1", "2.1"), ("version 4", "4"), ("France S1901M", None), ("Spring (1901)", None),
])
def test_A14_version_markers(text, marker):
    assert version_marker(text) == marker


def test_A13_change_markers():
    assert is_change_marker("Changes to my orders") and is_change_marker("add to #2")
    assert not is_change_marker("France orders")


@pytest.mark.parametrize("clause, profile, text, status", [
    ("000 II(1) default preliminary", "mhr", "A Par - Bur", "preliminary"),
    ("000 II(1) marked Final", "mhr", "A Par - Bur\nFinal", "final"),
    ("001 II(3) default final", "danivon", "A Par - Bur", "final"),
    ("001 II(3) marked Preliminary", "danivon", "Preliminary\nA Par - Bur", "preliminary"),
])
def test_default_set_status(clause, profile, text, status):
    reading = _read(text, profile, previous=())
    assert reading.set_status == status
    assert [line.status for line in reading.lines if notation(line.order)] == ["accepted"]


def test_set_status_words():
    assert set_status_marker("FINAL orders") == "final" and set_status_marker("provisional") == "preliminary"


@pytest.mark.parametrize("clause, overrides, orders", [
    ("002 FORMAT 3 canonical", None, ("F BRE - MAO", "A MAR H", "A PAR - BUR")),
    ("report_order_sequence as_written", {"report_order_sequence": "as_written"}, ("A PAR - BUR", "A MAR H", "F BRE - MAO")),
])
def test_report_order_sequence(clause, overrides, orders):
    assert notation(_read("A Par - Bur\nA Mar H\nF Bre - MAO", "standard", previous=(), overrides=overrides).orders) == orders


# ---------------------------------------------------------------------------------- retreats

RETREAT = Position(
    phase="F1901R", units={"ITALY": ("A ALB",), "GERMANY": ("A BOH",)},
    dislodged={"GERMANY": ("A MUN",)}, retreats={"A MUN": ("BUR", "KIE", "RUH")}, centers={},
)


@pytest.mark.parametrize("clause, profile, text, orders", [
    ("000 III(6) first retreat", "mhr", "A Mun - Bur\nA Mun - Kie", ("A MUN R BUR",)),
    ("002 FORMAT 4 first retreat", "email_rules", "A Mun - Bur\nA Mun - Kie", ("A MUN R BUR",)),
    ("001 III(2) last retreat", "danivon", "A Mun - Bur\nA Mun - Kie", ("A MUN R KIE",)),
    ("004 I(5) last retreat", "gwm", "A Mun - Bur\nA Mun - Kie", ("A MUN R KIE",)),
    ("003 [5] priority list skips illegal", "scorpion", "A Mun - Boh\nA Mun - Ruh\nA Mun - Kie", ("A MUN R RUH",)),
    ("004 I(4) illegal retreat disbands", "gwm", "A Mun - Boh", ("A MUN D",)),
])
def test_retreat_options(clause, profile, text, orders):
    assert notation(_read(text, profile, previous=(), position=RETREAT, power="GERMANY").orders) == orders


# ---------------------------------------------------------------------------------- adjustments

BUILDS = Position(phase="W1901A", units={"RUSSIA": ("A MOS",)},
                  centers={"RUSSIA": ("STP", "SEV", "MOS", "WAR", "RUM")})  # 4 builds due, 3 sites
REMOVALS = Position(phase="W1901A", units={"AUSTRIA": ("F TRI", "A VIE", "A BUD", "A SER")},
                    centers={"AUSTRIA": ("TRI", "BUD")})  # 2 removals


def _build(text, profile, position=BUILDS, power="RUSSIA", overrides=None):
    return _read(text, profile, previous=(), position=position, power=power, overrides=overrides)


@pytest.mark.parametrize("clause, profile, text, orders", [
    ("000 V(2) three sites, four builds, one centre twice", "mhr",
     "Build A War\nBuild F Sev\nBuild A Stp\nBuild F Sev", ("F SEV B", "A STP B", "A WAR B")),
    ("004 III(2) excess removals bottom up", "gwm", "Remove A Ser\nRemove A Vie\nRemove F Tri", ("F TRI D", "A VIE D")),
    ("000 V(2) excess removals top down", "mhr", "Remove A Ser\nRemove A Vie\nRemove F Tri", ("A SER D", "A VIE D")),
    ("003 [10 d] two builds one centre: first", "scorpion", "build f sev\nbuild a sev", ("F SEV B",)),
    ("004 III(3) two builds one centre: bottom up", "gwm", "build f sev\nbuild a sev", ("A SEV B",)),
    ("000 V(1) build type omitted: nothing", "mhr", "Build War", ()),
    ("004 III(1) type omitted inland: army", "gwm", "Build War", ("A WAR B",)),
    ("004 III(1) type omitted coast given: fleet", "gwm", "Build StP/nc", ("F STP/NC B",)),
    ("004 III(1) type omitted coastal: nothing", "gwm", "Build Sev", ()),
    ("000 V(5) inland fleet: nothing", "mhr", "Build F War", ()),
    ("DATC 4.B.6 army with coast: coast ignored", "standard", "Build A StP/nc", ("A STP B",)),
    ("004 III(5) ¶2 army with coast: nothing", "gwm", "Build A StP/nc", ()),
    ("002 ORDERS 1 fleet without coast: nothing", "email_rules", "Build F StP", ()),
    ("waive counts as a build", "standard", "Waive\nBuild A War\nBuild F Sev\nBuild A StP\nBuild A Mos", ("A STP B", "A WAR B", "F SEV B", "WAIVE")),
])
def test_adjustment_options(clause, profile, text, orders):
    position, power = (REMOVALS, "AUSTRIA") if "emov" in text else (BUILDS, "RUSSIA")
    got = notation(_build(text, profile, position, power).orders)
    assert sorted(got) == sorted(orders)


TWO_BUILDS = Position(phase="W1901A", units={"RUSSIA": ("A MOS", "A RUM", "A GAL")},
                      centers={"RUSSIA": ("STP", "SEV", "MOS", "WAR", "RUM")})  # 2 builds due, 3 free sites


@pytest.mark.parametrize("clause, profile, orders, excess", [
    ("000 V(2)", "mhr", ("A WAR B", "F SEV B"), "Build A Stp"),
    ("004 III(2)", "gwm", ("F SEV B", "A STP B"), "Build A War"),
])
def test_excess_builds_are_cut_in_the_order_the_clause_says(clause, profile, orders, excess):
    """excess_adjustment_order: three legal builds where two are due; 000 V(2) keeps them top down,
    004 III(2) bottom up, and the reply names the clause on the line not used."""
    reading = _build("Build A War\nBuild F Sev\nBuild A Stp", profile, TWO_BUILDS)
    assert sorted(notation(reading.orders)) == sorted(orders)
    [cut] = [line for line in reading.lines if line.order is None or line.order not in reading.orders]
    assert cut.text == excess and cut.rule == clause and "the excess is not used" in cut.message


def test_build_type_omitted_army_if_inland():
    assert notation(_build("Build War\nBuild Sev", "standard", overrides={"build_type_omitted": "army_if_inland"}).orders) == ("A WAR B",)


def test_reading_to_json_shape():
    data = reading_to_json(_read("Hi\nA Par - Bur", "standard", previous=()))
    assert {"power", "phase", "orders", "lines"} <= set(data)
    assert data["lines"][1] == {"line": 2, "text": "A Par - Bur", "status": "accepted", "order": "A PAR - BUR",
                                "rule": None, "message": None}


@pytest.mark.parametrize("clause, profile, subject, text, note", [
    ("000 III(4) a partial set is merged", "mhr", "", "A Par - Pic",
     "This set was merged unit by unit with the set on file (house rules 000 III(4))."),
    ("000 III(4) a set ordering every unit replaces", "mhr", "", "A Par - Pic\nA Mar H\nF Bre - Gas",
     "This set orders every unit the set on file ordered, so it replaces it (house rules 000 III(4))."),
    ("002 ORDERS 2 a change ordering every unit replaces", "email_rules", "Lepanto changes #2",
     "A Par - Pic\nA Mar H\nF Bre - Gas",
     "This set orders every unit the set on file ordered, so it replaces it (house rules 002 ORDERS 2)."),
    ("001 II(7) ¶2 replace", "danivon", "", "A Par - Pic", "This set replaces the set on file (house rules 001 II(7))."),
    ("standard: DATC 4.D.1 replace", "standard", "", "A Par - Pic",
     "This set replaces the set on file (the 2000 rulebook as the DATC reads it, 4.D.1)."),
], ids=lambda v: v if isinstance(v, str) and (v[:1].isdigit() or v.startswith("standard")) else None)
def test_set_note_says_merged_only_when_merged(clause, profile, subject, text, note):
    """"Merged unit by unit" only when an order of the set on file still stands; the rule
    in words, the clause after, never an option key."""
    assert _read(text, profile, subject=subject).notes[0] == note
