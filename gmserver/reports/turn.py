"""The turn report: every order with its result, retreats, centres, adjustments, the next deadline."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from html import escape as html_escape
from typing import ClassVar, TypeVar

from gmserver.reports.mailto import send_orders_button, send_orders_text
from gmserver.reports.words import (
    OrderWords,
    PlaceNames,
    When,
    format_time,
    order_unit,
    orders_by_province,
    place_names,
    plural,
    power_name,
    result_in_words,
)
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order
from gmserver.rules.position import (
    OrderOutcome,
    PhaseOutcome,
    Position,
    describe_phase,
    unit_province,
)
from gmserver.rules.press import ReportPress
from gmserver.rules.subject import format_subject, subject_example

# ---------------------------------------------------------------------------------------------
# Turn report

_Made = TypeVar("_Made")


@dataclass(frozen=True)
class OrderLine:
    power: str
    unit: str  # "A PAR"; "" for WAIVE
    order: str  # the engine's text, "A PAR - BUR"
    text: str  # "A Paris -> Burgundy"
    result: str  # "bounced", "moved", "cut, dislodged", ...
    defaulted: bool = False
    note: str = ""  # where the order came from, "(Italy is in civil disorder)"
    failed: bool = False  # not carried out: the HTML report shows it in red ("holds: ..." is no failure)
    shown: str = ""  # the notation as players read it (Order.for_players: "via convoy"); "": `order`

    @property
    def code(self) -> str:
        """The short notation shown beside the words."""
        return self.shown or self.order

    @property
    def parts(self) -> tuple[str, ...]:
        """The line in pieces a template may break between."""
        # a result with its reason ("void: A Paris was not ordered to move to Burgundy") may break
        # after the result's first word, never inside a province name
        result, _, why = self.result.partition(": ")
        result = f"{result}:" if why else result
        if self.text == self.order:
            parts = (f"{self.code}: {result}",)
        else:
            parts = (self.text, f"({self.code}): {result}")
        return parts + ((why,) if why else ()) + ((self.note,) if self.note else ())

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
    # the next phase is processed in the same adjudication (003 [5]): its results follow
    processed_at_once: bool = False
    # a reminder the profile sends with the report (003 [11]: "send provisional orders as soon as
    # the adjudication arrives" reminders, with_report = true)
    send_now: bool = False
    civil_disorder: tuple[str, ...] = ()  # power names: the powers in civil disorder now (rules/nmr.py)
    # the phase was adjudicated again after the GM rolled it back (000 VIII(1)): these results
    # replace those the players had, and the report must say so (two reports, one subject)
    corrected: bool = False
    # the press the report publishes (gmserver.rules.press.ReportPress, services.features.press.press_for_report)
    press: tuple[ReportPress, ...] = ()
    # the proposals tallied at this deadline, in words (never whose vote was what),
    # and how a passed one ended the game
    votes: tuple[str, ...] = ()
    vote_end: str | None = None
    # report_empty_retreat_season: the next turn is a retreat turn with nothing to retreat, held so
    # that press may be sent; the rule's clause ("house rules 002 PRESS 7"), else ""
    held_for_press: str = ""
    # the end of the game (reports/ending.py): how it ended in words (a solo with its count and
    # clause), and each power's supply centres game year by game year, as text lines
    ending: str = ""
    centre_lines: tuple[str, ...] = ()
    # the game's subject_template: the next turn's subject line is shown to each player
    # with their own power (orders_subject); None: no subject line is shown
    subject_template: str | None = None
    # where the templates print that line (ORDERS_SUBJECT_MARK); "" when there is none to show
    orders_subject_mark: str = ""


# An ASCII word that no report text contains, replaced in each player's copy (text and HTML) by
# the subject line for that player's orders: the report is built once for every player.
ORDERS_SUBJECT_MARK = "@@ORDERS-SUBJECT@@"
# Below that line, the offer to write to the player's own reply address with it (reports/mailto.py):
# written as is in templates/player/report.txt.j2 (a line of its own) and report.html.j2, and in
# each copy replaced by that player's offer or removed
ORDERS_MAILTO_MARK = "@@ORDERS-MAILTO@@"


def with_subject_template(report: TurnReport, template: str) -> TurnReport:
    """The report that shows the next turn's subject line, in the game's `template`."""
    return dataclasses.replace(report, **_subject_fields(report.next_phase, report.processed_at_once,
                                                          report.game_over, template))


def _subject_fields(next_phase: str | None, processed_at_once: bool, game_over: bool,
                    template: str | None) -> dict[str, str | None]:
    """The fields of a report that shows the next turn's subject line in `template` (None: none)."""
    shown = template is not None and next_phase is not None and not processed_at_once and not game_over
    return {"subject_template": template, "orders_subject_mark": ORDERS_SUBJECT_MARK if shown else ""}


def orders_subject(report: TurnReport, power: str | None) -> str:
    """The exact subject line `power`'s player gives the orders of the report's next turn (
    "the next deadline with the exact subject line to use"); for the GM's copy (`power` None), the
    line with the words "your power" where each player's says theirs."""
    if not report.orders_subject_mark:
        return ""
    assert report.subject_template is not None and report.next_phase is not None
    if power is None:
        return subject_example(template=report.subject_template, game_name=report.game_name,
                               phase=report.next_phase, purpose="orders")
    return format_subject(template=report.subject_template, game_name=report.game_name, power=power,
                          phase=report.next_phase, purpose="orders")


def with_orders_subject(text: str, report: TurnReport, power: str | None, *, html: bool = False,
                        address: str | None = None) -> str:
    """`text` (the report's text or HTML, rendered once) as `power`'s copy: the mark replaced by
    that player's subject line, and the mailto mark by the offer to write to `address` (the
    player's own reply address) with it, or removed (no address: the GM's or an observer's copy).
    Pure, so that whoever writes each player's copy can call it."""
    line = orders_subject(report, power)
    text = text.replace(ORDERS_SUBJECT_MARK, html_escape(line) if html else line)
    offer = ""
    if address and line and power is not None:
        offer = send_orders_button(address, line) if html else send_orders_text(address, line, indent="  ") + "\n"
    return text.replace(ORDERS_MAILTO_MARK if html else f"{ORDERS_MAILTO_MARK}\n", offer)


def with_reader_deadline(text: str, report: TurnReport, deadline: tuple[str, str] | None, *,
                         html: bool = False) -> str:
    """`text` (the report's text or HTML, rendered once) with its next deadline as one player
    reads it (SET ZONE: `deadline` is (their zone's time, the game's and UTC), reports.words
    format_time with the reader's zone); unchanged for `deadline` None. Pure."""
    shown = report.next_deadline
    if deadline is None or shown is None:
        return text
    local, beside = deadline
    if html:
        was = f"Deadline: <strong>{html_escape(shown.local)}</strong>" + ("" if shown.same else f"<br>{html_escape(shown.utc)}")
        return text.replace(was, f"Deadline: <strong>{html_escape(local)}</strong><br>{html_escape(beside)}")
    indent = " " * len("  Deadline: ")
    was = f"  Deadline: {shown.local}\n" + ("" if shown.same else f"{indent}{shown.utc}\n")
    return text.replace(was, f"  Deadline: {local}\n{indent}{beside}\n")


def _order_line(outcome: OrderOutcome, words: OrderWords, kind: str, geography: MapInfo,
                orders: tuple[OrderOutcome, ...], before: Position, ordered: dict[str, Order] | None) -> OrderLine:
    return OrderLine(
        power=outcome.power,
        unit=words.unit,
        order=words.notation,
        text=words.text,
        result=result_in_words(outcome, kind, orders, geography, before, ordered=ordered),  # "holds: no order received"
        defaulted=outcome.defaulted,
        note=f"({outcome.note})" if outcome.note else "",
        failed=not outcome.succeeded,
        shown=words.shown,
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


def _built(outcome: PhaseOutcome) -> set[str]:
    """Units an adjustment phase put on the board."""
    return _units_on_board(outcome.after) - _units_on_board(outcome.before)


# the order lines made, by what each is made of (its order's words, power, action, results, whether
# supplied, note, kind of phase), and the centre counts (by the map's names, power, centres owned,
# gained and lost, units): a deadline's reports have many in common, and they are frozen values
_LINES: dict[tuple[object, ...], OrderLine] = {}
_COUNTS: dict[tuple[object, ...], CentreCount] = {}


def _keep(kept: dict[tuple[object, ...], _Made], key: tuple[object, ...], made: _Made) -> _Made:
    """`made`, kept under `key`; `kept` emptied when it holds 100,000 (a daemon runs for months)."""
    if len(kept) >= 100_000:
        kept.clear()
    kept[key] = made
    return made


_SORT_KEY = operator.attrgetter("sort_key")


def _order_lines(outcome: PhaseOutcome, names: PlaceNames) -> tuple[PowerOrders, ...]:
    kind = outcome.before.phase_type
    # the defaults of an adjustment phase that changed the board: removals the rules chose and the
    # builds the house rules made for a silent player (001 V(5) ¶1); waivers and the rest are not shown
    changed = _removed(outcome) | _built(outcome) if kind == "A" else set()
    words = list(map(names.order.__getitem__, (o.order for o in outcome.orders)))
    ordered: dict[str, Order] | None = None  # orders_by_province, once a void asks
    by_power: dict[str, list[OrderLine]] = {}
    # canonical order (reports.words.canonical_key); the index keeps equal keys as they came
    for _, index in sorted(zip(map(_SORT_KEY, words), range(len(words)), strict=True)):
        order = outcome.orders[index]
        if kind == "A" and order.defaulted and words[index].unit not in changed:
            continue
        # a line is the same in every report with the same order and result, and for a void support
        # or convoy of a movement phase, the same order of the unit it names (reports.words.void_reason)
        void, other = order.results == ("void",), None
        if void:
            ordered = orders_by_province(outcome.orders) if ordered is None else ordered
            other = ordered.get(order.order.other.province) if order.order.other is not None else None
        key = (words[index], order.power, order.order.action, tuple(order.results), order.defaulted, order.note, kind,
               other)
        line = _LINES.get(key)
        if line is None:
            line = _order_line(order, words[index], kind, names.geography, outcome.orders, outcome.before, ordered)
            if not void or kind == "M":  # a void adjustment's reason counts the others' (adjustment_void_reason)
                _keep(_LINES, key, line)
        by_power.setdefault(order.power, []).append(line)
    return tuple(PowerOrders(power, power_name(power), tuple(lines)) for power, lines in sorted(by_power.items()))


def _dislodged(outcome: PhaseOutcome, names: PlaceNames) -> tuple[DislodgedUnit, ...]:
    if outcome.before.phase_type != "M":
        return ()
    after = outcome.after
    waiting = {
        unit: power for power, units in after.dislodged.items() for unit in units
    } if after.phase_type == "R" else {}
    # A dislodged unit with nowhere to go never reaches the retreat phase: the engine removes it.
    hit = {order_unit(o.order): o.power for o in outcome.orders if "dislodged" in o.results}
    result = []
    for unit, power in sorted({**hit, **waiting}.items(), key=lambda item: (item[1], unit_province(item[0]))):
        options = after.retreats.get(unit, ()) if unit in waiting else ()
        result.append(DislodgedUnit(
            power=power,
            name=power_name(power),
            unit=unit,
            text=names.unit_with_code[unit],
            options=tuple(map(names.with_code.__getitem__, sorted(options))),
            disbanded=unit not in waiting,
        ))
    return tuple(result)


def _centres(outcome: PhaseOutcome, names: PlaceNames,
             changes: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]) -> tuple[tuple[CentreCount, ...], tuple[str, ...]]:
    """Each power's centres and units, and the centres nobody owns; `changes`: outcome.centre_changes()."""
    before, after = outcome.before, outcome.after
    powers = sorted(set(before.centers) | set(after.centers) | {p for p, u in after.units.items() if u})
    counts = []
    for power in powers:
        owned = after.centers.get(power, ())
        gained, lost = changes.get(power, ((), ()))
        units = len(after.units.get(power, ()))
        key = (names, power, tuple(owned), gained, lost, units)  # tuple(): a Position may hold lists
        if (count := _COUNTS.get(key)) is None:  # the same in many games' reports (the openings')
            count = _keep(_COUNTS, key, CentreCount(
                power=power,
                name=power_name(power),
                count=len(owned),
                centres=tuple(sorted(map(names.place.__getitem__, owned))),
                gained=tuple(map(names.with_code.__getitem__, gained)),
                lost=tuple(map(names.with_code.__getitem__, lost)),
                units=units,
            ))
        counts.append(count)
    owned_anywhere = {c for centres in after.centers.values() for c in centres}
    unowned = tuple(sorted(names.place[c] for c in names.supply_centres if c not in owned_anywhere))
    return tuple(counts), unowned


def _adjustments(after: Position, names: PlaceNames) -> tuple[Adjustment, ...]:
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
                names.with_code[c] for c in names.home_centres[power]
                if c in owned and c not in occupied
            )
        result.append(Adjustment(
            power=power,
            name=power_name(power),
            centres=len(owned),
            units=len(after.units.get(power, ())),
            change=change,
            text=plural(change, "build") if change > 0 else plural(-change, "removal"),
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
        built = sum(1 for o in outcome.orders_of(power) if o.order.action == "build" and o.succeeded)
        if built < due:
            # the builds ordered that could not be made, and why (services.turn.adjudication.with_unused_lines)
            why = "; ".join(note for owner, note in outcome.unused_builds if owner == power)
            lines.append(f"{power_name(power)}: {plural(due - built, 'build')} not used" + (f" ({why})" if why else ""))
    return tuple(lines)


def _engine_removals(outcome: PhaseOutcome, names: PlaceNames) -> tuple[str, ...]:
    if not outcome.engine_removals:
        return ()
    removed = _removed(outcome)
    owners = {unit: power for power, units in outcome.before.units.items() for unit in units}
    return tuple(
        f"{power_name(owners.get(unit, '?'))}: {names.unit_with_code[unit]}"
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
    processed_at_once: bool = False,
    civil_disorder: Collection[str] = (),
    subject_template: str | None = None,
) -> TurnReport:
    """Everything the players are told after one adjudication (report_order_sequence = canonical, 002 FORMAT 3);
    with `subject_template`, the report as with_subject_template gives it, built once."""
    after = outcome.after
    game_over = after.phase_type == "-"
    names = place_names(geography)
    changes = outcome.centre_changes()
    centres, unowned = _centres(outcome, names, changes)
    return TurnReport(
        game_name=game_name,
        phase=outcome.phase,
        phase_name=describe_phase(outcome.phase),
        orders=_order_lines(outcome, names),
        dislodged=_dislodged(outcome, names),
        centres=centres,
        unowned_centres=unowned,
        centres_changed=bool(changes),
        adjustments=_adjustments(after, names),
        unused_builds=_unused_builds(outcome),
        engine_removals=_engine_removals(outcome, names),
        units=tuple(
            PowerUnits(power, power_name(power), tuple(
                map(names.unit_with_code.__getitem__, sorted(units, key=names.unit_province.__getitem__))
            ))
            for power, units in sorted(after.units.items()) if units
        ),
        next_phase=None if game_over else after.phase,
        next_phase_name=None if game_over else describe_phase(after.phase),
        next_deadline=format_time(next_deadline, timezone) if next_deadline and not game_over else None,
        # a power in civil disorder is given defaults whatever it sends (rules/defaults.py): nothing is
        # due from it (000 VII(6) ¶2: "all of its units will hold")
        to_order=tuple(power_name(p) for p in after.powers_to_order() if p not in civil_disorder),
        game_over=game_over,
        winners=tuple(power_name(p) for p in outcome.winners),
        processed_at_once=processed_at_once,
        civil_disorder=tuple(power_name(p) for p in sorted(civil_disorder)),
        **_subject_fields(None if game_over else after.phase, processed_at_once, game_over, subject_template),
    )
