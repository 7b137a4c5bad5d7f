"""Stored inbound mail."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, String, bindparam, cast, exists, func, insert, literal, select, update
from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.queries.rows import plain_rows


def inbound_messages(session: Session, status: str | None = None, kind: str | None = None) -> list[InboundMessage]:
    """Every stored message, or those with `status` and/or of mail `kind`, in order of receipt."""
    query = select(InboundMessage).order_by(InboundMessage.id)
    if status:
        query = query.where(InboundMessage.status == status)
    if kind:
        query = query.where(InboundMessage.kind == kind)
    return list(session.scalars(query))


def parked_to_alert(session: Session, since: datetime, limit: int) -> list[InboundMessage]:
    """Inbound messages parked since `since` with no alert queued yet, oldest first."""
    alerted = exists().where(
        OutboxMessage.dedupe_key == literal("alert:parked:") + cast(InboundMessage.id, String))
    return list(session.scalars(
        select(InboundMessage)
        .where(InboundMessage.status == "failed", ~alerted,
               func.coalesce(InboundMessage.processed_at, InboundMessage.received_at) >= since)
        .order_by(InboundMessage.id).limit(limit)))


# Storing a message runs on a connection, not a session (services.inbox.store): its transaction
# holds these statements alone, and a Session's setup and commit cost more than they do.
def stored_with_fingerprint(connection: Connection, fingerprints: Sequence[str]) -> int | None:
    """The id of the oldest stored message with one of these fingerprints."""
    return connection.scalar(select(InboundMessage.id).where(InboundMessage.fingerprint.in_(fingerprints))
                             .order_by(InboundMessage.id).limit(1))


# built once: the listener's store asks for every message it accepts
_FIRST_WITH_FINGERPRINT = (select(InboundMessage.id, InboundMessage.source)
                           .where(InboundMessage.fingerprint.in_(bindparam("fingerprints", expanding=True)))
                           .order_by(InboundMessage.id).limit(1))


def first_with_fingerprint(connection: Connection, fingerprints: Sequence[str]) -> Row[tuple[int, str]] | None:
    """(id, source) of the oldest stored message with one of these fingerprints."""
    return connection.execute(_FIRST_WITH_FINGERPRINT, {"fingerprints": list(fingerprints)}).first()


_INSERT_INBOUND = insert(InboundMessage.__table__).returning(InboundMessage.__table__.c.id)


def insert_inbound(connection: Connection, values: Mapping[str, Any]) -> int:
    """Store a message: its row's column values (by column name); its id. One INSERT (the ORM's
    unit of work for one new row cost more than the statement)."""
    return connection.execute(_INSERT_INBOUND, values).scalar_one()


def stored_at_uid(connection: Connection, mailbox: str | None, uidvalidity: int, uid: int) -> int | None:
    """The id of the message stored from this IMAP folder, UIDVALIDITY and UID, if any."""
    return connection.scalar(select(InboundMessage.id).where(
        InboundMessage.mailbox == mailbox, InboundMessage.uidvalidity == uidvalidity, InboundMessage.uid == uid)
        .order_by(InboundMessage.id).limit(1))


def pending_ids(session: Session) -> list[int]:
    return list(session.scalars(select(InboundMessage.id).where(InboundMessage.status == "pending")
                                .order_by(InboundMessage.id)))


# Intake's statements are built once, as the deadline's are: each mail runs them, and building
# one cost about as much as running it on SQLite (benchmarks/bench_intake.py). They run on the
# session's connection (rows.plain_rows): the row a message's work changes is written with one
# UPDATE when the work ends, never flushed piecemeal by the ORM (each flush cost more on the client
# than its statement, and a mail's work flushed the row up to three times).
_INBOUND = InboundMessage.__table__
_CLAIMABLE = _INBOUND.alias("claimable")  # not correlated with the UPDATE's own table
_CLAIM = (update(_INBOUND)
          .where(_INBOUND.c.id == select(_CLAIMABLE.c.id)
                 .where(_CLAIMABLE.c.id == bindparam("inbound_id"), _CLAIMABLE.c.status == "pending",
                        _CLAIMABLE.c.attempts < bindparam("max_attempts"))
                 .with_for_update(skip_locked=True).scalar_subquery())
          .values(attempts=_INBOUND.c.attempts + 1)
          .returning(_INBOUND.c.raw))
_PENDING = (_INBOUND.c.id == bindparam("inbound_id"), _INBOUND.c.status == "pending")
_ATTEMPTS_FOR_UPDATE = select(_INBOUND.c.attempts).where(*_PENDING).with_for_update(skip_locked=True)
# every column but the raw bytes, which the claim read
_PENDING_FOR_UPDATE = select(*(column for column in _INBOUND.c if column.key != "raw")).where(*_PENDING).with_for_update()
_ROW_KEY = "row_key"
_UPDATE_BY_ID = update(_INBOUND).where(_INBOUND.c.id == bindparam(_ROW_KEY))


def claim(connection: Connection, inbound_id: int, max_attempts: int) -> bytes | None:
    """Count one more claim on the message and return its raw bytes, if it is pending, has had
    fewer than `max_attempts` claims and no one holds it (SKIP LOCKED): one statement, the row
    locked until the transaction ends. None otherwise (`pending_attempts_for_update` tells why).
    On a connection, not a session: the claim's transaction holds nothing else
    (services.inbox.runner)."""
    return connection.execute(_CLAIM, {"inbound_id": inbound_id, "max_attempts": max_attempts}).scalar_one_or_none()


def pending_attempts_for_update(connection: Connection, inbound_id: int) -> int | None:
    """The claims counted on the message if it is pending and no one holds it (SKIP LOCKED),
    locked until the transaction ends; None otherwise."""
    return connection.execute(_ATTEMPTS_FOR_UPDATE, {"inbound_id": inbound_id}).scalar_one_or_none()


def pending_for_update(session: Session, inbound_id: int) -> dict[str, Any] | None:
    """The message's columns but its raw bytes (column -> value) if it is still pending, its row
    locked until the transaction ends; waits for the lock (no SKIP LOCKED:
    services.inbox.runner.process_one says why) and tests the status after the wait."""
    found = plain_rows(session, _PENDING_FOR_UPDATE, {"inbound_id": inbound_id}, flush=False).mappings().first()
    return None if found is None else dict(found)


def unsaved(loaded: Mapping[str, Any], raw: bytes) -> InboundMessage:
    """The message as an object the session does not hold (`loaded`: `pending_for_update`'s
    columns): what intake's work sets on it is written by `write_changes`, never by a flush."""
    return InboundMessage(raw=raw, **loaded)


def write_changes(session: Session, row: InboundMessage, loaded: Mapping[str, Any]) -> None:
    """One UPDATE of the message's row with the columns of `row` (an `unsaved` message) whose
    values differ from those `loaded`."""
    changed = {key: value for key, was in loaded.items() if (value := getattr(row, key)) != was}
    if changed:
        plain_rows(session, _UPDATE_BY_ID, {_ROW_KEY: row.id, **changed}, flush=False)


def park(database: Session | Connection, inbound_id: int, error: str, now: datetime, *, only_pending: bool) -> None:
    """Mark the message failed with `error`; with `only_pending`, only if it is still pending."""
    query = update(InboundMessage).where(InboundMessage.id == inbound_id)
    if only_pending:
        query = query.where(InboundMessage.status == "pending")
    database.execute(query.values(status="failed", error=error, processed_at=now))


def uncount_claim(session: Session, inbound_id: int) -> None:
    """One claim fewer on the message, if it is pending and has any."""
    session.execute(update(InboundMessage)
                    .where(InboundMessage.id == inbound_id, InboundMessage.status == "pending",
                           InboundMessage.attempts > 0)
                    .values(attempts=InboundMessage.attempts - 1))


def requeue_failed(session: Session, inbound_id: int) -> None:
    """Put a parked message back in the queue with a fresh count of claims."""
    session.execute(update(InboundMessage)
                    .where(InboundMessage.id == inbound_id, InboundMessage.status == "failed")
                    .values(status="pending", error=None, attempts=0))


def heard_from_since(session: Session, game_id: int, power: str, since: datetime) -> bool:
    """Whether any mail from the power's player reached the game after `since`."""
    return session.scalar(select(InboundMessage.id).where(
        InboundMessage.game_id == game_id, InboundMessage.power == power, InboundMessage.received_at > since
    ).limit(1)) is not None


def answered_since(session: Session, game_id: int, power: str, outcome: str, since: datetime) -> list[datetime]:
    """When the power's messages processed after `since` with `outcome` ("whatif-sent") were
    processed, earliest first."""
    return list(session.scalars(select(InboundMessage.processed_at).where(
        InboundMessage.game_id == game_id, InboundMessage.power == power, InboundMessage.outcome == outcome,
        InboundMessage.processed_at > since).order_by(InboundMessage.processed_at)))


def held_for_update(session: Session, inbound_id: int) -> InboundMessage | None:
    """The message if it is held for the GM (hold_for_gm), locked until the transaction ends."""
    return session.scalar(select(InboundMessage)
                          .where(InboundMessage.id == inbound_id, InboundMessage.status == "held")
                          .with_for_update())


def held_of_game(session: Session, game_id: int) -> list[InboundMessage]:
    """The game's messages held for the GM (hold_for_gm), oldest first."""
    return list(session.scalars(select(InboundMessage).where(InboundMessage.game_id == game_id,
                                                             InboundMessage.status == "held")
                                .order_by(InboundMessage.id)))
