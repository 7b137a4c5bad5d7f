"""Delivering one outgoing message: through an SMTP relay, or into a local Maildir.

Transports raise `TransientError` (try again later) or `PermanentError` (give up on this message
and tell the GM); the outbox loop decides about retries. `RelayError` is the transient kind that
is about the relay session itself (connecting, TLS, AUTH, MAIL FROM) rather than the message: it
says nothing about this message, and the next message would fail the same way.

A message may be handed to a transport twice: the outbox records "sent" in its own commit after
`send` returns, and a crash between the two sends it again once the row's lease runs out. The
Maildir makes that harmless (the file is named after the Message-ID and written once). Over SMTP
it cannot be (RFC 1047): once the relay has said 250 to DATA the message is on its way, and
nothing we do before our commit can take it back. `SmtpTransport` keeps that window as short as
it can be: `send` returns as soon as the 250 is read, and the session's QUIT waits for the next
`send` or for `close`, both after the outbox's commit. The outbox may also hand `send` a
`before_end_of_data` step: it is run after the relay's 354, before the message's last line is
sent, so that the outbox's "sent" mark is written (not committed) while the relay cannot yet have
answered; after the 250 only that commit is left. What is left is the time the commit takes; a
message re-sent then keeps its Message-ID, so mail readers fold the two copies into one.
"""

from __future__ import annotations

import hashlib
import os
import re
import smtplib
import ssl
import uuid
from collections.abc import Callable
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
    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        """Deliver; return a short description of what the receiving side said. `message_id` is
        the outbox row's Message-ID, the same at every attempt."""

    def close(self) -> None:
        """Finish anything left open by the last `send` (the outbox calls it after recording)."""


class MaildirTransport:
    """Writes every message into one Maildir: the embedded default when no relay is set.

    Idempotent: the file is named after the message's Message-ID, written in tmp/ and linked into
    new/ (the Maildir way: a reader sees the whole file or none), and not written at all when
    new/ or cur/ (where a mail reader moves what it has seen) already holds that name. A message
    handed over again after a crash is therefore stored once.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        name = maildir_name(message_id)
        try:
            for folder in ("tmp", "new", "cur"):
                (self.path / folder).mkdir(parents=True, exist_ok=True)
            if self._holds(name):
                return f"already in {self.path} as {name}: delivered before"
            # Maildir files use local line ends; the outbox stores SMTP's CRLF
            content = b"Delivered-To: " + recipient.encode() + b"\n" + raw.replace(b"\r\n", b"\n")
            if not _link_new(self.path, name, content):
                return f"already in {self.path} as {name}: delivered before"
        except OSError as error:
            raise TransientError(f"cannot write to Maildir {self.path}: {error}") from error
        return f"stored in {self.path} as {name}"

    def close(self) -> None:
        pass

    def _holds(self, name: str) -> bool:
        if (self.path / "new" / name).exists():
            return True
        # a reader renames new/NAME to cur/NAME:2,FLAGS; Dovecot may add ,S=size first
        with os.scandir(self.path / "cur") as entries:
            return any(e.name == name or e.name.startswith((name + ":", name + ",")) for e in entries)


_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9@._+=-]")


def maildir_name(message_id: str) -> str:
    """A file name for the message with `message_id`: its Message-ID without the angle brackets
    when that is a safe name (ours are: 32 hex digits @ the GM's domain), otherwise the safe
    characters of it plus a hash of the whole, so that two ids never share a name. Never holds
    ":" (it starts a Maildir file's flags) or "/", and never starts with "."."""
    bare = message_id.strip().strip("<>")
    safe = _UNSAFE_IN_NAME.sub("_", bare)[:150].lstrip(".")
    if safe != bare or not safe:
        safe = f"{safe}.{hashlib.sha256(message_id.encode()).hexdigest()[:16]}".lstrip(".")
    return safe


def _link_new(path: Path, name: str, content: bytes) -> bool:
    """Write `content` to tmp/, make it durable, then give it `name` in new/ unless that name
    exists already (link(2) never replaces a file, so two senders racing store it once). False
    if it was there."""
    temporary = path / "tmp" / f"{uuid.uuid4().hex}.{os.getpid()}"
    try:
        with open(temporary, "xb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path / "new" / name)
        except FileExistsError:
            return False
        except PermissionError:  # a file system without hard links: rename, as the mailbox module does
            if (path / "new" / name).exists():
                return False
            os.rename(temporary, path / "new" / name)
        _fsync_directory(path / "new")
        return True
    finally:
        temporary.unlink(missing_ok=True)


def _fsync_directory(path: Path) -> None:
    """The new name survives a power cut only once its directory is on disk too."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class _StagingSession:
    """An SMTP session whose DATA runs `before_end_of_data` (when set) after the relay's 354 and
    before the message is sent: the relay cannot have taken the message yet. smtplib's own DATA
    otherwise: dot-stuffed (RFC 5321 4.5.2), ended by CRLF.CRLF."""

    before_end_of_data: Callable[[], None] | None = None

    def data(self, msg: bytes) -> tuple[int, bytes]:  # type: ignore[override]
        if self.before_end_of_data is None:
            return super().data(msg)  # type: ignore[misc]
        self.putcmd("data")  # type: ignore[attr-defined]
        code, reply = self.getreply()  # type: ignore[attr-defined]
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        body = re.sub(rb"(?m)^\.", b"..", msg)
        if not body.endswith(b"\r\n"):
            body += b"\r\n"
        self.before_end_of_data()
        self.send(body + b".\r\n")  # type: ignore[attr-defined]
        return self.getreply()  # type: ignore[attr-defined]


class _Smtp(_StagingSession, smtplib.SMTP):
    pass


class _SmtpSsl(_StagingSession, smtplib.SMTP_SSL):
    pass


class SmtpTransport:
    """One SMTP session per message.

    Only the relay's answers about this message are final: a 5xx to RCPT TO or to DATA (and a 552
    to MAIL FROM, the size refusal of RFC 1870). Failing to connect, TLS, AUTH and any other
    refusal of MAIL FROM raise `RelayError`. An address that is not ASCII needs SMTPUTF8
    (RFC 6531); it is used when the relay offers it, and without it the message is undeliverable.

    After the relay's 250 to DATA, `send` returns at once and the session stays open: it is
    QUIT at the start of the next `send` or by `close`, after the outbox has recorded the
    message as sent (see the module docstring). One sender at a time uses a transport.
    """

    def __init__(self, settings: SmtpRelayConfig) -> None:
        self.settings = settings
        self._delivered: smtplib.SMTP | None = None  # a session whose QUIT is still to be said

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
                client = _SmtpSsl(s.host, s.port, timeout=s.timeout, context=self._context())
            else:
                client = _Smtp(s.host, s.port, timeout=s.timeout)
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

    def close(self) -> None:
        client, self._delivered = self._delivered, None
        if client is not None:
            _close(client)

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str,
             before_end_of_data: Callable[[], None] | None = None) -> str:
        """`before_end_of_data`: run once the relay is ready for the message and before it can
        have accepted it (see the module docstring); what it raises ends the send."""
        self.close()  # the previous message's session: that message is recorded by now
        where = self.where
        for role, address in (("sender", sender), ("recipient", recipient)):
            if "\r" in address or "\n" in address:
                raise PermanentError(f"the {role} address {address!r} contains a line break")
        client = self._connect()
        refused: dict[str, tuple[int, bytes]] = {}
        delivered = False
        try:
            options: list[str] = []
            if not (sender.isascii() and recipient.isascii()):
                if not client.has_extn("smtputf8"):
                    raise PermanentError(
                        f"{where} does not offer SMTPUTF8, which the address "
                        f"{sender if not sender.isascii() else recipient!r} needs (it is not ASCII)")
                options.append("SMTPUTF8")
            client.before_end_of_data = before_end_of_data  # type: ignore[attr-defined]
            refused = client.sendmail(sender, [recipient], raw, mail_options=options)
            delivered = not refused
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
            if delivered:
                self._delivered = client  # QUIT after the outbox's commit, not before it
            else:
                _close(client)
        if refused:
            code, text = refused[recipient]
            raise _by_code(code, f"{where} refused {recipient}: {code} {_text(text)}")
        return f"accepted by {where}"


def _close(client: smtplib.SMTP) -> None:
    """QUIT, ignoring what the server says (or that it has gone): once DATA got its 250 the
    message is delivered."""
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
