"""The confirmation's small map of the player's own orders as read (moves, supports, holds), so
that a misread order is seen before the deadline; none with SET CONFIRM brief. It is drawn when
the outbox writes the mail, not in the intake transaction (services/base/orders_map.py)."""

from __future__ import annotations

import email
import email.policy
import io

from PIL import Image

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.base.outbox import deliver_due, message_bytes
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



class Recording:
    def __init__(self) -> None:
        self.handed: list[bytes] = []

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        self.handed.append(raw)
        return "ok"

    def close(self) -> None:
        pass


def test_the_map_is_drawn_when_the_outbox_writes_the_mail_and_those_bytes_are_kept(world, clock) -> None:
    """Intake queues the confirmation without the PNG and a request for it; the sender draws it,
    sends it, and keeps the bytes it sent with the request forgotten (a retry sends the same)."""
    send_orders(world, clock(), "FRANCE", "A Par - Bur\nF Bre H", "S1901M")
    [row] = [row for row in outbox_rows(world) if row.kind == "confirmation"]
    assert b"image/png" not in row.stored and sorted(row.addressing["orders_map"]["orders"]) == ["A PAR - BUR", "F BRE H"]
    transport = Recording()
    deliver_due(world.sessions, transport, clock())
    [sent] = [raw for raw in transport.handed if b"orders as read" in raw or b"image/png" in raw]
    assert b"lepanto-france-S1901M-orders.png" in sent
    with transaction(world.sessions) as session:
        kept = session.get(OutboxMessage, row.id)
        assert kept.stored == sent and kept.addressing is None and kept.status == "sent"
