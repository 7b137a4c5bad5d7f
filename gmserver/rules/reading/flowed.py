"""RFC 3676 format=flowed: the soft line breaks a mail client put in a long line are undone.

A client writing `format=flowed` (Thunderbird, Apple Mail, many phones) ends every line it broke
itself with a space; the reader reads lines, so such a line must be joined to the next one or a
long order ("A Munich supports A Berlin to ... Kiel") arrives in two halves. Quoted lines join only
at the same quote depth (RFC 3676 4.5); a leading space is space-stuffing and is removed (4.4);
with DelSp=yes the space before the soft break is deleted too (4.2); the signature separator
"-- " is never flowed (4.3).
"""

from __future__ import annotations

_SIGNATURE = "-- "


def unflow(text: str, delsp: bool = False) -> str:
    """The text with its flowed lines joined (see the module doc)."""
    out: list[str] = []
    held: str | None = None  # the paragraph being joined, without its quote marks
    held_depth = 0
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        content = raw[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing (4.4), or the space after the quote marks
        flowed = content.endswith(" ") and content != _SIGNATURE
        if flowed and delsp:
            content = content[:-1]
        if held is not None and depth != held_depth:
            out.append(_quoted(held, held_depth))  # a depth change ends a paragraph (4.5)
            held = None
        held = content if held is None else held + content
        held_depth = depth
        if not flowed:
            out.append(_quoted(held, depth))
            held = None
    if held is not None:
        out.append(_quoted(held, held_depth))
    return "\n".join(out)


def _quoted(line: str, depth: int) -> str:
    return ">" * depth + " " + line if depth else line
