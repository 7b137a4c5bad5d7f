"""Over real IMAP: a GM command, a press paragraph and a status request
mailed to a game each reach their own handler (the row records the kind) and get their plain
answer; an order mail still files a set; nothing is dropped (every message stored, \\Seen).
A GM command by mail is carried out only with the game's GM secret."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

import pytest
from imapclient import IMAPClient
from sqlalchemy import select

from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.game.games import POWERS
from gmserver.services.inbox.polling import poll_once
from tests.support.dovecot import Dovecot, MailUser
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration




def append(dovecot: Dovecot, user: MailUser, messages: list[bytes]) -> None:
    with IMAPClient(dovecot.host, dovecot.imap_port, ssl=False, timeout=30) as client:
        client.login(user.address, user.password)
        for raw in messages:
            client.append("INBOX", raw)


def text(row: OutboxMessage) -> str:
    return " ".join(email.message_from_bytes(row.raw, policy=email.policy.default).get_body(("plain",)).get_content().split())


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
    assert rows == {"command": ("done", "command-held"), "press": ("done", "press-filed"),
                    "request": ("done", "status-sent"), "orders": ("done", "accepted")}
    assert filed == [("FRANCE", ["A PAR - BUR"])]
    assert answers[GM][0] == "notice"
    assert "Not done: not carried out by mail yet; the command line does it: gmserver adjudicate lepanto" in \
        answers[GM][1]
    assert "White press will be published signed England with the turn report" in \
        answers[player_address("ENGLAND")][1]
    assert "The status of lepanto." in answers[player_address("ITALY")][1]
    assert answers[player_address("FRANCE")][0] == "confirmation"


def test_a_gm_command_by_mail_over_imap_moves_the_deadline(database_url, dovecot, mail_user, mailbox, clock) -> None:
    """The GM mails `deadline ISO-TIME` with the game's GM secret (gm_command_auth); the deadline
    moves, the players are told and the GM gets the results. The same command without the secret,
    sent first, does nothing."""
    services = services_for(database_url)
    game_id = new_game(services, clock())
    with transaction(services.sessions) as session:
        secret = session.get(Game, game_id).gm_secret
    later = clock() + timedelta(days=6)
    append(dovecot, mail_user, [
        order_mail(GM, "lepanto", f"deadline {later.isoformat()}"),
        order_mail(GM, "Re: lepanto", f"deadline {later.isoformat()}\n\nPassword: {secret}\n-- \nGarry",
                   date=clock()),
    ])

    report = poll_once(services, mailbox, clock)

    assert (report.fetched, report.processed) == (2, 2)
    with transaction(services.sessions) as session:
        outcomes = [row.outcome for row in session.scalars(select(InboundMessage).order_by(InboundMessage.id))]
        game = session.get(Game, game_id)
        announced = sorted(row.recipient for row in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "gm-action")))
        answers = [text(row) for row in session.scalars(select(OutboxMessage).where(OutboxMessage.recipient == GM)
                                                        .order_by(OutboxMessage.id))]
        assert (outcomes, game.deadline) == (["command-refused", "command-done"], later)
    assert announced == sorted(player_address(power) for power in POWERS)
    assert "Nothing was done: a GM command must carry the game's GM secret" in answers[0]
    assert "Done: the deadline of Spring 1901 Movement is extended" in answers[1]


def test_requests_by_mail_over_imap_are_answered_to_each_asker_only(database_url, dovecot, mail_user, mailbox,
                                                                     clock) -> None:
    """STATUS, HISTORY, MAP, RULES and ORDERS fetched over real IMAP; each answer is a
    reply in the asker's thread, to the asker alone, and ORDERS shows the asker's own set only."""
    services = services_for(database_url)
    new_game(services, clock())
    orders_subject = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M",
                                    purpose="orders")
    append(dovecot, mail_user, [order_mail(player_address("FRANCE"), orders_subject, "A PAR - BUR",
                                           message_id="<orders-france@players.test>")])
    poll_once(services, mailbox, clock)
    asks = {"ITALY": "STATUS", "GERMANY": "HISTORY", "ENGLAND": "MAP", "TURKEY": "RULES", "FRANCE": "ORDERS",
            "RUSSIA": "ORDERS"}
    append(dovecot, mail_user, [order_mail(player_address(power), "lepanto", word,
                                           message_id=f"<{word.lower()}-{power.lower()}@players.test>")
                                for power, word in asks.items()])

    report = poll_once(services, mailbox, clock)

    assert (report.new, report.processed) == (6, 6)
    with transaction(services.sessions) as session:
        outcomes = {row.power: row.outcome for row in session.scalars(select(InboundMessage))
                    if row.kind == "request"}
        answers = {row.recipient: row for row in session.scalars(select(OutboxMessage))
                   if row.kind == "notice"}
    assert outcomes == {"ITALY": "status-sent", "GERMANY": "history-sent", "ENGLAND": "map-sent",
                        "TURKEY": "rules-sent", "FRANCE": "orders-sent", "RUSSIA": "orders-sent"}
    assert set(answers) == {player_address(power) for power in asks}  # one answer each, to the asker
    for power, word in asks.items():
        message = email.message_from_bytes(answers[player_address(power)].raw, policy=email.policy.default)
        assert message["To"] == player_address(power)
        assert message["In-Reply-To"] == f"<{word.lower()}-{power.lower()}@players.test>"
    assert "Orders received from: France." in text(answers[player_address("ITALY")])
    assert "lepanto has no adjudicated phase yet." in text(answers[player_address("GERMANY")])
    assert "A Liverpool (LVP)" in text(answers[player_address("ENGLAND")])
    assert "A Paris -> Burgundy (A PAR - BUR)" in text(answers[player_address("FRANCE")])
    assert "BUR" not in text(answers[player_address("RUSSIA")])  # never another power's orders
    assert "BUR" not in text(answers[player_address("ITALY")])
