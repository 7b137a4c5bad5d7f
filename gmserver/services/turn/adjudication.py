"""One phase through the engine with the house rules' defaults: complete the orders
(`rules.defaults`), adjudicate them (`engine.adjudicate`, which refuses anything incomplete) and
mark in the outcome which orders the server supplied, so reports say "no order received: holds"
or which clause chose a removal. No database: `services.turn.turns` calls it inside its transaction,
tests and benchmarks call it directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from gmserver import engine
from gmserver.rules.defaults import CompleteOrders, complete_orders
from gmserver.rules.order import Order
from gmserver.rules.position import PhaseOutcome, Position
from gmserver.rules.ruleset import Ruleset


def completed(state: Mapping[str, Any], orders: Mapping[str, Sequence[Order | str]], ruleset: Ruleset,
              civil_disorder: frozenset[str] = frozenset(), *, position: Position | None = None,
              ) -> tuple[dict[str, tuple[Order | str, ...]], CompleteOrders]:
    """(orders for the engine, the completion) for the phase of `state`. `orders` are the Order
    values on file (services.turn.turns) or engine notation (tests, benchmarks); a text line that is
    not engine notation is passed on as it is (the engine drops it) and leaves its unit
    unordered, so it gets the default. The orders for the engine are the completion's Order
    values, handed on as they are (`engine.adjudicate` writes them in its notation), with those
    lines. `position`: `engine.position_from_state(state)`, where the caller has read it (to give
    `engine.adjudicate` too)."""
    position = engine.position_from_state(state) if position is None else position
    kind = position.phase_type
    parsed = {power: [o for line in lines if (o := _as_order(line, kind)) is not None]
              for power, lines in orders.items()}
    complete = complete_orders(position, parsed, ruleset, engine.map_info(), civil_disorder)
    for_engine: dict[str, tuple[Order | str, ...]] = {power: power_orders
                                                      for power, power_orders in complete.orders.items() if power_orders}
    for power, lines in orders.items():  # keep any unparsed line
        if power in civil_disorder:
            continue
        kept = [line for line in lines if isinstance(line, str) and _as_order(line, kind) is None]
        if kept:
            for_engine[power] = tuple(for_engine.get(power, ())) + tuple(kept)
    return for_engine, complete


def _as_order(line: Order | str, kind: str) -> Order | None:
    """The order for the engine: a move's written route (000 VI(3)) was carried out before
    (rules/convoy_routes.py), so it goes "by convoy", as the engine would read it anyway."""
    order = line if isinstance(line, Order) else Order.parse_or_none(line, kind)
    return dataclasses.replace(order, route=()) if order is not None and order.route else order


def adjudicate_with_defaults(state: Mapping[str, Any], orders: Mapping[str, Sequence[Order | str]], ruleset: Ruleset,
                             civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome:
    """`engine.adjudicate` of the orders completed by the ruleset's defaults, defaults marked."""
    position = engine.position_from_state(state)  # read once: the completion and the engine both need it
    for_engine, complete = completed(state, orders, ruleset, civil_disorder, position=position)
    return mark_defaults(engine.adjudicate(state, for_engine, position=position), complete)


def mark_defaults(outcome: PhaseOutcome, complete: CompleteOrders) -> PhaseOutcome:
    """OrderOutcome.defaulted (and the note) for every order the server supplied; removals the
    rules chose are listed as the report's "removed by the rules"."""
    notes = complete.default_notes()
    if not notes:
        return outcome
    marked = []
    for o in outcome.orders:
        key = (o.power, str(o.order))
        if key in notes:
            o = dataclasses.replace(o, defaulted=True, note=notes[key] or o.note)
        marked.append(o)
    removals = tuple(sorted(str(d.order.unit) for ds in complete.defaults.values() for d in ds
                            if d.order.action == "remove" and d.order.unit is not None))
    return dataclasses.replace(outcome, orders=tuple(marked),
                               engine_removals=tuple(sorted(set(outcome.engine_removals) | set(removals))))


def with_unused_lines(outcome: PhaseOutcome, lines: Mapping[str, Sequence[Mapping[str, Any]]]) -> PhaseOutcome:
    """Say in the report what was ordered where a line of the set could not be used, and why: the
    reader put a hold or a disband in its place (an impossible support, an illegal retreat) or
    nothing at all (a build that cannot be made, shown with the builds not used). `lines`: power ->
    the line readings of its sets that count (as stored: text, status, order, message), newest set
    first."""
    if not lines:
        return outcome
    marked = []
    for o in outcome.orders:
        line = next((line for line in lines.get(o.power, ()) if line.get("order") == str(o.order)), None)
        if line is not None and _rejected(line):
            o = dataclasses.replace(o, note="; ".join(filter(None, (o.note, _unused(line)))))
        marked.append(o)
    builds = tuple((power, _unused(line)) for power, power_lines in sorted(lines.items()) for line in power_lines
                   if outcome.before.phase_type == "A" and _rejected(line) and line.get("order") is None
                   and str(line.get("text", "")).strip().lower().startswith("build"))
    return dataclasses.replace(outcome, orders=tuple(marked), unused_builds=builds)


def _rejected(line: Mapping[str, Any]) -> bool:
    return line.get("status") == "rejected" and bool(line.get("message"))


def _unused(line: Mapping[str, Any]) -> str:
    """"ordered: F BEL S A BUR; not possible: F BEL cannot support A BUR: ..." (the reader's words)."""
    return f"ordered: {line['text']}; not possible: {str(line['message']).rstrip('.')}"
