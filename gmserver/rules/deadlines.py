"""Deadline arithmetic: pure, time passed in, tested by tables (DST included)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from gmserver.rules.position import phase_type

DAY = timedelta(days=1)


@dataclass(frozen=True)
class TurnLengths:
    movement: timedelta
    retreat: timedelta
    adjustment: timedelta

    def for_phase(self, phase: str) -> timedelta | None:
        return {"M": self.movement, "R": self.retreat, "A": self.adjustment}.get(phase_type(phase))


@dataclass(frozen=True)
class GameTiming:
    """When a game's deadline and reminder jobs must run (the scheduler keeps one of each).
    `deadline` is when adjudication runs (the deadline plus any grace period; None when only the
    GM starts it); `reminder_at` the next reminder's time."""
    game_id: int
    phase: str
    deadline: datetime | None
    reminder_at: datetime | None


def next_deadline(phase: str, opened_at: datetime, lengths: TurnLengths, zone: str = "UTC") -> datetime | None:
    """The deadline of `phase`, opened at `opened_at` (aware). None when the game is over.

    Whole-day lengths keep the local wall-clock time across a DST change, as a GM who sets
    "48 hours, 18:00 each evening" expects; other lengths are exact durations.
    """
    length = lengths.for_phase(phase)
    if length is None:
        return None
    if opened_at.tzinfo is None:
        raise ValueError("opened_at must be timezone-aware")
    if length % DAY:
        return (opened_at + length).astimezone(UTC)
    local = opened_at.astimezone(ZoneInfo(zone))
    wall = local.replace(tzinfo=None) + length
    return wall.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)


def reminder_due(deadline: datetime | None, before: timedelta, now: datetime) -> bool:
    """True in the window [deadline - before, deadline)."""
    return deadline is not None and before > timedelta(0) and deadline - before <= now < deadline
