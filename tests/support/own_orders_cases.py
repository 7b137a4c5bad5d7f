"""Positions and order sets for the confirmation's map (mapimage.own_orders_png): random legal
games played by the engine from the opening, seeded, so that every phase type turns up (moves,
supports, convoys, retreats, builds, removals, waives), and for each phase every power's set
drawn three ways: one legal order for each of its units picked at random, a lone hold, and
every other one of those."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gmserver import engine
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position
from tests.support.adjudicate import adjudicate
from tests.support.midgame import midgame

Case = tuple[str, Position, str, tuple[Order, ...]]  # (name, position, power, orders)


def _owner(position: Position, location: str) -> str | None:
    """The power whose unit is ordered at `location`: a dislodged one in a retreat phase."""
    for power, units in (position.dislodged if position.phase_type == "R" else position.units).items():
        if any(Unit.parse(unit).location.split("/")[0] == location.split("/")[0] for unit in units):
            return power
    return None


def _sets(position: Position, legal: dict[str, tuple[str, ...]], rng: random.Random) -> dict[str, list[str]]:
    """One random legal order per orderable location, by power; in an adjustment phase as many
    builds as each power has, a waive for one of them, and its removals."""
    by_power: dict[str, list[str]] = {}
    if position.phase_type == "A":
        for power, count in position.adjustments.items():
            home = [loc for loc, options in sorted(legal.items())
                    if any(o.endswith((" B", " D")) for o in options)
                    and (count < 0 and _owner(position, loc) == power
                         or count > 0 and loc.split("/")[0] in position.centers.get(power, ()))]
            picked = rng.sample(home, min(abs(count), len(home)))
            orders = [rng.choice([o for o in legal[loc] if o.endswith((" B", " D"))]) for loc in picked]
            if count > 0 and orders:
                orders[-1] = "WAIVE"
            by_power[power] = orders
        return by_power
    for location, options in sorted(legal.items()):
        power = _owner(position, location)
        if power is not None:  # a retreat rather than a disband, where there is one
            by_power.setdefault(power, []).append(rng.choice([o for o in options if " R " in o] or options))
    return by_power


def _parsed(texts: list[str], phase_type: str) -> tuple[Order, ...]:
    return tuple(Order.parse(text, phase_type) for text in texts)


def own_orders_cases(seed: int = 1901, phases: int = 14) -> Iterator[Case]:
    """From the opening and from the mid-game turn's retreat phase (tests/support/midgame.py),
    `phases` phases each."""
    rng = random.Random(seed)
    for game, start in (("opening", engine.initial_state()), ("midgame", midgame().state_after)):
        for name, position, power, orders in _game(start, rng, phases):
            yield f"{game} {name}", position, power, orders


def _game(state: Any, rng: random.Random, phases: int) -> Iterator[Case]:
    for _ in range(phases):
        position = engine.position_from_state(state)
        legal = engine.legal_orders(state)
        sets = _sets(position, legal, rng)
        for power, texts in sorted(sets.items()):
            yield f"{position.phase} {power} all", position, power, _parsed(texts, position.phase_type)
            yield f"{position.phase} {power} every other", position, power, _parsed(texts[::2], position.phase_type)
            if position.phase_type == "M" and texts:
                lone = f"{texts[0].split(' - ')[0].split(' ')[0]} {texts[0].split(' ')[1]} H"
                yield f"{position.phase} {power} lone hold", position, power, _parsed([lone], "M")
        if position.phase_type == "A":
            yield f"{position.phase} waive alone", position, "FRANCE", _parsed(["WAIVE"], "A")
        state = adjudicate(state, sets).state_after


DIGESTS = Path(__file__).resolve().parents[1] / "data" / "maps" / "own_orders_sha256.json"


def digests(draw: Callable[[Position, str, tuple[Order, ...]], bytes | None], phases: int = 8) -> dict[str, str | None]:
    """case -> SHA-256 of the map `draw` makes of it (None: no map)."""
    return {name: None if (png := draw(position, power, orders)) is None else hashlib.sha256(png).hexdigest()
            for name, position, power, orders in own_orders_cases(phases=phases)}


if __name__ == "__main__":  # writes DIGESTS again, after a change meant to alter the picture
    from gmserver import mapimage

    DIGESTS.write_text(json.dumps(digests(mapimage.own_orders_png), indent=1, sort_keys=True) + "\n")
