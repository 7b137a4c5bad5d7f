"""Convoy paradoxes under 000 VI(6) (`datc_4a2 = rb2000_all_hold_backup` and 2.16).

000 VI(6): "In any adjudication in which a possible convoy disruption is either unresolved or has
more than one possible resolution when following the appropriate rules in the Rulebook ..., all
moves which are part of the paradox fail." The Rulebook (2000) rule is: a convoyed army does not
cut the support of a unit supporting an attack against one of the fleets necessary for the army
to convoy. The engine uses the Szykman rule instead, so the server resolves the
paradox itself and hands the engine orders whose result is the 000 one.

How (pure; the adjudicator is passed in):
1. Find the paradoxes: convoyed army A depends on convoyed army B when the unit in A's destination
   supports an attack on one of B's convoying fleets, or supports one of them to hold (A's
   arrival would cut that support). A paradox is a cycle of such dependencies (one army on
   itself: DATC 6.F.14 to 6.F.21; two armies: the second-order paradoxes 6.F.22 to 6.F.24).
2. For each way the paradox's convoys could go (each army succeeds or fails), adjudicate with the
   armies held in place and the supports a succeeding army would cut turned into holds, except
   those the 2000 rule protects; the assumption is a resolution when exactly the assumed-failing
   armies lose every convoy route (a dislodged fleet convoys nobody).
3. One resolution: the failing armies hold (and their fleets), the succeeding armies move, and
   the attacks on their surviving fleets -- which failed -- are held so that the engine sees no
   paradox. None or several: all hold -- the armies and every attack on their convoying fleets.

Left out: an army holding in place for step 2 also blocks its own province, which a unit moving
there could otherwise have entered; this matters only if that entry decides a convoying fleet's
fate. A convoy's disruption follows the engine's "all routes" rule (a 000 VI(4) ruling by the GM
is applied to the orders before this runs).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from gmserver.rules.convoys import convoy_routes
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit

Orders = Mapping[str, Sequence[Order]]
# the adjudicator: complete orders -> the units dislodged
Adjudicator = Callable[[Mapping[str, tuple[Order, ...]]], frozenset[Unit]]

MAX_ARMIES = 6  # 2**6 adjudications at most for one paradox; real games have one or two armies


@dataclass(frozen=True)
class Convoyed:
    """A convoyed army's move and the fleets ordered to convoy it (their units)."""

    move: Order
    fleets: tuple[Unit, ...]

    @property
    def army(self) -> Unit:
        assert self.move.unit is not None
        return self.move.unit

    def routes(self, geography: MapInfo, lost: frozenset[Unit] = frozenset()) -> list[tuple[str, ...]]:
        fleets = tuple(f.location for f in self.fleets if f not in lost)
        return convoy_routes(self.army.province, self.move.target_province or "", fleets, geography)

    def necessary(self, fleet: Unit, geography: MapInfo) -> bool:
        """The 2000 rule's "fleets necessary for the army to convoy": without it no route is left."""
        return not self.routes(geography, frozenset({fleet}))


@dataclass(frozen=True)
class Paradox:
    """One convoy paradox: the armies in it and how 000 VI(6) resolved it."""

    armies: tuple[Convoyed, ...]
    resolutions: int  # the assumptions that were consistent under the 2000 rule
    succeeded: tuple[str, ...]  # the armies' moves that succeed (one resolution only)

    @property
    def all_hold(self) -> bool:
        return self.resolutions != 1

    def describe(self) -> str:
        moves = ", ".join(str(a.move) for a in self.armies)
        if self.all_hold:
            how = "no resolution" if self.resolutions == 0 else "more than one resolution"
            return (f"convoy paradox ({moves}): the 2000 rule leaves {how}, so every move in the paradox "
                    "fails (house rules 000 VI(6))")
        won = ", ".join(self.succeeded) or "none"
        return (f"convoy paradox ({moves}) resolved by the 2000 rule: a convoyed army does not cut the support "
                f"of an attack on a fleet it needs (house rules 000 VI(6)); convoys that succeed: {won}")


def convoyed_moves(orders: Orders) -> tuple[Convoyed, ...]:
    """Every army move some fleet is ordered to convoy (to the same destination)."""
    flat = [o for power_orders in orders.values() for o in power_orders]
    found = []
    for move in flat:
        if move.action != "move" or move.unit is None or move.unit.kind != "A":
            continue
        fleets = tuple(o.unit for o in flat if o.action == "convoy" and o.unit is not None
                       and o.other == move.unit and o.target_province == move.target_province)
        if fleets:
            found.append(Convoyed(move, fleets))
    return tuple(found)


def find_paradoxes(orders: Orders) -> tuple[tuple[Convoyed, ...], ...]:
    """The paradox cores of a movement phase's orders (step 1): groups of convoyed armies that
    depend on each other in a cycle. Pure, no adjudication."""
    convoyed = convoyed_moves(orders)
    flat = [o for power_orders in orders.values() for o in power_orders]
    depends = {a.army: {b.army for b in convoyed if _undermines(a, b, flat)} for a in convoyed}
    reach = {a: _reachable(a, depends) for a in depends}
    groups: list[tuple[Convoyed, ...]] = []
    seen: set[Unit] = set()
    for a in convoyed:
        if a.army in seen or a.army not in reach[a.army]:
            continue
        core = tuple(b for b in convoyed if b.army in reach[a.army] and a.army in reach[b.army])
        seen.update(b.army for b in core)
        groups.append(core)
    return tuple(groups)


def _undermines(a: Convoyed, b: Convoyed, flat: Sequence[Order]) -> bool:
    """A's arrival would cut a support that decides the fate of one of B's convoying fleets."""
    fleets = {f.province for f in b.fleets}
    for order in _orders_in(a.move.target_province, flat):
        if order.action == "support_move" and order.target_province in fleets:
            return True
        if order.action == "support_hold" and order.other in b.fleets:
            return True
    return False


def _orders_in(province: str | None, flat: Sequence[Order]) -> list[Order]:
    return [o for o in flat if o.unit is not None and o.unit.province == province]


def _reachable(start: Unit, depends: Mapping[Unit, set[Unit]]) -> set[Unit]:
    """The armies reached from `start` by one dependency or more (itself only through a cycle)."""
    found: set[Unit] = set()
    todo = list(depends[start])
    while todo:
        unit = todo.pop()
        if unit not in found:
            found.add(unit)
            todo.extend(depends.get(unit, ()))
    return found


def resolve(orders: Orders, geography: MapInfo, adjudicate: Adjudicator,
            ) -> tuple[dict[str, tuple[Order, ...]], tuple[Paradox, ...]]:
    """000 VI(6): the orders that give the engine the 2000 rule's result, or the All Hold rule's
    where that leaves no or several resolutions (steps 2 and 3), and the paradoxes found.
    Orders must be complete (every unit ordered). Unchanged when there is no paradox."""
    result = {power: tuple(power_orders) for power, power_orders in orders.items()}
    paradoxes = []
    for group in find_paradoxes(orders):
        if len(group) > MAX_ARMIES:
            continue  # never seen in a game; left to the engine's Szykman rule
        consistent = []
        for picks in itertools.product((True, False), repeat=len(group)):
            succeed = frozenset(a.army for a, won in zip(group, picks) if won)
            lost = adjudicate(_assumed(result, group, succeed, geography))
            if all(bool(a.routes(geography, lost)) == (a.army in succeed) for a in group):
                consistent.append((succeed, lost))
        if len(consistent) == 1:
            succeed, lost = consistent[0]
            result = _resolved(result, group, succeed, lost)
            won = tuple(str(a.move) for a in group if a.army in succeed)
        else:
            result = _all_hold(result, group)
            won = ()
        paradoxes.append(Paradox(group, len(consistent), won))
    return result, tuple(paradoxes)


def _assumed(orders: Mapping[str, tuple[Order, ...]], group: Sequence[Convoyed], succeed: frozenset[Unit],
             geography: MapInfo) -> dict[str, tuple[Order, ...]]:
    """Step 2: the armies and their fleets hold; a succeeding army cuts the support given from its
    destination, except support into the army's own province (never cut by it, 000 VI(5)) and
    support of an attack on a fleet it needs (the 2000 rule)."""
    held: set[Unit] = set()
    for a in group:
        held.add(a.army)
        held.update(a.fleets)
        if a.army not in succeed:
            continue
        needed = {f.province for f in a.fleets if a.necessary(f, geography)}
        for power_orders in orders.values():
            for order in _orders_in(a.move.target_province, power_orders):
                protected = order.action == "support_move" and (
                    order.target_province in needed or order.target_province == a.army.province)
                if order.is_support() and not protected and order.unit is not None:
                    held.add(order.unit)
    return _hold(orders, held)


def _resolved(orders: Mapping[str, tuple[Order, ...]], group: Sequence[Convoyed], succeed: frozenset[Unit],
              lost: frozenset[Unit]) -> dict[str, tuple[Order, ...]]:
    """Step 3, one resolution: failing armies and their fleets hold; the attacks on a succeeding
    army's surviving fleets failed in that resolution, so they hold (with the supports for them)."""
    held: set[Unit] = set()
    frozen: set[str] = set()
    for a in group:
        if a.army in succeed:
            frozen.update(f.province for f in a.fleets if f not in lost)
        else:
            held.add(a.army)
            held.update(a.fleets)
    return _hold(orders, held | _attackers(orders, frozen))


def _all_hold(orders: Mapping[str, tuple[Order, ...]], group: Sequence[Convoyed]) -> dict[str, tuple[Order, ...]]:
    """000 VI(6)'s backup: every move in the paradox fails -- the convoyed armies' and every attack
    on their convoying fleets."""
    held = {u for a in group for u in (a.army, *a.fleets)}
    return _hold(orders, held | _attackers(orders, {f.province for a in group for f in a.fleets}))


def _attackers(orders: Mapping[str, tuple[Order, ...]], provinces: set[str]) -> set[Unit]:
    """The units moving into `provinces` and the units supporting those moves."""
    flat = [o for power_orders in orders.values() for o in power_orders]
    movers = {o.unit for o in flat if o.action == "move" and o.unit is not None and o.target_province in provinces}
    supporters = {o.unit for o in flat if o.action == "support_move" and o.other in movers and o.unit is not None}
    return movers | supporters


def _hold(orders: Mapping[str, tuple[Order, ...]], held: set[Unit]) -> dict[str, tuple[Order, ...]]:
    """The `held` units ordered to hold; a hold support for a held unit that was ordered to move
    (void before: a moving unit cannot be supported to hold) holds too, so that it stays void."""
    movers = {o.unit for power_orders in orders.values() for o in power_orders
              if o.action == "move" and o.unit in held}
    return {power: tuple(Order("hold", o.unit) if o.unit is not None and (
        o.unit in held or (o.action == "support_hold" and o.other in movers)) else o for o in power_orders)
        for power, power_orders in orders.items()}
