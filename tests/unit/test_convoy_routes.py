"""000 VI(3) "Where several convoy routes are possible a player may specify or limit the route"
(datc_4a6 = allowed_not_required under mhr; DATC 4.A.6): the written route is read, kept with the
order and carried out before the engine adjudicates (rules/convoy_routes.py). Every position is
checked by hand on the standard map; the engine then adjudicates the orders the server hands it.

England's army in London and fleets in the English Channel and the North Sea: London to Belgium
has two routes (ENG alone, NTH alone), London to Norway one (NTH).
"""

from __future__ import annotations

import dataclasses

import pytest

from gmserver import engine
from gmserver.rules.convoy_routes import follow_routes, route_problem, without_routes
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.ruleset import load_ruleset

GEO = engine.map_info()
MHR = load_ruleset("mhr")
STANDARD = load_ruleset("standard")
REQUIRED = dataclasses.replace(STANDARD, datc_4a6="required")


def adjudicated(ruleset, units, orders):
    """(the orders the engine gets, the notes, whether each ordered unit's order succeeded)."""
    given = {power: [Order.parse(o) for o in lines] for power, lines in orders.items()}
    followed, notes = follow_routes(given, ruleset, GEO)
    state = engine.state_from_position(Position.from_json({"phase": "S1901M", "units": units, "centers": {}}))
    engine_orders = {power: [str(o) for o in lines] for power, lines in without_routes(followed).items()}
    result = engine.adjudicate(state, engine_orders)
    succeeded = {str(o.order.unit): o.succeeded for o in result.orders if o.order.unit is not None}
    dislodged = {str(o.order.unit) for o in result.orders if o.order.unit and "dislodged" in o.results}
    return {p: [str(o) for o in lines] for p, lines in followed.items()}, notes, succeeded, dislodged


ENGLAND = ["F ENG", "F NTH", "A LON"]
# France dislodges the Channel fleet (DATC 6.F.9's attack)
FRANCE_ATTACKS = ({"FRANCE": ["F BRE", "F MAO"]}, {"FRANCE": ["F BRE S F MAO - ENG", "F MAO - ENG"]})


@pytest.mark.parametrize(("ruleset", "move", "moved"), [
    # the engine's rule (all routes): the North Sea still carries the army
    pytest.param(STANDARD, "A LON - BEL", True, id="DATC 4.A.6 ignored: no route written, by the North Sea"),
    pytest.param(MHR, "A LON - BEL", True, id="000 VI(3) no route written: any route, by the North Sea"),
    # 000 VI(3): the army named the Channel, whose fleet is dislodged: the convoy is disrupted
    pytest.param(MHR, "A LON - ENG - BEL", False, id="000 VI(3) the route named is the disrupted one: fails"),
    pytest.param(MHR, "A LON - NTH - BEL", True, id="000 VI(3) the route named is the intact one: moves"),
])
def test_000_VI_3_the_written_route_is_the_one_used(ruleset, move, moved) -> None:
    units = {"ENGLAND": ENGLAND, **FRANCE_ATTACKS[0]}
    orders = {"ENGLAND": ["F ENG C A LON - BEL", "F NTH C A LON - BEL", move], **FRANCE_ATTACKS[1]}
    _, _, succeeded, dislodged = adjudicated(ruleset, units, orders)
    assert "F ENG" in dislodged  # held by one fleet, attacked with support: dislodged in every case
    assert succeeded["A LON"] is moved


def test_000_VI_3_a_convoy_off_the_route_is_void_and_the_report_says_why() -> None:
    """A LON - NTH - BEL: F ENG's convoy is not on the route; the engine gets F ENG H."""
    orders = {"ENGLAND": ["F ENG C A LON - BEL", "F NTH C A LON - BEL", "A LON - NTH - BEL"]}
    followed, notes, succeeded, _ = adjudicated(MHR, {"ENGLAND": ENGLAND}, orders)
    assert followed["ENGLAND"] == ["F ENG H", "F NTH C A LON - BEL", "A LON - NTH - BEL"]
    assert notes == {Order.parse("F ENG H"): "ordered F ENG C A LON - BEL: void, the army's route is North Sea "
                                             "(house rules 000 VI(3))"}
    assert succeeded["A LON"]


def test_000_VI_3_a_route_not_available_fails_the_move() -> None:
    """A LON - NTH - BEL with F NTH holding: the route has no convoy, so the move fails, although
    the Channel fleet convoys (the engine alone would use it: the second case)."""
    orders = {"ENGLAND": ["F ENG C A LON - BEL", "F NTH H", "A LON - NTH - BEL"]}
    followed, notes, succeeded, _ = adjudicated(MHR, {"ENGLAND": ENGLAND}, orders)
    assert followed["ENGLAND"] == ["F ENG H", "F NTH H", "A LON - NTH - BEL"]
    assert not succeeded["A LON"]
    assert notes[Order.parse("F ENG H")] == (
        "ordered F ENG C A LON - BEL: void, the move it was for fails, the route North Sea is not available: no "
        "fleet in North Sea convoys it (house rules 000 VI(3))")
    _, _, engine_alone, _ = adjudicated(STANDARD, {"ENGLAND": ENGLAND}, orders)
    assert engine_alone["A LON"]  # DATC 4.A.6 ignored: any route there is


def test_000_VI_3_an_army_that_could_walk_holds_when_its_route_is_not_available() -> None:
    """A YOR - NTH - LON (Yorkshire borders London): the North Sea does not convoy, so the army
    holds; handed "by convoy" without a convoy, the engine would let it walk (DATC 4.A.3)."""
    units = {"ENGLAND": ["F NTH", "A YOR"]}
    followed, notes, succeeded, _ = adjudicated(MHR, units, {"ENGLAND": ["F NTH H", "A YOR - NTH - LON"]})
    assert followed["ENGLAND"] == ["F NTH H", "A YOR H"]
    assert "ordered A YOR - NTH - LON: the move fails" in notes[Order.parse("A YOR H")]
    convoyed = adjudicated(MHR, units, {"ENGLAND": ["F NTH C A YOR - LON", "A YOR - NTH - LON"]})
    assert convoyed[0]["ENGLAND"] == ["F NTH C A YOR - LON", "A YOR - NTH - LON"] and convoyed[2]["A YOR"]


@pytest.mark.parametrize(("origin", "destination", "route", "problem"), [
    ("LON", "BEL", ("NTH",), None),
    ("LON", "BEL", ("ENG", "NTH"), None),  # a chain with a detour is still a chain
    ("LON", "TUN", ("ENG", "MAO", "WES"), None),
    ("LON", "NWY", ("ENG",), "English Channel does not border Norway"),
    ("LON", "BEL", ("HOL",), "Holland is not a sea province, and only fleets at sea convoy"),
    ("LON", "TUN", ("NTH", "MAO", "WES"), "North Sea does not border Mid-Atlantic Ocean"),
    ("LON", "BEL", ("NTH", "NTH"), "the route names a sea province twice"),
    ("LON", "BEL", ("",), "a place of the route is not on the map"),
    ("BEL", "NWY", ("ENG", "NTH"), None),
    ("BEL", "NWY", ("NTH", "ENG"), "English Channel does not border Norway"),
])
def test_000_VI_3_a_route_is_a_chain_of_seas_from_coast_to_coast(origin, destination, route, problem) -> None:
    assert route_problem(origin, destination, route, GEO) == problem


# -- reading: the route kept, refused, or (required) demanded ---------------------------------------

MID = Position.from_json({"phase": "S1901M", "units": {"ENGLAND": ENGLAND}, "centers": {}})


def reading(text: str, ruleset):
    result = read_orders(text, position=MID, power="ENGLAND", ruleset=ruleset, geography=GEO)
    (line,) = result.lines
    return [str(o) for o in result.orders], line


@pytest.mark.parametrize(("ruleset", "text", "orders", "status", "says"), [
    pytest.param(MHR, "A Lon - Nth - Bel", ["A LON - NTH - BEL"], "corrected",
                 "Convoy route noted: North Sea; the army moves by this route only.", id="000 VI(3) kept"),
    pytest.param(STANDARD, "A Lon - Nth - Bel", ["A LON - BEL VIA"], "corrected",
                 "not binding in this game", id="DATC 4.A.6 ignored: noted only"),
    pytest.param(MHR, "A Lon - Nwy via Eng", ["A LON H"], "rejected",
                 "A LON cannot move by the route English Channel: English Channel does not border Norway",
                 id="000 VI(3) a route that cannot carry the army is refused"),
    pytest.param(MHR, "A Lon - Bel", ["A LON - BEL VIA"], "accepted", None,
                 id="000 VI(3) a route is allowed, not required"),
    pytest.param(REQUIRED, "A Lon - Bel", ["A LON H"], "rejected",
                 "in this game a convoyed move must name its route", id="DATC 4.A.6 required: no route, no convoy"),
    pytest.param(REQUIRED, "A Lon - Nth - Bel", ["A LON - NTH - BEL"], "corrected", "Convoy route noted",
                 id="DATC 4.A.6 required: a route given"),
    pytest.param(REQUIRED, "A Lon - Yor", ["A LON - YOR"], "accepted", None,
                 id="DATC 4.A.6 required: a move by land needs none"),
])
def test_datc_4a6_reading(ruleset, text, orders, status, says) -> None:
    read, line = reading(text, ruleset)
    assert [o for o in read if o.startswith("A LON")] == orders
    assert line.status == status
    if says is not None:
        assert says in line.message
        assert ("000 VI(3)" if ruleset is MHR else "DATC 4.A.6") in line.rule


def test_a_route_survives_storage_as_engine_notation() -> None:
    """The order set keeps engine notation: the route goes with the move and comes back."""
    order = Order.parse("A LON - ENG - MAO - BRE")
    assert (order.target, order.route, order.via_convoy, str(order)) == ("BRE", ("ENG", "MAO"), True,
                                                                        "A LON - ENG - MAO - BRE")
