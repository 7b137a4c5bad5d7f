"""The turn report a deadline composes and stores, in CPU time and Python calls a report (a
script that prints figures; not a test): `compose` is reports.turn.build_turn_report with the
game's subject line (what services.turn.turn_report.report_contexts builds for a turn without
press or votes), `encode` is report_copies.payload_of of the stored parts (reports/codec.py
to_json_text: the JSON text in one pass). The turns are those of seeded games played by the real engine
(tests/support/seeded_games.py), in two sets: `opening`, Spring 1901 with any legal order
(`--openings` games: what benchmarks/bench_deadlines.py adjudicates, most supports void), and
`mixed`, `--phases` turns of `--games` games (movement, retreats and adjustments, defaults
among them).

    .venv/bin/python benchmarks/bench_report.py [--openings 200] [--games 40] [--phases 5] [--rounds 7] [--same]

Each pass is over games of its own (seeded apart): what the report keeps between reports (the
order lines and centre counts reports/turn.py makes, the texts reports/codec.py writes of the
values it can keep, the orders rules/order.py parses) is shared between games only as far as
their turns are alike, as between a deadline's games. `--same`: every pass over the same games
(the figures this script gave before it had games of their own for each pass; what is kept from
the first pass then serves every later one, which flatters the keeping).

CPU times are the median of `--rounds` passes, and the process's first pass (`first_ms`, compose
and encode: nothing kept yet); the Python calls a report are cProfile's count over one more pass
(the same on any host). The last line: `RESULT opening_compose_ms=...
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
from gmserver.services.base.report_copies import ReportParts, payload_of
from tests.support.seeded_games import seeded_outcomes, seeded_parts, seeded_report


def calls_per_item(function: Callable[[], object], items: int) -> float:
    profiler = cProfile.Profile()
    profiler.runcall(function)
    return pstats.Stats(profiler).total_calls / items  # type: ignore[attr-defined]


class Pass:
    """One pass's turns: their reports composed (`compose`), then their stored parts encoded (`encode`)."""

    def __init__(self, outcomes: list[PhaseOutcome]) -> None:
        self.outcomes = outcomes
        self.reports: list[TurnReport] = []
        self.parts: list[ReportParts] = []

    def compose(self) -> None:
        self.reports = [seeded_report(outcome, n) for n, outcome in enumerate(self.outcomes)]

    def store(self) -> None:
        self.parts = [seeded_parts(outcome, report, n)
                      for n, (outcome, report) in enumerate(zip(self.outcomes, self.reports, strict=True))]

    def encode(self) -> None:
        for stored in self.parts:
            payload_of(stored)

    def timed(self) -> tuple[float, float]:
        """CPU seconds composing the reports and encoding their stored parts (made between the two, untimed)."""
        started = time.process_time()
        self.compose()
        composed = time.process_time()
        self.store()
        encoding = time.process_time()
        self.encode()
        return composed - started, time.process_time() - encoding


def measure(label: str, sets: list[list[PhaseOutcome]], rounds: int) -> dict[str, float]:
    """Compose and encode every report of each set of turns: CPU ms and Python calls a report,
    and the CPU of the first pass (`first_ms`: the process's first reports, before anything it
    keeps is filled: its map's names, the orders it has described, the writer made per type).
    `sets`: the first pass's turns, then each timed pass's, then the profiled pass's; one set
    for all of them with --same."""
    passes = [Pass(outcomes) for outcomes in sets]
    first, timed, profiled = passes[0], passes[1:1 + rounds] or [passes[0]] * rounds, passes[-1]
    count = len(first.outcomes)
    first_ms = sum(first.timed()) * 1000 / count
    times = [each.timed() for each in timed]
    compose_calls = calls_per_item(profiled.compose, count)
    profiled.store()
    figures = {"compose_ms": statistics.median(t[0] for t in times) * 1000 / count,
               "encode_ms": statistics.median(t[1] for t in times) * 1000 / count,
               "compose_calls": compose_calls, "encode_calls": calls_per_item(profiled.encode, count),
               "first_ms": first_ms}
    print(f"{label}: {count} reports a pass ({sum(len(o.orders) for o in first.outcomes)} orders, "
          f"{sum(o.results == ('void',) for outcome in first.outcomes for o in outcome.orders)} void, in the first), "
          f"a payload {sum(len(payload_of(p)) for p in first.parts) / count:.0f} characters; "
          f"{'the same games in every pass' if len(passes) == 1 else 'games of their own in each pass'}; "
          f"CPU a report, median of {rounds} passes:")
    print(f"  compose {figures['compose_ms']:.3f} ms  {figures['compose_calls']:.0f} Python calls")
    print(f"  encode  {figures['encode_ms']:.3f} ms  {figures['encode_calls']:.0f} Python calls")
    print(f"  both, the first pass (nothing kept yet) {first_ms:.3f} ms")
    return figures


def turn_sets(games: int, phases: int, seed: int, helping: bool, passes: int) -> list[list[PhaseOutcome]]:
    """`passes` sets of `games` games' turns, each set from seeds of its own (seeded_outcomes)."""
    return [list(seeded_outcomes(games, phases, seed=seed + n, helping=helping)) for n in range(passes)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--phases", type=int, default=5)
    parser.add_argument("--openings", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--same", action="store_true",
                        help="every pass over the same games (what is kept from the first serves them all)")
    args = parser.parse_args()
    passes = 1 if args.same else args.rounds + 2  # the first, the timed ones, the profiled one
    # the first: what bench_deadlines.py adjudicates (Spring 1901, any legal order); the second, a game's turns
    opening = measure("opening", turn_sets(args.openings, 1, 1, False, passes), args.rounds)
    mixed = measure("mixed", turn_sets(args.games, args.phases, 0, True, passes), args.rounds)
    load = os.getloadavg()[0]
    print("RESULT " + " ".join(f"{label}_{key}={value:.4f}" if key.endswith("ms") else f"{label}_{key}={value:.0f}"
                               for label, figures in (("opening", opening), ("mixed", mixed))
                               for key, value in figures.items()) + f" load={load:.2f}")


if __name__ == "__main__":
    main()
