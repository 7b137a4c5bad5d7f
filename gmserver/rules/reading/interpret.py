"""Interpretation policy (the order-interpretation, retreat and adjustment options):
one `Parsed` order + the position -> a `Verdict`.

Each house-rule decision names its option; `options.clause` turns it into the profile's clause
for the player's confirmation. Mistakes are kept apart: *invalid* (the words are not an order),
*illegal* (an order the position does not allow) and *ambiguous* (two readings, never guessed
unless the profile presumes a complete valid set, 001 II(1)).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import unit_location, unit_province
from gmserver.rules.reading.board import Board
from gmserver.rules.reading.grammar import Parsed, UnitRef
from gmserver.rules.reading.options import clause, option
from gmserver.rules.reading.provinces import NameTable, Place, suggestions

_ORDER_KINDS_MOVEMENT = ("hold", "move", "support", "convoy")


@dataclass(frozen=True)
class Verdict:
    status: str  # accepted / corrected / rejected / ignored
    order: str | None
    unit: str | None = None  # the unit the order is for ("A PAR"); None for builds and waives
    kind: str = "hold"
    rule: str | None = None
    message: str | None = None
    valid: bool = True  # False: a void order that leaves the unit holding (or disbanding)
    moves: bool = False  # the unit was ordered to move or convoy (hold support rules)
    unsupportable: bool = False  # failed_move_unsupportable applied
    implied: str | None = None  # 002 FORMAT 9: the order this support implies for another unit
    site: str | None = None  # build site province
    contingent: bool = False  # a retreat or adjustment order in a movement set
    unsure: bool = False  # void only because several readings were legal (001 II(1) second pass)


@dataclass
class Notes:
    """Corrections collected while reading one order."""

    rules: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)

    def add(self, rule: str | None, message: str) -> None:
        if rule and rule not in self.rules:
            self.rules.append(rule)
        self.messages.append(message)

    @property
    def rule(self) -> str | None:
        return "; ".join(self.rules) or None

    @property
    def message(self) -> str | None:
        return " ".join(self.messages) or None


class Rejected(Exception):
    """An order that is not accepted; `fallback` is what the unit gets instead, if anything.

    `repair` names what a corrected line would change (the unit type or coast written for the
    ordered unit, the type or nationality written for the supported or convoyed one), so that the
    reply can say "Did you mean ...?" with the order the line would then have been."""

    def __init__(self, message: str, rule: str | None = None, fallback: str | None = None,
                 unit: str | None = None, moves: bool = False, unsupportable: bool = False,
                 repair: dict[str, Any] | None = None, unsure: bool = False):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.fallback = fallback
        self.unit = unit
        self.moves = moves
        self.unsupportable = unsupportable
        self.repair = repair
        self.unsure = unsure


@dataclass
class Context:
    board: Board
    power: str
    ruleset: Any
    table: NameTable
    geography: MapInfo
    policy: Any = None  # provinces.Policy for this ruleset
    powers: dict[str, str] = field(default_factory=dict)  # nationality words -> power
    # 001 II(1) second pass: the orders read from the set's other lines (None on the first pass)
    others: tuple[Verdict, ...] | None = None

    def opt(self, name: str) -> Any:
        return option(self.ruleset, name)

    def cite(self, name: str) -> str:
        return clause(self.ruleset, name)

    def name(self, location: str) -> str:
        return self.geography.display_name(location)

    @property
    def complete_valid_set(self) -> bool:
        return self.opt("interpretation_presumption") == "complete_valid_set"


# ------------------------------------------------------------------------------------------
# Places and units


def _describe_place(place: Place, ctx: Context) -> str:
    return place.written.title() if place.written else "?"


def _choose(place: Place, ctx: Context, notes: Notes, fits: Callable[[str], bool], what: str,
            consistent: Callable[[str], str | None] | None = None) -> str:
    """The province a place stands for; ambiguous places are resolved only by 001 II(1).

    `consistent(p)`: the player's other order in this set that the reading `p` agrees with, if
    any (001 II(1): "consistent with the player's other orders"); used when several readings are
    legal and the other lines are known (`ctx.others`, the reader's second pass)."""
    if place.forbidden:
        # 003 [17]: "Nor" or "Liv" is always a misorder, even where only one reading would fit
        letters = place.written.replace(" ", "")
        meant = sorted({code for spelled, code in ctx.table.prefix_keys if spelled.startswith(letters)})
        fitting = [p for p in meant if fits(p)] or meant
        hint = (" Did you mean " + " or ".join(f"{ctx.name(p)} ({_abbreviation(p, ctx)})" for p in fitting) + "?"
                if fitting else "")
        raise Rejected(f"'{place.written.title()}' is never accepted as an abbreviation; write the "
                       f"province in full or use its abbreviation.{hint}", ctx.cite("forbidden_abbreviations"))
    if place.province is not None:
        if place.how == "typo":
            notes.add(ctx.cite("typo_tolerance"),
                      f"Read '{place.written.title()}' as {ctx.name(place.province)}.")
        return place.province
    if place.ambiguous:
        fitting = [p for p in place.provinces if fits(p)]
        if ctx.complete_valid_set and len(fitting) == 1:
            notes.add(ctx.cite("interpretation_presumption"),
                      f"'{place.written.title()}' could be {_names(place.provinces, ctx)}; read as "
                      f"{ctx.name(fitting[0])}, the only reading that makes a valid order.")
            return fitting[0]
        unsure = False
        if ctx.complete_valid_set and len(fitting) > 1 and consistent is not None:
            if ctx.others is None:
                unsure = True  # the reader reads the line again once the other lines are known
            else:
                agreeing = [(p, order) for p in fitting if (order := consistent(p)) is not None]
                if len(agreeing) == 1:
                    province, order = agreeing[0]
                    notes.add(ctx.cite("interpretation_presumption"),
                              f"'{place.written.title()}' could be {_names(fitting, ctx, 'or')}; read as "
                              f"{ctx.name(province)}, the only reading consistent with your order {order}.")
                    return province
        hint = f" Did you mean {_names(fitting, ctx, 'or')}?" if fitting else ""
        raise Rejected(f"'{place.written.title()}' is ambiguous for {what}: it could be "
                       f"{_names(place.provinces, ctx, 'or')}.{hint}", ctx.cite("abbreviation_policy"),
                       unsure=unsure)
    near = place.suggestions or suggestions(place.written, ctx.table)
    hint = f" Did you mean {_names(near, ctx, 'or')}?" if near else ""
    raise Rejected(f"'{place.written.title()}' is not a province I know.{hint}")


_AS_PRINTED = {"NAF": "NAf", "GOB": "GoB", "GOL": "GoL", "STP": "StP"}  # 002 FORMAT 1, 003 Abbrev.


def _abbreviation(province: str, ctx: Context) -> str:
    """The profile's own abbreviation of a province (003 Abbrev., 004 I(1)), e.g. Norway -> "Nwy" under 003."""
    for written, provinces in ctx.table.table.items():
        if provinces == {province} and written not in ctx.table.forbidden:
            # sea provinces upper case, land provinces capitalised (003 Abbrev.), as the lists print them
            if written in _AS_PRINTED:
                return _AS_PRINTED[written]
            return written if ctx.geography.provinces[province].kind == "water" else written.title()
    return province.title()


def _names(provinces, ctx: Context, joiner: str = "and") -> str:
    names = [ctx.name(p) for p in provinces]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {joiner} " + names[-1]


def _own_unit(ref: UnitRef, ctx: Context, notes: Notes, dislodged: bool = False) -> str:
    """The player's unit a reference names, applying the unit-type and own-coast rules."""
    power = ctx.power
    board = ctx.board

    def own_at(province: str) -> str | None:
        if dislodged:
            return board.dislodged_at.get((power, province))
        return board.unit_at.get(province) if board.owner.get(province) == power else None

    place = ref.place
    if place.province is None and not place.forbidden:
        # 002 FORMAT 7: "I-GRE" -- a fragment standing for one of the player's own units
        mine = [u for u in (_own_units(ctx, dislodged)) if _fragment_fits(place, unit_province(u), ctx)]
        if len(mine) == 1 and ctx.opt("unit_location_matching") == "own_units":
            notes.add(ctx.cite("unit_location_matching"),
                      f"Read '{place.written.title()}' as your unit in {ctx.name(unit_province(mine[0]))}.")
            return _check_type(ref, mine[0], ctx, notes)
        if len(mine) == 1 and not place.ambiguous:
            # map_only: the fragment is not read as the unit, but the reply can say which one fits
            raise Rejected(f"'{place.written.title()}' is not a province I know.",
                           ctx.cite("unit_location_matching"), repair={"unit": mine[0]})
    province = _choose(place, ctx, notes, lambda p: own_at(p) is not None, "the unit ordered")
    unit = own_at(province)
    if unit is None:
        raise Rejected(_no_unit_message(ref, province, ctx, dislodged), ctx.cite("orders_for_missing_units")
                       if ctx.opt("orders_for_missing_units") else None)
    return _check_type(ref, unit, ctx, notes)


def _own_units(ctx: Context, dislodged: bool) -> tuple[str, ...]:
    source = ctx.board.position.dislodged if dislodged else ctx.board.position.units
    return tuple(source.get(ctx.power, ()))


def _fragment_fits(place: Place, province: str, ctx: Context) -> bool:
    if place.ambiguous:
        return province in place.provinces
    written = place.written.replace(" ", "")
    name = ctx.geography.provinces[province].name.upper().replace(" ", "")
    return bool(written) and (province.startswith(written) or name.startswith(written))


def _no_unit_message(ref: UnitRef, province: str, ctx: Context, dislodged: bool) -> str:
    board = ctx.board
    written = f"{ref.type + ' ' if ref.type else ''}{ctx.name(province)}"
    other = board.owner.get(province)
    if dislodged:
        if other == ctx.power:
            return f"Your unit in {ctx.name(province)} was not dislodged; it needs no order this phase."
        return f"You have no dislodged unit in {ctx.name(province)}."
    if other is not None and other != ctx.power:
        return f"The unit in {ctx.name(province)} is {other.title()}'s, not yours: no order for {written}."
    mine = _own_units(ctx, dislodged)
    close = [u for u in mine if u[0] == (ref.type or u[0])
             and unit_province(u) in suggestions(ref.place.written, ctx.table, 5)]
    hint = f" Did you mean {close[0][0]} {ctx.name(unit_location(close[0]))}?" if close else ""
    return f"You have no unit in {ctx.name(province)}.{hint}"


def _check_type(ref: UnitRef, unit: str, ctx: Context, notes: Notes) -> str:
    actual = unit[0]
    if ref.type is None:
        if ctx.opt("unit_type_omitted") == "invalid":
            raise Rejected(f"The unit type (A or F) is missing for {ctx.name(unit_province(unit))}; "
                           f"an order without it is void.", ctx.cite("unit_type_omitted"), unit=unit,
                           repair={"unit": unit})
        notes.add(ctx.cite("unit_type_omitted"), f"Unit type omitted: read as {unit_kind_word(unit)} "
                  f"{ctx.name(unit_location(unit))}.")
    elif ref.type != actual:
        if ctx.opt("unit_type_wrong") == "invalid":
            raise Rejected(f"Your unit in {ctx.name(unit_province(unit))} is {_article(unit)}, not "
                           f"{_article(ref.type)}: the order is void.", ctx.cite("unit_type_wrong"), unit=unit,
                           repair={"unit": unit})
        notes.add(ctx.cite("unit_type_wrong"), f"Your unit in {ctx.name(unit_province(unit))} is "
                  f"{_article(unit)}; the wrong unit type was ignored.")
    return unit


def unit_kind_word(unit: str) -> str:
    return "army" if unit[0] == "A" else "fleet"


def _article(unit_or_type: str) -> str:
    return "an army" if unit_or_type[0] == "A" else "a fleet"


def _check_own_coast(ref: UnitRef, unit: str, ctx: Context, notes: Notes) -> None:
    """coast_own_location: the coast written for the ordered fleet's own position."""
    coast = ref.place.coast
    location = unit_location(unit)
    if not coast or unit[0] != "F" or "/" not in location:
        return
    if location.endswith("/" + coast):
        return
    if ctx.opt("coast_own_location") == "must_match_if_given":
        raise Rejected(f"Your fleet is on the {_coast_words(location)} of {ctx.name(unit_province(unit))}, "
                       f"not the {_coast_words(coast)}: the order is void.", ctx.cite("coast_own_location"),
                       unit=unit, repair={"unit": unit})
    notes.add(ctx.cite("coast_own_location"), f"Your fleet is at {ctx.name(location)}; the coast written "
              f"for it was ignored.")


def _coast_words(location: str) -> str:
    coast = location.split("/")[-1]
    return {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}.get(coast, coast)


def _any_unit(ref: UnitRef, ctx: Context, notes: Notes, what: str) -> str:
    """A supported or convoyed unit (any power), with the type and nationality rules."""
    board = ctx.board
    province = _choose(ref.place, ctx, notes, lambda p: p in board.unit_at, f"the unit to {what}")
    unit = board.unit_at.get(province)
    if unit is None:
        raise Rejected(f"There is no unit in {ctx.name(province)} to {what.split()[0]}.")
    if ref.type is not None and ref.type != unit[0]:
        if ctx.opt("unit_type_wrong") == "invalid":
            raise Rejected(f"The unit in {ctx.name(province)} is {_article(unit)}, not {_article(ref.type)}: "
                           f"the order is void.", ctx.cite("unit_type_wrong"), repair={"target": unit})
        notes.add(ctx.cite("unit_type_wrong"), f"The unit in {ctx.name(province)} is {_article(unit)}; "
                  f"the wrong unit type was ignored.")
    elif ref.type is None:
        if ctx.opt("unit_type_omitted") == "invalid":
            raise Rejected(f"The unit type (A or F) of the unit in {ctx.name(province)} is missing: the "
                           f"order is void.", ctx.cite("unit_type_omitted"), repair={"target": unit})
    owner = board.owner[province]
    if ref.power is not None and ref.power != owner:
        if ctx.opt("nationality_wrong") == "invalid":
            raise Rejected(f"The unit in {ctx.name(province)} is {owner.title()}'s, not "
                           f"{ref.power.title()}'s: the order is void.", ctx.cite("nationality_wrong"),
                           repair={"target": unit})
        notes.add(ctx.cite("nationality_wrong"), f"The unit in {ctx.name(province)} is {owner.title()}'s; "
                  f"the wrong nationality was ignored.")
    elif ref.power is None and owner != ctx.power and _nationality_required(ctx, what):
        # 003 [21]: a support of a foreign unit must name its nationality
        raise Rejected(f"An order for a foreign unit must name its nationality ({owner.title()}'s "
                       f"{unit_kind_word(unit)} in {ctx.name(province)}): the order is void.",
                       ctx.cite("nationality_omitted"), repair={"target": unit})
    return unit


def _nationality_required(ctx: Context, what: str) -> bool:
    required = ctx.opt("nationality_omitted")
    return required == "invalid" or (required == "invalid_for_supports" and what.startswith("support"))


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
            raise Rejected(f"{parsed.error.capitalize()}.", unit=unit, moves=True)
        if parsed.error:
            raise Rejected(f"{parsed.error.capitalize()}.", unit=unit)
        if parsed.kind is None or parsed.kind == "nonsense":
            return _nonsense(parsed, unit, ctx, notes)
        if parsed.kind == "hold":
            return _verdict(f"{unit} H", unit, "hold", notes)
        if parsed.kind == "move":
            return _move(parsed, unit, ctx, notes)
        if parsed.kind == "support":
            return _support(parsed, unit, ctx, notes)
        if parsed.kind == "convoy":
            return _convoy(parsed, unit, ctx, notes)
        return _nonsense(parsed, unit, ctx, notes)
    except Rejected as problem:
        unit = unit or problem.unit
        hint = _did_you_mean(parsed, problem, ctx, read_movement) if suggest else ""
        message = " ".join(notes.messages + [problem.message + hint])
        if unit is not None and (problem.moves or parsed.kind == "move"):
            # 000 III(5), 003 [10 b]: a unit ordered to move stays ordered to move, whatever made
            # the order void (a wrong or missing unit type or coast as much as an impossible route)
            return _impossible_move(unit, problem, ctx, notes, message)
        if unit is None:
            rules = "; ".join(r for r in (notes.rule, problem.rule) if r) or None
            return Verdict("rejected", None, None, parsed.kind or "hold", rules, message, valid=False)
        rules = "; ".join(dict.fromkeys(r for r in (notes.rule, problem.rule, _hold_rule(ctx)) if r))
        return Verdict("rejected", f"{unit} H", unit, parsed.kind or "hold", rules,
                       f"{message} {unit_kind_word(unit).capitalize()} "
                       f"{ctx.name(unit_location(unit))} holds.", valid=False, unsure=problem.unsure)


def _hold_rule(ctx: Context) -> str:
    """The profile's clause making a void order a hold (000 III(5), 001 III(1), 002 FORMAT 5,
    003 [10 b], 004 I(3); DATC 4.E.1 for the standard profile)."""
    rule = ctx.cite("nonsense_order_treatment")
    return ctx.cite("impossible_move_treatment") if " = " in rule else rule


def _did_you_mean(parsed: Parsed, problem: Rejected, ctx: Context,
                  reread: Callable[..., Verdict]) -> str:
    """" Did you mean <order>?" when fixing the unit type, coast or nationality the line wrote
    makes it an order this profile accepts (e.g. 002 FORMAT 7's "A ION-GRE" -> F ION - GRE)."""
    repair = problem.repair
    if not repair:
        return ""
    unit_ref, target_ref = parsed.unit, parsed.target
    if "unit" in repair and unit_ref is not None:
        province = unit_province(repair["unit"])
        unit_ref = replace(unit_ref, type=repair["unit"][0], place=Place(province, (province,)))
    if "target" in repair and target_ref is not None:
        target = repair["target"]
        province = unit_province(target)
        target_ref = replace(target_ref, type=target[0], power=ctx.board.owner.get(province),
                             place=Place(province, (province,)))
    verdict = reread(replace(parsed, unit=unit_ref, target=target_ref), ctx, suggest=False)
    if verdict.status not in ("accepted", "corrected") or verdict.order is None:
        return ""
    return f" Did you mean {_with_nationality(verdict, parsed, ctx)}?"


def _with_nationality(verdict: Verdict, parsed: Parsed, ctx: Context) -> str:
    """The order as a player writes it: a foreign supported or convoyed unit keeps the
    nationality the line gave it, and gets one where the profile requires it (003 [21])."""
    order = Order.parse_or_none(verdict.order or "")
    if verdict.kind not in ("support", "convoy") or parsed.target is None or order is None or order.other is None:
        return verdict.order
    owner = ctx.board.owner.get(order.other.province)
    if owner is None or owner == ctx.power:
        return verdict.order
    if parsed.target.power is None and not _nationality_required(ctx, verdict.kind):
        return verdict.order
    adjective = next((w for w, p in ctx.powers.items() if p == owner and w != owner), owner)
    verb = "C" if order.action == "convoy" else "S"
    destination = f" - {order.target}" if order.target else ""
    return f"{order.unit} {verb} {adjective} {order.other}{destination}"


def _verdict(order: str, unit: str | None, kind: str, notes: Notes, **extra) -> Verdict:
    status = "corrected" if notes.messages else "accepted"
    return Verdict(status, order, unit, kind, notes.rule, notes.message, **extra)


CONTINGENT_KEPT = ("kept for the retreat or adjustment turn after these moves (if that turn comes) and used there "
                   "only if you send no set for that turn.")
CONTINGENT_REFUSED = "Retreat and adjustment orders are sent in their own turn; this line was not used."


def contingent_verdict(kind: str, ctx: Context, what: str = "A retreat or adjustment order in a movement set",
                       extra: str = "") -> Verdict:
    """contingent_minor_orders (000 II(5), 001 II(6)): `accepted` keeps the line for the following
    minor turn (Reading.contingent); `rejected` drops it."""
    rule = ctx.cite("contingent_minor_orders")
    if ctx.opt("contingent_minor_orders") == "accepted":
        return Verdict("ignored", None, None, kind, rule, f"{what}: {CONTINGENT_KEPT}{extra}", contingent=True)
    return Verdict("ignored", None, None, kind, rule, CONTINGENT_REFUSED)


def _contingent(parsed: Parsed, ctx: Context) -> Verdict:
    return contingent_verdict(parsed.kind or "hold", ctx)


def _nonsense(parsed: Parsed, unit: str, ctx: Context, notes: Notes) -> Verdict:
    words = " ".join(parsed.extra).lower() or "nothing"
    if ctx.opt("nonsense_order_treatment") == "ignore_line":
        return Verdict("ignored", None, None, "nonsense", ctx.cite("nonsense_order_treatment"),
                       f"'{words}' is not an order; the line was ignored.")
    notes.add(ctx.cite("nonsense_order_treatment"), f"'{words}' is not an order: read as {unit} H.")
    return Verdict("corrected", f"{unit} H", unit, "hold", notes.rule, notes.message)


def _impossible_move(unit: str, problem: Rejected, ctx: Context, notes: Notes, message: str) -> Verdict:
    """impossible_move_treatment / move_to_own_province: the unit stays; may it be supported?"""
    option_name = "move_to_own_province" if problem.rule == "own" else "impossible_move_treatment"
    treatment = ctx.opt(option_name)
    upstream = problem.rule if problem.rule != "own" else None
    rules = [r for r in (notes.rule, upstream, ctx.cite(option_name)) if r]
    if treatment == "failed_move_unsupportable":
        tail = "It stays where it is and cannot receive support to hold."
    else:
        tail = f"Read as {unit} H, which may receive support to hold."
    return Verdict("rejected", f"{unit} H", unit, "move", "; ".join(dict.fromkeys(rules)),
                   f"{message} {tail}", valid=False, moves=True,
                   unsupportable=treatment == "failed_move_unsupportable", unsure=problem.unsure)


def _move(parsed: Parsed, unit: str, ctx: Context, notes: Notes) -> Verdict:
    here = unit_province(unit)

    def legal(province: str) -> bool:
        return _move_target(unit, province, None, parsed.via, ctx, Notes(), quiet=True) is not None

    try:
        province = _choose(parsed.dest, ctx, notes, legal, "the destination",
                           lambda p: _backing_order(unit, p, ctx))
    except Rejected as problem:
        raise Rejected(f"{unit} cannot move there: {problem.message}", problem.rule, unit=unit, moves=True,
                       unsure=problem.unsure)
    if province == here:
        raise Rejected(f"{unit} is ordered to move to its own province.", "own", unit=unit, moves=True)
    target = _move_target(unit, province, parsed.dest.coast, parsed.via, ctx, notes)
    if target is None and ctx.opt("valid_name_typos") == "correct_if_illegal":
        # a valid name that makes the order illegal may be a typo for one that makes it legal
        near = [p for p in suggestions(parsed.dest.written, ctx.table, 6)
                if p != province and _close(parsed.dest.written, p, ctx) and legal(p)]
        if len(near) == 1:
            notes.add(ctx.cite("valid_name_typos"), f"{ctx.name(province)} is impossible for {unit}; "
                      f"read '{parsed.dest.written.title()}' as {ctx.name(near[0])}.")
            province = near[0]
            target = _move_target(unit, province, parsed.dest.coast, parsed.via, ctx, notes)
    if target is None:
        why = _why_not(unit, province, ctx)
        raise Rejected(why, unit=unit, moves=True)
    if parsed.route:
        route = " - ".join(ctx.name(p.province) if p.province else p.written.title() for p in parsed.route)
        if ctx.opt("datc_4a6") == "ignored":
            notes.add(ctx.cite("datc_4a6"), f"Convoy route noted ({route}), but not binding in this game: the army "
                                            f"moves by any convoy route there is.")
        else:
            notes.add(ctx.cite("datc_4a6"), f"Convoy route noted: {route}.")
    return _verdict(f"{unit} - {target}", unit, "move", notes, moves=True)


def _other_orders(ctx: Context):
    """(Order, order text) of the valid orders on the set's other lines (001 II(1) second pass)."""
    for verdict in ctx.others or ():
        if verdict.valid and verdict.order and verdict.status in ("accepted", "corrected"):
            order = Order.parse_or_none(verdict.order)
            if order is not None:
                yield order, verdict.order


def _backing_order(unit: str, province: str, ctx: Context) -> str | None:
    """001 II(1): the player's support or convoy of `unit` moving to `province`, if any."""
    mover = Unit.parse(unit)
    for order, text in _other_orders(ctx):
        if order.action in ("support_move", "convoy") and order.other == mover and order.target_province == province:
            return text
    return None


def _own_move(target: str, province: str, ctx: Context) -> str | None:
    """001 II(1): the player's own move of `target` to `province` in this set, if any."""
    if ctx.board.owner.get(unit_province(target)) != ctx.power:
        return None
    mover = Unit.parse(target)
    for order, text in _other_orders(ctx):
        if order.action == "move" and order.unit == mover and order.target_province == province:
            return text
    return None


def _close(written: str, province: str, ctx: Context) -> bool:
    from gmserver.rules.reading.provinces import _distance  # noqa: PLC0415

    spellings = [k for k, c in ctx.table.typo_keys if c == province]
    key = written.replace(" ", "")
    return any(_distance(key, s, 1) <= 1 for s in spellings)


def _move_target(unit: str, province: str, coast: str | None, via: bool, ctx: Context, notes: Notes,
                 quiet: bool = False) -> str | None:
    """The engine destination of a move (`BUR`, `SPA/NC`, `BEL VIA`), or None if impossible."""
    board = ctx.board
    location = unit_location(unit)
    if province == unit_province(unit) or province not in ctx.geography.provinces:
        return None
    if unit[0] == "A":
        by_land, by_convoy = board.army_can_reach(unit, province)
        if not ctx.opt("convoy_possible_move_legal"):
            by_convoy = False
        if coast and not quiet:
            notes.add("DATC 4.B.6", f"An army needs no coast; '/{coast}' was ignored.")
        if via and by_convoy:
            return f"{province} VIA"
        if via and not by_convoy and by_land and not quiet:
            notes.add("DATC 6.G.8", "No convoy can carry it there, so the army moves by land.")
        if by_land:
            return province
        if by_convoy:
            return f"{province} VIA"
        return None
    coasts = ctx.geography.provinces[province].coasts
    moves = ctx.geography.fleet_moves.get(location, ())
    if not coasts:
        return province if province in moves else None
    reachable = [c for c in coasts if c in moves]
    if not reachable:
        return None
    if coast:
        wanted = f"{province}/{coast}"
        if wanted in reachable:
            return wanted
        if quiet:
            return reachable[0]
        rule = ctx.cite("coast_wrong_destination")
        if ctx.opt("coast_wrong_destination") == "redirect_if_unique" and len(reachable) == 1:
            notes.add(rule, f"The fleet cannot reach {ctx.name(wanted) if wanted in board_coasts(ctx, province) else 'that coast'}; "
                      f"read as {ctx.name(reachable[0])}.")
            return reachable[0]
        if len(reachable) == 1:
            raise Rejected(f"{unit} cannot reach the {_coast_words(coast)} of {ctx.name(province)}, only "
                           f"{ctx.name(reachable[0])}.{_mean(unit, ' - ', reachable)}", rule, unit=unit, moves=True)
        raise Rejected(f"'{coast}' is not a coast of {ctx.name(province)} the fleet can reach; it could "
                       f"mean {_names(reachable, ctx, 'or')}.{_mean(unit, ' - ', reachable)}", rule, unit=unit,
                       moves=True)
    rule = ctx.cite("coast_omitted_move")
    if len(reachable) == 1:
        if ctx.opt("coast_omitted_move") == "always_invalid" and not quiet:
            raise Rejected(f"The coast of {ctx.name(province)} must be given.{_mean(unit, ' - ', reachable)}",
                           rule, unit=unit, moves=True)
        if not quiet:
            notes.add(rule, f"Coast omitted: read as {ctx.name(reachable[0])}, the only coast it can reach.")
        return reachable[0]
    if quiet:
        return reachable[0]
    raise Rejected(f"{ctx.name(province)} has two coasts the fleet can reach; say which."
                   f"{_mean(unit, ' - ', reachable)}", rule, unit=unit, moves=True)


def _mean(head: str, joint: str, locations: Sequence[str]) -> str:
    """" Did you mean F MAO - SPA/NC or F MAO - SPA/SC?" """
    if not locations:
        return ""
    return " Did you mean " + " or ".join(f"{head}{joint}{location}" for location in locations) + "?"


def board_coasts(ctx: Context, province: str) -> tuple[str, ...]:
    return ctx.geography.provinces[province].coasts


def _why_not(unit: str, province: str, ctx: Context) -> str:
    location = unit_location(unit)
    kind = ctx.geography.provinces[province].kind
    if unit[0] == "A" and kind == "water":
        return f"An army cannot move to {ctx.name(province)}, a sea province."
    if unit[0] == "F" and kind == "land":
        return f"A fleet cannot move to {ctx.name(province)}, an inland province."
    if kind == "shut":
        return f"{ctx.name(province)} is impassable."
    if unit[0] == "A":
        return (f"{ctx.name(location)} does not border {ctx.name(province)} and no convoy can carry the "
                f"army there now.")
    return f"A fleet in {ctx.name(location)} cannot reach {ctx.name(province)} in one move."


def _support(parsed: Parsed, unit: str, ctx: Context, notes: Notes) -> Verdict:
    board = ctx.board
    supporter_province = unit_province(unit)
    target = _any_unit(parsed.target, ctx, notes, "support")
    target_province = unit_province(target)
    if target_province == supporter_province:
        raise Rejected("A unit cannot support itself.", unit=unit)
    _check_supported_coast(parsed.target, target, unit, ctx, notes)
    if parsed.dest is None:
        if not board.reaches_for_support(unit, target_province):
            raise Rejected(f"{unit} cannot support {target}: it could not move to "
                           f"{ctx.name(target_province)} itself.", unit=unit)
        return _verdict(f"{unit} S {target}", unit, "support", notes)

    def reachable(province: str) -> bool:
        return board.reaches_for_support(unit, province) and _supported_can_reach(target, province, unit, ctx)

    province = _choose(parsed.dest, ctx, notes, reachable, "the supported move's destination",
                       lambda p: _own_move(target, p, ctx))
    if province == target_province:
        notes.add(ctx.cite("move_to_own_province"), "A support of a move to the unit's own province is read as a "
                  "support to hold.")
        if not board.reaches_for_support(unit, target_province):
            raise Rejected(f"{unit} cannot reach {ctx.name(target_province)}.", unit=unit)
        return _verdict(f"{unit} S {target}", unit, "support", notes)
    if province == supporter_province:
        raise Rejected(f"{unit} cannot support a move into its own province.", unit=unit)
    if not board.reaches_for_support(unit, province):
        raise Rejected(f"{unit} cannot support a move to {ctx.name(province)}: it could not move there "
                       f"itself.", unit=unit)
    if not _supported_can_reach(target, province, unit, ctx):
        raise Rejected(f"{target} cannot reach {ctx.name(province)}, so it cannot be supported there.",
                       unit=unit)
    written = _with_nationality(Verdict("accepted", f"{unit} S {target}", kind="support"), parsed, ctx)
    destination = _support_destination(target, province, parsed.dest.coast, ctx, notes, unit, written)
    implied = None
    if ctx.board.owner.get(target_province) == ctx.power:
        implied_dest = _move_target(target, province, None, False, ctx, Notes(), quiet=True)
        if implied_dest is not None and (target[0] == "A" or "/" not in implied_dest or destination.endswith(implied_dest[-3:])):
            implied = f"{target} - {destination if '/' in destination else implied_dest}"
    return _verdict(f"{unit} S {target} - {destination}", unit, "support", notes, implied=implied)


def _check_supported_coast(ref: UnitRef, target: str, supporter: str, ctx: Context, notes: Notes) -> None:
    """coast_support_mismatch for the coast written for the supported fleet's own position (000
    IV(7) "to, from or for holding in"): kept where the profile keeps a fleet located in the
    province (accept_if_unique, ignore), void where a non-corresponding coast is void."""
    coast, location = ref.place.coast, unit_location(target)
    if not coast or target[0] != "F" or "/" not in location or location.endswith("/" + coast):
        return
    rule = ctx.cite("coast_support_mismatch")
    if ctx.opt("coast_support_mismatch") == "invalid":
        raise Rejected(f"The fleet supported is on the {_coast_words(location)} of "
                       f"{ctx.name(unit_province(target))}, not the {_coast_words(coast)}: the support is void.",
                       rule, unit=supporter, repair={"target": target})
    notes.add(rule, f"The fleet supported is at {ctx.name(location)}; the coast written for it was ignored.")


def _supported_can_reach(target: str, province: str, supporter: str, ctx: Context) -> bool:
    board = ctx.board
    if target[0] == "A":
        by_land, by_convoy = board.army_can_reach(target, province, exclude=unit_province(supporter))
        return by_land or by_convoy
    return board.fleet_reaches_province(unit_location(target), province) and province != unit_province(target)


def _support_destination(target: str, province: str, coast: str | None, ctx: Context, notes: Notes,
                         supporter: str, written: str) -> str:
    """Coast rules for supports (coast_support_omitted, coast_support_mismatch); `written` is the
    support as the player would write it ("F POR S F MAO"), for "Did you mean"."""
    coasts = ctx.geography.provinces[province].coasts
    if target[0] == "A" or not coasts:
        if coast and target[0] == "A":
            notes.add("DATC 4.B.6", "An army needs no coast; the coast written was ignored.")
        return province
    reachable = ctx.geography.fleet_coasts_reachable(unit_location(target), province)
    if coast:
        wanted = f"{province}/{coast}"
        if wanted in reachable:
            return wanted
        rule = ctx.cite("coast_support_mismatch")
        treatment = ctx.opt("coast_support_mismatch")
        if treatment == "ignore":
            notes.add(rule, f"The coast written does not fit the supported fleet; the support is to {ctx.name(province)}.")
            return province
        if treatment == "accept_if_unique" and len(reachable) == 1:
            notes.add(rule, f"The supported fleet can only reach {ctx.name(reachable[0])}; read as that.")
            return reachable[0]
        raise Rejected(f"The supported fleet cannot reach the {_coast_words(coast)} of {ctx.name(province)}: "
                       f"the support is void.{_mean(written, ' - ', reachable)}", rule, unit=supporter)
    rule = ctx.cite("coast_support_omitted")
    treatment = ctx.opt("coast_support_omitted")
    if treatment == "always_invalid":
        raise Rejected(f"The coast of {ctx.name(province)} must be given in a support of a fleet: the "
                       f"support is void.{_mean(written, ' - ', reachable)}", rule, unit=supporter)
    if len(reachable) == 1:
        return reachable[0]
    if treatment == "accept_always":
        return province
    raise Rejected(f"The supported fleet could reach either coast of {ctx.name(province)}; say which: "
                   f"the support is void.{_mean(written, ' - ', reachable)}", rule, unit=supporter)


def _convoy(parsed: Parsed, unit: str, ctx: Context, notes: Notes) -> Verdict:
    board = ctx.board
    here = unit_province(unit)
    if unit[0] != "F" or board.kind(here) != "water":
        raise Rejected(f"Only a fleet in a sea province can convoy; {unit} cannot.", unit=unit)
    target = _any_unit(parsed.target, ctx, notes, "convoy")
    if target[0] != "A":
        raise Rejected(f"Only armies can be convoyed; {target} is a fleet.", unit=unit)
    start = unit_province(target)
    province = _choose(parsed.dest, ctx, notes, lambda p: board.convoy_path_through(here, start, p),
                       "the convoy's destination", lambda p: _own_move(target, p, ctx))
    if not board.convoy_path_through(here, start, province):
        raise Rejected(f"{unit} cannot be part of a convoy of {target} to {ctx.name(province)} with the fleets "
                       f"now on the board.", unit=unit)
    return _verdict(f"{unit} C {target} - {province}", unit, "convoy", notes, moves=True,
                    implied=f"{target} - {province} VIA" if board.owner.get(start) == ctx.power else None)


# ------------------------------------------------------------------------------------------
# Retreat phase


def read_retreat(parsed: Parsed, ctx: Context, suggest: bool = True) -> Verdict:
    notes = Notes()
    unit: str | None = None
    try:
        if parsed.kind == "waive" or parsed.unit is None:
            raise Rejected("This is a retreat phase: only retreats and disbands are read.")
        unit = _own_unit(parsed.unit, ctx, notes, dislodged=True)
        if parsed.kind == "disband":
            return _verdict(f"{unit} D", unit, "disband", notes)
        if parsed.kind in ("move", "retreat") and parsed.dest is not None and not parsed.error:
            options = ctx.board.retreat_options(unit)
            provinces = {o.split("/")[0] for o in options}
            province = _choose(parsed.dest, ctx, notes, lambda p: p in provinces, "the retreat")
            choices = [o for o in options if o.split("/")[0] == province]
            if not choices:
                raise Rejected(f"{unit} cannot retreat to {ctx.name(province)}"
                               f"{'; it can go to ' + _names(options, ctx, 'or') if options else ''}.", unit=unit)
            coast = parsed.dest.coast
            if unit[0] == "F" and len(choices) > 1:
                wanted = f"{province}/{coast}" if coast else None
                if wanted not in choices:
                    raise Rejected(f"Say which coast of {ctx.name(province)}.{_mean(unit, ' R ', choices)}",
                                   ctx.cite("coast_omitted_move"), unit=unit)
                choices = [wanted]
            elif unit[0] == "F" and coast and not choices[0].endswith("/" + coast) and "/" in choices[0]:
                if ctx.opt("coast_wrong_destination") != "redirect_if_unique":
                    raise Rejected(f"{unit} can only retreat to {ctx.name(choices[0])}.{_mean(unit, ' R ', choices)}",
                                   ctx.cite("coast_wrong_destination"), unit=unit)
                notes.add(ctx.cite("coast_wrong_destination"), f"Read as {ctx.name(choices[0])}.")
            elif unit[0] == "F" and not coast and "/" in choices[0]:
                if ctx.opt("coast_omitted_move") == "always_invalid":
                    raise Rejected(f"The coast must be given.{_mean(unit, ' R ', choices)}",
                                   ctx.cite("coast_omitted_move"), unit=unit)
                notes.add(ctx.cite("coast_omitted_move"), f"Coast omitted: read as {ctx.name(choices[0])}.")
            return _verdict(f"{unit} R {choices[0]}", unit, "retreat", notes)
        raise Rejected(parsed.error.capitalize() + "." if parsed.error else
                       "A dislodged unit can only retreat or disband.", unit=unit)
    except Rejected as problem:
        unit = unit or problem.unit
        hint = _did_you_mean(parsed, problem, ctx, read_retreat) if suggest else ""
        message = " ".join(notes.messages + [problem.message + hint])
        rules = "; ".join(r for r in (notes.rule, problem.rule) if r) or None
        if unit is None:
            return Verdict("rejected", None, None, parsed.kind or "retreat", rules, message, valid=False)
        rule = "; ".join(dict.fromkeys(r for r in (rules, ctx.cite("illegal_retreat")) if r))
        return Verdict("rejected", f"{unit} D", unit, "retreat", rule,
                       f"{message} An illegal retreat order disbands the unit.", valid=False)


# ------------------------------------------------------------------------------------------
# Adjustment phase


def read_adjustment(parsed: Parsed, ctx: Context) -> Verdict:
    notes = Notes()
    due = ctx.board.adjustment(ctx.power)
    try:
        if parsed.kind == "waive":
            if due <= 0:
                raise Rejected("You have no builds to waive.")
            return Verdict("accepted", "WAIVE", None, "waive")
        if parsed.kind == "build":
            if due <= 0:
                raise Rejected("You have no builds this turn." if due == 0 else
                               f"You must remove {-due} unit{'s' if due < -1 else ''}, not build.")
            return _build(parsed, ctx, notes)
        if parsed.kind == "disband":
            if due >= 0:
                raise Rejected("You have no units to remove this turn.")
            unit = _own_unit(parsed.unit, ctx, notes)
            return _verdict(f"{unit} D", unit, "disband", notes)
        raise Rejected("This is an adjustment phase: only builds, removals and waives are read.")
    except Rejected as problem:
        # a rule of the game itself (an occupied or foreign centre, no builds due): the rulebook
        rule = problem.rule or ctx.cite("rulebook")
        rules = "; ".join(dict.fromkeys(r for r in (notes.rule, rule) if r))
        hint = ""
        if problem.repair and "unit" in problem.repair and parsed.kind == "disband":
            hint = f" Did you mean {problem.repair['unit']} D?"
        message = " ".join(notes.messages + [problem.message + hint])
        return Verdict("rejected", None, None, parsed.kind or "build", rules, message, valid=False)


def _build(parsed: Parsed, ctx: Context, notes: Notes) -> Verdict:
    ref = parsed.unit
    sites = ctx.board.build_sites(ctx.power)
    province = _choose(ref.place, ctx, notes, lambda p: p in sites, "the build")
    info = ctx.geography.provinces[province]
    if province not in ctx.geography.home_centres(ctx.power):
        raise Rejected(f"{ctx.name(province)} is not one of your home supply centres.")
    if province not in ctx.board.position.centers.get(ctx.power, ()):
        raise Rejected(f"You do not own {ctx.name(province)} now.")
    if province in ctx.board.owner:
        raise Rejected(f"{ctx.name(province)} is occupied.")
    kind, coast = ref.type, ref.place.coast
    if kind is None:
        treatment = ctx.opt("build_type_omitted")
        rule = ctx.cite("build_type_omitted")
        if treatment == "no_build":
            raise Rejected("The unit type (A or F) is missing: nothing is built."
                           + _build_choices(province, coast, ctx), rule)
        if info.kind == "land":
            kind = "A"
            notes.add(rule, f"Unit type omitted: an army is built in inland {ctx.name(province)}.")
        elif treatment == "army_inland_fleet_if_coast" and coast and f"{province}/{coast}" in info.coasts:
            kind = "F"
            notes.add(rule, "Unit type omitted but a coast given: a fleet is built.")
        else:
            raise Rejected(f"The unit type (A or F) is missing and {ctx.name(province)} could take either: "
                           f"nothing is built.{_build_choices(province, coast, ctx)}", rule)
    if kind == "F":
        if info.kind == "land":
            raise Rejected(f"A fleet cannot be built in inland {ctx.name(province)}: nothing is built.",
                           ctx.cite("fleet_build_inland"))
        if info.coasts:
            location = f"{province}/{coast}" if coast else None
            if location not in info.coasts:
                raise Rejected(f"Say which coast of {ctx.name(province)} the fleet is built on: nothing is built."
                               f"{_mean('F ', '', [c + ' B' for c in info.coasts])}",
                               ctx.cite("fleet_build_coast_omitted"))
            return _verdict(f"F {location} B", None, "build", notes, site=province)
        if coast:
            notes.add(ctx.cite("rulebook"), f"{ctx.name(province)} has one coast; '/{coast}' was ignored.")
        return _verdict(f"F {province} B", None, "build", notes, site=province)
    if coast and info.coasts:
        if ctx.opt("army_build_with_coast") == "no_build":
            raise Rejected("An army ordered built on a coast: nothing is built.", ctx.cite("army_build_with_coast"))
        notes.add(ctx.cite("army_build_with_coast"), "An army needs no coast; the coast was ignored.")
    return _verdict(f"A {province} B", None, "build", notes, site=province)


def _build_choices(province: str, coast: str | None, ctx: Context) -> str:
    """" Did you mean A SEV B or F SEV B?" for a build without a unit type."""
    info = ctx.geography.provinces[province]
    builds = [f"A {province} B"]
    if info.kind != "land":
        fleets = [c for c in info.coasts if not coast or c.endswith("/" + coast)] or list(info.coasts)
        builds += [f"F {c} B" for c in fleets] if info.coasts else [f"F {province} B"]
    return " Did you mean " + " or ".join(builds) + "?"


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
