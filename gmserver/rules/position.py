"""A game position and a phase's outcome as plain values, in the engine's notation.

The JSON form is that of the DATC cases in `tests/data/datc/datc.json`: `phase`, `units`, `centers`,
`dislodged`; gmserver adds `retreats` (each dislodged unit's legal destinations) and
`adjustments` (builds due, negative for removals) where the phase has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gmserver.rules.order import Order


def phase_type(phase: str) -> str:
    """`S1901M` -> `M`; `F1901R` -> `R`; `W1901A` -> `A`; anything else -> `-` (game over)."""
    return phase[-1] if len(phase) == 6 and phase[-1] in "MRA" else "-"


SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
PHASE_TYPE_NAMES = {"M": "Movement", "R": "Retreats", "A": "Adjustments"}


def describe_phase(phase: str) -> str:
    """`F1901R` -> `Fall 1901 Retreats`."""
    if phase_type(phase) == "-":
        return phase
    return f"{SEASON_NAMES[phase[0]]} {phase[1:5]} {PHASE_TYPE_NAMES[phase[-1]]}"


def unit_location(unit: str) -> str:
    """`F STP/SC` -> `STP/SC`."""
    return unit.split(" ", 1)[1]


def unit_province(unit: str) -> str:
    """`F STP/SC` -> `STP`."""
    return unit_location(unit).split("/", 1)[0]


def _frozen(mapping: Mapping[str, Any] | None) -> dict[str, tuple[str, ...]]:
    return {key: tuple(sorted(value)) for key, value in (mapping or {}).items() if value}


@dataclass(frozen=True)
class Position:
    phase: str
    units: Mapping[str, tuple[str, ...]]
    centers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dislodged: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # dislodged unit ("F TRI") -> legal retreat destinations
    retreats: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # power -> builds due (negative: removals due), adjustment phases only
    adjustments: Mapping[str, int] = field(default_factory=dict)

    @property
    def phase_type(self) -> str:
        return phase_type(self.phase)

    def powers_to_order(self) -> tuple[str, ...]:
        """Powers that have something to order in this phase."""
        kind = self.phase_type
        if kind == "M":
            return tuple(sorted(p for p, units in self.units.items() if units))
        if kind == "R":
            return tuple(sorted(p for p, units in self.dislodged.items() if units))
        if kind == "A":
            return tuple(sorted(p for p, n in self.adjustments.items() if n))
        return ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "phase": self.phase,
            "units": {p: list(u) for p, u in sorted(self.units.items())},
            "centers": {p: list(c) for p, c in sorted(self.centers.items())},
            "dislodged": {p: list(u) for p, u in sorted(self.dislodged.items())},
        }
        if self.retreats:
            data["retreats"] = {u: list(d) for u, d in sorted(self.retreats.items())}
        if self.adjustments:
            data["adjustments"] = dict(sorted(self.adjustments.items()))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Position:
        """Read a DATC-style position; raises ValueError naming every problem found."""
        problems = []
        phase = data.get("phase")
        if not isinstance(phase, str) or phase_type(phase) == "-" or phase[0] not in "SFW":
            problems.append(f"'phase' must be an engine phase code like S1901M, F1901R or W1901A, not {phase!r}")
        for key in ("units", "centers", "dislodged"):
            value = data.get(key, {})
            if not isinstance(value, Mapping) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in value.values()
            ):
                problems.append(f"'{key}' must map each power to a list of strings")
        if "units" not in data:
            problems.append("'units' is required")
        if problems:
            raise ValueError("; ".join(problems))
        return cls(
            phase=phase,
            units=_frozen(data.get("units")),
            centers=_frozen(data.get("centers")),
            dislodged=_frozen(data.get("dislodged")),
            retreats=_frozen(data.get("retreats")),
            adjustments={k: int(v) for k, v in (data.get("adjustments") or {}).items()},
        )


@dataclass(frozen=True)
class OrderOutcome:
    """One order as the engine adjudicated it. `results` empty means it succeeded. The engine
    adapter builds `order` from the engine's text (`Order.parse`); the database keeps `str(order)`."""

    power: str
    order: Order
    results: tuple[str, ...] = ()
    defaulted: bool = False  # the server supplied it (no order received)
    note: str | None = None  # where the order came from, when the report should say it

    @property
    def succeeded(self) -> bool:
        return not self.results


@dataclass(frozen=True)
class PhaseOutcome:
    """What adjudicating one phase produced."""

    phase: str
    before: Position
    after: Position  # the next phase the game stops at (the engine skips empty phases)
    orders: tuple[OrderOutcome, ...]
    state_after: Mapping[str, Any]  # opaque engine state of `after`
    winners: tuple[str, ...] = ()
    # units removed by the engine itself (removals nobody ordered), for the report
    engine_removals: tuple[str, ...] = ()
    # (power, "ordered: BUILD A BEL; not possible: ...") for the builds ordered that could not be
    # made, for the report's builds not used (services.turn.adjudication.with_unused_lines)
    unused_builds: tuple[tuple[str, str], ...] = ()

    def orders_of(self, power: str) -> tuple[OrderOutcome, ...]:
        return tuple(o for o in self.orders if o.power == power)

    def centre_changes(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """power -> (centres gained, centres lost) between `before` and `after`."""
        changes = {}
        for power in sorted(set(self.before.centers) | set(self.after.centers)):
            old = set(self.before.centers.get(power, ()))
            new = set(self.after.centers.get(power, ()))
            if old != new:
                changes[power] = (tuple(sorted(new - old)), tuple(sorted(old - new)))
        return changes
