"""Bounds on what gmserver parses, checked on the raw bytes before any parse.

Python's email package (policy.default) is cheap on real mail and ruinous on some hostile mail:
a stranger's 140 KB Subject folded into lines of 60 `=?utf-8?q?A?=` words takes about 650 MB and
1.5 s to read (2.7 GB at 280 KB: the cost grows with the square of the words in one header), a
plain 128 KB header about 80 MB, and multipart nested 1,000 deep raises RecursionError. So a
message is measured first, with regular expressions and the old header parser, in time and memory
that grow with its size alone; one over a bound is never parsed further but answered (see
gmserver.services.inbox.runner).

Every bound is several times what real mail needs (measured on these machines:
benchmarks/bench_hostile.py prints the cost of mail at and over the bounds).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32

# The whole message. Gmail and Outlook send attachments of up to 20-25 MB, about 34 MB once
# base64-encoded, and a player's orders with a map attached must still be read: the parser's cost
# grows with the size alone (about 100 MB for 32 MB). The one bound on a message, wherever it
# comes from: the SMTP/LMTP listener refuses a larger one in the transaction (552, its
# data_size_limit), IMAP fetches at most this much per batch (services.inbox.polling; a larger message
# comes alone) and intake answers a larger one it was handed anyway.
MAX_MESSAGE_BYTES = 40 * 1024 * 1024
# One header section (the message's, or one part's). Gmail and Outlook headers run 5-20 KB, a
# message relayed through many hops with spam-filter stamps 30-50 KB.
MAX_HEADER_SECTION_BYTES = 128 * 1024
# One header, unfolded. The longest real ones are References of a long thread and To/Cc of a big
# list (a few KB; 1,500 recipients fit in 64 KB); a plain 64 KB header parses in about 40 MB.
MAX_HEADER_BYTES = 64 * 1024
# RFC 2047 encoded words (`=?utf-8?q?...?=`) in the whole message. A long non-ASCII subject has
# about 10, a Cc of 100 non-ASCII names about 200; 1,000 in one header parse in about 35 MB.
MAX_ENCODED_WORDS = 1000
# Levels of multipart and message/rfc822 nesting. Real mail nests 2-4 levels (mixed > related >
# alternative), a forward of a forward with attachments under 10; Python's parser recurses at
# each level, and its time grows with the square of the depth (1 s at 500).
MAX_MIME_DEPTH = 32
# MIME parts in the whole message: a message with 100 attachments has about 100.
MAX_MIME_PARTS = 1000
# Parentheses (RFC 5322 comments) nested in one structured header. Real mail nests none or one
# ("anna@example.org (Anna (work))" is rare already); Python's address and Content-Type parsers
# recurse at each level and fail at about 250, sooner when called deep in a stack. Unstructured
# headers (Subject) are not read for comments and are not counted: a subject may frown :-((((
MAX_COMMENT_DEPTH = 32
_UNSTRUCTURED = frozenset({b"subject", b"comments", b"keywords", b"thread-topic", b"thread-index"})


@dataclass(frozen=True)
class Excess:
    """The first bound a message exceeds, in words a sender can act on."""

    what: str  # "The message", "Its Subject header", ...
    found: int
    limit: int
    kind: str  # "bytes" | "encoded words" | "depth" | "parts"

    def describe(self) -> str:
        if self.kind == "bytes":
            return (f"{self.what} is {self.found:,} bytes long; gmserver reads at most "
                    f"{self.limit:,} bytes ({_size(self.limit)}) there")
        if self.kind == "encoded words":
            return (f"{self.what} holds {self.found:,} encoded words (pieces of text written like "
                    f"=?utf-8?q?...?=); gmserver reads at most {self.limit:,}")
        if self.kind == "depth":
            return (f"{self.what} has parts nested more than {self.limit} levels deep; gmserver "
                    f"reads at most {self.limit}")
        if self.kind == "comments":
            return (f"{self.what} has parentheses nested more than {self.limit} deep; gmserver reads "
                    f"at most {self.limit}")
        return f"{self.what} has more than {self.limit:,} parts; gmserver reads at most {self.limit:,}"


def first_excess(raw: bytes) -> Excess | None:
    """The first bound `raw` exceeds, or None if it may be parsed."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return Excess("The message", len(raw), MAX_MESSAGE_BYTES, "bytes")
    words = len(_ENCODED_WORD_START.findall(raw))
    end = _header_section_end(raw, 0)
    excess = _header_excess(raw, 0, end, "The message's header section")
    if excess is None and words > MAX_ENCODED_WORDS:
        excess = Excess("The message", words, MAX_ENCODED_WORDS, "encoded words")
    return excess or _mime_excess(raw, end)


def header_section(raw: bytes) -> bytes:
    """The message's header section, cut to MAX_HEADER_SECTION_BYTES at a line end: what a
    cheap look at the headers (gmserver.rules.envelope.glance_envelope) may read."""
    section = raw[:_header_section_end(raw, 0)]
    if len(section) > MAX_HEADER_SECTION_BYTES:
        section = section[:section.rfind(b"\n", 0, MAX_HEADER_SECTION_BYTES) + 1]
    return section


# Where a header section ends, as Python's parser decides (email.feedparser.headerRE): at the
# first line that is neither a header nor a continuation; a blank line there belongs to it.
_HEADER_LINES = re.compile(rb"(?:(?:[\x21-\x39\x3b-\x7e]*:|[ \t]|From )[^\n]*(?:\n|\Z))*(?:\r?\n)?")
# One header with its continuation lines.
_HEADER = re.compile(rb"^[^ \t\r\n][^\n]*(?:\n[ \t][^\n]*)*", re.MULTILINE)
_HEADER_NAME = re.compile(rb"[A-Za-z0-9-]{1,40}")
_PARENTHESIS = re.compile(rb"[()]")
_ENCODED_WORD_START = re.compile(rb"=\?[^?\s]{1,100}\?[bBqQ]\?")
# A line that could delimit a MIME part: "--boundary" or "--boundary--".
_DELIMITER = re.compile(rb"^--([^\r\n]*?)[ \t]*\r?$", re.MULTILINE)


def _header_section_end(raw: bytes, start: int) -> int:
    match = _HEADER_LINES.match(raw, start)
    return match.end() if match else start


def _header_excess(raw: bytes, start: int, end: int, what: str) -> Excess | None:
    for header in _HEADER.finditer(raw, start, end):
        text = header.group()
        name = text.partition(b":")[0].strip()
        label = f"Its {name.decode()} header" if _HEADER_NAME.fullmatch(name) else "One of its headers"
        if len(text) > MAX_HEADER_BYTES:
            return Excess(label, len(text), MAX_HEADER_BYTES, "bytes")
        if b"(" in text and name.lower() not in _UNSTRUCTURED and _comment_depth(text) > MAX_COMMENT_DEPTH:
            return Excess(label, _comment_depth(text), MAX_COMMENT_DEPTH, "comments")
    if end - start > MAX_HEADER_SECTION_BYTES:
        return Excess(what, end - start, MAX_HEADER_SECTION_BYTES, "bytes")
    return None


def _comment_depth(header: bytes) -> int:
    """How deep parentheses nest (an upper bound on comment nesting: quoting is ignored)."""
    depth = deepest = 0
    for match in _PARENTHESIS.finditer(header):
        depth = depth + 1 if match.group() == b"(" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def _mime_excess(raw: bytes, top_end: int) -> Excess | None:
    """Nesting depth and part count, found by following boundaries through the raw bytes
    (no recursion, no decoding): each part's header section is checked like the message's."""
    open_boundaries: list[tuple[bytes, int]] = []  # (boundary, depth of its parts), innermost last
    parts = 0
    container = _container(_headers_of(raw, 0, top_end))
    depth, position = 0, top_end
    while True:
        # A multipart opens a level of parts; message/rfc822 holds a message (headers first) one
        # level down, whose own Content-Type is looked at in turn.
        while container is not None:
            depth += 1
            if depth > MAX_MIME_DEPTH:
                return Excess("The message", depth, MAX_MIME_DEPTH, "depth")
            if container != b"":  # a multipart boundary
                open_boundaries.append((container, depth))
                break
            end = _header_section_end(raw, position)
            if excess := _header_excess(raw, position, end, "The header section of a part of the message"):
                return excess
            container, position = _container(_headers_of(raw, position, end)), end
        # The next delimiter of an open multipart; an outer one closes the inner ones.
        while open_boundaries:
            match = _DELIMITER.search(raw, position)
            if match is None:
                return None
            position = match.end() + 1
            token = match.group(1)
            level = _find_boundary(open_boundaries, token)
            if level is None:
                continue
            boundary, depth = open_boundaries[level]
            del open_boundaries[level + 1:]
            if token != boundary:  # "--boundary--": that multipart ends
                open_boundaries.pop()
                continue
            parts += 1
            if parts > MAX_MIME_PARTS:
                return Excess("The message", parts, MAX_MIME_PARTS, "parts")
            end = _header_section_end(raw, position)
            if excess := _header_excess(raw, position, end, "The header section of a part of the message"):
                return excess
            container, position = _container(_headers_of(raw, position, end)), end
            if container is not None:
                break
        else:
            return None


def _find_boundary(open_boundaries: list[tuple[bytes, int]], token: bytes) -> int | None:
    for level in range(len(open_boundaries) - 1, -1, -1):
        boundary = open_boundaries[level][0]
        if token == boundary or token == boundary + b"--":
            return level
    return None


def _headers_of(raw: bytes, start: int, end: int) -> Message:
    return BytesHeaderParser(policy=compat32).parsebytes(raw[start:end])


def _container(headers: Message) -> bytes | None:
    """The boundary of a multipart (b"" for a message/*, whose body is a message), or None."""
    try:
        maintype = headers.get_content_maintype()
        if maintype == "multipart":
            boundary = headers.get_boundary()
            return boundary.encode("utf-8", "surrogateescape") if boundary else None
        if maintype == "message" and headers.get_content_subtype() != "delivery-status":
            return b""
    except Exception:  # noqa: BLE001  a Content-Type too broken to read is read as text by the parser too
        return None
    return None


def _size(count: int) -> str:
    for unit, scale in (("MB", 1024 * 1024), ("KB", 1024)):
        if count >= scale:
            return f"{count / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{count} bytes"
