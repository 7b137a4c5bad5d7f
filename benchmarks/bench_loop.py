"""End-to-end figures for the whole loop (a script that prints figures; not a test).

- ingestion: order messages per second from the IMAP mailbox (a real Dovecot on loopback) to a
  stored order set and a queued confirmation: fetch, store, read, confirm, mark \\Seen;
- per deadline: load, adjudicate, render and queue seven reports, next to the engine's own
  `process()` time for the same phase;
- a burst (`--burst 200`): a daemon (`gmserver run`'s, in this process) takes that many order
  mails sent back to back over one SMTP connection to its listener; for each, the time from its
  250 (stored) to its confirmation reaching the relay (a transport that notes the time), p50 and
  p99.

    .venv/bin/python benchmarks/bench_loop.py [--games 30] [--database sqlite postgresql] [--burst 200]

The last line of each database: `RESULT ingest_per_s=... burst_p50_s=... burst_p99_s=... load=... database=...`.
"""

from __future__ import annotations

import argparse
import email
import os
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from gmserver import engine  # noqa: E402
from gmserver.config import Config, ImapConfig, ListenerConfig  # noqa: E402
from gmserver.daemon import Daemon, imap_settings  # noqa: E402
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
from tests.support.dovecot import Dovecot, free_port  # noqa: E402
from tests.support.world import GM, OPENINGS, new_game, order_mail, player_address, services_for  # noqa: E402


def database(kind: str, tmp: Path) -> tuple[str, Callable[[], None]]:
    return scratch_database(kind, tmp, "gmbench")


class ConfirmationClock:
    """An outbound transport that notes when each reply reaches it, by the message it answers."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.changed = threading.Condition()

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        answered = email.message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n").get("In-Reply-To", "")
        with self.changed:
            self.arrived.setdefault(answered.strip(), time.perf_counter())
            self.changed.notify_all()
        return "250 ok"

    def close(self) -> None:
        pass

    def wait_for(self, message_ids: list[str], timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: all(m in self.arrived for m in message_ids), timeout=timeout)


def burst(kind: str, count: int) -> tuple[float, float]:
    """`count` order mails sent back to back to a daemon's listener; p50 and p99 seconds from each
    one's 250 to its confirmation handed to the relay."""
    with tempfile.TemporaryDirectory() as tmp:
        url, drop = database(kind, Path(tmp))
        try:
            upgrade(url)
            services = services_for(url)
            now = datetime.now(UTC)
            games = [f"burst{n}" for n in range((count + len(POWERS) - 1) // len(POWERS))]
            for name in games:
                new_game(services, now, name=name)
            engine.map_info()
            mails = []
            for number in range(count):
                name, power = games[number // len(POWERS)], POWERS[number % len(POWERS)]
                message_id = f"<burst{number}@players.test>"
                subject = format_subject(template="standard", game_name=name, power=power, phase="S1901M",
                                         purpose="orders")
                mails.append((player_address(power), message_id,
                              order_mail(player_address(power), subject, OPENINGS[power], message_id=message_id)))
            clock = ConfirmationClock()
            config = Config(database_url=url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                            sweep_interval_seconds=3600, outbox_interval_seconds=3600)
            daemon = Daemon(config, services=services, transport=clock)
            daemon.start()
            try:
                stored: dict[str, float] = {}
                with smtplib.SMTP("127.0.0.1", config.listener.port, timeout=60) as client:
                    for sender, message_id, raw in mails:
                        client.sendmail(sender, [GM], raw)
                        stored[message_id] = time.perf_counter()
                assert clock.wait_for(list(stored), timeout=300), \
                    f"{len(set(stored) & set(clock.arrived))} of {count} confirmations"
            finally:
                daemon.stop()
            waits = sorted(clock.arrived[m] - stored[m] for m in stored)
            return statistics.median(waits), waits[min(len(waits) - 1, round(0.99 * len(waits)) - 1)]
        finally:
            drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games, seven order mails each (default 30)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], nargs="+", default=["sqlite"],
                        help="one or both, measured one after the other (default sqlite)")
    parser.add_argument("--burst", type=int, default=0, metavar="N",
                        help="also send N order mails back to back to a daemon and time their confirmations")
    args = parser.parse_args()
    for kind in args.database:
        ingest = loop(args.games, kind)
        figures = f"ingest_per_s={ingest:.0f}"
        if args.burst:
            p50, p99 = burst(kind, args.burst)
            print(f"burst of {args.burst} order mails to a daemon's listener: confirmation p50 {p50:.2f} s, "
                  f"p99 {p99:.2f} s after each mail was stored (load average {os.getloadavg()[0]:.1f})")
            figures += f" burst_p50_s={p50:.2f} burst_p99_s={p99:.2f}"
        print(f"RESULT {figures} load={os.getloadavg()[0]:.1f} database={kind}", flush=True)


def loop(games: int, kind: str) -> float:
    """The ingestion and per-deadline figures on database `kind`; returns the order mails ingested a second."""

    with tempfile.TemporaryDirectory() as tmp, Dovecot() as dovecot:
        url, drop = database(kind, Path(tmp))
        try:
            upgrade(url)
            gm = "gm@bench.test"
            dovecot.add_user(gm, "secret")
            services = services_for(url, gm_address=gm)
            now = datetime.now(UTC)
            names = [f"bench{n}" for n in range(games)]
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
            started, cpu = time.perf_counter(), time.process_time()
            with ImapMailbox(imap_settings(config)) as mailbox:
                report = poll_once(services, mailbox, lambda: now)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            assert report.processed == messages, report
            print(f"database: {kind}; {messages} order messages in {len(names)} games")
            print(f"ingestion: {messages / elapsed:,.0f} messages/s "
                  f"({elapsed * 1000 / messages:.1f} ms per message: IMAP fetch, store, read, confirm, \\Seen; "
                  f"this process's CPU {cpu * 1000 / messages:.1f} ms a message, load average "
                  f"{os.getloadavg()[0]:.1f})")

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
            return messages / elapsed
        finally:
            drop()


if __name__ == "__main__":
    main()
