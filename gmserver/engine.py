"""The only module that imports the `diplomacy` engine (PyPI, AGPL-3.0-or-later).

Everything else sees plain values: `MapInfo`, `Position`, `PhaseOutcome` and an opaque engine
state (the engine's own `get_state()` dictionary, small and JSON-safe) that the database stores
per phase. The engine is imported lazily so that importing gmserver stays cheap and logging can
be configured first (importing it installs a DEBUG handler on its logger; see docs/architecture.md, "The engine").

Longer than the ~400 lines the other modules keep to, on purpose: the layers rule gives the engine
one module (tests/unit/test_layers.py), so its map data, position conversion, adjudication, SVG and
the two engine bugs it works around (`_fix_convoy_dislodged_retreats`, hand-made retreats) live here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib.util
import json
import logging
import os
import re
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gmserver.paths import cache_dir
from gmserver.rules.defaults import missing_orders
from gmserver.rules.geography import MapInfo, Province
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position, unit_location

EngineState = dict[str, Any]

log = logging.getLogger(__name__)

# The engine caches map data at class level without a lock; one game at a time per process.
_ENGINE_LOCK = threading.RLock()


def _diplomacy():
    os.environ.setdefault("HOME", "/tmp")  # the engine fails to import without a home directory
    import diplomacy  # noqa: PLC0415  (deliberately lazy)

    engine_logger = logging.getLogger("diplomacy")
    # called for every engine game: setLevel empties every logger's cache each time it is called
    # (some 200 Python calls a game at the deadline), so each is set only when it differs
    if engine_logger.handlers:
        engine_logger.handlers.clear()
    if not engine_logger.propagate:
        engine_logger.propagate = True
    if engine_logger.level != logging.WARNING:
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


def _let_go(game) -> None:
    """Let the reference counts free `game` once it is done with: its powers refer back to it
    (`Power.game`), a cycle that left the whole game (some 370 containers) to the garbage
    collector, which at a deadline of many games then ran every few dozen of them."""
    for power in game.powers.values():
        power.game = None


# ---------------------------------------------------------------------------------------------
# Map


# What gmserver derives from the engine's map and needs in nearly every process: building it
# loads the engine and its map (about a second of CPU), reading it back from disk a few
# milliseconds. Kept as JSON in cache_dir(), one file per engine version and FACTS_FORMAT: raise
# FACTS_FORMAT whenever what built_facts() builds, or MapInfo itself, changes.
FACTS_FORMAT = 1


@dataclasses.dataclass(frozen=True)
class EngineFacts:
    geography: MapInfo
    opening: Position  # the standard opening, Spring 1901 movement

    def to_json(self) -> dict[str, Any]:
        return {"map": self.geography.to_json(), "opening": self.opening.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EngineFacts:
        return cls(geography=MapInfo.from_json(data["map"]), opening=Position.from_json(data["opening"]))


def engine_version() -> str:
    """The installed engine's version, read without importing it: from the name of its
    `diplomacy-VERSION.dist-info` beside the package, which pip writes (importlib.metadata would
    read the same and costs a fifth of `gmserver orders read`); where there is none, from the
    package's modification time, which a reinstall changes as surely."""
    package = engine_package()
    for info in package.parent.glob("diplomacy-*.dist-info"):
        return info.name.removeprefix("diplomacy-").removesuffix(".dist-info")
    return f"unversioned-{(package / '__init__.py').stat().st_mtime_ns}"


def engine_package() -> Path:
    """The engine's package directory, found without loading the engine (a second of CPU)."""
    spec = importlib.util.find_spec("diplomacy")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the diplomacy engine is not installed")
    return Path(spec.submodule_search_locations[0])


@functools.lru_cache(maxsize=1)
def engine_facts() -> EngineFacts:
    """The map facts of the installed engine: from the cache, else built (and cached)."""
    return cached_facts(cache_dir(), engine_version())


def cached_facts(directory: Path, version: str) -> EngineFacts:
    """The facts kept in `directory` for engine `version`; built and written there when missing or
    unreadable. A directory that cannot be written costs the build in every process, nothing else."""
    path = directory / f"engine-facts-{FACTS_FORMAT}-{re.sub(r'[^A-Za-z0-9.+-]', '_', version)}.json"
    try:
        with path.open(encoding="utf-8") as file:
            status = os.fstat(file.fileno())
            # the order reader trusts these facts: only a file this user wrote and nobody else may change
            if status.st_uid != os.getuid() or status.st_mode & 0o022:
                raise ValueError("written by another user, or writable by others")
            data = json.load(file)
        if data.get("engine") == version and data.get("format") == FACTS_FORMAT:
            return EngineFacts.from_json(data)
        log.warning("%s is not for engine %s, format %s: building the map facts again", path, version, FACTS_FORMAT)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        log.warning("%s is not used (%s): building the map facts again", path, error)
    facts = built_facts()
    try:
        _write_atomically(path, json.dumps({"engine": version, "format": FACTS_FORMAT, **facts.to_json()}))
    except OSError as error:
        log.warning("cannot keep the engine's map facts in %s (%s): every process builds them", directory, error)
    return facts


def _write_atomically(path: Path, text: str) -> None:
    # processes may start together: each writes its own file and renames it into place, so a
    # reader sees a whole file or none
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def map_info() -> MapInfo:
    """The standard map as plain data."""
    return engine_facts().geography


def opening_position() -> Position:
    """The standard opening, Spring 1901 movement, as plain data (no engine call)."""
    return engine_facts().opening


def built_facts() -> EngineFacts:
    """The facts as the engine gives them now (about half a second of CPU, the engine's import included)."""
    return EngineFacts(geography=_built_map_info(), opening=position_from_state(initial_state()))


def _built_map_info() -> MapInfo:
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
            loc for loc in (name.upper() for name in emap.locs)
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
    """An engine state for a DATC-style position (set the phase before the units: docs/architecture.md, "The engine").

    Raises ValueError if the engine would not hold the position as given: it silently drops
    units it finds invalid (`F MUN`, unknown powers, two units in one province) and centres
    that are not supply centres, so the placed position is compared with the requested one.
    """
    if position.phase_type == "A" and not position.centers:
        raise ValueError("an adjustment-phase position needs 'centers'")
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
        if position.phase_type == "R":
            _set_hand_made_retreats(game, position)
        state = game.get_state()
    _check_placed(position, position_from_state(state))
    return state


def _check_placed(wanted: Position, placed: Position) -> None:
    problems = []
    for field in ("units", "dislodged", "centers"):
        want, got = getattr(wanted, field), getattr(placed, field)
        for power in sorted(set(want) | set(got)):
            missing = sorted(set(want.get(power, ())) - set(got.get(power, ())))
            if missing:
                problems.append(f"{field} of {power} not accepted by the engine: {', '.join(missing)}")
    if problems:
        raise ValueError("; ".join(problems))


def _set_hand_made_retreats(game, position: Position) -> None:
    """A hand-made retreat phase has no attacker on record: its options ignore the attacker's
    origin and any standoff unless the position lists them (docs/architecture.md, "The engine"). Options come from the
    map's adjacency (an army may retreat into a two-coast province: `engine.abut_list(...,
    incl_no_coast=False)` misses that, e.g. A MAR -> SPA) minus occupied provinces."""
    info = map_info()
    occupied = {unit_location(u).split("/")[0] for units in position.units.values() for u in units}
    for power_name, dislodged in position.dislodged.items():
        power = game.get_power(power_name)
        for unit in dislodged:
            if unit in position.retreats:
                power.retreats[unit] = list(position.retreats[unit])
                continue
            parsed = Unit.parse(unit)
            if parsed.is_army:
                moves = info.army_moves.get(parsed.province, frozenset())
            else:
                moves = info.fleet_moves.get(parsed.location, frozenset())
            power.retreats[unit] = sorted(dest for dest in moves if dest.split("/")[0] not in occupied)


def with_units(state: Mapping[str, Any], power: str, units: Sequence[str]) -> EngineState:
    """`state` with `power`'s units replaced by `units` (a GM's repair of a surplus unit, 000
    VIII(2), VIII(3)); ValueError if the engine would not hold them."""
    with _ENGINE_LOCK:
        game = _game_from_state(state)
        game.set_units(power, list(units), reset=True)
        changed = game.get_state()
    placed = set(position_from_state(changed).units.get(power, ()))
    if placed != set(units):
        raise ValueError(f"the engine did not place {power}'s units as {', '.join(units)}")
    return changed


def at_retreat_phase(state: Mapping[str, Any], phase: str) -> EngineState:
    """`state` (the position after a movement phase the engine left with nothing to retreat) put
    back at that season's retreat `phase` ("S1901R"), with nobody dislodged: processing it returns
    the engine to where it went by itself (report_empty_retreat_season, 002 PRESS 7)."""
    with _ENGINE_LOCK:
        game = _game_from_state(state)
        game.set_current_phase(phase)
        return game.get_state()


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


class IncompleteOrders(ValueError):
    """The orders leave a unit, a build or a removal to the engine's own defaults, which are not
    the house rules' (`rules.defaults.complete_orders` supplies those)."""


def adjudicate(state: Mapping[str, Any], orders: Mapping[str, Sequence[Order | str]], *,
               engine_decides_solo: bool = True, position: Position | None = None) -> PhaseOutcome:
    """Process one phase with exactly `orders` (power -> engine orders) and return the outcome.
    The orders are Order values (used as they are, written in engine notation here) or text (a
    line that is not engine notation goes to the engine as it is, and the engine drops it).

    `orders` must be complete: an order for every unit (movement), every dislodged unit
    (retreats), every build due (or WAIVE) and every removal due; house-rule defaults included
    (`rules.defaults.complete_orders`). Raises IncompleteOrders otherwise, so that no engine
    default slips in. An illegal order the engine drops leaves its unit to the engine (hold,
    disband); orders are read and checked before they get here.
    With `engine_decides_solo` False the engine never ends the game by a win (it would at 18
    centres): the caller decides by the profile's own count (gmserver.rules.game_end).
    `position`: `position_from_state(state)`, where the caller has read it already (it is the
    outcome's `before`: the engine's own state after `set_state` reads the same).
    """
    before = position_from_state(state) if position is None else position
    _check_complete(before, orders)
    with _ENGINE_LOCK:
        game = _game_from_state(state)
        if not engine_decides_solo:
            game.win = len(game.map.scs) + 1  # out of reach: no power can own more centres than exist
        phase = before.phase
        for power, power_orders in orders.items():
            if power_orders:
                _set_orders(game, power, list(power_orders))
        submitted = {p: list(o) for p, o in game.get_orders().items()}
        if phase.endswith("A"):  # a removal it dropped would be chosen by its own rule
            _check_complete(before, submitted, "the engine did not accept every removal: ", removals_only=True)
        game.process()
        if phase.endswith("M"):
            _fix_convoy_dislodged_retreats(game)
        results = {str(unit): tuple(str(r) for r in rs if str(r)) for unit, rs in game.result_history[phase].items()}
        after_state = game.get_state()
        winners = tuple(sorted(game.outcome[1:])) if game.is_game_done and len(game.outcome) > 1 else ()
        _let_go(game)
    after = position_from_state(after_state)
    outcomes, engine_removals = _outcomes(before, after, submitted, results)
    return PhaseOutcome(
        phase=phase,
        before=before,
        after=after,
        orders=outcomes,
        state_after=after_state,
        winners=winners,
        engine_removals=engine_removals,
    )


def _set_orders(game, power: str, orders: list[Order | str]) -> None:
    """The power's orders, exactly as the engine's `set_orders` takes them (Order values written
    in its notation).

    Why not plainly: gmserver hands the engine orders already in its own notation (every token
    resolved by the reader, str(Order)), so in a movement phase the engine's expansion of
    abbreviations and unit types is wasted work: `expand=False`, which its docstring offers "for a
    performance improvement", takes 0.13 ms a game instead of 1.1 ms (the deadline benchmark;
    process() itself is 0.6 ms). Its validity checks still run. The expansion is not always the
    identity on such orders (`_expansion_may_change`): a set with such an order goes the usual way,
    and so does a set the engine dropped any order of (e.g. a fleet on the wrong coast)."""
    texts = [str(order) for order in orders]
    if game.phase_type != "M" or any(_expansion_may_change(order if isinstance(order, Order)
                                                           else Order.parse_or_none(order, "M")) for order in orders):
        game.set_orders(power, texts)
        return
    game.set_orders(power, texts, expand=False)
    # in a movement phase the engine keeps one order per unit in `Power.orders` (gmserver never sets
    # NO_CHECK): counting them there spares get_orders writing each one out again
    if len(game.powers[power].orders) != len(texts):
        game.clear_orders(power)
        game.set_orders(power, texts)


def _expansion_may_change(order: Order | None) -> bool:
    """Whether the engine 1.1.2's order expansion (Game._expand_coast, Map.default_coast) could
    rewrite this movement order in its notation: an army named with a coast (the coast is
    dropped); a fleet at a province with coasts named without one (the coast is added); a fleet
    move to such a province without a coast (its only reachable coast is added); a support of a
    move to a named coast (an army's coast dropped, a fleet's coast rewritten from the supported
    fleet's own order: DATC 6.B.9). An order gmserver cannot parse goes the usual way too."""
    if order is None or order.unit is None:
        return True
    if order.unit.kind == "A":
        places = (order.unit.location, order.target or "", order.other.location if order.other else "")
        return any("/" in place for place in places)
    coasted = _coasted()
    if order.unit.location in coasted or (order.action == "move" and order.target in coasted):
        return True
    return order.action == "support_move" and "/" in (order.target or "")


@functools.lru_cache(maxsize=1)
def _coasted() -> frozenset[str]:
    """The provinces with coasts ("BUL", "SPA", "STP")."""
    return frozenset(code for code, province in map_info().provinces.items() if province.coasts)


def _check_complete(position: Position, orders: Mapping[str, Sequence[Order | str]], why: str = "",
                    removals_only: bool = False) -> None:
    if removals_only:
        position = dataclasses.replace(position, adjustments={p: n for p, n in position.adjustments.items() if n < 0})
    kind = position.phase_type
    parsed = {power: [o for line in lines
                      if (o := line if isinstance(line, Order) else Order.parse_or_none(line, kind)) is not None]
              for power, lines in orders.items()}
    if missing := missing_orders(position, parsed):
        raise IncompleteOrders(f"{why}no order for {', '.join(missing)} in {position.phase}: the engine would "
                               "apply its own default, not the house rules'")


def _fix_convoy_dislodged_retreats(game) -> None:
    """Correct the retreat options of units dislodged by a convoyed army (engine 1.1.2 bug).

    `Game._move_results` allows a retreat to `where` if
    `not combat.get(where) and where != attacker_site or moving_via_convoy(attacker)`; by
    precedence the `or` wins, so a unit dislodged by a convoyed army may retreat to *every*
    adjacent province, occupied or contested ones included (DATC 6.F.21: English F CLY got
    EDI/LVP/NAO/NWG, all occupied). The intended rule is
    `not combat.get(where) and (where != attacker_site or via_convoy)` (DATC 4.A.5).

    Re-apply the missing half with the engine's own contest table (`game.combat`, still set after
    `process()` of a movement phase): drop destinations where any unit stands or a standoff
    happened. For every other dislodged unit this is a no-op. Units left without an option are
    destroyed as the engine does (`popped`), and a retreat phase left empty is processed at once
    so that the game stops where the engine would have stopped (it skips empty retreat phases).
    """
    if game.phase_type != "R":
        return
    combat = getattr(game, "combat", None) or {}
    changed = False
    for power in game.powers.values():
        for unit, options in list(power.retreats.items()):
            kept = [dest for dest in options if not combat.get(dest.upper()[:3])]
            if kept == options:
                continue
            changed = True
            if kept:
                power.retreats[unit] = kept
            else:
                parsed = Unit.parse(unit)
                game.update_hash(power.name, unit_type=parsed.kind, loc=parsed.location, is_dislodged=True)
                del power.retreats[unit]
                game.popped.append(unit)
    if changed and not any(power.retreats for power in game.powers.values()):
        game.process()  # the empty retreat phase: nothing to order, the engine advances


def _outcomes(
    before: Position,
    after: Position,
    submitted: Mapping[str, list[str]],
    results: Mapping[str, tuple[str, ...]],
) -> tuple[tuple[OrderOutcome, ...], tuple[str, ...]]:
    kind = before.phase_type
    outcomes: list[OrderOutcome] = []
    ordered_units: set[str] = set()
    # the engine's text becomes an Order here, at the adapter's edge (`A PAR D` is a removal in "A")
    parsed = {power: [Order.parse(order, kind) for order in orders] for power, orders in submitted.items()}
    for power in sorted(parsed):
        for order in parsed[power]:
            unit = _order_unit(order)
            ordered_units.add(unit)
            unit_results = results.get(unit, ())
            if kind in "RA":
                unit_results = _checked_against_board(power, order, unit, unit_results, before, after)
            outcomes.append(OrderOutcome(power, order, unit_results))
    engine_removals: list[str] = []
    for power in sorted(before.units if kind != "R" else before.dislodged):
        units = before.units.get(power, ()) if kind == "M" else before.dislodged.get(power, ()) if kind == "R" else ()
        for unit in units:
            if unit not in ordered_units:
                default = Order("hold" if kind == "M" else "disband", Unit.parse(unit))
                outcomes.append(OrderOutcome(power, default, results.get(unit, ()), defaulted=True))
    if kind == "A":
        # Removals nobody ordered are read off the board: every unit that is gone without a
        # removal order of its own. (The engine's results cannot tell: they are keyed by unit
        # string, so a void "A BER B" beside a standing A BER looks like a result for A BER.)
        removed_by_order = {
            _order_unit(order)
            for orders in parsed.values()
            for order in orders
            if order.action == "remove"
        }
        for power in sorted(before.units):
            remaining = set(after.units.get(power, ()))
            for unit in before.units[power]:
                if unit not in remaining and unit not in removed_by_order:
                    engine_removals.append(unit)
                    outcomes.append(OrderOutcome(power, Order("remove", Unit.parse(unit)), (), defaulted=True))
    return tuple(outcomes), tuple(sorted(engine_removals))


def _checked_against_board(
    power: str, order: Order, unit: str, unit_results: tuple[str, ...], before: Position, after: Position
) -> tuple[str, ...]:
    """Retreat and adjustment results, confirmed by the board after the phase.

    In these phases the engine keys results by unit string and also files the results of orders
    it rejected there: a duplicate "A PAR D" or "A MOS B", or a second retreat order for the same
    unit, marks the unit `void` although its valid order was carried out (DATC 6.I.7, 6.J.2). What
    happened on the board is authoritative: a build succeeded if the unit now stands where it did
    not before, a removal or disband if the unit is gone, a retreat if the unit stands at the
    destination.
    """
    now = set(after.units.get(power, ()))
    if order.action == "build":
        done = unit in now and unit not in set(before.units.get(power, ()))
    elif order.action in ("disband", "remove"):
        done = unit not in now or before.phase_type == "R"
    elif order.action == "retreat" and order.unit is not None and order.target is not None:
        done = str(Unit(order.unit.kind, order.target)) in now
    else:  # not an order the engine accepts in these phases; keep what it said
        return unit_results
    if done:
        return ()
    return unit_results or ("void",)


def _order_unit(order: Order) -> str:
    """The engine's key for an order's results: the unit (`A PAR`), or the order itself for WAIVE."""
    return str(order.unit) if order.unit is not None else str(order)


def process_seconds(state: Mapping[str, Any], orders: Mapping[str, Sequence[str]], *,
                    clock: Callable[[], float] | None = None) -> float:
    """How long the engine's own `process()` takes for this phase: the benchmark's yardstick.
    `clock`: time.perf_counter (wall) unless given, e.g. time.process_time (this process's CPU,
    steadier on a machine others load)."""
    import time  # noqa: PLC0415

    clock = clock or time.perf_counter
    with _ENGINE_LOCK:
        game = _game_from_state(state)
        for power, power_orders in orders.items():
            if power_orders:
                game.set_orders(power, list(power_orders))
        started = clock()
        game.process()
        return clock() - started


@functools.lru_cache(maxsize=1)
def map_svg() -> str:
    """The engine's drawing of the standard map (SVG text with its province coordinates): the
    report map (gmserver/mapimage.py) rasterises the board from it once and reads where units stand."""
    path = engine_package() / "maps" / "svg" / "standard.svg"
    return path.read_text(encoding="utf-8")
