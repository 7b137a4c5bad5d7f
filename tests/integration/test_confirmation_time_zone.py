"""The answers to an order set say the deadline in the game's time zone, UTC beside it, as the
start mail, reminders and reports do (c0195fa did the headings; the confirmation's own
'Deadline:' line still said UTC only: QA walkthrough in America/New_York)."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from tests.support.intake_rows import deliver
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

GERMANY = player_address("GERMANY")
SUBJECT = "lepanto Germany S1901M"

# new_game: created Sunday 22 November 2026 12:00 UTC, deadline 48 hours later, Tuesday 24th
# 12:00 UTC, which is 07:00 in New York (EST, UTC-5, in November)
LOCAL = "Tuesday 24 November 2026, 07:00 EST (America/New_York)"
UTC = "Tuesday 24 November 2026, 12:00 UTC"


@pytest.fixture
def world(make_world):
    return make_world(timezone="America/New_York")


def send(world, clock, raw: bytes) -> None:
    deliver(world, raw, clock())


def answer(world, kind: str) -> str:
    with transaction(world.sessions) as session:
        (row,) = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind))
        message = email.message_from_bytes(row.raw, policy=email.policy.default)
        return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_the_confirmation_says_the_deadline_in_the_game_s_time_zone_with_utc_beside_it(world, clock) -> None:
    send(world, clock, order_mail(GERMANY, SUBJECT, "A BER - KIE\nA MUN - RUH\nF KIE - DEN\n"))
    text = answer(world, "confirmation")
    assert f"Deadline: {LOCAL}\n          {UTC}\n" in text


def test_the_orders_unchanged_answer_says_the_deadline_in_the_game_s_time_zone(world, clock) -> None:
    send(world, clock, order_mail(GERMANY, SUBJECT, "A BER - KIE\nA MUN - RUH\nF KIE - DEN\n"))
    clock.advance(minutes=5)
    send(world, clock, order_mail(GERMANY, SUBJECT, "I am away until Monday.\n\nHans\n"))
    text = answer(world, "orders-unchanged")
    assert f"Deadline: {LOCAL}\n          {UTC}\n" in text
