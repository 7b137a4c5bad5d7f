"""Which unit an order names: the player's own (unit type and own-coast rules applied) or any
unit on the board (the one supported or convoyed), and the unit words the messages print."""

from __future__ import annotations

from gmserver.rules.position import unit_location, unit_province
from gmserver.rules.reading.grammar import UnitRef
from gmserver.rules.reading.provinces import Place, suggestions
from gmserver.rules.reading.verdict import Context, Notes, Rejected, _choose, _nationality_required


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
        unit = _fragment_unit(ref, ctx, notes, dislodged)
        if unit is not None:
            return unit
    province = _choose(place, ctx, notes, lambda p: own_at(p) is not None, "the unit ordered")
    unit = own_at(province)
    if unit is None:
        raise Rejected(_no_unit_message(ref, province, ctx, dislodged), ctx.cite("orders_for_missing_units")
                       if ctx.opt("orders_for_missing_units") else None)
    return _check_type(ref, unit, ctx, notes)


def _fragment_unit(ref: UnitRef, ctx: Context, notes: Notes, dislodged: bool) -> str | None:
    """unit_location_matching: a fragment of a name ("I" of 002 FORMAT 7's "I-GRE", "Bu", "Ki")
    standing for the ordered unit's location. own_units (001 II(1) by analogy, 002 FORMAT 7):
    read as the one unit of the player's it fits; two or more: ambiguous, both named. map_only:
    never read, but the reply says which order it would have been. None: no own unit fits."""
    place = ref.place
    mine = [u for u in _own_units(ctx, dislodged) if _fragment_fits(place, unit_province(u), ctx)]
    own_units = ctx.opt("unit_location_matching") == "own_units"
    if not mine or (place.ambiguous and not (own_units and len(mine) == 1)):
        return None  # an ambiguous name ("Nor") is left to _choose and the abbreviation rules
    written = place.written.title()
    rule = ctx.cite("unit_location_matching")
    if own_units:
        if len(mine) == 1:
            notes.add(rule, f"Read '{written}' as {_your_units(mine, ctx)}, the only one of your units it fits.")
            return _check_type(ref, mine[0], ctx, notes)
        raise Rejected(f"'{written}' is ambiguous: it could be {_your_units(mine, ctx)}.", rule,
                       repair={"units": tuple(mine)})
    if len(mine) == 1:
        raise Rejected(f"'{written}' is not a province I know; this game does not read part of a name as "
                       f"one of your units, though only {_your_units(mine, ctx)} fits it.", rule,
                       repair={"unit": mine[0]})
    raise Rejected(f"'{written}' is not a province I know (it could be the start of {_your_units(mine, ctx)}).",
                   rule, repair={"units": tuple(mine)})


def _your_units(units: list[str], ctx: Context) -> str:
    """"your army in Budapest or your army in Bulgaria" """
    return " or ".join(f"your {unit_kind_word(u)} in {ctx.name(unit_province(u))}" for u in units)


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
