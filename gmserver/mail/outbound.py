"""Delivering one outgoing message: through an SMTP relay, or into a local Maildir.

Transports raise `TransientError` (try again later) or `PermanentError` (give up on this message
and tell the GM); the outbox loop decides about retries. `RelayError` is the transient kind that
is about the relay session itself (connecting, TLS, AUTH, MAIL FROM) rather than the message: it
says nothing about this message, and the next message would fail the same way.
"""

from __future__ import annotations

import mailbox
import smtplib
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


class RelayError(TransientError):
    """The relay cannot be used at all right now: unreachable, or it refused the session (TLS,
    AUTH, MAIL FROM). Usually a relay configuration problem; never this message's fault."""


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
    """One SMTP session per message.

    Only the relay's answers about this message are final: a 5xx to RCPT TO or to DATA (and a 552
    to MAIL FROM, the size refusal of RFC 1870). Failing to connect, TLS, AUTH and any other
    refusal of MAIL FROM raise `RelayError`. An address that is not ASCII needs SMTPUTF8
    (RFC 6531); it is used when the relay offers it, and without it the message is undeliverable.
    """

    def __init__(self, settings: SmtpRelayConfig) -> None:
        self.settings = settings

    @property
    def where(self) -> str:
        return f"{self.settings.host}:{self.settings.port}"

    def _context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.settings.ca_file:
            context.load_verify_locations(self.settings.ca_file)
        return context

    def _connect(self) -> smtplib.SMTP:
        """A session ready for MAIL FROM (connected, TLS, logged in), or RelayError."""
        s = self.settings
        client: smtplib.SMTP | None = None
        step = "connecting"
        try:
            if s.tls == "ssl":
                client = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=self._context())
            else:
                client = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
                if s.tls == "starttls":
                    step = "STARTTLS"
                    client.starttls(context=self._context())
            step = "EHLO"
            client.ehlo_or_helo_if_needed()
            if s.user:
                step = f"logging in as {s.user!r}"
                client.login(s.user, s.password)
            return client
        except (smtplib.SMTPException, OSError, ValueError) as error:
            if client is not None:
                client.close()
            raise RelayError(f"cannot deliver through {self.where}: {step} failed: {_describe(error)}") from error

    def send(self, sender: str, recipient: str, raw: bytes) -> str:
        where = self.where
        for role, address in (("sender", sender), ("recipient", recipient)):
            if "\r" in address or "\n" in address:
                raise PermanentError(f"the {role} address {address!r} contains a line break")
        client = self._connect()
        try:
            options: list[str] = []
            if not (sender.isascii() and recipient.isascii()):
                if not client.has_extn("smtputf8"):
                    raise PermanentError(
                        f"{where} does not offer SMTPUTF8, which the address "
                        f"{sender if not sender.isascii() else recipient!r} needs (it is not ASCII)")
                options.append("SMTPUTF8")
            refused = client.sendmail(sender, [recipient], raw, mail_options=options)
        except smtplib.SMTPSenderRefused as error:
            text = f"{where} refused MAIL FROM:<{sender}>: {error.smtp_code} {_text(error.smtp_error)}"
            if error.smtp_code == 552:  # the message is too big for the relay (RFC 1870)
                raise PermanentError(text) from error
            raise RelayError(text) from error
        except smtplib.SMTPRecipientsRefused as error:
            code, text = next(iter(error.recipients.values()))
            raise _by_code(code, f"{where} refused {recipient}: {code} {_text(text)}") from error
        except smtplib.SMTPDataError as error:
            raise _by_code(error.smtp_code,
                           f"{where} refused the message: {error.smtp_code} {_text(error.smtp_error)}") from error
        except (smtplib.SMTPException, OSError) as error:
            raise TransientError(f"cannot deliver through {where}: {_describe(error)}") from error
        finally:
            _close(client)
        if refused:
            code, text = refused[recipient]
            raise _by_code(code, f"{where} refused {recipient}: {code} {_text(text)}")
        return f"accepted by {where}"


def _close(client: smtplib.SMTP) -> None:
    """QUIT, ignoring what the server says: once DATA got its 250 the message is delivered."""
    try:
        client.quit()
    except (smtplib.SMTPException, OSError):
        pass
    finally:
        client.close()


def _by_code(code: int, message: str) -> DeliveryError:
    # 5xx is final (RFC 5321 4.2.1); 4xx and anything odd is worth another try.
    return PermanentError(message) if 500 <= code < 600 else TransientError(message)


def _describe(error: BaseException) -> str:
    if isinstance(error, smtplib.SMTPResponseException):
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    return str(error) or type(error).__name__


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)
