"""What the schedule costs: the pure next-deadline maths per call, and the sweep's
"which games are due" query (services/game/schedule.due_games) with many games waiting in a minor
turn, where early_processing = minor_when_all_final makes it read each game's position and sets.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_schedule.py [--games 500] [--database-url URL]

The last line: `RESULT next_deadline_us=... due_games_s=... games=... load=...`.

Prints figures only; SQLite in a temp dir unless --database-url is given.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gmserver.db.migrate import upgrade
from gmserver.db.session import transaction
from gmserver.rules.deadlines import TurnLengths
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.schedule import Schedule, next_deadline
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, create_game
from gmserver.services.turn import turns
from tests.support.world import services_for

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
WINTER = Position.from_json({"phase": "W1901A", "units": {"FRANCE": ["A PAR"]},
                             "centers": {"FRANCE": ["BRE", "MAR", "PAR"]}})


def pure(calls: int) -> float:
    schedule = Schedule(TurnLengths(timedelta(hours=48), timedelta(hours=24), timedelta(hours=24)),
                        "Europe/London", None)
    deadline = datetime(2026, 10, 23, 17, 0, tzinfo=UTC)
    started = time.perf_counter()
    for n in range(calls):
        # a third processed 3 hours late: the slow path, whole days forward
        deadline = next_deadline(deadline, "F1901M", schedule, deadline + timedelta(hours=3 if n % 3 == 0 else 0))
    took = time.perf_counter() - started
    print(f"next_deadline: {calls} calls in {took:.3f} s ({took / calls * 1e6:.1f} us a call)")
    return took / calls * 1e6


def sweep(database_url: str, games: int) -> float:
    upgrade(database_url)
    services = services_for(database_url)
    for policy in ("never", "minor_when_all_final"):
        ruleset = dataclasses.replace(load_ruleset("standard"), early_processing=policy)
        with transaction(services.sessions) as session:
            for n in range(games):
                create_game(session, GameSpec(name=f"{policy}-{n}", ruleset=ruleset, position=WINTER,
                                              players=[PlayerSpec(p, f"{p.lower()}{n}@p.test") for p in POWERS],
                                              sender_check="from"), NOW)
    started = time.perf_counter()
    due = turns.due_games(services.sessions, NOW + timedelta(hours=1))
    took = time.perf_counter() - started
    print(f"due_games: {2 * games} games in a Winter turn ({games} of them minor_when_all_final, none ready): "
          f"{took:.3f} s, {len(due)} due")
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    per_call = pure(args.calls)
    if args.database_url:
        took = sweep(args.database_url, args.games)
    else:
        with tempfile.TemporaryDirectory() as directory:
            took = sweep(f"sqlite:///{Path(directory) / 'bench.db'}", args.games)
    print(f"RESULT next_deadline_us={per_call:.1f} due_games_s={took:.3f} games={2 * args.games} "
          f"load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
