"""The deadline's iCalendar event (reports/extras.py): its SEQUENCE grows with time, so a later
mail updates the event of an earlier one (RFC 5546 2.1.5); the alarm comes at the lead given; a
paused game's event is withdrawn. Parsed back with the icalendar package."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
import pytest

from gmserver.reports.extras import calendar_sequence, deadline_calendar, paused_calendar

DEADLINE = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)


def event(data: bytes) -> icalendar.Event:
    [found] = icalendar.Calendar.from_ical(data).walk("VEVENT")
    return found


def calendar(now: datetime = NOW, alarm_before: timedelta | None = None) -> bytes:
    return deadline_calendar(game_name="lepanto", phase="F1902R", phase_name="Fall 1902 Retreats",
                             deadline=DEADLINE, now=now, domain="lepanto.example", subject_hint="x",
                             alarm_before=alarm_before)


def test_sequence_counts_seconds_since_2020_so_a_later_mail_wins() -> None:
    # 2020-01-01 to 2026-01-01 is 6 years with 2 leap days (2020, 2024): 2192 days
    assert calendar_sequence(datetime(2026, 1, 1, tzinfo=UTC)) == 2192 * 86400
    assert event(calendar(NOW + timedelta(seconds=1))).decoded("sequence") == \
        event(calendar(NOW)).decoded("sequence") + 1
    assert calendar_sequence(datetime(2088, 1, 1, tzinfo=UTC)) < 2 ** 31


@pytest.mark.parametrize(("given", "trigger"), [(timedelta(hours=24), timedelta(hours=-24)),
                                                (timedelta(minutes=90), timedelta(minutes=-90)),
                                                (None, timedelta(hours=-1)), (timedelta(0), timedelta(hours=-1))])
def test_the_alarm_comes_at_the_lead_given_or_an_hour_before(given, trigger) -> None:
    [alarm] = event(calendar(alarm_before=given)).walk("VALARM")
    assert alarm.decoded("trigger") == trigger


def test_the_alarm_says_the_lead_in_words() -> None:
    [alarm] = event(calendar(alarm_before=timedelta(hours=36))).walk("VALARM")
    assert str(alarm["description"]) == "lepanto: orders due in 1 day 12 hours"


def test_a_paused_games_event_is_the_same_uid_cancelled_without_alarm() -> None:
    withdrawn = event(paused_calendar(game_name="lepanto", phase="F1902R", phase_name="Fall 1902 Retreats",
                                      deadline=DEADLINE, now=NOW + timedelta(hours=1), domain="lepanto.example"))
    before = event(calendar())
    assert str(withdrawn["uid"]) == str(before["uid"]) == "lepanto-F1902R@lepanto.example"
    assert str(withdrawn["status"]) == "CANCELLED" and str(before["status"]) == "CONFIRMED"
    assert withdrawn.decoded("sequence") == before.decoded("sequence") + 3600
    assert withdrawn.walk("VALARM") == []
    assert "announced when the GM resumes the game" in str(withdrawn["description"])
    assert str(icalendar.Calendar.from_ical(calendar())["method"]) == "PUBLISH"
