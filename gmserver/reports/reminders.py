"""The deadline reminder: to a power with no orders on file (or, under a reminder to every power,
to each), with the deadline, the time left, the subject to use and what the power has to order."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from gmserver.reports.words import (
    When,
    format_duration,
    format_time,
    place_with_code,
    plural,
    power_name,
    unit_with_code,
)
from gmserver.rules.geography import MapInfo
from gmserver.rules.position import Position, describe_phase, phase_type, unit_province


@dataclass(frozen=True)
class Reminder:
    template: ClassVar[str] = "player/reminder.txt.j2"

    game_name: str
    power: str
    power_name: str
    phase: str
    phase_name: str
    deadline: When
    time_left: str  # "23 hours 59 minutes"
    expected_subject: str
    order_address: str | None
    needed: tuple[str, ...]  # what the power must order: "A Paris (PAR)", or "1 build"
    if_no_orders: str  # "your units hold"
    has_orders: bool = False  # a reminder to every power (audience all_powers): this one has orders on file
    page_link: str | None = None  # the player's own web page ([web] base_url): their orders on file drawn


_IF_NO_ORDERS = {
    "M": "your units hold",
    "R": "your dislodged units are disbanded",
    "A": "builds are waived and removals are chosen by the rules",
}


def _needed(power: str, position: Position, geography: MapInfo) -> tuple[str, ...]:
    kind = position.phase_type
    if kind == "M":
        units = position.units.get(power, ())
    elif kind == "R":
        units = position.dislodged.get(power, ())
    elif kind == "A":
        change = position.adjustments.get(power, 0)
        if change > 0:
            return (plural(change, "build"),)
        return (plural(-change, "removal"),) if change else ()
    else:
        units = ()
    lines = []
    for unit in sorted(units, key=unit_province):
        line = unit_with_code(unit, geography)
        if kind == "R":
            options = position.retreats.get(unit, ())
            line += ": may retreat to " + ", ".join(place_with_code(o, geography) for o in sorted(options)) \
                if options else ": no retreat possible"
        lines.append(line)
    return tuple(lines)


def build_reminder(
    *,
    game_name: str,
    power: str,
    phase: str,
    deadline: datetime,
    now: datetime,
    expected_subject: str,
    order_address: str | None = None,
    position: Position | None = None,
    geography: MapInfo | None = None,
    if_no_orders: str | None = None,
    timezone: str = "UTC",
    has_orders: bool = False,
    page_link: str | None = None,
    reader_zone: str | None = None,
) -> Reminder:
    """A deadline reminder (to a power with no orders on file unless `has_orders`). With `position` and `geography`
    it lists what the power has to order; `if_no_orders` overrides the standard default."""
    needed = _needed(power, position, geography) if position is not None and geography is not None else ()
    return Reminder(
        game_name=game_name,
        power=power,
        power_name=power_name(power),
        phase=phase,
        phase_name=describe_phase(phase),
        deadline=format_time(deadline, timezone, reader_zone),
        time_left=format_duration(deadline - now),
        expected_subject=expected_subject,
        order_address=order_address,
        needed=needed,
        if_no_orders=if_no_orders or _IF_NO_ORDERS.get(phase_type(phase), "your units hold"),
        has_orders=has_orders,
        page_link=page_link,
    )
