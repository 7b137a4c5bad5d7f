"""The convoy check MATRIX 2.16 gives the GM under 000 VI(4) (`datc_4a1 = mhr_hybrid`), and the
GM's ruling applied to the orders the engine gets. (000 VI(6)'s paradoxes: rules/paradoxes.py.)

000 VI(4): where several convoy routes are possible and none is specified, the convoy is
disrupted if any fleet on any possible route is dislodged, except that the dislodgement of a
foreign fleet has no effect if another route exists. The engine disrupts a convoy only when
every route is (DATC 4.A.1 "all routes"), so the two differ exactly when a successful convoyed
army had more than one route and a fleet of its own power on one of them was dislodged. That
turn is flagged to the GM (assist: the GM rules), who may rule the convoy disrupted: the
convoying fleets are then given hold orders so that no route exists, or, for an army that could
also reach its destination by land, the army holds instead (MATRIX 2.16).

A route written with the order (000 VI(3)) is not kept by the order notation, so the
"specified route" half of VI(4) is not checked.

Pure: the outcome, the orders and the map are passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import PhaseOutcome

MAX_ROUTES = 64  # enough to tell one route from several; the standard map never comes close


@dataclass(frozen=True)
class ConvoyDispute:
    """A convoyed move the engine let succeed and 000 VI(4) says failed."""

    power: str
    move: str  # "A LON - BEL"
    convoys: tuple[str, ...]  # the convoy orders for it, "F NTH C A LON - BEL"
    dislodged: tuple[str, ...]  # the army's own fleets dislodged on a route, "F ENG"
    routes: int
    by_land: bool  # the army could reach its destination without a convoy

    def describe(self) -> str:
        return (f"{self.move} ({self.power.title()}) succeeded by one of {self.routes} convoy routes, but "
                f"{', '.join(self.dislodged)} of the army's own power, on a possible route, was dislodged: "
                "under house rules 000 VI(4) the convoy was disrupted and the move fails")


def disputed_convoys(outcome: PhaseOutcome, geography: MapInfo) -> tuple[ConvoyDispute, ...]:
    """The successful convoyed moves of a movement phase that 000 VI(4) makes fail."""
    if outcome.before.phase_type != "M":
        return ()
    parsed = [(o, o.order) for o in outcome.orders]
    dislodged = {p.unit for o, p in parsed if p.unit is not None and "dislodged" in o.results}
    disputes = []
    for outcome_order, order in parsed:
        if order.action != "move" or order.unit is None or order.unit.kind != "A":
            continue
        if not outcome_order.succeeded:
            continue
        convoys = [(o, p) for o, p in parsed if p.action == "convoy" and p.other == order.unit
                   and p.target_province == order.target_province]
        if not convoys:
            continue
        fleets = {p.unit.location: o.power for o, p in convoys if p.unit is not None}
        routes = convoy_routes(order.unit.province, order.target_province or "", tuple(fleets), geography)
        on_routes = {location for route in routes for location in route}
        own_lost = tuple(sorted(str(Unit("F", location)) for location in on_routes
                                if fleets[location] == outcome_order.power and Unit("F", location) in dislodged))
        if len(routes) > 1 and own_lost:
            disputes.append(ConvoyDispute(
                outcome_order.power, str(Order("move", order.unit, order.target)), tuple(str(o.order) for o, _ in convoys),
                own_lost, len(routes), geography.can_move("A", order.unit.location, order.target or "")))
    return tuple(disputes)


def convoy_routes(origin: str, destination: str, fleets: Sequence[str], geography: MapInfo) -> list[tuple[str, ...]]:
    """Every chain of the convoying `fleets` (their locations) from province `origin` to province
    `destination`, each fleet used once per chain and none going on past a fleet that reaches
    the destination (at most MAX_ROUTES chains)."""
    def touches(fleet: str, province: str) -> bool:
        return any(geography.province_of(place) == province for place in geography.fleet_moves.get(fleet, ()))

    routes: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...]) -> None:
        if len(routes) >= MAX_ROUTES:
            return
        if touches(path[-1], destination):
            routes.append(path)  # a chain ends where it reaches the coast: longer ones are detours
            return
        for fleet in fleets:
            if fleet not in path and fleet in geography.fleet_moves.get(path[-1], ()):
                extend(path + (fleet,))

    for fleet in fleets:
        if touches(fleet, origin):
            extend((fleet,))
    return routes


def apply_rulings(orders: Mapping[str, Sequence[Order]], rulings: Sequence[Mapping[str, object]],
                  geography: MapInfo) -> dict[str, tuple[Order, ...]]:
    """The orders with each GM ruling "fails" applied (000 VI(4), MATRIX 2.16): the fleets
    convoying the move hold, or the army holds if it could reach its destination by land.
    A ruling is {"move": "A LON - BEL", "ruling": "fails"}; "stands" changes nothing."""
    changed = {power: tuple(power_orders) for power, power_orders in orders.items()}
    for ruling in rulings:
        if ruling.get("ruling") != "fails":
            continue
        move = Order.parse(str(ruling["move"]))
        assert move.unit is not None and move.target is not None
        by_land = geography.can_move("A", move.unit.location, move.target)
        for power, power_orders in changed.items():
            changed[power] = tuple(_ruled(order, move, by_land) for order in power_orders)
    return changed


def _ruled(order: Order, move: Order, by_land: bool) -> Order:
    if order.unit is None:
        return order
    if by_land and order.action == "move" and order.unit == move.unit and order.target_province == move.target_province:
        return Order("hold", order.unit)
    if not by_land and order.action == "convoy" and order.other == move.unit and \
            order.target_province == move.target_province:
        return Order("hold", order.unit)
    return order
