"""The convoy check given to the GM (`datc_4a1`), and the GM's ruling applied to the
orders the engine gets. (000 VI(6)'s paradoxes: rules/paradoxes.py; a route written with the
order, 000 VI(3): rules/convoy_routes.py.)

The engine disrupts a convoy only when every route is (DATC 4.A.1 `all_routes`). The other values
say a convoy the engine let succeed failed:

- `mhr_hybrid`, 000 VI(4): "the convoy is disrupted if any fleet of a specified route is
  dislodged"; with no route specified, if any fleet of any possible route is, "except that the
  dislodgement of a foreign fleet not in a specified route has no effect if another route
  exists". With the written route carried out before adjudication (datc_4a6), the engine already
  fails a route one of whose fleets is lost, except where the route's own fleets make a shorter
  chain; so the two differ when a fleet of the written route is dislodged, or, with none
  written, a fleet of the army's own power on one of several possible routes.
- `any_route`, DATC 4.A.1's first choice (the 1971 rule): the dislodgement of any fleet on any
  possible route disrupts the convoy.

Such a turn is flagged to the GM (assist, results published as the engine gave them),
who may rule the convoy disrupted: the convoying fleets are then given hold orders so that no
route exists, or, for an army that could also reach its destination by land, the army holds
instead, and the turn is adjudicated again.

Pure: the outcome, the orders and the map are passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from gmserver.rules.convoy_routes import touches
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import OrderOutcome, PhaseOutcome

MAX_ROUTES = 64  # enough to tell one route from several; the standard map never comes close
# what each datc_4a1 value that differs from the engine says, and where it says it
# in words, the DATC's number after them, as players read a citation (rules/reading/rule_words.py;
# the QA walkthrough found the GM's notices citing a bare "DATC 4.A.1")
_RULES = {"mhr_hybrid": "house rules 000 VI(4)",
          "any_route": "the 1971 rulebook as the DATC reads it (any route disrupted), 4.A.1"}


@dataclass(frozen=True)
class ConvoyDispute:
    """A convoyed move the engine let succeed and the game's convoy rule says failed."""

    power: str
    move: str  # "A LON - BEL"
    convoys: tuple[str, ...]  # the convoy orders for it, "F NTH C A LON - BEL"
    dislodged: tuple[str, ...]  # the fleets whose loss disrupts it under the rule, "F ENG"
    routes: int
    by_land: bool  # the army could reach its destination without a convoy
    why: str = "of the army's own power, on a possible route,"  # which fleet counts, in words
    rule: str = _RULES["mhr_hybrid"]

    def describe(self, named: str | None = None, fleets_named: Sequence[str] | None = None) -> str:
        """The case for the GM; `named`: the move as the report words it ("A London -> Belgium
        (A LON - BEL)"), else its engine notation (which the GM's ruling names); `fleets_named`:
        the dislodged fleets as the report words them ("F English Channel"), else "F ENG"."""
        return (f"{self.power.title()}'s {named or self.move} moved by one of {self.routes} convoy routes, but "
                f"{', '.join(fleets_named or self.dislodged)} {self.why} was dislodged: "
                f"under {self.rule}, the convoy was disrupted and the move fails")


def disputed_convoys(outcome: PhaseOutcome, geography: MapInfo, rule: str = "mhr_hybrid",
                     routes: Mapping[Unit, tuple[str, ...]] | None = None) -> tuple[ConvoyDispute, ...]:
    """The successful convoyed moves of a movement phase that `rule` (datc_4a1) makes fail.
    `routes`: the route each army's order named (000 VI(3)), from the orders as given."""
    if outcome.before.phase_type != "M" or rule not in _RULES:
        return ()
    parsed = [(o, o.order) for o in outcome.orders]
    dislodged = {p.unit for o, p in parsed if p.unit is not None and "dislodged" in o.results}
    disputes = []
    for outcome_order, order in parsed:
        if order.action != "move" or order.unit is None or order.unit.kind != "A" or not outcome_order.succeeded:
            continue
        convoys = [(o, p) for o, p in parsed if p.action == "convoy" and p.other == order.unit
                   and p.target_province == order.target_province]
        if not convoys:
            continue
        fleets = {p.unit.location: o.power for o, p in convoys if p.unit is not None}
        chains = convoy_routes(order.unit.province, order.target_province or "", tuple(fleets), geography)
        lost, why = _lost(rule, (routes or {}).get(order.unit, ()), chains, fleets, outcome_order, dislodged)
        if lost:
            disputes.append(ConvoyDispute(
                outcome_order.power, str(Order("move", order.unit, order.target)), tuple(str(o.order) for o, _ in convoys),
                lost, len(chains), geography.can_move("A", order.unit.location, order.target or ""), why, _RULES[rule]))
    return tuple(disputes)


def _lost(rule: str, route: tuple[str, ...], chains: list[tuple[str, ...]], fleets: Mapping[str, str],
          move: OrderOutcome, dislodged: set[Unit]) -> tuple[tuple[str, ...], str]:
    """The dislodged fleets that disrupt the convoy under `rule`, and which fleets count, in words."""
    def fallen(locations) -> tuple[str, ...]:
        return tuple(sorted(str(Unit("F", p)) for p in set(locations) if Unit("F", p) in dislodged))

    if rule == "mhr_hybrid" and route:  # 000 VI(4): "any fleet of a specified route"
        return fallen(route), "of the route the order named"
    if len(chains) < 2:  # one route: the engine disrupts it as every rule does
        return (), ""
    on_chains = {location for chain in chains for location in chain}
    if rule == "any_route":
        return fallen(on_chains), "on one of the possible routes"
    return fallen(p for p in on_chains if fleets[p] == move.power), "of the army's own power, on a possible route,"


def convoy_routes(origin: str, destination: str, fleets: Sequence[str], geography: MapInfo) -> list[tuple[str, ...]]:
    """Every chain of the convoying `fleets` (their locations) from province `origin` to province
    `destination`, each fleet used once per chain and none going on past a fleet that reaches
    the destination (at most MAX_ROUTES chains)."""
    routes: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...]) -> None:
        if len(routes) >= MAX_ROUTES:
            return
        if touches(geography, path[-1], destination):
            routes.append(path)  # a chain ends where it reaches the coast: longer ones are detours
            return
        for fleet in fleets:
            if fleet not in path and fleet in geography.fleet_moves.get(path[-1], ()):
                extend(path + (fleet,))

    for fleet in fleets:
        if touches(geography, fleet, origin):
            extend((fleet,))
    return routes


def apply_rulings(orders: Mapping[str, Sequence[Order]], rulings: Sequence[Mapping[str, object]],
                  geography: MapInfo) -> dict[str, tuple[Order, ...]]:
    """The orders with each GM ruling "fails" applied (000 VI(4)): the fleets
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
