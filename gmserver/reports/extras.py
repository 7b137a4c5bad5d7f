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
    """(phases, power -> centre count at each) from (phase, counts) points, powers alphabetical,
    a power missing from a point counting 0: what the chart and its table show."""
    phases = tuple(phase for phase, _ in points)
    powers = sorted({power for _, counts in points for power in counts})
    return phases, {power: tuple(counts.get(power, 0) for _, counts in points) for power in powers}
