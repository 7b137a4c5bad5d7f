"""One message's verdicts -> one order per unit (multiple orders for one unit,
retreats and adjustments: 000 III(6), 000 V(2), 002 FORMAT 4, 003 [10 a], 004 III(2)).

Applies, per unit: identical orders collapse (003 [10 a], [P] everywhere); `hold_plus_support`
(002 FORMAT 8); `multiple_orders_same_unit` (first, last, conflict_holds, 003 [10 a]
identical_ok_else_stand); implied orders (002 FORMAT 9); in retreat phases
`multiple_retreat_orders`; in adjustment phases `multiple_builds_same_centre` and
`excess_adjustment_order`.
"""

from __future__ import annotations

from dataclasses import replace

from gmserver.rules.order import Order, Unit
from gmserver.rules.reading.interpret import Context, Verdict
from gmserver.rules.reading.options import profile_of
from gmserver.rules.reading.verdict import _hold, _unit

Numbered = tuple[int, Verdict]  # (index in the message's verdict list, verdict)


def combine(verdicts: list[Verdict], ctx: Context) -> tuple[list[Verdict], list[Order], set[Unit]]:
    """(verdicts with the losers marked, the orders, units whose hold supports are void)."""
    kind = ctx.board.position.phase_type
    if kind == "A":
        out, orders = _adjustments(verdicts, ctx)
        return out, orders, set()
    return _per_unit(verdicts, ctx, retreat=kind == "R")


def _per_unit(verdicts: list[Verdict], ctx: Context, retreat: bool) -> tuple[list[Verdict], list[Order], set[Unit]]:
    out = list(verdicts)
    by_unit: dict[str, list[int]] = {}
    for index, verdict in enumerate(verdicts):
        if verdict.unit is not None and verdict.order is not None:
            by_unit.setdefault(verdict.unit, []).append(index)
    chosen: dict[str, Order] = {}
    unsupportable: set[str] = set()
    for unit, indexes in by_unit.items():
        order, stand_unsupportable = (_retreat_choice if retreat else _movement_choice)(unit, indexes, out, ctx)
        chosen[unit] = order
        if stand_unsupportable:
            unsupportable.add(unit)
    if not retreat:
        _void_hold_supports(out, chosen, unsupportable)
        _coast_mismatched_supports(out, chosen, ctx)
        _implied(out, chosen, ctx)
        _hold_supports_of_movers(out, chosen, ctx)
    if ctx.opt("report_order_sequence") == "as_written":
        orders = list(chosen.values())  # dict order: first line that ordered each unit
    else:
        orders = sorted(chosen.values(), key=_sort_key)  # canonical (002 FORMAT 3)
    return out, orders, {_unit(u) for u in unsupportable if u in chosen}


def _void_hold_supports(out: list[Verdict], chosen: dict[str, Order], unsupportable: set[str]) -> None:
    """A support to hold a unit whose move is void and leaves it unable to receive support
    (000 III(5), 003 [10 b]) is confirmed void at once, not accepted and voided at adjudication."""
    why = {v.unit: v.rule for v in out if v.unsupportable and v.unit in unsupportable}
    for index, verdict in enumerate(out):
        order = verdict.order
        if (order is None or order.action != "support_hold" or order.other is None
                or verdict.unit is None or chosen.get(verdict.unit) is not order):
            continue
        other = str(order.other)
        if other not in unsupportable:
            continue
        hold = _hold(verdict.unit)
        out[index] = replace(verdict, status="rejected", order=hold, rule=why.get(other), valid=False, message=(
            f"{other} cannot receive support to hold: its own order is a void move. "
            f"The support is void; {verdict.unit} holds."))
        chosen[verdict.unit] = hold


# A unit ordered to move cannot receive support to hold: the same in every profile (the engine
# voids such a support), cited where the profile says it, otherwise from the rulebook.
_MOVER_HOLD_SUPPORT_CLAUSE = {"mhr": "000 III(5)", "scorpion": "003 [10 b]", "email_rules": "002 Q&A 4"}


def _hold_supports_of_movers(out: list[Verdict], chosen: dict[str, Order], ctx: Context) -> None:
    """A support to hold one of the player's own units that the set orders to move (000 III(5),
    003 [10 b], 002 Q&A 4; RB2000 "a unit ordered to move can only be supported by a support order
    that matches the move", DATC 6.D.7) is void: said at once, not accepted and voided at
    adjudication. Runs after `_implied`, so a move implied by another support (002 FORMAT 9) counts."""
    rule = _MOVER_HOLD_SUPPORT_CLAUSE.get(profile_of(ctx.ruleset) or "", "RB2000")
    for index, verdict in enumerate(out):
        order = verdict.order
        if (order is None or order.action != "support_hold" or order.other is None
                or verdict.unit is None or chosen.get(verdict.unit) is not order):
            continue
        move = chosen.get(str(order.other))
        if move is None or move.action != "move" or move.target_province is None:
            continue
        hint = ""
        if ctx.board.reaches_for_support(verdict.unit, move.target_province):
            hint = f" Did you mean {Order('support_move', order.unit, move.target, move.unit)}?"
        why = (f"{order.other} cannot receive support to hold: it is ordered to move ({move}). "
               f"The support is void; {verdict.unit} holds.{hint}")
        hold = _hold(verdict.unit)
        out[index] = replace(verdict, status="rejected", order=hold, valid=False,
                             rule="; ".join(dict.fromkeys(r for r in (verdict.rule, rule) if r)),
                             message=" ".join(m for m in (verdict.message, why) if m))
        chosen[verdict.unit] = hold


def _coast_mismatched_supports(out: list[Verdict], chosen: dict[str, Order], ctx: Context) -> None:
    """A support of the player's own fleet to the coast its move does not name: what
    coast_support_mismatch does at adjudication (turn.void_mismatched_coast_supports) is said now."""
    moves = {str(o.unit): o for o in chosen.values() if o.action == "move" and o.unit is not None
             and o.unit.is_fleet and o.target != o.target_province}
    for index, verdict in enumerate(out):
        order = verdict.order
        if order is None or order.action != "support_move" or verdict.unit is None \
                or chosen.get(verdict.unit) is not order or order.other is None:
            continue
        move = moves.get(str(order.other))
        if move is None or move.target_province != order.target_province or move.target == order.target \
                or order.target == order.target_province:
            continue  # a support naming no coast is no mismatch (DATC 6.B.7; coast_support_omitted decides it)
        rule = ctx.cite("coast_support_mismatch")
        if ctx.opt("coast_support_mismatch") == "invalid":
            hold = _hold(verdict.unit)
            out[index] = replace(verdict, status="rejected", order=hold, rule=rule, valid=False, message=(
                f"{move.unit} moves to {ctx.name(move.target)}, not {ctx.name(order.target)}: a support naming "
                f"the other coast is void. {verdict.unit} holds."))
            chosen[verdict.unit] = hold
        else:
            out[index] = replace(verdict, status="corrected", rule=rule, message=(
                f"{move.unit} moves to {ctx.name(move.target)}; the support counts for that move."))


def _is_hold(order: Order | None) -> bool:
    return order is not None and order.action == "hold"


def _sort_key(order: Order) -> tuple[str, str]:
    return (order.province or "~", str(order))


def _override(out: list[Verdict], index: int, rule: str, message: str) -> None:
    verdict = out[index]
    if not verdict.valid and verdict.message:
        # a void line: say why it was void, not the fallback it would have given the unit
        why = verdict.message.split(". ")[0].rstrip(".")
        text = f"{why}. Not used either way: {message}"
        rules = "; ".join(dict.fromkeys(r for r in (verdict.rule, rule) if r))
        out[index] = replace(verdict, status="rejected", order=None, rule=rules, message=text)
        return
    out[index] = replace(verdict, status="rejected", order=None, rule=rule,
                         message=(f"Read as {verdict.order}; not used: {message}" if verdict.order else message))


def _movement_choice(unit: str, indexes: list[int], out: list[Verdict], ctx: Context) -> tuple[Order, bool]:
    if len(indexes) == 1:
        return out[indexes[0]].order, out[indexes[0]].unsupportable
    # 003 [10 a], [P] in every profile: identical orders count once (not a mistake); cited by the
    # profile's own multiple-orders clause, whichever copy it keeps being the same order. Under
    # `last` the last copy is the one kept, so that it keeps its place (004 I(5)). Orders are the
    # same when they read the same: an impossible move and a hold both leave "A PAR H" but are
    # different orders (003 [10 a]: a unit ordered to move cannot be supported to hold).
    last = ctx.opt("multiple_orders_same_unit") == "last"
    distinct: list[int] = []
    for i in (reversed(indexes) if last else indexes):
        if all(_reading(out[j]) != _reading(out[i]) for j in distinct):
            distinct.append(i)
        else:
            where = "later" if last else "earlier"
            out[i] = replace(out[i], status="ignored", order=None, rule=ctx.cite("multiple_orders_same_unit"),
                             message=f"The same order for {unit} is given {where}; identical orders count once.")
    candidates = sorted(distinct)
    if ctx.opt("multiple_orders_skip_illegal"):
        legal = [i for i in candidates if out[i].valid]
        if legal:
            for i in candidates:
                if i not in legal:
                    _override(out, i, "multiple_orders_skip_illegal",
                              f"{unit} has a valid order elsewhere; this void one is skipped.")
            candidates = legal
    if ctx.opt("hold_plus_support") == "support_wins":
        supports = [i for i in candidates if out[i].kind == "support" and out[i].valid]
        holds = [i for i in candidates if out[i].kind == "hold" and out[i].valid and _is_hold(out[i].order)]
        if supports and holds:
            rule = ctx.cite("hold_plus_support")
            for i in holds:
                _override(out, i, rule, f"{unit} is also ordered to support; hold plus support is a support.")
            candidates = [i for i in candidates if i not in holds]
    if len(candidates) == 1:
        return out[candidates[0]].order, out[candidates[0]].unsupportable
    policy = ctx.opt("multiple_orders_same_unit")
    rule = ctx.cite("multiple_orders_same_unit")
    if policy in ("first", "last"):
        keep = candidates[0] if policy == "first" else candidates[-1]
        where = "first" if policy == "first" else "last"
        for i in candidates:
            if i != keep:
                _override(out, i, rule, f"{unit} has several orders; the {where} one is used ({out[keep].order}).")
        return out[keep].order, out[keep].unsupportable
    # conflict_holds (DATC 4.D.3) or identical_ok_else_stand (003 [10 a]): the unit stands
    moving = any(out[i].moves for i in candidates)
    stand_unsupportable = policy == "identical_ok_else_stand" and moving
    tail = ("it stands and cannot receive support to hold." if stand_unsupportable
            else "it holds and may receive support to hold.")
    for i in candidates:
        _override(out, i, rule, f"{unit} has different orders; {tail}")
    return _hold(unit), stand_unsupportable


def _reading(verdict: Verdict) -> tuple:
    """What makes two orders for one unit the same order."""
    return (verdict.order, verdict.kind, verdict.valid, verdict.moves, verdict.message if not verdict.valid else None)


def _retreat_choice(unit: str, indexes: list[int], out: list[Verdict], ctx: Context) -> tuple[Order, bool]:
    if len(indexes) == 1:
        return out[indexes[0]].order, False
    policy = ctx.opt("multiple_retreat_orders")
    rule = ctx.cite("multiple_retreat_orders")
    if policy == "priority_list":
        # 003 [5]: retreat orders "in the order of relevance": the first legal one is used
        legal = [i for i in indexes if out[i].valid]
        keep = legal[0] if legal else indexes[0]
        for i in indexes:
            if i == keep:
                continue
            why = (out[i].message or "").split(";")[0].rstrip(".")
            if out[i].valid:
                message = (f"Read as {out[i].order}; not used: an earlier retreat on your list is used "
                           f"({out[keep].order}).")
            elif legal:
                message = f"{why}: not a legal retreat, so the next one on your list is used ({out[keep].order})."
            else:
                message = f"{why}: no retreat on your list is legal, so the unit is disbanded."
            out[i] = replace(out[i], status="rejected", order=None, rule=rule, message=message)
        return out[keep].order, False
    keep = indexes[0] if policy == "first" else indexes[-1]
    for i in indexes:
        if i != keep and out[i].order != out[keep].order:
            _override(out, i, rule, f"{unit} has several retreat orders; {out[keep].order} is used.")
        elif i != keep:
            _override(out, i, rule, "the same order was given on another line.")
    return out[keep].order, False


def _implied(out: list[Verdict], chosen: dict[str, Order], ctx: Context) -> None:
    """002 FORMAT 9: a support (or, as the GM chooses, a convoy) of the player's own unordered
    unit implies that unit's move; an explicit order always wins."""
    policy = ctx.opt("implied_orders")
    if policy == "none":
        return
    rule = ctx.cite("implied_orders")
    for index, verdict in enumerate(out):
        if verdict.implied is None or verdict.status not in ("accepted", "corrected"):
            continue
        if verdict.kind == "convoy" and policy != "from_own_support_and_convoy":
            continue
        moved = str(verdict.implied.unit)  # the position's own notation for the unit, the key of `chosen`
        if moved in chosen or moved not in ctx.board.position.units.get(ctx.power, ()):
            continue
        chosen[moved] = verdict.implied
        message = (verdict.message + " " if verdict.message else "") + f"Implied order: {verdict.implied}."
        out[index] = replace(verdict, status="corrected", rule="; ".join(r for r in (verdict.rule, rule) if r),
                             message=message)


def _adjustments(verdicts: list[Verdict], ctx: Context) -> tuple[list[Verdict], list[Order]]:
    out = list(verdicts)
    due = ctx.board.adjustment(ctx.power)
    usable = [i for i, v in enumerate(out) if v.status in ("accepted", "corrected") and v.order]
    bottom_up = ctx.opt("excess_adjustment_order") == "bottom_up"
    orders: list[Order] = []
    if due > 0:
        # multiple builds in one centre: the first top-down, or bottom-up (004 III(3))
        order_of_sites = list(reversed(usable)) if ctx.opt("multiple_builds_same_centre") == "first_bottom_up" else usable
        seen: dict[str, int] = {}
        rule_site = ctx.cite("multiple_builds_same_centre")
        dropped: set[int] = set()
        for i in order_of_sites:
            site = out[i].site
            if site is None:
                continue
            if site in seen:
                _override(out, i, rule_site, f"another build for {ctx.name(site)} is used ({out[seen[site]].order}).")
                dropped.add(i)
            else:
                seen[site] = i
        sequence = [i for i in usable if i not in dropped]
        if bottom_up:
            sequence.reverse()
        rule = ctx.cite("excess_adjustment_order")
        for count, i in enumerate(sequence):
            if count < due:
                orders.append(out[i].order)
            else:
                _override(out, i, rule, f"you have {due} build{'s' if due > 1 else ''}; the excess is not used.")
    elif due < 0:
        sequence = list(usable)
        if bottom_up:
            sequence.reverse()
        rule = ctx.cite("excess_adjustment_order")
        seen_units: set[Order] = set()
        for i in sequence:
            if out[i].order in seen_units:
                _override(out, i, rule, "the same removal was given on another line.")
                continue
            if len(seen_units) < -due:
                seen_units.add(out[i].order)
                orders.append(out[i].order)
            else:
                _override(out, i, rule, f"you have {-due} removal{'s' if due < -1 else ''}; the excess is not used.")
    orders.sort(key=lambda o: (o.action == "waive", _sort_key(o)))
    return out, orders
