"""A message's envelope: who sent it, its subject, Message-ID, Date and To addresses, and whether
it is automated, read from its headers so that hostile headers never raise and never yield an
address gmserver could not safely answer.

Pure: the caller passes the raw bytes, which have passed gmserver.rules.limits (or are only
glanced at, `glance_envelope`). What the house rules make of the envelope is
gmserver.rules.intake.
"""

from __future__ import annotations

import email
import email.header
import email.policy
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.parser import BytesHeaderParser

from gmserver.rules.address import Mailbox, header_addresses, parse_mailbox
from gmserver.rules.automated import is_automated
from gmserver.rules.limits import header_section
from gmserver.rules.mailpolicy import MAIL_POLICY
from gmserver.rules.safetext import safe_text


@dataclass(frozen=True)
class Envelope:
    sender: str  # lower-cased address from From:
    sender_display: str
    subject: str
    message_id: str | None
    date: str | None
    # is_automated of `message` on its headers alone (no transport facts), or True when they
    # cannot be classified: False lets intake check only what the facts add (transport_reason)
    automated: bool
    message: EmailMessage = field(compare=False, repr=False)
    # the addresses of the To headers, lower-cased (recipient_header_rule, 000 II(2) a)
    to: tuple[str, ...] = ()


def parse_envelope(raw: bytes) -> Envelope:
    """The envelope of a message that passed gmserver.rules.limits (parsing anything else can
    take gigabytes: see there)."""
    return envelope_of(raw, parse_message(raw))


def parse_message(raw: bytes) -> EmailMessage | None:
    """`raw` parsed as gmserver reads mail (MAIL_POLICY), or None when the parser chokes on a
    header (RecursionError); only for a message that passed gmserver.rules.limits."""
    try:
        message = email.message_from_bytes(raw, policy=MAIL_POLICY)
    except Exception:  # noqa: BLE001  a header the parser chokes on: the caller glances at the headers alone
        return None
    assert isinstance(message, EmailMessage)
    return message


def envelope_of(raw: bytes, message: EmailMessage | None) -> Envelope:
    """`parse_envelope` of `raw` whose `parse_message` is `message` (parsed once for the envelope
    and the text: gmserver.services.inbox.routing.prepare)."""
    if message is None:
        return glance_envelope(raw)
    return _envelope(message, _header(message, "Subject"))


# A glance shows at most this much of a subject (a reply quotes it; a list prints it).
GLANCE_SUBJECT_CHARS = 200


def glance_envelope(raw: bytes) -> Envelope:
    """The envelope from a bounded look at the header section alone, with the old (compat32)
    parser that decodes nothing it is not asked to: cheap whatever the bytes are. For mail
    too large or too deep to parse (gmserver.rules.limits) and for listing stored mail."""
    headers = BytesHeaderParser(_class=EmailMessage, policy=email.policy.compat32).parsebytes(header_section(raw))
    assert isinstance(headers, EmailMessage)
    subject = " ".join(_raw_header(headers, "Subject").split())
    if len(subject) > GLANCE_SUBJECT_CHARS * 4:  # cut between words, never inside an encoded word
        subject = subject[:GLANCE_SUBJECT_CHARS * 4].rpartition(" ")[0]
    try:
        subject = str(email.header.make_header(email.header.decode_header(subject)))
    except Exception:  # noqa: BLE001  an unknown charset or broken encoded word: keep it as written
        pass
    if len(subject) > GLANCE_SUBJECT_CHARS:
        subject = subject[:GLANCE_SUBJECT_CHARS - 3] + "..."
    return _envelope(headers, subject)


def _envelope(message: EmailMessage, subject: str) -> Envelope:
    mailbox = _sender(message)
    return Envelope(
        sender=_usable_address(mailbox.address) if mailbox else "",
        sender_display=safe_text(mailbox.display or mailbox.address) if mailbox else "",
        subject=safe_text(" ".join(subject.split())),
        message_id=usable_message_id(_header(message, "Message-ID")),
        date=safe_text(_header(message, "Date")) or None,
        automated=_looks_automated(message),
        message=message,
        to=_to_addresses(message),
    )


def _to_addresses(message: EmailMessage) -> tuple[str, ...]:
    """The addr-specs of every To header, lower-cased; () when they cannot be read."""
    try:
        values = [str(value) for key, value in message.raw_items() if key.lower() == "to"]
        return tuple(address.strip().lower() for _, address in header_addresses(tuple(values)) if "@" in address)
    except Exception:  # noqa: BLE001  hostile headers must not stop intake
        return ()


def _looks_automated(message: EmailMessage) -> bool:
    """is_automated, and True when the headers cannot even be classified (a From or
    Content-Type of a thousand nested comments makes Python's parsers recurse until they fail):
    mail nobody can tell from a robot's is never answered."""
    try:
        return is_automated(message)
    except Exception:  # noqa: BLE001  RecursionError and whatever else a hostile header provokes
        return True


def _sender(message: EmailMessage) -> Mailbox | None:
    """The one mailbox of the one From header (Reply-To only when there is no From at all, as
    some broken software sends): several From headers or addresses, or one that cannot be read
    strictly, give nobody (see gmserver.rules.address)."""
    for name in ("from", "reply-to"):
        values = [value for key, value in message.raw_items() if key.lower() == name]
        if values:
            return parse_mailbox(str(values[0])) if len(values) == 1 else None
    return None


_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,900}>")  # RFC 5322 msg-id: printable ASCII, no < > or space
_ADDRESS = re.compile(r"[^\s<>(),;:\"\[\]\\@]{1,64}@[^\s<>(),;:\"\[\]\\@]{1,253}")


def is_plain_address(address: str) -> bool:
    """An addr-spec gmserver can match a sender against and answer: `anna@example.org`, not
    `<anna@example.org>`, `Anna <anna@...>` or `anna@[bad` (quoted local parts are not taken)."""
    return bool(_ADDRESS.fullmatch(address))


def replied_to(envelope: Envelope) -> tuple[str, ...]:
    """The Message-IDs the message answers: its In-Reply-To, then its References, newest first;
    only well-formed ids (a hostile header yields nothing else)."""
    try:
        values = [str(envelope.message.get(name) or "") for name in ("In-Reply-To", "References")]
    except Exception:  # noqa: BLE001  a malformed header answers nothing
        return ()
    ids = values[0].split() + list(reversed(values[1].split()))
    return tuple(dict.fromkeys(found for value in ids if (found := usable_message_id(value))))


def usable_message_id(value: str) -> str | None:
    """The Message-ID if it is one; anything else (line breaks, spaces) would be unsafe to echo
    back in In-Reply-To, so it is dropped."""
    value = value.strip()
    return value if _MESSAGE_ID.fullmatch(value) else None


def _usable_address(address: str) -> str:
    """A plain addr-spec, lower-cased, or "" when there is nobody we could safely answer."""
    address = safe_text(address.strip().lower())
    return address if is_plain_address(address) and _writes_back(address) else ""


def _writes_back(address: str) -> bool:
    """Whether a reply's To header would name this very address: `a@b..c` is written back as
    `<>` and `=?utf-8?q?a?=@x.test` as `a@x.test` (the 100,000-message fuzz run)."""
    try:
        header = MAIL_POLICY.header_factory("To", address)
        return [mailbox.addr_spec.lower() for mailbox in header.addresses] == [address]
    except Exception:  # noqa: BLE001  the email package raises on some inputs: nobody to answer
        return False


def _header(message: EmailMessage, name: str) -> str:
    """A header as text; a malformed header becomes its raw value, never an exception."""
    try:
        value = message.get(name)
        return str(value) if value is not None else ""
    except Exception:  # noqa: BLE001  hostile headers must not stop intake
        return _raw_header(message, name)


def _raw_header(message: EmailMessage, name: str) -> str:
    """The first `name` header as written, unfolded; "" if there is none."""
    for key, raw in message.raw_items():
        if key.lower() == name.lower():
            return " ".join(str(raw).split())
    return ""
