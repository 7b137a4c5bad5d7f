"""A real SMTP server on 127.0.0.1 for integration tests (aiosmtpd).

It records every message it accepts and, when given Dovecot's LMTP port, delivers each one
into Dovecot, so mail a test (or the daemon) sends lands in a real IMAP inbox:

    relay = SmtpRelay(lmtp_port=dovecot.lmtp_port)
    relay.start()
    smtplib.SMTP(relay.host, relay.port).sendmail("a@x.test", ["gm@example.test"], raw)
    relay.messages[0].raw; dovecot.messages("gm@example.test")
    relay.stop()

Recipients are checked against Dovecot at RCPT time (an LMTP probe), so an unknown user is
refused with Dovecot's own 550, as a real MTA with recipient verification would.
Optionally it requires AUTH PLAIN/LOGIN with one user and password, and offers STARTTLS.
"""

from __future__ import annotations

import asyncio
import smtplib
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, Self

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

LMTP_TIMEOUT = 10.0


@dataclass(frozen=True)
class RelayedMessage:
    """One message the relay accepted (answered 250 to)."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    raw: bytes
    authenticated_as: str | None
    tls: bool


class SmtpRelay:
    """An aiosmtpd Controller that records mail and optionally delivers it over LMTP."""

    host = "127.0.0.1"

    def __init__(
        self,
        *,
        lmtp_port: int | None = None,
        lmtp_host: str = "127.0.0.1",
        auth: tuple[str, str] | None = None,
        tls_cert: str | None = None,
        tls_key: str | None = None,
        require_tls: bool = False,
        port: int | None = None,
    ) -> None:
        """
        auth: (user, password) that clients must log in with (AUTH PLAIN or LOGIN); without
            it no AUTH is offered. Unless require_tls, AUTH is allowed without TLS.
        tls_cert, tls_key: offer STARTTLS with this certificate (e.g. Dovecot's test one).
        require_tls: refuse everything but EHLO/STARTTLS/QUIT before STARTTLS.
        """
        if require_tls and not tls_cert:
            raise ValueError("require_tls needs tls_cert and tls_key")
        self.port = port or _free_port()
        self._lmtp = (lmtp_host, lmtp_port) if lmtp_port else None
        self._auth = auth
        self._messages: list[RelayedMessage] = []
        self._changed = threading.Condition()
        smtp_options: dict[str, Any] = {"auth_require_tls": require_tls}
        if auth is not None:
            # Not aiosmtpd's auth_required: without TLS it warns on every connection.
            # _Handler.handle_MAIL refuses unauthenticated senders instead.
            smtp_options["authenticator"] = self._authenticate
        if tls_cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls_cert, tls_key)
            smtp_options.update(tls_context=context, require_starttls=require_tls)
        self._controller = Controller(
            _Handler(self), hostname=self.host, port=self.port, **smtp_options
        )
        self._running = False

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        if not self._running:
            self._controller.start()
            self._running = True

    def stop(self) -> None:
        if self._running:
            self._controller.stop()
            self._running = False

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what arrived -------------------------------------------------------------------

    @property
    def messages(self) -> list[RelayedMessage]:
        """A snapshot of every accepted message, oldest first."""
        with self._changed:
            return list(self._messages)

    def wait_for(self, count: int, timeout: float = 5.0) -> list[RelayedMessage]:
        """Wait until at least `count` messages arrived; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"SMTP relay got {len(self._messages)} message(s), expected {count} "
                        f"within {timeout} s"
                    )
                self._changed.wait(left)
            return list(self._messages)

    def clear(self) -> None:
        with self._changed:
            self._messages.clear()

    # -- called by the handler (in the server's thread) ---------------------------------

    def _record(self, message: RelayedMessage) -> None:
        with self._changed:
            self._messages.append(message)
            self._changed.notify_all()

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        assert self._auth is not None
        user, password = self._auth
        ok = (
            mechanism in ("PLAIN", "LOGIN")
            and isinstance(data, LoginPassword)
            and data.login == user.encode()
            and data.password == password.encode()
        )
        return AuthResult(success=ok, handled=False, auth_data=data if ok else None)

    def _lmtp_verify(self, mail_from: str, address: str) -> str:
        """Ask Dovecot whether it would take this recipient; an SMTP status line."""
        assert self._lmtp is not None
        with smtplib.LMTP(*self._lmtp, timeout=LMTP_TIMEOUT) as lmtp:
            lmtp.ehlo_or_helo_if_needed()
            lmtp.mail(mail_from)
            code, text = lmtp.rcpt(address)
        return f"{code} {text.decode(errors='replace')}"

    def _lmtp_deliver(self, mail_from: str, rcpt_tos: tuple[str, ...], raw: bytes) -> str:
        """Deliver to each recipient in turn (smtplib.LMTP reads one reply after DATA)."""
        assert self._lmtp is not None
        for address in rcpt_tos:
            try:
                with smtplib.LMTP(*self._lmtp, timeout=LMTP_TIMEOUT) as lmtp:
                    lmtp.sendmail(mail_from, [address], raw)
            except smtplib.SMTPResponseException as error:
                return f"{error.smtp_code} {error.smtp_error.decode(errors='replace')}"
            except smtplib.SMTPRecipientsRefused as error:
                code, text = error.recipients[address]
                return f"{code} {text.decode(errors='replace')}"
            except (OSError, smtplib.SMTPException) as error:
                return f"451 4.4.0 LMTP delivery to {address} failed: {error}"
        return "250 OK"


class _Handler:
    """aiosmtpd hooks; blocking LMTP calls run in a worker thread."""

    def __init__(self, relay: SmtpRelay) -> None:
        self._relay = relay

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list
    ) -> str:
        if self._relay._auth is not None and not session.authenticated:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list
    ) -> str:
        if self._relay._lmtp is not None:
            try:
                status = await asyncio.to_thread(
                    self._relay._lmtp_verify, envelope.mail_from or "", address
                )
            except (OSError, smtplib.SMTPException) as error:
                return f"451 4.4.0 cannot reach LMTP to check {address}: {error}"
            if not status.startswith("2"):
                return status
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode()
        message = RelayedMessage(
            mail_from=envelope.mail_from or "",
            rcpt_tos=tuple(envelope.rcpt_tos),
            raw=raw,
            authenticated_as=_login_name(session),
            tls=session.ssl is not None,
        )
        if self._relay._lmtp is not None:
            status = await asyncio.to_thread(
                self._relay._lmtp_deliver, message.mail_from, message.rcpt_tos, raw
            )
            if not status.startswith("2"):
                return status
        self._relay._record(message)
        return "250 OK"


def _login_name(session: Session) -> str | None:
    data = session.auth_data
    if isinstance(data, LoginPassword):
        return data.login.decode(errors="replace")
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
