"""The turn report a deadline composes and stores, in CPU time and Python calls a report (a
script that prints figures; not a test): `compose` is reports.turn.build_turn_report with the
game's subject line (what services.turn.turn_report.report_contexts builds for a turn without
press or votes), `encode` is report_copies.payload_of of the stored parts (reports/codec.py
to_json, then json.dumps). The turns are those of seeded games played by the real engine
(tests/support/seeded_games.py), in two sets: `opening`, Spring 1901 with any legal order
(`--openings` games: what benchmarks/bench_deadlines.py adjudicates, most supports void), and
`mixed`, `--phases` turns of `--games` games (movement, retreats and adjustments, defaults
among them).

    .venv/bin/python benchmarks/bench_report.py [--openings 200] [--games 40] [--phases 5] [--rounds 7]

CPU times are the median of `--rounds` passes over every turn, and the process's first pass
(`first_ms`, compose and encode: nothing kept yet); the Python calls a report are cProfile's count
over one pass (the same on any host). The last line: `RESULT opening_compose_ms=...
opening_encode_ms=... opening_compose_calls=... opening_encode_calls=... opening_first_ms=...
mixed_...=... load=...`.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HOME", "/tmp")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.support

from gmserver.reports.turn import TurnReport
from gmserver.rules.position import PhaseOutcome
from gmserver.services.base.report_copies import payload_of
from tests.support.seeded_games import seeded_outcomes, seeded_parts, seeded_report


def cpu_per_item(function: Callable[[], object], items: int, rounds: int) -> float:
    """The median CPU milliseconds of one item over `rounds` passes of `function` (all the items)."""
    times = []
    for _ in range(rounds):
        started = time.process_time()
        function()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000 / items


def calls_per_item(function: Callable[[], object], items: int) -> float:
    profiler = cProfile.Profile()
    profiler.runcall(function)
    return pstats.Stats(profiler).total_calls / items  # type: ignore[attr-defined]


def measure(label: str, outcomes: list[PhaseOutcome], rounds: int) -> dict[str, float]:
    """Compose and encode every report of `outcomes`: CPU ms and Python calls a report, and the
    CPU of the first pass (`first_ms`: the process's first reports, before anything it keeps is
    filled: its map's names, the orders it has described, the encoder written per type)."""
    reports: list[TurnReport] = []
    count = len(outcomes)

    def compose() -> None:
        reports[:] = [seeded_report(outcome, n) for n, outcome in enumerate(outcomes)]

    started = time.process_time()
    compose()
    parts = [seeded_parts(outcome, report, n) for n, (outcome, report) in enumerate(zip(outcomes, reports, strict=True))]
    composed = time.process_time()

    def encode() -> None:
        for stored in parts:
            payload_of(stored)

    encode()
    first_ms = ((composed - started) + (time.process_time() - composed)) * 1000 / count
    figures = {"compose_ms": cpu_per_item(compose, count, rounds), "encode_ms": cpu_per_item(encode, count, rounds),
               "compose_calls": calls_per_item(compose, count), "encode_calls": calls_per_item(encode, count),
               "first_ms": first_ms}
    print(f"{label}: {count} reports ({sum(len(o.orders) for o in outcomes)} orders, "
          f"{sum(o.results == ('void',) for outcome in outcomes for o in outcome.orders)} void), "
          f"a payload {sum(len(payload_of(p)) for p in parts) / count:.0f} characters; CPU a report, median of "
          f"{rounds} passes:")
    print(f"  compose {figures['compose_ms']:.3f} ms  {figures['compose_calls']:.0f} Python calls")
    print(f"  encode  {figures['encode_ms']:.3f} ms  {figures['encode_calls']:.0f} Python calls")
    print(f"  both, the first pass (nothing kept yet) {first_ms:.3f} ms")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--phases", type=int, default=5)
    parser.add_argument("--openings", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    # the first: what bench_deadlines.py adjudicates (Spring 1901, any legal order); the second, a game's turns
    opening = measure("opening", list(seeded_outcomes(args.openings, 1, seed=1, helping=False)), args.rounds)
    mixed = measure("mixed", list(seeded_outcomes(args.games, args.phases)), args.rounds)
    load = os.getloadavg()[0]
    print("RESULT " + " ".join(f"{label}_{key}={value:.4f}" if key.endswith("ms") else f"{label}_{key}={value:.0f}"
                               for label, figures in (("opening", opening), ("mixed", mixed))
                               for key, value in figures.items()) + f" load={load:.2f}")


if __name__ == "__main__":
    main()
