"""Does a message with no orders say, in so many words, that the player withdraws the set on file?

A message with no order lines is not an order set (000 III(4), 001 II(7), 003 [10]: every profile uses "the last set
of orders" received, 000 III(4), 001 II(7), 002 ORDERS 2, 003 [10]), so it never replaces one:
an out-of-office reply or an empty message must not wipe a player's orders. A player who does
want the units to stand with no orders says so with one of these lines. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

# Compared with the whole line, lower-cased, punctuation and repeated spaces dropped.
WITHDRAWAL_PHRASES = frozenset({
    "no orders", "no order", "no orders this turn", "no orders this season", "no orders please",
    "all units hold", "all my units hold", "all hold", "hold all", "hold all units", "everything holds",
    "withdraw orders", "withdraw my orders", "i withdraw my orders", "withdraw all orders",
    "cancel orders", "cancel my orders", "cancel all orders",
})
# The line a player is told to send, in the reply that says the orders on file stand.
WITHDRAWAL_EXAMPLE = "no orders"


class _Line(Protocol):
    line: int
    text: str
    status: str


def is_withdrawal(text: str) -> bool:
    """"No orders.", "ALL UNITS HOLD!", "cancel my orders" -> True."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split()) in WITHDRAWAL_PHRASES


def withdrawal_line(lines: Iterable[_Line]) -> int | None:
    """The number of the first line that withdraws the set, among lines the reader did not take
    as orders (a line read as an order is one)."""
    return next((line.line for line in lines
                 if line.status in ("ignored", "rejected") and is_withdrawal(line.text)), None)
