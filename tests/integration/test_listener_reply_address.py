"""The listener takes mail for the players' reply addresses (gm+SECRET@domain), and only those."""

from __future__ import annotations

import smtplib

import pytest

from gmserver.mail.dkim import offline_lookup
from gmserver.mail.listener import Listener
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import SenderChecks
from gmserver.services.inbox import runner as intake
from tests.support.dovecot import free_port
from tests.support.intake_rows import player_reply_address
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def test_rcpt_to_a_reply_address_is_taken_and_others_refused() -> None:
    stored: list[bytes] = []
    listener = Listener("127.0.0.1", free_port(), "smtp", lambda raw, _envelope: stored.append(raw),
                        accepted_recipients={GM})
    listener.start()
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            assert client.sendmail("fr@players.test", ["GM+K3XQ7M2PA5RTW4ZD@gm.test"],
                                   b"Subject: x\r\n\r\nA PAR H\r\n") == {}
            for stranger in ("gmx@gm.test", "gm+k3xq@other.test", "gm+@gm.test", "other+k3xq@gm.test"):
                with pytest.raises(smtplib.SMTPRecipientsRefused) as error:
                    client.sendmail("fr@players.test", [stranger], b"Subject: x\r\n\r\nhi\r\n")
                assert error.value.recipients[stranger][0] == 550
    finally:
        listener.stop()
    assert len(stored) == 1 and b"A PAR H" in stored[0]


def test_a_reply_through_the_listener_is_accepted_in_a_verified_game(database_url, clock) -> None:
    """The whole way in: smtplib -> aiosmtpd -> stored -> processed. The message's headers
    name gm+SECRET (as a reply to the GM's Reply-To does), so this holds over IMAP as well."""
    services = services_for(database_url, sender_checks=SenderChecks(dkim_lookup=offline_lookup))
    new_game(services, clock(), sender_check="verified")
    reply_to = player_reply_address(services, "FRANCE")
    subject = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M",
                             purpose="orders")
    raw = order_mail(player_address("FRANCE"), subject, "A PAR - BUR\n").replace(
        f"To: {GM}".encode(), f"To: {reply_to}".encode())
    listener = Listener("127.0.0.1", free_port(), "smtp",
                        lambda data, envelope: intake.store(services.sessions, data, source="smtp", now=clock(),
                                                            envelope_from=envelope.mail_from,
                                                            envelope_to=envelope.rcpt_tos),
                        accepted_recipients={GM})
    listener.start()
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            assert client.sendmail(player_address("FRANCE"), [reply_to], raw) == {}
    finally:
        listener.stop()
    assert [outcome for _, outcome in intake.process_pending(services, clock())] == ["accepted"]
