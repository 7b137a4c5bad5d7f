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

A line's condition is dealt with in line_conditions.py, the orders it then holds are found in
line_orders.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.reading.board import board_for
from gmserver.rules.reading.chatter import CLOSING_NOTE, SIGN_OFF_LINE, SIGNATURE_NOTE, chatter_kind
from gmserver.rules.reading.combine import combine
from gmserver.rules.reading.condition_facts import TurnFacts
from gmserver.rules.reading.grammar import BUILD, CONDITION, CONVOY, DISBAND, HOLD, MOVE, RETREAT, SUPPORT, WAIVE
from gmserver.rules.reading.interpret import Context, Verdict
from gmserver.rules.reading.line_conditions import (
    _NOT,
    _conditional_minor,
    _contingent_conditional,
    _for_this_turn,
    _LineState,
    _other_turn,
    _strip_condition,
)
from gmserver.rules.reading.line_orders import _ignored, _read_words
from gmserver.rules.reading.model import LineReading, Reading
from gmserver.rules.reading.options import option
from gmserver.rules.reading.provinces import Policy, resolve, table_for
from gmserver.rules.reading.sentences import without_courtesy
from gmserver.rules.reading.sets import StoredSet, file_set, is_change_marker, set_status_marker, version_marker
from gmserver.rules.reading.text import quoted_exactly
from gmserver.rules.reading.text import tokens as tokenise
from gmserver.rules.ruleset import Ruleset

MAX_LINES = 2000  # a message longer than this is read by its first lines; the rest is reported once

_TABLE_IDS = {"standard": "standard", "email_rules_list": "email_rules_list", "scorpion_list": "scorpion_list"}
_MARKER_WORDS = frozenset("FINAL PRELIMINARY PROVISIONAL PRELIM ORDERS ORDER SET VERSION V AS WRITTEN CHANGE "
                          "CHANGES AMENDMENT".split())


def read_orders(text: str, *, position: Position, power: str, ruleset: Ruleset, geography: MapInfo,
                previous: Sequence[StoredSet] | Sequence[Order] = (), subject: str = "",
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


def read_contingent(lines: Sequence[str], *, position: Position, power: str, ruleset: Ruleset, geography: MapInfo,
                    turn: TurnFacts | None = None) -> Reading:
    """contingent_minor_orders = accepted (000 II(5), 001 II(6)): the contingent lines a power
    sent with its moves (`Reading.contingent`), read in the retreat or adjustment turn that
    followed, against that turn's position, when the power sent no set for that turn. Lines for
    the other minor turn (builds in a retreat turn, retreats in the adjustment turn) are skipped;
    conditions are evaluated as `conditional_adjustment_orders` says."""
    return _read("\n".join(lines), position=position, power=power, ruleset=ruleset, geography=geography,
                 previous=(), subject="", player_abbreviations=None, turn=turn, contingent_use=True)


def _read(text: str, *, position: Position, power: str, ruleset: Ruleset, geography: MapInfo,
          previous: Sequence[StoredSet] | Sequence[Order], subject: str, player_abbreviations: Mapping[str, str] | None,
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
    rows = _named_chatter(_without_signature(rows, ctx), ctx)
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
        LineReading(number, raw.rstrip("\r\n"), v.status, v.order, v.rule, quoted_exactly(v.message, raw), v.chatter)
        for (number, raw, _), v in zip(rows, verdicts, strict=False)
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
        unsupportable=tuple(sorted(unsupportable, key=str)),
        set_status=marked_status or option(ruleset, "default_set_status"),
        version=stored.version,
        is_change=stored.is_change,
        notes=tuple(notes),
        # each contingent line once, as written, in the order written (000 II(5), 001 II(6))
        contingent=tuple(raw.strip() for _, raw in dict.fromkeys((n, r) for n, r, v in rows if v.contingent)),
    )


_NAME = re.compile(r"^\s*[^\W\d_a-z][\w'’-]*\.?(?:\s+[^\W\d_a-z][\w'’-]*\.?){0,2}\s*$")
# a heading such as "Supports" or "Builds" between orders is no name
_ORDER_WORDS = HOLD | MOVE | SUPPORT | CONVOY | RETREAT | DISBAND | BUILD | WAIVE | _MARKER_WORDS


def _without_signature(rows: list[tuple[int, str, Verdict]], ctx: Context) -> list[tuple[int, str, Verdict]]:
    """A signature with no "-- " line (a job title, an address) holds unit and place words: from
    the sign-off or name line below the orders, a line that gives no usable order is the
    signature, never an unreadable order, nor a second order competing with one above it. A
    line read as an order there (a P.S.) is kept; a place written alone ("Marseilles") starts no
    signature: it may be an order that lacks its action, which the player must see."""
    first_order = next((n for n, _, v in rows if v.order is not None and v.status in ("accepted", "corrected")), None)
    if first_order is None:
        return rows
    start = None
    for number, raw, verdict in rows:
        if number > first_order and verdict.order is None and (
                SIGN_OFF_LINE.match(raw) or (_NAME.match(raw) and not set(words := tokenise(raw)) & _ORDER_WORDS
                                             and not _names_place(words[0], ctx))):
            start = number
            break
    if start is None:
        return rows
    return [(n, raw, Verdict("ignored", None, None, "hold", None, SIGNATURE_NOTE)
             if n >= start and v.status in ("rejected", "ignored") else v) for n, raw, v in rows]


def _named_chatter(rows: list[tuple[int, str, Verdict]], ctx: Context) -> list[tuple[int, str, Verdict]]:
    """Each ignored line that is a greeting, heading, sign-off or signature named as such
    (chatter.py): the confirmation counts them in one line rather than listing each."""
    out = []
    for number, raw, verdict in rows:
        if verdict.status == "ignored" and verdict.order is None and not verdict.contingent:
            kind = chatter_kind(raw, tokenise(raw), verdict.message, ctx.powers, lambda word: _names_place(word, ctx))
            if kind is not None:
                verdict = replace(verdict, chatter=kind)
        out.append((number, raw, verdict))
    return out


def _names_place(word: str, ctx: Context) -> bool:
    """`word` is a province's name or abbreviation as written (no typo or guess from a few letters)."""
    place = resolve((word,), ctx.table, ctx.policy)
    return place is not None and bool(place.provinces) and place.how in ("player", "table", "name", "variant",
                                                                          "foreign")


def _as_sets(previous: Sequence[StoredSet] | Sequence[Order]) -> tuple[StoredSet, ...]:
    if previous and isinstance(previous[0], Order):
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


def _context(position: Position, power: str, ruleset: Ruleset, geography: MapInfo,
             player_abbreviations: Mapping[str, str] | None) -> Context:
    key = (id(position), id(geography), id(ruleset), power,
           tuple(sorted((player_abbreviations or {}).items())))
    cached = _CONTEXTS.get(key)
    if cached and cached[0] is position and cached[1] is geography and cached[2] is ruleset:
        return cached[3]
    table_id = _TABLE_IDS.get(option(ruleset, "abbreviation_table"), "standard")
    forbidden = tuple(option(ruleset, "forbidden_abbreviations") or ())
    table = table_for(geography, table_id, forbidden, option(ruleset, "province_languages") or ())
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


def _read_line(raw: str, ctx: Context, state: _LineState) -> list[Verdict]:
    courteous = without_courtesy(raw)
    if courteous != raw:
        if not tokenise(courteous):
            return _ignored(CLOSING_NOTE)
        raw = courteous  # "let me know if anything is unclear" is no order's condition
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


def _is_marker_line(raw: str, words: list[str]) -> bool:
    if len(words) > 6:
        return False
    if set_status_marker(raw) and all(w in _MARKER_WORDS or not w[0].isalpha() or len(w) <= 2 for w in words):
        return True
    return False


def _marker_message(raw: str) -> str:
    status = set_status_marker(raw)
    return f"Set marked {status}." if status else "Set marker."


def reading_context(position: Position, power: str, ruleset: Ruleset, geography: MapInfo) -> Context:
    """The reading context of `power` in `position`, for reading a condition outside an order set
    (conditional press, gmserver.rules.press_conditions)."""
    return _context(position, power, ruleset, geography, None)
