"""Orders, and orders with press: filed exactly as before kinds existed (services.intake._accept).

The press of an order mail is not forwarded yet (MATRIX 2.9 is not applied): it stays in the
stored message, the inbound row says "orders+press" so the GM finds it, and the confirmation
says so in one sentence.
"""

from __future__ import annotations

from gmserver.services.handlers.mail import Mail

PRESS_KEPT = ("Press is not forwarded in this game yet: the press in your message was kept for the GM, "
              "and your orders were read as below.")


def handle(mail: Mail) -> str:
    assert mail.decision is not None, "orders come from a power"
    notes = (PRESS_KEPT,) if mail.kind.kind == "orders+press" else ()
    # intake's own function, as intake and its tests know it: this module only names it (imported
    # here, since intake imports the handlers)
    from gmserver.services import intake  # noqa: PLC0415

    return intake._accept(mail.session, mail.services, mail.row, mail.envelope, mail.decision, mail.now,
                          notes=notes)
