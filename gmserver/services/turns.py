"""Deadlines: adjudicate a phase exactly once, queue the reports, open the next phase.

DESIGN "a phase's life": one transaction claims the game row (FOR UPDATE SKIP LOCKED on
PostgreSQL; SQLite serialises writers), re-checks that the phase is still the one due, runs the
engine, stores the result and the next phase, queues every report and advances the game. A
second worker, a replayed job or a restart finds the phase already advanced and does nothing.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.deadlines import TurnLengths, next_deadline, reminder_due
from gmserver.rules.order import Order
from gmserver.rules.position import SEASON_NAMES, PhaseOutcome, phase_type
from gmserver.rules.reading import contingent_source, read_contingent
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.turn import void_hold_supports
from gmserver.services import mails
from gmserver.services.context import Services
from gmserver.services.ordersets import OnFile, contingent_for, movement_turn, orders_on_file
from gmserver.services.outbox import queue

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnDone:
    game: str
    phase: str
    next_phase: str
    deadline: datetime | None
    reports: int


def lengths_of(game: Game) -> TurnLengths:
    return TurnLengths(timedelta(seconds=game.movement_seconds), timedelta(seconds=game.retreat_seconds),
                       timedelta(seconds=game.adjustment_seconds))


def due_games(sessions, now: datetime) -> list[tuple[int, str]]:
    with transaction(sessions) as session:
        return queries.games.due_games(session, now)


def adjudicate_due(services: Services, now: datetime) -> list[TurnDone]:
    """Every game whose deadline has passed; one game's failure is logged and does not stop
    the others (it is tried again at the next sweep)."""
    done = []
    for game_id, phase in due_games(services.sessions, now):
        try:
            if (result := adjudicate(services, game_id, now, expected_phase=phase)) is not None:
                done.append(result)
        except Exception:  # noqa: BLE001  the GM sees the traceback in the log
            log.exception("game %s: adjudicating %s failed; it will be tried again", game_id, phase)
    return done


def adjudicate(services: Services, game_id: int, now: datetime, *, expected_phase: str | None = None,
               force: bool = False, wait: bool = False) -> TurnDone | None:
    """Adjudicate the game's current phase if it is due (or `force`); None if there is nothing
    to do: not due, already done by someone else, or (unless `wait`) locked by another worker
    right now, e.g. one storing an order set: the sweep tries again."""
    with transaction(services.sessions) as session:
        game = queries.games.game_for_update(session, game_id, skip_locked=not wait)
        if game is None or game.status != "active":
            return None
        if expected_phase is not None and game.phase != expected_phase:
            return None
        if not force and (game.deadline is None or game.deadline > now):
            return None
        record = queries.phases.current_record(session, game)
        assert record.adjudicated_at is None
        ruleset = queries.games.ruleset_of(game)
        on_file = orders_on_file(session, game.id, game.phase, ruleset)
        contingent = _contingent_orders(session, services, game, record, ruleset, on_file)
        orders, voided = void_hold_supports({**on_file.orders, **contingent}, on_file.unsupportable)
        # the engine's interface and the database JSON keep engine notation: str(order) at this edge
        notation = {power: [str(o) for o in power_orders] for power, power_orders in orders.items()}
        outcome = _with_void_supports(engine.adjudicate(record.state, notation), voided)

        record.adjudicated_at = now
        record.orders = notation
        outcome = _with_contingent_notes(outcome, contingent, contingent_source(game.phase))
        record.results = [{"power": o.power, "order": str(o.order), "results": list(o.results),
                           "defaulted": o.defaulted, **({"note": o.note} if o.note else {})}
                          for o in outcome.orders]
        finished = bool(outcome.winners) or phase_type(outcome.after.phase) == "-"
        deadline = None if finished else next_deadline(outcome.after.phase, now, lengths_of(game), game.timezone)
        queries.phases.open_phase(session, game.id, outcome.after.phase, dict(outcome.state_after), deadline, now)
        game.phase, game.deadline = outcome.after.phase, deadline
        if finished:
            game.status = "finished"
        reports = 0
        for player, message in mails.turn_reports(services, game, outcome, deadline, now):
            reports += queue(session, message, kind="report", now=now, game_id=game.id,
                             dedupe_key=f"report:{game.id}:{outcome.phase}:{player.power}")
        done = TurnDone(game.name, outcome.phase, outcome.after.phase, deadline, reports)
    # only now is it true: a failed commit rolls the phase back and it is adjudicated again later
    log.info("%s: adjudicated %s -> %s; %d reports queued; next deadline %s", done.game, done.phase,
             done.next_phase, done.reports, done.deadline.isoformat() if done.deadline else "none (game over)")
    return done


def _with_contingent_notes(outcome: PhaseOutcome, contingent: dict[str, tuple[Order, ...]],
                           source: str | None) -> PhaseOutcome:
    """Say in the report which orders came from the contingent lines sent with the moves."""
    if not contingent or source is None:
        return outcome
    note = f"from the orders sent with the {SEASON_NAMES[source[0]]} {source[1:5]} moves"
    return dataclasses.replace(outcome, orders=tuple(
        dataclasses.replace(o, note=note) if not o.defaulted and o.order in contingent.get(o.power, ()) else o
        for o in outcome.orders))


def _contingent_orders(session: Session, services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                       on_file: OnFile) -> dict[str, tuple[Order, ...]]:
    """contingent_minor_orders = accepted (000 II(5), 001 II(6)): in a retreat or adjustment
    phase, each power that owes orders and sent no set for it gets the orders read from the
    contingent lines of its sets for the movement phase before (S..R <- S..M; F..R and W..A <-
    F..M), against this phase's position, conditions evaluated (`conditional_adjustment_orders`).
    A set sent for this phase replaces them. power -> orders; powers with none are left out."""
    kept = contingent_for(session, game.id, game.phase, ruleset)
    if not kept:
        return {}
    source = contingent_source(game.phase) or ""  # a minor phase here: `kept` is empty otherwise
    position = engine.position_from_state(record.state)
    turn = movement_turn(session, game.id, game.phase)
    used: dict[str, tuple[Order, ...]] = {}
    for power in position.powers_to_order():
        if power in on_file.versions or power not in kept:
            continue  # a set for this phase replaces the contingent lines; no lines, nothing to read
        reading = read_contingent(kept[power], position=position, power=power, ruleset=ruleset,
                                  geography=services.geography, turn=turn)
        log.info("%s %s: %s sent no set for this phase; from the contingent orders sent with the %s %s moves: %s",
                 game.name, game.phase, power, SEASON_NAMES[source[0]], source[1:5],
                 ", ".join(map(str, reading.orders)) or "nothing usable")
        for line in reading.lines:
            if line.status == "rejected":
                log.info("%s %s: %s contingent line %r not used: %s", game.name, game.phase, power, line.text,
                         line.message)
        if reading.orders:
            used[power] = reading.orders
    return used


def _with_void_supports(outcome: PhaseOutcome, voided: list[Order]) -> PhaseOutcome:
    """Report each voided hold support as written, with the result "void", not as the hold
    the engine was given instead."""
    if not voided:
        return outcome
    by_unit = {order.unit: order for order in voided}
    orders = tuple(
        dataclasses.replace(o, order=by_unit[o.order.unit], results=("void",))
        if o.order.action == "hold" and o.order.unit in by_unit else o
        for o in outcome.orders
    )
    return dataclasses.replace(outcome, orders=orders)


def queue_reminders(services: Services, now: datetime) -> int:
    """Remind every power that owes orders and has none on file (contingent lines included),
    once per phase."""
    queued = 0
    with transaction(services.sessions) as session:
        games = queries.games.games_with_reminders(session)
    for game_id in games:
        try:
            queued += _queue_game_reminders(services, game_id, now)
        except Exception:  # noqa: BLE001  one game's trouble must not silence the others
            log.exception("game %s: queuing reminders failed", game_id)
    if queued:
        log.info("queued %d reminders", queued)
    return queued


def _queue_game_reminders(services: Services, game_id: int, now: datetime) -> int:
    queued = 0
    with transaction(services.sessions) as session:
        game = session.get(Game, game_id)
        before = timedelta(seconds=game.reminder_seconds)
        if game.status != "active" or not reminder_due(game.deadline, before, now):
            return 0
        record = queries.phases.current_record(session, game)
        if record.opened_at >= game.deadline - before:
            return 0  # a turn shorter than the reminder offset: the results report just told them
        owing = set(engine.position_from_state(record.state).powers_to_order())
        ruleset = queries.games.ruleset_of(game)
        # 000 II(5), 001 II(6): contingent lines sent with the moves count as a set here
        ordered = set(orders_on_file(session, game.id, game.phase, ruleset).orders) | set(
            contingent_for(session, game.id, game.phase, ruleset))
        for player in game.players:
            if player.power in owing and player.power not in ordered:
                queued += queue(session, mails.reminder(services, game, player, record.state, now), kind="reminder",
                                now=now, game_id=game.id, dedupe_key=f"remind:{game.id}:{game.phase}:{player.power}")
    return queued
