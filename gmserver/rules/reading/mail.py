"""`read_mail`: a whole message as stored (headers and MIME) -> a `Reading`, the one path by
which intake (gmserver.services.game.filing) and `gmserver orders read` read a player's mail.

The message's text is taken apart by `message.read_message` (quotes, signatures, press, a forward
of the player's own order mail, attached files as `text_attachments` says) and read by
`reader.read_orders`; what the message held besides its text comes first in the notes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.reading.condition_facts import TurnFacts
from gmserver.rules.reading.message import MessageText, read_message
from gmserver.rules.reading.model import Reading
from gmserver.rules.reading.options import option
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.reading.sets import StoredSet


def read_mail(message: bytes | str | MessageText, *, position: Position, power: str, ruleset: Any,
              geography: MapInfo, previous: Sequence[StoredSet] | Sequence[Order] = (), subject: str | None = None,
              player_abbreviations: Mapping[str, str] | None = None, turn: TurnFacts | None = None) -> Reading:
    """Read `message` (a whole email or a bare body, or it as `read_message` read it already) for
    `power`, as `read_orders` reads a body. `subject`: the subject as the envelope read it; None
    takes the message's own."""
    text = message if isinstance(message, MessageText) else read_message(message)
    orders, notes = text.for_orders(bool(option(ruleset, "text_attachments")))
    reading = read_orders(orders, position=position, power=power, ruleset=ruleset, geography=geography,
                          previous=previous, subject=text.subject if subject is None else subject,
                          player_abbreviations=player_abbreviations, turn=turn)
    return replace(reading, notes=(*notes, *reading.notes)) if notes else reading
