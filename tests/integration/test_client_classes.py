"""The kinds of mail a careful human GM reads (tests/data/clients/classes, whole messages written
by hand as Gmail, Outlook, Thunderbird and iPhone Mail send them): a forward of the player's own
orders and of someone else's mail, orders in an attached text file, orders written as sentences
(wrapped by the client), a polite closing, a signature with no "-- " line, press whose subject says
press. Appended to a real Dovecot mailbox and polled: each files the orders its hand-written
expectation lists (or none), and its answer says what its expectation says."""

from __future__ import annotations

import io
import json
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from imapclient import IMAPClient
from sqlalchemy import select

from gmserver.cli import main
from gmserver.db.models import InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.services.inbox.polling import poll_once
from tests.support.outgoing import parsed_mail, plain
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration

CLASSES = Path(__file__).resolve().parents[1] / "data" / "clients" / "classes"
TRAFALGAR = Position.from_json({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A BUR", "F MAO"], "GERMANY": ["A MUN"]},
                                "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]}})
EXPECTED = {name: case for name, case in json.loads((CLASSES / "expected.json").read_text()).items()
            if name.endswith(".eml")}


def test_every_class_message_is_covered_by_an_expectation() -> None:
    assert sorted(path.name for path in CLASSES.glob("*.eml")) == sorted(EXPECTED)


def test_class_messages_over_imap_file_the_orders_and_say_what_was_not_read(
        database_url, dovecot, mail_user, mailbox, clock) -> None:
    services = services_for(database_url, gm_address="gm@gm.test")
    new_game(services, clock())
    new_game(services, clock(), name="trafalgar", position=TRAFALGAR)  # the same seven players
    with IMAPClient(dovecot.host, dovecot.imap_port, ssl=False, timeout=30) as client:
        client.login(mail_user.address, mail_user.password)
        for name in sorted(EXPECTED):
            client.append("INBOX", (CLASSES / name).read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    report = poll_once(services, mailbox, clock)

    assert (report.fetched, report.processed) == (len(EXPECTED), len(EXPECTED))
    with transaction(services.sessions) as session:
        kinds = {row.message_id: row.kind for row in session.scalars(select(InboundMessage))}
        filed = {message_id: (power, sorted(orders)) for message_id, power, orders in session.execute(
            select(InboundMessage.message_id, OrderSet.power, OrderSet.orders)
            .join(OrderSet, OrderSet.inbound_id == InboundMessage.id))}
        answers: dict[str, str] = {}
        for row in session.scalars(select(OutboxMessage)):
            answer = parsed_mail(row.raw)
            answers[str(answer.get("In-Reply-To", "")).strip()] = plain(answer)
    for name, case in EXPECTED.items():
        message_id = _message_id(name)
        assert kinds[message_id] == case["kind"], name
        if case["orders"] is None:
            assert message_id not in filed, name
        else:
            assert filed[message_id] == (case["power"], sorted(case["orders"])), name
        for words in case["answer_says"]:
            assert words in answers.get(message_id, ""), (name, words)


def _message_id(name: str) -> str:
    message = BytesParser(policy=policy.default).parsebytes((CLASSES / name).read_bytes(), headersonly=True)
    return str(message["Message-ID"]).strip()


# every class but the other game's orders, which only intake can tell (it knows the sender's games)
@pytest.mark.parametrize("name", sorted(name for name, case in EXPECTED.items()
                                        if case["orders"] is not None or case["kind"] != "orders"))
def test_orders_read_reads_a_whole_stored_message_as_intake_does(name: str, monkeypatch, capsys) -> None:
    """`gmserver orders read` given the message as stored (headers and MIME) reads it by intake's
    path: HTML tables, forwards, attached files, sentences and press included, with the same words;
    press (by its subject) gives no order, as intake files none."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((CLASSES / name).read_bytes())))
    assert main(["orders", "read", "--power", EXPECTED[name]["power"]]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["kind"] == EXPECTED[name]["kind"]
    assert sorted(reading["set_orders"]) == sorted(EXPECTED[name]["orders"] or [])
    said = " ".join([*reading["notes"], *(line["message"] or "" for line in reading["lines"])])
    for words in EXPECTED[name]["answer_says"]:
        if "reply to this mail" not in words:  # the template's words, not the reader's
            assert words in said
