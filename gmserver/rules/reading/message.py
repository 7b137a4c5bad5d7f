"""The text to read from a message as it arrives: a whole RFC 5322 email or a bare body.

text/plain is preferred; HTML-only mail is converted to text; quoted replies (`>` lines,
"On ... wrote:" blocks, Outlook "-----Original Message-----" and "From: / Sent: / To:" headers,
copies of gmserver's own mail: see gmserver.rules.reading.quoting), signatures after "-- ",
forwarded copies and press sections are kept apart; password lines (`Password: ...`) are dropped. Never raises: hostile or broken mail gives
whatever text could be decoded.

`read_message` also says what else the message held that a player may take for orders: a
forward of the player's own order mail is read as their orders (anything else forwarded is said
not to be read), and each attached file is named, read when it is text and the caller allows it
(`text_attachments`), never passed over in silence. A line the client wrapped in the middle of
a sentence is joined again.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass, field
from email.message import Message
from email.utils import parseaddr
from html.parser import HTMLParser

from gmserver.rules.authenticity import is_password_line
from gmserver.rules.reading.flowed import unflow
from gmserver.rules.reading.quoting import _FROM, after_gm_mail, is_gm_mail_start, is_reply_header, wrote_at

# a header may be empty (Outlook writes "X-MS-Has-Attach:" with nothing after it)
_HEADER_LINE = re.compile(r"^[A-Za-z][A-Za-z0-9-]{0,60}:(?:[ \t]|\r?\n|\r?$)")
_KNOWN_HEADERS = re.compile(
    r"^(?:From|To|Subject|Date|Message-ID|MIME-Version|Content-Type|Received|Return-Path|Reply-To|Cc)"
    r":", re.IGNORECASE | re.MULTILINE)
_FORWARD = re.compile(
    r"^\s*(?:-{2,}\s*Forwarded message\s*-{2,}|Begin forwarded message:|-{2,}\s*Original Message\s*-{2,}"
    r"|_{10,}\s*$|From:\s.*\bSent:\s)", re.IGNORECASE)
_SIGNATURE = re.compile(r"^(?:--|-- |—)\s*$")
# "Sent from my iPhone", "Sent from Yahoo Mail on Android", "Sent from Outlook for iOS", and Outlook
# mobile's "Get Outlook for Android<https://aka.ms/...>" (its plain part keeps the link in brackets)
_SENT_FROM = re.compile(r"^\s*(?:Sent from my \w+|Sent from (?:Yahoo Mail|Outlook|Mail|Gmail)\b.{0,40}$"
                        r"|Get Outlook for (?:iOS|Android)\b.{0,60}$)", re.IGNORECASE)
_PRESS_START = re.compile(
    r"^\s*(?:[-=*#]{2,}\s*)?(?:(?:white|grey|gray|dark\s+gr[ae]y|black|broadcast|anonymous)\s+)?press\b"
    r"(?:\s+(?:to|for|from|signed|as|if|unless)\b[^:]*)?"
    r"\s*:?\s*(?:[-=*#]{2,})?\s*$", re.IGNORECASE)
_PRESS_END = re.compile(r"^\s*(?:[-=*#]{2,}\s*)?(?:end\s*(?:of\s*)?press|endpress)\b.*$", re.IGNORECASE)
# The reader reads orders from the first 2 MB of a message (the orders come before any map or
# attachment); the bound on a whole message is gmserver.rules.limits.MAX_MESSAGE_BYTES.
MAX_READ_BYTES = 2_000_000

# the line a forward opens with: Gmail's and Thunderbird's rule, Apple Mail's sentence
_FORWARD_MARK = re.compile(r"^\s*(?:-{2,}\s*Forwarded message\s*-{2,}|Begin forwarded message:)\s*$", re.IGNORECASE)
# Outlook marks a forward by its subject alone ("FW:"; localised "TR:", "WG:", "RV:", "I:", "ENC:")
_FORWARD_SUBJECT = re.compile(r"^\s*(?:(?:re|aw|sv)\s*:\s*)*(?:fwd?|fw|tr|wg|rv|i|enc)\s*:", re.IGNORECASE)
_QUOTED_HEADER = re.compile(r"^\s*\*?[^\W\d_][\w-]{1,24}\s*:\*?(?:\s|$)")
_ADDRESS = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+")
# a client wraps plain text at 72 to 78 characters; a hand-written line is rarely that long
_WRAP_MIN, _WRAP_WIDTH, _WRAP_MAX = 60, 72, 80
# a new line that starts with a unit is an order of its own ("fleet in Naples" goes on a sentence)
_UNIT_START = re.compile(r"^\s*(?:[AF]|Army|Fleet|ARMY|FLEET)\s")
_LIST_START = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s")
_SENTENCE_END = re.compile(r"[.!?:;]\s*$")


@dataclass(frozen=True)
class MessageText:
    """What a message gives the order reader: the text to read for orders, the press sections
    (heading, text), and `notes` for the player on what else it held (a forward, an attached
    file) and what was done with it."""

    orders: str
    sections: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    headers: _Headers | None = field(default=None, repr=False, compare=False)

    @property
    def subject(self) -> str:
        """The message's Subject ("" for a bare body), parsed when asked for."""
        return self.headers.subject if self.headers is not None else ""

    @property
    def press(self) -> str:
        return "\n".join(text for _, text in self.sections).strip("\n")


def read_message(message: bytes | str, *, attachments: bool = False) -> MessageText:
    """The text of `message` to read for orders, its press and notes (see the module doc).
    `attachments`: read an attached text file's orders after the message's own text (the
    ruleset's `text_attachments`); otherwise the file is named as not read."""
    try:
        parsed, body = _parse(message)
    except Exception:  # noqa: BLE001  a broken message must still give text
        parsed, body = None, (message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message))
    headers = _Headers(parsed) if parsed is not None else _NO_HEADERS
    orders, sections, notes = _clean(body, headers)
    if parsed is not None:
        extra, attached_notes = _attachments(parsed, headers, read_text=attachments)
        notes += attached_notes
        if extra:
            orders = "\n\n".join(part for part in (orders, *extra) if part)
    return MessageText(orders, tuple((heading, text) for heading, text in sections), tuple(notes), headers)


class _Headers:
    """The outer From address and Subject, parsed only when a forward asks for them (the
    email package's header parsing costs more than reading a dozen orders)."""

    def __init__(self, message: Message | None) -> None:
        self.message = message
        self._sender: str | None = None
        self._subject: str | None = None

    @property
    def sender(self) -> str:
        if self._sender is None:
            self._sender = _header_address(self.message, "From") if self.message is not None else ""
        return self._sender

    @property
    def subject(self) -> str:
        if self._subject is None:
            self._subject = _header(self.message, "Subject") if self.message is not None else ""
        return self._subject


_NO_HEADERS = _Headers(None)


def extract_order_text(message: bytes | str) -> str:
    """The body text to read for orders, attached files left out (see the module doc)."""
    return read_message(message).orders


def extract_press_text(message: bytes | str) -> str:
    """The press sections of a message, for the press handler."""
    _, press = split_message(message)
    return press


def split_message(message: bytes | str) -> tuple[str, str]:
    """(order text, press text) of a message, for telling what kind of mail it is: an attached
    text file counts as text, so that a mail of orders in `orders.txt` is taken as orders (and
    answered, read or not as the game's rules say) rather than as an empty request."""
    text = read_message(message, attachments=True)
    return text.orders, text.press


def press_sections(message: bytes | str) -> list[tuple[str, str]]:
    """(heading line, text) of each press section of a message, in order (gmserver.rules.press
    reads the heading: kind, recipients, signature)."""
    return [(heading, text.strip("\n")) for heading, text in read_message(message).sections if text.strip()]


def body_text(message: Message) -> str:
    """The whole readable body of a parsed message (text/plain, else HTML as text), quotes and
    signatures included. Never raises."""
    try:
        return _message_text(message)
    except Exception:  # noqa: BLE001  a broken message has no text to look at
        return ""


def _looks_like_email(text: str) -> bool:
    head = text[:4000]
    if not _HEADER_LINE.match(head):
        return False
    block = re.split(r"\r?\n\r?\n", head, maxsplit=1)[0]
    return bool(_KNOWN_HEADERS.search(block)) and all(
        _HEADER_LINE.match(line) or line[:1] in (" ", "\t") for line in block.splitlines() if line)


def _parse(message: bytes | str) -> tuple[Message | None, str]:
    """(the parsed message, or None for a bare body; the body text)."""
    if isinstance(message, bytes):
        raw = message[:MAX_READ_BYTES]
        probe = raw[:4000].decode("latin-1")
        if not _looks_like_email(probe):
            return None, _decode_bytes(raw)
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
    else:
        text = message[:MAX_READ_BYTES]
        if not _looks_like_email(text):
            return None, text
        parsed = email.message_from_string(text, policy=email.policy.default)
    return parsed, _message_text(parsed)


def _header(message: Message, name: str) -> str:
    try:
        return " ".join(str(message.get(name, "") or "").split())
    except Exception:  # noqa: BLE001  a header that cannot be decoded names nothing
        return ""


def _header_address(message: Message, name: str) -> str:
    return parseaddr(_header(message, name))[1].lower()


def _attachments(message: Message, headers: _Headers, *, read_text: bool) -> tuple[list[str], list[str]]:
    """(texts to read, notes) for the files attached to `message` and the messages attached to
    it (a forward as attachment): every one is named in a note."""
    texts: list[str] = []
    notes: list[str] = []
    for part in _attached(message):
        if part.get_content_type() == "message/rfc822":
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if not isinstance(inner, Message):
                continue
            author = _header_address(inner, "From")
            if headers.sender and author == headers.sender:
                text, _, _ = _clean(_message_text(inner), headers)
                texts.append(text)
                notes.append(_OWN_FORWARD_NOTE)
            else:
                notes.append(_other_forward_note(author))
            continue
        name = _file_name(part)
        if part.get_content_type() == "text/plain" or name.lower().endswith(".txt"):
            if read_text:
                text, _, _ = _clean(_part_text(part), headers)
                texts.append(text)
                notes.append(f"The attached file {name} was read for orders, after the text of your mail.")
            else:
                notes.append(f"The attached file {name} was not read: this game reads orders in the text of "
                             "the mail only. To send them, reply to this mail with the orders written in it.")
        else:
            notes.append(f"The attached file {name} was not read: orders are read from text only. To send them, "
                         "reply to this mail with the orders written in it.")
    return texts, notes


def _attached(message: Message):
    """The parts sent as attachments (not those shown inline, such as a signature's logo), and
    attached messages."""
    if not message.is_multipart():
        return
    for part in message.get_payload():
        if not isinstance(part, Message):
            continue
        if part.get_content_type() == "message/rfc822":
            yield part
        elif part.is_multipart():
            yield from _attached(part)
        elif str(part.get("Content-Disposition", "")).lower().startswith("attachment"):
            yield part


def _file_name(part: Message) -> str:
    try:
        name = part.get_filename()
    except Exception:  # noqa: BLE001  a broken parameter names no file
        name = None
    return f'"{" ".join(str(name).split())[:80]}"' if name else f"({part.get_content_type()})"


_OWN_FORWARD_NOTE = "The message you forwarded is your own mail: its orders were read as yours."


def _other_forward_note(author: str) -> str:
    who = f"from {author}" if author else "whose sender it does not show"
    return (f"A forwarded message ({who}) was not read: only your own order mail is read when you forward it. "
            "To use its orders, reply to this mail with them written in it.")


def _decode_bytes(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


def _message_text(message: Message) -> str:
    plain: str | None = None
    html: str | None = None
    for part in _parts(message):
        kind = part.get_content_type()
        disposition = str(part.get("Content-Disposition", "")).lower()
        if disposition.startswith("attachment"):
            continue
        if kind == "text/plain" and plain is None:
            plain = _part_text(part)
            if str(part.get_param("format", "")).lower() == "flowed":  # RFC 3676: soft breaks undone
                plain = unflow(plain, str(part.get_param("delsp", "")).lower() == "yes")
        elif kind == "text/html" and html is None:
            html = _part_text(part)
    if plain is not None and plain.strip():
        return plain
    if html is not None:
        return html_to_text(html)
    return plain or ""


def _parts(message: Message):
    """Leaf parts, not descending into attached messages (forwarded copies)."""
    if message.is_multipart():
        for part in message.get_payload():
            if isinstance(part, Message) and part.get_content_type() != "message/rfc822":
                yield from _parts(part)
    else:
        yield message


def _part_text(part: Message) -> str:
    try:
        content = part.get_content()  # type: ignore[attr-defined]
        if isinstance(content, bytes):
            return _decode_bytes(content)
        return str(content)
    except Exception:  # noqa: BLE001  unknown charsets, broken encodings
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            return _decode_bytes(payload)
        return str(part.get_payload())


class _HtmlText(HTMLParser):
    _BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    _SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping = 0
        self.quote_divs: list[int] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.depth += 1
            classes = dict(attrs).get("class") or ""
            if "gmail_quote" in classes or "moz-cite-prefix" in classes or "yahoo_quoted" in classes:
                self.quote_divs.append(self.depth)
                self.skipping += 1
        if tag in self._SKIP:
            self.skipping += 1
        if tag in self._BLOCKS:
            self.out.append("\n")
        if tag == "li" and not self.skipping:
            self.out.append("- ")

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in self._SKIP and self.skipping:
            self.skipping -= 1
        if tag == "div":
            if self.quote_divs and self.quote_divs[-1] == self.depth:
                self.quote_divs.pop()
                self.skipping = max(0, self.skipping - 1)
            self.depth -= 1
        if tag in self._BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(data.replace("\xa0", " "))


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001
        return re.sub(r"<[^>]*>", " ", html)
    text = "".join(parser.out)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


def _clean(body: str, headers: _Headers = _NO_HEADERS) -> tuple[str, list[tuple[str, str]], list[str]]:
    """(order text, press sections, notes) of a body; the message's sender and subject tell a
    forward of the sender's own mail from other quoted mail."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    press: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    notes: list[str] = []
    in_press = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if is_password_line(line):
            # the player's secret proves the sender (rules.authenticity): it is never read as an
            # order, published as press or echoed back in a confirmation
            i += 1
            continue
        if is_gm_mail_start(line):
            # issue 10: a copy of gmserver's own mail, quoted with or without "> ", is never read
            # (its footer "If anything above ..." would be a conditional order)
            i = after_gm_mail(lines, i)
            continue
        if _FORWARD.match(line) or is_reply_header(lines, i):
            forward = _forward_at(lines, i, headers)
            if forward is not None:
                author, start = forward
                if headers.sender and author == headers.sender:
                    # a player's own order mail sent again ("in case it got lost") is their orders
                    notes.append(_OWN_FORWARD_NOTE)
                    i = start
                    continue
                notes.append(_other_forward_note(author))
            # below an Outlook "From: / Sent: / To:" block is the message replied to
            break
        if _SIGNATURE.match(line):
            break
        wrote = wrote_at(lines, i)
        if wrote:
            # the quoted reply: this line, the next if the attribution wrapped, and what follows
            # while it is quoted or blank
            i += wrote
            while i < len(lines) and (lines[i].lstrip().startswith(">") or not lines[i].strip()):
                i += 1
            continue
        if stripped.startswith(">"):
            i += 1
            continue
        if _SENT_FROM.match(line):
            i += 1
            continue
        if in_press:
            if _PRESS_END.match(line):
                in_press = False
            else:
                press.append(line)
            i += 1
            continue
        if _PRESS_START.match(line):
            in_press = True
            press = []
            sections.append((stripped, press))
            i += 1
            continue
        kept.append(line)
        i += 1
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(_unwrapped(kept)), [(heading, "\n".join(text)) for heading, text in sections], notes


def _forward_at(lines: list[str], i: int, headers: _Headers) -> tuple[str, int] | None:
    """(the forwarded message's sender address, the index of its first body line) when lines[i]
    opens a forwarded message; None when it opens a quoted reply."""
    if _FORWARD_MARK.match(lines[i]):
        j = i + 1
    elif _FORWARD_SUBJECT.match(headers.subject):
        j = i + 1 if _FORWARD.match(lines[i]) and not _FROM.match(lines[i]) else i
    else:
        return None
    while j < len(lines) and not lines[j].strip():
        j += 1
    author = ""
    headers = 0
    while j < len(lines) and _QUOTED_HEADER.match(lines[j]) and headers < 12:
        if _FROM.match(lines[j]) and not author:
            found = _ADDRESS.search(lines[j]) or (_ADDRESS.search(lines[j + 1]) if j + 1 < len(lines) else None)
            author = found.group(0).lower() if found else ""
        headers += 1
        j += 1
    return author, j


def _unwrapped(lines: list[str]) -> list[str]:
    """The lines with those a client wrapped at its width joined again: a long line (60 to 80
    characters) that stops mid-sentence where the next word would not have fitted in 72, followed
    by a line that goes on with the sentence (not a list item, not an order of its own)."""
    out: list[str] = []
    previous = ""  # the line as the client wrote it, before any joining
    for line in lines:
        width = len(previous.rstrip())
        first_word = line.split()[0] if line.split() else ""
        if (out and first_word and _WRAP_MIN <= width <= _WRAP_MAX and width + 1 + len(first_word) > _WRAP_WIDTH
                and not _SENTENCE_END.search(previous) and not _LIST_START.match(line)
                and not _LIST_START.match(out[-1]) and not _UNIT_START.match(line)):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
        previous = line
    return out
