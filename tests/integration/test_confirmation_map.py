"""The confirmation's small map of the player's own orders as read (moves, supports, holds), so
that a misread order is seen before the deadline; none with SET CONFIRM brief."""

from __future__ import annotations

import email
import email.policy
import io

from PIL import Image

from gmserver.services.base.outbox import message_bytes
from tests.support.intake_rows import deliver_queued, outbox_rows, send_orders
from tests.support.world import order_mail, player_address


def attachments(row) -> list[tuple[str, bytes]]:
    message = email.message_from_bytes(message_bytes(row), policy=email.policy.default)
    return [(part.get_filename(), part.get_content()) for part in message.iter_attachments()]


def test_a_full_confirmation_carries_the_map_of_the_orders_as_read(world, clock) -> None:
    send_orders(world, clock(), "FRANCE", "A Par - Bur\nA Mar S A Par - Bur\nF Bre H", "S1901M")
    [confirmation] = [row for row in outbox_rows(world) if row.kind == "confirmation"]
    [(name, png)] = attachments(confirmation)
    assert name == "lepanto-france-S1901M-orders.png"
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width < 918 and image.height < 680  # cropped to the orders


def test_a_brief_confirmation_has_no_map(world, clock) -> None:
    row, _ = deliver_queued(world, order_mail(player_address("FRANCE"), "lepanto", "set confirm brief"), clock())
    assert row.outcome == "confirm-set"
    send_orders(world, clock(), "FRANCE", "A Par - Bur", "S1901M")
    [confirmation] = [row for row in outbox_rows(world) if row.kind == "confirmation"]
    assert attachments(confirmation) == []

