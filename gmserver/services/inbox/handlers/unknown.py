"""A message that is none of the kinds, or several at once: nothing in it is used; the sender
is told what was not understood and what would be."""

from __future__ import annotations

from gmserver.commands.registry import PLAYER_WORDS
from gmserver.rules.mailkind import KEYWORDS
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail

TEMPLATE = "player/unknown.txt.j2"
OUTCOME = "not-understood"


def handle(mail: Mail) -> str:
    notice.answer(mail, TEMPLATE, {"reason": mail.kind.reason or "The message was not understood.",
                                   "keywords": sorted({word.upper() for word in (*KEYWORDS, *PLAYER_WORDS)} | {"PRESS"})})
    return OUTCOME
