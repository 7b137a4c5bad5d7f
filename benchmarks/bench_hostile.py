"""What hostile mail costs to process, before and after the bounds of gmserver.rules.limits
(a script that prints figures; not a test). Issue 6, hole 1.

Each figure comes from a fresh child process: the wall time of the step and how far it raised
the process's peak resident memory (ru_maxrss after the step minus ru_maxrss once everything is
imported and the database is ready).

- before: what intake did first until issue 6: parse the message with policy.default and read its
  envelope (the Subject of the bomb is where the memory goes);
- after: the whole intake of one stored message today (intake.process_one on SQLite: the bounds,
  the header glance, the refusal queued);
- a real order mail through the same path, for scale.
- DKIM look-ups for domains that never answer (`RESULT dkim_...`, SQLite and PostgreSQL): a forged
  mail with 4 such signatures, and how long another player's proven order mail waited behind it.

    .venv/bin/python benchmarks/bench_hostile.py [--skip-before] [--only-dkim]
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


DKIM_CHILD = r"""
import json, os, sys, tempfile, time
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
with transaction(services.sessions) as session:
    secret = session.scalar(select(Player.secret).where(Player.power == "GERMANY"))
proven = order_mail("germany@players.test", subject("GERMANY"), "A BER - KIE\n", date=now, to=f"gm+{secret}@gm.test")
first = intake.store(services.sessions, forged, source="smtp", now=now).id
second = intake.store(services.sessions, proven, source="smtp", now=now).id
start = time.perf_counter()
outcomes = {}
for row_id in (first, second):
    outcomes[row_id] = intake.process_one(services, row_id, now)
    if row_id == first:
        forged_seconds = time.perf_counter() - start
waited = time.perf_counter() - start
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-before", action="store_true",
                        help="skip the old parse (the 280 KB bomb takes about 2.7 GB and 6 s)")
    parser.add_argument("--only-dkim", action="store_true", help="only the mail signed by domains that never answer")
    args = parser.parse_args()
    if args.only_dkim:
        print_dkim_dead_lookups()
        return
    print(f"{'message':<12} {'bytes':>8} {'step':<34} {'seconds':>8} {'peak MB':>8}  outcome")
    for case in ("bomb-140KB", "bomb-280KB", "nested-1000", "order-mail"):
        kinds = ["after"] if args.skip_before or case == "order-mail" else ["before", "after"]
        for kind in kinds:
            step = ("policy.default parse (before)" if kind == "before" else "intake.process_one (after)")
            figures = measure(kind, case)
            print(f"{case:<12} {figures['bytes']:>8} {step:<34} {figures['seconds']:>8.3f} {figures['mb']:>8.1f}  "
                  f"{figures['outcome']}")
    print_dkim_dead_lookups()


def print_dkim_dead_lookups() -> None:
    for backend in ("sqlite", "postgresql"):
        figures = dkim_dead_lookups(backend)
        print(f"RESULT dkim_dead_lookups_s={figures['forged']:.2f} dkim_proven_waited_s={figures['waited']:.2f} "
              f"dkim_dead_again_s={'/'.join(f'{t:.2f}' for t in figures['again'])} backend={backend} "
              f"outcomes={','.join(map(str, figures['outcomes']))}")


if __name__ == "__main__":
    main()
