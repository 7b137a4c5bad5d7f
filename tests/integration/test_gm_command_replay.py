"""A GM command mail is carried out once: a copy sent again with a new Message-ID is refused with
the reason, and so is a mail with no Date or an old one. Over the built-in SMTP listener, on both
databases."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import Game
from gmserver.db.session import transaction
from tests.support.intake_rows import outbox_rows, plain_text, through_listener
from tests.support.world import GM, new_game, order_mail, services_for

pytestmark = pytest.mark.integration


def _game(services) -> tuple[str, object]:
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game).where(Game.name == "lepanto"))
        return game.gm_secret, game.deadline


def _answer(services) -> str:
    return " ".join(plain_text(outbox_rows(services, "notice")[-1]).split())


def test_extend_24_sent_again_with_a_new_message_id_extends_once(database_url, clock) -> None:
    """The finding: `extend 24` re-sent with a new Message-ID extended the deadline twice."""
    services = services_for(database_url)
    new_game(services, clock())
    secret, deadline = _game(services)
    sent_at = clock()
    first = order_mail(GM, "lepanto", f"extend 24\nPassword: {secret}", date=sent_at)
    assert through_listener(services, first, clock(), sender=GM, recipients=[GM]).outcome == "command-done"
    assert _game(services)[1] == deadline + timedelta(hours=24)

    clock.advance(minutes=30)
    copy = order_mail(GM, "lepanto", f"extend 24\nPassword: {secret}", date=sent_at)  # a new Message-ID
    assert through_listener(services, copy, clock(), sender=GM, recipients=[GM]).outcome == "command-held"
    assert _game(services)[1] == deadline + timedelta(hours=24)
    assert "not carried out again: the same command, in a mail with the same Date" in _answer(services)

    # the GM writing it again is a new mail: carried out
    again = order_mail(GM, "lepanto", f"extend 24\nPassword: {secret}", date=clock())
    assert through_listener(services, again, clock(), sender=GM, recipients=[GM]).outcome == "command-done"
    assert _game(services)[1] == deadline + timedelta(hours=48)


@pytest.mark.parametrize("dated, why", [
    (None, "must carry a readable Date line"),
    (-timedelta(days=2), "more than 24 hours before it arrived"),
    (timedelta(hours=3), "ahead of the server's clock"),
])
def test_a_gm_command_mail_without_a_recent_date_is_not_carried_out(database_url, clock, dated, why) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    secret, deadline = _game(services)
    raw = order_mail(GM, "lepanto", f"extend 24\nPassword: {secret}",
                     date=None if dated is None else clock() + dated)
    assert through_listener(services, raw, clock(), sender=GM, recipients=[GM]).outcome == "command-held"
    assert _game(services)[1] == deadline
    assert why in _answer(services)
