"""What `gmserver game show` prints about a player's unused lines and the schedule (QA walkthrough)."""

from __future__ import annotations

from gmserver.cli.game import _clarify_status, _print_schedule


def _player(invalid: int, sets: int, recent_invalid: int, recent: int) -> dict:
    return {"invalid_sets": {"invalid": invalid, "sets": sets, "recent_invalid": recent_invalid, "recent": recent},
            "clarifications": True}


def test_000_III_1_no_sets_with_unused_lines_says_nothing() -> None:
    assert _clarify_status(_player(0, 2, 0, 2)) == ""
    assert _clarify_status(_player(1, 2, 0, 1)) == ", lines not used in 1 of 2 sets (0 of the last 1)"


def _schedule(deadline: str, deadline_time: str) -> dict:
    day = 24 * 3600
    return {"turn_lengths_seconds": {"movement": 2 * day, "retreat": day, "adjustment": day}, "reminder_seconds": 0,
            "deadline_time": deadline_time, "timezone": "UTC", "deadline": deadline, "paused": False,
            "gm_copies": False}


def test_a_deadline_moved_off_the_time_of_day_is_said_beside_it(capsys) -> None:
    """The GM moved this turn's deadline to 20:00; the turns after it keep 19:34."""
    _print_schedule(_schedule("2026-11-28T20:00:00+00:00", "19:34:00"))
    assert ", deadlines at 19:34 UTC (this turn's moved to 20:00); reminders none" in capsys.readouterr().out
    _print_schedule(_schedule("2026-11-28T19:34:00+00:00", "19:34:00"))
    assert ", deadlines at 19:34 UTC; reminders none" in capsys.readouterr().out
