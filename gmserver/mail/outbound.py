"""Delivering one outgoing message: through an SMTP relay, or into a local Maildir.

Transports raise `TransientError` (try again later) or `PermanentError` (give up and tell the
GM); the outbox loop decides about retries.
"""

from __future__ import annotations

import mailbox
import smtplib
import socket
import ssl
from pathlib import Path
from typing import Protocol

from gmserver.config import SmtpRelayConfig


class DeliveryError(Exception):
    pass


class TransientError(DeliveryError):
    pass


class PermanentError(DeliveryError):
    pass


class Transport(Protocol):
    def send(self, sender: str, recipient: str, raw: bytes) -> str:
        """Deliver; return a short description of what the receiving side said."""


class MaildirTransport:
    """Writes every message into one Maildir: the embedded default when no relay is set."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def send(self, sender: str, recipient: str, raw: bytes) -> str:
        try:
            box = mailbox.Maildir(self.path, create=True)
            # Maildir files use local line ends; the outbox stores SMTP's CRLF
            key = box.add(b"Delivered-To: " + recipient.encode() + b"\n" + raw.replace(b"\r\n", b"\n"))
        except OSError as error:
            raise TransientError(f"cannot write to Maildir {self.path}: {error}") from error
        return f"stored in {self.path} as {key}"


class SmtpTransport:
    def __init__(self, settings: SmtpRelayConfig) -> None:
        self.settings = settings

    def _context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.settings.ca_file:
            context.load_verify_locations(self.settings.ca_file)
        return context

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        if s.tls == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=self._context())
        else:
            client = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
            if s.tls == "starttls":
                client.starttls(context=self._context())
        if s.user:
            client.login(s.user, s.password)
        return client

    def send(self, sender: str, recipient: str, raw: bytes) -> str:
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            with self._connect() as client:
                refused = client.sendmail(sender, [recipient], raw)
        except smtplib.SMTPRecipientsRefused as error:
            code, text = next(iter(error.recipients.values()))
            raise _by_code(code, f"{where} refused {recipient}: {code} {_text(text)}") from error
        except smtplib.SMTPResponseException as error:
            raise _by_code(error.smtp_code, f"{where} said {error.smtp_code} {_text(error.smtp_error)}") from error
        except (smtplib.SMTPException, OSError, socket.timeout, ssl.SSLError) as error:
            raise TransientError(f"cannot deliver through {where}: {error}") from error
        if refused:
            code, text = refused[recipient]
            raise _by_code(code, f"{where} refused {recipient}: {code} {_text(text)}")
        return f"accepted by {where}"


def _by_code(code: int, message: str) -> DeliveryError:
    # 5xx is final (RFC 5321 4.2.1); 4xx and anything odd is worth another try.
    return PermanentError(message) if 500 <= code < 600 else TransientError(message)


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)
