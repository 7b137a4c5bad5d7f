"""The stored outbox against real transports: aiosmtpd relays (with AUTH and STARTTLS, and
into Dovecot over LMTP for a real 550) and a Maildir; on SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import mailbox
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from gmserver.config import SmtpRelayConfig
from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.mail.outbound import MaildirTransport, SmtpTransport
from gmserver.services.base import outbox as outbox_service
from gmserver.services.base.outbox import BATCH, LEASE, deliver_due, queue, queue_all, requeue_failed
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


def test_queue_all_adds_each_key_once(database_url, clock) -> None:
    """A deadline's reports in one go: keys already queued (a replayed deadline) and keys given
    twice are added once."""
    services = services_for(database_url)
    enqueue(services, clock(), "a@players.test", "report:1:S1901M:AUSTRIA")

    def mail(to: str):
        return services.composer.compose(to=to, subject="results", body="hello", auto_submitted="auto-generated",
                                         date=clock())

    batch = [(mail("a@players.test"), "report:1:S1901M:AUSTRIA"), (mail("e@players.test"), "report:1:S1901M:ENGLAND"),
             (mail("f@players.test"), "report:1:S1901M:FRANCE"), (mail("f@players.test"), "report:1:S1901M:FRANCE")]
    with transaction(services.sessions) as session:
        assert queue_all(session, batch, kind="report", now=clock()) == 2
    with transaction(services.sessions) as session:
        assert queue_all(session, batch, kind="report", now=clock()) == 0
    assert [(r.recipient, r.dedupe_key) for r in rows(services)] == [
        ("a@players.test", "report:1:S1901M:AUSTRIA"), ("e@players.test", "report:1:S1901M:ENGLAND"),
        ("f@players.test", "report:1:S1901M:FRANCE")]


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


# -- helpers for the tests below ----------------------------------------------------------


class _Sink:
    """aiosmtpd handler: answers DATA with `reply` and records what it accepted."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.accepted: list[tuple[str, tuple[str, ...]]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.reply.startswith("250"):
            self.accepted.append((envelope.mail_from, tuple(envelope.rcpt_tos)))
        return self.reply


@contextmanager
def sink_relay(*, reply: str = "250 OK", smtputf8: bool = True) -> Iterator[tuple[SmtpTransport, _Sink]]:
    """A bare aiosmtpd server (SMTPUTF8 on or off; DATA answered with `reply`) and a transport to it."""
    sink = _Sink(reply)
    controller = Controller(sink, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=smtputf8)
    controller.start()
    try:
        yield SmtpTransport(SmtpRelayConfig(host="127.0.0.1", port=controller.port, timeout=5)), sink
    finally:
        controller.stop()


class SenderCrash(BaseException):
    """Stands for the sending process dying (not an Exception: nothing may catch it)."""


class Scripted:
    """A transport that records each recipient and does `action(recipient, count)` first."""

    def __init__(self, action=None) -> None:
        self.action = action
        self.sent: list[str] = []

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        if self.action is not None:
            self.action(recipient, len(self.sent) + 1)
        self.sent.append(recipient)
        return "ok"

    def close(self) -> None:
        pass


def statuses(services) -> list[tuple[str, str, int]]:
    return [(row.recipient, row.status, row.attempts) for row in rows(services)]


# -- 1. a message that cannot be sent, or crashes the sender, does not stop the outbox ----


def test_an_address_a_relay_without_smtputf8_cannot_take_fails_only_that_message(database_url, clock) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "j\u00f6rg@exampl\u00e9.test", "stranger")
    enqueue(services, clock(), "p1@players.test", "k1")
    enqueue(services, clock(), "p2@players.test", "k2")
    with sink_relay(smtputf8=False) as (transport, sink):
        report = deliver_due(services.sessions, transport, clock())
    assert (report.sent, report.retrying, report.failed) == (2, 0, 1)
    assert [rcpts for _, rcpts in sink.accepted] == [("p1@players.test",), ("p2@players.test",)]
    stranger, *_ = rows(services)
    assert (stranger.status, stranger.attempts, stranger.lease_until) == ("failed", 1, None)
    assert "SMTPUTF8" in stranger.last_error
    assert [status for _, status, _ in statuses(services)] == ["failed", "sent", "sent"]


def test_a_sender_address_that_is_not_ascii_needs_smtputf8_too(database_url, clock) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    with transaction(services.sessions) as session:
        session.scalar(select(OutboxMessage)).sender = "spielleitung@exampl\u00e9.test"
    with sink_relay(smtputf8=False) as (transport, sink):
        assert deliver_due(services.sessions, transport, clock()).failed == 1
    assert sink.accepted == []
    assert "SMTPUTF8" in rows(services)[0].last_error


def test_smtputf8_is_used_when_the_relay_offers_it(database_url, clock) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "j\u00f6rg@exampl\u00e9.test", "stranger")
    with transaction(services.sessions) as session:
        session.scalar(select(OutboxMessage)).sender = "spielleitung@exampl\u00e9.test"
    with SmtpRelay() as relay:  # aiosmtpd offers SMTPUTF8 by default
        transport = SmtpTransport(SmtpRelayConfig(host=relay.host, port=relay.port))
        assert deliver_due(services.sessions, transport, clock()).sent == 1
        [message] = relay.wait_for(1)
    assert message.mail_from == "spielleitung@exampl\u00e9.test"
    assert message.rcpt_tos == ("j\u00f6rg@exampl\u00e9.test",)
    assert rows(services)[0].status == "sent"


def test_a_transport_that_raises_is_recorded_per_message_then_given_up(database_url, clock) -> None:
    services = services_for(database_url)
    for n in range(3):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")

    def explode(recipient: str, _count: int) -> None:
        if recipient == "p1@players.test":
            raise RuntimeError("the transport has a bug")

    transport = Scripted(explode)
    report = deliver_due(services.sessions, transport, clock(), max_attempts=2)
    assert (report.sent, report.retrying, report.failed) == (2, 1, 0)
    assert transport.sent == ["p0@players.test", "p2@players.test"]
    broken = rows(services)[1]
    assert (broken.status, broken.attempts, broken.lease_until) == ("pending", 1, None)
    assert "RuntimeError: the transport has a bug" in broken.last_error
    assert broken.next_attempt_at == clock() + timedelta(minutes=1)
    report = deliver_due(services.sessions, transport, clock.advance(minutes=1), max_attempts=2)
    assert (report.sent, report.retrying, report.failed) == (0, 0, 1)
    assert statuses(services)[1] == ("p1@players.test", "failed", 2)


def test_a_message_that_keeps_crashing_the_sender_ends_failed(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "poison@players.test", "poison")
    enqueue(services, clock(), "p1@players.test", "k1")
    enqueue(services, clock(), "p2@players.test", "k2")
    maildir = MaildirTransport(tmp_path / "md")

    def crash_on_poison(recipient: str, _count: int) -> None:
        if recipient == "poison@players.test":
            raise SenderCrash()

    transport = Scripted(crash_on_poison)
    for attempt in (1, 2, 3):
        with pytest.raises(SenderCrash):
            deliver_due(services.sessions, transport, clock(), max_attempts=3)
        # the attempt was counted before sending; the rows claimed with it were not tried
        assert statuses(services) == [("poison@players.test", "sending", attempt),
                                      ("p1@players.test", "sending", 0), ("p2@players.test", "sending", 0)]
        assert deliver_due(services.sessions, maildir, clock()).attempted == 0  # leased
        clock.advance(minutes=6)
    report = deliver_due(services.sessions, maildir, clock(), max_attempts=3)
    assert (report.sent, report.retrying, report.failed) == (2, 0, 1)
    assert statuses(services) == [("poison@players.test", "failed", 3),
                                  ("p1@players.test", "sent", 1), ("p2@players.test", "sent", 1)]
    assert "never finished" in rows(services)[0].last_error


def test_a_crash_between_sending_and_recording_resends_the_same_message(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    maildir = MaildirTransport(tmp_path / "md")

    class DiesAfterSending:
        def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
            maildir.send(sender, recipient, raw, message_id=message_id)
            raise SenderCrash()

        def close(self) -> None:
            pass

    with pytest.raises(SenderCrash):
        deliver_due(services.sessions, DiesAfterSending(), clock())
    assert deliver_due(services.sessions, maildir, clock.advance(minutes=6)).sent == 1
    # handed to the Maildir twice, stored once
    copies = [str(m["Message-ID"]) for m in mailbox.Maildir(tmp_path / "md")]
    assert copies == [rows(services)[0].message_id]
    assert statuses(services) == [("p@players.test", "sent", 2)]


# -- 2. only the relay's answers about the message itself are final ----------------------


def _wrong_password(relay: SmtpRelay, dovecot) -> tuple[SmtpRelayConfig, SmtpRelayConfig]:
    bad = SmtpRelayConfig(host=relay.host, port=relay.port, user="gm", password="rotated", timeout=5)
    return bad, SmtpRelayConfig(host=relay.host, port=relay.port, user="gm", password="pw", timeout=5)


def _no_login(relay: SmtpRelay, dovecot) -> tuple[SmtpRelayConfig, SmtpRelayConfig]:
    bad = SmtpRelayConfig(host=relay.host, port=relay.port, timeout=5)  # MAIL FROM gets 530
    return bad, SmtpRelayConfig(host=relay.host, port=relay.port, user="gm", password="pw", timeout=5)


def _no_starttls(relay: SmtpRelay, dovecot) -> tuple[SmtpRelayConfig, SmtpRelayConfig]:
    bad = SmtpRelayConfig(host=relay.host, port=relay.port, timeout=5)  # 530 must issue STARTTLS
    return bad, SmtpRelayConfig(host=relay.host, port=relay.port, tls="starttls", ca_file=dovecot.cert_path,
                                timeout=5)


@pytest.mark.parametrize(("relay_options", "settings", "said"), [
    ({"auth": ("gm", "pw")}, _wrong_password, "535"),
    ({"auth": ("gm", "pw")}, _no_login, "530"),
    ({"require_tls": True}, _no_starttls, "530"),
], ids=["wrong-password", "no-login", "no-starttls"])
def test_a_relay_refusing_the_session_is_retried_not_failed(database_url, clock, dovecot, caplog,
                                                            relay_options, settings, said) -> None:
    services = services_for(database_url)
    for n in range(3):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    if relay_options.get("require_tls"):
        relay_options = {**relay_options, "tls_cert": dovecot.cert_path, "tls_key": dovecot.key_path}
    with SmtpRelay(**relay_options) as relay:
        bad, good = settings(relay, dovecot)
        with caplog.at_level(logging.ERROR, logger="gmserver.services.base.outbox"):
            report = deliver_due(services.sessions, SmtpTransport(bad), clock())
        # the pass stops at the first refusal: the next message would be refused the same way
        assert (report.sent, report.retrying, report.failed) == (0, 1, 0)
        assert statuses(services) == [("p0@players.test", "pending", 1), ("p1@players.test", "pending", 0),
                                      ("p2@players.test", "pending", 0)]
        first = rows(services)[0]
        assert said in first.last_error
        assert {row.next_attempt_at for row in rows(services)} == {clock() + timedelta(minutes=1)}
        assert "relay configuration problem" in caplog.text
        assert deliver_due(services.sessions, SmtpTransport(bad), clock()).attempted == 0  # backing off
        # the GM fixes the configuration: everything goes at the next try
        report = deliver_due(services.sessions, SmtpTransport(good), clock.advance(minutes=1))
        assert report.sent == 3
        assert sorted(m.rcpt_tos[0] for m in relay.wait_for(3)) == [f"p{n}@players.test" for n in range(3)]


def test_a_refusal_of_the_message_at_data_is_final(database_url, clock) -> None:
    services = services_for(database_url)
    for n in range(2):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    with sink_relay(reply="554 5.6.0 Message content rejected") as (transport, _):
        report = deliver_due(services.sessions, transport, clock())
    assert (report.sent, report.retrying, report.failed) == (0, 0, 2)
    assert all(row.status == "failed" and "554" in row.last_error for row in rows(services))


def test_a_temporary_refusal_at_data_retries_that_message_and_goes_on(database_url, clock) -> None:
    services = services_for(database_url)
    for n in range(2):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    with sink_relay(reply="451 4.3.0 Try again later") as (transport, _):
        report = deliver_due(services.sessions, transport, clock())
    assert (report.sent, report.retrying, report.failed) == (0, 2, 0)
    assert statuses(services) == [("p0@players.test", "pending", 1), ("p1@players.test", "pending", 1)]


def test_requeue_failed(database_url, clock) -> None:
    services = services_for(database_url)
    for n in range(3):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    with sink_relay(reply="554 5.6.0 rejected") as (transport, _):
        assert deliver_due(services.sessions, transport, clock()).failed == 3
    enqueue(services, clock(), "p3@players.test", "k3")
    with sink_relay() as (transport, _):
        assert deliver_due(services.sessions, transport, clock()).sent == 1
    first, _, _, delivered = (row.id for row in rows(services))

    later = clock.advance(hours=2)
    assert requeue_failed(services.sessions, later, ids=[]) == 0
    assert requeue_failed(services.sessions, later, ids=[first, delivered]) == 1  # a sent one stays sent
    assert [status for _, status, _ in statuses(services)] == ["pending", "failed", "failed", "sent"]
    assert requeue_failed(services.sessions, later) == 2
    assert requeue_failed(services.sessions, later) == 0
    for row in rows(services)[:3]:
        assert (row.status, row.attempts, row.next_attempt_at, row.lease_until) == ("pending", 0, later, None)
    with sink_relay() as (transport, sink):
        assert deliver_due(services.sessions, transport, later).sent == 3
    assert sorted(rcpts for _, rcpts in sink.accepted) == [("p0@players.test",), ("p1@players.test",),
                                                           ("p2@players.test",)]
    assert statuses(services)[3] == ("p3@players.test", "sent", 1)


# -- 3. two senders: small batches, and a lease renewed (compare-and-set) before each send -


def test_a_slow_sender_whose_lease_ran_out_does_not_send_what_another_took_over(
        database_url, clock, monkeypatch) -> None:
    services = services_for(database_url)
    for n in range(25):
        enqueue(services, clock(), f"p{n:02}@players.test", f"k{n}")
    elapsed = [0.0]
    monkeypatch.setattr(outbox_service, "monotonic", lambda: elapsed[0])
    deliveries: Counter[str] = Counter()
    reports = {}
    b = Scripted(lambda recipient, _count: deliveries.update([recipient]))

    def slow(recipient: str, count: int) -> None:
        deliveries.update([recipient])
        elapsed[0] += 120  # two minutes a message: A's batch outlives its first lease
        if count == 4:
            # B starts 8 minutes into A's pass: A's lease on the rows it has not reached (5 minutes
            # from the start) has run out, but not the one A renewed for the message it is sending
            reports["B"] = deliver_due(services.sessions, b, clock() + timedelta(minutes=8))

    a = Scripted(slow)
    reports["A"] = deliver_due(services.sessions, a, clock())
    assert len(a.sent) == 4 and len(b.sent) == 21
    assert reports["A"].sent == 4 and reports["B"].sent == 21
    assert set(deliveries.values()) == {1} and len(deliveries) == 25
    assert set(statuses(services)) == {(f"p{n:02}@players.test", "sent", 1) for n in range(25)}


def test_a_large_limit_is_sent_in_small_batches(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    for n in range(2 * BATCH + 5):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    leased: list[int] = []

    def count_leased(_recipient: str, _count: int) -> None:
        with transaction(services.sessions) as session:
            leased.append(session.scalar(select(func.count()).where(OutboxMessage.status == "sending")))

    assert deliver_due(services.sessions, Scripted(count_leased), clock(), limit=BATCH + 10).sent == BATCH + 10
    assert max(leased) <= BATCH
    report = deliver_due(services.sessions, Scripted(count_leased), clock(), limit=10_000)
    assert (report.sent, report.retrying, report.failed) == (BATCH - 5, 0, 0)
    assert max(leased) <= BATCH
    assert {status for _, status, _ in statuses(services)} == {"sent"}
