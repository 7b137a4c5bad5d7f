"""The values the order reader produces.

`LineReading` is the verdict on one line as the player wrote it; `Reading` is the whole message.
Orders are `Order` values and units `Unit` values (gmserver/rules/order.py); `str(order)` is the
engine's notation (`A PAR - BUR`, `F NTH C A LON - BEL`, `A LON - BEL VIA`, `F TRI R ALB`,
`F STP/NC B`, `WAIVE`), written at the edges (the engine adapter, the database, JSON output).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from gmserver.rules.order import Order, Unit

Status = Literal["accepted", "corrected", "rejected", "ignored"]
SetStatus = Literal["preliminary", "final"]


@dataclass(frozen=True)
class LineReading:
    line: int  # 1-based line number in the text given
    text: str  # the line as written
    status: Status
    order: Order | None  # the order the line became (None: it became nothing)
    rule: str | None  # clause applied, e.g. "000 III(6)" or "DATC 4.B.1"
    message: str | None  # for the player: what was corrected or rejected and why
    # an ignored line that is no attempt at an order: "greeting", "heading", "sign-off" or
    # "signature" (rules/reading/chatter.py); the confirmation counts these in one line
    chatter: str | None = None


@dataclass(frozen=True)
class Reading:
    power: str
    phase: str
    orders: tuple[Order, ...]  # the orders to adjudicate for the power, one per unit ordered
    lines: tuple[LineReading, ...]
    # this message's own orders, before `set_combination` with the previous set
    set_orders: tuple[Order, ...] = ()
    # units ordered to move (or to stand, 003 [10 a]) whose hold supports are void (000 III(5), 003 [10 a/b])
    unsupportable: tuple[Unit, ...] = ()
    set_status: SetStatus = "final"  # 2.4 default_set_status, or the word "Final"/"Preliminary"
    version: str | None = None  # version marker (001 II(7), 002 ORDERS 2) found in the subject or the first line
    is_change: bool = False  # 002 ORDERS 2: the set says it is a change to the previous one
    notes: tuple[str, ...] = field(default=())  # set-level remarks for the confirmation
    # contingent_minor_orders = accepted (000 II(5), 001 II(6)): the retreat and adjustment lines
    # of a movement set, as written (conditions included), in order; kept for the following
    # retreat or adjustment turn and read there if the player sends no set for that turn
    contingent: tuple[str, ...] = field(default=())

    def accepted_lines(self) -> tuple[LineReading, ...]:
        return tuple(r for r in self.lines if r.status in ("accepted", "corrected"))
