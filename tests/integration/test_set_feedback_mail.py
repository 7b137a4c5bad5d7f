"""000 III(1) through intake: the confirmation of an mhr game asks about an invalid set only when
(a) it is unusual from the player, (b) time remains, (c) it is not meant as written; and
confirm_each_set = false files a set read as written without a reply."""

from __future__ import annotations

import dataclasses
import email
import email.policy
from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services import intake
from gmserver.services.games import POWERS, GameSpec, PlayerSpec, create_game
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

INVALID_SET = "A Par - Xyz\nA Mar S A Par - Bur\nF Bre - Pic"  # line 1: 'Xyz' is no province


def _send(services, clock, template: str, game: str, sets: tuple[tuple[str, str], ...]) -> list[str]:
    """Each (marker, body) as France's order mail; the body of every confirmation, flattened."""
    base = format_subject(template=template, game_name=game, power="FRANCE", phase="S1901M", purpose="orders")
    for marker, body in sets:
        intake.store(services.sessions, order_mail(player_address("FRANCE"), f"{base} {marker}", body),
                     source="smtp", now=clock())
        intake.process_pending(services, clock())
        clock.advance(minutes=5)
    with transaction(services.sessions) as session:
        rows = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "confirmation")
                               .order_by(OutboxMessage.id))
        return [" ".join(email.message_from_bytes(row.raw, policy=email.policy.default)
                         .get_body(("plain",)).get_content().split()) for row in rows]


def test_000_III_1_an_unusual_invalid_set_is_asked_about_once(database_url, clock) -> None:
    """Set 1 is the player's first (a holds), 48 hours remain (b), nothing says "as written" (c):
    the GM asks. Set 2 is invalid again: the last sets now include an invalid one, so (a) fails and
    the reply is a receipt that says why (MATRIX 2.1: the verdicts only when the three conditions hold)."""
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    first, second = _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET), ("[2]", INVALID_SET)))
    assert "PLEASE CHECK: 1 line of this set cannot be used line 1 (A Par - Xyz)" in first
    assert "send a corrected set before" in first and "(house rules 000 III(1))" in first
    assert "PLEASE CHECK" not in second and "NOT USED" not in second
    assert "here one of your last 3 sets in this game had lines that could not be used" in second


def test_000_III_1_b_too_little_time_left(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    clock.advance(hours=40)  # 8 hours left, fewer than clarification_min_hours = 12
    (reply,) = _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET),))
    assert "PLEASE CHECK" not in reply and "here less than 12 hours remain before the deadline" in reply


def test_000_III_1_c_as_written_is_taken_at_its_word(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    (reply,) = _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET + "\nOrders as written"),))
    assert "PLEASE CHECK" not in reply and "here you said the orders are meant as written" in reply
    assert "The GM confirms receipt only" in reply


def test_confirm_each_set_false_files_a_valid_set_without_a_reply(database_url, clock) -> None:
    """A set read as written is filed (it is on file) but not confirmed; a set with a line not
    used is confirmed."""
    services = services_for(database_url)
    rules = dataclasses.replace(load_ruleset("standard"), confirm_each_set=False)
    with transaction(services.sessions) as session:
        create_game(session, GameSpec(
            name="quiet", ruleset=rules,
            players=[PlayerSpec(p, player_address(p), None) for p in POWERS],
            movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
            reminder=timedelta(hours=24), sender_check="from"), clock())
    (reply,) = _send(services, clock, "default", "quiet", (("", "A Par - Bur"), ("", INVALID_SET)))
    assert "NOT USED" in reply
    with transaction(services.sessions) as session:
        assert len(session.scalars(select(OrderSet)).all()) == 2
