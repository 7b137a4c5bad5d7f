"""What a handler gets: one accepted message, its kind, and the transaction it runs in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage
from gmserver.rules.envelope import Envelope
from gmserver.rules.intake import Accept, GameView
from gmserver.rules.mailkind import MailKind
from gmserver.rules.reading.message import MessageText
from gmserver.services.base.context import Services


@dataclass(frozen=True)
class Mail:
    session: Session
    services: Services
    row: InboundMessage
    envelope: Envelope
    kind: MailKind
    now: datetime
    # who the message is from, for which game and power (None for a GM command: the GM plays no power)
    decision: Accept | None
    order_text: str = ""  # the text read for orders (gmserver.rules.reading.message)
    press_text: str = ""  # its press sections
    named_game: GameView | None = None  # the game a GM command's subject names, if one
    unread: str = ""  # in words, what of the message was not read (gmserver.rules.reading.message bounds)
    text: MessageText | None = None  # the message as read before the transaction (services.inbox.routing.prepare)

    @property
    def game(self) -> GameView | None:
        return self.decision.game if self.decision is not None else self.named_game
