"""Inbound mail over IMAP: fetch unseen messages without marking them, mark them later.

The caller stores each fetched message before calling `mark_seen`, so a crash between the two
fetches the message again (and the store ignores the duplicate); nothing is ever lost. Fetch in
bounded batches (a number of messages and a byte budget), so that a flood of large messages
never has to fit in memory at once:

    with ImapMailbox(settings) as mailbox:
        while True:
            while batch := mailbox.fetch_unseen(limit=50, max_bytes=10 * 2**20):
                for message in batch:
                    store(message)                  # commit first
                mailbox.mark_seen([m.uid for m in batch], uidvalidity=batch[0].uidvalidity)
            mailbox.wait_for_mail(timeout=settings.poll_seconds)

Not thread-safe: one mailbox per thread. A dropped connection (server restart, network) is
re-opened on the next call; every failure reaches the caller as a `MailboxError`.
"""

from __future__ import annotations

import contextlib
import imaplib
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal, Self, TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import CapabilityError, IMAPClientError

TlsMode = Literal["none", "ssl", "starttls"]
TLS_MODES: tuple[str, ...] = ("none", "ssl", "starttls")

T = TypeVar("T")

# What a connection that went away looks like: imaplib's abort (EOF, BYE) or a socket error.
# ssl.SSLError and TimeoutError are OSErrors too.
_DROPPED = (imaplib.IMAP4.abort, OSError)

SEEN = b"\\Seen"


# How often a waiting IDLE looks whether interrupt() was called.
INTERRUPT_CHECK_SECONDS = 1.0


# Seconds the watcher waits before its next try after 1, 2, 3... failed tries in a row; the
# last is repeated for as long as the outage lasts, and a success starts the count again. The
# wait once grew to 300 s, so mail sent as the server came back waited up to that long (40 s
# after a one-minute outage); a try costs the server one refused or accepted connection.
RECONNECT_DELAYS = (1.0, 2.0, 3.0, 5.0)


def reconnect_delay(failures: int) -> float:
    """How long to wait after `failures` (1 or more) failed tries in a row."""
    return RECONNECT_DELAYS[max(0, min(failures, len(RECONNECT_DELAYS)) - 1)]


class MailboxError(Exception):
    """The IMAP server could not be reached, refused us, or failed a command."""


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    tls: TlsMode
    user: str
    password: str = field(repr=False)
    folder: str = "INBOX"
    # Use IDLE when the server offers it; otherwise wait_for_mail polls with NOOP.
    idle: bool = True
    # A CA (or the certificate itself) to trust, for servers with a self-signed certificate.
    ca_file: str | None = None
    # Seconds between NOOPs when polling.
    poll_seconds: float = 30
    # Seconds to wait for the server to answer any command (and to connect).
    timeout: float = 30

    def __post_init__(self) -> None:
        if self.tls not in TLS_MODES:
            raise ValueError(f"tls must be one of {', '.join(TLS_MODES)}, not {self.tls!r}")

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class FetchedMessage:
    uid: int
    uidvalidity: int
    raw: bytes = field(repr=False)
    # When the message reached the mailbox: its INTERNALDATE (RFC 3501 2.3.3), timezone-aware UTC.
    # None only if the server sent none (or one that could not be read).
    received_at: datetime | None = None


class ImapMailbox:
    """One folder of one IMAP account."""

    def __init__(self, settings: ImapSettings) -> None:
        self.settings = settings
        self._client: IMAPClient | None = None
        self._uidvalidity: int | None = None
        # Highest UID fetch_unseen has handed out under the current UIDVALIDITY: mail above
        # it is "new" for wait_for_mail.
        self._high_uid = 0
        self._interrupted = threading.Event()

    # -- connection ---------------------------------------------------------------------

    def connect(self) -> None:
        """Open, secure, log in and select the folder; a no-op when already connected."""
        if self._client is not None:
            return
        client = self._open()
        try:
            self._login(client)
            uidvalidity = self._select(client)
        except BaseException:
            _shutdown(client)
            raise
        if uidvalidity != self._uidvalidity:
            self._uidvalidity = uidvalidity
            self._high_uid = 0
        self._client = client

    def close(self) -> None:
        """Log out; never raises."""
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except (OSError, IMAPClientError):
            _shutdown(client)

    def __enter__(self) -> Self:
        self.connect()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def uidvalidity(self) -> int:
        """The folder's UIDVALIDITY (connects if needed). UIDs mean nothing without it."""
        self.connect()
        assert self._uidvalidity is not None
        return self._uidvalidity

    # -- messages -----------------------------------------------------------------------

    def fetch_unseen(
        self, limit: int | None = None, *, max_bytes: int | None = None, after_uid: int = 0
    ) -> list[FetchedMessage]:
        """Unseen, undeleted messages, lowest UID first, without setting \\Seen.

        At most `limit` messages, with UIDs above `after_uid`. With `max_bytes`, the sizes
        (RFC822.SIZE) are fetched first and only the leading messages whose sizes add up to at
        most `max_bytes` are fetched whole; the first one always is, so a message larger than
        the budget comes alone, never skipped. Each carries its INTERNALDATE as `received_at`.
        """

        def fetch(client: IMAPClient) -> list[FetchedMessage]:
            # Dovecot only shows mail that arrived since the last command after a sync, and
            # syncs *after* SEARCH: without this NOOP a fresh message is missed.
            client.noop()
            criteria = ["UNSEEN", "NOT", "DELETED"]
            if after_uid > 0:
                criteria = ["UID", f"{after_uid + 1}:*", *criteria]
            # "N:*" always includes the highest UID, even below N: filter explicitly.
            uids = sorted(uid for uid in client.search(criteria) if uid > after_uid)
            if limit is not None:
                uids = uids[:limit]
            if uids and max_bytes is not None:
                uids = _within_budget(uids, client.fetch(uids, ["RFC822.SIZE"]), max_bytes)
            if not uids:
                return []
            # BODY.PEEK[] leaves \Seen alone (RFC822 and BODY[] would set it).
            data = client.fetch(uids, ["BODY.PEEK[]", "INTERNALDATE"])
            assert self._uidvalidity is not None
            return [
                FetchedMessage(
                    uid, self._uidvalidity, data[uid][b"BODY[]"], _utc(data[uid].get(b"INTERNALDATE"))
                )
                for uid in uids
                if uid in data and b"BODY[]" in data[uid]  # expunged meanwhile: skip
            ]

        messages = self._call("fetch unseen messages", fetch)
        if messages:
            self._high_uid = max(self._high_uid, messages[-1].uid)
        return messages

    def mark_seen(self, uids: Iterable[int], *, uidvalidity: int | None = None) -> None:
        """Set \\Seen on these UIDs. Pass the UIDVALIDITY they were fetched under: if the
        folder's has changed since, the UIDs name other messages and nothing is marked."""
        uid_list = sorted(set(uids))
        if not uid_list:
            return

        def mark(client: IMAPClient) -> None:
            if uidvalidity is not None and uidvalidity != self._uidvalidity:
                raise MailboxError(
                    f"UIDVALIDITY of {self.settings.folder!r} at {self.settings.address} "
                    f"changed from {uidvalidity} to {self._uidvalidity}; "
                    f"not marking UIDs {uid_list} as seen"
                )
            client.add_flags(uid_list, [SEEN], silent=True)

        self._call("mark messages as seen", mark)

    def wait_for_mail(self, timeout: float) -> bool:
        """Block up to `timeout` seconds until new mail may be there; False on timeout.

        True at once if unseen mail above the last fetched UID is waiting; otherwise IDLE
        (when enabled and offered) or NOOP every poll_seconds. Also True after the connection
        dropped while waiting: the next call reconnects, and the caller should look.
        """
        deadline = time.monotonic() + timeout
        if self._call("check for new mail", self._has_new_unseen):
            return True
        client = self._client
        assert client is not None
        try:
            if self.settings.idle and client.has_capability("IDLE"):
                return self._idle(client, deadline)
            return self._poll(client, deadline)
        except _DROPPED:
            self._discard()
            return True
        except IMAPClientError as error:
            self._discard()
            raise MailboxError(
                f"IMAP server {self.settings.address} failed while waiting for mail: {_text(error)}"
            ) from error

    def interrupt(self) -> None:
        """Make `wait_for_mail` (running in another thread, or called later) return within about
        a second, for good: the daemon calls it when it stops."""
        self._interrupted.set()

    # -- internals ----------------------------------------------------------------------

    def _call(self, what: str, operation: Callable[[IMAPClient], T]) -> T:
        """Run `operation` on a live connection; reconnect once if the old one dropped."""
        for attempt in (1, 2):
            self.connect()
            assert self._client is not None
            try:
                return operation(self._client)
            except _DROPPED as error:
                self._discard()
                if attempt == 2:
                    raise MailboxError(
                        f"lost the connection to IMAP server {self.settings.address} "
                        f"while trying to {what}: {_text(error)}"
                    ) from error
            except IMAPClientError as error:
                raise MailboxError(
                    f"IMAP server {self.settings.address} could not {what}: {_text(error)}"
                ) from error
        raise AssertionError("unreachable")

    def _has_new_unseen(self, client: IMAPClient) -> bool:
        client.noop()  # see fetch_unseen
        # "N:*" always includes the highest UID, even below N: compare explicitly.
        uids = client.search(["UID", f"{self._high_uid + 1}:*", "UNSEEN", "NOT", "DELETED"])
        return any(uid > self._high_uid for uid in uids)

    def _idle(self, client: IMAPClient, deadline: float) -> bool:
        client.idle()
        found = False
        while not found and not self._interrupted.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            # wait in slices of a second so that interrupt() (another thread) is seen soon
            slice_end = time.monotonic() + min(left, INTERRUPT_CHECK_SECONDS)
            responses = client.idle_check(timeout=slice_end - time.monotonic())
            found = _announces_mail(responses)
            if not responses and time.monotonic() < slice_end - 0.05:
                # idle_check returns early and empty when the server closed the socket;
                # idle_done() below then raises and we report "go and look".
                break
            if any(r[0] == b"BYE" for r in responses if r):
                break
        _, responses = client.idle_done()
        return found or _announces_mail(responses)

    def _poll(self, client: IMAPClient, deadline: float) -> bool:
        while True:
            _, responses = client.noop()
            if _announces_mail(responses):
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._interrupted.wait(min(self.settings.poll_seconds, left)):
                return False

    def _discard(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _shutdown(client)

    def _open(self) -> IMAPClient:
        s = self.settings
        context = self._ssl_context() if s.tls != "none" else None
        try:
            client = IMAPClient(
                s.host, s.port, ssl=s.tls == "ssl", ssl_context=context, timeout=s.timeout
            )
        except ssl.SSLError as error:
            raise MailboxError(f"TLS failure with IMAP server {s.address}: {error}") from error
        except TimeoutError as error:
            raise MailboxError(
                f"IMAP server {s.address} did not answer within {s.timeout:g} s"
            ) from error
        except (OSError, imaplib.IMAP4.error) as error:
            raise MailboxError(
                f"cannot connect to IMAP server {s.address}: {_text(error)}"
            ) from error
        # By default IMAPClient turns INTERNALDATE into a naive local time, converted with the
        # offset the system has *now* (wrong across a DST change): keep the server's offset.
        client.normalise_times = False
        if s.tls == "starttls":
            try:
                client.starttls(context)
            except CapabilityError as error:
                _shutdown(client)
                raise MailboxError(f"IMAP server {s.address} does not offer STARTTLS") from error
            except (OSError, IMAPClientError) as error:
                _shutdown(client)
                raise MailboxError(
                    f"TLS failure with IMAP server {s.address} (STARTTLS): {_text(error)}"
                ) from error
        return client

    def _ssl_context(self) -> ssl.SSLContext:
        try:
            return ssl.create_default_context(cafile=self.settings.ca_file)
        except (OSError, ssl.SSLError) as error:
            raise MailboxError(f"cannot load CA file {self.settings.ca_file!r}: {error}") from error

    def _login(self, client: IMAPClient) -> None:
        s = self.settings
        try:
            client.login(s.user, s.password)
        except (OSError, IMAPClientError) as error:  # LoginError: the server said no
            raise MailboxError(
                f"IMAP login failed for user {s.user} at {s.address}: {_text(error)}"
            ) from error

    def _select(self, client: IMAPClient) -> int:
        s = self.settings
        try:
            info = client.select_folder(s.folder)
        except (OSError, IMAPClientError) as error:
            raise MailboxError(
                f"cannot open folder {s.folder!r} of {s.user} at {s.address}: {_text(error)}"
            ) from error
        return int(info[b"UIDVALIDITY"])


def _within_budget(uids: Sequence[int], sizes: dict, max_bytes: int) -> list[int]:
    """The leading UIDs whose RFC822.SIZEs add up to at most max_bytes, and at least the first
    one still there (a message above the budget is fetched alone). Expunged UIDs are left out."""
    chosen: list[int] = []
    total = 0
    for uid in uids:
        if uid not in sizes:
            continue  # expunged since the SEARCH
        size = int(sizes[uid].get(b"RFC822.SIZE", 0))
        if chosen and total + size > max_bytes:
            break
        chosen.append(uid)
        total += size
    return chosen


def _utc(value: object) -> datetime | None:
    """An INTERNALDATE as read with normalise_times off, as an aware UTC datetime."""
    if not isinstance(value, datetime):
        return None
    if value.tzinfo is None:  # RFC 3501 requires a zone; should one be missing, take UTC
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _announces_mail(responses: Sequence[tuple]) -> bool:
    """True if untagged responses include "* n EXISTS" (a message arrived)."""
    return any(len(r) >= 2 and r[1] == b"EXISTS" for r in responses)


def _text(error: BaseException) -> str:
    """imaplib puts the server's bytes' repr into the message: b'[AUTH...] ...' -> text."""
    text = str(error)
    if len(text) >= 3 and text[0] == "b" and text[1] in "'\"" and text[-1] == text[1]:
        text = text[2:-1]
    return text or type(error).__name__


def _shutdown(client: IMAPClient) -> None:
    with contextlib.suppress(OSError):  # already closed
        client.shutdown()
