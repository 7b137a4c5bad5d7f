"""What a turn report carries beside its text: the machine-readable header lines at its top and
the next deadline as an iCalendar event. Pure: values in, text and bytes out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone

import icalendar

from gmserver.reports.words import format_length


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


# SEQUENCE (RFC 5545 3.8.7.4) counts the seconds since this moment: every mail that carries the
# event (a report, a corrected report, a GM's change of the deadline, a pause, a resume) gives a
# higher one than the mails before it without any counter kept anywhere, and it stays below 2**31
# (what some clients store it in) until 2088
SEQUENCE_EPOCH = datetime(2020, 1, 1, tzinfo=timezone.utc)
DEFAULT_ALARM = timedelta(hours=1)


def calendar_sequence(now: datetime) -> int:
    """The event's SEQUENCE for a mail written at `now`: later mail, higher number, so a calendar
    client takes the newer time for the same UID (RFC 5546 2.1.5)."""
    return max(0, int((now - SEQUENCE_EPOCH).total_seconds()))


def event_uid(game_name: str, phase: str, domain: str) -> str:
    """One event per game and phase: a report, its correction and the GM's changes of that
    phase's deadline all name the same event."""
    return f"{game_name}-{phase}@{domain}"


def _calendar(event: icalendar.Event) -> bytes:
    # PUBLISH, never REQUEST or CANCEL: the event is published to the player, not a meeting they
    # are invited to (no ORGANIZER, no ATTENDEE), and an update is the same UID, higher SEQUENCE
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//gmserver//turn report//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add_component(event)
    return calendar.to_ical()


def _event(game_name: str, phase: str, deadline: datetime, now: datetime, domain: str) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", event_uid(game_name, phase, domain))
    event.add("dtstamp", now.astimezone(timezone.utc))
    event.add("sequence", calendar_sequence(now))
    start = deadline.astimezone(timezone.utc)
    event.add("dtstart", start)
    event.add("dtend", start + timedelta(minutes=15))
    return event


def deadline_calendar(*, game_name: str, phase: str, phase_name: str, deadline: datetime, now: datetime,
                      domain: str, subject_hint: str, alarm_before: timedelta | None = None) -> bytes:
    """The next deadline as one RFC 5545 event with a reminder `alarm_before` it: the game's
    reminder lead (`--reminder-hours`), an hour when the game has none (None or zero). The UID
    names the game and phase, so a corrected report or a GM's change of the deadline updates the
    same event in the player's calendar."""
    lead = alarm_before if alarm_before is not None and alarm_before > timedelta(0) else DEFAULT_ALARM
    event = _event(game_name, phase, deadline, now, domain)
    event.add("status", "CONFIRMED")
    event.add("summary", f"{game_name}: orders due for {phase_name} ({phase})")
    event.add("description", f"Deadline for {phase_name} in {game_name}. {subject_hint}")
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", f"{game_name}: orders due in {format_length(lead.total_seconds())}")
    alarm.add("trigger", -lead)
    event.add_component(alarm)
    return _calendar(event)


def paused_calendar(*, game_name: str, phase: str, phase_name: str, deadline: datetime, now: datetime,
                    domain: str) -> bytes:
    """The event of a paused game's deadline, withdrawn: the same UID, a higher SEQUENCE,
    STATUS:CANCELLED (RFC 5545 3.8.1.11), PAUSED first in its title for a client that does not
    show the status, and no alarm, so no client reminds the player of a deadline that will not
    be kept. The resume mail's event (same UID, higher SEQUENCE again) brings the deadline back."""
    event = _event(game_name, phase, deadline, now, domain)
    event.add("status", "CANCELLED")
    event.add("summary", f"PAUSED {game_name}: no deadline for {phase_name} ({phase}) until the game is resumed")
    event.add("description", f"The GM has paused {game_name}: {phase_name} is not adjudicated at this time. "
                             "The deadline will be announced when the GM resumes the game.")
    return _calendar(event)


def withdrawn_by_correction_calendar(*, game_name: str, phase: str, phase_name: str, deadline: datetime,
                                    corrected_phase_name: str, now: datetime, domain: str) -> bytes:
    """The event a report put in the calendars for the turn it opened (`phase`, due at
    `deadline`), withdrawn when the GM rolls that report back (000 VIII(1)): the same UID, a
    higher SEQUENCE, STATUS:CANCELLED and no alarm, as a pause withdraws it. The corrected
    report's event (same UID, higher SEQUENCE again) brings the turn's deadline back."""
    event = _event(game_name, phase, deadline, now, domain)
    event.add("status", "CANCELLED")
    event.add("summary", f"CORRECTION {game_name}: {phase_name} ({phase}) waits for the corrected results of "
                         f"{corrected_phase_name}")
    event.add("description", f"The GM is correcting the results of {corrected_phase_name} in {game_name}. The "
                             f"deadline of {phase_name} comes with the corrected results.")
    return _calendar(event)


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
