"""Distance from home and the home countries, for the removal and
retreat defaults of `rules.defaults`.

Pure: everything comes from the map as plain data (`MapInfo`, built by `engine.map_info()`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Unit

# The national borders of the standard board (home countries are not in the engine's map;
# Finland is Russian territory there). Used by 001 V(4), V(5) and 003 [8].
HOME_COUNTRIES: Mapping[str, frozenset[str]] = {
    "AUSTRIA": frozenset({"BOH", "BUD", "GAL", "TRI", "TYR", "VIE"}),
    "ENGLAND": frozenset({"CLY", "EDI", "LVP", "LON", "WAL", "YOR"}),
    "FRANCE": frozenset({"BRE", "BUR", "GAS", "MAR", "PAR", "PIC"}),
    "GERMANY": frozenset({"BER", "KIE", "MUN", "PRU", "RUH", "SIL"}),
    "ITALY": frozenset({"APU", "NAP", "PIE", "ROM", "TUS", "VEN"}),
    "RUSSIA": frozenset({"FIN", "LVN", "MOS", "SEV", "STP", "UKR", "WAR"}),
    "TURKEY": frozenset({"ANK", "ARM", "CON", "SMY", "SYR"}),
}

UNREACHABLE = 10_000  # a unit that cannot reach any target is farther than every unit that can


def home_country(power: str) -> frozenset[str]:
    return HOME_COUNTRIES.get(power, frozenset())


def _province_graph(geography: MapInfo) -> dict[str, set[str]]:
    """The army measure: provinces are neighbours if they share a border, land or water, coasts
    ignored; Switzerland (impassable) is in neither move table, so it is excluded."""
    graph: dict[str, set[str]] = {}
    for here, theirs in geography.army_moves.items():
        graph.setdefault(here, set()).update(theirs)
    for here, theirs in geography.fleet_moves.items():
        graph.setdefault(geography.province_of(here), set()).update(geography.province_of(t) for t in theirs)
    for here, theirs in list(graph.items()):  # borders are symmetric; be safe about the tables
        for other in theirs:
            graph.setdefault(other, set()).add(here)
    return graph


def _bfs(start: str, neighbours: Callable[[str], Iterable[str]], is_target: Callable[[str], bool]) -> int:
    if is_target(start):
        return 0
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        here, steps = frontier.popleft()
        for there in neighbours(here):
            if there in seen:
                continue
            if is_target(there):
                return steps + 1
            seen.add(there)
            frontier.append((there, steps + 1))
    return UNREACHABLE


class Distances:
    """Distances on one map: armies count steps over every shared border (they may 'walk
    over water', 000 V(4), 004 III(4)), fleets count legal fleet moves, coast by coast."""

    def __init__(self, geography: MapInfo) -> None:
        self.geography = geography
        self._graph = _province_graph(geography)

    def from_unit(self, unit: Unit, targets: frozenset[str]) -> int:
        """Steps from `unit` to the nearest province in `targets` (occupation ignored); 0 on a
        target; `UNREACHABLE` if there is no way."""
        if unit.is_army:
            return _bfs(unit.province, lambda p: self._graph.get(p, ()), lambda p: p in targets)
        return _bfs(unit.location, lambda loc: self.geography.fleet_moves.get(loc, ()),
                    lambda loc: self.geography.province_of(loc) in targets)

    def from_home_centres(self, unit: Unit, power: str) -> int:
        """The target: the power's original home centres, whoever controls them (004 III(4))."""
        return self.from_unit(unit, frozenset(self.geography.home_centres(power)))

    def from_home_country(self, unit: Unit, power: str) -> int:
        """001 V(5): 'furthest from the home country' (the provinces of its home country, above) [P]."""
        return self.from_unit(unit, home_country(power))
