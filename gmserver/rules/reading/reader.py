"""`read_orders`: a message body -> a `Reading`, one verdict per line as the player wrote it.

Per line: set markers (Final, Preliminary, version, change) and chatter are recognised; in a
movement phase a condition is stripped or voids the line (`conditional_movement_orders`), and
retreat and adjustment lines are kept for the following minor turn (`contingent_minor_orders`,
`Reading.contingent`); in a retreat or adjustment phase a condition is evaluated against the
adjudicated facts (`conditional_adjustment_orders`, `conditions`); a parenthesised order is used
(`parenthetical_order`); the grammar finds the orders on the line (several, or combined); the
interpretation policy checks each against the position. Then one order per unit is chosen
(`combine`) and the set is combined with the one on file (`sets`).

`read_contingent` reads the kept lines in the minor turn they were kept for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from gmserver.rules.geography import MapInfo
from gmserver.rules.position import Position
from gmserver.rules.reading.board import board_for
from gmserver.rules.reading.combine import combine
from gmserver.rules.reading.grammar import (
    ARMY, CONDITION, FLEET, HOLD, MOVE, SUPPORT, CONVOY, POLITE, Parsed, looks_like_order,
    parse_segment,
)
from gmserver.rules.reading.conditions import (
    Clause, Facts, TurnFacts, Unreadable, evaluate, facts_for, parse_condition, split_conditional,
)
from gmserver.rules.reading.interpret import Context, Verdict, contingent_verdict, read_order
from gmserver.rules.reading.model import LineReading, Reading
from gmserver.rules.reading.options import option
from gmserver.rules.reading.provinces import Policy, table_for
from gmserver.rules.reading.sets import (
    StoredSet, file_set, is_change_marker, set_status_marker, version_marker,
)
from gmserver.rules.reading.text import tokens as tokenise

MAX_LINES = 2000  # a message longer than this is read by its first lines; the rest is reported once

_TABLE_IDS = {"standard": "standard", "email_rules_list": "email_rules_list", "scorpion_list": "scorpion_list"}
_MARKER_WORDS = frozenset("FINAL PRELIMINARY PROVISIONAL PRELIM ORDERS ORDER SET VERSION V AS WRITTEN CHANGE "
                          "CHANGES AMENDMENT".split())


def read_orders(text: str, *, position: Position, power: str, ruleset: Any, geography: MapInfo,
                previous: Sequence[StoredSet] | Sequence[str] = (), subject: str = "",
                player_abbreviations: Mapping[str, str] | None = None,
                turn: TurnFacts | None = None) -> Reading:
    """Read a message body for `power` against `position` under `ruleset` (see the module doc).

    `previous`: the sets on file for this power and phase, in order of receipt (or the orders of
    one unmarked set); the new set is filed on top of them by `sets.file_set` (000 III(4), 001 II(7), 002 ORDERS 2);
    `subject`: the message subject, for version and change markers; `player_abbreviations`:
    the player's accepted list (004 I(1) ¶2), used when the ruleset allows such lists; `turn`: in
    a retreat or adjustment phase, what the movement turn before it decided (the facts that
    `objective_only` conditions may test and the position no longer shows).
    """
    return _read(text, position=position, power=power, ruleset=ruleset, geography=geography, previous=previous,
                 subject=subject, player_abbreviations=player_abbreviations, turn=turn, contingent_use=False)


def read_contingent(lines: Sequence[str], *, position: Position, power: str, ruleset: Any, geography: MapInfo,
                    turn: TurnFacts | None = None) -> Reading:
    """contingent_minor_orders = accepted (000 II(5), 001 II(6)): the contingent lines a power
    sent with its moves (`Reading.contingent`), read in the retreat or adjustment turn that
    followed, against that turn's position, when the power sent no set for that turn. Lines for
    the other minor turn (builds in a retreat turn, retreats in the adjustment turn) are skipped;
    conditions are evaluated as `conditional_adjustment_orders` says."""
    return _read("\n".join(lines), position=position, power=power, ruleset=ruleset, geography=geography,
                 previous=(), subject="", player_abbreviations=None, turn=turn, contingent_use=True)


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


def _read(text: str, *, position: Position, power: str, ruleset: Any, geography: MapInfo,
          previous: Sequence[StoredSet] | Sequence[str], subject: str, player_abbreviations: Mapping[str, str] | None,
          turn: TurnFacts | None, contingent_use: bool) -> Reading:
    ctx = _context(position, power, ruleset, geography, player_abbreviations)
    state = _LineState(ctx, turn, contingent_use and position.phase_type in ("R", "A"))
    rows: list[tuple[int, str, Verdict]] = []
    held: dict[int, bool] = {}  # the condition state before each line, to read it again
    lines = text.splitlines()
    for number, raw in enumerate(lines[:MAX_LINES], 1):
        if not raw.strip():
            continue
        held[number] = state.held
        for verdict in _read_line(raw, ctx, state):
            rows.append((number, raw, verdict))
    if any(v.unsure for _, _, v in rows):
        rows = _consistent_readings(rows, ctx, state, held)
    if len(lines) > MAX_LINES:
        rest = sum(1 for line in lines[MAX_LINES:] if line.strip())
        if rest:
            rows.append((MAX_LINES + 1, lines[MAX_LINES], Verdict(
                "ignored", None, None, "hold", None,
                f"The message is too long: {rest} more non-empty lines after line {MAX_LINES} were not read.")))
    verdicts, own_orders, unsupportable = combine([v for _, _, v in rows], ctx)
    readings = tuple(
        LineReading(number, raw.rstrip("\r\n"), v.status, v.order, v.rule, v.message)
        for (number, raw, _), v in zip(rows, verdicts)
    )
    head = subject + "\n" + _first_line(lines)
    marked_status = set_status_marker(subject) or _status_from_lines(lines)
    stored = StoredSet(tuple(own_orders), 0, version_marker(head), is_change_marker(head), marked_status)
    filing = file_set(_as_sets(previous), stored, ruleset)
    orders, notes = filing.orders, list(filing.notes)
    return Reading(
        power=power,
        phase=position.phase,
        orders=tuple(orders),
        lines=readings,
        set_orders=tuple(own_orders),
        unsupportable=tuple(sorted(unsupportable)),
        set_status=marked_status or option(ruleset, "default_set_status"),
        version=stored.version,
        is_change=stored.is_change,
        notes=tuple(notes),
        # each contingent line once, as written, in the order written (000 II(5), 001 II(6))
        contingent=tuple(raw.strip() for _, raw in dict.fromkeys((n, r) for n, r, v in rows if v.contingent)),
    )


def _as_sets(previous: Sequence[StoredSet] | Sequence[str]) -> tuple[StoredSet, ...]:
    if previous and isinstance(previous[0], str):
        return (StoredSet(tuple(previous), 0),)  # type: ignore[arg-type]
    return tuple(previous)  # type: ignore[arg-type]


def _consistent_readings(rows: list[tuple[int, str, Verdict]], ctx: Context, state: _LineState,
                         held: dict[int, bool]) -> list[tuple[int, str, Verdict]]:
    """001 II(1) `complete_valid_set`, second pass: a line void only because several readings
    were legal is read again knowing the orders of the set's other lines (as the first pass read
    them), so that the one reading consistent with them is chosen (verdict._choose)."""
    unsure = {number for number, _, v in rows if v.unsure}
    out: list[tuple[int, str, Verdict]] = []
    done: set[int] = set()
    for number, raw, verdict in rows:
        if number not in unsure:
            out.append((number, raw, verdict))
            continue
        if number in done:
            continue
        done.add(number)
        others = tuple(v for n, _, v in rows if n != number)
        again = replace(state, ctx=replace(ctx, others=others), held=held[number])
        out.extend((number, raw, v) for v in _read_line(raw, again.ctx, again))
    return out


def _first_line(lines: Sequence[str]) -> str:
    for line in lines:
        if line.strip():
            return line
    return ""


def _status_from_lines(lines: Sequence[str]) -> str | None:
    for line in lines:
        words = line.strip().split()
        if 0 < len(words) <= 4:
            marked = set_status_marker(line)
            if marked:
                return marked
    return None


_CONTEXTS: dict[tuple, tuple[Position, MapInfo, Any, Context]] = {}


def _context(position: Position, power: str, ruleset: Any, geography: MapInfo,
             player_abbreviations: Mapping[str, str] | None) -> Context:
    key = (id(position), id(geography), id(ruleset), power,
           tuple(sorted((player_abbreviations or {}).items())))
    cached = _CONTEXTS.get(key)
    if cached and cached[0] is position and cached[1] is geography and cached[2] is ruleset:
        return cached[3]
    table_id = _TABLE_IDS.get(option(ruleset, "abbreviation_table"), "standard")
    forbidden = tuple(option(ruleset, "forbidden_abbreviations") or ())
    table = table_for(geography, table_id, forbidden)
    player_list: tuple[tuple[str, str], ...] = ()
    if player_abbreviations and option(ruleset, "player_abbreviation_lists"):
        player_list = tuple((" ".join(k.upper().split()), v.upper()) for k, v in player_abbreviations.items())
    policy = Policy(
        abbreviation_policy=option(ruleset, "abbreviation_policy"),
        partial_names=option(ruleset, "partial_names"),
        typo_tolerance=option(ruleset, "typo_tolerance"),
        player_list=player_list,
    )
    ctx = Context(board_for(position, geography), power, ruleset, table, geography, policy,
                  dict(geography.power_words))
    if len(_CONTEXTS) > 256:
        _CONTEXTS.clear()
    _CONTEXTS[key] = (position, geography, ruleset, ctx)
    return ctx


def _ignored(message: str, rule: str | None = None) -> list[Verdict]:
    return [Verdict("ignored", None, None, "hold", rule, message)]


def _read_line(raw: str, ctx: Context, state: _LineState) -> list[Verdict]:
    words = tokenise(raw)
    if not words:
        return _ignored("Nothing to read on this line.")
    if _is_marker_line(raw, words):
        return _ignored(_marker_message(raw))
    condition_note: tuple[str, str] | None = None
    if any(w in CONDITION for w in words):
        condition_words = tokenise(_NOT.sub(" not", raw))  # "isn't" -> "is not", not "ISN"
        if ctx.board.position.phase_type != "M":
            return _conditional_minor(condition_words, ctx, state)
        kept = _contingent_conditional(condition_words, ctx)
        if kept is not None:
            return kept
        words, condition_note, void = _strip_condition(words, ctx)
        if void is not None:
            return void
    elif state.contingent_use and not _for_this_turn(words, ctx):
        return [_other_turn(ctx, words)]
    return _read_words(words, ctx, condition_note)


def _read_words(words: list[str], ctx: Context, condition_note: tuple[str, str] | None = None) -> list[Verdict]:
    """The orders on a line (its condition, if any, already dealt with)."""
    if option(ctx.ruleset, "typo_tolerance") == "generous":
        words = _split_run_together(words, ctx)
    words, parenthetical = _parenthetical(words, ctx)
    parsed = parse_segment(words, ctx.table, ctx.policy, ctx.powers)
    if not parsed:
        if looks_like_order(words, ctx.table, ctx.policy, ctx.powers):
            return [Verdict("rejected", None, None, "hold", None,
                            "This looks like an order but I cannot read it: write the unit, then the order, "
                            "e.g. 'A Par - Bur', 'F Nth C A Lon - Bel', 'A Mun S A Ber - Kie'.", valid=False)]
        return _ignored("Not an order.")
    parsed = _combined(parsed, ctx)
    verdicts: list[Verdict] = []
    for item in parsed:
        if isinstance(item, Verdict):
            verdicts.append(item)
            continue
        if item.kind is None and not _is_nonsense_candidate(item):
            verdicts.extend(_ignored("Not an order: no action follows the place name."))
            continue
        verdict = read_order(item, ctx)
        verdict = _extra_words(item, verdict, ctx)
        if item.combined and verdict.order and verdict.status != "rejected":
            verdict = _with_note(verdict, (ctx.cite("combined_orders"),
                                           "A combined order: each unit named gets the order."))
        if item.kind == "waive" and item.count > 1 and verdict.order == "WAIVE":
            verdicts.extend([verdict] * item.count)
            continue
        verdicts.append(verdict)
    if parenthetical is not None:
        verdicts = [_with_note(v, parenthetical) if v.order else v for v in verdicts]
    if condition_note is not None:
        verdicts = [_with_note(v, condition_note) if v.order else v for v in verdicts]
    return verdicts


def _split_run_together(words: list[str], ctx: Context) -> list[str]:
    """typo_tolerance = generous (002 FORMAT 5): "IONGRE" -> ION - GRE, "APARBUR" -> A PAR - BUR."""
    from gmserver.rules.reading.provinces import resolve  # noqa: PLC0415

    def code(word: str) -> bool:
        place = resolve((word,), ctx.table, ctx.policy)
        return place is not None and place.province is not None and place.how in ("table", "variant")

    out: list[str] = []
    for word in words:
        if word.isalpha() and len(word) in (6, 7) and not code(word):
            head = [word[0]] if len(word) == 7 and word[0] in "AF" else []
            rest = word[len(head):]
            if len(rest) == 6 and code(rest[:3]) and code(rest[3:]):
                out.extend(head + [rest[:3], "-", rest[3:]])
                continue
        out.append(word)
    return out


def _is_marker_line(raw: str, words: list[str]) -> bool:
    if len(words) > 6:
        return False
    if set_status_marker(raw) and all(w in _MARKER_WORDS or not w[0].isalpha() or len(w) <= 2 for w in words):
        return True
    return False


def _marker_message(raw: str) -> str:
    status = set_status_marker(raw)
    return f"Set marked {status}." if status else "Set marker."


def _is_nonsense_candidate(item: Parsed) -> bool:
    """A unit named with its type ("Army Rome eats pasta") is a nonsense order; a bare place
    name followed by prose ("Paris is lovely") is chatter."""
    return item.unit is not None and item.unit.type is not None


def _extra_words(item: Parsed, verdict: Verdict, ctx: Context) -> Verdict:
    extra = [w for w in item.extra if w not in POLITE and w not in ("!", "?", ",", ";", ":", ")", "(")]
    if not extra or item.kind is None or verdict.order is None or verdict.status == "rejected":
        return verdict
    words = " ".join(extra).lower()
    message = (verdict.message + " " if verdict.message else "") + f"The words '{words}' were ignored."
    # a poorly written order with one meaning is followed (RB2000; 000 III(2), 002 FORMAT 2, ...)
    rule = ctx.cite("abbreviation_policy")
    rules = "; ".join(dict.fromkeys(r for r in (verdict.rule, rule) if r))
    return replace(verdict, status="corrected", message=message, rule=rules)


def _with_note(verdict: Verdict, note: tuple[str, str]) -> Verdict:
    rule, message = note
    rules = "; ".join(r for r in (rule, verdict.rule) if r)
    status = verdict.status if verdict.status == "rejected" else "corrected"
    return replace(verdict, status=status, rule=rules or None,
                   message=message + (" " + verdict.message if verdict.message else ""))


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


def _canonical(words: Sequence[str], ctx: Context) -> str | None:
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


def _parenthetical(words: list[str], ctx: Context) -> tuple[list[str], tuple[str, str] | None]:
    """002 FORMAT 6: "Venice kills and maims the Trieste citizens (A Ven-Tri)" -> A Ven - Tri."""
    if "(" not in words:
        return words, None
    use = option(ctx.ruleset, "parenthetical_order") == "use"
    out: list[str] = []
    i = 0
    chosen: list[str] | None = None
    while i < len(words):
        if words[i] != "(":
            out.append(words[i])
            i += 1
            continue
        j = i + 1
        depth = 1
        while j < len(words) and depth:
            depth += {"(": 1, ")": -1}.get(words[j], 0)
            j += 1
        inner = [w for w in words[i + 1:j] if w not in ("(", ")")]
        kind = _inner_kind(inner, ctx)
        if kind == "order":
            if use and chosen is None:
                chosen = inner
        elif kind == "action":
            if use and chosen is None:
                head = _head_unit(out, ctx)
                if head:
                    chosen = head + inner
        else:
            out.extend(inner)
        i = j
    if chosen is not None:
        return chosen, (ctx.cite("parenthetical_order"),
                        "The order in parentheses was used; the rest of the line was ignored.")
    return out, None


def _inner_kind(inner: list[str], ctx: Context) -> str | None:
    if not inner:
        return None
    if inner[0] in HOLD or inner[0] in MOVE or inner[0] in SUPPORT or inner[0] in CONVOY:
        return "action"
    parsed = parse_segment(inner, ctx.table, ctx.policy, ctx.powers)
    if parsed and parsed[0].complete and parsed[0].unit is not None:
        return "order"
    return None


def _head_unit(words: list[str], ctx: Context) -> list[str] | None:
    """The unit named at the start of a line ("Tunis has a wild party") for "(holds)"."""
    from gmserver.rules.reading.provinces import match_place  # local: only needed here

    i = 0
    while i < len(words) and (words[i] in ARMY | FLEET or words[i] in ctx.powers or
                              words[i] in ("THE", "MY", "MOVE")):
        i += 1
    place, after = match_place(words, i, ctx.table, ctx.policy)
    if place is None:
        return None
    return [w for w in words[:after] if w != "MOVE"]


def _combined(parsed: list[Parsed], ctx: Context) -> list[Parsed | Verdict]:
    """002 FORMAT 10: "F MAO and A Gas S A Par - Bre" gives both units the order."""
    result: list[Parsed | Verdict] = []
    pending: list[Parsed] = []
    for item in parsed:
        if item.kind is None and not item.extra:
            pending.append(item)
            continue
        if pending and item.kind is not None:
            if option(ctx.ruleset, "combined_orders") == "accept":
                for head in pending:
                    result.append(replace(item, unit=head.unit, combined=True))
            else:
                for head in pending:
                    result.append(Verdict("rejected", None, None, "hold", ctx.cite("combined_orders"),
                                          "Combined orders are not accepted; order each unit on its own.",
                                          valid=False))
            pending = []
        elif pending:
            result.extend(pending)
            pending = []
        result.append(item)
    result.extend(pending)
    return result
