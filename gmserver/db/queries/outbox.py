"""Outgoing mail as stored: listing, duplicates, and how much of a kind went out lately (the
rate limits). Claiming and recording deliveries stays in services/base/outbox.py, with its locking."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Select, String, bindparam, cast, exists, func, literal, or_, select
from sqlalchemy.orm import Session

from gmserver.db.models import OutboxMessage
from gmserver.db.queries.rows import plain_rows


def outbox_messages(session: Session, status: str | None = None) -> list[OutboxMessage]:
    """Every outgoing message, or those with `status`, in order of queuing."""
    query = select(OutboxMessage).order_by(OutboxMessage.id)
    if status:
        query = query.where(OutboxMessage.status == status)
    return list(session.scalars(query))


# Each mail asks these (its answer's dedupe key, its reply limits): built once, Core on the table's
# columns, run on the session's connection (rows.plain_rows) without the ORM's execution, which
# cost more than the statement. No flush first: the outbox's rows are inserted at once, never
# left pending in a session (services/base/outbox.py `queue`)
_OUTBOX = OutboxMessage.__table__
_KEY_TAKEN = select(_OUTBOX.c.id).where(_OUTBOX.c.dedupe_key == bindparam("key"))


def dedupe_key_taken(session: Session, dedupe_key: str) -> bool:
    return plain_rows(session, _KEY_TAKEN, {"key": dedupe_key}, flush=False).first() is not None


_KEYS_TAKEN = select(OutboxMessage.dedupe_key).where(
    OutboxMessage.dedupe_key.in_(bindparam("keys", expanding=True)))  # built once: each deadline asks


def dedupe_keys_taken(session: Session, dedupe_keys: Sequence[str]) -> set[str]:
    """Those of `dedupe_keys` that some message in the outbox already has."""
    if not dedupe_keys:
        return set()
    return set(session.scalars(_KEYS_TAKEN, {"keys": list(dedupe_keys)}))


def queued_since(session: Session, since: datetime, *, kinds: Sequence[str] | None = None,
                 recipient: str | None = None, game_id: int | None = None, key_prefix: str | None = None) -> int:
    """How many messages were queued after `since`, of these kinds, to this recipient, about this
    game, with a dedupe key that starts so (each filter only when given)."""
    given = {"since": since, "kinds": None if kinds is None else list(kinds), "recipient": recipient,
             "game_id": game_id, "key_prefix": key_prefix}
    query = _queued_since(*(given[name] is not None for name in _QUEUED_FILTERS))
    return plain_rows(session, query, {name: value for name, value in given.items() if value is not None},
                      flush=False).scalar() or 0


_QUEUED_FILTERS = ("kinds", "recipient", "game_id", "key_prefix")


@functools.cache
def _queued_since(kinds: bool, recipient: bool, game_id: bool, key_prefix: bool) -> Select:
    """queued_since's statement for the filters given, built once (Core, as `_KEY_TAKEN`): every
    mail's reply limits ask."""
    query = select(func.count(_OUTBOX.c.id)).where(_OUTBOX.c.created_at > bindparam("since"))
    if kinds:
        query = query.where(_OUTBOX.c.kind.in_(bindparam("kinds", expanding=True)))
    if recipient:
        query = query.where(_OUTBOX.c.recipient == bindparam("recipient"))
    if game_id:
        query = query.where(_OUTBOX.c.game_id == bindparam("game_id"))
    if key_prefix:
        query = query.where(_OUTBOX.c.dedupe_key.startswith(bindparam("key_prefix")))
    return query


def undeliverable_to_alert(session: Session, since: datetime, limit: int) -> list[OutboxMessage]:
    """Outgoing messages given up on since about `since` with no alert queued yet, oldest first.
    The time of a row's last attempt is its `next_attempt_at` (the moment it was due); an alert
    that fails gets no alert of its own, or a broken relay would feed a loop."""
    alert = OutboxMessage.__table__.alias("alert")
    alerted = exists().where(alert.c.dedupe_key == literal("alert:undeliverable:") + cast(OutboxMessage.id, String))
    return list(session.scalars(
        select(OutboxMessage)
        .where(OutboxMessage.status == "failed", OutboxMessage.kind != "alert", ~alerted,
               OutboxMessage.next_attempt_at >= since)
        .order_by(OutboxMessage.id).limit(limit)))


def per_message_alerts_since(session: Session, since: datetime) -> int:
    """Alerts about one parked or undeliverable message queued since `since` (inclusive)."""
    return session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.kind == "alert", OutboxMessage.created_at >= since,
        or_(OutboxMessage.dedupe_key.like("alert:parked:%"), OutboxMessage.dedupe_key.like("alert:undeliverable:%"))))
