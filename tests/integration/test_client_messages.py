"""Whole messages as the major mail clients write them
(tests/data/clients, reconstructions written by hand) appended to a real Dovecot mailbox and
read by the polling path; each files exactly the orders its hand-written expectation lists --
no quoted old order and no quoted copy of gmserver's own mail comes back."""

from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from imapclient import IMAPClient
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OrderSet
from gmserver.db.session import transaction
from gmserver.services.inbox.polling import poll_once
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration

CLIENTS = Path(__file__).resolve().parents[1] / "data" / "clients"
EXPECTED = {name: case for name, case in json.loads((CLIENTS / "expected.json").read_text()).items()
            if name.endswith(".eml")}


def test_every_client_message_is_covered_by_an_expectation() -> None:
    assert sorted(path.name for path in CLIENTS.glob("*.eml")) == sorted(EXPECTED)


def test_client_messages_over_imap_file_only_the_new_orders(database_url, dovecot, mail_user, mailbox, clock) -> None:
    services = services_for(database_url, gm_address="gm@gm.test")
    new_game(services, clock())
    with IMAPClient(dovecot.host, dovecot.imap_port, ssl=False, timeout=30) as client:
        client.login(mail_user.address, mail_user.password)
        for name in sorted(EXPECTED):
            raw = (CLIENTS / name).read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            client.append("INBOX", raw)

    report = poll_once(services, mailbox, clock)

    assert (report.fetched, report.new, report.processed) == (len(EXPECTED), len(EXPECTED), len(EXPECTED))
    with transaction(services.sessions) as session:
        outcomes = [(row.status, row.outcome) for row in session.scalars(select(InboundMessage))]
        # each message's own set (several messages come from one power), found by its Message-ID
        filed = {message_id: (power, sorted(orders)) for message_id, power, orders in session.execute(
            select(InboundMessage.message_id, OrderSet.power, OrderSet.orders)
            .join(OrderSet, OrderSet.inbound_id == InboundMessage.id))}
    assert outcomes == [("done", "accepted")] * len(EXPECTED)
    assert filed == {_message_id(name): (case["power"], sorted(case["orders"])) for name, case in EXPECTED.items()}


def _message_id(name: str) -> str:
    message = BytesParser(policy=policy.default).parsebytes((CLIENTS / name).read_bytes(), headersonly=True)
    return str(message["Message-ID"]).strip()
