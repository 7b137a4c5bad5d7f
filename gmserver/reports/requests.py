"""The answers to a player's requests by mail: status, history, map, house rules, own orders.

Pure: the handler (gmserver.services.inbox.handlers.request_answers) reads the game and passes plain
values; each `build_*` returns an `Answer` that templates/player/request_answer.txt.j2 prints.
Nothing here may tell a player another power's orders before they are adjudicated: the status
names who has ordered, never what; the history holds adjudicated phases only (public from then).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from gmserver.reports.words import (
    canonical_key,
    format_time,
    name_order,
    order_unit,
    place_with_code,
    plural,
    power_name,
    result_in_words,
    unit_with_code,
)
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome, Position, describe_phase, phase_type, unit_province


@dataclass(frozen=True)
class Section:
    heading: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    template: ClassVar[str] = "player/request_answer.txt.j2"

    title: str  # the first sentence of the answer
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class PlayerState:
    """What the asking player is told of their own standing (services/features/nmr.py keeps it)."""

    power: str
    missed_in_a_row: int = 0
    missed_turns: int = 0
    civil_disorder: bool = False
    # the house rule on missed turns in words with its clause (rules/briefing.civil_disorder_rule)
    disorder_rule: str | None = None


def build_status(*, game_name: str, phase: str, deadline: datetime | None, timezone: str, paused: bool,
                 to_order: Sequence[str], ordered: Sequence[str], player: PlayerState) -> Answer:
    """STATUS: the phase, the deadline in the game's time zone, who has ordered (never what),
    and the asker's own missed turns and civil disorder."""
    when = ("none set" if deadline is None else str(format_time(deadline, timezone)))
    turn = [f"Phase:    {describe_phase(phase)} ({phase})", f"Deadline: {when}"]
    if paused:
        turn.append("The game is paused by the GM: the deadline does not run.")
    done = sorted(set(ordered))
    waiting = sorted(set(to_order) - set(done))
    who = [f"Orders received from: {_names(done) or 'nobody yet'}.",
           f"Orders awaited from:  {_names(waiting) or 'nobody'}."]
    own = [f"You play {power_name(player.power)}."]
    if player.civil_disorder:
        own.append("Your power is in civil disorder: its units hold until orders come from you again.")
    if player.missed_in_a_row:
        own.append(f"You missed the last {plural(player.missed_in_a_row, 'turn')} in a row.")
    own.append(f"Turns missed in all: {player.missed_turns}.")
    if player.disorder_rule and not player.civil_disorder:
        own.append(player.disorder_rule)
    return Answer(f"The status of {game_name}.", (Section("Turn", tuple(turn)), Section("Orders", tuple(who)),
                                                  Section("You", tuple(own))))


def _names(powers: Sequence[str]) -> str:
    return ", ".join(power_name(p) for p in powers)


@dataclass(frozen=True)
class PhaseHistory:
    """One adjudicated phase as its record keeps it: the orders with their results."""

    phase: str
    orders: tuple[OrderOutcome, ...]
    before: Position | None = None  # the position the phase started from: why a build was void


def build_history(*, game_name: str, phases: Sequence[PhaseHistory], asked: str, geography: MapInfo) -> Answer:
    """HISTORY [phase]: every adjudicated phase (or those `asked` names) with each power's orders
    and results; all public once adjudicated. An argument naming no year ("History please") asks
    for the whole history."""
    asked = asked if re.search(r"\d{4}", asked) else ""
    chosen = [p for p in phases if phase_matches(p.phase, asked)] if asked else list(phases)
    if not chosen:
        said = (f"{game_name} has no adjudicated phase {asked!r}." if asked
                else f"{game_name} has no adjudicated phase yet.")
        return Answer(said + (" Name one as F1901 or Fall 1901." if asked else ""))
    sections = tuple(Section(f"{describe_phase(p.phase)} ({p.phase})", _phase_lines(p, geography)) for p in chosen)
    # a whole game's history is long: say how to ask for less
    hint = "" if asked else " For one phase or one year, write HISTORY F1901 or HISTORY 1901."
    return Answer(f"The history of {game_name}: {plural(len(chosen), 'adjudicated phase')}, with every order "
                  f"and its result.{hint}", sections)


def _phase_lines(phase: PhaseHistory, geography: MapInfo) -> tuple[str, ...]:
    kind = phase_type(phase.phase)
    lines: list[str] = []
    for power in sorted({o.power for o in phase.orders}):
        lines.append(f"{power_name(power)}:")
        for outcome in sorted((o for o in phase.orders if o.power == power), key=lambda o: canonical_key(o.order)):
            line = name_order(outcome.order, geography).line
            if outcome.defaulted and outcome.succeeded:  # the server's default order: nothing to add
                lines.append(f"  {line}: no order received")
            else:  # a void support says why; a supplied order that failed, that none was received
                said = result_in_words(outcome, kind, phase.orders, geography, phase.before)
                extra = " (no order received)" if outcome.defaulted and outcome.note else ""
                lines.append(f"  {line}: {said}{extra}")
    return tuple(lines) or ("No orders.",)


_SEASONS = {"spring": "S", "summer": "S", "fall": "F", "autumn": "F", "winter": "W"}


def phase_matches(phase: str, asked: str) -> bool:
    """Whether the phase code `phase` ("F1901M") is one `asked` names: "F1901", "f1901m",
    "Fall 1901", "1901" (the whole year)."""
    words = asked.lower().replace(",", " ").split()
    code = "".join(_SEASONS.get(word, word) for word in words).upper()
    if not code:
        return False
    if code.isdigit():
        return phase[1:5] == code
    return phase.upper().startswith(code)


def build_position(*, game_name: str, position: Position, geography: MapInfo, has_map: bool = False,
                   first: str | None = None) -> Answer:
    """MAP: the current position in text, units and centres per power (and dislodged units
    with where they may retreat, adjustments due), then the centres nobody owns. `first`: the
    power shown before the others (a replacement's own, in the start mail)."""
    powers = sorted(set(position.units) | set(position.centers) | set(position.dislodged),
                    key=lambda power: (power != first, power))
    sections = []
    for power in powers:
        units = tuple(unit_with_code(u, geography) for u in sorted(position.units.get(power, ()), key=unit_province))
        centres = tuple(sorted(position.centers.get(power, ())))
        lines = [f"Units ({len(units)}): {', '.join(units) or 'none'}",
                 f"Centres ({len(centres)}): {', '.join(place_with_code(c, geography) for c in centres) or 'none'}"]
        for unit in sorted(position.dislodged.get(power, ()), key=unit_province):
            options = position.retreats.get(unit, ())
            lines.append(f"Dislodged: {unit_with_code(unit, geography)}, may retreat to "
                         f"{', '.join(place_with_code(o, geography) for o in options) or 'nowhere (it is disbanded)'}")
        if position.adjustments.get(power):
            due = position.adjustments[power]
            lines.append(f"Adjustment due: {plural(due, 'build') if due > 0 else plural(-due, 'removal')}")
        sections.append(Section(power_name(power), tuple(lines)))
    owned = {c for centres in position.centers.values() for c in centres}
    if neutral := [c for c in geography.supply_centres() if c not in owned]:
        sections.append(Section(f"Neutral centres ({len(neutral)})",
                                (", ".join(place_with_code(c, geography) for c in neutral),)))
    title = f"The position in {game_name}, {describe_phase(position.phase)}"
    title += ": the map is attached." if has_map else "."
    return Answer(title, tuple(sections))


def build_rules(*, game_name: str, title: str, subject: str, points: Sequence[str], not_done: Sequence[str]) -> Answer:
    """RULES: the subject line for orders now, the house rules' key points in words, each with
    its clause (rules/briefing.py, whose first point refers to the subject line "shown above"),
    then what the server does where it does not (yet) carry out a house rule. Never an option key."""
    sections = [Section("Your subject line for orders this turn", (subject,)),
                Section("The house rules", tuple(f"- {p}" for p in points))]
    if not_done:
        sections.append(Section("Where this server departs from them", tuple(f"- {p}" for p in not_done)))
    return Answer(f"The house rules of {game_name} ({title}).", tuple(sections))


def build_own_orders(*, game_name: str, power: str, phase: str, orders: Sequence[Order], versions: int,
                     units: Sequence[str], geography: MapInfo, if_unordered: str) -> Answer:
    """ORDERS: the player's own orders on file for the current phase, as the confirmation shows
    them (reports/replies.py): by unit province, then the units still without an order."""
    if not versions:
        return Answer(f"No orders of {power_name(power)} are on file for {describe_phase(phase)} in {game_name}: "
                      f"{if_unordered}.")
    lines = tuple(name_order(o, geography).line for o in sorted(orders, key=canonical_key)) or ("(none)",)
    ordered = {order_unit(o) for o in orders}
    unordered = tuple(unit_with_code(u, geography) for u in sorted(units, key=unit_province) if u not in ordered)
    sections = [Section(f"On file ({plural(versions, 'set')} received)", lines)]
    if unordered:
        sections.append(Section(f"Without an order ({if_unordered})", unordered))
    return Answer(f"The orders of {power_name(power)} on file for {describe_phase(phase)} in {game_name}.",
                  tuple(sections))


def build_which_game(subjects: Mapping[str, str]) -> Answer:
    """A request from a player in several games that names none: the subject line of each."""
    lines = tuple(f"{game}: {subject}" for game, subject in sorted(subjects.items()))
    return Answer("You play in more than one game and the subject line names none of them, so the request was "
                  "not answered. Reply to this mail with the subject changed to the line of the game it is for, "
                  "and the request word (STATUS, HISTORY, MAP, RULES or ORDERS) as the first line of the message.",
                  (Section("Subject lines", lines),))
