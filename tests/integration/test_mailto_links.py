"""Every report, reminder and confirmation to a player offers, besides "reply to this mail", the
player's own reply address (the mail's Reply-To, which carries the sender proof) and the exact
subject of the next set: to copy in the text part, as a mailto: button in a report's HTML part.
Never the bare GM address, never another player's address (an anonymous game too)."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import timedelta
from urllib.parse import quote

import pytest

from gmserver.services.base.outbox import message_bytes
from gmserver.services.features.reminders import queue_reminders
from gmserver.services.turn import turns
from tests.support.intake_rows import game_row, outbox_rows, send_orders
from tests.support.world import GM, player_address

GM_ADDRESSES = re.compile(r"gm\+[a-z2-7]{16}@[\w.]+|" + re.escape(GM))


def parsed(row):
    return email.message_from_bytes(message_bytes(row), policy=email.policy.default)


def offered(message) -> tuple[str, str]:
    """(the reply address, the message's text part, whitespace made single spaces)."""
    reply_to = message["Reply-To"].addresses[0].addr_spec
    text = " ".join(message.get_body(("plain",)).get_content().split())
    return reply_to, text


def only_own_address(message, reply_to: str) -> None:
    """No GM address in the mail but the player's own reply address (no bare GM address, no other
    player's token)."""
    for part in message.walk():
        if part.get_content_maintype() == "text":
            assert set(GM_ADDRESSES.findall(part.get_content())) <= {reply_to}


@pytest.mark.parametrize("anonymous", [False, True])
def test_the_confirmation_reminder_and_report_offer_the_reply_address_and_exact_subject(
        make_world, clock, anonymous: bool) -> None:
    world = make_world(anonymous=anonymous)
    send_orders(world, clock(), "FRANCE", "A Par - Bur\nA Mar H\nF Bre - Mao", "S1901M")
    [confirmation] = [parsed(row) for row in outbox_rows(world, "confirmation")]
    reply_to, text = offered(confirmation)
    assert ("To send new orders: reply to this mail, or write to "
            f"{reply_to} with the subject lepanto France S1901M.") in text
    only_own_address(confirmation, reply_to)

    clock.advance(hours=25)  # the reminder 24 hours before the deadline
    queue_reminders(world, clock())
    reminders = [row for row in outbox_rows(world, "reminder")]
    [italy] = [parsed(row) for row in reminders if row.recipient == player_address("ITALY")]
    reply_to, text = offered(italy)
    assert (f"To send new orders: reply to this mail, or write to {reply_to} with the subject: "
            "lepanto Italy S1901M") in text
    only_own_address(italy, reply_to)

    turns.adjudicate(world, game_row(world).id, clock() + timedelta(days=2), force=True)
    [report] = [parsed(row) for row in outbox_rows(world, "report") if row.recipient == player_address("FRANCE")]
    reply_to, text = offered(report)
    assert (f"To send new orders: reply to this mail, or write to {reply_to} with the subject "
            "lepanto France F1901M.") in text
    html = report.get_body(("html",)).get_content()
    assert f'href="mailto:{reply_to}?subject={quote("lepanto France F1901M", safe="")}"' in html
    only_own_address(report, reply_to)
