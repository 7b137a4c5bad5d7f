"""The orders on file, from rows already read: a power's stored sets as the pure core takes them,
the proxies that concern a turn, the sets that count and the orders they add up to, and each
player's record of sets with lines not used.

No database access here, and nothing that loads SQLAlchemy: services/game/ordersets.py reads the
rows in a session for the daemon, and `gmserver game show` reads them through the driver alone
(services/game/summary.py), both with these same functions. A row is anything with the stored
columns' names as attributes (a model object, or a gmserver.db.plain row).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gmserver.rules.order import Order, Unit
from gmserver.rules.position import phase_type
from gmserver.rules.proxies import ProxyState, covers, orders_that_count, sets_that_count
from gmserver.rules.reading.sets import StoredSet, effective_unsupportable
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.set_feedback import InvalidRecord, invalid_record


def as_stored(row: Any) -> StoredSet:
    """A stored set (an `order_sets` row) as the pure core takes it: the row's orders and units
    (engine notation in the database JSON) become `Order` and `Unit` values here, at the edge."""
    kind = phase_type(row.phase)
    return StoredSet(orders=tuple(Order.parse(o, kind) for o in row.orders), received=row.version,
                     version=row.marker, is_change=row.is_change, status=row.status,
                     unsupportable=tuple(Unit.parse(u) for u in row.unsupportable or ()),
                     contingent=tuple(row.contingent or ()), by_proxy=bool(row.by_proxy))


def by_power(rows: Iterable[Any]) -> dict[str, list[StoredSet]]:
    """power -> its sets, in the rows' order (of receipt: the version number counts receipts)."""
    sets: dict[str, list[StoredSet]] = {}
    for row in rows:
        sets.setdefault(row.power, []).append(as_stored(row))
    return sets


def proxy_states_of(rows: Iterable[Any], phase: str) -> dict[str, ProxyState]:
    """power -> the proxy (`proxies` rows, oldest first) that concerns it in `phase`: one in force,
    or one cancelled without telling the holder (003 [19]: the holder's sets are still taken, and
    not used)."""
    states: dict[str, ProxyState] = {}
    for row in rows:  # oldest first: the newest wins
        if row.status in ("active", "cancelled_silently") and covers(row.until_phase, phase):
            states[row.power] = ProxyState(row.holder, row.status == "active",
                                           frozenset(row.units) if row.units is not None else None)
        elif row.status == "cancelled":  # the holder was told: their mail is refused again
            states.pop(row.power, None)
    return states


def sets_counted(stored: Mapping[str, list[StoredSet]], proxies: Mapping[str, ProxyState],
                 ruleset: Ruleset) -> dict[str, list[StoredSet]]:
    """power -> the sets read for the turn: a proxy's holder's or its owner's as proxy_precedence
    says, and never a holder's sent after a silent cancellation (003 [19])."""
    counted = {power: sets_that_count(power_sets, proxies.get(power), ruleset) for power, power_sets in stored.items()}
    return {power: power_sets for power, power_sets in counted.items() if power_sets}


@dataclass(frozen=True)
class OnFile:
    orders: dict[str, tuple[Order, ...]]  # power -> the orders to adjudicate
    unsupportable: tuple[Unit, ...]  # units whose hold supports are void
    versions: dict[str, int]  # power -> how many sets it sent


def on_file_of(counted: Mapping[str, list[StoredSet]], proxies: Mapping[str, ProxyState], ruleset: Ruleset) -> OnFile:
    """sets.effective_orders over each power's counted sets (000 III(4), 001 II(7), 002 ORDERS 2):
    replace, merge per unit or merge marked changes, in receipt or version order, as the game's
    ruleset says; a proxied power's sets as proxy_precedence says, unit by unit for a proxy of
    some units (003 [19])."""
    return OnFile(
        orders={power: orders_that_count(power_sets, proxies.get(power), ruleset) for power, power_sets in counted.items()},
        unsupportable=tuple(sorted((unit for power_sets in counted.values()
                                    for unit in effective_unsupportable(power_sets, ruleset)), key=str)),
        versions={power: len(power_sets) for power, power_sets in counted.items()},
    )


def invalid_records_of(players: Iterable[Any], sets: Iterable[Any]) -> dict[str, InvalidRecord]:
    """000 III(1) (a), shown to the GM: power -> how many of its present player's sets in this
    game had a line that could not be used (the lines are kept as read, status included).
    `players`: the game's players (power, joined_at); `sets`: every power's own sets in the game
    (power, received_at, lines)."""
    joined = {p.power: p.joined_at for p in players}
    statuses: dict[str, list[list[str]]] = {power: [] for power in joined}
    for row in sets:
        since = joined.get(row.power)
        if row.power in statuses and (since is None or row.received_at >= since):  # a replacement starts afresh
            statuses[row.power].append([line.get("status") for line in row.lines or ()])
    return {power: invalid_record(sets) for power, sets in statuses.items()}
