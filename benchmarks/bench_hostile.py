"""What hostile mail costs to process, before and after the bounds of gmserver.rules.limits
(a script that prints figures; not a test).

Each figure comes from a fresh child process: the wall time of the step and how far it raised
the process's peak resident memory (ru_maxrss after the step minus ru_maxrss once everything is
imported and the database is ready).

- before: what intake did first first: parse the message with policy.default and read its
  envelope (the Subject of the bomb is where the memory goes);
- after: the whole intake of one stored message today (intake.process_one on SQLite: the bounds,
  the header glance, the refusal queued);
- a real order mail through the same path, for scale.

HTML bombs (a stranger's HTML-only mail of "<a<a<a..." or of "<" never closed, 100 KB, 1 MB and
10 MB; html.parser once took 42 s at 100 KB and 213 s at 200 KB, holding SQLite's write lock
throughout), on SQLite and PostgreSQL: the bomb waits in the queue, the daemon's intake job
(intake.process_pending) starts on it, and meanwhile France's order mail, proven by its reply
address, arrives (intake.store from another thread, as the listener stores). Printed: the CPU
and wall seconds the bomb took to read and refuse, how long storing France's mail took, how long
France's mail waited from its arrival until it was answered, and how long the intake job ran
before a deadline job (which runs it first: daemon._on_deadline) could start adjudicating.
Goals: each bomb under 1 s of CPU, France's mail answered within 2 s.

DKIM look-ups for domains that never answer (`dkim_...`, SQLite and PostgreSQL): a forged mail
with 4 such signatures, and how long another player's proven order mail waited behind it.

The last line is `RESULT key=value ...` (the worst case of each figure over every run).

    .venv/bin/python benchmarks/bench_hostile.py [--skip-before] [--only-dkim] [--database sqlite postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("HOME", "/tmp")  # the diplomacy engine refuses to import without one

from tests.support.databases import PostgresSessionDatabase  # noqa: E402
from tests.support.hostile import HTML_BOMB_SHAPES  # noqa: E402

PG_ADMIN = os.environ.get("GMSERVER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")

CHILD = r"""
import email, email.policy, json, resource, sys, time
from datetime import datetime, timezone
from gmserver.db.migrate import upgrade
from gmserver.services.inbox import runner as intake
from tests.support.hostile import encoded_word_bomb, nested_multipart
from tests.support.world import new_game, order_mail, services_for

kind, case, path = sys.argv[1], sys.argv[2], sys.argv[3]
raw = {
    "bomb-140KB": lambda: encoded_word_bomb(140_000),
    "bomb-280KB": lambda: encoded_word_bomb(280_000),
    "nested-1000": lambda: nested_multipart(1000),
    "order-mail": lambda: order_mail("france@players.test", "lepanto France S1901M", "A PAR - BUR\nF BRE - MAO\n"),
}[case]()
now = datetime(2026, 11, 22, 12, tzinfo=timezone.utc)
url = f"sqlite:///{path}"
upgrade(url)
services = services_for(url)
new_game(services, now)
stored = intake.store(services.sessions, raw, source="smtp", now=now).id
email.message_from_bytes(b"From: a@b.test\r\nSubject: warm-up\r\n\r\nx\r\n", policy=email.policy.default)["Subject"]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    if kind == "before":
        message = email.message_from_bytes(raw, policy=email.policy.default)
        for name in ("From", "Subject", "Message-ID", "Date", "Auto-Submitted"):
            str(message.get(name))
        outcome = "parsed"
    else:
        outcome = intake.process_one(services, stored, now)
except BaseException as error:
    outcome = type(error).__name__
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes": len(raw), "seconds": seconds, "mb": (peak - base) / 1024, "outcome": outcome}))
"""


def measure(kind: str, case: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        child = subprocess.run([sys.executable, "-c", CHILD, kind, case, str(Path(tmp) / "bench.db")], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": os.environ.get("HOME", "/tmp")},
                               capture_output=True, text=True)
    if child.returncode != 0:
        return {"bytes": 0, "seconds": float("nan"), "mb": float("nan"),
                "outcome": f"died ({child.returncode}): {child.stderr.strip().splitlines()[-1:]}"}
    return json.loads(child.stdout)


HTML_CHILD = r"""
import json, sys, threading, time
from datetime import datetime, timezone
from sqlalchemy import select
from gmserver.db.migrate import upgrade
from gmserver.db.models import Player
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from tests.support.hostile import html_bomb
from tests.support.intake_rows import player_reply_address
from tests.support.world import new_game, order_mail, player_address, services_for

shape, size, url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
now = datetime(2026, 11, 22, 12, tzinfo=timezone.utc)
upgrade(url)
services = services_for(url)
new_game(services, now, sender_check="verified")


def proven(power, body):
    return order_mail(player_address(power), f"lepanto {power.title()} S1901M", body,
                      to=player_reply_address(services, power))


# warm-up (imports, the map, the templates): Germany's orders, not counted
intake.process_one(services, intake.store(services.sessions, proven("GERMANY", "A BER - KIE\n"), source="smtp",
                                          now=now).id, now)
bomb = intake.store(services.sessions, html_bomb(size, shape), source="smtp", now=now).id
cpu, done_at = {}, {}
process_one = intake.process_one


def timed(services, inbound_id, when):
    started = time.thread_time()
    outcome = process_one(services, inbound_id, when)
    cpu[inbound_id], done_at[inbound_id] = time.thread_time() - started, time.perf_counter()
    return outcome


intake.process_one = timed
working = threading.Event()


def job():
    working.set()
    intake.process_pending(services, now)


worker = threading.Thread(target=job)
began = time.perf_counter()
worker.start()
working.wait()
arrived = time.perf_counter()
france = intake.store(services.sessions, proven("FRANCE", "A PAR - BUR\nF BRE - MAO\n"), source="smtp", now=now).id
stored = time.perf_counter()
worker.join()
intake_job = time.perf_counter() - began
if france not in done_at:  # stored after the job's last look: the next job answers it
    intake.process_pending(services, now)
print(json.dumps({"bytes": size, "bomb_cpu_s": cpu[bomb], "bomb_wall_s": done_at[bomb] - began,
                  "store_s": stored - arrived, "other_wait_s": done_at[france] - arrived,
                  "deadline_delay_s": intake_job}))
"""
HTML_SIZES = (100_000, 1_000_000, 10_000_000)


def measure_html(shape: str, size: int, database: str, postgres) -> dict:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        url = postgres.fresh() if database == "postgresql" else f"sqlite:///{Path(tmp) / 'bench.db'}"
        child = subprocess.run([sys.executable, "-c", HTML_CHILD, shape, str(size), url], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": os.environ.get("HOME", "/tmp")},
                               capture_output=True, text=True)
    if child.returncode != 0:
        raise SystemExit(f"{shape} {size} on {database}: died ({child.returncode}): {child.stderr[-2000:]}")
    return json.loads(child.stdout)


def html_bombs(databases: list[str]) -> dict[str, float]:
    """The HTML bomb table; the worst of each figure."""
    worst = {"bomb_max_cpu_s": 0.0, "bomb_max_wall_s": 0.0, "store_max_s": 0.0, "other_wait_max_s": 0.0,
             "deadline_delay_max_s": 0.0}
    postgres = PostgresSessionDatabase(PG_ADMIN) if "postgresql" in databases else None
    print(f"\n{'HTML bomb':<22} {'bytes':>10} {'database':<10} {'bomb CPU s':>10} {'bomb wall s':>11} "
          f"{'store s':>8} {'France waited s':>15} {'intake before deadline s':>24}")
    try:
        for database in databases:
            for shape in HTML_BOMB_SHAPES:
                for size in HTML_SIZES:
                    figures = measure_html(shape, size, database, postgres)
                    print(f"{shape:<22} {size:>10} {database:<10} {figures['bomb_cpu_s']:>10.3f} "
                          f"{figures['bomb_wall_s']:>11.3f} {figures['store_s']:>8.3f} {figures['other_wait_s']:>15.3f} "
                          f"{figures['deadline_delay_s']:>24.3f}")
                    for key, figure in (("bomb_max_cpu_s", "bomb_cpu_s"), ("bomb_max_wall_s", "bomb_wall_s"),
                                        ("store_max_s", "store_s"), ("other_wait_max_s", "other_wait_s"),
                                        ("deadline_delay_max_s", "deadline_delay_s")):
                        worst[key] = max(worst[key], figures[figure])
    finally:
        if postgres is not None:
            postgres.close()
    return worst


DKIM_CHILD = r"""
import json, os, sys, tempfile, threading, time
from datetime import datetime, timezone
from pathlib import Path
import dkim
from sqlalchemy import select, update
from gmserver.db.migrate import upgrade
from gmserver.db.models import InboundMessage, Player
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from gmserver.services.base.context import SenderChecks
from tests.support.databases import PostgresSessionDatabase
from tests.support.intake_rows import player_reply_address
from tests.support.world import new_game, order_mail, services_for

backend = sys.argv[1]
if backend == "sqlite":
    url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
    upgrade(url)
    database = None
else:
    database = PostgresSessionDatabase(os.environ.get("GMSERVER_TEST_PG_URL",
                                                      "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"))
    url = database.fresh()


def dead_dns(name, timeout=5):  # a domain whose servers never answer: the whole timeout, then nothing
    time.sleep(timeout)
    raise dkim.DnsTimeoutError("no answer")


now = datetime(2026, 11, 22, 12, tzinfo=timezone.utc)
services = services_for(url, sender_checks=SenderChecks(dkim_lookup=dead_dns))
new_game(services, now, sender_check="verified")
subject = lambda power: format_subject(template="standard", game_name="lepanto", power=power, phase="S1901M",
                                       purpose="orders")
# signatures of the From domain's own subdomains (only those are looked up) whose DNS never answers
forged = b"".join(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/simple; d=dead%d.players.test; s=sel; "
                  b"h=from:to:subject:date; bh=AAAA; b=AAAA\r\n" % n for n in range(4)) + order_mail(
    "france@players.test", subject("FRANCE"), "F BRE - ENG\n", date=now)
proven = order_mail("germany@players.test", subject("GERMANY"), "A BER - KIE\n", date=now,
                    to=player_reply_address(services, "GERMANY"))
first = intake.store(services.sessions, forged, source="smtp", now=now).id
second = intake.store(services.sessions, proven, source="smtp", now=now).id
# the daemon's intake job (process_pending) takes both, the forged one first; when is each done?
start = time.perf_counter()
job = threading.Thread(target=intake.process_pending, args=(services, now))
job.start()
finished = {}
while len(finished) < 2:
    with transaction(services.sessions) as session:
        for row_id, status, outcome in session.execute(select(InboundMessage.id, InboundMessage.status,
                                                              InboundMessage.outcome)
                                                       .where(InboundMessage.id.in_((first, second)))):
            if status != "pending" and row_id not in finished:
                finished[row_id] = (time.perf_counter() - start, outcome)
    time.sleep(0.01)
job.join()
forged_seconds, waited = finished[first][0], finished[second][0]
outcomes = {row_id: outcome for row_id, (_, outcome) in finished.items()}
again_seconds = []  # the same domains again: those asked before are known dead
for body in (b"F BRE - MAO", b"F BRE - PIC"):
    again = intake.store(services.sessions, forged.replace(b"F BRE - ENG", body), source="smtp", now=now).id
    start = time.perf_counter()
    intake.process_one(services, again, now)
    again_seconds.append(time.perf_counter() - start)
if database is not None:
    database.close()
print(json.dumps({"forged": forged_seconds, "waited": waited, "again": again_seconds,
                  "outcomes": [outcomes[first], outcomes[second]]}))
"""


def dkim_dead_lookups(backend: str) -> dict:
    """One forged mail with 4 DKIM signatures from domains that never answer, then another
    player's order mail proven by their reply address, processed in turn: how long the forged
    one took, how long the proven one waited until it was done, and how long a second and a
    third forged mail from the same domains took."""
    child = subprocess.run([sys.executable, "-c", DKIM_CHILD, backend], cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": os.environ.get("HOME", "/tmp")},
                           capture_output=True, text=True)
    if child.returncode != 0:
        return {"forged": float("nan"), "waited": float("nan"), "again": [float("nan")] * 2,
                "outcomes": [f"died ({child.returncode}): {child.stderr.strip().splitlines()[-1:]}"]}
    return json.loads(child.stdout)


def dkim_figures(databases: list[str]) -> dict[str, str]:
    """A message whose 4 DKIM signatures' key look-ups go unanswered, and the proven mail behind
    it (dkim_dead_lookups), on each database: the worst of each figure, printed per database too."""
    forged, waited, again = [], [], []
    for backend in databases:
        figures = dkim_dead_lookups(backend)
        print(f"dkim {backend:<10} forged mail {figures['forged']:.2f} s, proven mail waited {figures['waited']:.2f} s, "
              f"same domains again {'/'.join(f'{t:.2f}' for t in figures['again'])} s; "
              f"outcomes {', '.join(map(str, figures['outcomes']))}")
        forged.append(figures["forged"])
        waited.append(figures["waited"])
        again.extend(figures["again"])
    return {"dkim_dead_lookups_s": f"{max(forged):.2f}", "dkim_proven_waited_s": f"{max(waited):.2f}",
            "dkim_dead_again_s": f"{max(again):.2f}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-before", action="store_true",
                        help="skip the old parse (the 280 KB bomb takes about 2.7 GB and 6 s)")
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"],
                        help="where the HTML bombs are processed")
    parser.add_argument("--only-dkim", action="store_true", help="only the mail signed by domains that never answer")
    args = parser.parse_args()
    if args.only_dkim:
        result = {**dkim_figures(args.database), "database": ",".join(args.database)}
        print("\nRESULT " + " ".join(f"{key}={value}" for key, value in result.items()))
        return
    print(f"{'message':<12} {'bytes':>8} {'step':<34} {'seconds':>8} {'peak MB':>8}  outcome")
    for case in ("bomb-140KB", "bomb-280KB", "nested-1000", "order-mail"):
        kinds = ["after"] if args.skip_before or case == "order-mail" else ["before", "after"]
        for kind in kinds:
            step = ("policy.default parse (before)" if kind == "before" else "intake.process_one (after)")
            figures = measure(kind, case)
            print(f"{case:<12} {figures['bytes']:>8} {step:<34} {figures['seconds']:>8.3f} {figures['mb']:>8.1f}  "
                  f"{figures['outcome']}")
    worst = html_bombs(args.database)
    result = {**{key: f"{value:.3f}" for key, value in worst.items()}, **dkim_figures(args.database),
              "database": ",".join(args.database)}
    print("\nRESULT " + " ".join(f"{key}={value}" for key, value in result.items()))


if __name__ == "__main__":
    main()
