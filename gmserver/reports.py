"""What players receive by mail, as plain values: the context of the templates in `templates/player`.

Pure: no I/O, no clock. Each `build_*` function turns engine outcomes, order readings and times
into a frozen dataclass whose fields are exactly what its template prints; `Composer.render`
(gmserver.mail.compose) turns one into a mail body. Orders keep the engine's notation beside
the province names ("A Paris -> Burgundy (A PAR - BUR)") so a player can copy either.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import ClassVar, Protocol, Sequence
from zoneinfo import ZoneInfo

from gmserver.rules.geography import MapInfo
from gmserver.rules.position import (
    OrderOutcome,
    PhaseOutcome,
    Position,
    describe_phase,
    phase_type,
    unit_province,
)

# ---------------------------------------------------------------------------------------------
# Words


# Engine result codes (ENGINE.md) in the words a report prints.
RESULT_WORDS = {
    "bounce": "bounced",
    "cut": "cut",
    "dislodged": "dislodged",
    "void": "void",
    "no convoy": "no convoy",
    "disrupted": "convoy disrupted",
    "disband": "disbanded",
}

DEFAULT_NOTES = {
    "M": "(no order received: holds)",
    "R": "(no retreat order: disbanded)",
    "A": "(no removal order: removed by the rules)",
}


def power_name(power: str) -> str:
    """`FRANCE` -> `France`."""
    return power.title()


def place(location: str, geography: MapInfo) -> str:
    """`PAR` -> `Paris`; `SPA/SC` -> `Spain (south coast)`; unknown codes stay as they are."""
    try:
        return geography.display_name(location)
    except KeyError:
        return location


def place_with_code(location: str, geography: MapInfo) -> str:
    """`GAS` -> `Gascony (GAS)`; `SPA/SC` -> `Spain (south coast, SPA/SC)`."""
    name = place(location, geography)
    if name == location:
        return location
    if name.endswith(")"):
        return f"{name[:-1]}, {location})"
    return f"{name} ({location})"


def unit_with_code(unit: str, geography: MapInfo) -> str:
    """`F STP/SC` -> `F St Petersburg (south coast, STP/SC)`."""
    kind, _, location = unit.partition(" ")
    return f"{kind} {place_with_code(location, geography)}" if location else unit


def describe_unit(unit: str, geography: MapInfo) -> str:
    """`F STP/SC` -> `F St Petersburg (south coast)`."""
    kind, _, location = unit.partition(" ")
    return f"{kind} {place(location, geography)}" if location else unit


def describe_order(order: str, geography: MapInfo) -> str:
    """An engine order in words: `A PAR - BUR VIA` -> `A Paris -> Burgundy by convoy`.

    Never raises: an order in a form it does not know is returned unchanged.
    """
    words = order.split()
    if words == ["WAIVE"]:
        return "Waive a build"
    if len(words) < 3:
        return order
    unit = describe_unit(f"{words[0]} {words[1]}", geography)
    verb, rest = words[2], words[3:]
    if verb == "H" and not rest:
        return f"{unit} holds"
    if verb == "-" and rest:
        via = " by convoy" if rest[1:] == ["VIA"] else ""
        return f"{unit} -> {place(rest[0], geography)}{via}"
    if verb == "S" and len(rest) >= 2:
        supported = describe_unit(f"{rest[0]} {rest[1]}", geography)
        if len(rest) == 4 and rest[2] == "-":
            return f"{unit} supports {supported} -> {place(rest[3], geography)}"
        if len(rest) == 2 or rest[2:] == ["H"]:
            return f"{unit} supports {supported}"
    if verb == "C" and len(rest) == 4 and rest[2] == "-":
        convoyed = describe_unit(f"{rest[0]} {rest[1]}", geography)
        return f"{unit} convoys {convoyed} -> {place(rest[3], geography)}"
    if verb == "R" and len(rest) == 1:
        return f"{unit} retreats to {place(rest[0], geography)}"
    if verb == "D" and not rest:
        return f"{unit} disbands"
    if verb == "B" and not rest:
        return f"Build {unit}"
    return order


@dataclass(frozen=True)
class NamedOrder:
    """An order with names beside its engine text: `A Paris -> Burgundy (A PAR - BUR)`."""

    order: str  # "A PAR - BUR"
    text: str  # "A Paris -> Burgundy"; equal to `order` when it cannot be described

    @property
    def parts(self) -> tuple[str, ...]:
        """The line in pieces a template may break between."""
        return (self.order,) if self.text == self.order else (self.text, f"({self.order})")

    @property
    def line(self) -> str:
        return " ".join(self.parts)

    def __str__(self) -> str:
        return self.line


def name_order(order: str, geography: MapInfo) -> NamedOrder:
    return NamedOrder(order=order, text=describe_order(order, geography))


def result_in_words(outcome: OrderOutcome, kind: str) -> str:
    """The engine's result codes as words; a success says what happened to the unit."""
    if outcome.results:
        return ", ".join(RESULT_WORDS.get(r, r) for r in outcome.results)
    words = outcome.order.split()
    if kind == "R" and words[-1:] == ["D"]:
        return "disbanded"
    if kind == "A":
        if words == ["WAIVE"]:
            return "waived"
        if words[-1:] == ["B"]:
            return "built"
        if words[-1:] == ["D"]:
            return "removed"
    return "succeeded"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# ---------------------------------------------------------------------------------------------
# Times


@dataclass(frozen=True)
class When:
    """A moment as players read it: in the game's time zone, with the zone, and in UTC."""

    at: datetime  # timezone-aware, UTC
    local: str  # "Sunday 29 November 2026, 05:00 AEDT (Australia/Sydney)"
    utc: str  # "Saturday 28 November 2026, 18:00 UTC"

    @property
    def same(self) -> bool:
        """True when the game keeps UTC and one line says it all."""
        return self.local == self.utc

    def __str__(self) -> str:
        return self.local if self.same else f"{self.local} = {self.utc}"


def _day_and_time(moment: datetime) -> str:
    return f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M}"


def format_time(moment: datetime, timezone: str = "UTC") -> When:
    """Render an aware datetime in `timezone` (an IANA name) and in UTC.

    Raises ValueError for a naive datetime: deadlines are always stored aware.
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a deadline must be timezone-aware, not {moment!r}")
    at = moment.astimezone(ZoneInfo("UTC"))
    utc = f"{_day_and_time(at)} UTC"
    zone = ZoneInfo(timezone)
    local_moment = at.astimezone(zone)
    abbreviation = local_moment.tzname() or timezone
    if local_moment.utcoffset() == timedelta(0) and abbreviation in ("UTC", timezone):
        return When(at=at, local=utc, utc=utc)
    label = abbreviation if abbreviation == timezone else f"{abbreviation} ({timezone})"
    return When(at=at, local=f"{_day_and_time(local_moment)} {label}", utc=utc)


def format_duration(delta: timedelta) -> str:
    """`2 days 5 hours`, `5 hours 30 minutes`, `45 minutes`; rounded down to the minute."""
    minutes = int(delta.total_seconds() // 60)
    if minutes <= 0:
        return "less than a minute" if delta.total_seconds() > 0 else "none: the deadline has passed"
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        parts = [_plural(days, "day")] + ([_plural(hours, "hour")] if hours else [])
    elif hours:
        parts = [_plural(hours, "hour")] + ([_plural(minutes, "minute")] if minutes else [])
    else:
        parts = [_plural(minutes, "minute")]
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# Turn report


@dataclass(frozen=True)
class OrderLine:
    power: str
    unit: str  # "A PAR"; "" for WAIVE
    order: str  # the engine's text, "A PAR - BUR"
    text: str  # "A Paris -> Burgundy"
    result: str  # "bounced", "succeeded", "cut, dislodged", ...
    defaulted: bool = False
    note: str = ""  # "(no order received: holds)" for defaulted orders

    @property
    def parts(self) -> tuple[str, ...]:
        """The line in pieces a template may break between."""
        if self.text == self.order:
            parts = (f"{self.order}: {self.result}",)
        else:
            parts = (self.text, f"({self.order}): {self.result}")
        return parts + ((self.note,) if self.note else ())

    @property
    def line(self) -> str:
        return " ".join(self.parts)

    def __str__(self) -> str:
        return self.line


@dataclass(frozen=True)
class PowerOrders:
    power: str
    name: str  # "France"
    orders: tuple[OrderLine, ...]


@dataclass(frozen=True)
class DislodgedUnit:
    power: str
    name: str
    unit: str  # "A BUR"
    text: str  # "A Burgundy (BUR)"
    options: tuple[str, ...]  # "Gascony (GAS)", ...; empty: must disband
    disbanded: bool  # no retreat was possible and the engine removed it at once


@dataclass(frozen=True)
class CentreCount:
    power: str
    name: str
    count: int
    centres: tuple[str, ...]  # province names, alphabetical
    gained: tuple[str, ...]  # "Belgium (BEL)"
    lost: tuple[str, ...]
    units: int


@dataclass(frozen=True)
class Adjustment:
    power: str
    name: str
    centres: int
    units: int
    change: int  # builds due; negative: removals due
    text: str  # "1 build", "2 removals"
    build_sites: tuple[str, ...]  # free owned home centres, "Paris (PAR)"


@dataclass(frozen=True)
class PowerUnits:
    power: str
    name: str
    units: tuple[str, ...]  # "A Paris (PAR)"


@dataclass(frozen=True)
class TurnReport:
    template: ClassVar[str] = "player/report.txt.j2"

    game_name: str
    phase: str  # the phase adjudicated, "S1901M"
    phase_name: str  # "Spring 1901 Movement"
    orders: tuple[PowerOrders, ...]  # powers alphabetical, orders by unit province
    dislodged: tuple[DislodgedUnit, ...]
    centres: tuple[CentreCount, ...]
    unowned_centres: tuple[str, ...]  # province names
    centres_changed: bool
    adjustments: tuple[Adjustment, ...]  # due in the next phase, when it is an adjustment phase
    unused_builds: tuple[str, ...]  # "England: 1 build not used"
    engine_removals: tuple[str, ...]  # "Germany: F Holland (HOL)"
    units: tuple[PowerUnits, ...]
    next_phase: str | None  # "F1901M"; None when the game is over
    next_phase_name: str | None
    next_deadline: When | None
    to_order: tuple[str, ...]  # power names that have something to order next
    game_over: bool
    winners: tuple[str, ...]  # power names


def _order_unit(order: str) -> str:
    """`A MAR S A PAR - BUR` -> `A MAR`; `WAIVE` -> ``."""
    words = order.split()
    return f"{words[0]} {words[1]}" if len(words) >= 2 else ""


def _canonical_key(order: str) -> tuple[str, str]:
    """Sort key for MATRIX 2.4 `canonical`: by the unit's province; WAIVE last."""
    unit = _order_unit(order)
    return (unit_province(unit) if unit else "~", order)


def _order_sort_key(line: OrderLine) -> tuple[str, str]:
    return _canonical_key(line.order)


def _order_line(outcome: OrderOutcome, kind: str, geography: MapInfo) -> OrderLine:
    return OrderLine(
        power=outcome.power,
        unit=_order_unit(outcome.order),
        order=outcome.order,
        text=describe_order(outcome.order, geography),
        result=result_in_words(outcome, kind),
        defaulted=outcome.defaulted,
        note=f"({outcome.note})" if outcome.note else (DEFAULT_NOTES.get(kind, "") if outcome.defaulted else ""),
    )


def _units_on_board(position: Position) -> set[str]:
    return {unit for units in position.units.values() for unit in units}


def _removed(outcome: PhaseOutcome) -> set[str]:
    """Units that left the board in an adjustment phase.

    Removals nobody ordered are reported only for units really gone: a void build in an occupied
    centre leaves a `void` result under the occupying unit's name, which is easy to take for an
    engine removal; a report must never say a unit vanished that is still on the board.
    """
    before = _units_on_board(outcome.before)
    return before - _units_on_board(outcome.after)


def _order_lines(outcome: PhaseOutcome, geography: MapInfo) -> tuple[PowerOrders, ...]:
    kind = outcome.before.phase_type
    removed = _removed(outcome) if kind == "A" else set()
    by_power: dict[str, list[OrderLine]] = {}
    for order in outcome.orders:
        line = _order_line(order, kind, geography)
        if kind == "A" and order.defaulted and line.unit not in removed:
            continue
        by_power.setdefault(order.power, []).append(line)
    return tuple(
        PowerOrders(power, power_name(power), tuple(sorted(lines, key=_order_sort_key)))
        for power, lines in sorted(by_power.items())
    )


def _dislodged(outcome: PhaseOutcome, geography: MapInfo) -> tuple[DislodgedUnit, ...]:
    if outcome.before.phase_type != "M":
        return ()
    after = outcome.after
    waiting = {
        unit: power for power, units in after.dislodged.items() for unit in units
    } if after.phase_type == "R" else {}
    # A dislodged unit with nowhere to go never reaches the retreat phase: the engine removes it.
    hit = {_order_unit(o.order): o.power for o in outcome.orders if "dislodged" in o.results}
    result = []
    for unit, power in sorted({**hit, **waiting}.items(), key=lambda item: (item[1], unit_province(item[0]))):
        options = after.retreats.get(unit, ()) if unit in waiting else ()
        result.append(DislodgedUnit(
            power=power,
            name=power_name(power),
            unit=unit,
            text=unit_with_code(unit, geography),
            options=tuple(place_with_code(o, geography) for o in sorted(options)),
            disbanded=unit not in waiting,
        ))
    return tuple(result)


def _centres(outcome: PhaseOutcome, geography: MapInfo) -> tuple[tuple[CentreCount, ...], tuple[str, ...]]:
    before, after = outcome.before, outcome.after
    changes = outcome.centre_changes()
    powers = sorted(set(before.centers) | set(after.centers) | {p for p, u in after.units.items() if u})
    counts = []
    for power in powers:
        owned = after.centers.get(power, ())
        gained, lost = changes.get(power, ((), ()))
        counts.append(CentreCount(
            power=power,
            name=power_name(power),
            count=len(owned),
            centres=tuple(sorted(place(c, geography) for c in owned)),
            gained=tuple(place_with_code(c, geography) for c in gained),
            lost=tuple(place_with_code(c, geography) for c in lost),
            units=len(after.units.get(power, ())),
        ))
    owned_anywhere = {c for centres in after.centers.values() for c in centres}
    unowned = tuple(sorted(place(c, geography) for c in geography.supply_centres() if c not in owned_anywhere))
    return tuple(counts), unowned


def _adjustments(after: Position, geography: MapInfo) -> tuple[Adjustment, ...]:
    if after.phase_type != "A":
        return ()
    occupied = {unit_province(u) for u in _units_on_board(after)}
    result = []
    for power, change in sorted(after.adjustments.items()):
        if not change:
            continue
        owned = set(after.centers.get(power, ()))
        sites = ()
        if change > 0:
            sites = tuple(
                place_with_code(c, geography) for c in geography.home_centres(power)
                if c in owned and c not in occupied
            )
        result.append(Adjustment(
            power=power,
            name=power_name(power),
            centres=len(owned),
            units=len(after.units.get(power, ())),
            change=change,
            text=_plural(change, "build") if change > 0 else _plural(-change, "removal"),
            build_sites=sites,
        ))
    return tuple(result)


def _unused_builds(outcome: PhaseOutcome) -> tuple[str, ...]:
    if outcome.before.phase_type != "A":
        return ()
    lines = []
    for power, due in sorted(outcome.before.adjustments.items()):
        if due <= 0:
            continue
        built = sum(1 for o in outcome.orders_of(power) if o.order.endswith(" B") and o.succeeded)
        if built < due:
            lines.append(f"{power_name(power)}: {_plural(due - built, 'build')} not used")
    return tuple(lines)


def _engine_removals(outcome: PhaseOutcome, geography: MapInfo) -> tuple[str, ...]:
    removed = _removed(outcome)
    owners = {unit: power for power, units in outcome.before.units.items() for unit in units}
    return tuple(
        f"{power_name(owners.get(unit, '?'))}: {unit_with_code(unit, geography)}"
        for unit in sorted(outcome.engine_removals, key=lambda u: (owners.get(u, ""), unit_province(u)))
        if unit in removed
    )


def build_turn_report(
    outcome: PhaseOutcome,
    *,
    geography: MapInfo,
    game_name: str,
    next_deadline: datetime | None,
    timezone: str = "UTC",
) -> TurnReport:
    """Everything the players are told after one adjudication (MATRIX 2.4: canonical order)."""
    after = outcome.after
    game_over = after.phase_type == "-"
    centres, unowned = _centres(outcome, geography)
    return TurnReport(
        game_name=game_name,
        phase=outcome.phase,
        phase_name=describe_phase(outcome.phase),
        orders=_order_lines(outcome, geography),
        dislodged=_dislodged(outcome, geography),
        centres=centres,
        unowned_centres=unowned,
        centres_changed=bool(outcome.centre_changes()),
        adjustments=_adjustments(after, geography),
        unused_builds=_unused_builds(outcome),
        engine_removals=_engine_removals(outcome, geography),
        units=tuple(
            PowerUnits(power, power_name(power), tuple(
                unit_with_code(u, geography) for u in sorted(units, key=unit_province)
            ))
            for power, units in sorted(after.units.items()) if units
        ),
        next_phase=None if game_over else after.phase,
        next_phase_name=None if game_over else describe_phase(after.phase),
        next_deadline=format_time(next_deadline, timezone) if next_deadline and not game_over else None,
        to_order=tuple(power_name(p) for p in after.powers_to_order()),
        game_over=game_over,
        winners=tuple(power_name(p) for p in outcome.winners),
    )


# ---------------------------------------------------------------------------------------------
# Confirmation


class LineReadingLike(Protocol):
    """What `gmserver.rules.reading.LineReading` gives: one line of a message as read."""

    line: int
    text: str
    status: str  # accepted, corrected, rejected, ignored
    order: object | None  # str() is the canonical engine order
    rule: str | None  # the clause applied, "000 IV(1)"
    message: str | None


@dataclass(frozen=True)
class ReadLine:
    number: str  # "3"
    text: str  # the line as written
    status: str
    order: NamedOrder | None
    explanation: str | None  # "unit type omitted [000 IV(1)]"


@dataclass(frozen=True)
class Confirmation:
    template: ClassVar[str] = "player/confirmation.txt.j2"

    game_name: str
    power: str
    power_name: str
    phase: str
    phase_name: str
    deadline: When | None
    version: str  # "2", or the player's own marker such as "2.1"
    lines: tuple[ReadLine, ...]
    summary: str  # "3 accepted, 1 corrected, 1 rejected, 2 ignored"
    problems: bool  # any line rejected
    orders: tuple[NamedOrder, ...]  # the set now on file, by unit province
    unordered: tuple[str, ...]  # "F Brest (BRE)": units the set does not order yet
    if_unordered: str  # "units without an order hold"
    notes: tuple[str, ...]  # remarks on the whole set (Reading.notes): merged, preliminary, ...


STATUSES = ("accepted", "corrected", "rejected", "ignored")

_IF_NO_ORDER = {
    "M": "units without an order hold",
    "R": "dislodged units without an order are disbanded",
    "A": "builds not ordered are waived and removals not ordered are chosen by the rules",
}


def _explanation(message: str | None, rule: str | None) -> str | None:
    if message and rule:
        return f"{message} [{rule}]"
    return message or (f"[{rule}]" if rule else None)


def build_confirmation(
    *,
    game_name: str,
    power: str,
    phase: str,
    deadline: datetime | None,
    readings: Sequence[LineReadingLike],
    orders_on_file: Sequence[str],
    version: int | str,
    geography: MapInfo,
    units: Sequence[str] = (),
    notes: Sequence[str] = (),
    timezone: str = "UTC",
) -> Confirmation:
    """The reply to an accepted order set: each line as read, then the whole set now on file.

    `units` are the power's units that need an order this phase (for movement its units, for
    retreats its dislodged units); those the set leaves unordered are listed.
    """
    lines = tuple(
        ReadLine(
            number=str(r.line),
            text=r.text.strip(),
            status=r.status,
            order=name_order(str(r.order), geography) if r.order is not None else None,
            explanation=_explanation(r.message, r.rule),
        )
        for r in readings
    )
    counts = {s: sum(1 for line in lines if line.status == s) for s in STATUSES}
    others = sum(1 for line in lines if line.status not in STATUSES)
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n) + (f", {others} other" if others else "")
    ordered = {_order_unit(o) for o in orders_on_file}
    return Confirmation(
        game_name=game_name,
        power=power,
        power_name=power_name(power),
        phase=phase,
        phase_name=describe_phase(phase),
        deadline=format_time(deadline, timezone) if deadline else None,
        version=str(version),
        lines=lines,
        summary=summary or "no lines read",
        problems=counts["rejected"] > 0,
        orders=tuple(
            name_order(o, geography)
            for o in sorted(orders_on_file, key=_canonical_key)
        ),
        unordered=tuple(
            unit_with_code(u, geography)
            for u in sorted(units, key=unit_province) if u not in ordered
        ),
        if_unordered=_IF_NO_ORDER.get(phase_type(phase), _IF_NO_ORDER["M"]),
        notes=tuple(n for n in notes if n),
    )


# ---------------------------------------------------------------------------------------------
# Rejection


@dataclass(frozen=True)
class Rejection:
    template: ClassVar[str] = "player/rejection.txt.j2"

    game_name: str | None
    reasons: tuple[str, ...]
    expected_subject: str | None  # a subject that would have been accepted
    rules: tuple[str, ...]  # what else would have been accepted, e.g. the address rule
    original_subject: str
    original_date: str | None


def build_rejection(
    reasons: Sequence[str],
    expected_subject: str | None,
    *,
    original_subject: str,
    original_date: datetime | str | None,
    game_name: str | None = None,
    rules: Sequence[str] = (),
    timezone: str = "UTC",
) -> Rejection:
    """The reply to a message that was not accepted. `original_date` is the message's Date
    header as received (shown as written) or a parsed datetime."""
    if isinstance(original_date, datetime):
        date_text: str | None = str(format_time(original_date, timezone))
    else:
        date_text = " ".join(original_date.split()) if original_date else None
    return Rejection(
        game_name=game_name,
        reasons=tuple(r for r in reasons if r) or ("the message could not be read as orders",),
        expected_subject=expected_subject,
        rules=tuple(rules),
        original_subject=" ".join(original_subject.split()) or "(no subject)",
        original_date=date_text,
    )


# ---------------------------------------------------------------------------------------------
# Reminder


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
            return (_plural(change, "build"),)
        return (_plural(-change, "removal"),) if change else ()
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
) -> Reminder:
    """A deadline reminder to a power with no orders on file. With `position` and `geography`
    it lists what the power has to order; `if_no_orders` overrides the standard default."""
    needed = _needed(power, position, geography) if position is not None and geography is not None else ()
    return Reminder(
        game_name=game_name,
        power=power,
        power_name=power_name(power),
        phase=phase,
        phase_name=describe_phase(phase),
        deadline=format_time(deadline, timezone),
        time_left=format_duration(deadline - now),
        expected_subject=expected_subject,
        order_address=order_address,
        needed=needed,
        if_no_orders=if_no_orders or _IF_NO_ORDERS.get(phase_type(phase), "your units hold"),
    )
