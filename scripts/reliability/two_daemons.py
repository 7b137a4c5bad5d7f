"""Two daemons on one PostgreSQL database with many games due at once.

Creates --games games in bulk through the services API (`create_game`, a hundred to a
transaction), every one with its first deadline in the past (seeded, up to ten minutes ago) and
long turns after it, so each game is due exactly once. Then starts --daemons `gmserver run`
processes on the same database (each with its own listener port and its own Maildir), waits until
every game has advanced and every report is delivered, and stops them with SIGTERM.

Checked: each game's first phase adjudicated exactly once (one phase record each, no phase twice),
one report queued per player per game, each report in exactly one Maildir exactly once (no Message-ID
twice across the Maildirs, one file per player), both daemons stop cleanly. Printed: the time to
drain and games/s, and how the work split between the daemons (from their logs).
Exit status 1 when an invariant broke.

    python scripts/reliability/two_daemons.py --games 1000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import common

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def player(power: str, number: int) -> str:
    return f"{power.lower()}.{number}@players.test"


def create_games(url: str, count: int, seed: int) -> float:
    """Bulk: `create_game` a hundred games to a transaction. Returns the seconds it took."""
    from gmserver.config import Config
    from gmserver.daemon import build_services
    from gmserver.db.session import transaction
    from gmserver.rules.ruleset import load_ruleset
    from gmserver.services.game.games import GameSpec, PlayerSpec, create_game

    services = build_services(Config(database_url=url, gm_address=common.GM))
    rng = random.Random(seed)
    ruleset = load_ruleset("standard")
    now = datetime.now(UTC)
    started = time.perf_counter()
    for numbers in common.chunks(list(range(1, count + 1)), 100):
        with transaction(services.sessions) as session:
            for number in numbers:
                create_game(session, GameSpec(
                    name=f"rush{number:04d}", ruleset=ruleset,
                    players=[PlayerSpec(p, player(p, number)) for p in POWERS],
                    first_deadline=now - timedelta(seconds=rng.uniform(1, 600)),
                    movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
                    reminder=timedelta(0), enforce_minimums=False), now)  # deadlines already past on purpose
    services.sessions.kw["bind"].dispose()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games due at once (default 1000)")
    parser.add_argument("--daemons", type=int, default=2, help="`gmserver run` processes (default 2)")
    parser.add_argument("--database", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=1200,
                        help="give up waiting for the games to advance after this (default 1200)")
    parser.add_argument("--dir", help="keep the files here (default: a temporary directory, removed)")
    parser.add_argument("--json", help="also write the figures and checks to this JSON file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gmtwo") as tmp:
        work = Path(args.dir) if args.dir else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        with common.Database(args.database, work, keep=bool(args.dir), prefix="gmtwo") as database:
            return run(args, work, database)


def run(args: argparse.Namespace, work: Path, database: common.Database) -> int:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from gmserver.db.models import Game, OutboxMessage, PhaseRecord, Player

    report = common.Report(f"{args.daemons} daemons on one {args.database} database, "
                           f"{args.games} games due at once, seed {args.seed}")
    daemons = []
    for n in range(args.daemons):
        port = common.free_port()
        config = common.write_config(work / f"gm{n}.toml", url=database.url, port=port, maildir=work / f"maildir{n}")
        daemons.append(common.Daemon(config, port, work / f"daemon{n}.log"))
    common.gmserver_ok(daemons[0].config, "db", "upgrade")
    report.figure("games created in bulk, s", f"{create_games(database.url, args.games, args.seed):.1f}")
    reader = database.reader()

    started = time.monotonic()
    for daemon in daemons:  # all started before any is waited for: they come up together
        daemon.launch()
    advanced_at = delivered_at = None
    while time.monotonic() - started < args.max_seconds:
        with Session(reader) as session:
            waiting = session.scalar(select(func.count()).where(Game.phase == "S1901M"))
            unsent = session.scalar(select(func.count()).select_from(OutboxMessage)
                                    .where(OutboxMessage.status != "sent"))
        if waiting == 0 and advanced_at is None:
            advanced_at = time.monotonic() - started
        if advanced_at is not None and unsent == 0:
            delivered_at = time.monotonic() - started
            break
        if not all(d.alive() for d in daemons):
            break
        time.sleep(0.25)
    statuses = [daemon.stop() for daemon in daemons]
    report.check("every daemon ran until stopped and stopped cleanly", all(s == 0 for s in statuses),
                 f"exit statuses {statuses}")
    report.check(f"every game advanced within {args.max_seconds:.0f} s", advanced_at is not None)
    report.check("every report delivered", delivered_at is not None)
    if advanced_at is not None:
        report.figure("seconds until every game was adjudicated (from starting the daemons)", f"{advanced_at:.1f}")
        report.figure("games/s", f"{args.games / advanced_at:.1f}")
    if delivered_at is not None:
        report.figure("seconds until every report was delivered", f"{delivered_at:.1f}")

    with Session(reader) as session:
        phases = session.execute(select(PhaseRecord.game_id, PhaseRecord.phase, PhaseRecord.adjudicated_at)).all()
        outbox_rows = session.execute(select(OutboxMessage.kind, OutboxMessage.recipient, OutboxMessage.message_id,
                                             OutboxMessage.game_id, OutboxMessage.status)).all()
        player_rows = session.execute(select(Player.game_id, Player.address)).all()
    reader.dispose()
    per_game = Counter(game_id for game_id, _, _ in phases)
    twice = [key for key, n in Counter((g, p) for g, p, _ in phases).items() if n > 1]
    adjudicated = Counter(game_id for game_id, phase, at in phases if phase == "S1901M" and at is not None)
    report.figure("phases adjudicated", sum(adjudicated.values()))
    report.check("no phase adjudicated twice", not twice, common.sample(twice))
    report.check("each game adjudicated exactly once",
                 len(adjudicated) == args.games and set(adjudicated.values()) == {1}
                 and set(per_game.values()) == {2},
                 f"{len(adjudicated)} of {args.games} games; phase records per game {dict(Counter(per_game.values()))}")
    reports = Counter((game_id, recipient) for kind, recipient, _, game_id, _ in outbox_rows if kind == "report")
    wrong = [key for key in player_rows if reports[tuple(key)] != 1]
    report.check("one report queued per player per game", not wrong and len(reports) == len(player_rows),
                 f"{len(wrong)} players without exactly one: {common.sample(wrong)}")
    delivered = common.maildir_messages(*[work / f"maildir{n}" for n in range(args.daemons)])
    by_maildir = Counter(Path(d.file).parent.parent.name for d in delivered)
    doubles = common.doubled([d.message_id for d in delivered])
    per_recipient = Counter(d.recipient for d in delivered)
    queued = {mid for kind, _, mid, _, _ in outbox_rows if kind == "report"}
    missing = queued - {d.message_id for d in delivered}
    report.figure("reports delivered", len(delivered))
    report.figure("reports per Maildir", dict(sorted(by_maildir.items())))
    work_split = {f"daemon{n}": daemon.log.read_text(errors="replace").count(": adjudicated S1901M")
                  for n, daemon in enumerate(daemons)}
    report.figure("adjudications logged per daemon", work_split)
    report.check("every queued report in a Maildir", not missing, f"{len(missing)} missing")
    report.check("no report delivered twice (same Message-ID, across the Maildirs)", not doubles,
                 f"{len(doubles)} doubled")
    report.check("each player got exactly one report", set(per_recipient.values()) <= {1}
                 and len(per_recipient) == len(player_rows),
                 f"{sum(1 for n in per_recipient.values() if n > 1)} players got more than one; "
                 f"{len(player_rows) - len(per_recipient)} got none")
    report.figure("peak RSS of the daemons, MB", f"{common.peak_rss_mb(children=True):.0f}")
    if args.dir:
        print(f"files kept in {work}")
    return report.print(args.json)


if __name__ == "__main__":
    sys.exit(main())
