"""The built-in SMTP/LMTP listener, spoken to by real smtplib clients."""

from __future__ import annotations

import smtplib

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage
from gmserver.db.session import transaction
from gmserver.mail.listener import Listener
from gmserver.services.inbox import runner as intake
from tests.support.dovecot import free_port
from tests.support.world import GM, order_mail, services_for

pytestmark = pytest.mark.integration


@pytest.fixture
def stored() -> list[bytes]:
    return []


def start(protocol: str, store) -> Listener:
    """A listener handing `store` the raw bytes only (see start_with_envelope)."""
    return start_with_envelope(protocol, lambda raw, envelope: store(raw))


def start_with_envelope(protocol: str, store) -> Listener:
    listener = Listener("127.0.0.1", free_port(), protocol, store, accepted_recipients={GM})
    listener.start()
    return listener


def test_smtp_message_is_stored_before_the_250(stored) -> None:
    listener = start("smtp", stored.append)
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            refused = client.sendmail("fr@players.test", [GM], order_mail("fr@players.test", "s", "A PAR H"))
    finally:
        listener.stop()
    assert refused == {} and len(stored) == 1 and b"A PAR H" in stored[0]


def test_mail_for_anyone_but_the_gm_is_refused(stored) -> None:
    listener = start("smtp", stored.append)
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as error:
                client.sendmail("fr@players.test", ["someone@else.test"], b"Subject: x\r\n\r\nhi\r\n")
    finally:
        listener.stop()
    assert error.value.recipients["someone@else.test"][0] == 550 and stored == []


def test_a_storage_failure_answers_451_so_the_client_retries() -> None:
    def broken(raw: bytes) -> None:
        raise OSError("disk full")

    listener = start("smtp", broken)
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            with pytest.raises(smtplib.SMTPDataError) as error:
                client.sendmail("fr@players.test", [GM], b"Subject: x\r\n\r\nhi\r\n")
    finally:
        listener.stop()
    assert error.value.smtp_code == 451


def test_lmtp_mode(stored) -> None:
    listener = start("lmtp", stored.append)
    try:
        with smtplib.LMTP(listener.host, listener.port, timeout=10) as client:
            client.sendmail("fr@players.test", [GM], b"Subject: x\r\n\r\nhi\r\n")
    finally:
        listener.stop()
    assert len(stored) == 1


def test_listener_into_the_database(database_url, clock) -> None:
    services = services_for(database_url)
    listener = start("smtp", lambda raw: intake.store(services.sessions, raw, source="smtp", now=clock()))
    raw = order_mail("fr@players.test", "lepanto France S1901M", "A PAR H", message_id="<x1@players.test>")
    try:
        for _ in range(2):  # a client that retries after a lost 250 sends it again
            with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
                client.sendmail("fr@players.test", [GM], raw)
    finally:
        listener.stop()
    with transaction(services.sessions) as session:
        rows = session.scalars(select(InboundMessage)).all()
        assert [(r.message_id, r.source, r.status) for r in rows] == [("<x1@players.test>", "smtp", "pending")]


def test_a_port_in_use_is_a_readable_error_at_once(tmp_path) -> None:
    import socket
    import time

    from gmserver.config import Config, ListenerConfig
    from gmserver.daemon import Daemon, DaemonError

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        config = Config(database_url=f"sqlite:///{tmp_path / 'gm.db'}", listener=ListenerConfig(port=port),
                        maildir_path=str(tmp_path / "md"))
        from gmserver.db.migrate import upgrade

        upgrade(config.database_url)
        daemon = Daemon(config)
        started = time.monotonic()
        with pytest.raises(DaemonError, match=f"cannot listen for SMTP on 127.0.0.1:{port}"):
            daemon.start()
        assert time.monotonic() - started < 30  # it gave up at once, not after retries (a loaded machine's bound)
        assert not daemon.scheduler.running
        daemon.stop()  # harmless after a failed start


def test_the_listener_takes_what_intake_takes_and_refuses_more_in_the_transaction(stored) -> None:
    """One bound on a message (mail.limits.MAX_MESSAGE_BYTES): orders with a 12 MB attachment,
    which IMAP delivers and intake reads, are not refused over SMTP; one byte over the bound is
    refused with 552 before anything is stored."""
    from gmserver.rules.limits import MAX_MESSAGE_BYTES

    def sized(size: int) -> bytes:
        return b"Subject: x\r\n\r\nA PAR H\r\n" + (b"x" * 76 + b"\r\n") * (size // 78 + 1)

    big, too_big = sized(12 * 1024 * 1024), sized(MAX_MESSAGE_BYTES)
    listener = start("smtp", stored.append)
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=60) as client:
            assert client.sendmail("fr@players.test", [GM], big) == {}
        with smtplib.SMTP(listener.host, listener.port, timeout=60) as client:
            with pytest.raises(smtplib.SMTPSenderRefused) as error:
                client.sendmail("fr@players.test", [GM], too_big)
    finally:
        listener.stop()
    assert error.value.smtp_code == 552
    assert len(stored) == 1 and len(stored[0]) > 12 * 1024 * 1024
