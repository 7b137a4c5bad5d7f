"""The complete orders the engine is given: the orders on file plus the house rules' defaults for
every unit, dislodged unit, build and removal left without one (2.7, 2.13).

The engine has defaults of its own (moves hold, retreats disband, builds are waived, removals by
its own rule); gmserver never relies on them. `complete_orders` says
which orders are defaults and why, so that reports can say "no order received: holds".
Pure: the position, the orders and the ruleset come in; orders go out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gmserver.rules.distance import Distances, home_country
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position
from gmserver.rules.removals import CLAUSES, RULE_WORDS, alphabetical, choose_removals
from gmserver.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Default:
    """An order the server supplied. `note` is what the report says about it, or None for the
    plain defaults the report already words (holds, disbanded, removed by the rules)."""

    order: Order
    note: str | None = None


@dataclass(frozen=True)
class CompleteOrders:
    orders: Mapping[str, tuple[Order, ...]]  # power -> every order the engine is given
    defaults: Mapping[str, tuple[Default, ...]] = field(default_factory=dict)  # the ones supplied

    def default_notes(self) -> dict[tuple[str, str], str | None]:
        """(power, order text) -> note, for every default."""
        return {(power, str(d.order)): d.note for power, ds in self.defaults.items() for d in ds}


def complete_orders(position: Position, on_file: Mapping[str, Sequence[Order]], ruleset: Ruleset, geography: MapInfo,
                    civil_disorder: frozenset[str] = frozenset()) -> CompleteOrders:
    """The orders on file completed by the ruleset's defaults for the phase of `position`.

    A power in `civil_disorder` is given defaults only, whatever it has on file: its units hold
    (and may be supported, `cd_units_receive_hold_support`, DATC 4.D.9), its dislodged units get
    `nrr_default`, its builds `nbr_default` and its removals `removal_algorithm`."""
    kind = position.phase_type
    orders: dict[str, tuple[Order, ...]] = {}
    defaults: dict[str, tuple[Default, ...]] = {}
    powers = sorted(set(position.powers_to_order()) | set(on_file))
    distances = Distances(geography) if kind in "RA" else None
    for power in powers:
        own = () if power in civil_disorder else tuple(on_file.get(power, ()))
        if kind == "M":
            added = _movement_defaults(position, power, own, power in civil_disorder)
        elif kind == "R":
            added = _retreat_defaults(position, power, own, ruleset, distances)
        elif kind == "A":
            own = _one_way_adjustments(position, power, own)
            added = _adjustment_defaults(position, power, own, ruleset, distances)
        else:
            added = []
        if own or added:
            orders[power] = own + tuple(d.order for d in added)
        if added:
            defaults[power] = tuple(added)
    return CompleteOrders(orders, defaults)


def _ordered_provinces(orders: Sequence[Order]) -> set[str]:
    return {o.unit.province for o in orders if o.unit is not None}


def _movement_defaults(position: Position, power: str, own: Sequence[Order], in_cd: bool) -> list[Default]:
    """Units without an order hold (NMR; 000 III(5)); so do all units of a power in civil
    disorder (000 VII(6), 003 [12], [13]), and they may be supported (DATC 4.D.9)."""
    ordered = _ordered_provinces(own)
    # said after the result "holds" (reports/words.py): why the server held the unit
    note = f"{power.title()} is in civil disorder" if in_cd else None
    return [Default(Order("hold", Unit.parse(u)), note)
            for u in position.units.get(power, ()) if Unit.parse(u).province not in ordered]


def _retreat_defaults(position: Position, power: str, own: Sequence[Order], ruleset: Ruleset,
                      distances: Distances) -> list[Default]:
    """A dislodged unit without a retreat order: `nrr_default`. A unit with no legal retreat
    (a hopeless retreat, 002 ORDERS 4) needs no order from the player and is disbanded."""
    ordered = _ordered_provinces(own)
    unordered = [Unit.parse(u) for u in position.dislodged.get(power, ()) if Unit.parse(u).province not in ordered]
    if ruleset.nrr_default != "danivon_auto_retreat":
        return [Default(Order("disband", unit)) for unit in unordered]
    used = {o.target_province for o in own if o.action == "retreat"}
    alpha = alphabetical(distances, ruleset)
    added = []
    # 001 V(4): "each unit will be taken in alphabetical order of the current province"
    for unit in sorted(unordered, key=lambda u: alpha(u.province)):
        destination = auto_retreat(unit, power, position.retreats.get(str(unit), ()), used, distances, ruleset)
        if destination is None:
            added.append(Default(Order("disband", unit), "no retreat order and no free province: disbanded "
                                                         "(house rules 001 V(4))"))
            continue
        used.add(destination.split("/")[0])
        added.append(Default(Order("retreat", unit, destination),
                             "no retreat order: the house rules chose the retreat (001 V(4))"))
    return added


def auto_retreat(unit: Unit, power: str, options: Sequence[str], used: set[str], distances: Distances,
                 ruleset: Ruleset) -> str | None:
    """001 V(4): the first of the unit's legal retreats, not already taken by the player's
    own retreats [P], from the first non-empty class: (i) an SC of the home country, (ii) a non-SC
    province of the home country, (iii) another SC, (iv) any other province; alphabetically
    within the class (north coast before south coast [P]). None: no free province, disband."""
    provinces = distances.geography.provinces
    home = home_country(power)
    alpha = alphabetical(distances, ruleset)
    free = [dest for dest in options if dest.split("/")[0] not in used]
    if not free:
        return None

    def key(dest: str) -> tuple:
        province = dest.split("/")[0]
        klass = (0 if province in home else 2) + (0 if provinces[province].supply_centre else 1)
        return (klass, alpha(province), dest)

    return min(free, key=key)


def _one_way_adjustments(position: Position, power: str, own: Sequence[Order]) -> tuple[Order, ...]:
    """002 Q&A 8: no building and removing in the same winter. A power with builds due builds (or
    waives); one with removals due removes; the other kind of line is not used."""
    due = position.adjustments.get(power, 0)
    if due > 0:
        return tuple(o for o in own if o.action in ("build", "waive"))
    if due < 0:
        return tuple(o for o in own if o.action in ("remove", "disband"))
    return ()


def _adjustment_defaults(position: Position, power: str, own: Sequence[Order], ruleset: Ruleset,
                         distances: Distances) -> list[Default]:
    due = position.adjustments.get(power, 0)
    if due > 0:
        return _build_defaults(position, power, own, due, ruleset, distances.geography)
    if due == 0:
        return []
    units = [Unit.parse(u) for u in position.units.get(power, ())]
    removed = {o.unit.province for o in own if o.unit is not None and o.unit in units}
    shortfall = -due - len(removed)
    remaining = [u for u in units if u.province not in removed]
    algorithm = ruleset.removal_algorithm
    note = f"no removal order: removed by the rules, {RULE_WORDS[algorithm]} ({CLAUSES[algorithm]})"
    return [Default(Order("remove", unit), note)
            for unit in choose_removals(remaining, power, shortfall, ruleset, distances)]


def _build_defaults(position: Position, power: str, own: Sequence[Order], due: int, ruleset: Ruleset,
                    geography: MapInfo) -> list[Default]:
    """Builds not ordered: `nbr_default`. `waive` [P RB2000, DATC 4.D.7]; `danivon_auto_build`
    (001 V(5) ¶1) only when the player sent no adjustment orders at all."""
    missing = due - len(own)
    if missing <= 0:
        return []
    added: list[Default] = []
    if ruleset.nbr_default == "danivon_auto_build" and not own:
        clause = ruleset.cites("nbr_default")  # 001 V(5) ¶1 in danivon
        why = f"house rules {clause}" if clause else "this game's house rules"
        added = [Default(order, f"no build order received: built automatically ({why})")
                 for order in auto_builds(position, power, due, geography)]
    return added + [Default(Order("waive")) for _ in range(missing - len(added))]


def auto_builds(position: Position, power: str, due: int, geography: MapInfo) -> list[Order]:
    """001 V(5) ¶1: fleets if every supply centre the player owns is coastal, otherwise
    armies [P: the centres owned now]; in the available build sites (unoccupied owned home
    centres) in alphabetical order of their English names [P]; a fleet in a two-coast centre on
    its north coast [P] (St Petersburg)."""
    provinces = geography.provinces
    owned = position.centers.get(power, ())
    fleets = bool(owned) and all(provinces[c].kind == "coast" for c in owned)
    occupied = {Unit.parse(u).province for units in position.units.values() for u in units}
    sites = sorted((c for c in owned if provinces[c].home_of == power and c not in occupied),
                   key=lambda c: provinces[c].name)
    builds = []
    for site in sites[:due]:
        if fleets:
            location = sorted(provinces[site].coasts)[0] if provinces[site].coasts else site
            builds.append(Order("build", Unit("F", location)))
        else:
            builds.append(Order("build", Unit("A", site)))
    return builds


def missing_orders(position: Position, orders: Mapping[str, Sequence[Order]]) -> list[str]:
    """What `orders` leave unordered in the phase of `position` (empty: complete). The engine
    adapter refuses incomplete orders so that no engine default can slip in."""
    kind = position.phase_type
    missing = []
    for power in position.powers_to_order():
        own = orders.get(power, ())
        ordered = _ordered_provinces(own)
        if kind in "MR":
            board = position.units if kind == "M" else position.dislodged
            missing += [f"{power} {u}" for u in board.get(power, ()) if Unit.parse(u).province not in ordered]
            continue
        due = position.adjustments.get(power, 0)
        if due > 0 and sum(1 for o in own if o.action in ("build", "waive")) < due:
            missing.append(f"{power}: {due} builds (or waivers)")
        units = {Unit.parse(u) for u in position.units.get(power, ())}
        removals = {o.unit for o in own if o.action in ("remove", "disband") and o.unit in units}
        if due < 0 and len(removals) < -due:
            missing.append(f"{power}: {-due} removals")
    return missing


def hopeless(position: Position, power: str, geography: MapInfo) -> bool:
    """002 ORDERS 4: the power's orders for this phase cannot change anything, so it need not
    send them (the defaults, disband or remove all, are the only outcome).

    Fall retreats: after the Fall ownership update it owns no centre (counting none of its
    dislodged units as retreating onto one), none of its dislodged units may retreat onto a
    centre, and none may retreat where another power's dislodged unit may (so it cannot
    interfere with another country's retreat). Winter removals: it owns no centre."""
    kind = position.phase_type
    if kind == "A":
        return position.adjustments.get(power, 0) < 0 and not position.centers.get(power)
    if kind != "R" or position.phase[0] != "F" or not position.dislodged.get(power):
        return False
    provinces = geography.provinces
    occupant = {Unit.parse(u).province: p for p, units in position.units.items() for u in units}
    owned = [c for c in position.centers.get(power, ()) if occupant.get(c, power) == power]
    owned += [c for c, p in occupant.items() if p == power and provinces[c].supply_centre]
    if owned:
        return False
    mine = {d.split("/")[0] for u in position.dislodged[power] for d in position.retreats.get(u, ())}
    if any(provinces[d].supply_centre for d in mine):
        return False
    theirs = {d.split("/")[0] for p, units in position.dislodged.items() if p != power
              for u in units for d in position.retreats.get(u, ())}
    return not (mine & theirs)


def hopeless_powers(position: Position, geography: MapInfo) -> frozenset[str]:
    """002 ORDERS 4: the powers whose orders for this phase are hopeless (`hopeless`)."""
    return frozenset(p for p in position.powers_to_order() if hopeless(position, p, geography))


def owing_orders(position: Position, ruleset: Ruleset, geography: MapInfo) -> tuple[str, ...]:
    """The powers that must send orders this phase: those with something to order, less those
    whose retreats or removals are hopeless where `hopeless_orders_exempt` (002 ORDERS 4)."""
    powers = position.powers_to_order()
    if not ruleset.hopeless_orders_exempt:
        return powers
    return tuple(p for p in powers if not hopeless(position, p, geography))
