"""RFC 8601 section 5 at gmserver's own listener, which may face players directly: an
Authentication-Results header claiming the trusted server's authserv-id did not come from that
server unless the listener's client is that server (`[inbound.smtp] trusted_relays`)."""

from __future__ import annotations

import smtplib

import pytest

from gmserver.mail.dkim import offline_lookup
from gmserver.mail.listener import Listener
from gmserver.rules.authenticity import OBSCURED_RESULTS, obscure_claimed_results
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import SenderChecks
from gmserver.services.inbox import runner as intake
from tests.support.dovecot import free_port
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")
SUBJECT = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")
FORGED_PASS = {"Authentication-Results": "mx.gm.test; dkim=pass header.d=players.test; "
                                         "dmarc=pass header.from=players.test"}


def through_listener(database_url, clock, raw: bytes, relays: tuple[str, ...]) -> list[str]:
    services = services_for(database_url, sender_checks=SenderChecks(trusted_authserv_ids=("mx.gm.test",),
                                                                     dkim_lookup=offline_lookup))
    new_game(services, clock(), sender_check="verified")
    listener = Listener("127.0.0.1", free_port(), "smtp",
                        lambda data, envelope: intake.store(services.sessions, data, source="smtp", now=clock(),
                                                            envelope_from=envelope.mail_from,
                                                            envelope_to=envelope.rcpt_tos),
                        accepted_recipients={GM}, trusted_authserv_ids=("mx.gm.test",), trusted_relays=relays)
    listener.start()
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            assert client.sendmail("evil@attacker.test", [GM], raw) == {}
    finally:
        listener.stop()
    return [outcome for _, outcome in intake.process_pending(services, clock())]


def test_a_forged_trusted_pass_sent_straight_to_the_listener_is_not_believed(database_url, clock) -> None:
    forged = order_mail(FRANCE, SUBJECT, "F BRE - ENG\nA PAR - PIC\n", headers=FORGED_PASS)
    assert through_listener(database_url, clock, forged, relays=()) == ["unverified"]


def test_the_trusted_server_relaying_to_the_listener_is_believed(database_url, clock) -> None:
    """Its client address is in trusted_relays: its own header stands (the topmost rule still holds)."""
    mail = order_mail(FRANCE, SUBJECT, "A PAR - BUR\n", headers=FORGED_PASS)
    assert through_listener(database_url, clock, mail, relays=("127.0.0.1",)) == ["accepted"]


def test_only_the_claiming_headers_are_renamed_and_the_rest_is_kept_byte_for_byte() -> None:
    raw = (b"Authentication-Results: mx.attacker.test; dmarc=pass\r\n"
           b"authentication-results :\r\n (comment) MX.GM.TEST;\r\n dmarc=pass header.from=players.test\r\n"
           b"Subject: x\r\n\r\nAuthentication-Results: mx.gm.test; in the body\r\n")
    assert obscure_claimed_results(raw, ("mx.gm.test",)) == raw.replace(
        b"authentication-results :", OBSCURED_RESULTS + b":", 1)
    assert obscure_claimed_results(raw, ()) == raw


def test_a_received_header_by_the_trusted_server_is_renamed_when_a_player_writes_it() -> None:
    """000 VII(1): a late set's sending time is believed from the trusted server's topmost
    Received header; sent straight to the listener, that header is the sender's own."""
    stored: list[bytes] = []
    listener = Listener("127.0.0.1", free_port(), "smtp", lambda raw, _envelope: stored.append(raw),
                        accepted_recipients={GM}, trusted_receivers=("mx.gm.test",))
    forged = (b"Received: from pc by mx.gm.test; Tue, 24 Nov 2026 17:58:00 +0000\r\n"
              b"Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:57:00 +0000\r\n") + order_mail(
        FRANCE, SUBJECT, "A PAR - BUR\n")
    listener.start()
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            assert client.sendmail(FRANCE, [GM], forged) == {}
    finally:
        listener.stop()
    [raw] = stored
    assert raw.startswith(b"X-Gmserver-Unvouched-Received: from pc by mx.gm.test;")
    assert b"\r\nReceived: from pc by smtp.players.test;" in raw
