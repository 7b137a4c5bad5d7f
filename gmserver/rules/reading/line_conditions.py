"""Conditions on a line: stripped from (or voiding) a movement order (`conditional_movement_orders`),
kept with a contingent retreat or adjustment order (`contingent_minor_orders`), or tested against the
adjudicated facts in the minor turn itself (`conditional_adjustment_orders`, objective_only)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gmserver.rules.order import Order
from gmserver.rules.reading.condition_facts import Facts, TurnFacts, evaluate, facts_for
from gmserver.rules.reading.conditions import Clause, Unreadable, parse_condition, split_conditional
from gmserver.rules.reading.grammar import CONDITION, Parsed, parse_segment
from gmserver.rules.reading.interpret import Context, Verdict, contingent_verdict, read_order
from gmserver.rules.reading.line_orders import _ignored, _read_words
from gmserver.rules.reading.options import option


@dataclass
class _LineState:
    """What reading one line may need from the lines before it (conditions, 2.3 objective_only)."""

    ctx: Context
    turn: TurnFacts | None
    contingent_use: bool  # reading contingent lines in the minor turn they were kept for
    held: bool = False  # a condition has held since the last "otherwise" line
    _facts: Facts | None = None

    @property
    def facts(self) -> Facts:
        if self._facts is None:
            board = self.ctx.board
            due = board.adjustment(self.ctx.power) if board.position.phase_type == "A" else None
            self._facts = facts_for(board.position, self.ctx.power, self.turn, due)
        return self._facts


_IF_WORDS = frozenset({"IF", "WHEN", "PROVIDED"})
_ELSE_WORDS = frozenset({"OTHERWISE", "ELSE"})
_TRIM = (",", ";", "(", ")", ":")


def _strip_condition(words: list[str], ctx: Context) -> tuple[list[str], tuple[str, str] | None, list[Verdict] | None]:
    """Movement phases, conditional_movement_orders: 000 III(7) strip_condition keeps the base
    order; void_line: the line is void.

    The base order is the one that applies when the other player's action does not happen, as in
    000 III(7)'s example ("A Par to Gas UNLESS German A Mun -> Bur, in which case A Par -> Bur"
    is A Par - Gas); so "If German A Mun -> Bur, A Par -> Bur, otherwise A Par -> Gas" and
    "A Par -> Bur if German A Mun -> Bur, otherwise A Par -> Gas", which say the same, are A Par -
    Gas too. A line with one order and a condition ("If ..., A Par - Pic") keeps that order."""
    k = next(i for i, w in enumerate(words) if w in CONDITION)
    alternative: list[str] = []  # the order that depends on the condition, dropped with it
    if k == 0:
        # "If <condition>, <order> [otherwise <order>]"
        cut = next((i for i, w in enumerate(words) if w in (",", "THEN", ":", ";") and i > 0), None)
        rest = words[cut + 1:] if cut is not None else []
        stop = next((i for i, w in enumerate(rest) if w in CONDITION), len(rest))
        condition = words[:cut + 1 if cut is not None else len(words)]
        base, tail = rest[:stop], rest[stop:]
        if tail and tail[0] in _ELSE_WORDS and _trim(tail[1:]):
            alternative, base = base, tail[1:]
    else:
        base, condition = words[:k], words[k:]
        j = next((i for i, w in enumerate(condition) if w in _ELSE_WORDS), None)
        case = next((i for i in range(len(condition) - 2) if condition[i:i + 3] == ["IN", "WHICH", "CASE"]), None)
        if words[k] in _IF_WORDS and j is not None and _trim(condition[j + 1:]):
            # "<order> if <condition>, otherwise <order>"
            alternative, base, condition = base, condition[j + 1:], condition[:j]
        elif case is not None and _trim(condition[case + 3:]):
            # "<order> unless <condition>, in which case <order>" (000 III(7))
            alternative, condition = condition[case + 3:], condition[:case]
    base = _trim(base)
    written = _text(condition)
    if option(ctx.ruleset, "conditional_movement_orders") == "strip_condition":
        if not base:
            return base, None, _ignored("A condition without an order I can read.")
        rule = ctx.cite("conditional_movement_orders")
        if alternative:
            note = (f"The condition ('{written}') and the order depending on it ('{_text(alternative)}') were "
                    f"dropped; the order for the other case is used.")
        else:
            note = f"The condition ('{written}') was dropped; the order is used as if it had none."
        return base, (rule, note), None
    example = _canonical(base, ctx) or _canonical(alternative, ctx)
    hint = f" Write one order for the unit, without a condition (e.g. {example})." if example else ""
    return base, None, [Verdict("rejected", None, None, "hold", ctx.cite("conditional_movement_orders"),
                                f"Conditional orders are not accepted ('{_text(words)}'); the line is void and the "
                                f"unit holds unless it has another order.{hint}", valid=False)]


def _canonical(words: Sequence[str], ctx: Context) -> Order | None:
    """The order some words make, if they make exactly one valid order (for a "e.g.")."""
    parsed = parse_segment(_trim(words), ctx.table, ctx.policy, ctx.powers) if words else []
    if len(parsed) != 1 or not parsed[0].complete:
        return None
    verdict = read_order(parsed[0], ctx)
    return verdict.order if verdict.status in ("accepted", "corrected") else None


def _trim(words: Sequence[str]) -> list[str]:
    words = list(words)
    while words and words[0] in _TRIM:
        words = words[1:]
    while words and words[-1] in _TRIM:
        words = words[:-1]
    return words


def _text(words: Sequence[str]) -> str:
    """Tokens back to readable text for a message: "if german a mun - bur, in which case ..."."""
    return re.sub(r" ([,;:)])", r"\1", " ".join(_trim(words))).lower()


# ------------------------------------------------------------------------------------------
# Retreat and adjustment orders with conditions (contingent_minor_orders, 000 II(5), 001 II(6);
# conditional_adjustment_orders; 000 II(5), 001 II(6), 001 III(10), 003 [5 a])

_NOT = re.compile(r"n['’]t\b", re.IGNORECASE)
_MINOR_KINDS = frozenset({"retreat", "build", "disband", "waive"})
_MINOR_CONDITION_WORDS = frozenset({"DISLODGED", "RETREAT", "BUILD", "BUILDS", "REMOVAL", "REMOVALS"})


def _parse(words: Sequence[str], ctx: Context) -> list[Parsed]:
    return parse_segment(list(words), ctx.table, ctx.policy, ctx.powers) if words else []


def _starts_minor_order(words: Sequence[str], ctx: Context) -> bool:
    """A complete retreat, build, removal or waive starts here and runs to the end of the line."""
    parsed = _parse(words, ctx)
    return bool(parsed) and all(p.complete and not p.extra for p in parsed) and \
        any(p.kind in _MINOR_KINDS or (p.kind == "move" and p.unit is not None) for p in parsed)


def _split(words: list[str], ctx: Context) -> list[Clause]:
    return split_conditional(words, lambda tail: _starts_minor_order(tail, ctx))


def _conditional_rule(ctx: Context) -> str:
    # no document uses `none`: cite the option itself, even where a GM override changed a profile
    if option(ctx.ruleset, "conditional_adjustment_orders") == "none":
        return "conditional_adjustment_orders = none"
    return ctx.cite("conditional_adjustment_orders")


def _contingent_conditional(words: list[str], ctx: Context) -> list[Verdict] | None:
    """A movement-phase line whose orders are retreats or adjustments under a condition ("If
    dislodged: A Mun R Boh", "If I gain a centre, build A Par", "Otherwise waive"): a contingent
    line, kept whole (000 II(5), 001 II(6)); None if it is a conditional movement order."""
    clauses = _split(words, ctx)
    kinds = {p.kind for clause in clauses for p in _parse(clause.order, ctx)}
    condition_words = {w for clause in clauses for w in clause.condition}
    if not (kinds & _MINOR_KINDS or condition_words & _MINOR_CONDITION_WORDS):
        return None
    warnings = []
    if option(ctx.ruleset, "conditional_adjustment_orders") == "none":
        warnings.append(f" Conditions on retreat and adjustment orders are not accepted in this game, so the line "
                        f"will be void [{_conditional_rule(ctx)}].")
    else:
        for clause in clauses:
            if clause.kind != "if":
                continue
            test = parse_condition(clause.condition, table=ctx.table, policy=ctx.policy, powers=ctx.powers,
                                   power=ctx.power, negated=clause.negated)
            if isinstance(test, Unreadable):
                warnings.append(f" Its condition ('{clause.written}') cannot be tested ({test.reason}), so it will "
                                f"count as false [{_conditional_rule(ctx)}].")
    return [contingent_verdict("retreat", ctx, "A conditional retreat or adjustment order", "".join(warnings))]


def _conditional_minor(words: list[str], ctx: Context, state: _LineState) -> list[Verdict]:
    """A retreat or adjustment line with a condition, in its own turn (objective_only, 2.3): the
    condition is tested against the adjudicated facts; lines are taken top to bottom; an
    "otherwise" line applies when no condition held since the previous "otherwise" [P: each
    "otherwise" closes a chain]; a condition that cannot be tested is false and reported."""
    rule = _conditional_rule(ctx)
    out: list[Verdict] = []
    for clause in _split(words, ctx):
        out.extend(_clause(clause, ctx, state, rule))
    return out


def _clause(clause: Clause, ctx: Context, state: _LineState, rule: str) -> list[Verdict]:
    order = list(clause.order)
    if clause.kind == "always":
        if state.contingent_use and not _for_this_turn(order, ctx):
            return [_other_turn(ctx, order)]
        return _read_words(order, ctx) if order else _ignored("Nothing to read here.")
    if not order:
        return _ignored(f"A condition ('{clause.written}') without an order on the same line: write the condition "
                        f"and its order on one line.", rule)
    if option(ctx.ruleset, "conditional_adjustment_orders") == "none":
        return [Verdict("rejected", None, None, "hold", rule, "Conditions on retreat and adjustment orders are not "
                        "accepted in this game: the line is void.", valid=False)]
    this_turn = not state.contingent_use or _for_this_turn(order, ctx)
    if clause.kind == "otherwise":
        applies = not state.held
        state.held = False  # an "otherwise" ends the chain of conditions before it
        if not this_turn:
            return [_other_turn(ctx, order)]
        if not applies:
            return _ignored("An earlier condition held, so this 'otherwise' line is not used.", rule)
        return [_noted(v, rule, "No earlier condition held, so the 'otherwise' line is used.")
                for v in _read_words(order, ctx)]
    test = parse_condition(clause.condition, table=ctx.table, policy=ctx.policy, powers=ctx.powers,
                           power=ctx.power, negated=clause.negated)
    if isinstance(test, Unreadable):
        holds, problem = False, test.reason
    else:
        holds, problem = evaluate(test, state.facts, _ordered_province(order, ctx))
    state.held = state.held or holds
    if not this_turn:
        return [_other_turn(ctx, order)]
    if problem is not None:
        # 003 [5 a]: nothing may be conditional on subjective events; such a condition is false
        return [Verdict("rejected", None, None, "hold", rule, f"The condition ('{clause.written}') cannot be "
                        f"tested: {problem}. It counts as false, so this line is not used.", valid=False)]
    if not holds:
        return _ignored(f"The condition ('{clause.written}') does not hold, so this line is not used.", rule)
    return [_noted(v, rule, f"The condition ('{clause.written}') holds.") for v in _read_words(order, ctx)]


def _ordered_province(order: Sequence[str], ctx: Context) -> str | None:
    """The province of the unit an order names ("if dislodged" without a unit means this one)."""
    for parsed in _parse(order, ctx):
        if parsed.unit is not None and parsed.unit.place.province is not None:
            return parsed.unit.place.province
    return None


def _for_this_turn(words: Sequence[str], ctx: Context) -> bool:
    return _not_this_turn(words, ctx) is None


def _not_this_turn(words: Sequence[str], ctx: Context) -> str | None:
    """Why a contingent line is not for the minor turn being read (None: it is). Builds and
    waives are for the adjustment turn, retreats for the retreat turn and only for units that
    were dislodged; a disband in a retreat turn is a retreat order only for a dislodged unit,
    otherwise it is a removal for the adjustment turn."""
    parsed = [p for p in _parse(words, ctx) if p.kind is not None]
    if not parsed:
        return None  # not an order: the reader says so
    kinds = {p.kind for p in parsed}
    if ctx.board.position.phase_type != "R":
        if kinds <= {"retreat", "move", "hold", "support", "convoy"}:
            return "A contingent order for the retreat turn: not used in the adjustment turn."
        return None
    if kinds <= {"build", "waive"}:
        return "A contingent order for the adjustment turn: not used in the retreat turn."
    provinces = [p.unit.place.province for p in parsed if p.unit is not None and p.unit.place.province]
    if not provinces or any((ctx.power, province) in ctx.board.dislodged_at for province in provinces):
        return None
    if kinds == {"disband"}:
        return "A removal for the adjustment turn: not used in the retreat turn."
    names = ", ".join(ctx.name(province) for province in provinces)
    return f"Your unit in {names} was not dislodged, so this contingent retreat is not needed."


def _other_turn(ctx: Context, words: Sequence[str] = ()) -> Verdict:
    reason = _not_this_turn(words, ctx) if words else None
    return Verdict("ignored", None, None, "hold", ctx.cite("contingent_minor_orders"),
                   reason or "A contingent order for the other minor turn: not used in this one.")


def _noted(verdict: Verdict, rule: str, message: str) -> Verdict:
    """A verdict with the condition's outcome added; the status stays (a condition that held is
    not a correction)."""
    if verdict.order is None and verdict.status == "ignored":
        return verdict
    rules = "; ".join(r for r in (rule, verdict.rule) if r)
    return replace(verdict, rule=rules or None, message=message + (" " + verdict.message if verdict.message else ""))
