"""A route written with a convoyed move (000 VI(3), DATC 4.A.6 `datc_4a6`), carried out before the
engine adjudicates. Pure: the orders and the map are passed in.

The engine reduces a written route to "by convoy" and lets the army use any chain of convoying
fleets. Under `allowed_not_required` and `required` the army moves by the route it
names and by no other, so the server hands the engine orders in which no other route exists:

- a convoy of that army to that destination by a fleet off the route is void (the fleet holds):
  the army does not use it;
- when the route is not available (a sea province of it has no fleet ordered to convoy the army
  there) the move fails: the route's own convoys are void too, so that the engine finds no
  chain; an army that could also go by land holds instead (it would otherwise walk, 4.A.3).

A route that exists is then disrupted by the engine exactly when one of its fleets is dislodged,
unless a shorter chain of its own fleets also reaches the coast (a route written with a detour);
that case, and 000 VI(4)'s rule on routes, are flagged by rules/convoys.py disputed_convoys.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.ruleset import Ruleset


def touches(geography: MapInfo, fleet: str, province: str) -> bool:
    """A fleet at `fleet` can reach (a coast of) `province`: a convoy chain may start or end there."""
    return any(geography.province_of(place) == province for place in geography.fleet_moves.get(fleet, ()))


def route_problem(origin: str, destination: str, route: Sequence[str], geography: MapInfo) -> str | None:
    """Why a written route cannot carry an army from province `origin` to `destination`, in
    words; None when it can (a chain of distinct sea provinces, each next to the one before, the
    first on the army's coast, the last on the destination's). "" in `route`: an unknown place."""
    if any(not place or place not in geography.provinces for place in route):
        return "a place of the route is not on the map"
    names = [geography.display_name(place) for place in route]
    for place, name in zip(route, names):
        if geography.provinces[place].kind != "water":
            return f"{name} is not a sea province, and only fleets at sea convoy"
    if len(set(route)) != len(route):
        return "the route names a sea province twice"
    if not touches(geography, route[0], origin):
        return f"{names[0]} does not border {geography.display_name(origin)}"
    for (here, here_name), (there, there_name) in zip(zip(route, names), zip(route[1:], names[1:])):
        if there not in geography.fleet_moves.get(here, ()):
            return f"{here_name} does not border {there_name}"
    if not touches(geography, route[-1], destination):
        return f"{names[-1]} does not border {geography.display_name(destination)}"
    return None


def _convoys_of(orders: Mapping[str, Sequence[Order]], move: Order) -> list[Order]:
    return [o for power_orders in orders.values() for o in power_orders
            if o.action == "convoy" and o.other == move.unit and o.target_province == move.target_province]


def follow_routes(orders: Mapping[str, Sequence[Order]], ruleset: Ruleset, geography: MapInfo,
                  ) -> tuple[dict[str, tuple[Order, ...]], dict[Order, str]]:
    """The orders with every written route carried out (see the module's docstring), and a note
    in words for each order changed, keyed by the order the engine gets instead. Under
    `datc_4a6 = ignored` nothing changes (the reader keeps no route then; one stored before a
    rules change is not followed either)."""
    # the reader imports route_problem from here: its options module is imported when used
    from gmserver.rules.reading.options import clause, option  # noqa: PLC0415

    if option(ruleset, "datc_4a6") == "ignored":
        return without_routes(orders), {}
    cited = clause(ruleset, "datc_4a6")
    changes = _route_changes(orders, geography, f"house rules {cited}" if cited[:1].isdigit() else cited)
    if not changes:
        return {power: tuple(power_orders) for power, power_orders in orders.items()}, {}
    changed = {power: tuple(changes[o.unit][0] if o.unit in changes else o for o in power_orders)
               for power, power_orders in orders.items()}
    return changed, {order: note for order, note in changes.values()}


def _route_changes(orders: Mapping[str, Sequence[Order]], geography: MapInfo, clause: str,
                   ) -> dict[Unit, tuple[Order, str]]:
    """unit -> (its order instead, why) for every order a written route changes."""
    changes: dict[Unit, tuple[Order, str]] = {}
    for power_orders in orders.values():
        for move in power_orders:
            if move.action != "move" or not move.route or move.unit is None:
                continue
            convoys = _convoys_of(orders, move)
            on_route = {c.unit.province for c in convoys if c.unit is not None and c.unit.province in move.route}
            shown = " - ".join(geography.display_name(p) for p in move.route)
            for convoy in convoys:
                if convoy.unit is not None and convoy.unit.province not in move.route:
                    changes[convoy.unit] = (Order("hold", convoy.unit), (
                        f"ordered {convoy}: void, the army's route is {shown} ({clause})"))
            missing = [p for p in move.route if p not in on_route]
            if not missing:
                continue
            why = (f"the route {shown} is not available: no fleet in "
                   f"{', '.join(geography.display_name(p) for p in missing)} convoys it ({clause})")
            if geography.can_move("A", move.unit.location, move.target or ""):
                changes[move.unit] = (Order("hold", move.unit), f"ordered {move}: the move fails, {why}")
            for convoy in convoys:
                if convoy.unit is not None:
                    changes[convoy.unit] = (Order("hold", convoy.unit),
                                            f"ordered {convoy}: void, the move it was for fails, {why}")
    return changes


def without_routes(orders: Mapping[str, Sequence[Order]]) -> dict[str, tuple[Order, ...]]:
    """The orders as the engine takes them: a move's route, carried out already, becomes "by
    convoy" (the engine would reduce it so anyway)."""
    return {power: tuple(dataclasses.replace(o, route=()) if o.route else o for o in power_orders)
            for power, power_orders in orders.items()}
