"""End-to-end figures for the whole loop (a script that prints figures; not a test).

- ingestion: order messages per second from the IMAP mailbox (a real Dovecot on loopback) to a
  stored order set and a queued confirmation: fetch, store, read, confirm, mark \\Seen; with the
  CPU a message of each program it keeps busy (gmserver, PostgreSQL's processes, Dovecot's) and
  the most messages a second the host's CPUs could take at that cost (`host_cpu_ms_per_mail`);
- per deadline: load, adjudicate, render and queue seven reports, next to the engine's own
  `process()` time for the same phase;
- a burst (`--burst 200`): a daemon (`gmserver run`'s, in this process) takes that many order
  mails sent back to back over one SMTP connection to its listener; for each, the time from its
  250 (stored) to its confirmation reaching the relay (a transport that notes the time), p50 and
  p99.

    .venv/bin/python benchmarks/bench_loop.py [--games 30] [--database sqlite postgresql] [--burst 200]

The last line of each database: `RESULT ingest_per_s=... host_cpu_ms_per_mail=... burst_p50_s=... burst_p99_s=... load=... database=...`.
"""

from __future__ import annotations

import argparse
import os
import re
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import event, select  # noqa: E402

from gmserver import collector, engine  # noqa: E402
from gmserver.config import Config, ImapConfig, ListenerConfig  # noqa: E402
from gmserver.daemon import Daemon, imap_settings  # noqa: E402
from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.db.models import Game, PhaseRecord  # noqa: E402
from gmserver.db.session import make_engine, make_session_factory, transaction  # noqa: E402
from gmserver.mail.imap import ImapMailbox  # noqa: E402
from gmserver.rules.ruleset import Ruleset  # noqa: E402
from gmserver.rules.subject import format_subject  # noqa: E402
from gmserver.services.base import outbox  # noqa: E402
from gmserver.services.game.games import POWERS  # noqa: E402
from gmserver.services.game.ordersets import orders_on_file  # noqa: E402
from gmserver.services.inbox import runner as intake  # noqa: E402
from gmserver.services.inbox.polling import poll_once  # noqa: E402
from gmserver.services.turn import turns  # noqa: E402
from tests.support.databases import scratch_database  # noqa: E402
from tests.support.dovecot import Dovecot, free_port  # noqa: E402
from tests.support.world import GM, OPENINGS, new_game, order_mail, player_address, services_for  # noqa: E402


def database(kind: str, tmp: Path) -> tuple[str, Callable[[], None]]:
    return scratch_database(kind, tmp, "gmbench")


# the field a confirmation names the mail it answers by (one line: the burst's Message-IDs are short)
IN_REPLY_TO = re.compile(rb"^In-Reply-To:[ \t]*(<[^>\r\n]*>)", re.MULTILINE | re.IGNORECASE)


class ConfirmationClock:
    """An outbound transport that notes when each reply reaches it, by the message it answers.
    It finds the field in the header block's bytes: parsing the mail with the email package (a
    multipart's boundary compiled each time) cost about 1 ms a mail of the sender's thread: the
    benchmark's cost, not the daemon's."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.changed = threading.Condition()

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        found = IN_REPLY_TO.search(raw, 0, raw.find(b"\r\n\r\n"))
        answered = found.group(1).decode("ascii") if found else ""
        with self.changed:
            self.arrived.setdefault(answered, time.perf_counter())
            self.changed.notify_all()
        return "250 ok"

    def close(self) -> None:
        pass

    def wait_for(self, message_ids: list[str], timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: all(m in self.arrived for m in message_ids), timeout=timeout)


def burst(kind: str, count: int, *, gc_policy: bool) -> tuple[float, float]:
    """`count` order mails sent back to back to a daemon's listener; p50 and p99 seconds from each
    one's 250 to its confirmation handed to the relay. `gc_policy`: the daemon settled as `gmserver
    run` settles it (Daemon.settle: the board drawn, the collector set)."""
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
            if gc_policy:  # as `gmserver run` once its daemon has started
                daemon.settle()
            try:
                stored: dict[str, float] = {}
                started, threads_before = time.perf_counter(), thread_cpu()
                with smtplib.SMTP("127.0.0.1", config.listener.port, timeout=60) as client:
                    for sender, message_id, raw in mails:
                        client.sendmail(sender, [GM], raw)
                        stored[message_id] = time.perf_counter()
                assert clock.wait_for(list(stored), timeout=300), \
                    f"{len(set(stored) & set(clock.arrived))} of {count} confirmations"
                threads = {name: cpu - threads_before.get(name, 0.0) for name, cpu in thread_cpu().items()}
            finally:
                daemon.stop()
            waits = sorted(clock.arrived[m] - stored[m] for m in stored)
            print(f"burst: the last 250 {max(stored.values()) - started:.2f} s after the first mail was sent, the "
                  f"last confirmation at {max(clock.arrived[m] for m in stored) - started:.2f} s")
            print_thread_cpu(threads, count)
            return statistics.median(waits), waits[min(len(waits) - 1, round(0.99 * len(waits)) - 1)]
        finally:
            drop()


# The daemon's threads by the names their libraries give them
THREAD_ROLES = (("MainThread", "the benchmark's SMTP client (not the daemon)"),
                ("asyncio_", "the listener's store (its event loop's executor threads)"),
                ("ThreadPoolExecutor-", "the scheduler's jobs (intake, the outbox sender)"),
                ("Thread-", "the listener's event loop (aiosmtpd)"))


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each live thread of this process, by name (Linux's /proc; empty elsewhere)."""
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[str, float] = {}
    tasks = Path("/proc/self/task")
    for task in tasks.iterdir() if tasks.is_dir() else ():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended meanwhile
        name = names.get(int(task.name), f"thread {task.name}")
        found[name] = found.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return found


# the host's other programs an ingest pass keeps busy, by the names their processes have (comm)
SERVERS = {"PostgreSQL": ("postgres",), "Dovecot": ("dovecot", "imap", "imap-login", "auth", "anvil", "log",
                                                    "config", "stats")}


def servers_cpu() -> dict[str, float]:
    """CPU seconds each server in SERVERS has used: its processes' own and their ended children's
    (Linux's /proc: a backend or an imap process that ended is counted in the parent that reaped
    it); empty elsewhere."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = dict.fromkeys(SERVERS, 0.0)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, fields = stat.read_text().rsplit(")", 1)
        except OSError:
            continue  # the process ended meanwhile
        comm, numbers = name.split("(", 1)[1], fields.split()
        for server, names in SERVERS.items():
            if comm in names or comm.startswith(names):
                found[server] += sum(int(number) for number in numbers[11:15]) / ticks
    return found


def print_thread_cpu(threads: dict[str, float], count: int) -> None:
    """The burst's CPU by role, from `thread_cpu` differences."""
    roles: dict[str, float] = {}
    for name, cpu in threads.items():
        role = next((role for prefix, role in THREAD_ROLES if name.startswith(prefix)), "the daemon's other threads")
        roles[role] = roles.get(role, 0.0) + cpu
    daemon = sum(cpu for role, cpu in roles.items() if role != THREAD_ROLES[0][1])
    print(f"the daemon's CPU over the burst: {daemon:.2f} s, {daemon * 1000 / count:.1f} ms a mail")
    for role, cpu in sorted(roles.items(), key=lambda item: -item[1]):
        print(f"  {role}: {cpu:.2f} s, {cpu * 1000 / count:.1f} ms a mail")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games, seven order mails each (default 30)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], nargs="+", default=["sqlite"],
                        help="one or both, measured one after the other (default sqlite)")
    parser.add_argument("--burst", type=int, default=0, metavar="N",
                        help="also send N order mails back to back to a daemon and time their confirmations")
    parser.add_argument("--parts", type=int, default=0, metavar="N",
                        help="also the CPU of storing a mail and of the outbox's bookkeeping a sent mail, N mails")
    parser.add_argument("--no-ingest", action="store_true", help="leave out the IMAP ingestion and deadline figures")
    parser.add_argument("--gc-default", action="store_true",
                        help="leave CPython's garbage collector as it is, not as `gmserver run` sets it "
                             "(gmserver/collector.py)")
    args = parser.parse_args()
    if not args.gc_default:  # as `gmserver run` does once started (the burst's daemon: again, after its start)
        collector.settle_after_start()
    for kind in args.database:
        figures = []
        if not args.no_ingest:
            per_second, host_ms = loop(args.games, kind)
            figures += [f"ingest_per_s={per_second:.0f}", f"host_cpu_ms_per_mail={host_ms:.1f}"]
        if args.burst:
            p50, p99 = burst(kind, args.burst, gc_policy=not args.gc_default)
            print(f"burst of {args.burst} order mails to a daemon's listener: confirmation p50 {p50:.2f} s, "
                  f"p99 {p99:.2f} s after each mail was stored (load average {os.getloadavg()[0]:.1f})")
            figures += [f"burst_p50_s={p50:.2f}", f"burst_p99_s={p99:.2f}"]
        if args.parts:
            store_ms, send_ms = parts(kind, args.parts)
            figures += [f"store_ms={store_ms:.2f}", f"send_bookkeeping_ms={send_ms:.2f}"]
        print(f"RESULT {' '.join(figures)} load={os.getloadavg()[0]:.1f} database={kind}", flush=True)


class TakesTheBytes:
    """An outbound transport that only takes the message."""

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        return "250 ok"

    def close(self) -> None:
        pass


def parts(kind: str, count: int) -> tuple[float, float]:
    """CPU ms of storing one order mail as the listener does, and of the outbox's bookkeeping for one
    sent mail (claim, renewal, sent mark: rows with no map, to a transport that takes the bytes);
    the lower of three rounds each, with the SQL statements a mail of the last."""
    with tempfile.TemporaryDirectory() as tmp:
        url, drop = database(kind, Path(tmp))
        try:
            upgrade(url)
            sessions = make_session_factory(make_engine(url))
            statements: Counter[str] = Counter()
            event.listen(sessions.kw["bind"], "before_cursor_execute",
                         lambda _c, _k, statement, *_: statements.update([statement.split()[0].upper()]))
            store_ms, send_ms = [], []
            for round_ in range(3):
                mails = [order_mail(player_address("FRANCE"), f"lepanto France S1901M {n}", OPENINGS["FRANCE"],
                                    message_id=f"<parts{round_}.{n}@players.test>") for n in range(count)]
                statements.clear()
                cpu = time.process_time()
                for raw in mails:
                    intake.store(sessions, raw, source="smtp", now=datetime.now(UTC),
                                 envelope_from=player_address("FRANCE"), envelope_to=(GM,))
                store_ms.append((time.process_time() - cpu) * 1000 / count)
                stored_statements = per_mail(statements, count)
                now = datetime.now(UTC)
                with transaction(sessions) as session:
                    for n in range(count):
                        outbox.queue(session, plain_reply(f"<parts-reply{round_}.{n}@gm.test>"), kind="confirmation",
                                     dedupe_key=f"parts:{round_}:{n}", now=now)
                statements.clear()
                cpu, sent = time.process_time(), 0
                while (report := outbox.deliver_due(sessions, TakesTheBytes(), now)).attempted:
                    sent += report.sent
                send_ms.append((time.process_time() - cpu) * 1000 / count)
                assert sent == count, f"{sent} of {count} sent"
            print(f"storing a mail (intake.store): {min(store_ms):.2f} ms of CPU; statements a mail: {stored_statements}")
            print(f"the outbox's bookkeeping a sent mail: {min(send_ms):.2f} ms of CPU; statements a mail: "
                  f"{per_mail(statements, count)} (besides COMMIT)")
            return min(store_ms), min(send_ms)
        finally:
            drop()


def per_mail(statements: Counter[str], count: int) -> str:
    return ", ".join(f"{verb} {number / count:.2f}" for verb, number in sorted(statements.items()))


def plain_reply(message_id: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = GM, player_address("FRANCE"), "Re: lepanto France S1901M"
    message["Message-ID"], message["Date"] = message_id, "Sat, 28 Nov 2026 01:00:00 +0000"
    message["Auto-Submitted"] = "auto-replied"
    message.set_content("Orders received for France:\n" + OPENINGS["FRANCE"] + "\n")
    return message


def loop(games: int, kind: str) -> tuple[float, float]:
    """The ingestion and per-deadline figures on database `kind`; returns the order mails ingested a
    second and the CPU ms a mail of every program the ingestion kept busy."""

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
            servers_before = servers_cpu()
            started, cpu = time.perf_counter(), time.process_time()
            with ImapMailbox(imap_settings(config)) as mailbox:
                report = poll_once(services, mailbox, lambda: now)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            servers = {name: used - servers_before[name] for name, used in servers_cpu().items()}
            assert report.processed == messages, report
            print(f"database: {kind}; {messages} order messages in {len(names)} games")
            print(f"ingestion: {messages / elapsed:,.0f} messages/s "
                  f"({elapsed * 1000 / messages:.1f} ms per message: IMAP fetch, store, read, confirm, \\Seen; "
                  f"this process's CPU {cpu * 1000 / messages:.1f} ms a message, load average "
                  f"{os.getloadavg()[0]:.1f})")
            host = cpu + sum(servers.values())
            print("  the CPU a message, by program: gmserver " + ", ".join(
                [f"{cpu * 1000 / messages:.1f} ms"] + [f"{name} {used * 1000 / messages:.1f} ms"
                                                       for name, used in servers.items()])
                  + f"; in all {host * 1000 / messages:.1f} ms: {os.cpu_count()} CPUs could take at most "
                    f"{os.cpu_count() * messages / host:,.0f} a second")

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
            return messages / elapsed, host * 1000 / messages
        finally:
            drop()


if __name__ == "__main__":
    main()
