"""Interpretation policy (the order-interpretation, retreat and adjustment options):
one `Parsed` order + the position -> a `Verdict`.

Each house-rule decision names its option; `options.clause` turns it into the profile's clause
for the player's confirmation. Mistakes are kept apart: *invalid* (the words are not an order),
*illegal* (an order the position does not allow) and *ambiguous* (two readings, never guessed
unless the profile presumes a complete valid set, 001 II(1)).

This module reads a line by its phase and order form; the forms live beside it: verdict.py (the
result and the choices every form shares), units.py (which unit a line names), moves.py (moves and
the backing-order logic), support.py (supports and convoys), retreat_adjustment.py (the minor turns).
"""

from __future__ import annotations

from dataclasses import replace

from gmserver.rules.order import Order
from gmserver.rules.position import unit_location, unit_province
from gmserver.rules.reading.grammar import Parsed
from gmserver.rules.reading.moves import _move, _other_orders
from gmserver.rules.reading.retreat_adjustment import read_adjustment, read_retreat
from gmserver.rules.reading.support import _convoy, _support
from gmserver.rules.reading.provinces import Place
from gmserver.rules.reading.units import _check_own_coast, _own_unit, _your_units, unit_kind_word
from gmserver.rules.reading.verdict import (
    Context, Notes, Rejected, Verdict, _did_you_mean, _hold, _unit, _verdict, contingent_verdict,
)


# ------------------------------------------------------------------------------------------
# Movement phase


def read_movement(parsed: Parsed, ctx: Context, suggest: bool = True) -> Verdict:
    notes = Notes()
    unit: str | None = None
    try:
        if parsed.kind == "build":
            # a build names a centre, not a unit of the player's: nothing to look up now
            return _contingent(parsed, ctx)
        unit = _own_unit(parsed.unit, ctx, notes)
        _check_own_coast(parsed.unit, unit, ctx, notes)
        if parsed.kind in ("retreat", "disband"):
            return _contingent(parsed, ctx)
        if parsed.error and parsed.kind == "move":
            raise Rejected(f"{parsed.error[:1].upper()}{parsed.error[1:]}.", unit=unit, moves=True)
        if parsed.error:
            raise Rejected(f"{parsed.error[:1].upper()}{parsed.error[1:]}.", unit=unit)
        if parsed.kind is None or parsed.kind == "nonsense":
            return _nonsense(parsed, unit, ctx, notes)
        if parsed.kind == "hold":
            return _verdict(_hold(unit), unit, "hold", notes)
        if parsed.kind == "move":
            return _move(parsed, unit, ctx, notes)
        if parsed.kind == "support":
            return _support(parsed, unit, ctx, notes)
        if parsed.kind == "convoy":
            return _convoy(parsed, unit, ctx, notes)
        return _nonsense(parsed, unit, ctx, notes)
    except Rejected as problem:
        chosen = _only_valid_unit(parsed, problem, ctx) if suggest else None
        if chosen is not None:
            return chosen
        unit = unit or problem.unit
        hint = _did_you_mean(parsed, problem, ctx, read_movement) if suggest else ""
        message = " ".join(notes.messages + [problem.message + hint])
        if unit is not None and (problem.moves or parsed.kind == "move"):
            # 000 III(5), 003 [10 b]: a unit ordered to move stays ordered to move, whatever made
            # the order void (a wrong or missing unit type or coast as much as an impossible route)
            return _impossible_move(unit, problem, ctx, notes, message)
        if unit is None:
            rules = "; ".join(r for r in (notes.rule, problem.rule) if r) or None
            return Verdict("rejected", None, None, parsed.kind or "hold", rules, message, valid=False,
                           unsure=problem.unsure)
        rules = "; ".join(dict.fromkeys(r for r in (notes.rule, problem.rule, _hold_rule(ctx)) if r))
        return Verdict("rejected", _hold(unit), unit, parsed.kind or "hold", rules,
                       f"{message} {unit_kind_word(unit).capitalize()} "
                       f"{ctx.name(unit_location(unit))} holds.", valid=False, unsure=problem.unsure)


def _only_valid_unit(parsed: Parsed, problem: Rejected, ctx: Context) -> Verdict | None:
    """001 II(1), 002 by analogy (complete_valid_set): of the player's units a fragment could stand
    for ("A Bu - Gre": Budapest or Bulgaria), the one whose reading is a valid order is chosen; of
    several, the one consistent with the player's other orders (`_consistent_unit`, on the reader's
    second pass); otherwise the line stays ambiguous."""
    if not ctx.complete_valid_set or not problem.repair or "units" not in problem.repair or parsed.unit is None:
        return None
    valid = []
    for candidate in problem.repair["units"]:
        province = unit_province(candidate)
        ref = replace(parsed.unit, place=Place(province, (province,)))
        verdict = read_movement(replace(parsed, unit=ref), ctx, suggest=False)
        if verdict.valid and verdict.status in ("accepted", "corrected"):
            valid.append((candidate, verdict))
    why = "the only reading that makes a valid order"
    if len(valid) > 1:
        if ctx.others is None:
            problem.unsure = True  # the reader reads the line again once the other lines are known
            return None
        valid, why = _consistent_unit(valid, ctx)
    if len(valid) != 1:
        return None
    unit, verdict = valid[0]
    note = (f"'{parsed.unit.place.written.title()}' could be {_your_units(list(problem.repair['units']), ctx)}; "
            f"read as your {unit_kind_word(unit)} in {ctx.name(unit_province(unit))}, {why}.")
    rules = (ctx.cite("unit_location_matching"), ctx.cite("interpretation_presumption"), verdict.rule)
    return replace(verdict, status="corrected", rule="; ".join(dict.fromkeys(r for r in rules if r)),
                   message=" ".join(m for m in (note, verdict.message) if m))


def _consistent_unit(valid: list[tuple[str, Verdict]], ctx: Context) -> tuple[list[tuple[str, Verdict]], str]:
    """001 II(1) "consistent with the player's other orders" for a fragment two units fit: a reading
    that gives a second order to a unit another line already orders is not; where another line
    supports or convoys one of the readings ("A Ser S A Bul - Rum") only that one is. One left: it,
    with the orders that decided; otherwise none."""
    others = list(_other_orders(ctx))
    candidates = {_unit(c) for c, _ in valid}
    ordered = [o for o in others if o.unit in candidates]  # an order for one of the units themselves
    free = [(c, v) for c, v in valid if all(o.unit != _unit(c) for o in ordered)]
    backed = [(c, v, order) for c, v in valid if (order := _backing(c, v, others)) is not None]
    if backed:
        # a backed reading must also be free; two backed readings, or one not free, decide nothing
        if len(backed) != 1 or backed[0][:2] not in free:
            return [], ""
        unit, verdict, order = backed[0]
        return [(unit, verdict)], f"the only reading consistent with your order {order}"
    if len(free) != 1:
        return [], ""
    return free, f"the only reading consistent with your order {' and '.join(str(o) for o in ordered)}"


def _backing(unit: str, verdict: Verdict, others: list[Order]) -> Order | None:
    """The player's support or convoy on another line that matches this reading's order, if any."""
    order, mover = verdict.order, _unit(unit)
    if order is None:
        return None
    for other in others:
        if other.other != mover:
            continue
        if order.action == "move" and other.action in ("support_move", "convoy") \
                and other.target_province == order.target_province:
            return other
        if order.action != "move" and other.action == "support_hold":
            return other
    return None


def _hold_rule(ctx: Context) -> str:
    """The profile's clause making a void order a hold (000 III(5), 001 III(1), 002 FORMAT 5,
    003 [10 b], 004 I(3); DATC 4.E.1 for the standard profile)."""
    rule = ctx.cite("nonsense_order_treatment")
    return ctx.cite("impossible_move_treatment") if " = " in rule else rule


def _contingent(parsed: Parsed, ctx: Context) -> Verdict:
    return contingent_verdict(parsed.kind or "hold", ctx)


def _nonsense(parsed: Parsed, unit: str, ctx: Context, notes: Notes) -> Verdict:
    words = " ".join(parsed.extra).lower() or "nothing"
    if ctx.opt("nonsense_order_treatment") == "ignore_line":
        return Verdict("ignored", None, None, "nonsense", ctx.cite("nonsense_order_treatment"),
                       f"'{words}' is not an order; the line was ignored.")
    notes.add(ctx.cite("nonsense_order_treatment"), f"'{words}' is not an order: read as {_hold(unit)}.")
    return Verdict("corrected", _hold(unit), unit, "hold", notes.rule, notes.message)


def _impossible_move(unit: str, problem: Rejected, ctx: Context, notes: Notes, message: str) -> Verdict:
    """impossible_move_treatment / move_to_own_province: the unit stays; may it be supported?"""
    option_name = "move_to_own_province" if problem.rule == "own" else "impossible_move_treatment"
    treatment = ctx.opt(option_name)
    upstream = problem.rule if problem.rule != "own" else None
    rules = [r for r in (notes.rule, upstream, ctx.cite(option_name)) if r]
    if treatment == "failed_move_unsupportable":
        tail = "It stays where it is and cannot receive support to hold."
    else:
        tail = f"Read as {_hold(unit)}, which may receive support to hold."
    return Verdict("rejected", _hold(unit), unit, "move", "; ".join(dict.fromkeys(rules)),
                   f"{message} {tail}", valid=False, moves=True,
                   unsupportable=treatment == "failed_move_unsupportable", unsure=problem.unsure)


def read_order(parsed: Parsed, ctx: Context) -> Verdict:
    phase_type = ctx.board.position.phase_type
    if phase_type == "R":
        return read_retreat(parsed, ctx)
    if phase_type == "A":
        return read_adjustment(parsed, ctx)
    if parsed.kind == "waive":
        return _contingent_waive(ctx)
    return read_movement(parsed, ctx)


def _contingent_waive(ctx: Context) -> Verdict:
    return contingent_verdict("waive", ctx, "A waive for the adjustment turn")
