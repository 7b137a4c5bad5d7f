"""The text to read from a message as it arrives: a whole RFC 5322 email or a bare body.

text/plain is preferred; HTML-only mail is converted to text; quoted replies (`>` lines,
"On ... wrote:" blocks, Outlook "-----Original Message-----" and "From: / Sent: / To:" headers,
copies of gmserver's own mail: see gmserver.rules.reading.quoting), signatures after "-- ",
forwarded copies and press sections are kept apart; password lines (`Password: ...`) are dropped. Never raises: hostile or broken mail gives
whatever text could be decoded. Bounded: at most MAX_READ_BYTES of the message, MAX_HTML_CHARS of
HTML and MAX_TEXT_CHARS of text are read, each in time that grows with its length alone.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
from dataclasses import dataclass
from email.message import Message

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
# What of a message is read, each bound several times what a player's mail needs (orders and
# press fill a few KB, and they come before any quoted thread, map or attachment); the rest is not
# read, and the reply says so (MessageText.unread). The bound on a whole message is
# gmserver.rules.limits.MAX_MESSAGE_BYTES; these keep the reading of one message to a fraction of
# a second of CPU, whatever its 40 MB hold (benchmarks/bench_hostile.py).
# The raw message: its first 2 MB.
MAX_READ_BYTES = 2_000_000
# HTML converted to text when a message has no plain text: Outlook's HTML of a short message with
# a quoted thread runs 50-300 KB.
MAX_HTML_CHARS = 1_000_000
# The text read for orders and press.
MAX_TEXT_CHARS = 100_000


@dataclass(frozen=True)
class MessageText:
    """What a message gives the reader."""

    orders: str  # the text read for orders
    sections: tuple[tuple[str, str], ...]  # (heading line, text) of each press section
    unread: str  # "", or in words what of the message was not read

    @property
    def press(self) -> str:
        return "\n".join(text for _, text in self.sections).strip("\n")


def extract_order_text(message: bytes | str) -> str:
    """The body text to read for orders (see the module doc)."""
    return read_message(message).orders


def extract_press_text(message: bytes | str) -> str:
    """The press sections of a message, for the press handler."""
    return read_message(message).press


def split_message(message: bytes | str) -> tuple[str, str]:
    """(order text, press text) of a message."""
    text = read_message(message)
    return text.orders, text.press


def read_message(message: bytes | str) -> MessageText:
    """The order text and press sections of a message, read within the bounds above."""
    unread: list[str] = []
    if len(message) > MAX_READ_BYTES:
        unread.append(f"only its first {MAX_READ_BYTES:,} bytes were read (orders come before any "
                      "attachment)")
    try:
        body, html_cut = _body(message)
    except Exception:  # noqa: BLE001  a broken message must still give text
        raw = message[:MAX_READ_BYTES]
        body, html_cut = (raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)), False
    if html_cut:
        unread.append(f"only the first {MAX_HTML_CHARS:,} characters of its HTML were read (it has "
                      "no plain text)")
    if len(body) > MAX_TEXT_CHARS:
        body = _cut_at_line(body, MAX_TEXT_CHARS)
        unread.append(f"only the first {MAX_TEXT_CHARS:,} characters of its text were read")
    orders, sections = _clean(body)
    words = ("Your message is longer than gmserver reads: " + "; ".join(unread)
             + "; the rest was not read.") if unread else ""
    return MessageText(orders, tuple(sections), words)


def press_sections(message: bytes | str) -> list[tuple[str, str]]:
    """(heading line, text) of each press section of a message, in order (gmserver.rules.press
    reads the heading: kind, recipients, signature)."""
    return [(heading, text.strip("\n")) for heading, text in read_message(message).sections if text.strip()]


def body_text(message: Message) -> str:
    """The readable body of a parsed message (text/plain, else HTML as text), quotes and
    signatures included, up to MAX_TEXT_CHARS. Never raises."""
    try:
        return _cut_at_line(_message_text(message)[0], MAX_TEXT_CHARS)
    except Exception:  # noqa: BLE001  a broken message has no text to look at
        return ""


def _cut_at_line(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, at a line end if one is in the last quarter."""
    if len(text) <= limit:
        return text
    end = text.rfind("\n", limit * 3 // 4, limit)
    return text[:end if end >= 0 else limit]


def _looks_like_email(text: str) -> bool:
    head = text[:4000]
    if not _HEADER_LINE.match(head):
        return False
    block = re.split(r"\r?\n\r?\n", head, maxsplit=1)[0]
    return bool(_KNOWN_HEADERS.search(block)) and all(
        _HEADER_LINE.match(line) or line[:1] in (" ", "\t") for line in block.splitlines() if line)


def _body(message: bytes | str) -> tuple[str, bool]:
    """(the body text, whether its HTML was cut at MAX_HTML_CHARS)."""
    if isinstance(message, bytes):
        raw = message[:MAX_READ_BYTES]
        probe = raw[:4000].decode("latin-1")
        if not _looks_like_email(probe):
            return _decode_bytes(raw), False
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
    else:
        text = message[:MAX_READ_BYTES]
        if not _looks_like_email(text):
            return text, False
        parsed = email.message_from_string(text, policy=email.policy.default)
    return _message_text(parsed)


def _decode_bytes(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


def _message_text(message: Message) -> tuple[str, bool]:
    """(the body text, whether its HTML was cut at MAX_HTML_CHARS)."""
    plain: str | None = None
    markup: str | None = None
    for part in _parts(message):
        kind = part.get_content_type()
        disposition = str(part.get("Content-Disposition", "")).lower()
        if disposition.startswith("attachment"):
            continue
        if kind == "text/plain" and plain is None:
            plain = _part_text(part)
            if str(part.get_param("format", "")).lower() == "flowed":  # RFC 3676: soft breaks undone
                plain = unflow(plain, str(part.get_param("delsp", "")).lower() == "yes")
        elif kind == "text/html" and markup is None:
            markup = _part_text(part)
    if plain is not None and plain.strip():
        return plain, False
    if markup is not None:
        return _html_text(markup)
    return plain or "", False


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


class _HtmlText:
    """HTML as the lines a reader sees: blocks end lines, list items get "- ", scripts, styles,
    quoted replies (blockquote, Gmail's, Thunderbird's and Yahoo's quote divs) are left out."""

    _BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    _SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        self.out: list[str] = []
        self.skipping = 0
        self.quote_divs: list[int] = []
        self.depth = 0

    def handle_starttag(self, tag: str, classes: str) -> None:
        if tag == "div":
            self.depth += 1
            if "gmail_quote" in classes or "moz-cite-prefix" in classes or "yahoo_quoted" in classes:
                self.quote_divs.append(self.depth)
                self.skipping += 1
        if tag in self._SKIP:
            self.skipping += 1
        if tag in self._BLOCKS:
            self.out.append("\n")
        if tag == "li" and not self.skipping:
            self.out.append("- ")

    def handle_startendtag(self, tag: str) -> None:
        if tag == "br":
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self.skipping:
            self.skipping -= 1
        if tag == "div":
            if self.quote_divs and self.quote_divs[-1] == self.depth:
                self.quote_divs.pop()
                self.skipping = max(0, self.skipping - 1)
            self.depth -= 1
        if tag in self._BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(html.unescape(data).replace("\xa0", " "))

    def feed(self, markup: str) -> None:
        """One left-to-right scan: each character is looked at a bounded number of times (no
        backtracking, no rescanning), so the time grows with the length alone. html.parser took
        42 s for 100 KB of "<a<a<a..." and the old fallback regex as long for a run of "<"."""
        lower = markup.lower()
        text_from = search = 0  # the text not yet handed on starts at text_from
        # a "<" not followed by a letter, "/", "!" or "?" is text ("<3", "a < b")
        while (start := _TAG_START.search(markup, search)) is not None:
            opening = start.start()
            after = markup[opening + 1]
            if opening > text_from:
                self.handle_data(markup[text_from:opening])
            if markup.startswith("<!--", opening):
                closing = markup.find("-->", opening + 4)
                if closing < 0:
                    return  # a comment never closed hides the rest, as in a browser
                text_from = search = closing + 3
                continue
            # a ">" inside a quoted attribute value does not end the tag, within _QUOTED_TAG_CHARS
            quoted = _QUOTED_TAG.match(markup, opening, opening + _QUOTED_TAG_CHARS)
            closing = quoted.end() - 1 if quoted else markup.find(">", opening)
            if closing < 0:
                self.handle_data(markup[opening:])  # a tag never closed is text, as html.parser read it
                return
            inside = markup[opening + 1:closing]
            text_from = search = closing + 1
            if after in "!?":
                continue  # <!DOCTYPE ...>, <![if ...]>, <?xml ...?>
            name_match = _TAG_NAME.match(inside, 1 if after == "/" else 0)
            tag = name_match.group().lower() if name_match else ""
            if after == "/":
                self.handle_endtag(tag)
            elif inside.endswith("/"):
                self.handle_startendtag(tag)
            else:
                self.handle_starttag(tag, _classes(inside) if tag == "div" else "")
                if tag in ("script", "style"):  # their content is never text, even with "<" in it
                    closing = lower.find("</" + tag, search)
                    if closing < 0:
                        return
                    text_from = search = closing
        if text_from < len(markup):
            self.handle_data(markup[text_from:])


_TAG_START = re.compile(r"<[A-Za-z/!?]")
# A tag up to its ">", its quoted values whole. Each character can be matched one way only (no
# backtracking to speak of); a tag longer than _QUOTED_TAG_CHARS, or a quote never closed, ends
# at its first ">" instead, so that no part of the HTML is scanned more than that many times.
_QUOTED_TAG = re.compile(r"""<[^>"']*+(?:(?:"[^"]*+"|'[^']*+')[^>"']*+)*+>""")
_QUOTED_TAG_CHARS = 2000
_TAG_NAME = re.compile(r"[A-Za-z][^\s/>]*")
_CLASS = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
# A div's class is looked for in the first characters of its tag only (a quote never closed would
# otherwise have each "class=" read to the end of the tag).
_CLASS_SCAN_CHARS = 2000


def _classes(tag: str) -> str:
    match = _CLASS.search(tag, 0, _CLASS_SCAN_CHARS)
    return html.unescape(next((group for group in match.groups() if group is not None), "")) if match else ""


def html_to_text(markup: str) -> str:
    """The text of an HTML body (its first MAX_HTML_CHARS characters), a line per block."""
    return _html_text(markup)[0]


def _html_text(markup: str) -> tuple[str, bool]:
    """(the text, whether the HTML was cut at MAX_HTML_CHARS)."""
    cut = len(markup) > MAX_HTML_CHARS
    parser = _HtmlText()
    parser.feed(markup[:MAX_HTML_CHARS] if cut else markup)
    text = "".join(parser.out)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line), cut


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
