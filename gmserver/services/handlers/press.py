"""Press (MATRIX 2.9): each press section is judged, stored and delivered (services.press), and the
author told what was sent to whom (grey press: "sent anonymously")."""

from __future__ import annotations

from gmserver.services import press
from gmserver.services.handlers import notice
from gmserver.services.handlers.mail import Mail

TEMPLATE = "player/press.txt.j2"
OUTCOME = "press-filed"


def handle(mail: Mail) -> str:
    assert mail.decision is not None, "press comes from a power"
    told = press.file_press(mail.session, mail.services, mail.decision, mail.row.raw,
                            mail.press_text or mail.order_text, mail.row.id, mail.now)
    notice.answer(mail, TEMPLATE, {"press_told": told})
    return OUTCOME
