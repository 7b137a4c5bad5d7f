"""The SMTP envelope through the real listener (aiosmtpd) and the daemon's wiring into the
database: a bounce sent with MAIL FROM:<> is stored with envelope_from "" and never answered
(an answer could start a mail loop with an autoresponder or reach a forged sender)."""

from __future__ import annotations

import smtplib
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from gmserver.config import Config, ListenerConfig
from gmserver.daemon import Daemon
from gmserver.db.models import InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from tests.support.dovecot import free_port
from tests.support.intake_rows import without_headers
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def wait_until_processed(services, count: int) -> list[InboundMessage]:
    """Polls the database until `count` messages are processed (or 20 s pass): a wait, not a timing."""
    deadline = time.monotonic() + 20
    while True:
        with transaction(services.sessions) as session:
            rows = list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))
            session.expunge_all()
        if sum(row.status == "done" for row in rows) >= count or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)


def test_a_bounce_through_the_real_listener_is_stored_with_its_envelope_and_never_answered(
        database_url, tmp_path) -> None:
    services = services_for(database_url)
    # the daemon runs on the real clock (its scheduler skips jobs due in the past)
    new_game(services, datetime.now(UTC))
    config = Config(database_url=database_url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                    maildir_path=str(tmp_path / "maildir"))
    daemon = Daemon(config, services=services)
    germany = player_address("GERMANY")
    # what a mail server sends back when our confirmation could not be delivered: the headers
    # name the player (a quoted copy), only the null envelope sender says it is a bounce
    bounce = order_mail(germany, "lepanto Germany S1901M", "Delivery failed: mailbox full.")
    orders = order_mail(germany, "lepanto Germany S1901M", "A BER - KIE\n")
    daemon.start()
    try:
        with smtplib.SMTP("127.0.0.1", config.listener.port, timeout=10) as client:
            assert client.sendmail("", [GM], bounce) == {}  # smtplib writes MAIL FROM:<>
            assert client.sendmail(germany, [GM], orders) == {}
        rows = wait_until_processed(services, 2)
    finally:
        daemon.stop()
    assert [(row.envelope_from, row.envelope_to, row.outcome) for row in rows] == [
        ("", [GM], "ignored"), (germany, [GM], "accepted")]
    with transaction(services.sessions) as session:
        # besides the GM's notice that this game's senders are not verified (sent once per game)
        assert [row.kind for row in session.scalars(select(OutboxMessage)) if row.kind != "alert"] == ["confirmation"]


def test_without_a_message_id_a_set_sent_again_through_the_listener_is_filed(database_url, tmp_path) -> None:
    """A CON H, A CON - BUL, A CON H through the daemon's listener from a mail program that writes
    no Message-ID nor Date: three SMTP transactions are three messages, none dropped as a
    duplicate, and the set on file is the last one sent."""
    services = services_for(database_url)
    new_game(services, datetime.now(UTC))
    config = Config(database_url=database_url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                    maildir_path=str(tmp_path / "maildir"))
    daemon = Daemon(config, services=services)
    turkey = player_address("TURKEY")
    daemon.start()
    try:
        with smtplib.SMTP("127.0.0.1", config.listener.port, timeout=10) as client:
            for orders in ("A CON H", "A CON - BUL", "A CON H"):
                raw = without_headers(order_mail(turkey, "lepanto Turkey S1901M", orders), b"Message-ID:")
                assert client.sendmail(turkey, [GM], raw) == {}
        rows = wait_until_processed(services, 3)
    finally:
        daemon.stop()
    assert [row.outcome for row in rows] == ["accepted"] * 3
    with transaction(services.sessions) as session:
        latest = session.scalars(select(OrderSet).order_by(OrderSet.version.desc())).first()
        assert (latest.version, latest.orders) == (3, ["A CON H"])


def test_the_listener_hands_over_the_envelope(clock) -> None:
    from gmserver.mail.listener import Listener

    received = []
    listener = Listener("127.0.0.1", free_port(), "lmtp", lambda raw, envelope: received.append(envelope),
                        accepted_recipients={GM})
    listener.start()
    try:
        with smtplib.LMTP("127.0.0.1", listener.port, timeout=10) as client:
            client.sendmail("", [GM], b"Subject: bounce\r\n\r\nfailed\r\n")
            client.sendmail("Someone@Players.test", [GM], b"Subject: x\r\n\r\nhi\r\n")
    finally:
        listener.stop()
    assert [(e.mail_from, e.rcpt_tos) for e in received] == [("", (GM,)), ("Someone@Players.test", (GM,))]


def test_store_keeps_the_envelope(database_url, clock) -> None:
    services = services_for(database_url)
    stored = intake.store(services.sessions, b"Subject: x\r\n\r\nhi\r\n", source="lmtp", now=clock(),
                          envelope_from="", envelope_to=(GM,))
    with transaction(services.sessions) as session:
        row = session.get(InboundMessage, stored.id)
        assert (row.envelope_from, row.envelope_to) == ("", [GM])
