"""What a player sets for themselves by mail, read from the words after the command: SET ZONE (an
IANA time zone, in any case: "europe/berlin", "Europe/Berlin please"; "game" or "off" goes back
to the game's own), SET CONFIRM brief|full and SET PRESS each|digest.

Pure: each `read_*` returns the value to store or raises ValueError saying, in words, what was
wrong. A player's mistakes are read kindly: any case, extra words after the value, a colon.
"""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

# SET ZONE words that mean "the game's own zone again"
ZONE_RESET = frozenset({"game", "off", "none", "default", "reset"})
CONFIRM_STYLES = ("full", "brief")
PRESS_DELIVERIES = ("each", "digest")


@cache
def _zones() -> dict[str, str]:
    """lower-case name -> the IANA name ("europe/berlin" -> "Europe/Berlin"); the system's tz database."""
    return {name.lower(): name for name in available_timezones()}


def _first_word(text: str) -> str:
    words = text.replace(":", " ").replace(",", " ").split()
    return words[0] if words else ""


def read_zone(text: str) -> str | None:
    """The IANA zone named first in `text`, as the tz database spells it; None: the game's own."""
    word = _first_word(text)
    if not word:
        raise ValueError("no time zone was named.")
    if word.lower() in ZONE_RESET:
        return None
    found = _zones().get(word.lower().rstrip("."))
    if found is None:
        raise ValueError(f"{word[:60]!r} is not a time zone name; write one as Continent/City, as the "
                         "tz database names it (Europe/Berlin, America/New_York, Asia/Tokyo, UTC).")
    return found


def _read_choice(text: str, choices: tuple[str, ...]) -> str:
    word = _first_word(text).lower().rstrip(".!")
    if word not in choices:
        said = f"{word[:40]!r} is not" if word else "nothing was named:"
        raise ValueError(f"{said} one of {' or '.join(choices)}.")
    return word


def read_confirm_style(text: str) -> str:
    """SET CONFIRM: "brief" (the orders as read and the deadline) or "full" (every line, today's)."""
    return _read_choice(text, CONFIRM_STYLES)


def read_press_delivery(text: str) -> str:
    """SET PRESS: "each" (every press item mailed as it comes, today's) or "digest" (one mail a day)."""
    return _read_choice(text, PRESS_DELIVERIES)
