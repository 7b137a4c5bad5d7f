"""Moves in the movement phase: the destination a move may reach (coasts, convoys) and the
backing-order logic of 001 II(1) (a set's own supports, convoys and moves settle an ambiguous place)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from gmserver.rules.convoy_routes import route_problem
from gmserver.rules.order import Order
from gmserver.rules.position import unit_location, unit_province
from gmserver.rules.reading.grammar import Parsed
from gmserver.rules.reading.provinces import Place, edit_distance, suggestions
from gmserver.rules.reading.units import _coast_words
from gmserver.rules.reading.verdict import (
    Context,
    Notes,
    Rejected,
    Verdict,
    _choose,
    _mean,
    _names,
    _unit,
    _verdict,
)


def _move(parsed: Parsed, unit: str, ctx: Context, notes: Notes) -> Verdict:
    here = unit_province(unit)

    def legal(province: str) -> bool:
        return _destination(unit, province, None, parsed.via, ctx, Notes(), quiet=True) is not None

    try:
        province = _choose(parsed.dest, ctx, notes, legal, "the destination",
                           lambda p: _backing_order(unit, p, ctx))
    except Rejected as problem:
        raise Rejected(f"{unit} cannot move there: {problem.message}", problem.rule, unit=unit, moves=True,
                       unsure=problem.unsure) from None
    if province == here:
        raise Rejected(f"{unit} is ordered to move to its own province.", "own", unit=unit, moves=True)
    move = _move_target(unit, province, parsed.dest.coast, parsed.via, ctx, notes)
    if move is None and ctx.opt("valid_name_typos") == "correct_if_illegal":
        # a valid name that makes the order illegal may be a typo for one that makes it legal
        near = [p for p in suggestions(parsed.dest.written, ctx.table, 6)
                if p != province and _close(parsed.dest.written, p, ctx) and legal(p)]
        if len(near) == 1:
            notes.add(ctx.cite("valid_name_typos"), f"{ctx.name(province)} is impossible for {unit}; "
                      f"read '{parsed.dest.written.title()}' as {ctx.name(near[0])}.")
            province = near[0]
            move = _move_target(unit, province, parsed.dest.coast, parsed.via, ctx, notes)
    if move is None:
        why = _why_not(unit, province, ctx)
        raise Rejected(why, unit=unit, moves=True)
    if parsed.route:
        move = _with_route(move, parsed.route, unit, ctx, notes)
    elif ctx.opt("datc_4a6") == "required" and unit[0] == "A" and move.via_convoy:
        # DATC 4.A.6 "path required": a convoyed move without its route is not carried out
        raise Rejected(f"{unit} can reach {ctx.name(province)} only by convoy, and in this game a convoyed move must "
                       f"name its route (e.g. {unit} - North Sea - {ctx.name(province)}).",
                       ctx.cite("datc_4a6"), unit=unit, moves=True)
    return _verdict(move, unit, "move", notes, moves=True)


def _with_route(move: Order, route: Sequence[Place], unit: str, ctx: Context, notes: Notes) -> Order:
    """The route written with a convoyed move (000 VI(3), DATC 4.A.6). `ignored`: noted only, the
    army moves by any convoy route there is. Otherwise the order keeps the route, which must be a
    chain of sea provinces from the army's province to its destination; the adjudication then uses
    that route and no other (rules/convoys.py written_routes)."""
    written = " - ".join(ctx.name(p.province) if p.province else p.written.title() for p in route)
    if ctx.opt("datc_4a6") == "ignored" or unit[0] != "A":
        notes.add(ctx.cite("datc_4a6"), f"Convoy route noted ({written}), but not binding in this game: the army "
                                        f"moves by any convoy route there is.")
        return move
    provinces = tuple(p.province or "" for p in route)
    problem = route_problem(unit_province(unit), move.target_province or "", provinces, ctx.geography)
    if problem:
        raise Rejected(f"{unit} cannot move by the route {written}: {problem}.", ctx.cite("datc_4a6"),
                       unit=unit, moves=True)
    notes.add(ctx.cite("datc_4a6"), f"Convoy route noted: {written}; the army moves by this route only.")
    return dataclasses.replace(move, via_convoy=True, route=provinces)


def _other_orders(ctx: Context) -> Iterator[Order]:
    """The valid orders on the set's other lines (001 II(1) second pass)."""
    for verdict in ctx.others or ():
        if verdict.valid and verdict.order and verdict.status in ("accepted", "corrected"):
            yield verdict.order


def _backing_order(unit: str, province: str, ctx: Context) -> Order | None:
    """001 II(1): the player's support or convoy of `unit` moving to `province`, if any."""
    mover = _unit(unit)
    for order in _other_orders(ctx):
        if order.action in ("support_move", "convoy") and order.other == mover and order.target_province == province:
            return order
    return None


def _own_move(target: str, province: str, ctx: Context) -> Order | None:
    """001 II(1): the player's own move of `target` to `province` in this set, if any."""
    if ctx.board.owner.get(unit_province(target)) != ctx.power:
        return None
    mover = _unit(target)
    for order in _other_orders(ctx):
        if order.action == "move" and order.unit == mover and order.target_province == province:
            return order
    return None


def _close(written: str, province: str, ctx: Context) -> bool:
    spellings = [k for k, c in ctx.table.typo_keys if c == province]
    key = written.replace(" ", "")
    return any(edit_distance(key, s, 1) <= 1 for s in spellings)


def _move_target(unit: str, province: str, coast: str | None, via: bool, ctx: Context, notes: Notes,
                 quiet: bool = False) -> Order | None:
    """The move of `unit` to `province` (to `BUR`, `SPA/NC`, `BEL` by convoy), or None if impossible."""
    destination = _destination(unit, province, coast, via, ctx, notes, quiet)
    if destination is None:
        return None
    location, by_convoy = destination
    return Order("move", _unit(unit), location, via_convoy=by_convoy)


def _destination(unit: str, province: str, coast: str | None, via: bool, ctx: Context, notes: Notes,
                 quiet: bool) -> tuple[str, bool] | None:
    """(the location a move reaches, whether it insists on a convoy), or None if impossible."""
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
            return province, True
        if via and not by_convoy and by_land and not quiet:
            notes.add("DATC 6.G.8", "No convoy can carry it there, so the army moves by land.")
        if by_land:
            return province, False
        if by_convoy:
            return province, True
        return None
    coasts = ctx.geography.provinces[province].coasts
    moves = ctx.geography.fleet_moves.get(location, ())
    if not coasts:
        return (province, False) if province in moves else None
    reachable = [c for c in coasts if c in moves]
    if not reachable:
        return None
    if coast:
        wanted = f"{province}/{coast}"
        if wanted in reachable:
            return wanted, False
        if quiet:
            return reachable[0], False
        rule = ctx.cite("coast_wrong_destination")
        if ctx.opt("coast_wrong_destination") == "redirect_if_unique" and len(reachable) == 1:
            reached = ctx.name(wanted) if wanted in board_coasts(ctx, province) else "that coast"
            notes.add(rule, f"The fleet cannot reach {reached}; "
                      f"read as {ctx.name(reachable[0])}.")
            return reachable[0], False
        if len(reachable) == 1:
            raise Rejected(f"{unit} cannot reach the {_coast_words(coast)} of {ctx.name(province)}, only "
                           f"{ctx.name(reachable[0])}.{_mean(_moves(unit, reachable))}", rule, unit=unit, moves=True)
        raise Rejected(f"'{coast}' is not a coast of {ctx.name(province)} the fleet can reach; it could "
                       f"mean {_names(reachable, ctx, 'or')}.{_mean(_moves(unit, reachable))}", rule, unit=unit,
                       moves=True)
    rule = ctx.cite("coast_omitted_move")
    if len(reachable) == 1:
        if ctx.opt("coast_omitted_move") == "always_invalid" and not quiet:
            raise Rejected(f"The coast of {ctx.name(province)} must be given.{_mean(_moves(unit, reachable))}",
                           rule, unit=unit, moves=True)
        if not quiet:
            notes.add(rule, f"Coast omitted: read as {ctx.name(reachable[0])}, the only coast it can reach.")
        return reachable[0], False
    if quiet:
        return reachable[0], False
    raise Rejected(f"{ctx.name(province)} has two coasts the fleet can reach; say which."
                   f"{_mean(_moves(unit, reachable))}", rule, unit=unit, moves=True)


def _moves(unit: str, locations: Sequence[str]) -> list[Order]:
    return [Order("move", _unit(unit), location) for location in locations]


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
