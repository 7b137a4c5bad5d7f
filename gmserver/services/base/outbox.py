"""The stored outbox: mail is queued in the transaction that caused it, then delivered.

Delivery is at-least-once, made as close to exactly-once as the transport allows. A row is
leased before sending, and marked sent in its own commit right after the transport returns, with
nothing in between (the log line and the SMTP QUIT come after that commit). Over SMTP the mark is
written before that: once the relay has said 354 and before the message's last line is sent, in a
transaction left open (holding the row, and on SQLite the database's write lock, until the relay
answers), so that after the relay's "250" only the COMMIT is left; any other answer rolls it back.
A crash between the relay's "250" and that commit resends the same message (same Message-ID, so
mail readers fold the copies) once the lease runs out; the Maildir transport stores such a resend
only once. RFC 1047 describes this window: the receiver has taken the message, the sender has not
yet recorded it, and no protocol step closes it.

Several senders may share one database (two daemons, or the daemon and `gmserver outbox send`).
Each claims a small batch at a time (FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite's writers
queue on the database lock) and leases it. Just before sending a row it renews that row's lease
with a compare-and-set on the `lease_until` it wrote itself, counting the attempt in the same
update: if another sender took the row over after the lease ran out, the compare fails and this
sender skips the row, so a long batch never sends a row someone else has taken. An attempt that
never finishes (the sender crashed, or sending it crashes the sender) has still been counted, so
a row that keeps doing that ends as `failed`.
"""

from __future__ import annotations

import email.policy
import functools
import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, bindparam, insert, or_, select, update
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.expression import Update

from gmserver.db.models import OutboxMessage, StoredReport
from gmserver.db.queries.outbox import dedupe_key_taken, dedupe_keys_taken
from gmserver.db.queries.rows import holding, insert_with_children_later, plain_rows
from gmserver.db.session import transaction
from gmserver.mail.outbound import PermanentError, RelayError, SmtpTransport, TransientError, Transport
from gmserver.mail.written import WrittenMail
from gmserver.rules.envelope import glance_envelope, is_plain_address
from gmserver.rules.safetext import safe_text
from gmserver.services.base import orders_map
from gmserver.services.base.report_copies import ReportParts, payload_of, reader_deadline, write_copy, write_row

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)
# Rows claimed at once: small, so that a claimed row waits at most a few sends for its turn
BATCH = 20

# Leases run on `now` plus the real time the call has taken (tests replace this clock).
monotonic: Callable[[], float] = time.monotonic
# Seconds between tries to record a delivered message as sent (tests replace `pause`)
RECORD_RETRY_WAITS = (0.5, 2.0)
pause: Callable[[float], None] = time.sleep


def queue(session: Session, message: EmailMessage | WrittenMail, *, kind: str, dedupe_key: str, now: datetime,
          game_id: int | None = None, addressing: dict[str, Any] | None = None) -> bool:
    """Add `message` (or the mail written for it: gmserver.mail.written) to the outbox unless a
    message with `dedupe_key` is already there. `addressing`: what the sender adds when it writes
    the mail (a confirmation's map: orders_map.py). The row is inserted at once, with a statement
    built once (`_INSERT_ROWS`): no caller reads it back as an object, and the ORM's add and
    flush of it cost more than the INSERT."""
    if dedupe_key_taken(session, dedupe_key):
        return False
    row = _outbox_row(message, kind=kind, dedupe_key=dedupe_key, now=now, game_id=game_id)
    plain_rows(session, _INSERT_ROWS, {**row, "addressing": addressing} if addressing else row, flush=False)
    return True


def queue_all(session: Session, messages: Sequence[tuple[EmailMessage, str]], *, kind: str, now: datetime,
              game_id: int | None = None) -> int:
    """`queue` for several (message, dedupe key) at once, e.g. a deadline's reports: one query for
    the keys already there and one INSERT for the rows (one query and one
    INSERT per report, each a round trip to PostgreSQL); how many were added."""
    taken = dedupe_keys_taken(session, [key for _, key in messages])
    rows = []
    for message, dedupe_key in messages:
        if dedupe_key in taken:
            continue
        taken.add(dedupe_key)
        rows.append(_outbox_row(message, kind=kind, dedupe_key=dedupe_key, now=now, game_id=game_id))
    if rows:
        session.execute(_INSERT_ROWS, rows)
    return len(rows)


# built once, on the table: each mail queues an answer, each deadline a report's copies, plain
# values the ORM's INSERT would only pass on at a cost. Column names: `raw` is the row's `stored`
_INSERT_ROWS = insert(OutboxMessage.__table__)


class ReportCopy(NamedTuple):
    """One player's copy of a stored report, as its outbox row keeps it."""

    recipient: str
    subject: str
    reply_secret: str | None
    message_id: str  # fixed now: a resend is recognisably the same message
    dedupe_key: str
    power: str | None  # whose own subject line for the next orders the copy shows
    page_links: tuple[str, ...] = ()  # the phase's web page and the player's own ([web] base_url)
    # SET ZONE: the next deadline as this player reads it (their zone, the game's and UTC beside it)
    deadline: tuple[str, str] | None = None


def queue_report(session: Session, parts: ReportParts, copies: Sequence[ReportCopy], *, sender: str,
                 now: datetime, game_id: int | None = None) -> int:
    """Store a turn report once and queue a light row for each of `copies`; the sender writes each
    copy when it sends it (services/base/report_copies.py). One query for the keys already there, one
    INSERT for the report and one for the rows; how many rows were added. Within `rows.held_writes`
    (a batch of deadlines) the INSERTs are held and no key is looked up: the keys are unique in
    the tables, so one already taken fails the held writes (`HeldWritesFailed`), and the batch is
    done again with this check."""
    held = holding(session) is not None
    taken = set() if held else dedupe_keys_taken(session, [copy.dedupe_key for copy in copies])
    fresh = [copy for copy in copies if copy.dedupe_key not in taken]
    for copy in fresh:
        if not is_plain_address(copy.recipient):  # what mail_problems says again of the written copy
            raise MalformedMail(f"report {parts.key} not queued: the recipient {copy.recipient[:80]!r} is not a "
                                "plain address")
    if not fresh:
        return 0
    rows = [{"message_id": copy.message_id, "dedupe_key": copy.dedupe_key, "kind": "report", "game_id": game_id,
             "sender": sender, "recipient": copy.recipient, "raw": b"",
             "addressing": {"subject": copy.subject, "power": copy.power,
                            **({"reply_secret": copy.reply_secret} if copy.reply_secret else {}),
                            **({"page_links": list(copy.page_links)} if copy.page_links else {}),
                            **({"deadline": list(copy.deadline)} if copy.deadline else {})},
             "status": "pending", "attempts": 0, "next_attempt_at": now, "created_at": now}
            for copy in fresh]
    report = session.scalar(select(StoredReport.id).where(StoredReport.key == parts.key)) if taken else None
    if report is not None:  # stored by an earlier queueing of it: its missing copies refer to it
        session.execute(_INSERT_ROWS, [{**row, "report_id": report} for row in rows])
    else:
        insert_with_children_later(session, StoredReport.__table__, {"key": parts.key, "game_id": game_id,
                                                                     "payload": payload_of(parts), "created_at": now},
                                   "key", _INSERT_ROWS, "report_id", rows)
    return len(fresh)


def _outbox_row(message: EmailMessage | WrittenMail, *, kind: str, dedupe_key: str, now: datetime,
                game_id: int | None) -> dict[str, Any]:
    """The outbox row's values for `message` (by column: `raw` is the row's `stored`), checked
    (`mail_problems`)."""
    if isinstance(message, WrittenMail):  # written with the policy below (gmserver.mail.written)
        message_id, sender, recipient, raw = message.message_id, message.sender, message.recipient, message.raw
    else:
        recipient = str(message["To"].addresses[0].addr_spec)
        # CRLF line ends: SMTP needs them, and smtplib does not convert bytes (RFC 5321 2.3.8).
        # An address that is not ASCII has no encoded form in a header: it is written as UTF-8
        # (RFC 6532), for a relay that offers SMTPUTF8, as the transport requires for it anyway.
        raw = message.as_bytes(policy=email.policy.SMTP if recipient.isascii() else email.policy.SMTPUTF8)
        message_id, sender = str(message["Message-ID"]), str(message["From"].addresses[0].addr_spec)
    if problems := mail_problems(raw, recipient):
        # Every mail gmserver sends passes here: one built from hostile input that came out
        # malformed is never sent; the exception parks the message that caused it, for the GM.
        raise MalformedMail(f"{kind} {dedupe_key} not queued: {'; '.join(problems)}")
    return {"message_id": message_id, "dedupe_key": dedupe_key, "kind": kind, "game_id": game_id,
            "sender": sender, "recipient": recipient, "raw": raw,
            "status": "pending", "attempts": 0, "next_attempt_at": now, "created_at": now}


class MalformedMail(ValueError):
    """A message gmserver built is not fit to send (see `mail_problems`)."""


_ONE_EACH = ("From", "To", "Subject", "Message-ID", "Date", "Auto-Submitted")


def message_bytes(row: OutboxMessage) -> bytes:
    """What is sent for `row`: its stored bytes or, for a player's copy of a stored report not sent
    yet, the copy written now (the same bytes the sender will write: `_written`)."""
    if not row.stored and row.report_id is not None:
        return write_row(row)
    return orders_map.with_map(row.stored, row.addressing, row.recipient) if row.report_id is None else row.stored


def subject_of(row: OutboxMessage) -> str:
    """An outgoing message's subject from its headers alone; a player's copy of a stored report
    not written yet keeps it in `addressing` (writing the whole report to show it would be waste)."""
    if not row.stored:
        return safe_text(str((row.addressing or {}).get("subject") or "?"))
    try:
        return glance_envelope(row.stored).subject
    except Exception:  # noqa: BLE001  a listing shows every row, whatever one row's bytes are
        return "(headers unreadable)"


def mail_problems(raw: bytes, recipient: str) -> list[str]:
    """What makes an outgoing message unfit to send. It protects the relay and the recipients from
    a mail built from hostile input that came out malformed (the fuzz run found a few such
    replies among 100,000): a header line broken by a stray CR or LF, a line in the header block
    that is no header field, a header gmserver always writes (From, To, Subject, Message-ID, Date,
    Auto-Submitted) missing or doubled, a Cc or Bcc (a second recipient), and a recipient that is
    not the one plain address the row is sent to.

    Only the message's own header block is read (up to its first empty line): everything checked
    is there, and the parts below it are MIME parts whose headers gmserver wrote itself (a turn
    report's shared parts were written once per report, a player's copy adds only its own text).
    Its lines are read as every mail reader may read them, split at CRLF, CR or LF alike, and a
    header name is compared without case, so that a name smuggled after a stray line end is
    counted too; nothing in the block is skipped (email's parser stopped at a line that was no
    header field, and missed what came after it)."""
    problems = []
    end = raw.find(b"\r\n\r\n")
    head = raw[:end] if end >= 0 else raw
    if any(b"\r" in line or b"\n" in line for line in head.split(b"\r\n")):
        problems.append("a stray CR or LF in a header")
    if not is_plain_address(recipient):
        problems.append(f"the recipient {recipient[:80]!r} is not a plain address")
    counts: dict[bytes, int] = {}
    no_field = False
    for line in head.splitlines():
        if not line or line[:1] in b" \t":  # an empty line is a stray line end, said above; WSP folds
            continue
        name, colon, _ = line.partition(b":")
        name = name.rstrip(b" \t").lower()
        if not colon or not _FIELD_NAME.fullmatch(name):
            no_field = True
            continue
        counts[name] = counts.get(name, 0) + 1
    if no_field:
        problems.append("a header line that is no header field")
    for shown, name in _ONE_EACH_NAME:
        if counts.get(name, 0) != 1:
            problems.append(f"{counts.get(name, 0)} {shown} headers")
    for shown, name in (("Cc", b"cc"), ("Bcc", b"bcc")):
        if name in counts:
            problems.append(f"a {shown} header")
    return problems


_ONE_EACH_NAME = tuple((name, name.lower().encode()) for name in _ONE_EACH)
# RFC 5322 2.2: a field name is printable ASCII but the colon
_FIELD_NAME = re.compile(rb"[\x21-\x39\x3b-\x7e]+")


def backoff(attempts: int) -> timedelta:
    """1, 2, 4 ... minutes, at most an hour, after the n-th failed attempt."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 60))


@dataclass(frozen=True)
class DeliveryReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    # why the pass stopped early: the relay itself could not be used (RelayError), else None
    relay_error: str | None = None

    @property
    def attempted(self) -> int:
        return self.sent + self.retrying + self.failed


class _Claimed(NamedTuple):
    id: int
    message_id: str
    kind: str
    sender: str
    recipient: str
    raw: bytes  # empty: a player's copy of a stored report, written at this attempt (`payload`, `addressing`)
    attempts: int  # before this attempt
    payload: str | None = None  # the stored report's JSON
    addressing: dict[str, Any] | None = None


def deliver_due(sessions: sessionmaker[Session], transport: Transport, now: datetime, *,
                max_attempts: int = 8, limit: int = 200) -> DeliveryReport:
    """Send up to `limit` messages that are due at `now`, claiming `BATCH` at a time.

    One call is one pass, for `outbox send --once` and the daemon (which calls it until nothing
    was attempted). When the relay itself is unusable (`RelayError`: unreachable, TLS, AUTH,
    MAIL FROM refused) the pass stops after that message, and the rest of its batch waits as
    long as that message does.
    """
    started = monotonic()

    def lease_end() -> datetime:
        return now + timedelta(seconds=monotonic() - started) + LEASE

    try:
        return _deliver_batches(sessions, transport, now, lease_end, max_attempts, limit)
    finally:
        transport.close()  # e.g. the last SMTP session's QUIT, after its message was recorded


def _deliver_batches(sessions: sessionmaker[Session], transport: Transport, now: datetime,
                     lease_end: Callable[[], datetime], max_attempts: int, limit: int) -> DeliveryReport:
    sent = retrying = failed = 0
    left = limit
    while left > 0:
        size = min(BATCH, left)
        lease = lease_end()
        batch, gave_up = _claim(sessions, now, lease, size, max_attempts)
        failed += gave_up
        left -= len(batch) + gave_up
        for index, row in enumerate(batch):
            outcome, relay_error = _deliver_one(sessions, transport, row, lease, lease_end(), now,
                                                max_attempts)
            if outcome == "sent":
                sent += 1
            elif outcome == "failed":
                failed += 1
            elif outcome == "retrying":
                retrying += 1
            if relay_error is not None:
                _release(sessions, batch[index + 1:], lease, now + backoff(row.attempts + 1))
                return DeliveryReport(sent, retrying, failed, relay_error)
        if len(batch) + gave_up < size:
            break  # nothing more is due
    return DeliveryReport(sent, retrying, failed)


_OUTBOX = OutboxMessage.__table__


def _claim(sessions: sessionmaker[Session], now: datetime, lease: datetime, size: int,
           max_attempts: int) -> tuple[list[_Claimed], int]:
    """Lease up to `size` due rows; a row whose last allowed attempt never finished is failed.
    Core statements on a connection, built once (every few sent mails claim): the due rows, the
    stored reports of those written at this attempt, one UPDATE for the lease."""
    claimed: list[_Claimed] = []
    gave_up = 0
    with _engine(sessions).begin() as connection:
        rows = connection.execute(_DUE, {"now": now, "size": size}).all()
        wanted = {row.report_id for row in rows if not row.raw and row.report_id is not None}
        payloads = dict(connection.execute(_REPORT_PAYLOADS, {"ids": sorted(wanted)}).all()) if wanted else {}
        for row in rows:
            if row.status == "sending" and row.attempts >= max_attempts:
                last_error = (f"attempt {row.attempts} of {max_attempts} never finished (the sender "
                              f"stopped while sending); it may or may not have been delivered"
                              + (f"; before that: {row.last_error}" if row.last_error else ""))
                connection.execute(_GIVE_UP, {"row_id": row.id, "last_error": last_error})
                gave_up += 1
                log.error("outbox: giving up on %s %d to %s: %s", row.kind, row.id, row.recipient, last_error)
                continue
            claimed.append(_Claimed(row.id, row.message_id, row.kind, row.sender, row.recipient, row.raw, row.attempts,
                                    payloads.get(row.report_id) if not row.raw else None, row.addressing))
        if claimed:
            connection.execute(_LEASE, {"ids": [row.id for row in claimed], "lease": lease})
    return claimed, gave_up


_DUE = (select(_OUTBOX.c.id, _OUTBOX.c.message_id, _OUTBOX.c.kind, _OUTBOX.c.sender, _OUTBOX.c.recipient,
               _OUTBOX.c.raw, _OUTBOX.c.attempts, _OUTBOX.c.status, _OUTBOX.c.report_id, _OUTBOX.c.addressing,
               _OUTBOX.c.last_error)
        .where(or_((_OUTBOX.c.status == "pending") & (_OUTBOX.c.next_attempt_at <= bindparam("now")),
                   (_OUTBOX.c.status == "sending") & (_OUTBOX.c.lease_until < bindparam("now"))))
        .order_by(_OUTBOX.c.id)
        .limit(bindparam("size"))
        .with_for_update(skip_locked=True))
_REPORTS = StoredReport.__table__
_REPORT_PAYLOADS = select(_REPORTS.c.id, _REPORTS.c.payload).where(
    _REPORTS.c.id.in_(bindparam("ids", expanding=True)))
_LEASE = (update(_OUTBOX).where(_OUTBOX.c.id.in_(bindparam("ids", expanding=True)))
          .values(status="sending", lease_until=bindparam("lease")))
_GIVE_UP = (update(_OUTBOX).where(_OUTBOX.c.id == bindparam("row_id"))
            .values(status="failed", lease_until=None, last_error=bindparam("last_error")))


def _deliver_one(sessions: sessionmaker[Session], transport: Transport, row: _Claimed, held: datetime,
                 renewed: datetime, now: datetime, max_attempts: int) -> tuple[str, str | None]:
    """Write the message if it is a copy of a stored report; renew the lease (counting the
    attempt, and keeping the bytes written: a retry sends the same bytes); send; record. Returns
    "sent", "retrying", "failed" or "skipped" (another sender has the row), and the RelayError's
    text when the relay itself is unusable (else None)."""
    row, unfit = _written(row)
    drawn = _draws_map(row)
    if not _renew(sessions, row, held, renewed, keep=(row.payload is not None or drawn) and not unfit, drawn=drawn):
        log.warning("outbox: %s %d to %s was taken over by another sender after its lease ran out; "
                    "leaving it to that one", row.kind, row.id, row.recipient)
        return "skipped", None
    attempts = row.attempts + 1

    mark = _SentMark(sessions, row.id, now)
    try:
        outcome, error, note, relay_unusable = ("failed", unfit, "", False) if unfit else _send(transport, row, mark)
        if outcome == "sent" and not mark.commit():
            _record_sent(sessions, row.id, now)
    finally:
        mark.discard()
    if outcome == "retrying" and attempts >= max_attempts:
        outcome = "failed"

    if outcome == "sent":
        log.info("outbox: delivered %s %d to %s (%s)", row.kind, row.id, row.recipient, note)
        return outcome, None

    with transaction(sessions) as session:
        status = "failed" if outcome == "failed" else "pending"
        values: dict[str, object] = {"status": status, "lease_until": None, "last_error": error}
        if status == "pending":
            values["next_attempt_at"] = now + backoff(attempts)
        recorded = session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == row.id, OutboxMessage.status == "sending",
                   OutboxMessage.lease_until == renewed)
            .values(**values)
            .execution_options(synchronize_session=False)
        ).rowcount
    if relay_unusable:
        log.error("outbox: the relay cannot be used: a relay configuration problem (or the relay is "
                  "down), not a problem with the message; check the [outbound.smtp] settings. %s", error)
    if not recorded:
        log.warning("outbox: %s %d to %s: %s; not recorded, another sender has taken the row over",
                    row.kind, row.id, row.recipient, error)
    elif outcome == "failed":
        log.error("outbox: giving up on %s %d to %s after %d attempt(s): %s",
                  row.kind, row.id, row.recipient, attempts, error)
    elif relay_unusable:
        log.warning("outbox: %s %d to %s and the rest of its batch wait until %s", row.kind, row.id,
                    row.recipient, values["next_attempt_at"])
    else:
        log.warning("outbox: %s %d to %s will be retried at %s: %s", row.kind, row.id, row.recipient,
                    values["next_attempt_at"], error)
    return outcome, error if relay_unusable else None


def _renew(sessions: sessionmaker[Session], row: _Claimed, held: datetime, renewed: datetime, keep: bool,
           drawn: bool = False) -> bool:
    """Compare-and-set the lease this sender holds, counting the attempt (and, with `keep`,
    keeping the bytes just written; `drawn`: they hold the map the row asked for, which is then
    forgotten, so that a retry sends those bytes); False if another sender has taken the row over."""
    kept: dict[str, Any] = {"stored": row.raw} if keep else {}
    with _engine(sessions).begin() as connection:
        return bool(connection.execute(_renewal(keep, keep and drawn),
                                       {"row_id": row.id, "held": held, "renewed": renewed, **kept}).rowcount)


def _engine(sessions: sessionmaker[Session]) -> Engine:
    """The engine `sessions` are bound to: the sender's own bookkeeping (the lease's renewal, the
    sent mark) is one statement in a transaction of its own, sent on a connection without a
    Session (a Session's unit of work tripled its client cost: docs/performance.md)."""
    return sessions.kw["bind"]



@functools.cache
def _renewal(keep: bool, forget_map: bool) -> Update:
    """`_renew`'s UPDATE (built once per variant: every sent mail renews its lease)."""
    values: dict[str, Any] = {"lease_until": bindparam("renewed"), "attempts": _OUTBOX.c.attempts + 1}
    if keep:
        values["raw"] = bindparam("stored")
    if forget_map:
        values["addressing"] = None
    return (update(_OUTBOX)
            .where(_OUTBOX.c.id == bindparam("row_id"), _OUTBOX.c.status == "sending",
                   _OUTBOX.c.lease_until == bindparam("held"))
            .values(**values))


def _draws_map(row: _Claimed) -> bool:
    """Whether `row` is a mail (not a report's copy) whose map the sender draws (orders_map.py)."""
    return row.payload is None and bool(row.addressing) and orders_map.KEY in (row.addressing or {})


def _written(row: _Claimed) -> tuple[_Claimed, str | None]:
    """`row` with its bytes: as stored, or a player's copy of a stored report written now
    (services/base/report_copies.py), checked as every queued message is (`mail_problems`); and why it
    cannot be sent, if it cannot."""
    if _draws_map(row):
        raw = orders_map.with_map(row.raw, row.addressing, row.recipient)
        if problems := mail_problems(raw, row.recipient):
            return row, f"not sent: {'; '.join(problems)}"
        return row._replace(raw=raw), None
    if row.payload is None or row.addressing is None:
        return row, None
    try:
        raw = write_copy(row.payload, to=row.recipient, subject=row.addressing["subject"],
                         reply_secret=row.addressing.get("reply_secret"), message_id=row.message_id,
                         power=row.addressing.get("power"), page_links=tuple(row.addressing.get("page_links") or ()),
                         deadline=reader_deadline(row.addressing))
    except Exception as problem:
        log.exception("outbox: writing %s %d to %s raised", row.kind, row.id, row.recipient)
        return row, f"the report could not be written: {type(problem).__name__}: {problem}"
    if problems := mail_problems(raw, row.recipient):
        return row, f"not sent: {'; '.join(problems)}"
    return row._replace(raw=raw), None


def _send(transport: Transport, row: _Claimed, mark: _SentMark) -> tuple[str, str | None, str, bool]:
    """Hand the message to the relay: ("sent", None, the relay's note, False), or "failed" /
    "retrying" with the error, and whether the relay itself is unusable (a RelayError). Over
    SMTP the "sent" mark is written while the relay cannot yet have taken the message."""
    try:
        if isinstance(transport, SmtpTransport):
            return "sent", None, transport.send(row.sender, row.recipient, row.raw, message_id=row.message_id,
                                                before_end_of_data=mark.write), False
        return "sent", None, transport.send(row.sender, row.recipient, row.raw, message_id=row.message_id), False
    except PermanentError as problem:
        return "failed", str(problem), "", False
    except RelayError as problem:
        return "retrying", str(problem), "", True
    except TransientError as problem:
        return "retrying", str(problem), "", False
    except Exception as problem:  # one message must not stop the outbox
        log.exception("outbox: sending %s %d to %s raised", row.kind, row.id, row.recipient)
        return "retrying", f"sending raised {type(problem).__name__}: {problem}", "", False


# The UPDATE that records a delivery: delivered, whoever holds the lease now
_SENT = (update(_OUTBOX).where(_OUTBOX.c.id == bindparam("row_id"))
         .values(status="sent", sent_at=bindparam("sent_at"), lease_until=None, last_error=None))


class _SentMark:
    """A row's "sent" mark written ahead, in a transaction of its own left open: `write` runs
    before the relay can have accepted the message, `commit` is the first thing after its 250,
    `discard` rolls back a mark not committed. A database that cannot take the mark ahead leaves
    the recording to `_record_sent` after the 250, as without it."""

    def __init__(self, sessions: sessionmaker[Session], row_id: int, now: datetime) -> None:
        self._sessions, self._row_id, self._now = sessions, row_id, now
        self._connection: Connection | None = None

    def write(self) -> None:
        connection = None
        try:
            connection = _engine(self._sessions).connect()
            connection.begin()
            connection.execute(_SENT, {"row_id": self._row_id, "sent_at": self._now})
        except (OperationalError, InterfaceError) as error:
            if connection is not None:
                connection.close()
            log.warning("outbox: message %d: the sent mark could not be written ahead (%s); it is written "
                        "after the relay's answer", self._row_id, error.orig)
            return
        self._connection = connection

    def commit(self) -> bool:
        connection, self._connection = self._connection, None
        if connection is None:
            return False
        try:
            connection.commit()
            return True
        except (OperationalError, InterfaceError) as error:
            log.warning("outbox: message %d was delivered; committing its sent mark failed (%s)", self._row_id,
                        error.orig)
            return False
        finally:
            connection.close()

    def discard(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()  # rolls the mark back


def _record_sent(sessions: sessionmaker[Session], row_id: int, now: datetime) -> None:
    """The first thing after the relay's 250, in its own commit: delivered, whoever holds the
    lease now. A database that fails for a moment is tried again at once (a few times, a few
    seconds in all): each failure left standing means the message is sent again after the lease."""
    for wait in (*RECORD_RETRY_WAITS, None):
        try:
            with _engine(sessions).begin() as connection:
                connection.execute(_SENT, {"row_id": row_id, "sent_at": now})
            return
        except (OperationalError, InterfaceError) as error:
            if wait is None:
                log.error("outbox: message %d was delivered but cannot be recorded as sent (%s); it will be "
                          "sent again (same Message-ID) when its lease runs out", row_id, error.orig)
                raise
            log.warning("outbox: message %d was delivered; recording it failed (%s); trying again in %s s",
                        row_id, error.orig, wait)
            pause(wait)


def _release(sessions: sessionmaker[Session], rows: Iterable[_Claimed], held: datetime,
             retry_at: datetime) -> None:
    """Give back claimed rows that were not tried, due again at `retry_at`; no attempt counted."""
    ids = [row.id for row in rows]
    if not ids:
        return
    with transaction(sessions) as session:
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_(ids), OutboxMessage.status == "sending",
                   OutboxMessage.lease_until == held)
            .values(status="pending", lease_until=None, next_attempt_at=retry_at)
            .execution_options(synchronize_session=False))


def requeue_failed(sessions: sessionmaker[Session], now: datetime, ids: Iterable[int] | None = None) -> int:
    """Put failed messages back in the queue, due at `now` with no attempts counted (for
    `gmserver outbox retry`, after the GM fixed what made them fail); all of them, or only
    `ids`. Returns how many were requeued. Each keeps its Message-ID and its last error."""
    query = update(OutboxMessage).where(OutboxMessage.status == "failed")
    if ids is not None:
        wanted = sorted(set(ids))
        if not wanted:
            return 0
        query = query.where(OutboxMessage.id.in_(wanted))
    with transaction(sessions) as session:
        count = session.execute(
            query.values(status="pending", attempts=0, next_attempt_at=now, lease_until=None)
            .execution_options(synchronize_session=False)
        ).rowcount
    if count:
        log.info("outbox: %d failed message(s) queued again", count)
    return count
