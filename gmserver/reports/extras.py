"""What a turn report carries beside its text: the machine-readable header lines at its top and
the next deadline as an iCalendar event (issue 9). Pure: values in, text and bytes out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone

import icalendar


def machine_header(game_name: str, phase: str, next_phase: str | None, deadline: datetime | None) -> str:
    """The `::` lines a judge veteran's mail filters read (njudge prints `:: Judge:`, `:: Game:`,
    `:: Deadline:` at the top of its mail): the game, the phase reported, the next deadline in UTC."""
    lines = [f":: Game: {game_name}", f":: Phase: {phase}"]
    if next_phase and deadline is not None:
        at = deadline.astimezone(timezone.utc)
        lines.append(f":: Deadline: {next_phase} {at:%a %b %d %Y %H:%M} UTC")
    elif next_phase:
        lines.append(f":: Deadline: {next_phase} not yet set")
    else:
        lines.append(":: Deadline: none (the game is over)")
    return "\n".join(lines) + "\n"


def deadline_calendar(*, game_name: str, phase: str, phase_name: str, deadline: datetime, now: datetime,
                      domain: str, subject_hint: str) -> bytes:
    """The next deadline as one RFC 5545 event with a reminder an hour before. The UID names the
    game and phase, so a corrected report updates the same event in the player's calendar."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//gmserver//turn report//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = icalendar.Event()
    event.add("uid", f"{game_name}-{phase}@{domain}")
    event.add("dtstamp", now.astimezone(timezone.utc))
    start = deadline.astimezone(timezone.utc)
    event.add("dtstart", start)
    event.add("dtend", start + timedelta(minutes=15))
    event.add("summary", f"{game_name}: orders due for {phase_name} ({phase})")
    event.add("description", f"Deadline for {phase_name} in {game_name}. {subject_hint}")
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", f"{game_name}: orders due in an hour")
    alarm.add("trigger", timedelta(hours=-1))
    event.add_component(alarm)
    calendar.add_component(event)
    return calendar.to_ical()


def centre_history(points: Sequence[tuple[str, Mapping[str, int]]]) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    """(years, power -> centre count at each) from (phase, counts) points, oldest first: each point
    named by the game year whose Fall left those counts (`counts_year`), the points of one year
    merged into the latest (its counts are the same: centres change hands only after a Fall),
    powers alphabetical, a power missing from a point counting 0: what the chart and its table show."""
    first = _year(points[0][0]) if points else None
    merged: dict[str, Mapping[str, int]] = {}
    for phase, counts in points:
        merged.pop(label := counts_year(phase, first), None)  # re-inserted last: the order stays the game's
        merged[label] = counts
    powers = sorted({power for _, counts in points for power in counts})
    return tuple(merged), {power: tuple(counts.get(power, 0) for counts in merged.values()) for power in powers}


def _year(phase: str) -> int | None:
    return int(phase[1:5]) if len(phase) == 6 and phase[0] in "SFW" and phase[1:5].isdigit() else None


def counts_year(phase: str, first_year: int | None) -> str:
    """The game year whose Fall (with its retreats) produced the centre counts at the start of
    `phase` (the engine moves centres then, ENGINE.md): Spring and Fall 1903 show 1902's, Winter
    1902 already shows 1902's; "start" before the first Fall of a game whose first phase is in
    `first_year`; "end" for a finished game's last point (its phase is no game phase)."""
    year = _year(phase)
    if year is None:
        return "end"
    produced = year if phase[0] == "W" else year - 1
    return "start" if first_year is not None and produced < first_year else str(produced)
