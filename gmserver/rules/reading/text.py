"""From a line as written to a list of upper-case tokens the grammar reads.

What is undone here: list markers (`1.`, `2)`, `-`, `*`, bullets), unicode arrows and dashes,
`->`, `=>`, coast spellings (`StP(nc)`, `Spa/sc`, `Bul EC`, `north coast`, `(n)`) which all
become one token `/NC`, `/SC`, `/EC` or `/WC`, and the hyphen inside `Mid-Atlantic`.
Tokens are words (`PAR`, `GERMAN'S` -> `GERMAN`), numbers and the punctuation the grammar uses:
`-` (move), `,` `;` `(` `)` `:`.
"""

from __future__ import annotations

import re
import unicodedata

MAX_LINE_CHARS = 400  # longer lines are read by their beginning only (a pasted blob is not an order)

_LIST_MARKER = re.compile(
    r"^\s*(?:(?:[-*+•·‣◦▪►>]|–|—)+\s+|\(?\d{1,3}[.):]\s*|\(?[a-zA-Z]\)\s+|#\d{1,3}[.):]?\s+)"
)
_ARROWS = re.compile(r"\s*(?:-+>|=+>|~+>|>+|→|⇒|➔|➜|⟶|⇨|➡|⟹|↦|⇢|⭢|⮕|-{2,}|[–—‐‑‒−])\s*")
_MID_ATLANTIC = re.compile(r"\b(MID|NORTH|ST)\s*-\s*(ATL|PET)", re.IGNORECASE)
_COAST_PAREN = re.compile(
    r"\s*[(\[]\s*(N|S|E|W)(?:ORTH|OUTH|AST|EST)?(?:ERN)?\.?\s*(?:C\.?|COAST)?\s*[)\]]", re.IGNORECASE
)
_COAST_SLASH = re.compile(
    r"\s*[/\\.]\s*(N|S|E|W)(?:ORTH|OUTH|AST|EST)?(?:ERN)?(?:\.?\s*C\b\.?|\s*COAST\b|\b)", re.IGNORECASE
)
_COAST_WORDS = re.compile(r",?\s*\b(?:ON\s+)?(?:THE\s+)?(N|S|E|W)(?:ORTH|OUTH|AST|EST)(?:ERN)?\s+COAST\b", re.IGNORECASE)
_COAST_SHORT = re.compile(r"(?<=[A-Za-z])\s+(N|S|E|W)\.?C\.?(?![A-Za-z])", re.IGNORECASE)
_TOKEN = re.compile(r"/[NSEW]C|[^\W\d_]+(?:['’][^\W\d_]+)*|\d+(?:\.\d+)*|[-,;:()&?!]")


def strip_list_marker(line: str) -> str:
    return _LIST_MARKER.sub("", line, count=1)


def normalise(line: str) -> str:
    """The line with list markers, arrows and coast spellings in one form; still mixed case."""
    text = unicodedata.normalize("NFKC", line[:MAX_LINE_CHARS])
    text = text.replace("\t", " ")
    text = strip_list_marker(text)
    # each spelling is looked for only where the character it needs is in the line: most order
    # lines have no coast at all, and these substitutions are most of the cost of reading a line
    if "-" in text:
        text = _MID_ATLANTIC.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)
    text = _ARROWS.sub(" - ", text)
    if "(" in text or "[" in text:
        text = _COAST_PAREN.sub(lambda m: f" /{m.group(1).upper()}C ", text)
    upper = text.upper()
    if "COAST" in upper:
        text = _COAST_WORDS.sub(lambda m: f" /{m.group(1).upper()}C ", text)
    if "/" in text or "\\" in text or "." in text:
        text = _COAST_SLASH.sub(_slash_coast, text)
    if "C" in upper:
        text = _COAST_SHORT.sub(lambda m: f" /{m.group(1).upper()}C", text)
    return text


def _slash_coast(match: re.Match[str]) -> str:
    written = match.group(0)
    # a dot only separates a coast when written "Stp.nc"; "St. Petersburg" must stay
    if written.lstrip().startswith(".") and not re.search(r"C\b|COAST", written, re.IGNORECASE):
        return written
    return f" /{match.group(1).upper()}C "


def tokens(line: str) -> list[str]:
    """Upper-case tokens of a line (see the module doc)."""
    words = []
    for token in _TOKEN.findall(normalise(line).upper()):
        if token[0].isalpha() and ("'" in token or "’" in token):
            token = re.split(r"['’]", token, maxsplit=1)[0]  # GERMANY'S -> GERMANY, DON'T -> DON
        words.append(token)
    return words


# The reader's messages that quote the player's words back ("The words 'oops' before the order were
# skipped."); the words are tokens (upper case, punctuation apart) until `quoted_exactly` restores them
_QUOTED_WORDS = re.compile(r"'([^'\n]+)'(?= (?:before the order were skipped|were ignored|is not an order"
                           r"|was taken as what))")


def quoted_exactly(message: str | None, raw: str) -> str | None:
    """`message` with each quotation of the player's words as `raw` has them (case, spacing,
    punctuation between them), so that a reply quotes what was written; a quotation not found in
    `raw` as written is left as it is."""
    if not message or "'" not in message:
        return message

    def written(match: re.Match[str]) -> str:
        words = match.group(1).split()
        # between two words: what the tokens dropped ("I'd" is the token I), spaces, punctuation
        pattern = r"(?:['’][^\W\d_]+)?[\W_]*?".join(re.escape(word) for word in words)
        found = re.search(rf"(?<![^\W_]){pattern}(?![^\W_])", raw, re.IGNORECASE)
        return f"'{found.group(0)}'" if found and words else match.group(0)

    return _QUOTED_WORDS.sub(written, message)
