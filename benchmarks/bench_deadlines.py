"""1,000 games due at the same moment: how long `turns.adjudicate_due` takes to clear them (a
script that prints figures; not a test). The goals: under 10 s on one machine, and
the whole deadline pipeline at most twice the engine's own `process()` for the same phases.

Each game is a seven-player `standard` game at Spring 1901 with an order set on file for every
power: random legal orders (seeded), stored as `order_sets` rows as intake files them, so that the
games differ. Then, on each database asked for:

- the engine alone: `engine.process_seconds` for every game's phase and orders (the yardstick);
- one daemon: `adjudicate_due` once, timed (load, effective orders, adjudicate, store the result
  and the next phase, render and queue seven reports, advance; a batch of games per transaction);
- the ratio of the two, and the same with the players' copies of the reports written (the
  outbox sender writes each when it sends it: services/base/report_copies.py), timed separately
  (`--skip-copies` leaves that out, for a quick run);
- the FLOOR (benchmarks/bench_floor.py): the engine's public API alone for the same phases (Game
  from the stored state, orders set, process(), state and results read back) over process():
  the least a pipeline building the engine's game from the stored state can reach;
- with `--daemons 2` (PostgreSQL; SQLite too, where writers queue on the database lock): the same
  number of fresh games cleared by two processes calling `adjudicate_due` at once, each game
  exactly once (FOR UPDATE SKIP LOCKED shares them out; the phase check stops a second run);
- a running daemon: the same number of fresh games sharing a real deadline a little ahead, cleared
  by a started `Daemon` as `gmserver run` clears them (each game's deadline job, the outbox
  sending meanwhile), timed from their deadline to the last one adjudicated
  (`--skip-running-daemon` leaves it out).

    .venv/bin/python benchmarks/bench_deadlines.py [--games 1000] [--database sqlite postgresql]
                                                  [--daemons 1 2] [--profile 30] [--skip-copies]
                                                  [--profile-copies 30] [--skip-running-daemon]
                                                  [--gc-default]

The output ends with a line per database: `RESULT pipeline_over_floor=... copy_ms=...
due1000_s=... cpu_s=... gc_s=... statements_per_game=... load=... due1000_2daemons_s=... due1000_running_daemon_s=...
database=...`
(the floor measured before and after the deadline, their mean). The SQL statements a game are
counted at every run, by kind too (verb and first table), the Python calls a game with
`--profile` (both the same on any host).

PostgreSQL: 127.0.0.1:5432, user postgres; the script creates its own database and drops it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import multiprocessing
import os
import pstats
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HOME", "/tmp")

from sqlalchemy import event, func, select  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from benchmarks.bench_floor import describe, floor  # noqa: E402
from benchmarks.bench_loop import TakesTheBytes  # noqa: E402
from gmserver import collector, engine  # noqa: E402
from gmserver.config import Config, ListenerConfig  # noqa: E402
from gmserver.daemon import Daemon  # noqa: E402
from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.db.models import Game, OrderSet, OutboxMessage  # noqa: E402
from gmserver.db.queries.phases import phase_record  # noqa: E402
from gmserver.db.session import transaction  # noqa: E402
from gmserver.rules.ruleset import load_ruleset  # noqa: E402
from gmserver.services.base import report_copies as report_mail  # noqa: E402
from gmserver.services.base.outbox import mail_problems  # noqa: E402
from gmserver.services.features import views  # noqa: E402
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, create_game  # noqa: E402
from gmserver.services.game.ordersets import orders_on_file  # noqa: E402
from gmserver.services.turn import turns  # noqa: E402
from tests.support.databases import scratch_database  # noqa: E402
from tests.support.dovecot import free_port  # noqa: E402
from tests.support.world import GM, services_for  # noqa: E402


def database(kind: str, tmp: Path) -> tuple[str, Callable[[], None]]:
    return scratch_database(kind, tmp, "gmbench")


def random_orders(legal: dict[str, tuple[str, ...]], rng: random.Random) -> dict[str, list[str]]:
    """One legal order per unit, by power (the opening position: each power's home units)."""
    owner = {unit.split()[1].split("/")[0]: power
             for power, units in engine.position_from_state(engine.initial_state()).units.items() for unit in units}
    orders: dict[str, list[str]] = {}
    for location, choices in sorted(legal.items()):
        orders.setdefault(owner[location.split("/")[0]], []).append(rng.choice(choices))
    return orders


def create_due_games(services, count: int, deadline: datetime, seed: int, prefix: str) -> list[int]:
    """`count` games whose deadline is `deadline`, each with a random legal order set per power."""
    rng = random.Random(seed)
    legal = engine.legal_orders(engine.initial_state())
    ruleset = load_ruleset("standard")
    ids = []
    for start in range(0, count, 100):
        with transaction(services.sessions) as session:
            for n in range(start, min(count, start + 100)):
                game = create_game(session, GameSpec(
                    name=f"{prefix}{n}", ruleset=ruleset, sender_check="from", first_deadline=deadline,
                    players=[PlayerSpec(p, f"{p.lower()}.{prefix}{n}@players.test") for p in POWERS]),
                    deadline - timedelta(days=2))
                for power, orders in random_orders(legal, rng).items():
                    session.add(OrderSet(game_id=game.id, power=power, phase=game.phase, version=1, orders=orders,
                                         lines=[], received_at=deadline - timedelta(hours=1)))
                ids.append(game.id)
    return ids


def phases_of(services, ids: list[int]) -> list[tuple[dict, dict[str, list[str]]]]:
    """Every game's stored state and orders on file, as the engine takes them."""
    phases = []
    for game_id in ids:
        with transaction(services.sessions) as session:
            game = session.get(Game, game_id)
            state = phase_record(session, game_id, game.phase).state
            on_file = orders_on_file(session, game_id, game.phase, load_ruleset("standard")).orders
            phases.append((state, {power: [str(order) for order in power_orders]
                                   for power, power_orders in on_file.items()}))
    return phases


def engine_alone(phases: list[tuple[dict, dict[str, list[str]]]]) -> tuple[float, float]:
    """The engine's own process() for every game's phase and orders, summed: wall and CPU time."""
    wall = cpu = 0.0
    for state, orders in phases:
        wall += engine.process_seconds(state, orders)
        cpu += engine.process_seconds(state, orders, clock=time.process_time)
    return wall, cpu


def writing_copies(services, ids: list[int],
                   profiler: cProfile.Profile | None = None) -> tuple[float, float, int, float, int]:
    """What moved from the deadline to the outbox sender: writing every player's copy of the
    reports queued for `ids` (the multipart mail with its map, chart and .ics, once per report
    and then readdressed; serialised; checked by mail_problems), as `deliver_due` does before it
    hands a copy to the relay. Timed without the relay and without the sender's own bookkeeping.
    Returns wall and CPU seconds and copies in all, then the CPU seconds and number of the copies
    after the first of each report: what one more player's copy costs once the report's shared
    parts (the map drawn, the parts serialised) are written. `profiler`: enabled around those
    later copies alone (the first of each report draws the map and renders the templates)."""
    report_mail.forget_written()
    with transaction(services.sessions) as session:
        rows = list(session.scalars(select(OutboxMessage).where(OutboxMessage.game_id.in_(ids),
                                                                OutboxMessage.kind == "report")
                                    .order_by(OutboxMessage.id)))
        payloads = {row.report_id: row.report.payload for row in rows}
    seen: set[int] = set()
    later_cpu, later = 0.0, 0
    began, cpu = time.perf_counter(), time.process_time()
    for row in rows:
        first = row.report_id not in seen
        seen.add(row.report_id)
        if profiler and not first:
            profiler.enable()
        copy_cpu = time.process_time()
        raw = report_mail.write_copy(payloads[row.report_id], to=row.recipient, subject=row.addressing["subject"],
                                     reply_secret=(row.addressing or {}).get("reply_secret"),
                                     message_id=row.message_id, power=row.addressing.get("power"))
        assert not mail_problems(raw, row.recipient)
        if profiler and not first:
            profiler.disable()
        if not first:
            later_cpu += time.process_time() - copy_cpu
            later += 1
    return time.perf_counter() - began, time.process_time() - cpu, len(rows), later_cpu, later


def _worker(url: str, now: datetime, start, results, gc_policy: bool) -> None:  # type: ignore[no-untyped-def]
    services = services_for(url)
    engine.map_info()  # import the engine and build the map before the clock starts
    if gc_policy:
        collector.settle_after_start()
    start.wait()
    began, cpu = time.perf_counter(), time.process_time()
    done = turns.adjudicate_due(services, now)
    results.put((os.getpid(), len(done), time.perf_counter() - began, time.process_time() - cpu))


def run_daemons(url: str, now: datetime, daemons: int, gc_policy: bool
                ) -> tuple[float, list[tuple[int, int, float, float]]]:
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    workers = [context.Process(target=_worker, args=(url, now, start, results, gc_policy)) for _ in range(daemons)]
    for worker in workers:
        worker.start()
    time.sleep(3)  # let every worker import gmserver and the engine: the figure is adjudication alone
    began = time.perf_counter()
    start.set()
    figures = [results.get() for _ in workers]
    elapsed = time.perf_counter() - began
    for worker in workers:
        worker.join()
    return elapsed, figures


def running_daemon(kind: str, url: str, services, games: int, seed: int) -> float:  # type: ignore[no-untyped-def]
    """`games` fresh games sharing a deadline a little ahead, cleared by a started `Daemon` (its
    deadline jobs, as `gmserver run` does, the sweep at its default interval): seconds from their
    adjudication time to the last one adjudicated, checked each exactly once."""
    ahead = timedelta(seconds=20 + games * 0.03)  # creating the games takes about 10 ms each
    deadline = datetime.now(UTC) + ahead
    ids = create_due_games(services, games, deadline, seed=seed, prefix="run")
    due_at = min(timing.deadline for timing in views.game_timings(services.sessions, ids) if timing.deadline)
    config = Config(database_url=url, gm_address=GM, listener=ListenerConfig(port=free_port()))
    daemon = Daemon(config, services=services, transport=TakesTheBytes())
    daemon.start()
    try:
        if datetime.now(UTC) >= due_at:
            raise SystemExit(f"{kind}: the games were due before the daemon started; give them longer")
        time.sleep((due_at - datetime.now(UTC)).total_seconds())
        began = time.perf_counter()
        while True:
            with transaction(services.sessions) as session:
                left = session.scalar(select(func.count()).select_from(Game).where(Game.id.in_(ids),
                                                                                  Game.phase == "S1901M"))
            if not left:
                break
            time.sleep(0.05)
        elapsed = time.perf_counter() - began
    finally:
        daemon.stop()
    check_exactly_once(services, ids)
    print(f"{kind}: {games} games due at once, a running daemon (`gmserver run`'s deadline jobs): {elapsed:.2f} s "
          f"from their deadline to the last adjudicated (load average {os.getloadavg()[0]:.1f})")
    return elapsed


class CollectorTime:
    """The time the garbage collector ran while it is entered, and its collections by generation
    (gc.callbacks: the collector's own start and stop)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = [0, 0, 0]
        self._started = 0.0

    def _event(self, phase: str, info: dict) -> None:  # type: ignore[type-arg]
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started
            self.collections[info["generation"]] += 1

    def __enter__(self) -> CollectorTime:
        gc.callbacks.append(self._event)
        return self

    def __exit__(self, *_exc) -> None:  # type: ignore[no-untyped-def]
        gc.callbacks.remove(self._event)


class StatementCount:
    """The SQL statements sent while it is entered (every engine's, SAVEPOINTs included), and how
    many of each kind (`kind_of`)."""

    def __init__(self) -> None:
        self.count = 0
        self.kinds: Counter[str] = Counter()

    def _sent(self, _connection, _cursor, statement: str, *_rest) -> None:  # type: ignore[no-untyped-def]
        self.count += 1
        self.kinds[kind_of(statement)] += 1

    def __enter__(self) -> StatementCount:
        event.listen(Engine, "before_cursor_execute", self._sent)
        return self

    def __exit__(self, *_exc) -> None:  # type: ignore[no-untyped-def]
        event.remove(Engine, "before_cursor_execute", self._sent)

    def by_kind(self, games: int) -> str:
        return ", ".join(f"{kind} {count / games:.2f}" for kind, count in self.kinds.most_common())


_TABLE_NAMED = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+\"?(\w+)", re.IGNORECASE)


def kind_of(statement: str) -> str:
    """A statement's verb and the first table it names outside parentheses ("SELECT order_sets",
    "UPDATE phases"): a claim's EXISTS subqueries name theirs before its FROM."""
    verb = statement.split(None, 1)[0].upper() if statement.strip() else "?"
    for named in _TABLE_NAMED.finditer(statement):
        before = statement[:named.start()]
        if before.count("(") == before.count(")"):
            return f"{verb} {named.group(1)}"
    return verb


def check_exactly_once(services, ids: list[int]) -> None:
    with transaction(services.sessions) as session:
        phases = session.execute(select(Game.phase, func.count()).where(Game.id.in_(ids)).group_by(Game.phase)).all()
        reports = session.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.game_id.in_(ids), OutboxMessage.kind == "report"))
    assert phases == [("F1901M", len(ids))], f"games not all advanced once: {phases}"
    assert reports == 7 * len(ids), f"{reports} reports for {len(ids)} games, expected {7 * len(ids)}"


def one_daemon(kind: str, services, ids: list[int], now: datetime, profile: int, copies: bool = True,
               profile_copies: int = 0, gc_policy: bool = True) -> str:
    """`adjudicate_due` in this process, timed (and profiled, with `profile`), beside the engine's
    process() alone, the floor, and the writing of the copies the sender does later (profiled, with
    `profile_copies`: the copies after each report's first). Returns the figures for the RESULT line
    (key=value ...)."""
    games = len(ids)
    phases = phases_of(services, ids)
    alone, alone_cpu = engine_alone(phases)
    # the floor both before and after the deadline, and their mean: on a shared machine the CPU a
    # step costs drifts with the neighbours' load within a minute, and the ratio must not
    floor_before = floor(phases, expand=False)
    profiler = cProfile.Profile(time.process_time) if profile else None  # CPU: the figure compared
    statements, collecting = StatementCount(), CollectorTime()
    began, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    with statements, collecting:
        done = turns.adjudicate_due(services, now)
    if profiler:
        profiler.disable()
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    assert len(done) == games, f"{len(done)} of {games} adjudicated"
    load = os.getloadavg()[0]
    print(f"{kind}: {games} games due at once, one daemon: {elapsed:.2f} s ({elapsed * 1000 / games:.1f} ms per "
          f"game; this process's CPU {cpu:.2f} s, load average {load:.1f} on {os.cpu_count()} CPUs)")
    calls = f", Python calls a game {pstats.Stats(profiler).total_calls / games:,.0f}" if profiler else ""
    print(f"{kind}: SQL statements a game {statements.count / games:.2f}{calls} (counted: the same on any host)")
    print(f"{kind}: of which, by kind: {statements.by_kind(games)}")
    young, middle, full = collecting.collections
    print(f"{kind}: the garbage collector ran {collecting.seconds:.2f} s of it ({young} young, {middle} middle and "
          f"{full} full collections; {'as `gmserver run` sets it' if gc_policy else 'CPython defaults'})")
    print(f"{kind}: wall minus this process's CPU (waiting: the database, the neighbours' load): "
          f"{elapsed - cpu:.2f} s")
    print(f"{kind}: engine process() alone for the same phases: {alone:.2f} s, CPU {alone_cpu:.2f} s "
          f"({alone * 1000 / games:.2f} ms per game)")
    print(f"{kind}: pipeline / engine = {elapsed / alone:.1f} wall, {cpu / alone_cpu:.1f} CPU (the deadline: load, "
          f"effective orders, adjudicate, store, the report stored once, seven copies queued)")
    floors = {}
    for expand in (True, False):
        floors[expand] = floor(phases, expand=expand)
        print(f"{kind}: CPU {describe(floors[expand], games, expand)} (load average {os.getloadavg()[0]:.1f})")
    # the floor gmserver's engine.py can reach: set_orders without expansion where it is exact
    floor_cpu = (floor_before.total + floors[False].total) / 2
    print(f"{kind}: pipeline / floor = {cpu / floor_cpu:.1f} CPU (the floor {floor_before.total:.2f} s before the "
          f"deadline, {floors[False].total:.2f} s after)")
    copy_ms = None
    if copies:
        copies_profiler = cProfile.Profile(time.process_time) if profile_copies else None
        writing, writing_cpu, written, later_cpu, later = writing_copies(services, ids, copies_profiler)
        copy_ms = later_cpu * 1000 / max(later, 1)
        print(f"{kind}: at send time, writing the {written} players' copies of the reports (map, chart, .ics drawn "
              f"once per report): {writing:.2f} s, CPU {writing_cpu:.2f} s ({writing * 1000 / games:.1f} ms per "
              f"game; load average {os.getloadavg()[0]:.1f})")
        print(f"{kind}: of which each copy after a report's first (its shared parts written): CPU {copy_ms:.2f} ms "
              f"a copy ({later} copies)")
        print(f"{kind}: pipeline / engine with the copies written at send time = {(elapsed + writing) / alone:.1f} "
              f"wall, {(cpu + writing_cpu) / alone_cpu:.1f} CPU")
        if copies_profiler:
            print(f"{kind}: profile of the {later} copies after each report's first (CPU; profiled, so slower):")
            print_profile(copies_profiler, profile_copies)
    if profiler:
        print_profile(profiler, profile)
    copy_figure = f" copy_ms={copy_ms:.2f}" if copy_ms is not None else ""
    return (f"pipeline_over_floor={cpu / floor_cpu:.2f}{copy_figure} due{games}_s={elapsed:.2f} "
            f"cpu_s={cpu:.2f} gc_s={collecting.seconds:.2f} statements_per_game={statements.count / games:.2f} "
            f"load={load:.1f}")


def print_profile(profiler: cProfile.Profile, lines: int) -> None:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(lines)
    print(out.getvalue())


def bench(kind: str, games: int, daemons: list[int], profile: int, copies: bool = True,
          profile_copies: int = 0, gc_policy: bool = True, running: bool = True) -> str:
    """Every run asked for on one database; the figures for its RESULT line (key=value ...)."""
    figures_of_runs = []
    with tempfile.TemporaryDirectory() as tmp:
        url, drop = database(kind, Path(tmp))
        try:
            upgrade(url)
            services = services_for(url)
            # days ahead, the runs' own clock past it: no game of theirs is due for the running daemon
            deadline = datetime.now(UTC).replace(microsecond=0) + timedelta(days=3)
            now = deadline + timedelta(minutes=1)
            for n in daemons:
                ids = create_due_games(services, games, deadline, seed=n, prefix=f"d{n}g")
                if n == 1:
                    figures_of_runs.append(one_daemon(kind, services, ids, now, profile, copies, profile_copies,
                                                          gc_policy))
                else:
                    elapsed, figures = run_daemons(url, now, n, gc_policy)
                    shares = ", ".join(f"{count} games in {seconds:.2f} s, CPU {cpu:.2f} s"
                                       for _, count, seconds, cpu in figures)
                    print(f"{kind}: {games} games due at once, {n} daemons: {elapsed:.2f} s wall ({shares}; "
                          f"load average {os.getloadavg()[0]:.1f})")
                    assert sum(count for _, count, _, _ in figures) == games
                    figures_of_runs.append(f"due{games}_{n}daemons_s={elapsed:.2f}")
                check_exactly_once(services, ids)
            if running:
                elapsed = running_daemon(kind, url, services, games, seed=len(daemons) + 1)
                figures_of_runs.append(f"due{games}_running_daemon_s={elapsed:.2f}")
        finally:
            drop()
    return " ".join([*figures_of_runs, f"database={kind}"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    parser.add_argument("--daemons", nargs="+", type=int, default=[1, 2], help="1: in this process, timed alone")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile the one-daemon run and print the N most expensive calls")
    parser.add_argument("--profile-copies", type=int, default=0, metavar="N",
                        help="profile writing the copies after each report's first; print the N most expensive calls")
    parser.add_argument("--skip-copies", action="store_true",
                        help="leave out writing the players' copies at send time (a quick run)")
    parser.add_argument("--gc-default", action="store_true",
                        help="leave CPython's garbage collector as it is, not as `gmserver run` sets it "
                             "(gmserver/collector.py)")
    parser.add_argument("--skip-running-daemon", action="store_true",
                        help="leave out the games cleared by a started daemon's deadline jobs (about 30 s of "
                             "waiting for their deadline)")
    args = parser.parse_args()
    engine.map_info()  # the first call imports the engine (about 0.3 s): not part of any figure
    if not args.gc_default:  # as `gmserver run` does once started; the floor is measured under it too
        collector.settle_after_start()
    results = [bench(kind, args.games, args.daemons, args.profile, not args.skip_copies, args.profile_copies,
                     not args.gc_default, not args.skip_running_daemon)
               for kind in args.database]
    for figures in results:  # the output ends with them, a line per database
        print(f"RESULT {figures}")


if __name__ == "__main__":
    main()
