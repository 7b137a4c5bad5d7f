"""An idle daemon among many games, and the commands that read them.

    .venv/bin/python benchmarks/bench_idle.py [--games 10000] [--database sqlite|postgresql]
        [--seconds 120] [--list-args "--active --limit 50"]

A fresh database gets `--games` active games in Spring 1901 with nothing due (the deadline three
days ahead, every reminder still to come): one made by `create_game` and seen once by the
sweep's duties, the others copies of its rows (creating them one by one checks each name
against all the others). Then `gmserver run`
runs as a process of its own, the way a GM runs it; after its start (the first sweep included)
its CPU is counted for `--seconds` (several sweeps of 30 s), as a percentage of one core, and
its resident memory read at the end (VmRSS; VmHWM, the peak, beside it). Last, the CPU seconds
(user + sys) of whole `gmserver game list` (with `--list-args`) and `gmserver game show NAME`
processes, medians of three runs; and `game list` with one game in the database, measured before
the copies are made: the command's own start, which no filter cuts.

CPU time, not wall-clock time: the machine is shared. The last line is machine-readable:
`RESULT idle_cpu_percent=... rss_mib=... game_list_s=... game_show_s=... games=... database=...`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HOME", "/tmp")

from sqlalchemy import MetaData, create_engine, insert, select, text  # noqa: E402

from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.db.session import transaction  # noqa: E402
from gmserver.rules.ruleset import load_ruleset  # noqa: E402
from gmserver.services.features import nmr  # noqa: E402
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, create_game  # noqa: E402
from gmserver.services.turn import turns  # noqa: E402
from tests.support.databases import scratch_database  # noqa: E402
from tests.support.world import services_for  # noqa: E402

TARGETS = {"idle_cpu_percent": 1.0, "rss_mib": 150.0, "game_list_s": 0.5, "game_show_s": 0.4}
TICKS = os.sysconf("SC_CLK_TCK")


def database(kind: str, tmp: Path) -> tuple[str, Callable[[], None]]:
    return scratch_database(kind, tmp, "gmidle")


def create_idle_games(url: str, count: int, now: datetime, first: int = 0) -> None:
    """Games idle0 to idle{count-1} with nothing due: idle0 made by `create_game` (when `first`
    is 0), the others from `first` on copies of its rows."""
    if first == 0:
        services = services_for(url)
        with transaction(services.sessions) as session:
            create_game(session, GameSpec(
                name="idle0", ruleset=load_ruleset("standard"), first_deadline=now + timedelta(days=3),
                players=[PlayerSpec(p, f"{p.lower()}.idle0@players.test") for p in POWERS]),
                now - timedelta(hours=1))
        # what the daemon's sweep keeps about a game it has seen (nothing, before it kept anything)
        turns.queue_reminders(services, now)
        nmr.check_preliminary_orders(services, now)
        services.sessions.kw["bind"].dispose()
    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine, only=["games", "players", "phases"])
    games, players, phases = (tables.tables[t] for t in ("games", "players", "phases"))
    with engine.begin() as connection:
        game = dict(connection.execute(select(games).where(games.c.name == "idle0")).mappings().one())
        template = game["id"]
        own = [dict(r) for r in connection.execute(select(players).where(players.c.game_id == template)).mappings()]
        record = [dict(r) for r in connection.execute(select(phases).where(phases.c.game_id == template)).mappings()]
    for start in range(max(first, 1), count, 500):
        numbers = range(start, min(count, start + 500))
        with engine.begin() as connection:
            connection.execute(insert(games), [{**game, "id": template + n, "name": f"idle{n}"} for n in numbers])
            connection.execute(insert(players), [
                {**{k: v for k, v in p.items() if k != "id"}, "game_id": template + n,
                 "address": p["address"].replace("idle0", f"idle{n}"), "secret": f"{p['secret'][:-8]}{n:08d}"}
                for n in numbers for p in own])
            connection.execute(insert(phases), [{**{k: v for k, v in r.items() if k != "id"}, "game_id": template + n}
                                                for n in numbers for r in record])
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            for table in ("games", "players", "phases"):
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                        f"(SELECT max(id) FROM {table}))"))
            connection.execute(text("ANALYZE"))
    engine.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(tmp: Path, url: str) -> Path:
    path = tmp / "gmserver.toml"
    path.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "gm@gm.test"\n'
                    f'[outbound.maildir]\npath = "{tmp / "sent"}"\n'
                    f'[inbound.smtp]\nhost = "127.0.0.1"\nport = {free_port()}\n')
    return path


def gmserver(config: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "gmserver", "--config", str(config), *args]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def memory_mib(pid: int) -> dict[str, float]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {k: int(v.split()[0]) / 1024 for k, v in (line.split(":", 1) for line in lines) if k in ("VmRSS", "VmHWM")}


def idle_daemon(config: Path, warmup: float, seconds: float) -> tuple[float, float, float, float]:
    """`gmserver run`'s CPU while idle (percent of a core), its start's CPU, VmRSS and VmHWM."""
    log = config.parent / "daemon.log"
    with log.open("wb") as output:
        daemon = subprocess.Popen(gmserver(config, "run"), env=environment(), stdout=output, stderr=output)
    try:
        time.sleep(warmup)
        if daemon.poll() is not None:
            raise SystemExit(f"gmserver run stopped with status {daemon.returncode}:\n"
                             + log.read_text(errors="replace")[-2000:])
        started, before, at = process_cpu(daemon.pid), process_cpu(daemon.pid), time.monotonic()
        time.sleep(seconds)
        used, elapsed = process_cpu(daemon.pid) - before, time.monotonic() - at
        memory = memory_mib(daemon.pid)
    finally:
        daemon.terminate()  # a sweep under way is finished first: give it the time it takes
        try:
            daemon.wait(timeout=120)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
    return 100 * used / elapsed, started, memory["VmRSS"], memory["VmHWM"]


def command_cpu(config: Path, *args: str, runs: int = 3) -> float:
    """Median CPU seconds of whole `gmserver ARGS...` processes."""
    figures = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(gmserver(config, *args), env=environment(), check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        figures.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the idle daemon is measured")
    parser.add_argument("--warmup", type=float, default=45.0, help="seconds left to the daemon's start")
    parser.add_argument("--list-args", default="--active --limit 50",
                        help="the options of the `game list` measured (\"\": the whole list)")
    args = parser.parse_args()
    now = datetime.now(UTC).replace(microsecond=0)
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as directory:
        tmp = Path(directory)
        url, drop = database(args.database, tmp)
        try:
            upgrade(url)
            at = time.monotonic()
            create_idle_games(url, 1, now)
            config = write_config(tmp, url)
            # the command's own start (imports, configuration, database check): what no filter can cut
            alone = command_cpu(config, "game", "list", *shlex.split(args.list_args))
            create_idle_games(url, args.games, now, first=1)
            print(f"{args.games} idle games created in {time.monotonic() - at:.1f} s ({args.database})")
            load = os.getloadavg()[0]
            cpu, start, rss, peak = idle_daemon(config, args.warmup, args.seconds)
            print(f"gmserver run, idle: {cpu:.2f} % of a core over {args.seconds:.0f} s (start-up and first sweep "
                  f"{start:.1f} s of CPU); resident {rss:.0f} MiB, peak {peak:.0f} MiB (load average {load:.1f})")
            listing = command_cpu(config, "game", "list", *shlex.split(args.list_args))
            whole = command_cpu(config, "game", "list", runs=1) if args.list_args else listing
            show = command_cpu(config, "game", "show", f"idle{args.games // 2}")
            print(f"gmserver game list {args.list_args}: {listing:.2f} s CPU (with one game: {alone:.2f} s); "
                  f"the whole list {whole:.2f} s; game show {show:.2f} s")
            figures = {"idle_cpu_percent": cpu, "rss_mib": rss, "game_list_s": listing, "game_show_s": show}
            for key, value in figures.items():
                print(f"  {key:<17} {value:8.2f}  (target under {TARGETS[key]})")
            print(f"RESULT idle_cpu_percent={cpu:.2f} rss_mib={rss:.0f} rss_peak_mib={peak:.0f} "
                  f"game_list_s={listing:.2f} game_list_1game_s={alone:.2f} game_list_all_s={whole:.2f} game_show_s={show:.2f} "
                  f"games={args.games} database={args.database}")
        finally:
            drop()


if __name__ == "__main__":
    main()
