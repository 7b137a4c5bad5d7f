"""A message handed to a transport twice (a kill between delivery and the
outbox's "sent" commit) is stored once in a Maildir, and over SMTP nothing stands between the
relay's 250 and that commit; on SQLite and PostgreSQL, against a real Maildir and aiosmtpd."""

from __future__ import annotations

import email
import mailbox
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError

from gmserver.config import SmtpRelayConfig
from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.mail.outbound import MaildirTransport, SmtpTransport, maildir_name
from gmserver.services.base import outbox as outbox_service
from gmserver.services.base.outbox import deliver_due, queue
from tests.support.dovecot import free_port
from tests.support.smtp_relay import SmtpRelay
from tests.support.world import services_for

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "reliability"))
import common
import soak

pytestmark = pytest.mark.integration


class SenderKilled(BaseException):
    """Stands for SIGKILL: nothing may catch it."""


def enqueue(services, now, recipient: str, key: str) -> None:
    message = services.composer.compose(to=recipient, subject=f"test {key}", body="hello",
                                        auto_submitted="auto-generated", date=now)
    with transaction(services.sessions) as session:
        queue(session, message, kind="confirmation", dedupe_key=key, now=now)


def rows(services) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


class KilledAfterDelivering:
    """Delivers through `inner`, then the process dies before the outbox can record it."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        self.inner.send(sender, recipient, raw, message_id=message_id)
        raise SenderKilled()

    def close(self) -> None:
        pass  # a killed process says no QUIT


# -- Maildir: idempotent -------------------------------------------------------------------


def test_the_same_row_delivered_twice_is_one_file(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    [row] = rows(services)
    maildir = MaildirTransport(tmp_path / "md")
    first = maildir.send(row.sender, row.recipient, row.raw, message_id=row.message_id)
    again = maildir.send(row.sender, row.recipient, row.raw, message_id=row.message_id)
    assert "stored" in first and "delivered before" in again
    assert os.listdir(tmp_path / "md" / "new") == [maildir_name(row.message_id)]
    assert os.listdir(tmp_path / "md" / "tmp") == []
    [stored] = mailbox.Maildir(tmp_path / "md")
    assert str(stored["Message-ID"]) == row.message_id and str(stored["Delivered-To"]) == "p@players.test"


def test_a_message_the_reader_has_moved_to_cur_is_not_stored_again(tmp_path) -> None:
    maildir = MaildirTransport(tmp_path / "md")
    raw = b"Message-ID: <abc@gm.test>\r\nSubject: x\r\n\r\nhello\r\n"
    maildir.send("gm@gm.test", "p@players.test", raw, message_id="<abc@gm.test>")
    name = maildir_name("<abc@gm.test>")
    os.rename(tmp_path / "md" / "new" / name, tmp_path / "md" / "cur" / f"{name}:2,S")  # read
    assert "delivered before" in maildir.send("gm@gm.test", "p@players.test", raw, message_id="<abc@gm.test>")
    assert os.listdir(tmp_path / "md" / "new") == []
    assert len(mailbox.Maildir(tmp_path / "md")) == 1


def test_a_kill_between_maildir_delivery_and_the_commit_leaves_one_copy(database_url, clock, tmp_path) -> None:
    services = services_for(database_url)
    for n in range(3):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    maildir = MaildirTransport(tmp_path / "md")
    with pytest.raises(SenderKilled):
        deliver_due(services.sessions, KilledAfterDelivering(maildir), clock())
    assert [row.status for row in rows(services)] == ["sending"] * 3  # leased, nothing recorded
    report = deliver_due(services.sessions, maildir, clock.advance(minutes=6))
    assert report.sent == 3
    ids = sorted(str(m["Message-ID"]) for m in mailbox.Maildir(tmp_path / "md"))
    assert ids == sorted(row.message_id for row in rows(services))  # p0 handed over twice, stored once


@pytest.mark.parametrize(("message_id", "expected"), [
    ("<0123abcd@gm.test>", "0123abcd@gm.test"),
    ("<a:b/c@gm.test>", None),     # ":" starts a Maildir file's flags, "/" a directory
    ("<.hidden@gm.test>", None),   # a leading "." hides a file from Maildir readers
    ("<" + "x" * 400 + "@gm.test>", None),
])
def test_maildir_names_are_safe(message_id: str, expected: str | None) -> None:
    name = maildir_name(message_id)
    if expected is not None:
        assert name == expected
    assert ":" not in name and "/" not in name and not name.startswith(".") and len(name) < 200


def test_ids_that_differ_only_in_unsafe_characters_get_different_names() -> None:
    names = {maildir_name(m) for m in ("<a:b@gm.test>", "<a/b@gm.test>", "<a_b@gm.test>", "<a b@gm.test>")}
    assert len(names) == 4


# -- SMTP: the relay's 250, then our commit, then anything else ----------------------------


class RecordingRelay:
    """aiosmtpd handler: accepts everything, recording each Message-ID, and at each QUIT what
    the outbox said about the messages of that session at that moment."""

    def __init__(self, services) -> None:
        self.services = services
        self.accepted: list[str] = []
        self.status_at_quit: list[str] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        message = email.message_from_bytes(envelope.content)
        self.accepted.append(str(message["Message-ID"]))
        session.message_id = str(message["Message-ID"])
        return "250 OK"

    async def handle_QUIT(self, server, session, envelope) -> str:
        if getattr(session, "message_id", None):
            with transaction(self.services.sessions) as db:
                self.status_at_quit.append(db.scalar(
                    select(OutboxMessage.status).where(OutboxMessage.message_id == session.message_id)))
        return "221 Bye"


@contextmanager
def recording_relay(services) -> Iterator[tuple[SmtpTransport, RecordingRelay]]:
    handler = RecordingRelay(services)
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield SmtpTransport(SmtpRelayConfig(host="127.0.0.1", port=controller.port, timeout=5)), handler
    finally:
        controller.stop()


def test_each_message_is_recorded_sent_before_its_session_is_quit(database_url, clock) -> None:
    services = services_for(database_url)
    for n in range(3):
        enqueue(services, clock(), f"p{n}@players.test", f"k{n}")
    with recording_relay(services) as (transport, relay):
        assert deliver_due(services.sessions, transport, clock()).sent == 3
    assert relay.status_at_quit == ["sent", "sent", "sent"]
    assert relay.accepted == [row.message_id for row in rows(services)]


def test_a_kill_after_the_relays_250_resends_the_same_message_id(database_url, clock) -> None:
    """What no protocol step can close (RFC 1047): the relay took the message, we died before
    recording it. The resend after the lease is the same message, so readers fold the two."""
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    with recording_relay(services) as (transport, relay):
        with pytest.raises(SenderKilled):
            deliver_due(services.sessions, KilledAfterDelivering(transport), clock())
        transport._delivered = None  # the killed process's session died with it
        assert deliver_due(services.sessions, transport, clock.advance(minutes=4)).attempted == 0  # leased
        assert deliver_due(services.sessions, transport, clock.advance(minutes=2)).sent == 1
    [row] = rows(services)
    assert relay.accepted == [row.message_id, row.message_id]
    assert (row.status, row.attempts) == ("sent", 2)


def test_a_database_hiccup_after_the_250_does_not_resend(database_url, clock, monkeypatch) -> None:
    """Recording "sent" is tried again at once: a failure left standing would mean a resend."""
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    monkeypatch.setattr(outbox_service, "pause", lambda seconds: None)
    failures = [2]  # the first two tries to record the delivery fail

    def fail_recording(conn, cursor, statement, parameters, context, executemany) -> None:
        if failures[0] and "status" in statement and "sent_at" in statement and statement.startswith("UPDATE"):
            failures[0] -= 1
            raise OperationalError(statement, parameters, Exception("server closed the connection"))

    engine = services.sessions.kw["bind"]
    event.listen(engine, "before_cursor_execute", fail_recording)
    with recording_relay(services) as (transport, relay):
        assert deliver_due(services.sessions, transport, clock()).sent == 1
    [row] = rows(services)
    assert failures == [0] and row.status == "sent" and relay.accepted == [row.message_id]


class OrderedRelay(RecordingRelay):
    """Also writes "250" into `events` as it answers DATA, beside the database's statements."""

    def __init__(self, services, events: list[str]) -> None:
        super().__init__(services)
        self.events = events

    async def handle_DATA(self, server, session, envelope) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        self.events.append("250")
        return answer


def test_after_the_relays_250_only_the_commit_of_the_sent_mark_is_left(database_url, clock) -> None:
    """The narrowest window SMTP allows: the "sent" mark is written once the relay has said 354
    and before the message's last line goes out, so nothing but its COMMIT follows the 250 (it
    was a new transaction: BEGIN, on SQLite a wait for the write lock, the UPDATE, the COMMIT)."""
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    events: list[str] = []
    engine = services.sessions.kw["bind"]
    event.listen(engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: events.append(" ".join(statement.split()[:2])))
    event.listen(engine, "commit", lambda conn: events.append("COMMIT"))
    handler = OrderedRelay(services, events)
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        transport = SmtpTransport(SmtpRelayConfig(host="127.0.0.1", port=controller.port, timeout=5))
        assert deliver_due(services.sessions, transport, clock()).sent == 1
    finally:
        controller.stop()
    after = events[events.index("250") + 1:]
    assert after[:1] == ["COMMIT"], events
    assert events[:events.index("250")][-1] == "UPDATE outbox", events  # the mark, written and not committed
    [row] = rows(services)
    assert row.status == "sent" and handler.accepted == [row.message_id]


def test_a_relay_refusing_the_message_leaves_no_sent_mark(database_url, clock) -> None:
    """The mark written ahead is rolled back when DATA is refused: the row is retried."""
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")

    class Refusing:
        async def handle_DATA(self, server, session, envelope) -> str:
            return "451 4.3.0 try again later"

    controller = Controller(Refusing(), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        transport = SmtpTransport(SmtpRelayConfig(host="127.0.0.1", port=controller.port, timeout=5))
        assert deliver_due(services.sessions, transport, clock()).retrying == 1
    finally:
        controller.stop()
    [row] = rows(services)
    assert (row.status, row.sent_at, row.attempts) == ("pending", None, 1)


def test_the_soaks_relay_counter_sees_a_copy_a_kill_made(database_url, clock) -> None:
    """The soak's delivery check can fail: a kill between the relay's 250 and the outbox's commit
    makes a second copy at a real relay (tests/support/smtp_relay), which the soak counts as an
    extra copy and, with no kill to account for it, reports as broken."""
    services = services_for(database_url)
    enqueue(services, clock(), "p@players.test", "k")
    with SmtpRelay() as relay:
        transport = SmtpTransport(SmtpRelayConfig(host=relay.host, port=relay.port, timeout=5))
        with pytest.raises(SenderKilled):
            deliver_due(services.sessions, KilledAfterDelivering(transport), clock())
        transport._delivered = None  # the killed process's session died with it
        assert deliver_due(services.sessions, transport, clock.advance(minutes=6)).sent == 1
        relayed = [message.raw for message in relay.messages]
    outbox_rows = [(row.message_id, row.kind, row.status) for row in rows(services)]
    columns = ("message_id", "kind", "status")
    outbox_rows = [dict(zip(columns, values, strict=False)) for values in outbox_rows]

    def checked(kills: int) -> common.Report:
        report = common.Report("relay")
        soak.delivery_checks(report, [SimpleNamespace(**row) for row in outbox_rows], relayed, kills=kills)
        return report

    after_a_kill, without_one = checked(kills=1), checked(kills=0)
    assert after_a_kill.figures["delivered twice at the relay (same Message-ID), extra copies"] == 1
    assert after_a_kill.figures["extra copies by kind"] == {"confirmation": 1}
    assert after_a_kill.broken == []
    assert without_one.broken == ["at most one extra copy at the relay per kill"]
