"""Stored inbound mail."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, String, bindparam, cast, exists, func, insert, literal, select, update
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


def stored_with_fingerprint(session: Session, fingerprints: Sequence[str]) -> int | None:
    """The id of the oldest stored message with one of these fingerprints."""
    return session.scalar(select(InboundMessage.id).where(InboundMessage.fingerprint.in_(fingerprints))
                          .order_by(InboundMessage.id).limit(1))


# built once: the listener's store asks for every message it accepts
_FIRST_WITH_FINGERPRINT = (select(InboundMessage.id, InboundMessage.source)
                           .where(InboundMessage.fingerprint.in_(bindparam("fingerprints", expanding=True)))
                           .order_by(InboundMessage.id).limit(1))


def first_with_fingerprint(session: Session, fingerprints: Sequence[str]) -> Row[tuple[int, str]] | None:
    """(id, source) of the oldest stored message with one of these fingerprints."""
    return plain_rows(session, _FIRST_WITH_FINGERPRINT, {"fingerprints": list(fingerprints)}).first()


_INSERT_INBOUND = insert(InboundMessage.__table__).returning(InboundMessage.__table__.c.id)


def insert_inbound(session: Session, values: Mapping[str, Any]) -> int:
    """Store a message: its row's column values (by column name); its id. One INSERT on the
    session's connection (the ORM's unit of work for one new row cost more than the statement)."""
    return plain_rows(session, _INSERT_INBOUND, values).scalar_one()


def stored_at_uid(session: Session, mailbox: str | None, uidvalidity: int, uid: int) -> int | None:
    """The id of the message stored from this IMAP folder, UIDVALIDITY and UID, if any."""
    return session.scalar(select(InboundMessage.id).where(
        InboundMessage.mailbox == mailbox, InboundMessage.uidvalidity == uidvalidity, InboundMessage.uid == uid)
        .order_by(InboundMessage.id).limit(1))


def pending_ids(session: Session) -> list[int]:
    return list(session.scalars(select(InboundMessage.id).where(InboundMessage.status == "pending")
                                .order_by(InboundMessage.id)))


# Intake's statements are built once, as the deadline's are: each mail runs them, and building
# one cost about as much as running it on SQLite (benchmarks/bench_intake.py)
_PENDING = (InboundMessage.id == bindparam("inbound_id"), InboundMessage.status == "pending")
_PENDING_FOR_UPDATE = select(InboundMessage).where(*_PENDING).with_for_update()
_CLAIM_FOR_UPDATE = (select(InboundMessage.attempts, InboundMessage.raw).where(*_PENDING)
                     .with_for_update(skip_locked=True))
_SET_ATTEMPTS = (update(InboundMessage).where(InboundMessage.id == bindparam("inbound_id"))
                 .values(attempts=bindparam("attempts")))


def pending_for_update(session: Session, inbound_id: int) -> InboundMessage | None:
    """The message if it is still pending, locked until the transaction ends; waits for the lock
    (no SKIP LOCKED: services.inbox.runner.process_one says why) and tests the status after the wait."""
    return session.scalar(_PENDING_FOR_UPDATE, {"inbound_id": inbound_id})


def pending_claim_for_update(session: Session, inbound_id: int) -> tuple[int, bytes] | None:
    """(the claims counted so far, the raw bytes) of the message if it is pending and no one
    holds it (SKIP LOCKED), locked until the transaction ends; None otherwise. The bytes come with
    the claim so that reading the message costs no transaction of its own."""
    found = session.execute(_CLAIM_FOR_UPDATE, {"inbound_id": inbound_id}).one_or_none()
    return None if found is None else (found.attempts, found.raw)


def set_attempts(session: Session, inbound_id: int, attempts: int) -> None:
    session.execute(_SET_ATTEMPTS, {"inbound_id": inbound_id, "attempts": attempts})


def park(session: Session, inbound_id: int, error: str, now: datetime, *, only_pending: bool) -> None:
    """Mark the message failed with `error`; with `only_pending`, only if it is still pending."""
    query = update(InboundMessage).where(InboundMessage.id == inbound_id)
    if only_pending:
        query = query.where(InboundMessage.status == "pending")
    session.execute(query.values(status="failed", error=error, processed_at=now))


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
