"""The text to read from a message as it arrives: a whole RFC 5322 email or a bare body.

text/plain is preferred; HTML-only mail is converted to text; quoted replies (`>` lines,
"On ... wrote:" blocks, Outlook "-----Original Message-----" and "From: / Sent: / To:" headers,
copies of gmserver's own mail: see gmserver.rules.reading.quoting), signatures after "-- ",
forwarded copies and press sections are kept apart; password lines (`Password: ...`) are dropped.
Never raises: hostile or broken mail gives
whatever text could be decoded. Bounded: at most MAX_READ_BYTES of the message, MAX_HTML_CHARS of
HTML and MAX_TEXT_CHARS of text are read, each in time that grows with its length alone.

`read_message` also says what else the message held that a player may take for orders: a
forward of the player's own order mail is read as their orders (anything else forwarded is said
not to be read), and each attached file is named, its text kept apart (`MessageText.for_orders`
reads it where the ruleset's `text_attachments` allows), never passed over in silence. A line the
client wrapped in the middle of a sentence is joined again; in an HTML table a row is a line and
its cells are words.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
from dataclasses import dataclass, field
from email.message import Message
from email.utils import parseaddr

from gmserver.rules.mailpolicy import MAIL_POLICY
from gmserver.rules.password_lines import is_password_line
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


class _Headers:
    """The outer From address and Subject, parsed only when asked for (the email package's header
    parsing costs more than reading a dozen orders)."""

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


@dataclass(frozen=True)
class MessageText:
    """What a message gives the reader."""

    orders: str  # the text read for orders: the message's own, a forward of the sender's own mail included
    sections: tuple[tuple[str, str], ...]  # (heading line, text) of each press section
    unread: str = ""  # "", or in words what of the message was not read
    notes: tuple[str, ...] = ()  # for the player: a forward not read, an attached file that is not text
    attached: tuple[tuple[str, str], ...] = ()  # (file name as shown, text) of each attached text file
    headers: _Headers = field(default=_NO_HEADERS, repr=False, compare=False)
    # body_text of the message, when it was read from the whole message already parsed
    # (read_message's `parsed_whole`): the sender check looks for passwords in it
    body: str | None = field(default=None, repr=False, compare=False)

    @property
    def press(self) -> str:
        return "\n".join(text for _, text in self.sections).strip("\n")

    @property
    def subject(self) -> str:
        """The message's Subject ("" for a bare body), parsed when asked for."""
        return self.headers.subject

    def for_orders(self, attachments: bool) -> tuple[str, tuple[str, ...]]:
        """(the text to read for orders, the notes for the player): under `attachments` (the
        ruleset's `text_attachments`) each attached text file is read after the message's own
        text; otherwise it is named as not read."""
        text, notes = self.orders, list(self.notes)
        for name, attached in self.attached:
            if attachments:
                text = "\n\n".join(part for part in (text, attached) if part)
                notes.append(f"The attached file {name} was read for orders, after the text of your mail.")
            else:
                notes.append(f"The attached file {name} was not read: this game reads orders in the text of "
                             "the mail only. To send them, reply to this mail with the orders written in it.")
        return text, tuple(notes)


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


def read_message(message: bytes | str, parsed_whole: Message | None = None) -> MessageText:
    """The order text and press sections of a message, read within the bounds above.
    `parsed_whole`: the whole of `message` (bytes) already parsed with MAIL_POLICY, used instead
    of parsing it again where the bytes read are the whole message."""
    unread: list[str] = []
    if len(message) > MAX_READ_BYTES:
        unread.append(f"only its first {MAX_READ_BYTES:,} bytes were read (orders come before any "
                      "attachment)")
    try:
        parsed, body, html_cut = _body(message, parsed_whole)
    except Exception:  # noqa: BLE001  a broken message must still give text
        raw = message[:MAX_READ_BYTES]
        parsed, body, html_cut = None, (raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)), False
    if html_cut:
        unread.append(f"only the first {MAX_HTML_CHARS:,} characters of its HTML were read (it has "
                      "no plain text)")
    if len(body) > MAX_TEXT_CHARS:
        body = _cut_at_line(body, MAX_TEXT_CHARS)
        unread.append(f"only the first {MAX_TEXT_CHARS:,} characters of its text were read")
    read_body = body  # what body_text gives of the parsed message
    headers = _Headers(parsed) if parsed is not None else _NO_HEADERS
    orders, sections, notes = _clean(body, headers)
    attached: list[tuple[str, str]] = []
    if parsed is not None:
        forwarded, attached, attached_notes = _attachments(parsed, headers)
        orders = "\n\n".join(part for part in (orders, *forwarded) if part)
        notes += attached_notes
    words = ("Your message is longer than gmserver reads: " + "; ".join(unread)
             + "; the rest was not read.") if unread else ""
    return MessageText(orders, tuple(sections), words, tuple(notes), tuple(attached), headers,
                       body=read_body if parsed is not None and parsed is parsed_whole else None)


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


def _body(message: bytes | str, parsed_whole: Message | None = None) -> tuple[Message | None, str, bool]:
    """(the parsed message, None for a bare body; the body text; whether its HTML was cut at
    MAX_HTML_CHARS). `parsed_whole`: as read_message says."""
    if isinstance(message, bytes):
        raw = message[:MAX_READ_BYTES]
        probe = raw[:4000].decode("latin-1")
        if not _looks_like_email(probe):
            return None, _decode_bytes(raw), False
        whole = parsed_whole is not None and len(raw) == len(message)
        parsed = parsed_whole if whole else email.message_from_bytes(raw, policy=MAIL_POLICY)
    else:
        text = message[:MAX_READ_BYTES]
        if not _looks_like_email(text):
            return None, text, False
        parsed = email.message_from_string(text, policy=MAIL_POLICY)
    return (parsed, *_message_text(parsed))


def _header(message: Message, name: str) -> str:
    try:
        return " ".join(str(message.get(name, "") or "").split())
    except Exception:  # noqa: BLE001  a header that cannot be decoded names nothing
        return ""


def _header_address(message: Message, name: str) -> str:
    return parseaddr(_header(message, name))[1].lower()


def _attachments(message: Message, headers: _Headers) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """(texts of attached forwards of the sender's own mail, (name, text) of attached text files,
    notes) for what is attached to `message`: every file and message attached is named."""
    forwarded: list[str] = []
    texts: list[tuple[str, str]] = []
    notes: list[str] = []
    for part in _attached(message):
        if part.get_content_type() == "message/rfc822":
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if not isinstance(inner, Message):
                continue
            author = _header_address(inner, "From")
            if headers.sender and author == headers.sender:
                forwarded.append(_clean(_cut_at_line(_message_text(inner)[0], MAX_TEXT_CHARS), headers)[0])
                notes.append(_OWN_FORWARD_NOTE)
            else:
                notes.append(_other_forward_note(author))
            continue
        name = _file_name(part)
        if part.get_content_type() == "text/plain" or name.lower().endswith('.txt"'):
            texts.append((name, _clean(_cut_at_line(_part_text(part), MAX_TEXT_CHARS), headers)[0]))
        else:
            notes.append(f"The attached file {name} was not read: orders are read from text only. To send them, "
                         "reply to this mail with the orders written in it.")
    return forwarded, texts, notes


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
    quoted replies (blockquote, Gmail's, Thunderbird's and Yahoo's quote divs) are left out. In a
    table a row is a line and its cells are words ("F Ank | - | Bla" is "F Ank - Bla", though Word
    puts each cell in a paragraph of its own), unless a cell holds several lines: a table used for
    layout (a whole message in one cell) keeps its lines."""

    _BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    _SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        self.out: list[str] = []
        self.skipping = 0
        self.quote_divs: list[int] = []
        self.depth = 0
        self.tables = 0  # tables open
        self.rows: list[tuple[int, list[list[str]]]] = []  # open rows: (their table, their cells' text)

    def _emit(self, text: str) -> None:
        if not self.rows:
            self.out.append(text)
            return
        cells = self.rows[-1][1]
        if not cells:
            cells.append([])
        cells[-1].append(text)

    def _end_row(self) -> None:
        _, cells = self.rows.pop()
        texts = ["\n".join(line for line in "".join(cell).splitlines() if line.strip()) for cell in cells]
        texts = [text for text in texts if text]
        layout = any("\n" in text for text in texts)
        self._emit("\n" + ("\n" if layout else " ").join(texts) + "\n")

    def close(self) -> None:
        """Rows left open (HTML may omit </tr> and </table>) end with the text."""
        while self.rows:
            self._end_row()

    def handle_starttag(self, tag: str, classes: str) -> None:
        if tag == "div":
            self.depth += 1
            if "gmail_quote" in classes or "moz-cite-prefix" in classes or "yahoo_quoted" in classes:
                self.quote_divs.append(self.depth)
                self.skipping += 1
        if tag in self._SKIP:
            self.skipping += 1
        if tag == "table":
            self.tables += 1
        elif tag == "tr" and self.tables <= _TABLE_DEPTH:
            if self.rows and self.rows[-1][0] == self.tables:
                self._end_row()  # the row before it was never closed
            self.rows.append((self.tables, []))
            return
        elif tag in ("td", "th"):
            if self.rows and self.rows[-1][0] == self.tables:
                self.rows[-1][1].append([])
            else:
                self._emit(" ")  # a cell of a table nested too deep: a word boundary still
            return
        if tag in self._BLOCKS:
            self._emit("\n")
        if tag == "li" and not self.skipping:
            self._emit("- ")

    def handle_startendtag(self, tag: str) -> None:
        if tag == "br":
            self._emit("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self.skipping:
            self.skipping -= 1
        if tag == "div":
            if self.quote_divs and self.quote_divs[-1] == self.depth:
                self.quote_divs.pop()
                self.skipping = max(0, self.skipping - 1)
            self.depth -= 1
        if tag == "tr" and self.rows and self.rows[-1][0] == self.tables:
            self._end_row()
            return
        if tag == "table" and self.tables:
            while self.rows and self.rows[-1][0] == self.tables:
                self._end_row()
            self.tables -= 1
        if tag in self._BLOCKS:
            self._emit("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self._emit(html.unescape(data).replace("\xa0", " "))

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


# Rows of tables nested deeper than this are read as plain blocks: each level of nesting reads
# the text of the rows inside it once more, so the depth bounds the work (a run of
# "<table><tr><td>" would otherwise cost the square of its length).
_TABLE_DEPTH = 4
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
    parser.close()
    text = "".join(parser.out)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line), cut


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
            # a copy of gmserver's own mail, quoted with or without "> ", is never read
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
