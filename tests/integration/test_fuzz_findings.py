"""Holes the fuzz run (scripts/reliability/fuzz.py) found, each cut down to the message that
shows it. Both failed before their fixes."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def test_a_message_whose_error_is_not_utf8_blocks_no_other(database_url, clock) -> None:
    """`fuzz.py --count 10000 --workers 2 --seed 1`: an address with a byte that is not UTF-8
    raises while it is read; parking it then fails too (the error text cannot be stored), so the
    message stays pending and `process_pending` raises on it every time, before the valid order
    set behind it is ever read: one 3-line message from a stranger stops all intake."""
    services = services_for(database_url)
    new_game(services, clock())
    hostile = b"From: x <st\xc3fl\xe2ranger34@\r\nSubject: hi\r\nMessage-ID: <r1@x.test>\r\n\r\nhi\r\n"
    intake.store(services.sessions, hostile, source="smtp", now=clock())
    orders = intake.store(services.sessions, order_mail(player_address("FRANCE"), "lepanto France S1901M",
                                                        "A PAR - BUR"), source="smtp", now=clock())
    intake.process_pending(services, clock())
    with transaction(services.sessions) as session:
        statuses = dict(session.execute(select(InboundMessage.id, InboundMessage.status)).all())
        outcome = session.scalar(select(InboundMessage.outcome).where(InboundMessage.id == orders.id))
    assert "pending" not in statuses.values()
    assert outcome == "accepted"


def test_every_reply_has_a_to_header_that_parses(database_url, clock) -> None:
    """`fuzz.py --count 10000 --workers 2 --seed 1`: the reply to a sender whose address is not
    plain ASCII had its To header folded without whitespace (`To: =?utf-8?b?...?=@` and then a
    line `=?utf-8?b?...?=`): a header line that is no header, and a message that does not parse."""
    services = services_for(database_url)
    new_game(services, clock())
    sender = "p\u00e9\u00e9r\u00e9@\u00e9lsewhere" + "\u00e9" * 17 + ".test"  # an internationalised address
    raw = (f"From: {sender}\r\nSubject: lepanto Turkey S1901M\r\nMessage-ID: <r2@x.test>\r\n\r\nA ANK H\r\n"
           .encode())
    stored = intake.store(services.sessions, raw, source="smtp", now=clock())
    intake.process_one(services, stored.id, clock())
    with transaction(services.sessions) as session:
        replies = [row.raw for row in session.scalars(select(OutboxMessage))]
    for reply in replies:
        head = reply.split(b"\r\n\r\n", 1)[0]
        assert all(line[:1] in (b" ", b"\t") or b":" in line for line in head.split(b"\r\n")), head
        message = email.message_from_bytes(reply, policy=email.policy.default)
        assert len(message["To"].addresses) == 1
