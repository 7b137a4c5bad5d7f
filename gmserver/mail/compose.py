"""Mail bodies from templates, and outgoing messages built around them.

`Composer.render` fills a template in `templates/` from a context (a `gmserver.reports` value or a
mapping); `Composer.compose` wraps a body into an `EmailMessage` whose Message-ID is fixed when it
is created, so the outbox can resend the very same message after a crash. `is_automated` says
whether an incoming message must never be answered (RFC 3834).
"""

from __future__ import annotations

import copy as pycopy
import dataclasses
import email.policy
import email.utils
import re
import textwrap
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from email import quoprimime
from email.headerregistry import Address, BaseHeader, UnstructuredHeader
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Literal

import jinja2

from gmserver.rules.authenticity import reply_address
from gmserver.rules.automated import is_automated
from gmserver.rules.mailpolicy import HEADER_FACTORY, MAIL_POLICY
from gmserver.rules.reading.quoting import GM_MAIL_END, GM_MAIL_START
from gmserver.rules.safetext import safe_text

AutoSubmitted = Literal["auto-replied", "auto-generated"]


def mark_gm_mail(body: str) -> str:
    """`body` between gmserver's marker lines: a reply quoting it, even without "> ",
    is then never read as new orders (gmserver.rules.reading.quoting)."""
    if GM_MAIL_START in body:
        return body
    lines = body.rstrip("\n").split("\n")
    # a turn report's `::` lines stay at the very top, where judge veterans' filters look for
    # them (gmserver.reports.extras); the reader takes `:: Game:` as the start of a copy too
    top = 0
    while top < len(lines) and lines[top].startswith("::"):
        top += 1
    # one blank line after the marker: the blank that ends the `::` lines is not doubled
    rest = lines[top:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    return "\n".join([*lines[:top], GM_MAIL_START, "", *rest, "", GM_MAIL_END]) + "\n"


class Composer:
    """Renders the player templates and builds the messages the GM sends."""

    def __init__(self, templates_dir: str | Path, *, gm_name: str, gm_address: str) -> None:
        local, at, domain = gm_address.rpartition("@")
        if not (local and at and domain):
            raise ValueError(f"the GM address must look like name@domain, not {gm_address!r}")
        self.templates_dir = Path(templates_dir)
        self.gm_name = gm_name
        self.gm_address = gm_address
        self.domain = domain
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates_dir)),
            undefined=jinja2.StrictUndefined,  # a missing variable is a bug, never a blank
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            # plain-text mail has nothing to escape; the HTML report (*.html.j2) escapes everything
            autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2", "html"), default=False),
        )
        self.env.globals.update(gm_name=gm_name, gm_address=gm_address,
                                gm_mail_start=GM_MAIL_START, gm_mail_end=GM_MAIL_END)
        self.env.filters["fill"] = fill

    def render(self, template_name: str, context: Any) -> str:
        """The body for `context`: a dataclass (its fields become the template's variables) or a
        mapping. Trailing spaces are removed from every line, so a template cannot leave any."""
        if dataclasses.is_dataclass(context) and not isinstance(context, type):
            variables = {f.name: getattr(context, f.name) for f in dataclasses.fields(context)}
        elif isinstance(context, Mapping):
            variables = dict(context)
        else:
            raise TypeError(f"a template context is a dataclass or a mapping, not {type(context).__name__}")
        text = self.env.get_template(template_name).render(variables)
        return "\n".join(line.rstrip() for line in text.split("\n"))

    def compose(
        self,
        *,
        to: str,
        subject: str,
        body: str,
        in_reply_to: str | None = None,
        references: Sequence[str] = (),
        auto_submitted: AutoSubmitted,
        message_id: str | None = None,
        date: datetime | None = None,
        reply_secret: str | None = None,
    ) -> EmailMessage:
        """One outgoing message, UTF-8 text/plain.

        `references` is the References list of the message replied to; `in_reply_to` (its
        Message-ID) is appended to it, as RFC 5322 section 3.6.4 asks. `message_id` is given only
        when rebuilding a message already on record; otherwise a new one is made in the domain of
        the GM address. `reply_secret` (the recipient's own secret) sets Reply-To to the player's
        reply address, gm+SECRET@domain, so that a plain reply proves who sent it; give it only
        for mail to that player's own registered addresses.
        """
        message = EmailMessage(policy=MAIL_POLICY)
        message["From"] = Address(display_name=self.gm_name, addr_spec=self.gm_address)
        message["To"] = to
        if reply_secret:
            message["Reply-To"] = Address(display_name=self.gm_name,
                                          addr_spec=reply_address(self.gm_address, reply_secret))
        message["Subject"] = safe_text(subject)
        message["Date"] = email.utils.format_datetime(date or datetime.now(UTC))
        message["Message-ID"] = message_id or new_message_id(self.domain)
        if in_reply_to:
            message["In-Reply-To"] = in_reply_to
        chain = [r for r in references if r]
        if in_reply_to and in_reply_to not in chain:
            chain.append(in_reply_to)
        if chain:
            message["References"] = " ".join(chain)
        # RFC 3834: marks the message as automatic, so well-behaved responders stay silent.
        message["Auto-Submitted"] = auto_submitted
        message["X-Auto-Response-Suppress"] = "All"  # the same request in Microsoft's dialect
        body = safe_text(body)  # lines quoted from hostile mail must not break the reply
        body = mark_gm_mail(body)
        message.set_content(body if body.endswith("\n") else body + "\n", charset="utf-8")
        return message

    def readdress(self, message: EmailMessage, *, to: str, subject: str, reply_secret: str | None = None,
                  message_id: str | None = None, policy: email.policy.EmailPolicy | None = None) -> EmailMessage:
        """`message` (made by `compose`) for another recipient: the same as `compose` with the same
        body, date and threading would give, with its own To, Reply-To, Subject and Message-ID.
        `policy`: the copy's, by default the message's (`WRITE_ONLY_POLICY`: a copy only written).

        Why: a deadline sends one report to every player. Parsing the headers that stay the same
        and encoding the body again cost most of `compose`; here the header
        values that stay are shared (they are immutable) and only the four that differ are made."""
        copy = EmailMessage(policy=policy or message.policy)
        own = {"to": to, "subject": safe_text(subject), "message-id": message_id or new_message_id(self.domain)}
        for name, value in message.raw_items():
            key = name.lower()
            if key == "reply-to":
                continue  # written after To, as compose does, if this recipient has a secret
            copy.set_raw(name, value) if key not in own else copy.__setitem__(name, own[key])
            if key == "to" and reply_secret:
                copy["Reply-To"] = Address(display_name=self.gm_name,
                                           addr_spec=reply_address(self.gm_address, reply_secret))
        # the body as set_content stored it: get_payload() would give 8-bit text decoded, to be encoded again
        copy.set_payload(message._payload)  # noqa: SLF001
        return copy


class PlainHeader(str):
    """A header value the email package writes on one line as `Name: text` (`plain_header`), kept
    as that text: it is written the same (`fold`) without the parse a header object is made with
    (some 50 µs an address), and has none of a header object's parsed parts (`addresses`...)."""

    name: str
    defects: tuple[object, ...] = ()

    def __new__(cls, name: str, text: str) -> PlainHeader:
        header = super().__new__(cls, text)
        header.name = name
        return header

    def fold(self, *, policy: email.policy.Policy) -> str:
        line = f"{self.name}: {self}"
        if policy.max_line_length and len(line) > policy.max_line_length:
            # a policy of shorter lines than `plain_header` was told: the text parses as the value did
            return HEADER_FACTORY(self.name, str(self)).fold(policy=policy)
        return line + policy.linesep


def plain_header(name: str, value: object, max_line_length: int = 78) -> PlainHeader | None:
    """`value` for the header `name` as a PlainHeader, where the email package (the default policy
    and SMTP's, ASCII or UTF-8) folds it into the line `Name: text` with `text` the value as given:
    a To of one dot-atom address, a Message-ID `<dot-atom@dot-atom>`, a From or Reply-To of a
    display name of plain words and such an address, a Subject or any other unstructured header
    (In-Reply-To, References, Auto-Submitted...) of printable ASCII words one space apart; no
    encoded word (`=?`: the parser decodes it), and the line within `max_line_length`. Else None:
    the email package parses and folds it. tests/unit/test_plain_header.py compares the two."""
    key = name.lower()
    if isinstance(value, Address):
        return plain_address(name, value.display_name, value.addr_spec, max_line_length)
    if not isinstance(value, str):
        return None
    if key == "to" and _DOT_ATOMS.fullmatch(value) or (issubclass(HEADER_FACTORY[name], UnstructuredHeader)
                                                        and _PRINTABLE_WORDS.fullmatch(value)):
        return _within(name, value, max_line_length)
    if key == "message-id" and value[:1] == "<" and value[-1:] == ">" and _DOT_ATOMS.fullmatch(value[1:-1]):
        return _within(name, value, max_line_length)
    return None


def plain_address(name: str, display_name: str, addr_spec: str, max_line_length: int = 78) -> PlainHeader | None:
    """`plain_header(name, Address(display_name=display_name, addr_spec=addr_spec))` without making
    the Address, which parses its address again (gmserver.mail.written writes one or two a mail)."""
    if name.lower() not in ("reply-to", "from") or not (_WORDS.fullmatch(display_name)
                                                        and _DOT_ATOMS.fullmatch(addr_spec)):
        return None
    return _within(name, f"{display_name} <{addr_spec}>", max_line_length)


def _within(name: str, text: str, max_line_length: int) -> PlainHeader | None:
    """`text` as the PlainHeader `name`, unless it holds what reads as an encoded word (`=?`: the
    parser decodes it) or its line is longer than `max_line_length` (it is folded)."""
    if "=?" in text or len(name) + 2 + len(text) > max_line_length:
        return None
    return PlainHeader(name, text)


_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"  # RFC 5322 3.2.3
_DOT_ATOMS = re.compile(rf"{_ATEXT}(?:\.{_ATEXT})*@{_ATEXT}(?:\.{_ATEXT})*")
_WORDS = re.compile(rf"{_ATEXT}(?: {_ATEXT})*")
_PRINTABLE_WORDS = re.compile(r"[!-~]+(?: [!-~]+)*")


class _PlainHeaders:
    """The header factory of `WRITE_ONLY_POLICY`: a PlainHeader where `plain_header` gives one,
    else the header object `MAIL_POLICY` makes."""

    def __call__(self, name: str, value: object) -> object:
        return plain_header(name, value) or HEADER_FACTORY(name, value)

    def __getitem__(self, name: str) -> type[BaseHeader]:
        return HEADER_FACTORY[name]


# for a message that is only written, never read (a player's copy of a turn report, made by
# `readdress` and serialised at once): its own headers are set as PlainHeaders where they can be
WRITE_ONLY_POLICY = MAIL_POLICY.clone(header_factory=_PlainHeaders())


def with_text_edited(message: EmailMessage, edit: Callable[[str, str], str],
                     rewriters: Mapping[int, TextRewriter] | None = None) -> EmailMessage:
    """`message` with each text part's text replaced by `edit(subtype, text)` ("plain" or "html"),
    the parts it leaves unchanged shared, never modified: a copy `readdress` made shares its parts
    with every other copy (a player's own line in a report sent to all, reports.with_orders_subject).
    `rewriters`: by a part's id, a TextRewriter for each text part of `message` that is not an
    attachment, which makes its edited copies (the same as without, only faster when one message
    is edited many times)."""
    rewriter = (rewriters or {}).get(id(message))
    if rewriter is not None and rewriter.part is message:
        edited = edit(message.get_content_subtype(), rewriter.text)
        return message if edited == rewriter.text else rewriter.rewritten(edited)
    if message.is_multipart():
        parts = [with_text_edited(part, edit, rewriters) for part in message.get_payload()]
        if all(new is old for new, old in zip(parts, message.get_payload(), strict=False)):
            return message
        copy = _shallow_copy(message)
        copy._payload = parts  # noqa: SLF001  (the container's own list, new; its parts shared)
        return copy
    if rewriters is not None or message.get_content_maintype() != "text" or message.is_attachment():
        return message  # with rewriters, a part that has none is not one to edit
    text = message.get_content()
    edited = edit(message.get_content_subtype(), text)
    return message if edited == text else _with_text(message, edited)


def _with_text(message: EmailMessage, text: str) -> EmailMessage:
    part = _shallow_copy(message)  # set_content replaces only its Content-* headers
    part.set_content(text, subtype=message.get_content_subtype(), charset="utf-8")
    return part


class TextRewriter:
    """Copies of one text part (made by `set_content`, UTF-8) with other texts, each exactly what
    `set_content` on a copy of the part makes, without its cost where the texts differ from the
    part's own in a few lines (each player's subject line in a turn report's HTML).

    What `set_content` (email.contentmanager) makes depends on the text only through the
    transfer encoding it picks and the encoded payload; the headers are otherwise the same. The
    encoding is 7bit if every line of the UTF-8 text fits the policy's line length and is ASCII
    (or 8bit if the policy allows it), else chosen by sniffing the first ten lines. So a text
    that cannot be 7bit or 8bit, with the part's own first ten lines, gets the encoding the part's
    first rewrite got, and that copy's headers. Quoted-printable encodes each line on its own
    (email.quoprimime.body_encode: soft breaks never cross a line end, and every other line
    break character is escaped), so a line is encoded once and its encoding reused. Any other
    case is written by `set_content` itself."""

    def __init__(self, part: EmailMessage) -> None:
        self.part = part
        self.text: str = part.get_content()
        self._plain: EmailMessage | None = None  # a 7bit rewrite: its headers
        self._quoted: EmailMessage | None = None  # a quoted-printable rewrite: its headers
        self._quoted_lines: list[bytes] = []  # the first lines of its text, which chose the encoding
        # a line of UTF-8 text: its quoted-printable line (the loops over a text's lines are map()s:
        # a report's HTML has some 500 lines, and each player's copy goes through them all)
        self._encoded = _QuotedLines(part.policy.max_line_length)

    def rewritten(self, text: str) -> EmailMessage:
        encoded = text.encode("utf-8")
        lines = encoded.splitlines()
        policy = self.part.policy
        if max(map(len, lines), default=0) <= policy.max_line_length:
            if self._plain is not None and encoded.isascii():  # every line ASCII
                return self._copy(self._plain, b"\n".join(lines).decode("ascii") + "\n")
        # a text of ten lines or fewer is encoded with the policy's line ends (the sniff itself)
        elif self._quoted is not None and len(lines) > _SNIFFED_LINES \
                and lines[:_SNIFFED_LINES] == self._quoted_lines:
            return self._copy(self._quoted, "\n".join(map(self._encoded.__getitem__, lines)) + "\n")
        part = _with_text(self.part, text)
        encoding = part["Content-Transfer-Encoding"]
        if encoding == "7bit" and self._plain is None:
            self._plain = part
        elif encoding == "quoted-printable" and self._quoted is None and len(lines) > _SNIFFED_LINES:
            self._quoted, self._quoted_lines = part, lines[:_SNIFFED_LINES]
        return part

    @staticmethod
    def _copy(template: EmailMessage, payload: str) -> EmailMessage:
        copy = _shallow_copy(template)
        copy.set_payload(payload)
        return copy


class _QuotedLines(dict[bytes, str]):
    """Each line of UTF-8 text seen, with its quoted-printable encoding, made at the first look-up."""

    def __init__(self, max_line_length: int | None) -> None:
        super().__init__()
        self.max_line_length = max_line_length

    def __missing__(self, line: bytes) -> str:
        # as email.contentmanager encodes a text: its UTF-8 bytes read as Latin-1, line by line
        encoded = self[line] = quoprimime.body_encode(line.decode("latin-1") + "\n", self.max_line_length)[:-1]
        return encoded


# email.contentmanager picks a text's transfer encoding from its first ten lines
_SNIFFED_LINES = 10


def _shallow_copy(message: EmailMessage) -> EmailMessage:
    copy = pycopy.copy(message)
    copy._headers = list(message._headers)  # noqa: SLF001  (its own header list: the values are immutable)
    return copy


def add_html(message: EmailMessage, html: str, *, images: Sequence[tuple[str, bytes]] = (),
             attachments: Sequence[tuple[str, str, bytes]] = ()) -> EmailMessage:
    """Make a message `compose` built (text/plain) the turn report:
    multipart/alternative of the text and `html`, the HTML with its inline PNG `images`
    (Content-ID, without angle brackets; multipart/related) and `attachments` (file name,
    MIME type, bytes) after them (multipart/mixed). `readdress` keeps all the parts."""
    message.add_alternative(html, subtype="html", charset="utf-8")
    if images:
        html_part = message.get_payload()[1]
        for cid, data in images:
            html_part.add_related(data, maintype="image", subtype="png", cid=f"<{cid}>", disposition="inline")
    for filename, mime, data in attachments:
        maintype, _, subtype = mime.partition("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return message


def plain_text(message: EmailMessage) -> str:
    """The text/plain body of a message `compose` made, multipart (a turn report) or not."""
    body = message.get_body(("plain",))
    return body.get_content() if body is not None else ""


def new_content_id(domain: str) -> str:
    """A Content-ID for an inline image: unique like a Message-ID, without its angle brackets."""
    return new_message_id(domain)[1:-1]


def new_message_id(domain: str) -> str:
    """A Message-ID from the OS's randomness: `email.utils.make_msgid` draws on the global
    `random`, which the engine reseeds when it loads a map (docs/architecture.md, "The engine") and test tools reseed
    per example, so two messages could get the same id."""
    return f"<{uuid.uuid4().hex}@{domain}>"


def fill(chunks: str | Sequence[str], width: int = 72, indent: str = "", sep: str = ", ") -> str:
    """Join `chunks` with `sep` into lines of at most `width` characters, continuation lines
    starting with `indent`. Lines break only between chunks, so "St Petersburg" or
    "(A PAR - BUR)" never split; a chunk longer than `width` alone is wrapped at its spaces."""
    if isinstance(chunks, str):
        chunks = [chunks]
    lines: list[str] = []
    current = ""
    tail = sep.rstrip()  # what ends a line broken after a chunk: "," for ", "
    for chunk in (c for c in chunks if c):
        candidate = f"{current}{sep}{chunk}" if current else chunk
        if len(candidate) + len(tail) <= width or not current:
            current = candidate
        else:
            lines.append(current + tail)
            current = chunk
    if current:
        lines.append(current)
    wrapped = [
        piece
        for line in lines
        for piece in (textwrap.wrap(line, width, break_on_hyphens=False) if len(line) > width else [line])
    ]
    return ("\n" + indent).join(wrapped)


__all__ = ["Composer", "add_html", "fill", "is_automated", "new_content_id", "plain_text"]
