"""Web pages benchmark: the time to serve a game's page and a past phase's page over HTTP (uvicorn
on 127.0.0.1, the real app), with --games games in a SQLite database, each adjudicated once (its
Spring 1901 report stored). Goals: under 50 ms from a warm cache, under 200 ms cold.

Cold: the first request for a page of a game no request touched before (its stored report not
read back yet; the process itself warmed by one other game, as a running daemon is). Warm: the
same page again (median of --repeat requests). The maps (PNG) are timed apart: pages do not wait
for them, the browser fetches them after.

    .venv/bin/python benchmarks/bench_web.py [--games 1000] [--sample 40] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

os.environ.setdefault("HOME", "/tmp")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.support

from gmserver.config import WebConfig  # noqa: E402
from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.services.turn import turns  # noqa: E402
from tests.support.dovecot import free_port  # noqa: E402
from tests.support.web import get, serving  # noqa: E402
from tests.support.world import new_game, services_for  # noqa: E402

WARM_GOAL_MS, COLD_GOAL_MS = 50.0, 200.0


def timed(url: str) -> float:
    started = time.perf_counter()
    answer = get(url)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status == 200, (url, answer.status)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=40, help="games whose pages are timed")
    parser.add_argument("--repeat", type=int, default=5, help="warm requests per page")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    url = f"sqlite:///{folder / 'gm.db'}"
    upgrade(url)
    services = services_for(url)
    now = datetime(2026, 11, 1, 12, tzinfo=timezone.utc)
    started = time.perf_counter()
    names = [f"g{number:04d}" for number in range(args.games)]
    for name in names:
        new_game(services, now, name=name)
    print(f"{args.games} games created in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    done = turns.adjudicate_due(services, now + timedelta(hours=48))
    print(f"{len(done)} games adjudicated (Spring 1901, reports stored) in {time.perf_counter() - started:.1f} s")
    rng = random.Random(21)
    sample = rng.sample(names[1:], min(args.sample, len(names) - 1))
    results: dict[str, list[float]] = {key: [] for key in (
        "game cold", "game warm", "phase cold", "phase warm", "map cold", "map warm", "phase map cold")}
    # the rate limit is for the Internet's clients, not for the one client timing the pages
    with serving(services, WebConfig(listen=f"127.0.0.1:{free_port()}", requests_per_minute=100_000)) as base:
        # the process warmed by one game: the templates compiled, the board rasterised
        for path in ("", "/map.png", "/phases/S1901M", "/phases/S1901M/map.png"):
            timed(f"{base}/games/{names[0]}{path}")
        for name in sample:
            game, phase = f"{base}/games/{name}", f"{base}/games/{name}/phases/S1901M"
            results["game cold"].append(timed(game))
            results["phase cold"].append(timed(phase))
            results["map cold"].append(timed(f"{game}/map.png"))
            results["phase map cold"].append(timed(f"{phase}/map.png"))
            results["game warm"].append(statistics.median(timed(game) for _ in range(args.repeat)))
            results["phase warm"].append(statistics.median(timed(phase) for _ in range(args.repeat)))
            results["map warm"].append(statistics.median(timed(f"{game}/map.png") for _ in range(args.repeat)))
    for key, values in results.items():
        print(f"{key:15} median {statistics.median(values):7.1f} ms   max {max(values):7.1f} ms   "
              f"({len(values)} games)")
    figures = {key: statistics.median(values) for key, values in results.items()}
    ok = (figures["game warm"] < WARM_GOAL_MS and figures["phase warm"] < WARM_GOAL_MS
          and figures["game cold"] < COLD_GOAL_MS and figures["phase cold"] < COLD_GOAL_MS)
    print(f"RESULT {'PASS' if ok else 'FAIL'} games={args.games} game_warm_ms={figures['game warm']:.1f} "
          f"game_cold_ms={figures['game cold']:.1f} phase_warm_ms={figures['phase warm']:.1f} "
          f"phase_cold_ms={figures['phase cold']:.1f} (goals: warm < {WARM_GOAL_MS:.0f} ms, "
          f"cold < {COLD_GOAL_MS:.0f} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
