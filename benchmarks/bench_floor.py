"""The floor under the deadline pipeline's ratio: the least any deadline pipeline must do around
the engine's `process()` (a script that prints figures; not a test).

For each phase: a `Game` built from the stored state (`Game()` and `set_state`), the orders set
(`set_orders`), `process()`, and the positions and results read back (`get_state`,
`result_history`), all through the engine's public API; no database, no house rules, no report.
Its time over `process()` alone, timed inside the same run, is the smallest ratio a pipeline
that builds the engine's game from the stored state can reach; the goal for the whole deadline
pipeline is at most 2 times `process()` (docs/performance.md).

    .venv/bin/python benchmarks/bench_floor.py [--games 1000]

The last line: `RESULT floor_over_process=... floor_ms=... process_ms=... load=...` (CPU, a game,
`set_orders` without expansion as engine.py calls it).

(benchmarks/bench_deadlines.py prints the same floor for its own games.)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HOME", "/tmp")

from gmserver import engine  # noqa: E402


@dataclass
class Floor:
    """Seconds summed over the phases: each step of the floor, and process() within it."""

    build: float = 0.0  # Game() and set_state
    orders: float = 0.0  # set_orders
    process: float = 0.0  # process() alone
    read_back: float = 0.0  # get_state, result_history, units and centres

    @property
    def total(self) -> float:
        return self.build + self.orders + self.process + self.read_back

    @property
    def ratio(self) -> float:
        return self.total / self.process


def floor(phases: Iterable[tuple[Mapping[str, Any], Mapping[str, Sequence[str]]]],
          clock: Callable[[], float] = time.process_time, *, expand: bool = True) -> Floor:
    """The floor for each (state, orders) of `phases`, timed step by step with `clock`. `expand`
    False: `set_orders(..., expand=False)`, which the engine offers "for a performance
    improvement" for orders already in its notation (gmserver's engine.py uses it where exact)."""
    diplomacy = engine._diplomacy()  # noqa: SLF001  (the engine's module, imported lazily there)
    spent = Floor()
    for state, orders in phases:
        began = clock()
        game = diplomacy.Game(map_name="standard")
        game.set_state(dict(state))
        built = clock()
        for power, power_orders in orders.items():
            if power_orders:
                game.set_orders(power, list(power_orders), expand=expand)
        ordered = clock()
        phase = game.get_current_phase()
        game.process()
        processed = clock()
        after = game.get_state()
        results = {str(unit): [str(r) for r in rs] for unit, rs in game.result_history[phase].items()}
        units = {name: list(power.units) for name, power in game.powers.items()}
        centres = {name: list(power.centers) for name, power in game.powers.items()}
        read = clock()
        assert after and units and centres and results is not None
        spent.build += built - began
        spent.orders += ordered - built
        spent.process += processed - ordered
        spent.read_back += read - processed
    return spent


def describe(spent: Floor, games: int, expand: bool = True) -> str:
    per = 1000 / games
    return (f"FLOOR (engine public API only: Game() + set_state {spent.build * per:.2f} ms, set_orders"
            f"{'' if expand else ' without expansion'} "
            f"{spent.orders * per:.2f} ms, process() {spent.process * per:.2f} ms, state and results read back "
            f"{spent.read_back * per:.2f} ms a game): {spent.total:.2f} s for {games} games = "
            f"{spent.ratio:.1f} x process()")


def random_phases(games: int, seed: int = 1) -> list[tuple[dict[str, Any], dict[str, list[str]]]]:
    """`games` Spring 1901 phases with one random legal order per unit (as bench_deadlines.py)."""
    rng = random.Random(seed)
    state = engine.initial_state()
    legal = engine.legal_orders(state)
    owner = {unit.split()[1].split("/")[0]: power
             for power, units in engine.position_from_state(state).units.items() for unit in units}
    phases = []
    for _ in range(games):
        orders: dict[str, list[str]] = {}
        for location, choices in sorted(legal.items()):
            orders.setdefault(owner[location.split("/")[0]], []).append(rng.choice(choices))
        phases.append((state, orders))
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    phases = random_phases(args.games)
    floor(phases[:20])  # warm up: the engine's map and caches, not part of the figure
    for expand in (True, False):
        for name, clock in (("CPU", time.process_time), ("wall", time.perf_counter)):
            spent = floor(phases, clock, expand=expand)
            print(f"{name}: {describe(spent, args.games, expand)} (load average {os.getloadavg()[0]:.1f})")
            if name == "CPU" and not expand:
                plain = spent
    print(f"RESULT floor_over_process={plain.ratio:.2f} floor_ms={plain.total * 1000 / args.games:.2f} "
          f"process_ms={plain.process * 1000 / args.games:.2f} load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
