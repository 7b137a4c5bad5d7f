"""Over IMAP there is no RCPT TO: a message sent to a player's reply address is known by the
headers the receiving server adds (Dovecot writes `Delivered-To: gm+SECRET@...`). Real Dovecot:
LMTP delivery to gm+SECRET@, poll over IMAP."""

from __future__ import annotations

import smtplib

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OrderSet
from gmserver.db.session import transaction
from gmserver.mail.dkim import offline_lookup
from gmserver.mail.imap import ImapMailbox
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import SenderChecks
from gmserver.services.inbox.polling import poll_once
from tests.support.dovecot import Dovecot, MailUser
from tests.support.intake_rows import player_reply_address
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

SUBJECT = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")




def test_a_message_delivered_to_the_reply_address_proves_its_sender_over_imap(
        database_url, dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox, clock) -> None:
    gm = mail_user.address  # the GM mailbox gmserver reads
    services = services_for(database_url, gm_address=gm, sender_checks=SenderChecks(dkim_lookup=offline_lookup))
    new_game(services, clock(), sender_check="verified")
    # both messages say To: the plain GM address; only the envelope differs
    reply = order_mail(player_address("FRANCE"), SUBJECT, "A PAR - BUR\n").replace(b"gm@gm.test", gm.encode())
    spoof = order_mail(player_address("FRANCE"), SUBJECT, "A PAR - PIC\n").replace(b"gm@gm.test", gm.encode())
    with smtplib.LMTP(dovecot.host, dovecot.lmtp_port, timeout=10) as client:
        client.sendmail(player_address("FRANCE"), [player_reply_address(services, "FRANCE")], reply)
        client.sendmail("evil@attacker.test", [gm], spoof)

    poll_once(services, mailbox, clock)

    with transaction(services.sessions) as session:
        outcomes = [(row.outcome, b"A PAR - BUR" in row.raw) for row in
                    session.scalars(select(InboundMessage).order_by(InboundMessage.id))]
        orders = [s.orders for s in session.scalars(select(OrderSet))]
    assert outcomes == [("accepted", True), ("unverified", False)]
    assert orders == [["A PAR - BUR"]]
