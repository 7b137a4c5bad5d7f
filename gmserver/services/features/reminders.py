"""Reminders: every entry of the profile's `reminders` list, each sent once per
phase and power (the outbox's dedupe key), before the deadline. The times are
gmserver/rules/schedule.py's; the entries sent with the report are services/turn/turn_report.turn_report'."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from gmserver import engine
from gmserver.db import queries
from gmserver.db.session import transaction
from gmserver.rules.defaults import owing_orders
from gmserver.rules.schedule import due_reminders, next_reminder_time
from gmserver.services.base import mails
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue
from gmserver.services.base.roster import in_play
from gmserver.services.game.ordersets import contingent_for, orders_on_file

log = logging.getLogger(__name__)


def reminder_key(game_id: int, phase: str, number: int, power: str) -> str:
    """The outbox dedupe key of reminder `number` of the list; the first keeps the key it had
    when there was one reminder per phase, so that an upgrade never sends it twice."""
    return f"remind:{game_id}:{phase}:{power}" if number == 0 else f"remind:{game_id}:{phase}:{number}:{power}"


def queue_reminders(services: Services, now: datetime) -> int:
    """Queue every due reminder of every active game; one game's trouble does not silence the others."""
    queued = 0
    with transaction(services.sessions) as session:
        games = queries.games.reminders_to_look_at(session, now)
    for game_id in games:
        try:
            queued += _queue_game_reminders(services, game_id, now)
        except Exception:
            log.exception("game %s: queuing reminders failed", game_id)
    if queued:
        log.info("queued %d reminders", queued)
    return queued


def _queue_game_reminders(services: Services, game_id: int, now: datetime) -> int:
    queued = 0
    with transaction(services.sessions) as session:
        # locked: a deadline or phase changed meanwhile would find its new times overwritten by ours
        game = queries.games.game_for_no_key_update(session, game_id)
        if game is None or game.status != "active" or game.paused:
            return 0
        ruleset = queries.games.ruleset_of(game)
        record = queries.phases.current_record(session, game)
        # games.reminder_seconds is the game's own offset for the first reminder (0: none at all)
        first = timedelta(seconds=game.reminder_seconds)
        due = due_reminders(ruleset, game.deadline, record.opened_at, now, first)
        game.next_reminder_at = next_reminder_time(ruleset, game.deadline, record.opened_at, now, first)
        if not due:
            return 0
        # 002 ORDERS 4: a hopeless retreat or removal need not be sent, so nobody is reminded of it
        owing = set(owing_orders(engine.position_from_state(record.state), ruleset, services.geography))
        # 000 II(5), 001 II(6): contingent lines sent with the moves count as a set here
        ordered = set(orders_on_file(session, game.id, game.phase, ruleset).orders) | set(
            contingent_for(session, game.id, game.phase, ruleset))
        for reminder in due:
            for player in in_play(game.players):
                if player.power not in owing:
                    continue  # nothing to order (2.6 hopeless_orders_exempt: no reminder)
                if reminder.audience == "powers_without_set" and player.power in ordered:
                    continue
                queued += queue(session, mails.reminder(services, game, player, record.state, now,
                                                        has_orders=player.power in ordered),
                                kind="reminder", now=now, game_id=game.id,
                                dedupe_key=reminder_key(game.id, game.phase, reminder.number, player.power))
    return queued
