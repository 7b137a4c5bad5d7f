"""The reply address is no permanent key: its token changes every turn and proves the sender for
the current turn and the one before only, and it is never the password. Over the built-in SMTP
listener, on both databases."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select

from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.turn import turns
from tests.support.intake_rows import outbox_rows, plain_text, player_reply_address, through_listener
from tests.support.world import new_game, order_mail, password_of, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")


def _subject(phase: str) -> str:
    return format_subject(template="standard", game_name="lepanto", power="FRANCE", phase=phase, purpose="orders")


def _reply_to(row) -> str:
    return email.message_from_bytes(row.raw, policy=email.policy.default)["Reply-To"].addresses[0].addr_spec


def _to(raw: bytes, address: str) -> bytes:
    return raw.replace(b"To: gm@gm.test", f"To: {address}".encode())


def test_a_leaked_reply_address_stops_proving_the_sender_after_the_turn_that_follows(database_url, clock) -> None:
    """The attack: a stranger with France's Reply-To from a mail France got (a forward, an ally in
    Cc) writes France's orders to it. In Spring 1901's start mail it still proves France's reply
    just after the deadline (Fall 1901); two turns later it is refused, and France, at the
    registered address, is told to reply to the newest mail."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), sender_check="verified")
    with transaction(services.sessions) as session:  # as `game create` does
        queue_start_mails(session, services, session.get(Game, game_id), clock())
    [start] = [row for row in outbox_rows(services, "start") if row.recipient == FRANCE]
    leaked = _reply_to(start)
    assert leaked == player_reply_address(services, "FRANCE", phase="S1901M")
    assert password_of(services, "FRANCE") not in leaked  # the password is never a header

    clock.advance(hours=48)
    turns.adjudicate(services, game_id, clock(), force=True)  # S1901M -> F1901M
    fall = through_listener(services, _to(order_mail(FRANCE, _subject("F1901M"), "A PAR - BUR\n"), leaked), clock(),
                            sender=FRANCE, recipients=[leaked])
    assert fall.outcome == "accepted"  # a reply to last turn's mail, just after its deadline

    clock.advance(hours=48)
    turns.adjudicate(services, game_id, clock(), force=True)  # F1901M -> the next turn
    with transaction(services.sessions) as session:  # a winter, or the next spring
        phase = session.scalar(select(Game.phase).where(Game.id == game_id))
    attack = through_listener(services, _to(order_mail(FRANCE, _subject(phase), "A PAR - PIC\n"), leaked), clock(),
                              sender="evil@attacker.test", recipients=[leaked])
    assert attack.outcome == "unverified"
    [warning] = [row for row in outbox_rows(services, "rejection") if row.recipient == FRANCE]
    text = " ".join(plain_text(warning).split())
    assert "reply to the newest mail from the GM" in text
    assert _reply_to(warning) == player_reply_address(services, "FRANCE") != leaked


def test_the_password_as_a_reply_address_proves_nothing_but_still_works_as_a_password_line(
        database_url, clock) -> None:
    """An existing game's players keep their old secret as their password; the old reply
    address gm+SECRET@ (every mail carried it before) no longer proves a sender."""
    services = services_for(database_url)
    new_game(services, clock(), sender_check="verified")
    password = password_of(services, "FRANCE")
    old = f"gm+{password}@gm.test"
    row = through_listener(services, _to(order_mail(FRANCE, _subject("S1901M"), "A PAR - BUR\n"), old), clock(),
                           sender=FRANCE, recipients=[old])
    assert row.outcome == "unverified"
    row = through_listener(services, order_mail(FRANCE, _subject("S1901M"), f"A PAR - BUR\nPassword: {password}\n"),
                           clock(), sender=FRANCE, recipients=["gm@gm.test"])
    assert row.outcome == "accepted"

