"""Confirmation length: how many lines a player reads in the answer to a set of 3 or 4 orders.

Every whole message of tests/data/clients/ (and of its classes/) whose hand-written expectation
files 3 or 4 orders is read as intake reads it (`read_mail`, the standard profile, the opening
position of the tests' game), confirmed as `services.base.mails.confirmation` builds the answer,
and rendered from templates/player/confirmation.txt.j2. A clean set is one whose every order line
was read as written (no line corrected or refused): the goal is at most 15 lines for it.
Printed per message: its lines (the confirmation's text; in brackets the mail's whole text part,
with gmserver's marker lines around it), whether the set is clean; then the largest and the median.

    .venv/bin/python benchmarks/bench_confirmation.py [--timezone Europe/Paris]

The last line is `RESULT clean_sets=... clean_max_lines=... clean_median_lines=... all_max_lines=...`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("HOME", "/tmp")

from gmserver import engine
from gmserver.mail.compose import Composer, mark_gm_mail
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import build_confirmation
from gmserver.rules.reading.mail import read_mail
from gmserver.rules.ruleset import load_ruleset

CLIENTS = Path(__file__).resolve().parents[1] / "tests" / "data" / "clients"
DEADLINE = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)


def cases() -> list[tuple[Path, str]]:
    """(message, power) for every message expected to file 3 or 4 orders."""
    found = []
    for folder in (CLIENTS, CLIENTS / "classes"):
        expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        for name, case in sorted(expected.items()):
            if name.endswith(".eml") and case.get("orders") and 3 <= len(case["orders"]) <= 4:
                found.append((folder / name, case["power"]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timezone", default="UTC", help="the game's time zone (another adds the UTC line)")
    args = parser.parse_args()
    geography = engine.map_info()
    position = engine.opening_position()
    ruleset = load_ruleset("standard")
    composer = Composer(TEMPLATES_DIR, gm_name="Garry Lord", gm_address="gm@gm.test")
    clean, every = [], []
    for path, power in cases():
        reading = read_mail(path.read_bytes(), position=position, power=power, ruleset=ruleset, geography=geography)
        confirmation = build_confirmation(
            game_name="lepanto", power=power, phase=position.phase, deadline=DEADLINE, readings=reading.lines,
            orders_on_file=reading.orders, version=1, geography=geography, units=position.units[power],
            notes=reading.notes, marker=reading.version, timezone=args.timezone,
            # as every confirmation to a player's own address offers: their reply address, the subject
            order_address="gm+iraj5v5fo7pc66ry@gm.test", order_subject=f"lepanto {power.title()} S1901M")
        body = composer.render(confirmation.template, confirmation)
        lines = len(body.rstrip("\n").split("\n"))
        mail_lines = len(mark_gm_mail(body).rstrip("\n").split("\n"))
        is_clean = all(line.status != "rejected" and line.status != "corrected" for line in reading.lines)
        every.append(lines)
        if is_clean:
            clean.append(lines)
        print(f"{path.relative_to(CLIENTS)!s:48} {len(reading.orders)} orders  {lines:3} lines ({mail_lines} in the "
              f"mail)  {'clean' if is_clean else 'lines read with a remark'}")
    print(f"clean sets: {len(clean)}, largest {max(clean)} lines, median {statistics.median(clean):g}; "
          f"every set of 3-4 orders: largest {max(every)} lines (goal for a clean set: at most 15)")
    print(f"RESULT clean_sets={len(clean)} clean_max_lines={max(clean)} "
          f"clean_median_lines={statistics.median(clean):g} all_max_lines={max(every)}")


if __name__ == "__main__":
    main()
