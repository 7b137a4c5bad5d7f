"""Issue 7's acceptance over real IMAP: a GM command, a press paragraph and a status request
mailed to a game each reach their own handler (the row records the kind) and get their plain
answer; an order mail still files a set; nothing is dropped (every message stored, \\Seen)."""

from __future__ import annotations

import email
import email.policy

import pytest
from imapclient import IMAPClient
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.polling import poll_once
from tests.support.dovecot import Dovecot, MailUser
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration




def append(dovecot: Dovecot, user: MailUser, messages: list[bytes]) -> None:
    with IMAPClient(dovecot.host, dovecot.imap_port, ssl=False, timeout=30) as client:
        client.login(user.address, user.password)
        for raw in messages:
            client.append("INBOX", raw)


def text(row: OutboxMessage) -> str:
    return " ".join(email.message_from_bytes(row.raw, policy=email.policy.default).get_content().split())


def test_each_kind_of_mail_reaches_its_handler_over_imap(database_url, dovecot, mail_user, mailbox, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    orders_subject = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M",
                                    purpose="orders")
    mails = {
        "command": order_mail(GM, "lepanto", "PROCESS"),
        "press": order_mail(player_address("ENGLAND"), "lepanto",
                            "PRESS\nThe Channel is ours, and France knows it.\nEND PRESS"),
        "request": order_mail(player_address("ITALY"), "lepanto", "STATUS"),
        "orders": order_mail(player_address("FRANCE"), orders_subject, "A PAR - BUR"),
    }
    append(dovecot, mail_user, list(mails.values()))

    report = poll_once(services, mailbox, clock)

    assert (report.fetched, report.new, report.processed) == (4, 4, 4)
    assert all(b"\\Seen" in flags for _, flags, _ in dovecot.messages(mail_user.address))
    with transaction(services.sessions) as session:
        rows = {row.kind: (row.status, row.outcome) for row in session.scalars(select(InboundMessage))}
        answers = {row.recipient: (row.kind, text(row)) for row in session.scalars(select(OutboxMessage))}
        filed = [(s.power, s.orders) for s in session.scalars(select(OrderSet))]
    assert rows == {"command": ("done", "command-held"), "press": ("done", "press-held"),
                    "request": ("done", "request-held"), "orders": ("done", "accepted")}
    assert filed == [("FRANCE", ["A PAR - BUR"])]
    assert answers[GM][0] == "notice" and "GM commands by mail are not carried out yet" in answers[GM][1]
    assert "gmserver adjudicate lepanto" in answers[GM][1]
    assert "Press is not forwarded in this game yet: your message was kept for the GM" in \
        answers[player_address("ENGLAND")][1]
    assert "Status requests are not answered by mail yet" in answers[player_address("ITALY")][1]
    assert answers[player_address("FRANCE")][0] == "confirmation"
