"""End-to-end figures for the whole loop (a script that prints figures; not a test).

- ingestion: order messages per second from the IMAP mailbox (a real Dovecot on loopback) to a
  stored order set and a queued confirmation: fetch, store, read, confirm, mark \\Seen;
- per deadline: load, adjudicate, render and queue seven reports, next to the engine's own
  `process()` time for the same phase.

    .venv/bin/python benchmarks/bench_loop.py [--games 30] [--database sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from gmserver import engine  # noqa: E402
from gmserver.config import Config, ImapConfig  # noqa: E402
from gmserver.daemon import imap_settings  # noqa: E402
from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.db.models import Game, PhaseRecord  # noqa: E402
from gmserver.db.session import transaction  # noqa: E402
from gmserver.mail.imap import ImapMailbox  # noqa: E402
from gmserver.rules.ruleset import Ruleset  # noqa: E402
from gmserver.rules.subject import format_subject  # noqa: E402
from gmserver.services.game.games import POWERS  # noqa: E402
from gmserver.services.game.ordersets import orders_on_file  # noqa: E402
from gmserver.services.inbox.polling import poll_once  # noqa: E402
from gmserver.services.turn import turns  # noqa: E402
from tests.support.databases import scratch_database  # noqa: E402
from tests.support.dovecot import Dovecot  # noqa: E402
from tests.support.world import new_game, order_mail, services_for  # noqa: E402

OPENINGS = {
    "AUSTRIA": "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon -> NTH\nF Edi-NWG\nA Lvp-Yor",
    "FRANCE": "A Par-Bur\nA Mar-Spa\nF Bre-MAO",
    "GERMANY": "A Mun-Ruh\nA Ber-Kie\nF Kie-Den",
    "ITALY": "A Ven H\nA Rom-Apu\nF Nap-ION",
    "RUSSIA": "A War-Gal\nA Mos-Ukr\nF Sev-Bla\nF StP/SC-Bot",
    "TURKEY": "F Ank-Bla\nA Con-Bul\nA Smy-Arm",
}


def database(kind: str, tmp: Path) -> tuple[str, Callable[[], None]]:
    return scratch_database(kind, tmp, "gmbench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games, seven order mails each (default 30)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp, Dovecot() as dovecot:
        url, drop = database(args.database, Path(tmp))
        try:
            upgrade(url)
            gm = "gm@bench.test"
            dovecot.add_user(gm, "secret")
            services = services_for(url, gm_address=gm)
            now = datetime.now(UTC)
            names = [f"bench{n}" for n in range(args.games)]
            ids = [new_game(services, now, name=name) for name in names]
            engine.map_info()  # warm: the first call imports the engine (about 0.3 s)
            for name in names:
                for power, body in OPENINGS.items():
                    subject = format_subject(template="standard", game_name=name, power=power, phase="S1901M",
                                             purpose="orders")
                    dovecot.append(gm, order_mail(f"{power.lower()}@players.test", subject, body))
            messages = len(names) * len(POWERS)
            config = Config(imap=ImapConfig(host=dovecot.host, port=dovecot.imap_port, tls="none", user=gm,
                                            password="secret"))
            started = time.perf_counter()
            with ImapMailbox(imap_settings(config)) as mailbox:
                report = poll_once(services, mailbox, lambda: now)
            elapsed = time.perf_counter() - started
            assert report.processed == messages, report
            print(f"database: {args.database}; {messages} order messages in {len(names)} games")
            print(f"ingestion: {messages / elapsed:,.0f} messages/s "
                  f"({elapsed * 1000 / messages:.1f} ms per message: IMAP fetch, store, read, confirm, \\Seen)")

            deadline_times, process_times = [], []
            later = now + timedelta(days=3)
            for game_id in ids:
                with transaction(services.sessions) as session:
                    record = session.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game_id))
                    game = session.get(Game, game_id)
                    on_file = orders_on_file(session, game_id, record.phase,
                                             Ruleset.from_snapshot(game.ruleset)).orders
                    orders = {power: [str(o) for o in power_orders] for power, power_orders in on_file.items()}
                    state = record.state
                process_times.append(engine.process_seconds(state, orders))
                started = time.perf_counter()
                done = turns.adjudicate(services, game_id, later)
                deadline_times.append(time.perf_counter() - started)
                assert done is not None and done.reports == 7
            print(f"per deadline (load, adjudicate, render, queue 7 reports): median "
                  f"{statistics.median(deadline_times) * 1000:.1f} ms, max {max(deadline_times) * 1000:.1f} ms")
            print(f"engine process() alone, same phases: median {statistics.median(process_times) * 1000:.2f} ms")
        finally:
            drop()


if __name__ == "__main__":
    main()
