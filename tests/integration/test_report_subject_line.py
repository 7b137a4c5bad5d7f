"""the turn report gives "the next deadline with the exact subject line to use", and each
player's copy shows that player's own subject line (with their power), in the text and the HTML,
although the report is built once for everyone."""

from __future__ import annotations

import email
import email.policy
from html import escape

import pytest
from sqlalchemy import select

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.base.outbox import message_bytes
from gmserver.services.turn import turns
from tests.support.world import new_game, player_address, services_for

pytestmark = pytest.mark.integration


def reports_by_recipient(services) -> dict[str, email.message.EmailMessage]:
    with transaction(services.sessions) as session:
        rows = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report")).all()
        return {row.recipient: email.message_from_bytes(message_bytes(row), policy=email.policy.default) for row in rows}


def parts(message) -> tuple[str, str]:
    return (message.get_body(("plain",)).get_content(), message.get_body(("html",)).get_content())


@pytest.mark.parametrize("profile, france, austria", [
    # the profiles' own subject forms, written out by hand from subject_template and the seeds:
    # standard "GAME POWER PHASE"; 000 II(2) "[game] F01: French Orders [1]"; 003 [10] "GAME - POWER - a1901"
    ("standard", "lepanto France F1901M", "lepanto Austria F1901M"),
    ("mhr", "[lepanto] F01: French Orders [1]", "[lepanto] F01: Austrian Orders [1]"),
    ("scorpion", "LEPANTO - FRANCE - a1901", "LEPANTO - AUSTRIA - a1901"),
])
def test_each_players_report_shows_their_own_subject_line(database_url, clock, profile, france, austria) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset=profile)
    turns.adjudicate(services, game_id, clock(), force=True)  # Spring 1901: nobody dislodged, Fall next
    copies = reports_by_recipient(services)
    for address, own, other in ((player_address("FRANCE"), france, austria),
                                (player_address("AUSTRIA"), austria, france)):
        text, html = parts(copies[address])
        assert f"Subject line for your orders: {own}" in text
        assert f"<code>{escape(own)}</code>" in html
        assert other not in text and other not in html
        assert "@@ORDERS-SUBJECT@@" not in text + html
