"""Retreat and adjustment orders (retreats, disbands, builds, removals, waives), each in its own turn."""

from __future__ import annotations

from gmserver.rules.order import Order, Unit
from gmserver.rules.reading.grammar import Parsed
from gmserver.rules.reading.units import _own_unit
from gmserver.rules.reading.verdict import (
    Context,
    Notes,
    Rejected,
    Verdict,
    _choose,
    _did_you_mean,
    _mean,
    _names,
    _unit,
    _verdict,
)

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
            return _verdict(Order("disband", _unit(unit)), unit, "disband", notes)
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
                    raise Rejected(f"Say which coast of {ctx.name(province)}.{_mean(_retreats(unit, choices))}",
                                   ctx.cite("coast_omitted_move"), unit=unit)
                choices = [wanted]
            elif unit[0] == "F" and coast and not choices[0].endswith("/" + coast) and "/" in choices[0]:
                if ctx.opt("coast_wrong_destination") != "redirect_if_unique":
                    raise Rejected(f"{unit} can only retreat to {ctx.name(choices[0])}.{_mean(_retreats(unit, choices))}",
                                   ctx.cite("coast_wrong_destination"), unit=unit)
                notes.add(ctx.cite("coast_wrong_destination"), f"Read as {ctx.name(choices[0])}.")
            elif unit[0] == "F" and not coast and "/" in choices[0]:
                if ctx.opt("coast_omitted_move") == "always_invalid":
                    raise Rejected(f"The coast must be given.{_mean(_retreats(unit, choices))}",
                                   ctx.cite("coast_omitted_move"), unit=unit)
                notes.add(ctx.cite("coast_omitted_move"), f"Coast omitted: read as {ctx.name(choices[0])}.")
            return _verdict(Order("retreat", _unit(unit), choices[0]), unit, "retreat", notes)
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
        return Verdict("rejected", Order("disband", _unit(unit)), unit, "retreat", rule,
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
            return Verdict("accepted", Order("waive"), None, "waive")
        if parsed.kind == "build":
            if due <= 0:
                raise Rejected("You have no builds this turn." if due == 0 else
                               f"You must remove {-due} unit{'s' if due < -1 else ''}, not build.")
            return _build(parsed, ctx, notes)
        if parsed.kind == "disband":
            if due >= 0:
                raise Rejected("You have no units to remove this turn.")
            unit = _own_unit(parsed.unit, ctx, notes)
            return _verdict(Order("remove", _unit(unit)), unit, "disband", notes)
        raise Rejected("This is an adjustment phase: only builds, removals and waives are read.")
    except Rejected as problem:
        # a rule of the game itself (an occupied or foreign centre, no builds due): the rulebook
        rule = problem.rule or ctx.cite("rulebook")
        rules = "; ".join(dict.fromkeys(r for r in (notes.rule, rule) if r))
        hint = ""
        if problem.repair and "unit" in problem.repair and parsed.kind == "disband":
            hint = _mean([Order("remove", _unit(problem.repair["unit"]))])
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
                               f"{_mean([_build_order('F', c) for c in info.coasts])}",
                               ctx.cite("fleet_build_coast_omitted"))
            return _verdict(_build_order("F", location), None, "build", notes, site=province)
        if coast:
            notes.add(ctx.cite("rulebook"), f"{ctx.name(province)} has one coast; '/{coast}' was ignored.")
        return _verdict(_build_order("F", province), None, "build", notes, site=province)
    if coast and info.coasts:
        if ctx.opt("army_build_with_coast") == "no_build":
            raise Rejected("An army ordered built on a coast: nothing is built.", ctx.cite("army_build_with_coast"))
        notes.add(ctx.cite("army_build_with_coast"), "An army needs no coast; the coast was ignored.")
    return _verdict(_build_order("A", province), None, "build", notes, site=province)


def _build_choices(province: str, coast: str | None, ctx: Context) -> str:
    """" Did you mean A SEV B or F SEV B?" for a build without a unit type."""
    info = ctx.geography.provinces[province]
    builds = [_build_order("A", province)]
    if info.kind != "land":
        fleets = [c for c in info.coasts if not coast or c.endswith("/" + coast)] or list(info.coasts)
        builds += [_build_order("F", c) for c in fleets] if info.coasts else [_build_order("F", province)]
    return _mean(builds)


def _build_order(kind: str, location: str) -> Order:
    return Order("build", Unit(kind, location))  # type: ignore[arg-type]


def _retreats(unit: str, locations: list[str]) -> list[Order]:
    return [Order("retreat", _unit(unit), location) for location in locations]
