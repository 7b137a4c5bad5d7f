"""The dates of an ABSENCE line, read as players write them: "2026-12-20 to 2026-12-28 (skiing)",
"I'm away from 20 December until 28 December", "20/12 - 3/1", "Dec 20 to Dec 28", "20.12.2026",
and "cancel". Also the dates an out-of-office auto-reply names ("I am out of the office from 20
December until 28 December").

Pure: `read_absence` returns what the line asks or raises ValueError saying, in words, what was
wrong and what would have been read. Numeric dates are day first (20/12, 20.12.2026) unless the
first number cannot be a month's day and the second can ("12/20"); a date without a year is the
next such date (on or after today for the first, on or after the first for the second: "28/12 to
3/1" crosses New Year).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

MONTHS = {name: number for number, names in enumerate((
    ("jan", "january", "janvier", "januar"), ("feb", "february", "février", "fevrier", "februar"),
    ("mar", "march", "mars", "märz", "marz"), ("apr", "april", "avril"), ("may", "mai"),
    ("jun", "june", "juin", "juni"), ("jul", "july", "juillet", "juli"), ("aug", "august", "août", "aout"),
    ("sep", "sept", "september", "septembre"), ("oct", "october", "octobre", "okt", "oktober"),
    ("nov", "november", "novembre"), ("dec", "december", "décembre", "decembre", "dez", "dezember"),
), start=1) for name in names}
_MONTH = "|".join(sorted((re.escape(name) for name in MONTHS), key=len, reverse=True))
_DATE = re.compile(
    r"(?P<iso>\b(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})\b)"
    rf"|(?P<named1>\b(?P<nd1>\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(?P<nm1>{_MONTH})\b\.?(?:,?\s+(?P<ny1>\d{{4}})\b)?)"
    rf"|(?P<named2>\b(?P<nm2>{_MONTH})\b\.?\s+(?P<nd2>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<ny2>\d{{4}})\b)?)"
    r"|(?P<num>\b(?P<a>\d{1,2})[./](?P<b>\d{1,2})(?:[./](?P<ny>\d{4}|\d{2}))?\b)",
    re.IGNORECASE)
# "3 to 10 May": a bare day before a named date takes that date's month (and year)
_BARE_DAY = re.compile(
    r"(?<![\d./-])\b(?P<day>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to|until|till|through)\s*"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(?P<month>{_MONTH})\b\.?(?:,?\s+(?P<year>\d{{4}})\b)?",
    re.IGNORECASE)
CANCEL_WORDS = frozenset({"cancel", "cancelled", "canceled", "off", "none", "back", "withdraw", "delete"})
# what the answer to a line that could not be read shows
FORM = "absence FIRST-DAY to LAST-DAY (reason), for example: absence 2026-12-20 to 2026-12-28 (holiday)"
MAX_REASON = 200


@dataclass(frozen=True)
class AbsenceDates:
    """The days a player will be away, both included, in the player's own calendar."""

    first: date
    last: date
    reason: str = ""

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1


@dataclass(frozen=True)
class Cancel:
    """`absence cancel`: the player's registered absences that have not ended are withdrawn."""


@dataclass(frozen=True)
class _Found:
    day: int
    month: int
    year: int | None
    end: int  # where the date's text ends
    start: int = 0


def _dates(text: str) -> list[_Found]:
    found = []
    for match in _DATE.finditer(text):
        groups = match.groupdict()
        if groups["iso"]:
            day, month, year = int(groups["id"]), int(groups["im"]), int(groups["iy"])
        elif groups["named1"]:
            day, month = int(groups["nd1"]), MONTHS[groups["nm1"].lower()]
            year = int(groups["ny1"]) if groups["ny1"] else None
        elif groups["named2"]:
            day, month = int(groups["nd2"]), MONTHS[groups["nm2"].lower()]
            year = int(groups["ny2"]) if groups["ny2"] else None
        else:
            first, second = int(groups["a"]), int(groups["b"])
            day, month = (second, first) if second > 12 >= first else (first, second)  # "12/20": US order
            year = int(groups["ny"]) if groups["ny"] else None
            if year is not None and year < 100:
                year += 2000
        found.append(_Found(day, month, year, match.end(), match.start()))
    for match in _BARE_DAY.finditer(text):
        found.append(_Found(int(match["day"]), MONTHS[match["month"].lower()],
                            int(match["year"]) if match["year"] else None, match.start() + len(match["day"]),
                            match.start()))
    return sorted(found, key=lambda date_found: date_found.start)


def _on_or_after(found: _Found, earliest: date, what: str) -> date:
    """The date found; without a year, the first such date on or after `earliest`."""
    try:
        if found.year is not None:
            return date(found.year, found.month, found.day)
        for year in (earliest.year, earliest.year + 1, earliest.year + 2, earliest.year + 3, earliest.year + 4):
            try:
                candidate = date(year, found.month, found.day)
            except ValueError:
                continue  # 29 February in a year without one
            if candidate >= earliest:
                return candidate
        raise ValueError
    except ValueError:
        raise ValueError(f"the {what} day, {found.day}/{found.month}"
                         + (f"/{found.year}" if found.year else "") + ", is not a date of the calendar.") from None


def _reason(text: str, dates_end: int) -> str:
    """The reason: the words in brackets, else those after the last date."""
    bracketed = re.search(r"\(([^)]*)\)?", text)
    said = bracketed.group(1) if bracketed else text[dates_end:]
    said = re.sub(r"^[\s,.;:\-–—]+|^(?:because|for|reason:?)\s+", "", said.strip(), flags=re.IGNORECASE)
    return said.strip()[:MAX_REASON]


def read_absence(text: str, today: date) -> AbsenceDates | Cancel:
    """What an ABSENCE line asks (the words after the command), `today` in the player's calendar.
    One date is one day away; a second date is the last day away."""
    words = text.strip().lower().strip(".!:").split()
    if words and words[0].strip(".,!:") in CANCEL_WORDS:
        return Cancel()
    found = _dates(text)
    if not found:
        said = f"no date was found in {text.strip()[:80]!r}" if text.strip() else "no dates were given"
        raise ValueError(f"{said}. Write the first and the last day you will be away: {FORM}.")
    first = _on_or_after(found[0], today, "first")
    last = _on_or_after(found[1], first, "last") if len(found) > 1 else first
    reason = _reason(text, found[min(len(found), 2) - 1].end)
    if last < first:
        raise ValueError(f"the last day ({last:%d %B %Y}) is before the first ({first:%d %B %Y}); write the "
                         f"first day away, then the last: {FORM}.")
    if first < today:
        raise ValueError(f"the first day ({first:%d %B %Y}) has passed already; an absence is registered for "
                         f"days to come (today is {today:%d %B %Y}).")
    return AbsenceDates(first, last, reason)


def autoreply_dates(text: str, today: date) -> AbsenceDates | None:
    """The absence an out-of-office auto-reply names: two dates whose second is not before the
    first and ends today or later ("I am out of the office from 20 December until 28 December");
    None where it names none, or only one (a return date alone says nothing of when it began)."""
    found = _dates(text[:4000])
    if len(found) < 2:
        return None
    try:
        first = _on_or_after(found[0], today.replace(day=1) if found[0].year is None else today, "first")
        last = _on_or_after(found[1], first, "last")
    except ValueError:
        return None
    if last < first or last < today or (last - first).days > 366:
        return None
    return AbsenceDates(max(first, today), last)
