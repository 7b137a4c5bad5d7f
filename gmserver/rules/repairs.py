"""Repairing a surplus unit (`extra_unit_repair = mhr`, 000 VIII(2), VIII(3)). Pure.

000 VIII(2): a unit a power should not have ("Flying Dutchman") is removed at once when the GM's
error put it there; when it is there because too few units were disbanded, the civil-disorder
removal rule picks the unit to remove, distances measured on the latest position. 000 VIII(3)
(which prevails): a unit wrongly in a province that correctly holds another unit is disbanded,
or moved to the province it should have been in if that is free.

The GM says which case it is (the server proposes, the GM confirms): a named unit is removed
or moved; with no unit named, the game's `removal_algorithm` picks it. The third case of
VIII(2), too many builds, is the GM naming the unit the excess-build rule would not have built.
"""

from __future__ import annotations

from dataclasses import dataclass

from gmserver.rules.distance import Distances
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Unit
from gmserver.rules.position import Position
from gmserver.rules.removals import CLAUSES, RULE_WORDS, choose_removals
from gmserver.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Repair:
    power: str
    unit: str  # the surplus unit, "A PAR"
    moved_to: str | None  # its new location (000 VIII(3)); None: removed
    units_after: tuple[str, ...]  # the power's units once repaired
    why: str  # the rule in words, with its clause

    def describe(self) -> str:
        done = f"moved to {self.moved_to}" if self.moved_to else "removed"
        return f"{self.power.title()}'s {self.unit} {done}: {self.why}"


class RepairError(ValueError):
    """A repair the position does not allow; says why in words."""


def plan_repair(position: Position, power: str, unit: Unit | None, move_to: str | None, ruleset: Ruleset,
                geography: MapInfo) -> Repair:
    """The repair of one surplus unit of `power` (module docstring); RepairError if it cannot be."""
    if position.phase_type == "R":  # the dislodged units are in the air: repair after the retreats
        raise RepairError("not during a retreat phase: repair the unit once the retreats are adjudicated")
    units = [Unit.parse(u) for u in position.units.get(power, ())]
    if not units:
        raise RepairError(f"{power.title()} has no unit on the board")
    if unit is None:
        if move_to:
            raise RepairError("name the unit to move (house rules 000 VIII(3))")
        algorithm = ruleset.removal_algorithm
        [unit] = choose_removals(units, power, 1, ruleset, Distances(geography))
        why = (f"too few units were disbanded: the civil-disorder removal rule picks it, {RULE_WORDS[algorithm]} "
               f"({CLAUSES[algorithm]}; house rules 000 VIII(2))")
    elif unit not in units:
        raise RepairError(f"{power.title()} has no {unit} (its units: {', '.join(map(str, units))})")
    elif move_to:
        _check_free(position, unit, move_to, geography)
        why = "it stood in a province that correctly holds another unit and should have been here (house rules 000 VIII(3))"
    else:
        why = "a unit the power should not have, removed at once (house rules 000 VIII(2), VIII(3))"
    after = tuple(str(Unit(u.kind, move_to)) if u == unit and move_to else str(u) for u in units if u != unit or move_to)
    return Repair(power, str(unit), move_to, after, why)


def _check_free(position: Position, unit: Unit, move_to: str, geography: MapInfo) -> None:
    """000 VIII(3): moved only where the unit can stand and no unit correctly is; otherwise disbanded."""
    province = geography.province_of(move_to)
    kind = geography.provinces[province].kind if province in geography.provinces else None
    if kind is None or kind == "shut":
        raise RepairError(f"{move_to} is not a province a unit can stand in")
    if (unit.kind == "A" and kind == "water") or (unit.kind == "F" and kind == "land") or \
            (unit.kind == "F" and geography.provinces[province].coasts and move_to == province):
        raise RepairError(f"{unit} cannot stand in {move_to}" + (" (name the coast)" if unit.kind == "F" else ""))
    occupied = [u for units in position.units.values() for u in units if Unit.parse(u).province == province]
    if occupied:
        raise RepairError(f"{move_to} holds {occupied[0]}: under house rules 000 VIII(3) the unit is disbanded "
                          "instead (repair it without a destination)")
