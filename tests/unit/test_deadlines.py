from datetime import UTC, datetime, timedelta

import pytest

from gmserver.rules.deadlines import TurnLengths, next_deadline, reminder_due

UTC = UTC
LENGTHS = TurnLengths(movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(minutes=90))


@pytest.mark.parametrize(("phase", "opened", "zone", "expected"), [
    pytest.param("S1901M", datetime(2026, 11, 2, 18, 0, tzinfo=UTC), "UTC", datetime(2026, 11, 4, 18, 0, tzinfo=UTC),
                 id="movement: 48 hours"),
    pytest.param("F1901R", datetime(2026, 11, 2, 18, 0, tzinfo=UTC), "UTC", datetime(2026, 11, 3, 18, 0, tzinfo=UTC),
                 id="retreat: 24 hours"),
    pytest.param("W1901A", datetime(2026, 11, 2, 18, 0, tzinfo=UTC), "UTC", datetime(2026, 11, 2, 19, 30, tzinfo=UTC),
                 id="adjustment: 90 minutes, an exact duration"),
    # Europe/London leaves summer time on 25 October 2026: 18:00 local stays 18:00 local.
    pytest.param("S1901M", datetime(2026, 10, 24, 17, 0, tzinfo=UTC), "Europe/London",
                 datetime(2026, 10, 26, 18, 0, tzinfo=UTC), id="whole days keep local time across the DST end"),
    # America/New_York starts summer time on 8 March 2026.
    pytest.param("S1901M", datetime(2026, 3, 7, 23, 0, tzinfo=UTC), "America/New_York",
                 datetime(2026, 3, 9, 22, 0, tzinfo=UTC), id="whole days keep local time across the DST start"),
    pytest.param("COMPLETED", datetime(2026, 3, 7, 23, 0, tzinfo=UTC), "UTC", None, id="game over: no deadline"),
])
def test_next_deadline(phase: str, opened: datetime, zone: str, expected: datetime | None) -> None:
    assert next_deadline(phase, opened, LENGTHS, zone) == expected


def test_naive_time_is_refused() -> None:
    with pytest.raises(ValueError):
        next_deadline("S1901M", datetime(2026, 1, 1), LENGTHS)


@pytest.mark.parametrize(("now_offset_hours", "expected"), [(-25, False), (-24, True), (-1, True), (0, False), (1, False)])
def test_reminder_window(now_offset_hours: int, expected: bool) -> None:
    deadline = datetime(2026, 11, 4, 18, 0, tzinfo=UTC)
    now = deadline + timedelta(hours=now_offset_hours)
    assert reminder_due(deadline, timedelta(hours=24), now) is expected


def test_no_reminder_when_switched_off_or_no_deadline() -> None:
    now = datetime(2026, 11, 4, 17, 0, tzinfo=UTC)
    assert not reminder_due(now + timedelta(hours=1), timedelta(0), now)
    assert not reminder_due(None, timedelta(hours=24), now)
