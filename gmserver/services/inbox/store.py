"""Inbound mail is stored first: the raw bytes are committed before anything else happens (and
before the IMAP server is told \\Seen or the SMTP client gets its 250), once per message however
often it arrives (services.inbox.runner processes what is stored)."""

from __future__ import annotations

import email.policy
import hashlib
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.parser import BytesHeaderParser

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from gmserver.db.queries.inbound import (
    first_with_fingerprint,
    insert_inbound,
    stored_at_uid,
    stored_with_fingerprint,
)
from gmserver.db.session import connection_transaction
from gmserver.rules.safetext import safe_text

log = logging.getLogger(__name__)

# The headers whose values are part of what a message says: a corrected re-send that changes one
# of them is a new message (a player's corrected re-send: the same Message-ID and body, a fixed Subject). Transport headers
# (Received, Delivered-To, Return-Path, X-Original-To...) are left out, so the same message
# arriving along two paths is stored once.
FINGERPRINT_HEADERS = ("Message-ID", "From", "Subject", "Date")
# Without a Message-ID nothing says two messages are one: the same body sent by the same player to
# two games' reply addresses (gm+SECRET@...) must stay two messages, so the addressees count too,
# and so does the first hop's trace (the lowest Received line, written by the server the sender
# handed the message to, with its time and queue id): a relay's retry of the same message carries
# the same line, the same words sent again later carry a new one.
ADDRESSEE_HEADERS = ("To", "Cc")


def fingerprint(raw: bytes) -> tuple[str, str | None]:
    """(fingerprint, Message-ID): a hash of the FINGERPRINT_HEADERS values (unfolded, as
    written: nothing is decoded, so this is cheap on hostile mail), of the ADDRESSEE_HEADERS and
    the first hop's Received line where there is no Message-ID, and of the body."""
    digest, message_id, _ = _fingerprint(raw)
    return digest, message_id


def _fingerprint(raw: bytes) -> tuple[str, str | None, bool]:
    """fingerprint, and whether the message carries a mark of one sending (a Message-ID or a
    Received line)."""
    headers = BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    values = {name: _unfolded(headers.get_all(name) or []) for name in FINGERPRINT_HEADERS}
    first_id = headers.get("Message-ID")
    message_id = (safe_text(" ".join(str(first_id).split()))[:900] if first_id is not None else "") or None
    trace = headers.get_all("Received") or []
    if message_id is None:
        values |= {name: _unfolded(headers.get_all(name) or []) for name in ADDRESSEE_HEADERS}
        values["Received"] = _unfolded(trace[-1:])
    digest = hashlib.sha256()
    for name, value in values.items():
        digest.update(name.encode() + b":" + value.encode("utf-8", "surrogateescape") + b"\0")
    digest.update(_body(raw))
    return digest.hexdigest(), message_id, message_id is not None or bool(trace)


def _legacy_fingerprint(raw: bytes, message_id: str | None) -> str:
    """The fingerprint gmserver gave messages before FINGERPRINT_HEADERS (Message-ID and body
    only; the whole message without a Message-ID): checked too, so that a message stored before
    an upgrade and fetched again after it is not stored twice."""
    if message_id is None:
        return hashlib.sha256(raw).hexdigest()
    body = raw.partition(b"\r\n\r\n")[2] if b"\r\n\r\n" in raw else raw.partition(b"\n\n")[2]
    return hashlib.sha256(message_id.encode() + b"\0" + body.replace(b"\r\n", b"\n").rstrip()).hexdigest()


def _unfolded(values: list) -> str:
    # compat32 keeps non-ASCII bytes as surrogates or Header objects: str() is safe on both
    return " ".join(" ".join(str(value).split()) for value in values)


def _body(raw: bytes) -> bytes:
    """The body after the first empty line, line endings normalised and trailing space dropped."""
    ends = [(index, len(separator)) for separator in (b"\r\n\r\n", b"\n\n")
            if (index := raw.find(separator)) >= 0]
    if not ends:
        return b""
    index, length = min(ends)
    return raw[index + length:].replace(b"\r\n", b"\n").rstrip()


def _stored_already(connection: Connection, raw: bytes, digest: str, message_id: str | None, marked: bool, *,
                    source: str, mailbox: str | None, uidvalidity: int | None,
                    uid: int | None) -> tuple[int | None, str]:
    """(the id of the stored message `raw` is a redelivery of, or None; the fingerprint to store
    it under). What a server redelivers: the same IMAP folder, UIDVALIDITY and UID; the same
    Message-ID (the fingerprint); the same first-hop Received line; the same message along the
    other path (the listener and IMAP). Without any of these marks, the same words arriving again
    by the same path are a player's second message (a set sent again after another), not a
    redelivery, and are stored under a fingerprint of their own."""
    if message_id is None and uid is not None and uidvalidity is not None:
        if (at := stored_at_uid(connection, mailbox, uidvalidity, uid)) is not None:
            return at, digest
    first = first_with_fingerprint(connection, (digest, _legacy_fingerprint(raw, message_id)))
    if first is None:
        return None, digest
    if marked or first.source != source:
        return first.id, digest
    log.info("a message with no Message-ID nor Received line has the words of inbound %s and came by %s "
             "again: stored as a new message", first.id, source)
    return None, hashlib.sha256(f"{digest}:again:{uuid.uuid4().hex}".encode()).hexdigest()


@dataclass(frozen=True)
class Stored:
    id: int
    duplicate: bool


def store(sessions, raw: bytes, *, source: str, now: datetime, mailbox: str | None = None,
          uidvalidity: int | None = None, uid: int | None = None, received_at: datetime | None = None,
          envelope_from: str | None = None, envelope_to: Sequence[str] | None = None) -> Stored:
    """Insert the raw message unless it is already stored; commit before returning.

    `received_at`: when the message reached the GM (IMAP INTERNALDATE); deadlines are judged by
    it, not by when gmserver got round to fetching it. Defaults to `now`.
    `envelope_from`, `envelope_to`: the SMTP/LMTP envelope when the listener received it (MAIL
    FROM "" for the null sender of a bounce, which is then never answered); None over IMAP."""
    digest, message_id, marked = _fingerprint(raw)
    try:
        # one transaction for the look and the insert: a message stored by another worker between
        # them fails the insert on the fingerprint's uniqueness, handled below
        with connection_transaction(sessions) as connection:
            existing, digest = _stored_already(connection, raw, digest, message_id, marked, source=source,
                                               mailbox=mailbox, uidvalidity=uidvalidity, uid=uid)
            if existing is not None:
                log.info("a message (%s) already stored as inbound %s arrived again by %s: not stored twice",
                         message_id or "no Message-ID", existing, source)
                return Stored(existing, True)
            stored = insert_inbound(connection, {
                "fingerprint": digest, "message_id": message_id, "source": source, "mailbox": mailbox,
                "uidvalidity": uidvalidity, "uid": uid, "raw": raw, "received_at": received_at or now,
                "status": "pending", "envelope_from": envelope_from,
                "envelope_to": list(envelope_to) if envelope_to is not None else None})
            return Stored(stored, False)
    except IntegrityError:  # another worker stored it between our check and insert
        with connection_transaction(sessions) as connection:
            return Stored(stored_with_fingerprint(connection, (digest,)), True)
