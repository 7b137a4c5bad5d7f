"""000 VI(6) (datc_4a2 = rb2000_all_hold_backup, 2.16): convoy paradoxes found from
the orders, then resolved by the 2000 rule ("a convoyed army does not cut the support of a unit
supporting an attack against one of the fleets necessary for the army to convoy") or, where that
leaves no or several resolutions, by All Hold ("all moves which are part of the paradox fail").

Positions and orders are DATC 6.F.14 to 6.F.24 (tests/data/datc/datc.json). The expected results
are worked out by hand from the rule, case by case in the comments; they are not the DATC's
(which follow the Szykman rule) where the two rules differ: 6.F.17, 6.F.22, 6.F.24."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gmserver import engine
from gmserver.rules.order import Order
from gmserver.rules.paradoxes import find_paradoxes
from gmserver.rules.position import Position
from gmserver.rules.ruleset import default_ruleset
from gmserver.services.features.convoys import paradox_rule
from gmserver.services.turn.adjudication import completed
from tests.support.adjudicate import adjudicate

CASES = {c["id"]: c for c in json.loads(
    (Path(__file__).parents[1] / "data" / "datc" / "datc.json").read_text(encoding="utf-8"))}


def orders_of(case_id: str) -> dict[str, list[Order]]:
    return {power: [Order.parse(o) for o in lines] for power, lines in CASES[case_id]["orders"].items()}


# Step 1, detection: which convoyed armies form a paradox (a cycle of "my destination's support
# decides the fate of your convoying fleet"), read off each case's orders by hand.
DETECTION = [
    ("6.F.14", [["A BRE - LON"]]),  # F LON supports the attack on F ENG, which convoys A BRE
    ("6.F.15", [["A BRE - LON"]]),  # A NAF - WAL: the unit in Wales moves, supports nothing
    ("6.F.16", [["A BRE - LON"]]),
    ("6.F.17", [["A BRE - LON"]]),
    ("6.F.18", [["A LON - BEL"]]),  # F BEL supports the convoying F NTH to hold: A LON would cut it
    ("6.F.19", [["A TUN - NAP"]]),  # F NAP supports the attack on F TYS
    ("6.F.20", [["A TUN - NAP"]]),  # F NAP supports the convoying F ION to hold
    ("6.F.21", [["A LVP - CLY VIA"]]),  # F CLY supports F NAO; A NWY's fleet (F NWG) is not touched
    ("6.F.22", [["A BRE - LON", "A NWY - BEL"]]),  # each destination supports an attack on the other's fleet
    ("6.F.22.extended", [["A BRE - LON", "A NWY - BEL"]]),  # A STP - EDI: F EDI moves, supports nothing
    ("6.F.23", [["A BRE - LON", "A NWY - BEL"]]),  # each destination supports the other's fleet to hold
    ("6.F.24", [["A BRE - LON", "A NWY - BEL"]]),
    ("6.F.9", []),  # two routes, a fleet dislodged: no support from the destination
    ("6.F.25", []),  # convoyed armies, but neither destination supports anything on a route
]


@pytest.mark.parametrize(("case_id", "expected"), DETECTION, ids=[c for c, _ in DETECTION])
def test_convoy_paradoxes_are_found_from_the_orders_000_VI_6(case_id: str, expected: list[list[str]]) -> None:
    found = [sorted(str(a.move) for a in group) for group in find_paradoxes(orders_of(case_id))]
    assert found == expected


# Steps 2 and 3 with the engine as adjudicator: (moves that succeed, units dislodged) afterwards,
# of the moves the case lists (each listed move not named as succeeding fails).
RESOLUTION = [
    # 2000 rule: F LON's support stands, F ENG is dislodged, so the convoy fails (one resolution).
    ("6.F.14", {"F WAL - ENG"}, {"F ENG"}),
    ("6.F.15", {"F WAL - ENG", "A NAF - WAL"}, {"F ENG"}),
    # F LON's support stands; 2 against 2 in the Channel: F ENG stays, the convoy succeeds and
    # A BRE bounces off F LON (1 against 1).
    ("6.F.16", set(), set()),
    # As 6.F.16, but A BRE has F YOR's support: it dislodges F LON (000 differs here).
    ("6.F.17", {"A BRE - LON"}, {"F LON"}),
    # A LON's arrival would cut F BEL's support and lose F NTH; its failure would keep it: no
    # resolution, all hold -- the same board as the engine's.
    ("6.F.18", set(), set()),
    # F TYS is not necessary (F ION is a route): A TUN cuts F NAP's support, F TYS stays, A TUN
    # bounces off F NAP.
    ("6.F.19", set(), set()),
    # A TUN arrives by F TYS whatever happens to F ION, so it cuts F NAP's support: F ION is
    # dislodged and A TUN bounces off F NAP.
    ("6.F.20", {"F EAS - ION"}, {"F ION"}),
    # A NWY dislodges F CLY, whose support of F NAO falls: F NAO is dislodged and A LVP fails.
    ("6.F.21", {"A NWY - CLY", "F MAO - NAO"}, {"F CLY", "F NAO"}),
    # Both convoys succeed, or both fail: two resolutions, so all four moves fail (000 differs).
    ("6.F.22", set(), set()),
    # ... and F EDI, holding, keeps A STP out of Edinburgh.
    ("6.F.22.extended", set(), set()),
    # Exactly one of the two convoys succeeds, either one: two resolutions, all hold.
    ("6.F.23", set(), set()),
    # No assignment of success and failure is consistent: all hold (000 differs: no F NTH lost).
    ("6.F.24", set(), set()),
]


@pytest.mark.parametrize(("case_id", "succeeded", "dislodged"), RESOLUTION, ids=[c for c, _, _ in RESOLUTION])
def test_convoy_paradoxes_are_resolved_by_the_2000_rule_or_all_hold_000_VI_6(
        case_id: str, succeeded: set[str], dislodged: set[str]) -> None:
    case = CASES[case_id]
    state = engine.state_from_position(Position.from_json({"phase": case["phase"], "units": case["units"],
                                                          "centers": {}}))
    texts = {power: tuple(lines) for power, lines in case["orders"].items()}
    outcome, paradoxes = paradox_rule(state, texts, adjudicate(state, texts), engine.map_info())
    assert paradoxes
    board = {u for units in outcome.after.units.values() for u in units}
    moves = {o for lines in orders_of(case_id).values() for o in lines if o.action == "move"}
    lost = {str(o.order.unit) for o in outcome.orders if "dislodged" in o.results}  # with no retreat: gone
    # a move succeeded when its unit is neither where it was nor dislodged there, but at its target
    assert {str(m) for m in moves if f"{m.unit.kind} {m.target}" in board and str(m.unit) not in board | lost
            } == succeeded
    assert lost == dislodged


def test_no_paradox_when_the_destination_supports_something_else() -> None:
    orders = {"ENGLAND": [Order.parse("F LON H"), Order.parse("F WAL - ENG")],
              "FRANCE": [Order.parse("A BRE - LON"), Order.parse("F ENG C A BRE - LON")]}
    assert find_paradoxes(orders) == ()


def test_000_VI_6_changes_the_engine_s_board_only_where_matrix_2_16_says_it_differs() -> None:
    """the 2000 rule and All Hold agree with the engine's Szykman rule on 6.F.14,
    6.F.16, 6.F.18 and 6.F.23 and differ on 6.F.17, 6.F.22 (and its extended variant) and 6.F.24
    (6.F.19 differs only through 000 VI(4), a GM ruling). Every other convoy case is left alone."""
    changed = set()
    for case in CASES.values():
        if case["id"][:4] not in ("6.F.", "6.G.") or "prior_movement" in case:
            continue
        state = engine.state_from_position(Position.from_json({"phase": case["phase"], "units": case["units"],
                                                              "centers": {}}))
        texts = completed_texts(state, case["orders"])
        engine_outcome = engine.adjudicate(state, texts)
        if paradox_rule(state, texts, engine_outcome, engine.map_info())[0] is not engine_outcome:
            changed.add(case["id"])
    assert changed == {"6.F.17", "6.F.22", "6.F.22.extended", "6.F.24"}


def completed_texts(state, orders):
    """Every unit ordered (the engine takes nothing less): the orders the DATC case leaves out hold."""
    return completed(state, orders, default_ruleset())[0]
