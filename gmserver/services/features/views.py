"""What the command line, the daemon and the demo look at, as plain values: each function opens
its own transaction and returns dataclasses, never rows, so that no caller holds a session."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.rules.deadlines import GameTiming
from gmserver.rules.envelope import glance_envelope
from gmserver.rules.safetext import safe_text
from gmserver.rules.schedule import adjudication_time, reminder_times
from gmserver.services.base.outbox import subject_of
from gmserver.services.features.alerts import describe as describe_alert
from gmserver.services.game.games import find_game
from gmserver.services.game.ordersets import stored_sets


@dataclass(frozen=True)
class GameRow:
    id: int
    name: str
    status: str
    phase: str
    deadline: datetime | None
    paused: bool = False  # never adjudicated while paused


@dataclass(frozen=True)
class GameProgress:
    """Where a game stands: its phase's engine state and who sent orders for it."""
    id: int
    name: str
    status: str
    phase: str
    state: dict[str, Any]
    adjudicated: tuple[str, ...]  # the phases adjudicated so far, in order
    ordered: frozenset[str]  # powers with at least one set on file for this phase


@dataclass(frozen=True)
class InboxRow:
    id: int
    status: str
    outcome: str | None
    kind: str | None  # the mail kind (gmserver.rules.mailkind), once processed
    received_at: datetime
    sender: str
    subject: str
    error: str | None  # the first line of a parked message's error


@dataclass(frozen=True)
class OutboxRow:
    id: int
    status: str
    kind: str
    recipient: str
    attempts: int
    about: str | None  # what an alert is about
    last_error: str | None
    subject: str  # as glanced (up to GLANCE_SUBJECT_CHARS); the command line cuts it to fit a row
    queued_at: datetime


def game_row(sessions: sessionmaker[Session], name: str) -> GameRow:
    """The game called `name`; GameError naming the games there are if none is."""
    with transaction(sessions) as session:
        game = find_game(session, name)
        return GameRow(game.id, game.name, game.status, game.phase, game.deadline, game.paused)


def games_named_like(sessions: sessionmaker[Session], prefix: str) -> list[GameRow]:
    """The games whose name starts with `prefix`, oldest first."""
    with transaction(sessions) as session:
        return [GameRow(g.id, g.name, g.status, g.phase, g.deadline)
                for g in queries.games.games_named_like(session, prefix)]


def game_progress(sessions: sessionmaker[Session], game_id: int) -> GameProgress | None:
    with transaction(sessions) as session:
        game = session.get(Game, game_id)
        if game is None:
            return None
        return GameProgress(
            id=game.id, name=game.name, status=game.status, phase=game.phase,
            state=queries.phases.current_record(session, game).state,
            adjudicated=tuple(queries.phases.adjudicated_phases(session, game.id)),
            ordered=frozenset(stored_sets(session, game.id, game.phase)),
        )


def game_timings(sessions: sessionmaker[Session], game_ids: Collection[int] | None = None,
                 now: datetime | None = None) -> list[GameTiming]:
    """When the deadline and reminder jobs of every active game (or of those of `game_ids` that are
    active) must run (a paused game has neither): adjudication at the deadline plus the grace period, none under
    adjudication_trigger = gm_command; the first of the profile's reminders still
    ahead of `now` (all of them ahead when `now` is None: the earliest)."""
    with transaction(sessions) as session:
        timings = []
        for game, phase, deadline, paused, reminder_seconds, ruleset in queries.games.timing_rows(session, game_ids):
            if paused:
                timings.append(GameTiming(game, phase, None, None))
                continue
            times = reminder_times(ruleset, deadline, timedelta(seconds=reminder_seconds))
            ahead = [t for t in times if now is None or t > now]
            timings.append(GameTiming(game, phase, adjudication_time(deadline, ruleset), ahead[0] if ahead else None))
        return timings


def inbox(sessions: sessionmaker[Session], status: str | None = None, kind: str | None = None) -> list[InboxRow]:
    """Stored inbound mail, or that with `status` and/or of `kind`, in order of receipt."""
    rows = []
    with transaction(sessions) as session:
        for row in queries.inbound.inbound_messages(session, status, kind):
            # Parked mail is often mail that breaks parsers: a bounded glance at the headers
            # alone, never the whole message, and never an exception that hides the other rows.
            try:
                envelope = glance_envelope(row.raw)
                sender, subject = envelope.sender or "?", envelope.subject[:60]
            except Exception:  # noqa: BLE001
                sender, subject = "?", "(headers unreadable)"
            error = (safe_text((row.error.strip().splitlines() or [""])[0])[:200]
                     if row.error and row.status == "failed" else None)
            rows.append(InboxRow(row.id, row.status, row.outcome, row.kind, row.received_at, sender, subject, error))
    return rows


def outbox(sessions: sessionmaker[Session], status: str | None = None) -> list[OutboxRow]:
    """Outgoing mail, or that with `status`, in order of queuing."""
    with transaction(sessions) as session:
        return [OutboxRow(row.id, row.status, row.kind, row.recipient, row.attempts,
                          describe_alert(row.dedupe_key) if row.kind == "alert" else None, row.last_error,
                          subject_of(row), row.created_at)
                for row in queries.outbox.outbox_messages(session, status)]
