"""000 VIII(2), VIII(3) (extra_unit_repair = mhr): the repair of a surplus unit,
planned on a hand-written position."""

from __future__ import annotations

import pytest

from gmserver import engine
from gmserver.rules.order import Unit
from gmserver.rules.position import Position
from gmserver.rules.repairs import RepairError, plan_repair
from gmserver.rules.ruleset import load_ruleset

GEO = engine.map_info()
MHR = load_ruleset("mhr")
# France has one unit too many: A MOS stands far from every French home centre.
POSITION = Position.from_json({"phase": "S1902M", "centers": {},
                               "units": {"FRANCE": ["A PAR", "F BRE", "A MOS"], "GERMANY": ["A BER", "F KIE"]}})


def test_a_named_surplus_unit_is_removed_000_VIII_2() -> None:
    repair = plan_repair(POSITION, "FRANCE", Unit.parse("A PAR"), None, MHR, GEO)
    assert (repair.unit, repair.moved_to, set(repair.units_after)) == ("A PAR", None, {"F BRE", "A MOS"})
    assert "000 VIII(2)" in repair.describe()


def test_with_no_unit_named_the_removal_rule_picks_the_farthest_000_VIII_2() -> None:
    """Too few disbands: the civil-disorder rule (000 V(4): farthest from home first) removes A MOS."""
    repair = plan_repair(POSITION, "FRANCE", None, None, MHR, GEO)
    assert (repair.unit, set(repair.units_after)) == ("A MOS", {"A PAR", "F BRE"})
    assert "000 V(4)" in repair.why and "000 VIII(2)" in repair.why


def test_a_misplaced_unit_moves_where_it_should_be_if_that_is_free_000_VIII_3() -> None:
    repair = plan_repair(POSITION, "FRANCE", Unit.parse("A MOS"), "BUR", MHR, GEO)
    assert (repair.moved_to, set(repair.units_after)) == ("BUR", {"A PAR", "F BRE", "A BUR"})
    assert "000 VIII(3)" in repair.describe()


@pytest.mark.parametrize(("unit", "to", "why"), [
    ("A MOS", "KIE", "disbanded instead"),  # VIII(3): the province correctly holds another unit
    ("A MOS", "NTH", "cannot stand"),  # an army at sea
    ("A MUN", None, "has no A MUN"),
])
def test_a_repair_the_position_does_not_allow_says_why(unit: str, to: str | None, why: str) -> None:
    with pytest.raises(RepairError, match=why):
        plan_repair(POSITION, "FRANCE", Unit.parse(unit), to, MHR, GEO)


def test_a_repair_waits_for_the_retreats_to_be_adjudicated() -> None:
    retreats = Position.from_json({"phase": "F1902R", "centers": {}, "units": {"FRANCE": ["A PAR", "A MOS"]}})
    with pytest.raises(RepairError, match="retreat"):
        plan_repair(retreats, "FRANCE", Unit.parse("A MOS"), None, MHR, GEO)


def test_a_repair_in_an_adjustment_phase_changes_the_builds_due() -> None:
    """The engine recounts: three centres and, once A MOS is gone, two units -- one build."""
    position = Position.from_json({"phase": "W1901A", "centers": {"FRANCE": ["PAR", "BRE", "MAR"]},
                                   "units": {"FRANCE": ["A PAR", "F BRE", "A MOS"]}})
    repair = plan_repair(position, "FRANCE", Unit.parse("A MOS"), None, MHR, GEO)
    state = engine.with_units(engine.state_from_position(position), "FRANCE", repair.units_after)
    assert engine.position_from_state(state).adjustments == {"FRANCE": 1}
