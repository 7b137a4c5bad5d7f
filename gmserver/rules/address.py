"""One sender address read strictly from a From (or Reply-To) header value.

Pure. Python 3.11's address parsers guess: `france@players.test <evil@attacker.test>` reads as
france, `a@x, b@y` gives two senders to choose from, and some broken values raise. A sender is
an identity here, so anything but exactly one mailbox gives no sender at all:

    anna@example.org                   -> anna@example.org
    Anna Smith <anna@example.org>      -> anna@example.org, shown as "Anna Smith"
    "Smith, Anna" <anna@example.org>   -> anna@example.org
    anna@example.org (Anna)            -> anna@example.org, shown as "Anna"
    france@x.test <evil@attacker.test> -> evil@attacker.test: the display name only looks like an address
    a@x.test, b@x.test / group: a@x;   -> None (several addresses, or a group)
    Anna <                             -> None (unbalanced brackets, quotes or comments)
    Anna <anna@example.org> junk       -> None (text after the address)
"""

from __future__ import annotations

import email.header
import email.utils
import functools
import re
from dataclasses import dataclass

# RFC 2047 encoded word: kept whole, so that a sloppy encoder's ":" or "@" inside one is not read
# as syntax (a strict reader would drop the sender of much real mail for it).
_ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")
_FOLD = re.compile(r"\r?\n(?=[ \t])")
_SPECIALS = '"(<>),;:'
# Longer than any real mailbox (a 64-octet local part, a 255-octet domain, a long display name):
# not worth reading.
MAX_MAILBOX_CHARS = 2000


@dataclass(frozen=True)
class Mailbox:
    display: str  # decoded display name (or comment), one line; "" when there is none
    address: str  # the addr-spec as written; the caller decides whether it is usable


def parse_mailbox(value: str) -> Mailbox | None:
    """The one mailbox `value` holds, or None if it holds anything else (see the module doc)."""
    text = _FOLD.sub("", value).strip()
    if len(text) > MAX_MAILBOX_CHARS:
        return None
    if any("\udc80" <= ch <= "\udcff" for ch in text):  # raw 8-bit bytes, as the email parser keeps them
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    tokens = _tokens(text)
    if tokens is None:
        return None
    angles = [i for i, (kind, _) in enumerate(tokens) if kind == "angle"]
    if len(angles) > 1:
        return None
    if angles:
        at = angles[0]
        if any(kind != "comment" for kind, _ in tokens[at + 1:]):
            return None  # text after the address
        phrase = [(kind, token) for kind, token in tokens[:at] if kind != "comment"]
        return Mailbox(_display(phrase), tokens[at][1].strip())
    words = [token for kind, token in tokens if kind != "comment"]
    kinds = [kind for kind, _ in tokens if kind != "comment"]
    if kinds != ["word"]:
        return None  # a bare phrase, a quoted local part, or words around an address
    comments = [("word", token) for kind, token in tokens if kind == "comment"]
    return Mailbox(_display(comments), words[0])


def _tokens(text: str) -> list[tuple[str, str]] | None:
    """Top-level tokens: ("word" | "quoted" | "comment" | "angle", text); None if unbalanced
    or if a separator (",", ";", ":") shows several addresses or a group."""
    tokens: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
        elif ch == '"':
            end, content = _quoted(text, i + 1, '"')
            if end < 0:
                return None
            tokens.append(("quoted", content))
            i = end
        elif ch == "(":
            end, content = _comment(text, i + 1)
            if end < 0:
                return None
            tokens.append(("comment", content))
            i = end
        elif ch == "<":
            end = text.find(">", i + 1)
            if end < 0 or "<" in text[i + 1:end]:
                return None
            tokens.append(("angle", text[i + 1:end]))
            i = end + 1
        elif ch in _SPECIALS:
            return None  # ">" or ")" unopened, or "," ";" ":" (several addresses or a group)
        else:
            match = _ENCODED_WORD.match(text, i)
            if match:
                tokens.append(("word", match.group()))
                i = match.end()
                continue
            start = i
            while i < n and text[i] not in _SPECIALS and text[i] not in " \t\r\n":
                i += 1
            tokens.append(("word", text[start:i]))
    return tokens


def _quoted(text: str, i: int, close: str) -> tuple[int, str]:
    """(index after the closing quote, content) or (-1, "")."""
    out = []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == close:
            return i + 1, "".join(out)
        out.append(ch)
        i += 1
    return -1, ""


def _comment(text: str, i: int) -> tuple[int, str]:
    """(index after the closing parenthesis, content) of a comment, which may nest; or (-1, "")."""
    depth, out = 1, []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i + 1, "".join(out)
        out.append(ch)
        i += 1
    return -1, ""


def _display(phrase: list[tuple[str, str]]) -> str:
    """The display name as one line of text: encoded words decoded, line breaks and runs of
    spaces (an encoded CR LF included) made single spaces."""
    text = " ".join(token for _, token in phrase)
    if "=?" in text:
        try:  # adjacent encoded words join without the space between them (RFC 2047 6.2)
            text = str(email.header.make_header(email.header.decode_header(text)))
        except Exception:  # noqa: BLE001  an unknown charset or broken base64: show it as written
            pass
    return " ".join(text.split())


# A mail's From is read by the envelope's automated check and by the sender check, its To by the
# envelope and by the sender check, and each player's mail carries the same values again: the
# email package's address parser (a Python loop over each character) is run once for each.
@functools.lru_cache(maxsize=1024)
def header_addresses(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`email.utils.getaddresses` of header values: (display name, addr-spec) of each address,
    as loosely as that parser reads them (never for a sender's identity: `parse_mailbox`). Raises
    what it raises (callers judge hostile headers)."""
    return tuple(email.utils.getaddresses(list(values)))
