"""What reading one order line returns (`Verdict`), what it reads against (`Context`), and the
choices every order form shares: which province a place stands for, how names are printed, the
"did you mean" repairs and the contingent-order verdict (see interpret.py for the policy)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import unit_province
from gmserver.rules.reading.board import Board
from gmserver.rules.reading.foreign_names import language_of
from gmserver.rules.reading.grammar import Parsed
from gmserver.rules.reading.options import clause, option
from gmserver.rules.reading.provinces import NameTable, Place, suggestions
from gmserver.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Verdict:
    status: str  # accepted / corrected / rejected / ignored
    order: Order | None
    unit: str | None = None  # the unit the order is for ("A PAR"); None for builds and waives
    kind: str = "hold"
    rule: str | None = None
    message: str | None = None
    valid: bool = True  # False: a void order that leaves the unit holding (or disbanding)
    moves: bool = False  # the unit was ordered to move or convoy (hold support rules)
    unsupportable: bool = False  # failed_move_unsupportable applied
    implied: Order | None = None  # 002 FORMAT 9: the order this support implies for another unit
    site: str | None = None  # build site province
    contingent: bool = False  # a retreat or adjustment order in a movement set
    unsure: bool = False  # void only because several readings were legal (001 II(1) second pass)
    chatter: str | None = None  # a greeting, heading, sign-off or signature line (chatter.KINDS)


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

    def __init__(self, message: str, rule: str | None = None, fallback: Order | None = None,
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
    ruleset: Ruleset
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
            consistent: Callable[[str], Order | None] | None = None) -> str:
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
        if place.how == "partial" and len(fitting) == 1:
            # a partial name the profile accepts, fitting one province only this unit can use
            notes.add(ctx.cite("partial_names"),
                      f"'{place.written.title()}' could be {_names(place.provinces, ctx, 'or')}; read as "
                      f"{ctx.name(fitting[0])}, the only one that fits this order.")
            return fitting[0]
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
    if place.how == "foreign":
        raise Rejected(foreign_name_message(place, ctx))
    near = place.suggestions or suggestions(place.written, ctx.table)
    hint = f" Did you mean {_names(near, ctx, 'or')}?" if near else ""
    raise Rejected(f"'{place.written.title()}' is not a province I know.{hint}")


def foreign_name_message(place: Place, ctx: Context) -> str:
    """A French, German or Italian name the game does not read (province_languages)."""
    name = ctx.name(place.suggestions[0])
    return (f"'{place.written.title()}' is the {language_of(place.written)} name of {name}; this game reads "
            f"province names in English: write {name}.")


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


def _nationality_required(ctx: Context, what: str) -> bool:
    required = ctx.opt("nationality_omitted")
    return required == "invalid" or (required == "invalid_for_supports" and what.startswith("support"))


def _did_you_mean(parsed: Parsed, problem: Rejected, ctx: Context,
                  reread: Callable[..., Verdict]) -> str:
    """" Did you mean <order>?" when fixing the unit type, coast or nationality the line wrote
    makes it an order this profile accepts (e.g. 002 FORMAT 7's "A ION-GRE" -> F ION - GRE)."""
    repair = problem.repair
    if not repair:
        return ""
    if "units" in repair:
        # a fragment two of the player's units fit ("Bu": Budapest, Bulgaria): each order it could be
        meant = [_did_you_mean(parsed, Rejected("", repair={"unit": unit}), ctx, reread) for unit in repair["units"]]
        orders = [m.removeprefix(" Did you mean ").removesuffix("?") for m in meant if m]
        return f" Did you mean {' or '.join(orders)}?" if orders else ""
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
    return _as_written(verdict.order, verdict.kind, parsed, ctx) if verdict.order is not None else ""


def _as_written(order: Order, kind: str, parsed: Parsed, ctx: Context) -> str:
    """`_with_nationality` for one order value (a support or convoy the line could have been)."""
    if kind not in ("support", "convoy") or parsed.target is None or order.other is None:
        return str(order)
    owner = ctx.board.owner.get(order.other.province)
    if owner is None or owner == ctx.power:
        return str(order)
    if parsed.target.power is None and not _nationality_required(ctx, kind):
        return str(order)
    adjective = next((w for w, p in ctx.powers.items() if p == owner and w != owner), owner)
    return order.written_with(adjective)


def _unit(unit: str) -> Unit:
    """A unit of the position (engine notation, e.g. `F STP/SC`) as a value."""
    return Unit.parse(unit)


def _hold(unit: str) -> Order:
    return Order("hold", _unit(unit))


def _verdict(order: Order, unit: str | None, kind: str, notes: Notes, **extra) -> Verdict:
    status = "corrected" if notes.messages else "accepted"
    return Verdict(status, order, unit, kind, notes.rule, notes.message, **extra)


_ADJUSTMENT_KINDS = frozenset({"build", "remove", "waive"})
CONTINGENT_KEPT = ("kept for the retreat or adjustment turn after these moves (if that turn comes) and used there "
                   "only if you send no set for that turn.")
# 003 [5], the UK two-season game: the retreats and builds are processed at once after the moves,
# with no turn of their own to send a set in
CONTINGENT_KEPT_AT_ONCE = "kept for the retreats and builds processed at once after these moves, if any are due."
CONTINGENT_REFUSED = "Retreat and adjustment orders are sent in their own turn; this line was not used."


def minor_turns_at_once(ruleset: Ruleset) -> bool:
    """003 [5] (season_structure = uk_two_season, two_season_retreat_timing = same_turn): the
    retreats and builds are processed in the moves' adjudication, never opened for a set."""
    return (option(ruleset, "season_structure") == "uk_two_season"
            and option(ruleset, "two_season_retreat_timing") == "same_turn")


def contingent_verdict(kind: str, ctx: Context, what: str = "A retreat or adjustment order in a movement set",
                       extra: str = "") -> Verdict:
    """contingent_minor_orders (000 II(5), 001 II(6)): `accepted` keeps the line for the following
    minor turn (Reading.contingent); `rejected` drops it."""
    rule = ctx.cite("contingent_minor_orders")
    position = ctx.board.position
    if kind in _ADJUSTMENT_KINDS and position.phase_type == "M" and position.phase.startswith("S"):
        # builds and removals follow the Fall moves only: nothing would ever read this line. A
        # profile without a clause would cite the option in words ("... are kept for the turn that
        # follows"), the rule that keeps lines, beside a line not kept: the rulebook's order of turns is why
        if " = " in rule:
            rule = "RB2000"
        return Verdict("ignored", None, None, kind, rule,
                       f"{what}: not used: builds and removals are made only after the Fall moves, and no "
                       "adjustment turn follows Spring.")
    if ctx.opt("contingent_minor_orders") == "accepted":
        kept = CONTINGENT_KEPT_AT_ONCE if minor_turns_at_once(ctx.ruleset) else CONTINGENT_KEPT
        return Verdict("ignored", None, None, kind, rule, f"{what}: {kept}{extra}", contingent=True)
    return Verdict("ignored", None, None, kind, rule, CONTINGENT_REFUSED)


def _mean(orders: Sequence[Order], written: Callable[[Order], str] = str) -> str:
    """" Did you mean F MAO - SPA/NC or F MAO - SPA/SC?" (`written`: how each is put to the player)"""
    if not orders:
        return ""
    return " Did you mean " + " or ".join(written(order) for order in orders) + "?"
