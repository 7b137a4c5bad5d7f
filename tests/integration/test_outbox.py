"""The stored outbox against real transports: aiosmtpd relays (with AUTH and STARTTLS, and
into Dovecot over LMTP for a real 550) and a Maildir; on SQLite and PostgreSQL."""

from __future__ import annotations

import mailbox
from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.config import SmtpRelayConfig
from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.mail.outbound import MaildirTransport, SmtpTransport
from gmserver.services.outbox import LEASE, deliver_due, queue
from tests.support.dovecot import free_port
from tests.support.smtp_relay import SmtpRelay
from tests.support.world import services_for

pytestmark = pytest.mark.integration


def enqueue(services, now, recipient: str, key: str) -> None:
    message = services.composer.compose(to=recipient, subject=f"test {key}", body="hello",
                                        auto_submitted="auto-generated", date=now)
    with transaction(services.sessions) as session:
        queue(session, message, kind="report", dedupe_key=key, now=now)


def rows(services) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_queueing_the_same_key_twice_keeps_one(database_url, clock) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "a@players.test", "k1")
    enqueue(services, clock(), "a@players.test", "k1")
    assert len(rows(services)) == 1


def test_maildir_delivery(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    for n in range(3):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    report = deliver_due(services.sessions, MaildirTransport(tmp_path / "md"), clock())
    assert (report.sent, report.retrying, report.failed) == (3, 0, 0)
    delivered = sorted(str(m["Delivered-To"]) for m in mailbox.Maildir(tmp_path / "md"))
    assert delivered == ["p0@players.test", "p1@players.test", "p2@players.test"]
    assert deliver_due(services.sessions, MaildirTransport(tmp_path / "md"), clock()).sent == 0


def test_smtp_relay_with_starttls_and_login(database_url, clock, dovecot) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    with SmtpRelay(auth=("gm", "pw"), tls_cert=dovecot.cert_path, tls_key=dovecot.key_path,
                   require_tls=True) as relay:
        transport = SmtpTransport(SmtpRelayConfig(host=relay.host, port=relay.port, tls="starttls", user="gm",
                                                  password="pw", ca_file=dovecot.cert_path))
        assert deliver_due(services.sessions, transport, clock()).sent == 1
        [message] = relay.wait_for(1)
    assert message.rcpt_tos == ("p@players.test",) and message.tls and message.authenticated_as == "gm"
    [row] = rows(services)
    assert row.status == "sent" and row.message_id.encode() in message.raw


def test_relay_down_is_retried_with_backoff_then_delivered(database_url, clock) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    port = free_port()
    transport = SmtpTransport(SmtpRelayConfig(host="127.0.0.1", port=port, timeout=5))
    report = deliver_due(services.sessions, transport, clock())
    assert (report.sent, report.retrying) == (0, 1)
    [row] = rows(services)
    assert row.status == "pending" and row.attempts == 1 and row.next_attempt_at == clock() + timedelta(minutes=1)
    assert "cannot deliver" in row.last_error
    assert deliver_due(services.sessions, transport, clock()).retrying == 0  # not due yet
    with SmtpRelay(port=port) as relay:
        assert deliver_due(services.sessions, transport, clock.advance(minutes=1)).sent == 1
        relay.wait_for(1)


def test_a_permanent_refusal_is_not_retried(database_url, clock, smtp_relay) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "nobody@example.test", "k")  # Dovecot has no such user: 550 over LMTP
    transport = SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port))
    report = deliver_due(services.sessions, transport, clock())
    assert report.failed == 1
    [row] = rows(services)
    assert row.status == "failed" and "550" in row.last_error


def test_gives_up_after_max_attempts(database_url, clock) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    transport = SmtpTransport(SmtpRelayConfig(host="127.0.0.1", port=free_port(), timeout=5))
    for _ in range(2):
        deliver_due(services.sessions, transport, clock(), max_attempts=2)
        clock.advance(hours=1)
    [row] = rows(services)
    assert (row.status, row.attempts) == ("failed", 2)


def test_a_send_interrupted_by_a_crash_is_resent_after_the_lease(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    with transaction(services.sessions) as session:  # as if a sender died after claiming the row
        row = session.scalar(select(OutboxMessage))
        row.status, row.lease_until = "sending", clock() + LEASE
    transport = MaildirTransport(tmp_path / "md")
    assert deliver_due(services.sessions, transport, clock()).sent == 0
    assert deliver_due(services.sessions, transport, clock.advance(minutes=6)).sent == 1
