"""The third step of conditions.py: `evaluate` decides a `Check` against the `Facts` of the turn the
orders are used in; `TurnFacts` carries what that turn's position cannot show (the centres owned
before the moves, the units dislodged by them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gmserver.rules.order import Order
from gmserver.rules.position import Position, phase_type, unit_province
from gmserver.rules.reading.conditions import Check


@dataclass(frozen=True)
class TurnFacts:
    """What the movement turn before a retreat or adjustment turn decided, which that turn's own
    position no longer shows."""

    phase: str  # the movement phase, "F1901M"
    centres: Mapping[str, tuple[str, ...]]  # each power's centres when the moves were ordered
    dislodged: Mapping[str, tuple[str, ...]]  # units each power had dislodged by those moves


def contingent_source(phase: str) -> str | None:
    """The movement phase whose sets carry contingent orders for `phase` (000 II(5), 001 II(6)):
    S1901R <- S1901M; F1901R and W1901A <- F1901M; None for a movement phase."""
    kind = phase_type(phase)
    if kind == "R":
        return f"{phase[0]}{phase[1:5]}M"
    if kind == "A":
        return f"F{phase[1:5]}M"
    return None


def turn_facts(movement: Position, results: Iterable[Mapping[str, Any]]) -> TurnFacts:
    """From a movement phase's position and its stored results (`PhaseRecord.results`)."""
    dislodged: dict[str, list[str]] = {}
    for row in results:
        if "dislodged" in (row.get("results") or ()):
            order = Order.parse_or_none(str(row["order"]))
            if order is not None and order.unit is not None:
                dislodged.setdefault(str(row["power"]), []).append(str(order.unit))
    return TurnFacts(movement.phase, {p: tuple(c) for p, c in movement.centers.items()},
                     {p: tuple(sorted(u)) for p, u in dislodged.items()})


@dataclass(frozen=True)
class Facts:
    """The adjudicated facts a condition may test, for one power in one retreat or adjustment
    turn. None: not decided (or not known) in this turn; a test of it is false and reported."""

    power: str
    occupied: frozenset[str]  # provinces with a unit now
    dislodged: frozenset[str] | None  # provinces of the power's units dislodged by the moves
    centres: frozenset[str] | None  # centres the power owns after the turn
    centres_before: frozenset[str] | None  # centres it owned when the moves were ordered
    due: int | None  # builds due (negative: removals)


def facts_for(position: Position, power: str, turn: TurnFacts | None, due: int | None) -> Facts:
    """The facts of `position` (a retreat or adjustment turn) for `power`."""
    kind = position.phase_type
    occupied = frozenset(unit_province(u) for units in position.units.values() for u in units)
    earlier = None
    if turn is not None:
        earlier = frozenset(unit_province(u) for u in turn.dislodged.get(power, ()))
    dislodged: frozenset[str] | None
    if kind == "R":
        dislodged = frozenset(unit_province(u) for u in position.dislodged.get(power, ())) | (earlier or frozenset())
    else:
        dislodged = earlier
    # Centre ownership changes only after the Fall retreats: in a Fall retreat turn it is not
    # decided yet, in a Spring one it is the same as before the moves.
    centres = None if kind == "R" and position.phase.startswith("F") else frozenset(position.centers.get(power, ()))
    before = frozenset(turn.centres.get(power, ())) if turn is not None else None
    return Facts(power, occupied, dislodged, centres, before, due if kind == "A" else None)


def evaluate(test: Check, facts: Facts, unit_province_: str | None = None) -> tuple[bool, str | None]:
    """(holds, problem). A problem (a fact not known in this turn) makes the condition false."""
    value, problem = _value(test, facts, unit_province_)
    if problem is not None:
        return False, problem
    return (not value if test.negated else value), None


def _all_or_any(test: Check, predicate: Callable[[str], bool]) -> bool:
    results = [predicate(p) for p in test.places]
    return any(results) if test.any_of else all(results)


def _counted(test: Check, n: int) -> bool:
    wanted = 1 if test.count is None else test.count
    return n >= wanted if test.at_least else n == wanted


def _value(test: Check, facts: Facts, unit_province_: str | None) -> tuple[bool, str | None]:
    fact = test.fact
    if fact == "dislodged":
        if facts.dislodged is None:
            return False, "which units were dislodged is not known in this turn"
        if not test.places:
            if unit_province_ is None:
                return False, "it does not name the unit"
            return unit_province_ in facts.dislodged, None
        return _all_or_any(test, lambda p: p in facts.dislodged), None
    if fact == "occupied":
        return _all_or_any(test, lambda p: p in facts.occupied), None
    if fact in ("builds", "removals"):
        if facts.due is None:
            return False, "builds and removals are known only in the adjustment turn"
        n = max(facts.due, 0) if fact == "builds" else max(-facts.due, 0)
        return _counted(test, n), None
    if facts.centres is None:
        return False, "centre ownership is decided only after the Fall retreats"
    if fact == "owns":
        return _all_or_any(test, lambda p: p in facts.centres), None
    if fact == "centres":
        return _counted(test, len(facts.centres)), None
    if facts.centres_before is None:
        return False, "the centres owned before the moves are not known here"
    if fact == "gains":
        return _all_or_any(test, lambda p: p in facts.centres and p not in facts.centres_before), None
    if fact == "loses":
        return _all_or_any(test, lambda p: p in facts.centres_before and p not in facts.centres), None
    if fact == "gained":
        return _counted(test, len(facts.centres - facts.centres_before)), None
    if fact == "lost":
        return _counted(test, len(facts.centres_before - facts.centres)), None
    return False, f"unknown test {fact!r}"
