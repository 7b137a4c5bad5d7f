"""The dates and durations a GM gives, read the same way on the command line and by mail.

Deadlines are computed from a date by adding turns, which must stay far inside the calendar
(year 9999 is its end), and a turn of `1e308` hours would overflow every date computed from it:
both are refused with a sentence saying what would be accepted. Pure: no I/O."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

YEARS = range(1970, 3000)
MAX_HOURS = 24 * 366  # a year: longer is a mistake


def parse_moment(text: str) -> datetime:
    """An ISO 8601 date and time with its time zone, in the years of YEARS; ValueError in words."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO 8601 date and time, e.g. 2026-12-01T18:00+00:00") from None
    if moment.tzinfo is None:
        raise ValueError(f"{text!r} needs a time zone, e.g. {text}+00:00")
    if moment.year not in YEARS:
        raise ValueError(f"{text!r} is out of range: give a date in the years {YEARS.start} to {YEARS.stop - 1}")
    return moment


def parse_hours(text: str) -> timedelta:
    """A number of hours from 0 to MAX_HOURS; ValueError in words."""
    try:
        hours = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of hours") from None
    if math.isnan(hours):
        raise ValueError(f"{text!r} is not a number of hours")
    if hours < 0:
        raise ValueError("a duration cannot be negative")
    if hours > MAX_HOURS:
        raise ValueError(f"{text!r} hours is too long: at most {MAX_HOURS} (a year)")
    return timedelta(hours=hours)
