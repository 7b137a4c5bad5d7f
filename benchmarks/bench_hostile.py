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

    .venv/bin/python benchmarks/bench_hostile.py [--skip-before]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-before", action="store_true",
                        help="skip the old parse (the 280 KB bomb takes about 2.7 GB and 6 s)")
    args = parser.parse_args()
    print(f"{'message':<12} {'bytes':>8} {'step':<34} {'seconds':>8} {'peak MB':>8}  outcome")
    for case in ("bomb-140KB", "bomb-280KB", "nested-1000", "order-mail"):
        kinds = ["after"] if args.skip_before or case == "order-mail" else ["before", "after"]
        for kind in kinds:
            step = ("policy.default parse (before)" if kind == "before" else "intake.process_one (after)")
            figures = measure(kind, case)
            print(f"{case:<12} {figures['bytes']:>8} {step:<34} {figures['seconds']:>8.3f} {figures['mb']:>8.1f}  "
                  f"{figures['outcome']}")


if __name__ == "__main__":
    main()
