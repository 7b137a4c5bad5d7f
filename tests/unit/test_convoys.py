"""000 VI(4) (datc_4a1 = mhr_hybrid): the convoys the engine lets succeed and 000
says failed, and the GM's ruling applied. Positions hand-checked against DATC 6.F.9 and 6.F.10."""

from __future__ import annotations

import pytest

from gmserver import engine
from gmserver.rules.convoys import apply_rulings, convoy_routes, disputed_convoys
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position
from gmserver.services.features.convoys import with_ruling_notes

GEO = engine.map_info()

# DATC 6.F.9: England A LON - BEL by F ENG or F NTH; France dislodges F ENG.
UNITS = {"ENGLAND": ["F ENG", "F NTH", "A LON"], "FRANCE": ["F BRE", "F MAO"]}
ORDERS = {"ENGLAND": ["F ENG C A LON - BEL", "F NTH C A LON - BEL", "A LON - BEL"],
          "FRANCE": ["F BRE S F MAO - ENG", "F MAO - ENG"]}


def as_orders(orders):
    """The rulings take Order values: the orders below are written in engine notation."""
    return {power: [Order.parse(o) for o in power_orders] for power, power_orders in orders.items()}


def notation(orders):
    return {power: tuple(str(o) for o in power_orders) for power, power_orders in orders.items()}


def outcome(units, orders):
    state = engine.state_from_position(Position.from_json({"phase": "S1901M", "units": units, "centers": {}}))
    return engine.adjudicate(state, orders)


def test_an_own_fleet_dislodged_on_one_of_two_routes_disrupts_the_convoy_000_VI_4() -> None:
    """DATC 6.F.9 under 000 VI(4): the engine moves A LON by the North Sea; 000 says the loss of
    England's own F ENG, on a possible route, disrupted the convoy."""
    result = outcome(UNITS, ORDERS)
    assert next(o for o in result.orders if str(o.order) == "A LON - BEL").succeeded  # the engine: all routes
    [dispute] = disputed_convoys(result, GEO)
    assert (dispute.power, dispute.move, dispute.dislodged, dispute.routes, dispute.by_land) == \
        ("ENGLAND", "A LON - BEL", ("F ENG",), 2, False)
    assert "000 VI(4)" in dispute.describe()


def test_a_foreign_fleet_dislodged_where_another_route_exists_has_no_effect_000_VI_4() -> None:
    """DATC 6.F.10 (the convoying fleet in the Channel is French): 000 and the engine agree."""
    units = {"ENGLAND": ["F NTH", "A LON"], "FRANCE": ["F ENG"], "ITALY": ["F IRI", "F MAO"]}
    orders = {"ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"], "FRANCE": ["F ENG C A LON - BEL"],
              "ITALY": ["F IRI S F MAO - ENG", "F MAO - ENG"]}
    result = outcome(units, orders)
    assert "dislodged" in next(o for o in result.orders if str(o.order).startswith("F ENG")).results
    assert next(o for o in result.orders if str(o.order) == "A LON - BEL").succeeded
    assert disputed_convoys(result, GEO) == ()


def test_a_single_route_is_the_engine_s_own_case() -> None:
    units = {"ENGLAND": ["F NTH", "A LON"], "GERMANY": ["F HOL", "F DEN"]}
    orders = {"ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"], "GERMANY": ["F HOL S F DEN - NTH", "F DEN - NTH"]}
    assert disputed_convoys(outcome(units, orders), GEO) == ()


@pytest.mark.parametrize(("fleets", "routes"), [
    (("ENG", "NTH"), {("ENG",), ("NTH",)}),
    (("NTH",), {("NTH",)}),
    (("MAO",), set()),  # the Mid-Atlantic touches neither London nor Belgium
])
def test_convoy_routes(fleets, routes) -> None:
    assert set(convoy_routes("LON", "BEL", fleets, GEO)) == routes


def test_the_gm_s_ruling_holds_the_convoying_fleets_and_the_army_fails() -> None:
    ruled = notation(apply_rulings(as_orders(ORDERS), [{"move": "A LON - BEL", "ruling": "fails"}], GEO))
    assert ruled["ENGLAND"] == ("F ENG H", "F NTH H", "A LON - BEL") and ruled["FRANCE"] == tuple(ORDERS["FRANCE"])
    state = engine.state_from_position(Position.from_json({"phase": "S1901M", "units": UNITS, "centers": {}}))
    assert not next(o for o in engine.adjudicate(state, ruled).orders if str(o.order) == "A LON - BEL").succeeded
    assert notation(apply_rulings(as_orders(ORDERS), [{"move": "A LON - BEL", "ruling": "stands"}], GEO)) == \
        {power: tuple(orders) for power, orders in ORDERS.items()}


@pytest.mark.parametrize("rulings, noted", [
    ([], set()),
    ([{"move": "A LON - BEL", "ruling": "stands"}], set()),
    ([{"move": "A LON - BEL", "ruling": "fails"}], {"F ENG H", "F NTH H"}),
])
def test_the_report_says_which_orders_a_ruling_changed_000_VI_4(rulings, noted) -> None:
    given = {power: tuple(orders) for power, orders in as_orders(ORDERS).items()}
    ruled = apply_rulings(given, rulings, GEO)
    result = with_ruling_notes(outcome(UNITS, notation(ruled)), given, ruled)
    assert {str(o.order) for o in result.orders if o.note and "GM's ruling" in o.note} == noted


def test_an_army_that_could_go_by_land_holds_instead() -> None:
    orders = {"FRANCE": ["A PIC - BEL", "F ENG C A PIC - BEL"]}
    assert notation(apply_rulings(as_orders(orders), [{"move": "A PIC - BEL", "ruling": "fails"}], GEO))["FRANCE"] == \
        ("A PIC H", "F ENG C A PIC - BEL")


# -- 000 VI(4) "disrupted if any fleet of a specified route is dislodged" (the route of 000 VI(3)) ---
# England A LON with F ENG; a French F NTH convoys it too; Germany dislodges the French fleet.
# Two routes (ENG alone, NTH alone). No route written: a foreign fleet lost where another route
# exists has no effect (000 VI(4), as the engine). Route ENG - NTH written (a chain: ENG borders
# London and the North Sea, the North Sea Belgium): a fleet of it is lost, so 000 says it failed.
DETOUR_UNITS = {"ENGLAND": ["F ENG", "A LON"], "FRANCE": ["F NTH"], "GERMANY": ["F HOL", "F DEN"]}
DETOUR_ORDERS = {"ENGLAND": ["F ENG C A LON - BEL", "A LON - BEL"], "FRANCE": ["F NTH C A LON - BEL"],
                 "GERMANY": ["F HOL S F DEN - NTH", "F DEN - NTH"]}


@pytest.mark.parametrize(("routes", "disputed"), [
    pytest.param({}, False, id="000 VI(4) no route: a foreign fleet lost, another route exists"),
    pytest.param({"A LON": ("ENG", "NTH")}, True, id="000 VI(4) a fleet of the specified route lost"),
    pytest.param({"A LON": ("ENG",)}, False, id="000 VI(4) the specified route intact"),
])
def test_000_VI_4_a_specified_route_is_disrupted_by_any_of_its_fleets(routes, disputed) -> None:
    result = outcome(DETOUR_UNITS, DETOUR_ORDERS)
    assert "dislodged" in next(o for o in result.orders if str(o.order).startswith("F NTH")).results
    assert next(o for o in result.orders if str(o.order) == "A LON - BEL").succeeded  # the engine: by ENG
    found = disputed_convoys(result, GEO, "mhr_hybrid", {Unit.parse(u): r for u, r in routes.items()})
    assert bool(found) is disputed
    if disputed:
        assert found[0].dislodged == ("F NTH",) and "of the route the order named" in found[0].describe()


@pytest.mark.parametrize(("rule", "disputed"), [
    pytest.param("all_routes", False, id="DATC 4.A.1 all routes: the engine's own rule"),
    pytest.param("mhr_hybrid", False, id="000 VI(4) a foreign fleet, another route"),
    pytest.param("any_route", True, id="DATC 4.A.1 any route: the 1971 rule"),
])
def test_datc_4a1_each_value_on_a_foreign_fleet_lost_where_another_route_exists(rule, disputed) -> None:
    """DATC 6.F.10: England's A LON by F NTH or the French F ENG; Italy dislodges F ENG."""
    units = {"ENGLAND": ["F NTH", "A LON"], "FRANCE": ["F ENG"], "ITALY": ["F IRI", "F MAO"]}
    orders = {"ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"], "FRANCE": ["F ENG C A LON - BEL"],
              "ITALY": ["F IRI S F MAO - ENG", "F MAO - ENG"]}
    found = disputed_convoys(outcome(units, orders), GEO, rule)
    assert bool(found) is disputed
    if disputed:
        assert found[0].dislodged == ("F ENG",)
        # QA: the GM's notice cited a bare "DATC 4.A.1"; said in words as players' citations are
        assert ("under the 1971 rulebook as the DATC reads it (any route disrupted), 4.A.1, the convoy was "
                "disrupted") in found[0].describe()
