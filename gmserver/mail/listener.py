"""The built-in inbound path: an SMTP (or LMTP) listener that stores each message it accepts.

The client gets its 250 only after the raw message is committed to the database; if storing
fails it gets a 451 and tries again later, so nothing accepted is ever lost.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass
from typing import Callable, Collection

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from gmserver.rules.limits import MAX_MESSAGE_BYTES
from gmserver.rules.authenticity import is_gm_recipient, obscure_claimed_results

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SmtpEnvelope:
    """What the SMTP/LMTP transaction said besides the message: kept with it, because only the
    envelope tells a bounce (MAIL FROM:<>) from a person's mail when the headers do not."""

    mail_from: str  # "" for the null reverse path <> of bounces and other notifications
    rcpt_tos: tuple[str, ...]


class StoringHandler:
    """aiosmtpd handler: accepts mail for the GM's addresses and hands the raw bytes, with the
    envelope they came in, to `store`."""

    def __init__(self, store: Callable[[bytes, SmtpEnvelope], None], accepted_recipients: set[str], *,
                 trusted_authserv_ids: Collection[str] = (), trusted_receivers: Collection[str] = (),
                 trusted_relays: Collection[str] = ()) -> None:
        self._store = store
        self._recipients = {address.lower() for address in accepted_recipients}
        self._trusted_ids, self._receivers = tuple(trusted_authserv_ids), tuple(trusted_receivers)
        self._relays = frozenset(trusted_relays)

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        # the GM's address, or a player's reply address gm+SECRET@domain (any +tag: whether the
        # tag is a player's secret is for intake to judge, and a 550 here would tell a guesser)
        if self._recipients and not any(is_gm_recipient(address, gm) for gm in self._recipients):
            return f"550 5.1.1 <{address}>: no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        peer = session.peer[0] if isinstance(session.peer, tuple) else session.peer
        if peer not in self._relays:
            # RFC 8601 section 5: a trusted server's verdict (or time stamp) reaches us only from that server
            raw = obscure_claimed_results(raw, self._trusted_ids, self._receivers)
        received = SmtpEnvelope(mail_from=_reverse_path(envelope.mail_from), rcpt_tos=tuple(envelope.rcpt_tos))
        try:
            # the database call blocks: keep it off the event loop
            await asyncio.get_running_loop().run_in_executor(None, self._store, raw, received)
        except Exception:  # noqa: BLE001  the client will retry; we must not claim to have it
            log.exception("could not store a message from %s", envelope.mail_from)
            return "451 4.3.0 could not store the message; please try again later"
        return "250 2.0.0 message stored"


def _reverse_path(mail_from: str | None) -> str:
    """MAIL FROM as an address; "" for the null reverse path, however the client wrote it."""
    address = (mail_from or "").strip()
    return "" if address in ("", "<>") else address.strip("<>")


class _LmtpController(Controller):
    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


class Listener:
    def __init__(self, host: str, port: int, protocol: str, store: Callable[[bytes, SmtpEnvelope], None],
                 accepted_recipients: set[str], *, trusted_authserv_ids: Collection[str] = (),
                 trusted_receivers: Collection[str] = (), trusted_relays: Collection[str] = ()) -> None:
        handler = StoringHandler(store, accepted_recipients, trusted_authserv_ids=trusted_authserv_ids,
                                 trusted_receivers=trusted_receivers, trusted_relays=trusted_relays)
        controller_class = _LmtpController if protocol == "lmtp" else Controller
        self._controller = controller_class(handler, hostname=host, port=port,
                                            data_size_limit=MAX_MESSAGE_BYTES, ready_timeout=10)
        self.host, self.port, self.protocol = host, port, protocol

    def start(self) -> None:
        # aiosmtpd reports a port in use only after its ready timeout (10 s): try the port first
        with socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((self.host, self.port))
        self._controller.start()
        log.info("listening for %s on %s:%d", self.protocol.upper(), self.host, self.port)

    def stop(self) -> None:
        self._controller.stop()
