"""Press (MATRIX 2.9): not forwarded yet. The message is kept for the GM and the author told so."""

from __future__ import annotations

from gmserver.services.handlers import notice
from gmserver.services.handlers.mail import Mail

TEMPLATE = "player/press.txt.j2"
OUTCOME = "press-held"


def handle(mail: Mail) -> str:
    press = (mail.press_text or mail.order_text).strip()
    notice.answer(mail, TEMPLATE, {"press_lines": len(press.splitlines())})
    return OUTCOME
