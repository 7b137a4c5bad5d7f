"""`ADDRESS new@...` (003 [4], address_change = from_known_address) changes nothing until the new
address answers a mail carrying a one-time token; the old address is told and may cancel; on the
change every secret of the player is new. Over the built-in SMTP listener, on both databases."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, Player
from gmserver.db.session import transaction
from gmserver.services.base.gm_mail import queue_start_mails
from tests.support.intake_rows import outbox_rows, plain_text, player_reply_address, through_listener
from tests.support.world import new_game, order_mail, password_of, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")
ATTACKER = "attacker@evil.test"
NEW = "marianne@players.test"


def _verified_game(database_url, clock):
    services = services_for(database_url)
    game_id = new_game(services, clock(), sender_check="verified")
    with transaction(services.sessions) as session:  # as `game create` does
        queue_start_mails(session, services, session.get(Game, game_id), clock())
    return services


def _send(services, clock, sender: str, to: str, body: str, subject: str = "Re: lepanto"):
    raw = order_mail(sender, subject, body).replace(b"To: gm@gm.test", f"To: {to}".encode())
    return through_listener(services, raw, clock(), sender=sender, recipients=[to])


def _reply_to(row) -> str:
    return email.message_from_bytes(row.raw, policy=email.policy.default)["Reply-To"].addresses[0].addr_spec


def _checks(services, recipient: str):
    return [row for row in outbox_rows(services, "address-check") if row.recipient == recipient]


def _address(services) -> tuple[str, str]:
    with transaction(services.sessions) as session:
        return session.execute(select(Player.address, Player.secret).where(Player.power == "FRANCE")).one()


def test_a_stranger_with_frances_reply_to_cannot_take_over_the_account(database_url, clock) -> None:
    """The attack: a stranger who saw one of France's mails sends `ADDRESS attacker@...` to its
    Reply-To, From France. The address used to change at once; now nothing changes, the attacker's
    address gets a confirmation mail, and France, told at the registered address, cancels it."""
    services = _verified_game(database_url, clock)
    leaked = player_reply_address(services, "FRANCE")
    before = _address(services)

    asked = _send(services, clock, FRANCE, leaked, f"ADDRESS {ATTACKER}")
    assert asked.outcome == "address-pending"
    assert _address(services) == before
    [to_attacker] = _checks(services, ATTACKER)
    [to_france] = _checks(services, FRANCE)
    assert "reply to this mail from this address" in " ".join(plain_text(to_attacker).split())
    assert "reply to this mail with the word CANCEL" in " ".join(plain_text(to_france).split())

    cancelled = _send(services, clock, FRANCE, _reply_to(to_france), "CANCEL\n")
    assert cancelled.outcome == "address-cancelled"
    # the attacker confirms too late: the request is gone, and the mail is a stranger's
    late = _send(services, clock, ATTACKER, _reply_to(to_attacker), "yes")
    assert late.outcome != "address-changed"
    assert _address(services) == before


def test_the_new_address_confirms_and_every_secret_of_the_player_is_new(database_url, clock) -> None:
    services = _verified_game(database_url, clock)
    old_reply, old_password = player_reply_address(services, "FRANCE"), password_of(services, "FRANCE")
    assert _send(services, clock, FRANCE, old_reply, f"ADDRESS {NEW}").outcome == "address-pending"
    [confirmation] = _checks(services, NEW)
    token_address = _reply_to(confirmation)
    assert old_password not in token_address and token_address != old_reply

    # the token alone is not enough: it must come back from the address it was sent to
    assert _send(services, clock, ATTACKER, token_address, "yes").outcome != "address-changed"
    assert _send(services, clock, NEW, token_address, "yes, that is me").outcome == "address-changed"
    address, password = _address(services)
    assert address == NEW and password != old_password
    [start] = [row for row in outbox_rows(services, "start") if row.recipient == NEW]
    assert f"Password: {password}" in plain_text(start)  # the new password, at the new address only
    # what the old address saw opens nothing any more: neither its reply address nor its password
    subject = "lepanto France S1901M"
    assert _send(services, clock, NEW, old_reply, "A PAR - BUR\n", subject).outcome == "unverified"
    assert _send(services, clock, NEW, "gm@gm.test", f"A PAR - BUR\nPassword: {old_password}\n",
                 subject).outcome == "unverified"
    assert _send(services, clock, NEW, player_reply_address(services, "FRANCE"), "A PAR - BUR\n",
                 subject).outcome == "accepted"
    # and the one-time token is spent
    assert _send(services, clock, NEW, token_address, "again").outcome != "address-changed"


def test_the_old_address_undoes_a_change_the_attacker_confirmed_first(database_url, clock) -> None:
    """An attacker who asks and confirms at once is quicker than the player: the player's CANCEL
    to the mail at the registered address still undoes the change, with new secrets again, so
    the attacker holds nothing."""
    services = _verified_game(database_url, clock)
    leaked = player_reply_address(services, "FRANCE")
    assert _send(services, clock, FRANCE, leaked, f"ADDRESS {ATTACKER}").outcome == "address-pending"
    [to_attacker], [to_france] = _checks(services, ATTACKER), _checks(services, FRANCE)
    assert _send(services, clock, ATTACKER, _reply_to(to_attacker), "yes").outcome == "address-changed"
    taken_over = _address(services)
    assert taken_over[0] == ATTACKER

    clock.advance(hours=5)
    assert _send(services, clock, FRANCE, _reply_to(to_france), "CANCEL! not me").outcome == "address-undone"
    address, password = _address(services)
    assert address == FRANCE and password != taken_over[1]
    start = [row for row in outbox_rows(services, "start") if row.recipient == FRANCE][-1]
    assert f"Password: {password}" in plain_text(start)
    assert not any(password in plain_text(row) for row in outbox_rows(services) if row.recipient == ATTACKER)
