"""Stored inbound mail."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, cast, exists, func, literal, select
from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage, OutboxMessage


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
