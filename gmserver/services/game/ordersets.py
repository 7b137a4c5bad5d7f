"""Every order set a power sent this phase, and the orders they add up to (set_combination and set_ordering:
000 III(4), 001 II(7), 002 ORDERS 2); the
contingent retreat and adjustment lines kept from the movement phase before a minor turn, and
the facts of that movement turn (contingent_minor_orders, 000 II(5), 001 II(6);
objective_only conditions)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from gmserver.db.models import Game
from gmserver.db.queries.ordersets import order_set_rows, order_sets, players_sets, power_set_rows
from gmserver.db.queries.phases import phase_record
from gmserver.db.queries.proxies import proxy_rows
from gmserver.engine import position_from_state
from gmserver.rules.proxies import ProxyState
from gmserver.rules.reading.condition_facts import TurnFacts, contingent_source, turn_facts
from gmserver.rules.reading.sets import StoredSet, effective_contingent
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.set_feedback import InvalidRecord
from gmserver.services.game.on_file import (
    OnFile,
    by_power,
    invalid_records_of,
    on_file_of,
    proxy_states_of,
    sets_counted,
)


def stored_sets(session: Session, game_id: int, phase: str) -> dict[str, list[StoredSet]]:
    """power -> its sets, in order of receipt (the version number counts receipts), read as
    plain rows (each order mail reads them)."""
    return by_power(order_set_rows(session, game_id, phase))


def power_stored_sets(session: Session, game_id: int, phase: str, power: str) -> list[StoredSet]:
    """`stored_sets(...).get(power, [])`, reading the power's sets alone."""
    return by_power(power_set_rows(session, game_id, phase, power)).get(power, [])


def lines_that_count(session: Session, game_id: int, phase: str, ruleset: Ruleset) -> dict[str, list[dict]]:
    """power -> the line readings of its sets for `phase`, newest set first: under
    set_combination = replace the newest set's alone (the others are not used at all)."""
    return lines_of(order_sets(session, game_id, phase), ruleset)


def lines_of(rows: Sequence[Any], ruleset: Ruleset) -> dict[str, list[dict]]:
    """`lines_that_count` of the phase's sets as read (`order_sets` or `order_set_rows`)."""
    rows_of: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        rows_of[row.power].append(row)
    newest_only = ruleset.set_combination == "replace"
    return {power: [line for row in (rows[::-1][:1] if newest_only else rows[::-1]) for line in row.lines or ()]
            for power, rows in rows_of.items()}


def proxy_states(session: Session, game_id: int, phase: str) -> dict[str, ProxyState]:
    """power -> the proxy that concerns it in `phase` (on_file.proxy_states_of)."""
    return proxy_states_of(proxy_rows(session, game_id), phase)


def counted_sets(session: Session, game_id: int, phase: str, ruleset: Ruleset,
                 proxies: dict[str, ProxyState] | None = None) -> dict[str, list[StoredSet]]:
    """power -> the sets read for the turn (on_file.sets_counted).
    `proxies`: proxy_states of the turn, where the caller has them already."""
    proxies = proxy_states(session, game_id, phase) if proxies is None else proxies
    return sets_counted(stored_sets(session, game_id, phase), proxies, ruleset)


def invalid_records(session: Session, game: Game) -> dict[str, InvalidRecord]:
    """000 III(1) (a), shown to the GM: power -> its present player's record of sets with lines
    not used (on_file.invalid_records_of)."""
    return invalid_records_of(game.players, players_sets(session, game.id))


def orders_on_file(session: Session, game_id: int, phase: str, ruleset: Ruleset,
                   proxies: dict[str, ProxyState] | None = None) -> OnFile:
    """The orders the power's sets add up to (on_file.on_file_of). `proxies`: proxy_states of the
    turn, where the caller has them already (the deadline knows when the game has none)."""
    proxies = proxy_states(session, game_id, phase) if proxies is None else proxies
    return on_file_of(counted_sets(session, game_id, phase, ruleset, proxies), proxies, ruleset)


def on_file_and_lines(session: Session, game_id: int, phase: str, ruleset: Ruleset,
                      proxies: dict[str, ProxyState] | None = None) -> tuple[OnFile, dict[str, list[dict]]]:
    """`orders_on_file` and `lines_that_count` from one read of the phase's sets: the deadline
    needs both, and reading the rows again cost as much as reading them first."""
    proxies = proxy_states(session, game_id, phase) if proxies is None else proxies
    rows = order_set_rows(session, game_id, phase)
    return on_file_of(sets_counted(by_power(rows), proxies, ruleset), proxies, ruleset), lines_of(rows, ruleset)


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
