"""The text to read from a message as it arrives: a whole RFC 5322 email or a bare body.

text/plain is preferred; HTML-only mail is converted to text; quoted replies (`>` lines,
"On ... wrote:" blocks, Outlook "-----Original Message-----" and "From: / Sent: / To:" headers,
copies of gmserver's own mail: see gmserver.rules.reading.quoting), signatures after "-- ",
forwarded copies and press sections are kept apart; password lines (`Password: ...`) are dropped. Never raises: hostile or broken mail gives
whatever text could be decoded.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import Message
from html.parser import HTMLParser

from gmserver.rules.authenticity import is_password_line
from gmserver.rules.reading.flowed import unflow
from gmserver.rules.reading.quoting import after_gm_mail, is_gm_mail_start, is_reply_header, wrote_at

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


def extract_order_text(message: bytes | str) -> str:
    """The body text to read for orders (see the module doc)."""
    text, _ = split_message(message)
    return text


def extract_press_text(message: bytes | str) -> str:
    """The press sections of a message, for the press handler."""
    _, press = split_message(message)
    return press


def split_message(message: bytes | str) -> tuple[str, str]:
    """(order text, press text) of a message."""
    try:
        body = _body(message)
    except Exception:  # noqa: BLE001  a broken message must still give text
        body = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    orders, sections = _clean(body)
    return orders, "\n".join(text for _, text in sections).strip("\n")


def press_sections(message: bytes | str) -> list[tuple[str, str]]:
    """(heading line, text) of each press section of a message, in order (gmserver.rules.press
    reads the heading: kind, recipients, signature)."""
    try:
        body = _body(message)
    except Exception:  # noqa: BLE001  a broken message must still give text
        body = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return [(heading, text.strip("\n")) for heading, text in _clean(body)[1] if text.strip()]


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


def _body(message: bytes | str) -> str:
    if isinstance(message, bytes):
        raw = message[:MAX_READ_BYTES]
        probe = raw[:4000].decode("latin-1")
        if not _looks_like_email(probe):
            return _decode_bytes(raw)
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
    else:
        text = message[:MAX_READ_BYTES]
        if not _looks_like_email(text):
            return text
        parsed = email.message_from_string(text, policy=email.policy.default)
    return _message_text(parsed)


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


def _clean(body: str) -> tuple[str, list[tuple[str, str]]]:
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    press: list[str] = []
    sections: list[tuple[str, list[str]]] = []
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
        if _SIGNATURE.match(line) or _FORWARD.match(line) or is_reply_header(lines, i):
            # issue 10: below an Outlook "From: / Sent: / To:" block is the message replied to
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
    return "\n".join(kept), [(heading, "\n".join(text)) for heading, text in sections]
