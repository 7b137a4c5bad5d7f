"""Supports and convoys in the movement phase: the unit backed, where it may go, and which coast."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gmserver.rules.order import Order
from gmserver.rules.position import unit_location, unit_province
from gmserver.rules.reading.grammar import Parsed, UnitRef
from gmserver.rules.reading.moves import _move_target, _own_move
from gmserver.rules.reading.units import _any_unit, _coast_words
from gmserver.rules.reading.verdict import (
    Context,
    Notes,
    Rejected,
    Verdict,
    _as_written,
    _choose,
    _mean,
    _unit,
    _verdict,
)


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
        return _if_it_moves(_verdict(_support_hold(unit, target), unit, "support", notes), target, ctx)

    def reachable(province: str) -> bool:
        return board.reaches_for_support(unit, province) and _supported_can_reach(target, province, unit, ctx)

    province = _choose(parsed.dest, ctx, notes, reachable, "the supported move's destination",
                       lambda p: _own_move(target, p, ctx))
    if province == target_province:
        # DATC 6.A.5: a move to the unit's own province is illegal, so a support of it is void too,
        # even where that move is read as a hold that may be supported (move_to_own_province): a
        # support of a move never becomes a support to hold. No house document says otherwise
        # (000 III(5), 001 III(1), 003 [10 b], 004 I(3) make the void order a hold; 002 FORMAT 11
        # speaks of the move "A Mun -> Mun" itself), so the supporting unit holds in every profile.
        raise Rejected(f"{target} cannot move to {ctx.name(target_province)}, where it already is, so that "
                       f"move cannot be supported: the support is void{_whatever(target, ctx)}.", "DATC 6.A.5",
                       unit=unit)
    if province == supporter_province:
        raise Rejected(f"{unit} cannot support a move into its own province.", unit=unit)
    if not board.reaches_for_support(unit, province):
        raise Rejected(f"{unit} cannot support a move to {ctx.name(province)}: it could not move there "
                       f"itself.", unit=unit)
    if not _supported_can_reach(target, province, unit, ctx):
        # void whatever the unit's owner orders (the move is impossible for it), so said now, in
        # every profile: where the void move leaves it holding (DATC 4.E.1) a support of a move
        # does not fit a hold, and where it cannot even be supported (000 III(5), 003 [10 b]) neither
        raise Rejected(f"{target} cannot reach {ctx.name(province)}, so that move cannot be supported: "
                       f"the support is void{_whatever(target, ctx)}.", unit=unit)

    def written(order: Order) -> str:
        return _as_written(order, "support", parsed, ctx)

    destination = _support_destination(target, province, parsed.dest.coast, ctx, notes, unit, written)
    implied = None
    if ctx.board.owner.get(target_province) == ctx.power:
        # 002 FORMAT 9: the move this support implies for the player's own unit, to the coast supported
        move = _move_target(target, province, None, False, ctx, Notes(), quiet=True)
        if move is not None and (target[0] == "A" or move.target == destination or move.target == province):
            implied = move
    verdict = _verdict(Order("support_move", _unit(unit), destination, _unit(target)), unit, "support", notes,
                       implied=implied)
    return _if_other_coast(verdict, target, destination, ctx)


def _whatever(target: str, ctx: Context) -> str:
    owner = ctx.board.owner.get(unit_province(target))
    return f" whatever {owner.title()} orders" if owner not in (None, ctx.power) else ""


def _if_it_moves(verdict: Verdict, target: str, ctx: Context) -> Verdict:
    """000 III(5) ¶1, 003 [10 b] (failed_move_unsupportable): a unit ordered to move cannot receive
    support to hold "irrespective of whether the unit is able to move". For another power's unit
    that depends on an order this reading cannot see, so the confirmation says it in one sentence,
    only where the profile says so (elsewhere a void move leaves a hold that may be supported)."""
    owner = ctx.board.owner.get(unit_province(target))
    if owner in (None, ctx.power) or ctx.opt("impossible_move_treatment") != "failed_move_unsupportable":
        return verdict
    rules = "; ".join(dict.fromkeys(r for r in (verdict.rule, ctx.cite("impossible_move_treatment")) if r))
    sentence = (f"If {owner.title()} orders {target} to move, even where it cannot go, this support will be "
                f"void.")
    return replace(verdict, rule=rules, message=" ".join(m for m in (verdict.message, sentence) if m))


def _if_other_coast(verdict: Verdict, target: str, destination: str, ctx: Context) -> Verdict:
    """coast_support_mismatch = invalid (DATC 4.B.4, 003 [10 c] "specifying the wrong coast will
    result in a misorder"): a support of another power's fleet to one coast of a province it could
    enter by either is void if that power orders the other coast (turn.void_mismatched_coast_supports
    decides it at adjudication); said in one sentence now. Where the fleet's coast is what counts
    (000 IV(7), 001 III(9), 004 II(3)c) nothing depends on it."""
    owner = ctx.board.owner.get(unit_province(target))
    if owner in (None, ctx.power) or target[0] != "F" or "/" not in destination \
            or ctx.opt("coast_support_mismatch") != "invalid":
        return verdict
    province = destination.split("/")[0]
    if len(ctx.geography.fleet_coasts_reachable(unit_location(target), province)) < 2:
        return verdict
    rules = "; ".join(dict.fromkeys(r for r in (verdict.rule, ctx.cite("coast_support_mismatch")) if r))
    sentence = (f"If {owner.title()} orders {target} to the other coast of {ctx.name(province)}, this support "
                f"will be void.")
    return replace(verdict, rule=rules, message=" ".join(m for m in (verdict.message, sentence) if m))


def _support_hold(unit: str, target: str) -> Order:
    return Order("support_hold", _unit(unit), other=_unit(target))


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
                         supporter: str, written: Callable[[Order], str]) -> str:
    """Coast rules for supports (coast_support_omitted, coast_support_mismatch); `written` puts a
    support the way the player would write it ("F POR S FRENCH F MAO - SPA/NC"), for "Did you mean"."""
    coasts = ctx.geography.provinces[province].coasts
    if target[0] == "A" or not coasts:
        if coast and target[0] == "A":
            notes.add("DATC 4.B.6", "An army needs no coast; the coast written was ignored.")
        return province
    reachable = ctx.geography.fleet_coasts_reachable(unit_location(target), province)
    choices = [Order("support_move", _unit(supporter), location, _unit(target)) for location in reachable]
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
                       f"the support is void.{_mean(choices, written)}", rule, unit=supporter)
    rule = ctx.cite("coast_support_omitted")
    treatment = ctx.opt("coast_support_omitted")
    if treatment == "always_invalid":
        raise Rejected(f"The coast of {ctx.name(province)} must be given in a support of a fleet: the "
                       f"support is void.{_mean(choices, written)}", rule, unit=supporter)
    if len(reachable) == 1:
        return reachable[0]
    if treatment == "accept_always":
        return province
    raise Rejected(f"The supported fleet could reach either coast of {ctx.name(province)}; say which: "
                   f"the support is void.{_mean(choices, written)}", rule, unit=supporter)


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
    implied = Order("move", _unit(target), province, via_convoy=True) if board.owner.get(start) == ctx.power else None
    return _verdict(Order("convoy", _unit(unit), province, _unit(target)), unit, "convoy", notes, moves=True,
                    implied=implied)
