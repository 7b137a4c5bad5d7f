"""Focused tests of the engine adapter (`gmserver.engine`): the map as plain data, positions and
engine states, and what `adjudicate` reports. The DATC corpus is in test_engine_datc.py."""

from __future__ import annotations

import dataclasses
import gc
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gmserver import engine
from gmserver.rules.geography import POWERS  # the one written list: the engine must agree with it
from gmserver.rules.position import PhaseOutcome, Position
from tests.support.adjudicate import adjudicate

REPO = Path(__file__).parents[2]


def position(phase: str, units: dict, centers: dict | None = None, dislodged: dict | None = None) -> Position:
    """A position in canonical order (`position_from_state` sorts; `Position` compares tuples)."""
    data = {"phase": phase, "units": units, "centers": centers or {}, "dislodged": dislodged or {}}
    return Position.from_json({k: v if k == "phase" else {p: sorted(x) for p, x in v.items()} for k, v in data.items()})


def play(pos: Position, orders: dict) -> PhaseOutcome:
    return adjudicate(engine.state_from_position(pos), orders)


def by_unit(outcome: PhaseOutcome) -> dict[str, object]:
    return {" ".join(str(o.order).split()[:2]): o for o in outcome.orders}


# ---------------------------------------------------------------------------------------------
# The module boundary


def test_importing_the_adapter_does_not_import_the_engine() -> None:
    code = "import sys, gmserver.engine; assert 'diplomacy' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_engine_is_the_only_importer_of_diplomacy() -> None:
    pattern = re.compile(r"^\s*(import diplomacy|from diplomacy\b)", re.MULTILINE)
    offenders = [
        str(path.relative_to(REPO))
        for path in sorted((REPO / "gmserver").rglob("*.py"))
        if path.name != "engine.py" and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


# ---------------------------------------------------------------------------------------------
# map_info()


@pytest.fixture(scope="module")
def info():
    return engine.map_info()


def test_map_has_75_provinces_and_switzerland_shut(info) -> None:
    assert info.name == "standard"
    assert info.powers == POWERS
    assert len(info.provinces) == 76
    shut = [p.code for p in info.provinces.values() if p.kind == "shut"]
    assert shut == ["SWI"]
    kinds = {kind: sum(p.kind == kind for p in info.provinces.values()) for kind in ("land", "coast", "water")}
    assert kinds == {"land": 14, "coast": 42, "water": 19}
    assert "SWI" not in info.army_moves and "SWI" not in info.fleet_moves
    assert all("SWI" not in moves for moves in info.army_moves.values())


def test_two_coast_provinces(info) -> None:
    coasts = {p.code: p.coasts for p in info.provinces.values() if p.coasts}
    assert coasts == {"BUL": ("BUL/EC", "BUL/SC"), "SPA": ("SPA/NC", "SPA/SC"), "STP": ("STP/NC", "STP/SC")}
    # a fleet stands on a coast, never on the bare province
    assert "SPA" not in info.fleet_moves and {"SPA/NC", "SPA/SC"} <= set(info.fleet_moves)
    assert info.fleet_coasts_reachable("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert info.fleet_coasts_reachable("GAS", "SPA") == ("SPA/NC",)
    assert info.fleet_coasts_reachable("WES", "SPA") == ("SPA/SC",)
    assert info.fleet_coasts_reachable("CON", "BUL") == ("BUL/EC", "BUL/SC")
    assert info.fleet_coasts_reachable("BLA", "BUL") == ("BUL/EC",)
    assert info.fleet_coasts_reachable("BAR", "STP") == ("STP/NC",)
    assert info.fleet_coasts_reachable("NAO", "SPA") == ()
    assert info.display_name("SPA/NC") == "Spain (north coast)"


def test_adjacency(info) -> None:
    assert info.army_moves["PAR"] == frozenset({"BRE", "BUR", "GAS", "PIC"})
    assert info.army_moves["SPA"] == frozenset({"GAS", "MAR", "POR"})
    assert "MAO" not in info.army_moves  # water
    assert all(info.provinces[p].kind in ("land", "coast") for moves in info.army_moves.values() for p in moves)
    assert info.fleet_moves["PIC"] == frozenset({"BEL", "BRE", "ENG"})  # not inland PAR or BUR
    assert info.fleet_moves["ROM"] == frozenset({"NAP", "TUS", "TYS"})  # no shared coast with VEN
    assert info.fleet_moves["SPA/NC"] == frozenset({"GAS", "MAO", "POR"})
    assert "MUN" not in info.fleet_moves
    assert info.can_move("A", "MAR", "SPA") and not info.can_move("F", "MAR", "SPA/NC")
    assert info.can_move("F", "MAR", "SPA/SC")
    for loc, moves in info.fleet_moves.items():  # adjacency is symmetric
        assert all(loc in info.fleet_moves[other] for other in moves), loc


def test_centres_and_names(info) -> None:
    assert len(info.supply_centres()) == 34
    homes = {power: info.home_centres(power) for power in POWERS}
    assert homes["RUSSIA"] == ("MOS", "SEV", "STP", "WAR")
    assert homes["ENGLAND"] == ("EDI", "LON", "LVP")
    assert homes["TURKEY"] == ("ANK", "CON", "SMY")
    assert sum(len(h) for h in homes.values()) == 22
    assert all(info.provinces[c].supply_centre for h in homes.values() for c in h)
    assert info.provinces["MAO"].name == "Mid-Atlantic Ocean"
    assert info.provinces["LYO"].name == "Gulf of Lyon"
    assert info.aliases["NORTH SEA"] == "NTH"


def test_power_words_map_adjectives(info) -> None:
    adjectives = {"AUSTRIAN": "AUSTRIA", "ENGLISH": "ENGLAND", "FRENCH": "FRANCE", "GERMAN": "GERMANY",
                  "ITALIAN": "ITALY", "RUSSIAN": "RUSSIA", "TURKISH": "TURKEY"}
    for word, power in adjectives.items():
        assert info.power_words[word] == power
        assert info.power_words[power] == power


# ---------------------------------------------------------------------------------------------
# States and positions


def test_initial_state_has_the_22_starting_units() -> None:
    start = engine.position_from_state(engine.initial_state())
    assert start.phase == "S1901M"
    assert sum(len(units) for units in start.units.values()) == 22
    assert start.units["RUSSIA"] == ("A MOS", "A WAR", "F SEV", "F STP/SC")
    assert start.units["ENGLAND"] == ("A LVP", "F EDI", "F LON")
    assert start.centers["FRANCE"] == ("BRE", "MAR", "PAR")
    assert not start.dislodged and not start.retreats and not start.adjustments
    assert start.powers_to_order() == POWERS


def test_round_trip_movement_position() -> None:
    pos = position("F1903M", {"ENGLAND": ["F NTH", "A YOR"], "RUSSIA": ["F STP/NC", "F BUL/SC"]},
                   centers={"ENGLAND": ["LON", "EDI", "NWY"], "RUSSIA": ["STP", "BUL"]})
    assert engine.position_from_state(engine.state_from_position(pos)) == pos


def test_round_trip_retreat_position_reached_by_play() -> None:
    outcome = play(position("S1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}),
                   {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    reached = outcome.after
    assert reached.phase == "S1901R" and reached.retreats
    assert engine.position_from_state(engine.state_from_position(reached)) == reached


def test_round_trip_hand_made_retreat_position() -> None:
    pos = position("F1901R", {"GERMANY": ["A BUR", "A RUH"], "FRANCE": ["A PAR"]}, dislodged={"FRANCE": ["A BUR"]})
    back = engine.position_from_state(engine.state_from_position(pos))
    assert dataclasses.replace(back, retreats={}) == pos
    # no attacker on record: options are the empty neighbours (MUN, the real origin, included)
    assert back.retreats == {"A BUR": ("BEL", "GAS", "MAR", "MUN", "PIC")}


def test_hand_made_army_retreat_into_a_two_coast_province() -> None:
    pos = position("S1901R", {"FRANCE": ["A MAR"]}, dislodged={"ITALY": ["A MAR"]})
    back = engine.position_from_state(engine.state_from_position(pos))
    assert back.retreats == {"A MAR": ("BUR", "GAS", "PIE", "SPA")}


def test_round_trip_adjustment_position() -> None:
    pos = position("W1901A", {"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A BER", "A KIE", "A HOL"]},
                   centers={"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER", "KIE"]})
    back = engine.position_from_state(engine.state_from_position(pos))
    assert dataclasses.replace(back, adjustments={}) == pos
    assert back.adjustments == {"FRANCE": 2, "GERMANY": -1}
    assert back.powers_to_order() == ("FRANCE", "GERMANY")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"phase": "S1901M", "units": {"FRANCE": ["F MUN"]}}, "F MUN"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}, "A PAR"),
        ({"phase": "S1901M", "units": {"FRENCH": ["A PAR"]}}, "FRENCH"),
        ({"phase": "W1901A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "BUR"]}}, "BUR"),
        ({"phase": "W1901A", "units": {"FRANCE": ["A PAR"]}}, "centers"),
    ],
)
def test_state_from_position_refuses_what_the_engine_would_drop(data, message) -> None:
    with pytest.raises(ValueError, match=message):
        engine.state_from_position(Position.from_json(data))


# ---------------------------------------------------------------------------------------------
# adjudicate(): movement


def test_unordered_units_are_reported_as_defaulted_holds() -> None:
    outcome = adjudicate(engine.initial_state(), {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]})
    assert outcome.phase == "S1901M" and outcome.after.phase == "F1901M"
    assert len(outcome.orders) == 22
    defaulted = [o for o in outcome.orders if o.defaulted]
    assert len(defaulted) == 19
    assert all(str(o.order).endswith(" H") and o.succeeded for o in defaulted)
    assert {str(o.order) for o in outcome.orders_of("FRANCE")} == {"A PAR - BUR", "A MAR - SPA", "F BRE - MAO"}
    assert outcome.after.units["FRANCE"] == ("A BUR", "A SPA", "F MAO")
    assert outcome.centre_changes() == {}  # ownership changes only in the adjustment phase


def test_illegal_order_is_dropped_and_the_unit_holds() -> None:
    outcome = adjudicate(engine.initial_state(), {"GERMANY": ["A MUN - PAR", "F LON - NTH"]})
    units = by_unit(outcome)
    assert str(units["A MUN"].order) == "A MUN H" and units["A MUN"].defaulted
    assert units["F LON"].power == "ENGLAND" and units["F LON"].defaulted
    assert len(outcome.orders) == 22


def test_bounce() -> None:
    outcome = adjudicate(engine.initial_state(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
    units = by_unit(outcome)
    assert units["A PAR"].results == ("bounce",) and not units["A PAR"].succeeded
    assert units["A MUN"].results == ("bounce",)
    assert engine.position_from_state(engine.initial_state()).units == outcome.after.units


def test_dislodgement_gives_retreat_options_without_the_attackers_origin() -> None:
    outcome = play(position("S1901M", {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN", "A RUH"]}),
                   {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"], "FRANCE": ["A PAR - PIC"]})
    units = by_unit(outcome)
    assert units["A BUR"].defaulted and "dislodged" in units["A BUR"].results
    after = outcome.after
    assert after.phase == "S1901R"
    assert after.dislodged == {"FRANCE": ("A BUR",)}
    assert after.units["GERMANY"] == ("A BUR", "A RUH")
    # not MUN (the attacker's origin), not RUH (occupied), not PIC (occupied after the move)
    assert sorted(after.retreats["A BUR"]) == ["BEL", "GAS", "MAR", "PAR"]
    assert after.powers_to_order() == ("FRANCE",)


def test_retreats_after_a_convoyed_attack_exclude_occupied_and_contested_provinces() -> None:
    # DATC 6.H.11 plus a standoff in Piedmont. Engine 1.1.2 would offer every neighbour of MAR
    # (BUR is occupied, PIE contested); the adapter corrects it. GAS, the convoyed army's origin,
    # stays open (DATC 4.A.5).
    pos = position("S1901M", {
        "FRANCE": ["A GAS", "A BUR", "F MAO", "F WES", "F LYO"], "ITALY": ["A MAR", "A VEN"], "GERMANY": ["A TYR"],
    })
    outcome = play(pos, {
        "FRANCE": ["A GAS - MAR VIA", "A BUR S A GAS - MAR", "F MAO C A GAS - MAR", "F WES C A GAS - MAR",
                   "F LYO C A GAS - MAR"],
        "ITALY": ["A MAR H", "A VEN - PIE"], "GERMANY": ["A TYR - PIE"],
    })
    assert outcome.after.phase == "S1901R"
    assert outcome.after.retreats == {"A MAR": ("GAS", "SPA")}


def test_convoyed_attack_leaving_no_retreat_destroys_the_unit_and_skips_the_phase() -> None:
    # DATC 6.F.21: F CLY is dislodged by a convoyed army and every neighbour is occupied.
    pos = position("S1901M", {"ENGLAND": ["A LVP", "F CLY", "F NAO"], "FRANCE": ["F IRI", "F MAO"],
                              "RUSSIA": ["A EDI", "A NWY", "F NWG"]})
    outcome = play(pos, {
        "ENGLAND": ["A LVP - CLY VIA", "F NAO C A LVP - CLY", "F CLY S F NAO"],
        "FRANCE": ["F IRI S F MAO - NAO", "F MAO - NAO"],
        "RUSSIA": ["A EDI S A NWY - CLY", "F NWG C A NWY - CLY", "A NWY - CLY"],
    })
    units = by_unit(outcome)
    assert "dislodged" in units["F CLY"].results and "dislodged" in units["F NAO"].results
    assert outcome.after.phase == "F1901M"
    assert not outcome.after.dislodged and not outcome.after.retreats
    assert outcome.after.units == {"ENGLAND": ("A LVP",), "FRANCE": ("F IRI", "F NAO"),
                                   "RUSSIA": ("A CLY", "A EDI", "F NWG")}


def test_engine_skips_an_empty_retreat_phase() -> None:
    # A BUR is dislodged but every neighbour is occupied or the attacker's origin: destroyed at once.
    pos = position("S1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH", "A BEL", "A PIC", "A PAR",
                                                                "A GAS", "A MAR"]})
    outcome = play(pos, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    assert "dislodged" in by_unit(outcome)["A BUR"].results
    assert outcome.after.phase == "F1901M"
    assert "FRANCE" not in outcome.after.units and not outcome.after.dislodged


def test_fall_turn_changes_centres_and_leads_to_adjustments() -> None:
    pos = position("F1901M", {"FRANCE": ["A BUR", "A PAR", "F BRE"], "GERMANY": ["A MUN", "A KIE", "A HOL"]},
                   centers={"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "KIE", "BER", "HOL"]})
    outcome = play(pos, {"FRANCE": ["A BUR - BEL", "F BRE - ENG"], "GERMANY": ["A HOL - NTH", "A KIE - HOL"]})
    # illegal "A HOL - NTH" dropped: A HOL holds and A KIE bounces against it
    assert outcome.after.phase == "W1901A"
    assert outcome.centre_changes() == {"FRANCE": (("BEL",), ())}
    assert outcome.after.adjustments == {"FRANCE": 1, "GERMANY": 1}


def test_taking_a_home_centre_changes_two_powers() -> None:
    pos = position("F1901M", {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A KIE"]},
                   centers={"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "KIE"]})
    outcome = play(pos, {"FRANCE": ["A BUR - MUN"]})
    assert outcome.centre_changes() == {"FRANCE": (("MUN",), ()), "GERMANY": ((), ("MUN",))}


# ---------------------------------------------------------------------------------------------
# adjudicate(): retreats and adjustments


def test_retreat_phase_outcome() -> None:
    first = play(position("S1901M", {"FRANCE": ["A BUR", "F BRE"], "GERMANY": ["A MUN", "A RUH"],
                                     "ITALY": ["F WES"]}),
                 {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"], "ITALY": ["F WES - MAO"], "FRANCE": ["F BRE - MAO"]})
    assert first.after.phase == "S1901R"
    # ... and F BRE was not dislodged: it bounced; only A BUR retreats
    outcome = adjudicate(first.state_after, {"FRANCE": ["A BUR R GAS"]})
    assert [(str(o.order), o.results, o.defaulted) for o in outcome.orders] == [("A BUR R GAS", (), False)]
    assert outcome.after.phase == "F1901M"
    assert "A GAS" in outcome.after.units["FRANCE"] and not outcome.after.dislodged


def test_unordered_retreat_is_a_defaulted_disband() -> None:
    first = play(position("S1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}),
                 {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    outcome = adjudicate(first.state_after, {})
    assert [(o.power, str(o.order), o.defaulted) for o in outcome.orders] == [("FRANCE", "A BUR D", True)]
    assert "FRANCE" not in outcome.after.units


def test_second_retreat_order_does_not_spoil_the_first() -> None:
    # the engine keeps the first retreat order, voids the second and files that 'void' under
    # the unit, although the unit did retreat
    first = play(position("S1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}),
                 {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    outcome = adjudicate(first.state_after, {"FRANCE": ["A BUR R GAS", "A BUR R PAR"]})
    assert [(str(o.order), o.results) for o in outcome.orders] == [("A BUR R GAS", ())]
    assert outcome.after.units["FRANCE"] == ("A GAS",)


ADJUSTMENT = position("W1901A", {"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A BER", "A KIE", "A HOL"]},
                      centers={"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER", "KIE"]})


def test_missing_removal_is_chosen_by_the_engine_and_reported() -> None:
    outcome = play(ADJUSTMENT, {})
    assert outcome.engine_removals == ("A HOL",)
    assert [(o.power, str(o.order), o.defaulted) for o in outcome.orders] == [("GERMANY", "A HOL D", True)]
    assert outcome.after.phase == "S1902M"
    assert outcome.after.units["GERMANY"] == ("A BER", "A KIE", "A MUN")
    assert outcome.after.units["FRANCE"] == ("A PAR",)  # missing builds are waived


def test_builds_and_ordered_removal() -> None:
    outcome = play(ADJUSTMENT, {"FRANCE": ["A BRE B", "F MAR B"], "GERMANY": ["A MUN D"]})
    assert [(str(o.order), o.succeeded, o.defaulted) for o in outcome.orders] == [
        ("A BRE B", True, False), ("F MAR B", True, False), ("A MUN D", True, False)]
    assert outcome.engine_removals == ()
    assert outcome.after.units == {"FRANCE": ("A BRE", "A PAR", "F MAR"), "GERMANY": ("A BER", "A HOL", "A KIE")}


def test_duplicate_adjustment_orders_report_what_happened_on_the_board() -> None:
    # the engine files a 'void' for the duplicate under the unit, yet builds it (DATC 6.I.7)
    outcome = play(ADJUSTMENT, {"FRANCE": ["A BRE B", "A BRE B"]})
    assert [(str(o.order), o.results) for o in outcome.orders_of("FRANCE")] == [("A BRE B", ())]
    # a void build beside a standing unit of the same name is no removal (DATC 6.I.3)
    outcome = play(ADJUSTMENT, {"FRANCE": ["A PAR B"], "GERMANY": ["A HOL D"]})
    assert outcome.engine_removals == ()
    assert outcome.after.units["FRANCE"] == ("A PAR",)


# ---------------------------------------------------------------------------------------------
# legal_orders()


def test_legal_orders_list_only_orderable_locations() -> None:
    start = engine.legal_orders(engine.initial_state())
    assert sorted(start) == sorted(u.split()[1][:3] for u in _all_units(engine.initial_state()))
    assert "A PAR - BUR" in start["PAR"] and "A PAR H" in start["PAR"]
    assert all(order.startswith("F STP/SC") for order in start["STP"])

    first = play(position("S1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}),
                 {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    retreat = engine.legal_orders(first.state_after)
    assert sorted(retreat) == ["BUR"]
    assert set(retreat["BUR"]) == {"A BUR D"} | {f"A BUR R {p}" for p in first.after.retreats["A BUR"]}

    adjust = engine.legal_orders(engine.state_from_position(ADJUSTMENT))
    assert sorted(adjust) == ["BER", "BRE", "HOL", "KIE", "MAR", "MUN"]
    assert set(adjust["BRE"]) == {"A BRE B", "F BRE B", "WAIVE"}
    assert adjust["HOL"] == ("A HOL D",)


def _all_units(state) -> list[str]:
    return [u for units in engine.position_from_state(state).units.values() for u in units]


# ---------------------------------------------------------------------------------------------
# adjudicate() refuses what would leave a decision to the engine's own defaults


def test_adjudicate_refuses_a_unit_without_an_order() -> None:
    """The engine is always handed explicit, ruleset-computed orders; a unit left
    unordered would get the engine's hold, not the house rules' default."""
    with pytest.raises(engine.IncompleteOrders, match="FRANCE A MAR"):
        engine.adjudicate(engine.initial_state(), {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]})


def test_adjudicate_refuses_too_few_removals() -> None:
    """The engine would choose the missing removal by its own rule (2.17), not the profile's."""
    pos = position("W1901A", {"RUSSIA": ["A MOS", "A WAR", "F SEV"]}, {"RUSSIA": ["MOS", "WAR"]})
    with pytest.raises(engine.IncompleteOrders, match="RUSSIA: 1 removals"):
        engine.adjudicate(engine.state_from_position(pos), {})
    done = engine.adjudicate(engine.state_from_position(pos), {"RUSSIA": ["F SEV D"]})
    assert done.after.units == {"RUSSIA": ("A MOS", "A WAR")}


def _engine_games_alive() -> int:
    return sum(1 for o in gc.get_objects() if type(o).__module__ == "diplomacy.engine.game" and type(o).__name__ == "Game")


def test_an_adjudication_leaves_its_engine_game_to_the_reference_counts_not_the_collector() -> None:
    # a deadline adjudicates many games in a row: each engine game freed at once, not left in a
    # cycle with its powers for the collector to find (engine._let_go)
    state = engine.initial_state()
    adjudicate(state, {"FRANCE": ["A PAR - BUR"]})  # the engine loaded, its map cached
    gc.collect()
    alive = _engine_games_alive()
    gc.disable()
    try:
        outcome = adjudicate(state, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
        assert _engine_games_alive() == alive
    finally:
        gc.enable()
    assert "A PAR" in outcome.after.units["FRANCE"]  # read before it was let go: the bounce in BUR
