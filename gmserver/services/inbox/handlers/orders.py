"""Orders, and orders with press: the orders are filed exactly as before kinds existed
(services.game.filing.file_orders); the press is judged first, so that the confirmation says what became of
it, and stored and delivered after the set is filed (services.features.press)."""

from __future__ import annotations

from gmserver.services.features import press
from gmserver.services.game import filing
from gmserver.services.inbox.handlers.mail import Mail


def handle(mail: Mail) -> str:
    assert mail.decision is not None, "orders come from a power"
    with_press = mail.kind.kind == "orders+press"
    planned = press.plan_press(mail.session, mail.decision, mail.row.raw, "") if with_press else []
    notes = ((mail.unread,) if mail.unread else ()) + tuple(plan.words for plan in planned)
    outcome = filing.file_orders(mail.session, mail.services, mail.row, mail.envelope, mail.decision, mail.now,
                                 notes=notes, text=mail.text)
    if outcome in ("accepted", "unchanged"):
        # 003 [9]: the set now on file carries this press, or none: earlier press is replaced
        press.store_press(mail.session, mail.services, mail.decision, planned, mail.row.id, mail.now)
    return outcome
