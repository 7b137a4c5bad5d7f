"""Words and times in the players' mail: province and order names, results, deadlines."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import OrderOutcome, Position, unit_province

# ---------------------------------------------------------------------------------------------
# Words


# The engine's result codes (the `diplomacy` package) in the words a report prints.
RESULT_WORDS = {
    "bounce": "bounced",
    "cut": "cut",
    "dislodged": "dislodged",
    "void": "void",
    "no convoy": "no convoy",
    "disrupted": "convoy disrupted",
    "disband": "disbanded",
}

# Why the server supplied an order, said after what happened to the unit: "holds: no order
# received" (the QA walkthrough stumbled on "succeeded (no order received: holds)").
DEFAULT_REASONS = {
    "M": "no order received",
    "R": "no retreat order received",
    "A": "no removal order received",
}

# An order carried out, said by what the unit did: the QA walkthrough found a bare "succeeded"
# beside every order that went through, where the failures said what happened ("bounced").
_DONE = {
    "hold": "holds",
    "move": "moved",
    "support_hold": "support given",
    "support_move": "support given",
    "convoy": "convoyed",
    "retreat": "retreated",
    "disband": "disbanded",
    "remove": "removed",
    "build": "built",
    "waive": "waived",
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


def _as_unit(unit: Unit | str) -> Unit:
    """A unit of a `Position` (engine notation, `F STP/SC`) as a value; a `Unit` as it is."""
    return unit if isinstance(unit, Unit) else Unit.parse(unit)


def unit_with_code(unit: Unit | str, geography: MapInfo) -> str:
    """`F STP/SC` -> `F St Petersburg (south coast, STP/SC)`."""
    value = _as_unit(unit)
    return f"{value.kind} {place_with_code(value.location, geography)}"


def describe_unit(unit: Unit | str, geography: MapInfo) -> str:
    """`F STP/SC` -> `F St Petersburg (south coast)`."""
    value = _as_unit(unit)
    return f"{value.kind} {place(value.location, geography)}"


def describe_order(parsed: Order, geography: MapInfo) -> str:
    """An order in words: `A PAR - BUR VIA` -> `A Paris -> Burgundy by convoy` (unknown
    province codes stay as they are)."""
    if parsed.unit is None:
        return "Waive a build"
    unit = describe_unit(parsed.unit, geography)
    other = describe_unit(parsed.other, geography) if parsed.other else ""
    target = place(parsed.target, geography) if parsed.target else ""
    action = parsed.action
    if action == "hold":
        return f"{unit} holds"
    if action == "move":
        via = " by convoy" if parsed.via_convoy else ""
        if parsed.route:  # 000 VI(3): the route the order named
            via = " by convoy via " + ", ".join(place(p, geography) for p in parsed.route)
        return f"{unit} -> {target}{via}"
    if action == "support_hold":
        return f"{unit} supports {other}"
    if action == "support_move":
        return f"{unit} supports {other} -> {target}"
    if action == "convoy":
        return f"{unit} convoys {other} -> {target}"
    if action == "retreat":
        return f"{unit} retreats to {target}"
    if action in ("disband", "remove"):
        return f"{unit} disbands"
    return f"Build {unit}"


class _Memo(dict[Hashable, Any]):
    """`compute(key)` for each key, worked out at the first look-up; a hit is a dict's look-up
    (no Python call), so that `memo[key]` and `map(memo.__getitem__, keys)` cost what a dict's do.
    Emptied when it holds `limit` values: the keys are a map's places and units, or orders, and
    an order's words cost microseconds to work out again."""

    def __init__(self, compute: Callable[[Any], Any], limit: int = 100_000) -> None:
        super().__init__()
        self.compute, self.limit = compute, limit

    def __missing__(self, key: Hashable) -> Any:
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.compute(key)
        return value


@dataclass(frozen=True, eq=False)
class OrderWords:
    """What a report prints of one order, whatever happened to it. Compared and hashed as the
    object it is (PlaceNames makes one per order): a key of what is made from it costs no call."""

    notation: str  # "A PAR - BUR": the engine's text (str(order))
    unit: str  # "A PAR"; "" for WAIVE (order_unit)
    text: str  # "A Paris -> Burgundy" (describe_order)
    shown: str  # the notation as players read it (Order.for_players)
    sort_key: tuple[str, str]  # canonical_key


class PlaceNames:
    """One map's names of places, units and orders as the reports print them, each worked out
    once (a deadline writes a report per game, each naming every unit and centre on the board):
    `names.place["SPA/SC"]` is place("SPA/SC", geography), and likewise `with_code`
    (place_with_code), `unit_with_code`, `unit_province` (rules.position.unit_province) and
    `order` (an Order's OrderWords), `home_centres` (a power's, MapInfo.home_centres). `supply_centres`
    is the map's, sorted."""

    def __init__(self, geography: MapInfo) -> None:
        self.geography = geography
        self.place = _Memo(lambda location: place(location, geography))
        self.with_code = _Memo(lambda location: place_with_code(location, geography))
        self.unit_with_code = _Memo(lambda unit: unit_with_code(unit, geography))
        self.unit_province = _Memo(unit_province)
        self.order = _Memo(lambda order: order_words(order, geography))
        self.home_centres = _Memo(geography.home_centres)
        self.supply_centres = geography.supply_centres()


_NAMES: dict[int, PlaceNames] = {}


def place_names(geography: MapInfo) -> PlaceNames:
    """The names of `geography` (a process has one map: kept by the map's identity, the map held
    with them so that its id is never another's)."""
    names = _NAMES.get(id(geography))
    if names is None or names.geography is not geography:
        if len(_NAMES) >= 8:
            _NAMES.clear()
        names = _NAMES[id(geography)] = PlaceNames(geography)
    return names


def order_words(order: Order, geography: MapInfo) -> OrderWords:
    notation = str(order)
    return OrderWords(notation=notation, unit=order_unit(order), text=describe_order(order, geography),
                      shown=order.for_players(), sort_key=canonical_key(order))


@dataclass(frozen=True)
class NamedOrder:
    """An order with names beside its engine text: `A Paris -> Burgundy (A PAR - BUR)`."""

    order: str  # "A PAR - BUR"
    text: str  # "A Paris -> Burgundy"; equal to `order` when it cannot be described
    shown: str = ""  # the notation as players read it (Order.for_players: "via convoy"); "": `order`

    @property
    def code(self) -> str:
        """The short notation shown beside the words."""
        return self.shown or self.order

    @property
    def parts(self) -> tuple[str, ...]:
        """The line in pieces a template may break between."""
        return (self.code,) if self.text == self.order else (self.text, f"({self.code})")

    @property
    def line(self) -> str:
        return " ".join(self.parts)

    def __str__(self) -> str:
        return self.line


def name_order(order: Order, geography: MapInfo) -> NamedOrder:
    return NamedOrder(order=str(order), text=describe_order(order, geography), shown=order.for_players())


def result_in_words(outcome: OrderOutcome, kind: str, orders: Sequence[OrderOutcome] = (),
                    geography: MapInfo | None = None, before: Position | None = None, *,
                    ordered: Mapping[str, Order] | None = None) -> str:
    """The engine's result codes as words; an order carried out says what the unit did ("moved",
    "support given"). With the phase's other `orders` (and `geography` for names), a void support
    or convoy says why: "void: A Venice was not ordered to move to Piedmont"; with the position
    `before` the phase, so does a void build or removal ("void: Germany had 1 removal to make and
    A Munich was removed"). A supplied order says why it was supplied ("holds: no order received")
    unless it carries a note of its own, which the report prints. `ordered`: orders_by_province(orders),
    for a caller that asks of every order of a phase (a report)."""
    said = _result(outcome, kind)
    if outcome.results == ("void",):
        if kind == "M":
            reason = void_reason(outcome.order, orders, geography, ordered=ordered)
        else:
            reason = adjustment_void_reason(outcome, orders, before, geography) if before is not None else None
        said = f"void: {reason}" if reason else said
    if outcome.defaulted and not outcome.note and kind in DEFAULT_REASONS:
        said = f"{said}: {DEFAULT_REASONS[kind]}"
    return said


def _result(outcome: OrderOutcome, kind: str) -> str:
    if outcome.results:
        return ", ".join(RESULT_WORDS.get(r, r) for r in outcome.results)
    action = outcome.order.action
    if kind == "A" and action == "disband":
        return "removed"  # a disband in an adjustment phase is a removal
    return _DONE.get(action, "succeeded")


def void_reason(order: Order, orders: Sequence[OrderOutcome], geography: MapInfo | None, *,
                ordered: Mapping[str, Order] | None = None) -> str | None:
    """Why a support or convoy was void, when the other unit's order says it: a support to hold
    a unit ordered to move, or a support or convoy of a move the unit was not ordered to make
    (a coast other than the one written included, DATC 6.B.9). None when the orders do not tell
    (the engine also voids supports in a head-to-head swap of its own). `ordered`:
    orders_by_province(orders), looked up instead of searched."""
    if order.other is None or order.action not in ("support_hold", "support_move", "convoy"):
        return None
    province = order.other.province
    other = _order_of(province, orders) if ordered is None else ordered.get(province)
    if other is None or other.unit is None:
        return None
    named = describe_unit(other.unit, geography) if geography else str(other.unit)
    goes = other.target if other.action == "move" else None
    if order.action == "support_hold":
        return f"{named} was ordered to move to {_where(goes, geography)}, not to hold" if goes else None
    wanted = order.target
    if wanted is None or (goes and (goes == wanted or ("/" not in wanted and goes.split("/")[0] == wanted))):
        return None  # the move was the one supported: the orders do not say why
    if goes:
        return f"{named} was ordered to move to {_where(goes, geography)}, not to {_where(wanted, geography)}"
    return f"{named} was not ordered to move to {_where(wanted, geography)}"


def _where(location: str, geography: MapInfo | None) -> str:
    return place(location, geography) if geography else location


def _order_of(province: str, orders: Sequence[OrderOutcome]) -> Order | None:
    return next((o.order for o in orders if o.order.unit is not None and o.order.unit.province == province), None)


def orders_by_province(orders: Sequence[OrderOutcome]) -> dict[str, Order]:
    """The order of the unit in each province (the first, as `_order_of` finds it)."""
    ordered: dict[str, Order] = {}
    for outcome in orders:
        if outcome.order.unit is not None:
            ordered.setdefault(outcome.order.unit.province, outcome.order)
    return ordered


def adjustment_void_reason(outcome: OrderOutcome, orders: Sequence[OrderOutcome], before: Position,
                           geography: MapInfo | None) -> str | None:
    """Why a build or removal was void. The engine takes only legal adjustment orders, so what
    reaches it void is one too many: "Germany had 1 removal to make and A Munich was removed".
    None when the orders and the position `before` the phase do not tell."""
    order, power = outcome.order, outcome.power
    building = order.action == "build"
    if before.phase_type != "A" or not (building or order.action in ("remove", "disband")):
        return None
    due = before.adjustments.get(power, 0)
    owed = due if building else -due
    done = [o.order.unit for o in orders if o.power == power and o.succeeded and o.order.unit is not None
            and (o.order.action == "build") == building and o.order.action in ("build", "remove", "disband")]
    if owed <= 0 or len(done) < owed:
        return None
    names = _and([describe_unit(u, geography) if geography else str(u) for u in done])
    word, verb = ("build", "built") if building else ("removal", "removed")
    were = "was" if len(done) == 1 else "were"
    return f"{power_name(power)} had {plural(owed, word)} to make and {names} {were} {verb}"


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def plural(count: int, word: str) -> str:
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


def excerpt(text: str, width: int) -> str:
    """The start of `text` as written, at most `width` characters, cut between words ("..." after
    it when cut): a reply quotes the player's words, never half of one."""
    if len(text) <= width:
        return text
    cut = text[:width - 3]
    before_space = cut.rsplit(" ", 1)[0].rstrip() if " " in cut.strip() else ""
    return (before_space or cut) + "..."


def _day_and_time(moment: datetime) -> str:
    return f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M}"


# kept: the games due at one deadline often share their next deadline, and the output depends on
# the instant alone (equal datetimes of other offsets give the same When)
@functools.lru_cache(maxsize=1024)
def format_time(moment: datetime, timezone: str = "UTC", reader_zone: str | None = None) -> When:
    """Render an aware datetime in `timezone` (an IANA name) and in UTC; with `reader_zone` (the
    zone a player chose with SET ZONE) in that zone first, the game's zone and UTC beside it.

    Raises ValueError for a naive datetime: deadlines are always stored aware.
    """
    game = _format_time(moment, timezone)
    if not reader_zone or reader_zone == timezone:
        return game
    if reader_zone == "UTC":
        return When(at=game.at, local=game.utc, utc=game.local)
    reader = _format_time(moment, reader_zone)
    return When(at=game.at, local=reader.local, utc=game.utc if game.same else f"{game.local} = {game.utc}")


def _format_time(moment: datetime, timezone: str) -> When:
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
        parts = [plural(days, "day")] + ([plural(hours, "hour")] if hours else [])
    elif hours:
        parts = [plural(hours, "hour")] + ([plural(minutes, "minute")] if minutes else [])
    else:
        parts = [plural(minutes, "minute")]
    return " ".join(parts)


def format_length(seconds: float) -> str:
    """A turn length or a reminder's lead as a GM reads it: `2 days`, `1 day 12 hours`,
    `1 hour 30 minutes`, and for the demo's turns of seconds `15 seconds`, `7.5 seconds`. Unlike
    format_duration (time left, rounded down to the minute) nothing is dropped: it is a setting."""
    whole, fraction = divmod(round(seconds * 1000), 1000)  # milliseconds: 7.5 s stays 7.5 s
    minutes, secs = divmod(whole, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    parts = [plural(n, word) for n, word in ((days, "day"), (hours, "hour"), (minutes, "minute")) if n]
    if secs or fraction or not parts:
        parts.append(plural(secs, "second") if not fraction else f"{secs + fraction / 1000:g} seconds")
    return " ".join(parts)


def order_unit(order: Order) -> str:
    """`A MAR S A PAR - BUR` -> `A MAR` (the key a `Position` lists units by); `WAIVE` -> ``."""
    return str(order.unit) if order.unit is not None else ""


def canonical_key(order: Order) -> tuple[str, str]:
    """Sort key for report_order_sequence = canonical (002 FORMAT 3): by the unit's province; WAIVE last."""
    return (order.province or "~", str(order))
