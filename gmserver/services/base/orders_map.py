"""The confirmation's small map of a player's orders as read, drawn when the outbox writes the
mail, not in the intake transaction: drawing it costs about half as much again as the rest of
the confirmation (benchmarks/bench_map.py), and on SQLite that transaction holds the write lock.

Intake queues the confirmation without the map and keeps in its outbox row's `addressing` what
the map shows (the power, its orders on file in engine notation, the position); the sender adds
the PNG when it writes the mail (outbox._written), keeps those bytes (a retry sends the same) and
forgets the request. A map that cannot be drawn costs the map, never the confirmation.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import logging
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from typing import Any

from gmserver import mapimage
from gmserver.rules.order import Order
from gmserver.rules.position import Position

log = logging.getLogger(__name__)

KEY = "orders_map"  # in an outbox row's `addressing`: the map to add when the mail is written


def request(power: str, orders: Sequence[Order], position: Position, filename: str) -> dict[str, Any] | None:
    """What the outbox row keeps to draw the map later (plain JSON: engine notation at this edge);
    None without an order to draw."""
    if not orders:
        return None
    return {KEY: {"power": power, "orders": [str(order) for order in orders], "position": position.to_json(),
                  "filename": filename}}


def with_map(raw: bytes, addressing: Mapping[str, Any] | None, recipient: str) -> bytes:
    """`raw` (a confirmation as queued) with the map its row asks for attached; `raw` as it is when
    the row asks for none, or the map cannot be drawn."""
    wanted = (addressing or {}).get(KEY)
    if not wanted:
        return raw
    try:
        position = Position.from_json(wanted["position"])
        orders = [Order.parse(text, position.phase_type) for text in wanted["orders"]]
        image = mapimage.own_orders_png(position, wanted["power"], orders)
    except Exception:
        log.exception("the map of %s's orders could not be drawn; the confirmation goes without it",
                      wanted.get("power"))
        return raw
    if image is None:
        return raw
    policy = email.policy.SMTP if recipient.isascii() else email.policy.SMTPUTF8
    message = email.message_from_bytes(raw, _class=EmailMessage, policy=policy)
    message.add_attachment(image, maintype="image", subtype="png", filename=str(wanted["filename"]))
    # the boundary from what the mail holds, not from the global `random` (which the engine
    # reseeds): the same confirmation is the same bytes; no part can hold its own digest
    message.set_boundary(f"=_gm0_{hashlib.sha256(raw + image).hexdigest()[:48]}")
    return message.as_bytes(policy=policy)
