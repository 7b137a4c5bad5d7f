"""The only module that imports the `diplomacy` engine (PyPI, AGPL-3.0-or-later).

Everything else sees plain values: `MapInfo`, `Position`, `PhaseOutcome` and an opaque engine
state (the engine's own `get_state()` dictionary, small and JSON-safe) that the database stores
per phase. The engine is imported lazily so that importing gmserver stays cheap and logging can
be configured first (importing it installs a DEBUG handler on its logger; see ENGINE.md).
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from typing import Any, Mapping, Sequence

from gmserver.rules.geography import MapInfo, Province
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position, unit_location

EngineState = dict[str, Any]

# The engine caches map data at class level without a lock; one game at a time per process.
_ENGINE_LOCK = threading.RLock()


def _diplomacy():
    os.environ.setdefault("HOME", "/tmp")  # the engine fails to import without a home directory
    import diplomacy  # noqa: PLC0415  (deliberately lazy)

    engine_logger = logging.getLogger("diplomacy")
    engine_logger.handlers.clear()
    engine_logger.propagate = True
    engine_logger.setLevel(logging.WARNING)
    return diplomacy


def _new_game():
    # Default rules minus nothing: IGNORE_ERRORS keeps process() quiet; orders are validated by
    # gmserver before they get here, so the engine's own order checks are a second line.
    return _diplomacy().Game(map_name="standard")


def _game_from_state(state: Mapping[str, Any]):
    game = _new_game()
    game.set_state(dict(state))
    return game


# ---------------------------------------------------------------------------------------------
# Map


@functools.lru_cache(maxsize=1)
def map_info() -> MapInfo:
    """The standard map as plain data (built once per process, about 50 ms)."""
    with _ENGINE_LOCK:
        game = _new_game()
        emap = game.map
        homes = {centre: power for power, centres in emap.homes.items() for centre in centres}
        names = {code: name for name, code in emap.loc_name.items()}
        provinces: dict[str, Province] = {}
        for loc in emap.locs:
            code = loc.upper()
            if "/" in code:
                continue
            kind = {"LAND": "land", "COAST": "coast", "WATER": "water", "SHUT": "shut"}[emap.area_type(code)]
            coasts = tuple(c.upper() for c in emap.loc_coasts.get(code, []) if "/" in c)
            provinces[code] = Province(
                code=code,
                name=names.get(code, code).title().replace("Of ", "of "),
                kind=kind,
                coasts=tuple(sorted(coasts)),
                supply_centre=code in emap.scs,
                home_of=homes.get(code),
            )
        army_moves: dict[str, frozenset[str]] = {}
        fleet_moves: dict[str, frozenset[str]] = {}
        fleet_locations = [
            loc for loc in (l.upper() for l in emap.locs)
            if provinces[loc.split("/")[0]].kind in ("coast", "water")
            and not provinces[loc.split("/")[0]].coasts or "/" in loc
        ]
        for code, province in provinces.items():
            if province.kind in ("land", "coast"):
                army_moves[code] = frozenset(
                    other for other, p in provinces.items()
                    if p.kind in ("land", "coast") and other != code and emap.abuts("A", code, "-", other)
                )
        for loc in fleet_locations:
            fleet_moves[loc] = frozenset(
                other for other in fleet_locations if other != loc and emap.abuts("F", loc, "-", other)
            )
        aliases = {name.upper(): code.upper() for name, code in emap.aliases.items()
                   if code and code.split("/")[0].upper() in provinces}
        aliases.update({name.upper(): code.upper() for name, code in emap.loc_name.items()})
        power_words = {word.upper(): power for word, power in emap.aliases.items() if power in emap.powers}
        power_words.update({power: power for power in emap.powers})
        return MapInfo(
            name="standard",
            powers=tuple(sorted(emap.powers)),
            provinces=provinces,
            army_moves=army_moves,
            fleet_moves=fleet_moves,
            aliases=aliases,
            power_words=power_words,
        )


# ---------------------------------------------------------------------------------------------
# Positions and states


def initial_state() -> EngineState:
    """The standard opening position, Spring 1901 movement."""
    with _ENGINE_LOCK:
        return _new_game().get_state()


def state_from_position(position: Position) -> EngineState:
    """An engine state for a DATC-style position (ENGINE.md: set the phase before the units)."""
    with _ENGINE_LOCK:
        game = _new_game()
        game.clear_units()
        game.clear_centers()
        game.set_current_phase(position.phase)
        for power in game.powers:
            units = list(position.units.get(power, ())) + ["*" + u for u in position.dislodged.get(power, ())]
            if units:
                game.set_units(power, units)
            if position.centers.get(power):
                game.set_centers(power, list(position.centers[power]))
        if position.phase_type == "A" and not position.centers:
            raise ValueError("an adjustment-phase position needs 'centers'")
        if position.phase_type == "R":
            _set_hand_made_retreats(game, position)
        return game.get_state()


def _set_hand_made_retreats(game, position: Position) -> None:
    """A hand-made retreat phase has no attacker on record: its options ignore the attacker's
    origin unless the position lists them (ENGINE.md)."""
    occupied = {unit_location(u).split("/")[0] for units in position.units.values() for u in units}
    for power_name, dislodged in position.dislodged.items():
        power = game.get_power(power_name)
        for unit in dislodged:
            if unit in position.retreats:
                power.retreats[unit] = list(position.retreats[unit])
                continue
            unit_type, location = unit.split(" ", 1)
            options = [
                dest for dest in game.map.abut_list(location, incl_no_coast=False)
                if game.map.abuts(unit_type, location, "-", dest.upper())
                and dest.upper().split("/")[0] not in occupied
            ]
            power.retreats[unit] = sorted({d.upper() for d in options})


def position_from_state(state: Mapping[str, Any]) -> Position:
    """The plain-data view of an engine state (no engine call needed)."""
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[str]] = {}
    for power, power_units in state["units"].items():
        for unit in power_units:
            if unit.startswith("*"):
                dislodged.setdefault(power, []).append(unit[1:])
            else:
                units.setdefault(power, []).append(unit)
    retreats = {unit: tuple(options) for by_unit in state.get("retreats", {}).values()
                for unit, options in by_unit.items()}
    adjustments = {}
    if state["name"].endswith("A"):
        adjustments = {p: b["count"] for p, b in state.get("builds", {}).items() if b.get("count")}
    return Position(
        phase=state["name"],
        units={p: tuple(sorted(u)) for p, u in units.items()},
        centers={p: tuple(sorted(c)) for p, c in state["centers"].items() if c},
        dislodged={p: tuple(sorted(u)) for p, u in dislodged.items()},
        retreats=retreats,
        adjustments=adjustments,
    )


def legal_orders(state: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Every legal order per orderable location, as the engine lists them."""
    with _ENGINE_LOCK:
        game = _game_from_state(state)
        possible = game.get_all_possible_orders()
        orderable = {loc for power in game.powers.values() for loc in game.get_orderable_locations(power.name)}
        return {loc: tuple(sorted(orders)) for loc, orders in possible.items() if loc in orderable and orders}


# ---------------------------------------------------------------------------------------------
# Adjudication


def adjudicate(state: Mapping[str, Any], orders: Mapping[str, Sequence[str]]) -> PhaseOutcome:
    """Process one phase with exactly `orders` (power -> engine orders) and return the outcome.

    The caller passes explicit orders for every unit it wants ordered (house-rule defaults
    included); units left without an order get the engine's own default and are marked
    `defaulted` in the outcome.
    """
    with _ENGINE_LOCK:
        game = _game_from_state(state)
        before = position_from_state(game.get_state())
        phase = game.get_current_phase()
        for power, power_orders in orders.items():
            if power_orders:
                game.set_orders(power, list(power_orders))
        submitted = {p: list(o) for p, o in game.get_orders().items()}
        game.process()
        results = {str(unit): tuple(str(r) for r in rs if str(r)) for unit, rs in game.result_history[phase].items()}
        after_state = game.get_state()
        winners = tuple(sorted(game.outcome[1:])) if game.is_game_done and len(game.outcome) > 1 else ()
    after = position_from_state(after_state)
    outcomes, engine_removals = _outcomes(before, submitted, results)
    return PhaseOutcome(
        phase=phase,
        before=before,
        after=after,
        orders=outcomes,
        state_after=after_state,
        winners=winners,
        engine_removals=engine_removals,
    )


def _outcomes(
    before: Position, submitted: Mapping[str, list[str]], results: Mapping[str, tuple[str, ...]]
) -> tuple[tuple[OrderOutcome, ...], tuple[str, ...]]:
    outcomes: list[OrderOutcome] = []
    ordered_units: set[str] = set()
    for power in sorted(submitted):
        for order in submitted[power]:
            unit = _order_unit(order, before.phase_type)
            ordered_units.add(unit)
            outcomes.append(OrderOutcome(power, order, results.get(unit, ())))
    engine_removals: list[str] = []
    kind = before.phase_type
    for power in sorted(before.units if kind != "R" else before.dislodged):
        units = before.units.get(power, ()) if kind == "M" else before.dislodged.get(power, ()) if kind == "R" else ()
        for unit in units:
            if unit not in ordered_units:
                default = f"{unit} H" if kind == "M" else f"{unit} D"
                outcomes.append(OrderOutcome(power, default, results.get(unit, ()), defaulted=True))
    if kind == "A":
        for power, units in before.units.items():
            for unit in units:
                if unit not in ordered_units and unit in results:
                    engine_removals.append(unit)
                    outcomes.append(OrderOutcome(power, f"{unit} D", (), defaulted=True))
    return tuple(outcomes), tuple(sorted(engine_removals))


def _order_unit(order: str, kind: str) -> str:
    words = order.split()
    if kind == "A" and len(words) >= 3 and words[-1] in ("B", "D"):
        return f"{words[0]} {words[1]}"
    return " ".join(words[:2])
