"""Press: each press section is judged, stored and delivered (services.features.press), and the
author told what was sent to whom (grey press: "sent anonymously")."""

from __future__ import annotations

from gmserver.services.features import press
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail

TEMPLATE = "player/press.txt.j2"
OUTCOME = "press-filed"


def handle(mail: Mail) -> str:
    assert mail.decision is not None, "press comes from a power"
    # a reply to a press mail is press to that item's other participants (rules.press.reply_heading)
    heading = press.reply_heading_of(mail.session, mail.decision, mail.envelope)
    told = press.file_press(mail.session, mail.services, mail.decision, mail.row.raw,
                            mail.press_text or mail.order_text, mail.row.id, mail.now, heading)
    notice.answer(mail, TEMPLATE, {"press_told": told, "non_player": False, "orders_refused": False})
    return OUTCOME


def handle_non_player(mail: Mail) -> str:
    """press_from_non_players (002 PRESS 2): press from someone who plays no power in the game is
    judged as grey press that may not carry a power's name, stored and published like any press;
    orders in the same message are not used, and the answer says so, under the limits on
    answering strangers."""
    assert mail.decision is not None, "intake accepted it for a game"
    told = press.file_press(mail.session, mail.services, mail.decision, mail.row.raw,
                            mail.press_text or mail.order_text, mail.row.id, mail.now)
    orders = mail.kind.kind == "orders+press"
    notice.answer(mail, TEMPLATE, {"press_told": told, "non_player": True, "orders_refused": orders},
                  stranger=True)
    return OUTCOME
