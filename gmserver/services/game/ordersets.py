"""Every order set a power sent this phase, and the orders they add up to (set_combination and set_ordering:
000 III(4), 001 II(7), 002 ORDERS 2); the
contingent retreat and adjustment lines kept from the movement phase before a minor turn, and
the facts of that movement turn (contingent_minor_orders, 000 II(5), 001 II(6);
objective_only conditions)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy.orm import Session

from gmserver.db.models import Game, OrderSet
from gmserver.db.queries.ordersets import order_sets, players_sets
from gmserver.db.queries.phases import phase_record
from gmserver.db.queries.proxies import proxies_of
from gmserver.engine import position_from_state
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import phase_type
from gmserver.rules.proxies import ProxyState, covers, orders_that_count, sets_that_count
from gmserver.rules.reading import (
    StoredSet, TurnFacts, contingent_source, effective_contingent, turn_facts,
)
from gmserver.rules.reading.sets import effective_unsupportable
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.set_feedback import InvalidRecord, invalid_record


def stored_sets(session: Session, game_id: int, phase: str) -> dict[str, list[StoredSet]]:
    """power -> its sets, in order of receipt (the version number counts receipts)."""
    sets: dict[str, list[StoredSet]] = defaultdict(list)
    for row in order_sets(session, game_id, phase):
        sets[row.power].append(as_stored(row))
    return dict(sets)


def lines_that_count(session: Session, game_id: int, phase: str, ruleset: Ruleset) -> dict[str, list[dict]]:
    """power -> the line readings of its sets for `phase`, newest set first: under
    set_combination = replace the newest set's alone (the others are not used at all)."""
    by_power: dict[str, list[OrderSet]] = defaultdict(list)
    for row in order_sets(session, game_id, phase):
        by_power[row.power].append(row)
    newest_only = ruleset.set_combination == "replace"
    return {power: [line for row in (rows[::-1][:1] if newest_only else rows[::-1]) for line in row.lines or ()]
            for power, rows in by_power.items()}


def proxy_states(session: Session, game_id: int, phase: str) -> dict[str, ProxyState]:
    """power -> the proxy that concerns it in `phase`: one in force, or one cancelled without
    telling the holder (003 [19]: the holder's sets are still taken, and not used)."""
    states: dict[str, ProxyState] = {}
    for row in proxies_of(session, game_id):  # oldest first: the newest wins
        if row.status in ("active", "cancelled_silently") and covers(row.until_phase, phase):
            states[row.power] = ProxyState(row.holder, row.status == "active",
                                           frozenset(row.units) if row.units is not None else None)
        elif row.status == "cancelled":  # the holder was told: their mail is refused again
            states.pop(row.power, None)
    return states


def counted_sets(session: Session, game_id: int, phase: str, ruleset: Ruleset,
                 proxies: dict[str, ProxyState] | None = None) -> dict[str, list[StoredSet]]:
    """power -> the sets read for the turn: a proxy's holder's or its owner's as proxy_precedence
    says, and never a holder's sent after a silent cancellation (003 [19]).
    `proxies`: proxy_states of the turn, where the caller has them already."""
    proxies = proxy_states(session, game_id, phase) if proxies is None else proxies
    counted = {power: sets_that_count(power_sets, proxies.get(power), ruleset)
               for power, power_sets in stored_sets(session, game_id, phase).items()}
    return {power: power_sets for power, power_sets in counted.items() if power_sets}


def invalid_records(session: Session, game: Game) -> dict[str, InvalidRecord]:
    """000 III(1) (a), shown to the GM: power -> how many of its present player's sets in this
    game had a line that could not be used (the lines are kept as read, status included)."""
    joined = {p.power: p.joined_at for p in game.players}
    statuses: dict[str, list[list[str]]] = {power: [] for power in joined}
    for row in players_sets(session, game.id):
        since = joined.get(row.power)
        if row.power in statuses and (since is None or row.received_at >= since):  # a replacement starts afresh
            statuses[row.power].append([line.get("status") for line in row.lines or ()])
    return {power: invalid_record(sets) for power, sets in statuses.items()}


def as_stored(row: OrderSet) -> StoredSet:
    """A stored set as the pure core takes it: the row's orders and units (engine notation in
    the database JSON) become `Order` and `Unit` values here, at the edge."""
    kind = phase_type(row.phase)
    return StoredSet(orders=tuple(Order.parse(o, kind) for o in row.orders), received=row.version,
                     version=row.marker, is_change=row.is_change, status=row.status,
                     unsupportable=tuple(Unit.parse(u) for u in row.unsupportable or ()),
                     contingent=tuple(row.contingent or ()), by_proxy=bool(row.by_proxy))


@dataclass(frozen=True)
class OnFile:
    orders: dict[str, tuple[Order, ...]]  # power -> the orders to adjudicate
    unsupportable: tuple[Unit, ...]  # units whose hold supports are void
    versions: dict[str, int]  # power -> how many sets it sent


def orders_on_file(session: Session, game_id: int, phase: str, ruleset: Ruleset,
                   proxies: dict[str, ProxyState] | None = None) -> OnFile:
    """sets.effective_orders over each power's sets (000 III(4), 001 II(7), 002 ORDERS 2):
    replace, merge per unit or merge marked changes, in receipt or version order, as the game's
    ruleset says; a proxied power's sets as proxy_precedence says, unit by unit for a proxy of
    some units (003 [19]). `proxies`: proxy_states of the turn, where the caller
    has them already (the deadline knows when the game has none)."""
    proxies = proxy_states(session, game_id, phase) if proxies is None else proxies
    sets = counted_sets(session, game_id, phase, ruleset, proxies)
    return OnFile(
        orders={power: orders_that_count(power_sets, proxies.get(power), ruleset) for power, power_sets in sets.items()},
        unsupportable=tuple(sorted((unit for power_sets in sets.values()
                                    for unit in effective_unsupportable(power_sets, ruleset)), key=str)),
        versions={power: len(power_sets) for power, power_sets in sets.items()},
    )


def contingent_on_file(session: Session, game_id: int, phase: str, ruleset: Ruleset) -> dict[str, tuple[str, ...]]:
    """power -> the contingent lines that stand after its sets of movement phase `phase`
    (`effective_contingent`: replaced with the set, never merged line by line)."""
    return {power: lines for power, power_sets in stored_sets(session, game_id, phase).items()
            if (lines := effective_contingent(power_sets, ruleset))}


def contingent_for(session: Session, game_id: int, phase: str, ruleset: Ruleset) -> dict[str, tuple[str, ...]]:
    """contingent_minor_orders = accepted (000 II(5), 001 II(6)): power -> the contingent lines
    sent with the moves before retreat or adjustment phase `phase` (S..R <- S..M; F..R and W..A
    <- F..M), which stand in for a set not sent for `phase`; empty in a movement phase or when
    the ruleset does not accept such lines. Under `season_structure = uk_two_season` (003 [5])
    retreats and builds are always sent with the moves: there is no other way to send them."""
    source = contingent_source(phase)
    if source is None or (ruleset.contingent_minor_orders != "accepted" and ruleset.season_structure != "uk_two_season"):
        return {}
    return contingent_on_file(session, game_id, source, ruleset)


def movement_turn(session: Session, game_id: int, phase: str) -> TurnFacts | None:
    """What the movement turn before retreat or adjustment phase `phase` decided (the centres
    owned before it, the units it dislodged), from its stored record; None for a movement phase
    or when that turn was not adjudicated in this game (a game started from a minor phase)."""
    source = contingent_source(phase)
    if source is None:
        return None
    record = phase_record(session, game_id, source)
    if record is None or record.adjudicated_at is None:
        return None
    return turn_facts(position_from_state(record.state), record.results or ())
