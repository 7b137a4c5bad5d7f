"""ABSENCE lines as players write them (gmserver/rules/absence_dates.py), by tables."""

from __future__ import annotations

from datetime import date

import pytest

from gmserver.rules.absence_dates import AbsenceDates, Cancel, autoreply_dates, read_absence

TODAY = date(2026, 11, 27)


@pytest.mark.parametrize(("line", "first", "last", "reason"), [
    ("2026-12-20 to 2026-12-28 (skiing)", date(2026, 12, 20), date(2026, 12, 28), "skiing"),
    ("2026-12-20 TO 2026-12-28", date(2026, 12, 20), date(2026, 12, 28), ""),
    ("I'm away from 20 December until 28 December, family", date(2026, 12, 20), date(2026, 12, 28), "family"),
    ("20/12 - 28/12", date(2026, 12, 20), date(2026, 12, 28), ""),
    ("Dec 20 to Dec 28", date(2026, 12, 20), date(2026, 12, 28), ""),
    ("dec 20th till jan 2nd", date(2026, 12, 20), date(2027, 1, 2), ""),
    ("20 december to 28 december", date(2026, 12, 20), date(2026, 12, 28), ""),
    ("20.12.2026 - 28.12.2026", date(2026, 12, 20), date(2026, 12, 28), ""),
    ("from the 20th of December to the 28th of December", date(2026, 12, 20), date(2026, 12, 28), ""),
    ("28/12 to 3/1 (new year)", date(2026, 12, 28), date(2027, 1, 3), "new year"),
    ("12/20 to 12/28", date(2026, 12, 20), date(2026, 12, 28), ""),  # month first, as the US writes it
    ("3 march", date(2027, 3, 3), date(2027, 3, 3), ""),  # a year omitted: the next 3 March; one day
    ("27/11", TODAY, TODAY, ""),  # today is not past
    ("Away from 3 to 10 May.", date(2027, 5, 3), date(2027, 5, 10), ""),  # a bare day takes the month after it
], ids=["iso", "upper-case", "extra-words", "slashes", "month-first", "ordinals-new-year", "lower-case-month",
        "dotted", "of-the", "across-new-year", "us-order", "year-omitted", "today",
        "bare-day"])
def test_an_absence_line_is_read_as_players_write_it(line, first, last, reason) -> None:
    assert read_absence(line, TODAY) == AbsenceDates(first, last, reason)


@pytest.mark.parametrize("line", ["cancel", "Cancel.", "CANCEL please", "off"])
def test_absence_cancel_in_any_case(line) -> None:
    assert read_absence(line, TODAY) == Cancel()


@pytest.mark.parametrize(("line", "said"), [
    ("2026-12-28 to 2026-12-20", "the last day (20 December 2026) is before the first (28 December 2026)"),
    ("2026-11-20 to 2026-11-30", "the first day (20 November 2026) has passed already"),
    ("next week sometime", "no date was found in 'next week sometime'. Write the first and the last day you will "
                           "be away: absence FIRST-DAY to LAST-DAY (reason), for example: absence 2026-12-20 to "
                           "2026-12-28 (holiday)."),
    ("", "no dates were given"),
    ("31/02 to 3/3", "the first day, 31/2, is not a date of the calendar"),
], ids=["end-before-start", "in-the-past", "unreadable", "empty", "no-such-day"])
def test_a_line_that_cannot_be_registered_says_why_and_what_is_read(line, said) -> None:
    with pytest.raises(ValueError) as raised:
        read_absence(line, TODAY)
    assert said in str(raised.value)


@pytest.mark.parametrize(("text", "expected"), [
    ("I am out of the office from 20 December until 28 December with limited access to email.",
     AbsenceDates(date(2026, 12, 20), date(2026, 12, 28))),
    ("Je suis absent du 20/12/2026 au 04/01/2027.", AbsenceDates(date(2026, 12, 20), date(2027, 1, 4))),
    ("Out of office until further notice.", None),
    ("I will be back on 3 December.", None),  # a return date alone: when it began is unknown
    ("Away 20 November to 25 November.", None),  # over already
], ids=["english", "french-numeric", "no-dates", "return-date-only", "over"])
def test_the_dates_an_out_of_office_auto_reply_names(text, expected) -> None:
    assert autoreply_dates(text, TODAY) == expected
