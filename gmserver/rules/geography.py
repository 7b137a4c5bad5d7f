"""The map as plain data: provinces, coasts, adjacency, centres and names.

Built from the engine's map by `gmserver.engine.map_info()`, once per engine version (it is kept
on disk as `MapInfo.to_json()`); the rules layer (order reading, house-rule defaults, reports)
uses only this value and never imports the engine.
Locations use the engine's notation: upper-case three-letter codes, coasts as `SPA/NC`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ProvinceKind = Literal["land", "coast", "water", "shut"]

# The seven powers of the standard map, in the engine's names and order: the one place they are
# written out (tests/unit/test_engine.py checks that the engine's MapInfo.powers agree).
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@dataclass(frozen=True)
class Province:
    code: str  # "SPA"
    name: str  # "Spain"
    kind: ProvinceKind
    coasts: tuple[str, ...] = ()  # ("SPA/NC", "SPA/SC") for two-coast provinces, else ()
    supply_centre: bool = False
    home_of: str | None = None  # power whose home centre this is


@dataclass(frozen=True)
class MapInfo:
    name: str
    powers: tuple[str, ...]
    provinces: Mapping[str, Province]
    # province -> provinces an army can reach in one move over land
    army_moves: Mapping[str, frozenset[str]]
    # fleet location (coasts separate) -> fleet locations reachable in one move
    fleet_moves: Mapping[str, frozenset[str]]
    # upper-case name or alias -> location code, as the engine's map file lists them
    aliases: Mapping[str, str] = field(default_factory=dict)
    # upper-case power name or adjective -> power ("FRENCH" -> "FRANCE")
    power_words: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (sorted, so that the same map always gives the same text)."""
        return {
            "name": self.name,
            "powers": list(self.powers),
            "provinces": {code: asdict(province) for code, province in sorted(self.provinces.items())},
            "army_moves": {loc: sorted(moves) for loc, moves in sorted(self.army_moves.items())},
            "fleet_moves": {loc: sorted(moves) for loc, moves in sorted(self.fleet_moves.items())},
            "aliases": dict(sorted(self.aliases.items())),
            "power_words": dict(sorted(self.power_words.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MapInfo:
        """The map `to_json` wrote; KeyError or TypeError if `data` is not that."""
        return cls(
            name=data["name"],
            powers=tuple(data["powers"]),
            provinces={code: Province(**{**fields, "coasts": tuple(fields["coasts"])})
                       for code, fields in data["provinces"].items()},
            army_moves={loc: frozenset(moves) for loc, moves in data["army_moves"].items()},
            fleet_moves={loc: frozenset(moves) for loc, moves in data["fleet_moves"].items()},
            aliases=dict(data["aliases"]),
            power_words=dict(data["power_words"]),
        )

    def province_of(self, location: str) -> str:
        """`SPA/NC` -> `SPA`."""
        return location.split("/", 1)[0]

    def home_centres(self, power: str) -> tuple[str, ...]:
        return tuple(sorted(p.code for p in self.provinces.values() if p.home_of == power))

    def supply_centres(self) -> tuple[str, ...]:
        return tuple(sorted(p.code for p in self.provinces.values() if p.supply_centre))

    def can_move(self, unit_type: str, location: str, destination: str) -> bool:
        """One-step move without convoy; coasts matter for fleets."""
        if unit_type == "A":
            return self.province_of(destination) in self.army_moves.get(self.province_of(location), ())
        return destination in self.fleet_moves.get(location, ())

    def fleet_coasts_reachable(self, location: str, province: str) -> tuple[str, ...]:
        """Coasts of a two-coast `province` a fleet at `location` can reach in one move."""
        coasts = self.provinces[province].coasts or (province,)
        return tuple(c for c in coasts if c in self.fleet_moves.get(location, ()))

    def display_name(self, location: str) -> str:
        province = self.provinces[self.province_of(location)]
        if "/" in location:
            coast = location.split("/", 1)[1]
            return f"{province.name} ({_COAST_WORDS.get(coast, coast)})"
        return province.name


_COAST_WORDS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
