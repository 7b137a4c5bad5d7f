"""What a game may be called. Players write the name in every subject line and the subject
reader finds it whatever its case (gmserver.rules.subject_scan), so a name is one word a mail
client cannot garble, and two names that differ only by case are the same game."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_LENGTH = 100
_JOINERS = "-_"


def name_key(name: str) -> str:
    """The form two names are compared in: `LEPANTO` and `lepanto` are one game."""
    return unicodedata.normalize("NFKC", name).casefold()


def name_problem(name: str, existing: Iterable[str] = ()) -> str | None:
    """Why `name` cannot be a new game's name, beside the games `existing`; None if it can.

    Letters (any script: `Zürich`), digits, `-` and `_`, starting with a letter or digit: no
    space, control or formatting character (a right-to-left override made a name read backwards
    in every listing)."""
    rule = (f"a game name is 1 to {MAX_LENGTH} letters, digits, '-' or '_', starting with a letter or digit "
            "(e.g. lepanto-2)")
    bad = [c for c in name if not (c.isalnum() or c in _JOINERS)]
    if bad:
        shown = ", ".join(dict.fromkeys(map(_character_words, bad)))
        return f"{name!r} cannot be a game name ({shown}): {rule}"
    if not name or len(name) > MAX_LENGTH or not name[0].isalnum():
        return f"{name!r} cannot be a game name: {rule}"
    key = name_key(name)
    for other in existing:
        if name_key(other) == key:
            return (f"a game called {other!r} already exists" if other == name else
                    f"{name!r} is the game {other!r} (names that differ only by case are the same game)")
    return None


def _character_words(character: str) -> str:
    if character == " ":
        return "a space"
    if unicodedata.category(character)[0] in "CZ":  # invisible: its code point is what can be told
        return f"U+{ord(character):04X}"
    return repr(character)
