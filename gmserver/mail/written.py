"""An outgoing message written straight to the bytes the outbox stores, for the answers intake sends
with every filed set (the confirmation, "orders unchanged").

Why: `Composer.compose` builds an `EmailMessage` (a header object parsed for every header it sets,
the body encoded by `set_content`) that the outbox at once writes with `as_bytes()`, and nothing
reads in between; the two cost some 18 % of intake's CPU per order mail (docs/performance.md).
`write` gives the same bytes as `compose(...).as_bytes(policy)`: a header the email package writes
as `Name: value` unchanged (`compose.plain_header`: plain ASCII words or addresses, no encoded word,
within the line length) is written so, any other is parsed and folded by the email package, the
same calls `as_bytes` makes; a body whose lines all fit is written as `set_content` encodes it
(7bit if ASCII, else 8bit: the policy's `cte_type`), any other is encoded by `set_content` itself.
tests/unit/test_written_mail.py compares the two.
"""

from __future__ import annotations

import email.utils
import re
from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP, SMTPUTF8, EmailPolicy
from typing import NamedTuple

from gmserver.mail.compose import AutoSubmitted, Composer, mark_gm_mail, new_message_id, plain_address, plain_header
from gmserver.rules.authenticity import reply_address
from gmserver.rules.mailpolicy import MAIL_POLICY
from gmserver.rules.safetext import safe_text


@dataclass(frozen=True)
class Draft:
    """What `Composer.compose` is given for one message (its arguments, as there)."""

    to: str
    subject: str
    body: str
    auto_submitted: AutoSubmitted
    date: datetime
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    reply_secret: str | None = None
    message_id: str | None = None


@dataclass(frozen=True)
class WrittenMail:
    """A message as the outbox stores it, with what the outbox row keeps beside its bytes."""

    raw: bytes
    message_id: str
    sender: str
    recipient: str
    draft: Draft  # what it was written from: a copy for another address is written from it


def write(composer: Composer, draft: Draft) -> WrittenMail:
    """`draft` as the bytes `as_bytes(policy)` gives for the message `composer.compose` makes of
    its fields, with the outbox's policy: SMTP, or SMTPUTF8 for a recipient that is not ASCII
    (outbox._outbox_row). A header value the email package refuses (a line break) raises its
    ValueError, as `compose` does."""
    message_id = draft.message_id or new_message_id(composer.domain)
    fields: list[tuple[str, object]] = [("From", _AddressOf(composer.gm_name, composer.gm_address)),
                                        ("To", draft.to)]
    if draft.reply_secret:
        fields.append(("Reply-To", _AddressOf(composer.gm_name,
                                              reply_address(composer.gm_address, draft.reply_secret))))
    fields += [("Subject", safe_text(draft.subject)), ("Date", email.utils.format_datetime(draft.date)),
               ("Message-ID", message_id)]
    if draft.in_reply_to:
        fields.append(("In-Reply-To", draft.in_reply_to))
    chain = [reference for reference in draft.references if reference]
    if draft.in_reply_to and draft.in_reply_to not in chain:
        chain.append(draft.in_reply_to)
    if chain:
        fields.append(("References", " ".join(chain)))
    fields += [("Auto-Submitted", draft.auto_submitted), ("X-Auto-Response-Suppress", "All")]

    made = [_field(name, value) for name, value in fields]
    sender, recipient = _address(made[0], composer.gm_address), _address(made[1], draft.to)
    policy = SMTP if recipient.isascii() else SMTPUTF8
    body = mark_gm_mail(safe_text(draft.body))
    raw = b"".join(_folded(field, policy) for field in made) + _content(body if body.endswith("\n") else body + "\n",
                                                                        policy)
    return WrittenMail(raw=raw, message_id=next(str(value) for name, value in made if name == "Message-ID"),
                       sender=sender, recipient=recipient, draft=draft)


# a field: its line as the email package writes it (plain) or its header object, to fold
_Field = tuple[str, object]


class _AddressOf(NamedTuple):
    """An Address to be, made only for the email package to fold (`compose.plain_address`)."""

    display_name: str
    addr_spec: str


def _field(name: str, value: object) -> _Field:
    if isinstance(value, _AddressOf):
        plain = plain_address(name, value.display_name, value.addr_spec)
        if plain is None:
            value = Address(display_name=value.display_name, addr_spec=value.addr_spec)
    elif isinstance(value, str) and name == "Date" and _FORMATTED_DATE.fullmatch(value):
        return name, _PlainText(value)
    else:
        plain = plain_header(name, value)
    if plain is not None:
        return name, _PlainText(str(plain))
    # what `message[name] = value` stores (and the ValueError it raises for a line break)
    return MAIL_POLICY.header_store_parse(name, value)


class _PlainText(str):
    """A header value written as it is."""


def _folded(field: _Field, policy: EmailPolicy) -> bytes:
    name, value = field
    if isinstance(value, _PlainText):
        return f"{name}: {value}{policy.linesep}".encode("ascii")
    return policy.fold_binary(name, value)


def _address(field: _Field, given: str) -> str:
    """The address of a From or To field as the outbox reads it from the message (its first
    address's addr_spec): `given` itself when it was written as it is."""
    value = field[1]
    return given if isinstance(value, _PlainText) else str(value.addresses[0].addr_spec)


# email.utils.format_datetime's text, which the Date header's parse gives back unchanged: a year
# of four digits from 100 (a two-digit year is read as 19xx or 20xx) and an offset of whole
# minutes (one with seconds is not read back)
_FORMATTED_DATE = re.compile(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                             r"(0[1-9][0-9]{2}|[1-9][0-9]{3}) [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}")


def _content(text: str, policy: EmailPolicy) -> bytes:
    """The Content-* and MIME-Version fields and the body of `text`, as `set_content(text,
    charset="utf-8")` makes them and `as_bytes(policy)` writes them. Every line within the
    line length: 7bit for ASCII, else 8bit (MAIL_POLICY's cte_type), the lines as they are;
    else the email package chooses (quoted-printable or base64) and writes it."""
    encoded = text.encode("utf-8")
    lines = encoded.splitlines()
    if max(map(len, lines), default=0) <= MAIL_POLICY.max_line_length:
        linesep = policy.linesep.encode("ascii")
        return _CONTENT_HEAD[encoded.isascii()].replace(b"\n", linesep) + linesep.join(lines) + linesep
    part = EmailMessage(policy=MAIL_POLICY)
    part.set_content(text, charset="utf-8")
    return part.as_bytes(policy=policy)


# the fields set_content writes, in its order, and the empty line: by whether the text is ASCII
_CONTENT_HEAD = {True: b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 7bit\nMIME-Version: 1.0\n\n',
                 False: b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\nMIME-Version: 1.0\n\n'}


def subject_as_read(draft: Draft) -> str:
    """The Subject of the message `draft` makes as a reader of it gets it (`str(message["Subject"])`)."""
    return str(MAIL_POLICY.header_factory("Subject", safe_text(draft.subject)))


