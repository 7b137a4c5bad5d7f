"""The stored outbox: mail is queued in the transaction that caused it, then delivered.

Delivery is at-least-once: a row is leased before sending, so a crash between the relay's
"250" and our commit resends the same message (same Message-ID) once the lease runs out.
"""

from __future__ import annotations

import email.policy
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, sessionmaker

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.mail.outbound import PermanentError, TransientError, Transport

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)


def queue(session: Session, message: EmailMessage, *, kind: str, dedupe_key: str, now: datetime,
          game_id: int | None = None) -> bool:
    """Add `message` to the outbox unless a message with `dedupe_key` is already there."""
    exists = session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == dedupe_key))
    if exists is not None:
        return False
    session.add(OutboxMessage(
        message_id=str(message["Message-ID"]),
        dedupe_key=dedupe_key,
        kind=kind,
        game_id=game_id,
        sender=str(message["From"].addresses[0].addr_spec),
        recipient=str(message["To"].addresses[0].addr_spec),
        # CRLF line ends: SMTP needs them, and smtplib does not convert bytes (RFC 5321 2.3.8)
        raw=message.as_bytes(policy=email.policy.SMTP),
        status="pending",
        attempts=0,
        next_attempt_at=now,
        created_at=now,
    ))
    return True


def backoff(attempts: int) -> timedelta:
    """1, 2, 4 ... minutes, at most an hour, after the n-th failed attempt."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 60))


@dataclass(frozen=True)
class DeliveryReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0

    @property
    def attempted(self) -> int:
        return self.sent + self.retrying + self.failed


def deliver_due(sessions: sessionmaker[Session], transport: Transport, now: datetime, *,
                max_attempts: int = 8, limit: int = 200) -> DeliveryReport:
    """Send every message that is due; one pass, for `outbox send --once` and the daemon."""
    with transaction(sessions) as session:
        rows = session.scalars(
            select(OutboxMessage)
            .where(or_(
                (OutboxMessage.status == "pending") & (OutboxMessage.next_attempt_at <= now),
                (OutboxMessage.status == "sending") & (OutboxMessage.lease_until < now),
            ))
            .order_by(OutboxMessage.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        for row in rows:
            row.status = "sending"
            row.lease_until = now + LEASE
        claimed = [(row.id, row.sender, row.recipient, row.raw, row.attempts) for row in rows]

    sent = retrying = failed = 0
    for row_id, sender, recipient, raw, attempts in claimed:
        status, error, note = "sent", None, ""
        try:
            note = transport.send(sender, recipient, raw)
        except PermanentError as problem:
            status, error = "failed", str(problem)
        except TransientError as problem:
            status, error = ("failed" if attempts + 1 >= max_attempts else "pending"), str(problem)
        with transaction(sessions) as session:
            row = session.get(OutboxMessage, row_id)
            assert row is not None
            row.attempts = attempts + 1
            row.status = status
            row.lease_until = None
            row.last_error = error
            if status == "sent":
                row.sent_at = now
                sent += 1
                log.info("outbox: delivered %s to %s (%s)", row.kind, recipient, note)
            elif status == "pending":
                row.next_attempt_at = now + backoff(row.attempts)
                retrying += 1
                log.warning("outbox: %s to %s will be retried: %s", row.kind, recipient, error)
            else:
                failed += 1
                log.error("outbox: giving up on %s to %s: %s", row.kind, recipient, error)
    return DeliveryReport(sent, retrying, failed)
