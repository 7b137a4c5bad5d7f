"""Report map benchmark: the time to draw a turn report's map as a PNG, the static board
rasterised once per process beforehand (its one-off cost is printed too). Goal: under 100 ms.
The scenario is the mid-game turn of the report's golden files (tests/support/midgame.py); the
confirmation's map of one power's orders (mapimage.own_orders_png) is timed too.

    .venv/bin/python benchmarks/bench_map.py [--rounds 50]

The last line: `RESULT map_ms=... own_ms=... chart_ms=... load=...` (medians; own_ms is the
confirmation's map).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HOME", "/tmp")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.support

from gmserver import centrechart, mapboard, mapimage
from gmserver.reports.extras import centre_history
from gmserver.rules.order import Order
from tests.support.midgame import midgame


def timed(function, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    outcome = midgame()
    started = time.perf_counter()
    mapboard.board()
    print(f"static board (SVG read, rasterised once per process): {(time.perf_counter() - started) * 1000:.0f} ms")
    size = len(mapimage.map_png(outcome))
    map_times = times = timed(lambda: mapimage.map_png(outcome), args.rounds)
    print(f"report map PNG ({size // 1024} KiB, {args.rounds} rounds): median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms (goal < 100 ms)")
    france = outcome.before.units.get("FRANCE", ())
    own = [o.order for o in outcome.orders if o.power == "FRANCE"] or [Order.parse(f"{unit} H") for unit in france]
    own_times = times = timed(lambda: mapimage.own_orders_png(outcome.before, "FRANCE", own), args.rounds)
    print(f"a confirmation's map of one power's {len(own)} orders (cropped): median {statistics.median(times):.1f} ms "
          f"(what the map adds to each full confirmation)")
    history = centre_history([(f"S{1901 + y}M", {"FRANCE": 3 + y, "ITALY": 3, "RUSSIA": 4 + y % 3})
                              for y in range(12)])
    times = timed(lambda: centrechart.centre_chart(*history), args.rounds)
    print(f"centre chart PNG, 12 years: median {statistics.median(times):.1f} ms")
    print(f"RESULT map_ms={statistics.median(map_times):.1f} own_ms={statistics.median(own_times):.1f} chart_ms={statistics.median(times):.1f} "
          f"load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
