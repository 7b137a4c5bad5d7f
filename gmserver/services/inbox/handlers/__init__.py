"""One handler per kind of mail, found in one registry (HANDLERS), in the manner of Mailman 3's
email-command registry: intake classifies an accepted message (gmserver.rules.mailkind), records
its kind on the inbound row and calls the kind's handler, which does what the message asks in the
same transaction and returns the row's outcome.

Orders are filed as they always were (`orders`); press is judged, stored and delivered
(services.features.press); every other kind is answered plainly, in words, with what the server
does with it, and the message stays in the inbox where the GM sees it by its kind
(`gmserver inbox list --kind press`). Nothing is dropped: the raw message is stored before any
handler runs.

Adding a kind is three things: its words in gmserver.rules.mailkind (KINDS and the grammar), one
module here with `handle(mail: Mail) -> str` and one line in HANDLERS, and one template in
templates/player/ for its answer.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Mapping

from gmserver.rules.mailkind import Kind
from gmserver.services.inbox.handlers import commands, orders, press, requests, unknown, votes
from gmserver.services.inbox.handlers.mail import Mail

Handler = Callable[[Mail], str]

HANDLERS: Mapping[Kind, Handler] = MappingProxyType({
    "orders": orders.handle,
    "orders+press": orders.handle,
    "press": press.handle,
    "command": commands.handle,
    "request": requests.handle,
    "vote": votes.handle,
    "unknown": unknown.handle,
})


def handle(mail: Mail) -> str:
    """Run the handler of `mail.kind`; the inbound row's outcome."""
    return HANDLERS[mail.kind.kind](mail)


__all__ = ["HANDLERS", "Handler", "Mail", "handle"]
