"""The built-in inbound path: an SMTP (or LMTP) listener that stores each message it accepts.

The client gets its 250 only after the raw message is committed to the database; if storing
fails it gets a 451 and tries again later, so nothing accepted is ever lost.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from gmserver.config import ListenerConfig
from gmserver.rules.authenticity import is_gm_recipient, obscure_claimed_results
from gmserver.rules.limits import MAX_MESSAGE_BYTES

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
        except Exception:
            log.exception("could not store a message from %s", envelope.mail_from)
            return "451 4.3.0 could not store the message; please try again later"
        return "250 2.0.0 message stored"


def _reverse_path(mail_from: str | None) -> str:
    """MAIL FROM as an address; "" for the null reverse path, however the client wrote it."""
    address = (mail_from or "").strip()
    return "" if address in ("", "<>") else address.strip("<>")


class ConnectionGate:
    """Which new connections the listener serves: at most `total` open at once, `per_client` of
    them from one client address, and `per_minute` new ones a minute from one address. Without
    it one client could open connections until the process ran out of file descriptors, or
    hammer the database with messages. Used from the listener's one event loop thread."""

    WINDOW_SECONDS = 60.0

    def __init__(self, total: int, per_client: int, per_minute: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.per_client, self.per_minute = total, per_client, per_minute
        self._clock = clock
        self._open: dict[str, int] = {}
        self._recent: dict[str, deque[float]] = {}
        self._told: dict[str, float] = {}  # when each refused client was last logged
        self._forget_at = 4 * total

    def admit(self, client: str) -> str | None:
        """None when `client` may connect now (then `release` it when it leaves), else the SMTP
        reply to close the connection with: 421, "service not available, closing transmission
        channel" (RFC 5321 3.8), which a sending server takes as "try again later"."""
        now = self._clock()
        recent = self._recent.get(client, deque())
        while recent and recent[0] <= now - self.WINDOW_SECONDS:
            recent.popleft()
        refusal = None
        if sum(self._open.values()) >= self.total:
            refusal = "421 4.7.0 too many connections at the moment; try again later"
        elif self._open.get(client, 0) >= self.per_client:
            refusal = "421 4.7.0 too many connections from your address at once; try again later"
        elif len(recent) >= self.per_minute:
            refusal = "421 4.7.0 too many connections from your address this minute; try again later"
        else:
            recent.append(now)
            self._recent[client] = recent
            self._open[client] = self._open.get(client, 0) + 1
        if len(self._recent) + len(self._told) > self._forget_at:
            self._forget_quiet(now)
        return refusal

    def _forget_quiet(self, now: float) -> None:
        """Forget the clients quiet for a minute; next time when twice as many are remembered (a
        flood from many addresses costs memory and time in proportion, never more)."""
        since = now - self.WINDOW_SECONDS
        self._recent = {c: r for c, r in self._recent.items() if r and r[-1] > since}
        self._told = {c: t for c, t in self._told.items() if t > since}
        self._forget_at = max(4 * self.total, 2 * (len(self._recent) + len(self._told)))

    def worth_logging(self, client: str) -> bool:
        """Whether a refusal of `client` is logged: once a minute per client, so that a flood of
        connections is not also a flood of log lines."""
        now = self._clock()
        if self._told.get(client, now - self.WINDOW_SECONDS) > now - self.WINDOW_SECONDS:
            return False
        self._told[client] = now
        return True

    def release(self, client: str) -> None:
        left = self._open.get(client, 0) - 1
        if left > 0:
            self._open[client] = left
        else:
            self._open.pop(client, None)


class _Gated:
    """An SMTP or LMTP server that first asks the gate: a refused client gets the gate's 421
    instead of the greeting, and the connection is closed."""

    gate: ConnectionGate

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not hasattr(self, "_client"):  # not the second call of a STARTTLS
            peer = transport.get_extra_info("peername")
            self._client = str(peer[0]) if isinstance(peer, tuple) else str(peer)
            self._refused = self.gate.admit(self._client)
            if self._refused is not None:
                if self.gate.worth_logging(self._client):
                    log.warning("refusing connections from %s for now: %s", self._client, self._refused[10:])
                transport.write(f"{self._refused}\r\n".encode("ascii"))
                transport.close()
                return
        super().connection_made(transport)  # type: ignore[misc]

    def connection_lost(self, error: Exception | None) -> None:
        if self._refused is not None:
            return
        self.gate.release(self._client)
        super().connection_lost(error)  # type: ignore[misc]

    def eof_received(self) -> bool | None:
        if self._refused is not None:
            return False
        return super().eof_received()  # type: ignore[misc]


class _GatedSMTP(_Gated, SMTP):
    pass


class _GatedLMTP(_Gated, LMTP):
    pass


class _GatedController(Controller):
    def __init__(self, handler: StoringHandler, server_class: type[_Gated], gate: ConnectionGate,
                 **kwargs: object) -> None:
        super().__init__(handler, **kwargs)  # type: ignore[arg-type]
        self._server_class, self._gate = server_class, gate

    def factory(self) -> SMTP:
        server = self._server_class(self.handler, **self.SMTP_kwargs)  # type: ignore[call-arg]
        server.gate = self._gate
        return server  # type: ignore[return-value]


class Listener:
    def __init__(self, host: str, port: int, protocol: str, store: Callable[[bytes, SmtpEnvelope], None],
                 accepted_recipients: set[str], *, trusted_authserv_ids: Collection[str] = (),
                 trusted_receivers: Collection[str] = (), trusted_relays: Collection[str] = (),
                 max_connections: int = ListenerConfig.max_connections,
                 max_connections_per_client: int = ListenerConfig.max_connections_per_client,
                 client_connections_per_minute: int = ListenerConfig.client_connections_per_minute) -> None:
        handler = StoringHandler(store, accepted_recipients, trusted_authserv_ids=trusted_authserv_ids,
                                 trusted_receivers=trusted_receivers, trusted_relays=trusted_relays)
        self.gate = ConnectionGate(max_connections, max_connections_per_client, client_connections_per_minute)
        self._controller = _GatedController(handler, _GatedLMTP if protocol == "lmtp" else _GatedSMTP, self.gate,
                                            hostname=host, port=port, data_size_limit=MAX_MESSAGE_BYTES,
                                            ready_timeout=10)
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
