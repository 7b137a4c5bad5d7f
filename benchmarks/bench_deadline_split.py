"""Where a due game's work goes at the deadline: the engine's part (what the floor does too) and
gmserver's own, by part of the pipeline (a script that prints figures; not a test).

The same games as bench_deadlines.py (seven-player Spring 1901 games, random legal orders on
file), cleared by `turns.adjudicate_due`; then, on each database asked for:

- Python calls a game by part (the same on any host): every call, Python or C, as cProfile
  counts them, given to the innermost part of the pipeline it was made in (`PARTS`); a call
  into the engine's package from gmserver's code starts a part of its own ("engine: process"...),
  beside the floor's calls for the same phases (benchmarks/bench_floor.py under cProfile);
- CPU a game by part, from timers around the same parts' functions (a few dozen calls a game,
  so the figures are near the untimed run's), on a second set of games, with the floor timed
  before and after it in the same run: the ratio, and what the ratio would be if the deadline
  built no engine game (`Game()` and `set_state`) at all, the floor unchanged.

    .venv/bin/python benchmarks/bench_deadline_split.py [--games 200] [--database sqlite postgresql]

The output ends with a line per database: `RESULT calls_per_game=... engine_calls=...
floor_calls=... cpu_ms=... floor_ms=... engine_cpu_ms=... build_ms=... ratio=...
ratio_without_build=... load=... database=...`.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import importlib
import os
import pstats
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HOME", "/tmp")

from benchmarks.bench_deadlines import check_exactly_once, create_due_games, database, phases_of  # noqa: E402
from benchmarks.bench_floor import floor  # noqa: E402
from gmserver import collector, engine  # noqa: E402
from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.services.turn import turns  # noqa: E402
from tests.support.world import services_for  # noqa: E402

# (module, function, part): a call is given to the innermost of these it was made in
PARTS = [
    ("gmserver.services.turn.turns", "_adjudicate_batch_once", "the batch: transaction, held writes, commit"),
    ("gmserver.db.queries.phases", "claim_all_at_deadline", "claim and read ahead (the ORM's games, players)"),
    ("gmserver.db.queries.ordersets", "read_sets_ahead", "claim and read ahead (the ORM's games, players)"),
    ("gmserver.db.queries.phases", "read_spring_centres_ahead", "claim and read ahead (the ORM's games, players)"),
    ("gmserver.services.turn.turns", "_adjudicate_claimed", "the game's turn: due, deadline, next phase, advance"),
    ("gmserver.services.turn.turns", "_process_phase", "the phase: missed turns, end, record, disputes"),
    ("gmserver.services.turn.turns", "compute_outcome", "orders on file, contingent and standing"),
    ("gmserver.services.game.ordersets", "on_file_and_lines", "orders on file, contingent and standing"),
    ("gmserver.services.turn.turns", "outcome_of_orders", "house rules around the engine (voids, routes, notes)"),
    ("gmserver.services.turn.adjudication", "completed", "house defaults (complete_orders)"),
    ("gmserver.engine", "adjudicate", "engine.adjudicate's own (checks, orders out, outcome read)"),
    ("gmserver.services.turn.turns", "_queue_reports", "queueing: keys, tokens, links, rows"),
    ("gmserver.services.turn.turn_report", "turn_report", "report: subjects, Message-IDs, parts"),
    ("gmserver.services.turn.turn_report", "report_contexts", "report: contexts (order lines, centres)"),
    ("gmserver.services.base.report_copies", "payload_of", "report: payload written as JSON text"),
]
BUILD = ("engine: __init__", "engine: set_state")  # the engine's Game() and set_state


def _functions() -> dict[CodeType, tuple[str, Callable[..., Any]]]:
    """The code of each part's function -> (its part, the function)."""
    found = {}
    for module, name, part in PARTS:
        function = getattr(importlib.import_module(module), name)
        found[function.__code__] = (part, function)
    return found


def _is_engine(code: CodeType) -> bool:
    return f"{os.sep}diplomacy{os.sep}" in code.co_filename


def calls_by_part(work: Callable[[], object]) -> Counter[str]:
    """Every call `work` makes (cProfile's count: Python and C calls), by the innermost part."""
    parts = {code: part for code, (part, _) in _functions().items()}
    counts: Counter[str] = Counter()
    stack: list[tuple[str, FrameType | None]] = [("outside the parts (due_games, the batch loop)", None)]

    def seen(frame: FrameType, event: str, _arg: object) -> None:
        if event == "c_call":
            counts[stack[-1][0]] += 1
        elif event == "call":
            counts[stack[-1][0]] += 1
            part = parts.get(frame.f_code)
            if part is None and _is_engine(frame.f_code) and not stack[-1][0].startswith("engine: "):
                part = f"engine: {frame.f_code.co_name}"
            if part is not None:
                stack.append((part, frame))
        elif event == "return" and stack[-1][1] is frame:
            stack.pop()

    sys.setprofile(seen)
    try:
        work()
    finally:
        sys.setprofile(None)
    return counts


@contextmanager
def timed_parts(spent: Counter[str]) -> Iterator[None]:
    """Each part's own CPU (its inner parts' taken out) added to `spent` while entered: every
    module's name for a part's function, and the engine's Game methods, wrapped with a timer."""
    stack: list[list[Any]] = []
    clock = time.process_time

    def timer(function: Callable[..., Any], part: str) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = clock()
            if stack:
                spent[stack[-1][0]] += began - stack[-1][1]
            stack.append([part, began])
            try:
                return function(*args, **kwargs)
            finally:
                ended = clock()
                part_timed, since = stack.pop()  # since: when its own time last started to count
                spent[part_timed] += ended - since
                if stack:
                    stack[-1][1] = ended
        return timed

    replaced: list[tuple[Any, str, Any]] = []
    for part, function in _functions().values():
        wrapped = timer(function, part)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("gmserver") and getattr(module, function.__name__,
                                                                                   None) is function:
                replaced.append((module, function.__name__, function))
                setattr(module, function.__name__, wrapped)
    game = engine._diplomacy().Game  # noqa: SLF001  (the engine's module, imported lazily there)
    for name in ("__init__", "set_state", "set_orders", "process", "get_state", "get_orders"):
        replaced.append((game, name, game.__dict__[name]))
        setattr(game, name, timer(game.__dict__[name], f"engine: {name}"))
    try:
        yield
    finally:
        for owner, name, original in replaced:
            setattr(owner, name, original)


def bench(kind: str, games: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        url, drop = database(kind, Path(tmp))
        try:
            upgrade(url)
            services = services_for(url)
            deadline = datetime.now(UTC).replace(microsecond=0) + timedelta(days=3)
            now = deadline + timedelta(minutes=1)
            counted_ids = create_due_games(services, games, deadline, seed=1, prefix="c")
            phases = phases_of(services, counted_ids)
            profiler = cProfile.Profile()
            profiler.runcall(floor, phases, expand=False)
            floor_calls = pstats.Stats(profiler).total_calls / games
            counts = calls_by_part(lambda: turns.adjudicate_due(services, now))
            check_exactly_once(services, counted_ids)

            timed_ids = create_due_games(services, games, deadline, seed=2, prefix="t")
            phases = phases_of(services, timed_ids)
            floor_before = floor(phases, expand=False)
            spent: Counter[str] = Counter()
            with timed_parts(spent):
                began = time.process_time()
                turns.adjudicate_due(services, now)
                cpu = time.process_time() - began
            floor_after = floor(phases, expand=False)
            check_exactly_once(services, timed_ids)
        finally:
            drop()
    load = os.getloadavg()[0]
    per = 1000 / games
    calls = sum(counts.values()) / games
    engine_calls = sum(n for part, n in counts.items() if part.startswith("engine: ")) / games
    floor_cpu = (floor_before.total + floor_after.total) / 2
    engine_cpu = sum(s for part, s in spent.items() if part.startswith("engine: "))
    build = sum(spent[part] for part in BUILD)
    spent["outside the parts (due_games, the batch loop)"] = cpu - sum(spent.values())
    print(f"{kind}: Python calls a game {calls:,.0f}: the engine's {engine_calls:,.0f}, gmserver's own "
          f"{calls - engine_calls:,.0f}; the floor's for the same phases {floor_calls:,.0f} (the same on any host)")
    for part, count in counts.most_common():
        print(f"{kind}:   {count / games:8,.0f}  {part}")
    print(f"{kind}: CPU a game {cpu * per:.2f} ms (timed by part): the engine's {engine_cpu * per:.2f} ms "
          f"(Game() and set_state {build * per:.2f}), gmserver's own {(cpu - engine_cpu) * per:.2f} ms; the floor "
          f"{floor_cpu * per:.2f} ms (Game() and set_state {(floor_before.build + floor_after.build) / 2 * per:.2f}, "
          f"process() {(floor_before.process + floor_after.process) / 2 * per:.2f}); load average {load:.1f}")
    for part, seconds in spent.most_common():
        print(f"{kind}:   {seconds * per:6.3f} ms  {part}")
    print(f"{kind}: pipeline / floor {cpu / floor_cpu:.2f}; without building the engine's game "
          f"{(cpu - build) / floor_cpu:.2f} (the floor unchanged)")
    return (f"calls_per_game={calls:.0f} engine_calls={engine_calls:.0f} floor_calls={floor_calls:.0f} "
            f"cpu_ms={cpu * per:.2f} floor_ms={floor_cpu * per:.2f} engine_cpu_ms={engine_cpu * per:.2f} "
            f"build_ms={build * per:.2f} ratio={cpu / floor_cpu:.2f} ratio_without_build={(cpu - build) / floor_cpu:.2f} "
            f"load={load:.1f} database={kind}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    args = parser.parse_args()
    engine.map_info()  # the engine imported and its map built: not part of any figure
    collector.settle_after_start()  # as `gmserver run` does once started
    results = [bench(kind, args.games) for kind in args.database]
    for figures in results:
        print(f"RESULT {figures}")


if __name__ == "__main__":
    main()
