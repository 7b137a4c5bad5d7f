"""What the reader needs to know about one position, computed once per phase and cached.

Legality here follows the engine (`diplomacy` 1.1.2, `get_all_possible_orders`), so that every
order the reader accepts is one the engine accepts: supports need the supporter to reach the
province and the supported unit to reach the destination (armies also by a convoy not through the
supporter); convoys run through fleets in sea provinces only; a fleet supports into a two-coast
province it touches on either coast.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from gmserver.rules.geography import MapInfo
from gmserver.rules.position import Position, unit_location, unit_province


@dataclass(eq=False)
class Board:
    position: Position
    geography: MapInfo
    owner: dict[str, str]  # province -> power, non-dislodged units
    unit_at: dict[str, str]  # province -> unit ("F STP/SC")
    dislodged_at: dict[tuple[str, str], str]  # (power, province) -> dislodged unit
    water_fleets: frozenset[str]  # provinces of fleets in sea provinces (possible convoyers)
    _convoy_cache: dict[tuple[str, str | None], frozenset[str]] = field(default_factory=dict)
    _paths_cache: dict[tuple[str, str, str | None], bool] = field(default_factory=dict)

    # ---------------------------------------------------------------- movement
    def kind(self, province: str) -> str:
        return self.geography.provinces[province].kind

    def army_adjacent(self, a: str, b: str) -> bool:
        return b in self.geography.army_moves.get(a, ())

    def fleet_reaches_province(self, location: str, province: str) -> bool:
        """A fleet at `location` can move to some coast of `province` (support reach)."""
        moves = self.geography.fleet_moves.get(location, ())
        coasts = self.geography.provinces[province].coasts or (province,)
        return any(c in moves for c in coasts)

    def can_move(self, unit: str, destination: str) -> bool:
        """One-step move, destination a location (coast matters for fleets)."""
        kind, location = unit[0], unit_location(unit)
        if kind == "A":
            return self.army_adjacent(location, destination.split("/")[0])
        return destination in self.geography.fleet_moves.get(location, ())

    def reaches_for_support(self, unit: str, province: str) -> bool:
        kind, location = unit[0], unit_location(unit)
        if location.split("/")[0] == province:
            return False
        if kind == "A":
            return self.army_adjacent(location, province)
        return self.fleet_reaches_province(location, province)

    def convoy_destinations(self, start: str, exclude: str | None = None) -> frozenset[str]:
        """Coastal provinces an army in `start` could reach by convoy over fleets now in sea
        provinces, optionally without the fleet in `exclude`."""
        key = (start, exclude)
        cached = self._convoy_cache.get(key)
        if cached is not None:
            return cached
        result: set[str] = set()
        if self.kind(start) == "coast":
            fleets = self.water_fleets - {exclude} if exclude else self.water_fleets
            seen = {w for w in fleets if self._water_touches(w, start)}
            queue = deque(seen)
            while queue:
                water = queue.popleft()
                for other in self._water_neighbours(water):
                    if other in fleets and other not in seen:
                        seen.add(other)
                        queue.append(other)
                for province in self._coasts_touched(water):
                    result.add(province)
            result.discard(start)
        frozen = frozenset(result)
        self._convoy_cache[key] = frozen
        return frozen

    def convoy_path_through(self, fleet: str, start: str, destination: str) -> bool:
        """A convoy path from start to destination exists that uses the fleet in `fleet`."""
        key = (fleet, start, destination)
        cached = self._paths_cache.get(key)
        if cached is not None:
            return cached
        ok = (fleet in self.water_fleets and start != destination
              and self.kind(start) == "coast" and self.kind(destination) == "coast"
              and self._simple_path_via(fleet, start, destination))
        self._paths_cache[key] = ok
        return ok

    def _simple_path_via(self, fleet: str, start: str, destination: str) -> bool:
        # Engine paths are inclusion-minimal sets of fleets; a fleet is on one if some minimal
        # path contains it. Enumerate simple paths breadth-first (small on real boards).
        fleets = self.water_fleets
        firsts = [w for w in fleets if self._water_touches(w, start)]
        minimal: list[frozenset[str]] = []
        queue: deque[tuple[frozenset[str], str]] = deque((frozenset([w]), w) for w in firsts)
        while queue:
            used, last = queue.popleft()
            if any(m <= used for m in minimal):
                continue
            if self._water_touches(last, destination):
                minimal.append(used)
                continue
            if len(used) >= 13:
                continue
            for other in self._water_neighbours(last):
                if other in fleets and other not in used:
                    queue.append((used | {other}, other))
        return any(fleet in path for path in minimal)

    def _water_neighbours(self, water: str) -> frozenset[str]:
        return frozenset(m for m in self.geography.fleet_moves.get(water, ()) if self.kind(m.split("/")[0]) == "water")

    def _coasts_touched(self, water: str) -> set[str]:
        return {m.split("/")[0] for m in self.geography.fleet_moves.get(water, ())
                if self.kind(m.split("/")[0]) == "coast"}

    def _water_touches(self, water: str, province: str) -> bool:
        return province in self._coasts_touched(water)

    def army_can_reach(self, unit: str, province: str, exclude: str | None = None) -> tuple[bool, bool]:
        """(by land, by convoy) for an army."""
        location = unit_location(unit)
        return (self.army_adjacent(location, province),
                province in self.convoy_destinations(location, exclude))

    # ---------------------------------------------------------------- retreats and builds
    def retreat_options(self, unit: str) -> tuple[str, ...]:
        if unit in self.position.retreats:
            return tuple(self.position.retreats[unit])
        kind, location = unit[0], unit_location(unit)
        occupied = set(self.owner)
        if kind == "A":
            options = [p for p in self.geography.army_moves.get(location.split("/")[0], ())]
        else:
            options = list(self.geography.fleet_moves.get(location, ()))
        return tuple(sorted(o for o in options if o.split("/")[0] not in occupied))

    def adjustment(self, power: str) -> int:
        if power in self.position.adjustments:
            return self.position.adjustments[power]
        return len(self.position.centers.get(power, ())) - len(self.position.units.get(power, ()))

    def build_sites(self, power: str) -> tuple[str, ...]:
        owned = set(self.position.centers.get(power, ()))
        return tuple(c for c in self.geography.home_centres(power) if c in owned and c not in self.owner)


_BOARDS: dict[int, tuple[Position, MapInfo, Board]] = {}


def board_for(position: Position, geography: MapInfo) -> Board:
    """The cached index of a position (one per Position object)."""
    cached = _BOARDS.get(id(position))
    if cached is not None and cached[0] is position and cached[1] is geography:
        return cached[2]
    owner: dict[str, str] = {}
    unit_at: dict[str, str] = {}
    for power, units in position.units.items():
        for unit in units:
            province = unit_province(unit)
            owner[province] = power
            unit_at[province] = unit
    dislodged_at = {(power, unit_province(u)): u for power, units in position.dislodged.items() for u in units}
    water_fleets = frozenset(
        province for province, u in unit_at.items()
        if u[0] == "F" and geography.provinces[province].kind == "water"
    )
    board = Board(position, geography, owner, unit_at, dislodged_at, water_fleets)
    if len(_BOARDS) > 64:
        _BOARDS.clear()
    _BOARDS[id(position)] = (position, geography, board)
    return board
