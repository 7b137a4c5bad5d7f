"""The audit that finds a surplus unit (`extra_unit_repair = mhr`, 000 VIII(2), VIII(3):
"the server keeps every position and every stored order set, so it can replay adjudications
... and compare"). Pure: services/features/audit.py replays each stored phase with its stored orders
through the engine and hands the two boards here.

Each adjudicated phase is checked on its own: its stored start position, adjudicated again with
the orders it stored (defaults included, as the results list them), must give the start
position the game stored for the next phase. A difference means the board was changed between
the two (a GM edit, a correction that went wrong, a fault): a unit on the stored board that the
replay does not give is a surplus unit (000 VIII(2)); one the replay gives and the board lacks
is missing. A repair the GM recorded (`gmserver game repair`) explains its own difference.

The repair proposed follows 000 VIII(3), which prevails: a surplus unit whose power is missing a
unit of the same type is moved where that one should be, if the province is free on the current
board; otherwise it is disbanded. Only a unit still on the current board can be repaired; for
the others the GM decides (the server proposes, the GM confirms).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gmserver.rules.order import Unit
from gmserver.rules.position import Position, describe_phase


@dataclass(frozen=True)
class Difference:
    """`power`'s units on the stored start of `phase` against the replay of `replayed`."""

    replayed: str  # the phase whose orders were adjudicated again ("S1902M")
    phase: str  # the phase whose stored start differs ("F1902M")
    power: str
    surplus: tuple[str, ...]  # on the stored board, not in the replay
    missing: tuple[str, ...]  # in the replay, not on the stored board
    explained: tuple[str, ...] = ()  # the GM's recorded repairs that account for it

    def describe(self) -> str:
        parts = []
        if self.surplus:
            parts.append(f"has {', '.join(self.surplus)}, which the orders of {describe_phase(self.replayed)} do not "
                         "give it (a surplus unit, house rules 000 VIII(2))")
        if self.missing:
            parts.append(f"lacks {', '.join(self.missing)}, which those orders give it")
        text = f"{describe_phase(self.phase)}: {self.power.title()} " + "; and ".join(parts)
        return text + (f" (the GM's repair: {'; '.join(self.explained)})" if self.explained else "")


def differences(replayed_phase: str, replay: Position, stored: Position,
                repairs: Iterable[Mapping[str, object]] = ()) -> list[Difference]:
    """What differs between the replay of `replayed_phase` and the stored start of the next phase,
    power by power (units, and dislodged units in a retreat phase). `repairs`: the arguments of
    the GM's recorded repairs ({power, unit, to}), which explain the difference they made."""
    found = []
    for power in sorted(set(replay.units) | set(stored.units) | set(replay.dislodged) | set(stored.dislodged)):
        want = set(replay.units.get(power, ())) | {f"{u} (dislodged)" for u in replay.dislodged.get(power, ())}
        have = set(stored.units.get(power, ())) | {f"{u} (dislodged)" for u in stored.dislodged.get(power, ())}
        if want == have:
            continue
        surplus, missing = tuple(sorted(have - want)), tuple(sorted(want - have))
        # a repair removed its unit from where the orders put it, or moved it: that unit is missing
        explained = tuple(_repair_words(r) for r in repairs if r.get("power") == power and r.get("unit") in missing)
        found.append(Difference(replayed_phase, stored.phase, power, surplus, missing, explained))
    return found


def _repair_words(repair: Mapping[str, object]) -> str:
    to = repair.get("to")
    return f"{repair.get('unit')} " + (f"moved to {to}" if to else "removed")


@dataclass(frozen=True)
class Proposal:
    """The repair 000 VIII(2), VIII(3) give: `unit` of `power` removed, or moved `to` a location."""

    power: str
    unit: str
    to: str | None = None

    def command(self, game: str) -> str:
        """As the command line takes it (`gmserver game repair`, which shows it; --confirm does it)."""
        return f'gmserver game repair {game} {self.power} "{self.unit}"' + (f" --to {self.to}" if self.to else "")

    def mail(self) -> str:
        """As the GM writes it by mail (the `repair` command; "confirm" does it)."""
        return f"repair {self.power} {self.unit}" + (f" to {self.to}" if self.to else "")


def proposed_repair(difference: Difference, current: Position) -> Proposal | None:
    """The repair 000 VIII(2), VIII(3) give for the difference's first surplus unit, or None when
    there is nothing to repair on the current board (no surplus, the unit is no longer there, or
    the GM's recorded repair explains it)."""
    if difference.explained:
        return None
    on_board = set(current.units.get(difference.power, ()))
    surplus = [u for u in difference.surplus if u in on_board]
    if not surplus:
        return None
    unit = Unit.parse(surplus[0])
    occupied = {Unit.parse(u).province for units in current.units.values() for u in units}
    for missing in difference.missing:
        if missing.endswith("(dislodged)"):
            continue
        should = Unit.parse(missing)
        if should.kind == unit.kind and should.province not in occupied:
            return Proposal(difference.power, str(unit), should.location)  # 000 VIII(3): moved where it should be
    return Proposal(difference.power, str(unit))
