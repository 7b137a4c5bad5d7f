"""WHATIF benchmark: the time from a player's `whatif` mail stored to its answer queued, map
included, in a warm process (the static board rasterised and the engine loaded beforehand; their
one-off cost is printed too). Goal: under 100 ms with the map.

A standard game on a SQLite file; each round one player (in turn, so that the hourly limit holds
none back) mails `whatif` with six orders for three powers, and intake reads, adjudicates, draws
and queues the answer (`intake.process_one`). Printed: the median and the largest time, the
share of it the map takes (drawn alone, the same outcome), and the answer's size.

    .venv/bin/python benchmarks/bench_whatif.py [--rounds 28]

The last line is `RESULT whatif_ms=... whatif_max_ms=... map_ms=...`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("HOME", "/tmp")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.support

from gmserver import engine, mapboard, mapimage
from gmserver.db.migrate import upgrade
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.reply_limits import WHATIF_PER_HOUR
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import adjudication
from tests.support.intake_rows import outbox_rows
from tests.support.world import new_game, order_mail, player_address, services_for

BODY = """whatif
Germany:
A Mun - Bur
F Kie - Hol
France: A Par - Bur
A Mar S A Par - Bur
England:
F Lon - Nth
F Edi - Nwg
"""
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # one more mail is the warm-up: every player's hourly allowance, and no more
    parser.add_argument("--rounds", type=int, default=len(POWERS) * WHATIF_PER_HOUR - 1)
    args = parser.parse_args()
    started = time.perf_counter()
    mapboard.board()
    engine.map_info()
    print(f"warm-up (board rasterised, engine loaded): {(time.perf_counter() - started) * 1000:.0f} ms")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/whatif.db"
        upgrade(url)
        services = services_for(url)
        now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
        new_game(services, now)
        times = []
        for index in range(args.rounds + 1):
            power = POWERS[index % len(POWERS)]
            raw = order_mail(player_address(power), "lepanto", BODY)
            row = intake.store(services.sessions, raw, source="smtp", now=now)
            began = time.perf_counter()
            outcome = intake.process_one(services, row.id, now)
            assert outcome == "whatif-sent", f"mail {index} from {power}: {outcome}"
            if index:  # the first is the warm-up of the whole path
                times.append((time.perf_counter() - began) * 1000)
            now += timedelta(seconds=1)
        answers = [row for row in outbox_rows(services) if row.kind == "notice"]
        assert len(answers) == args.rounds + 1, f"{len(answers)} answers for {args.rounds + 1} mails"
    outcome = adjudication.adjudicate_with_defaults(
        engine.initial_state(), {"GERMANY": ["A MUN - BUR", "F KIE - HOL"], "FRANCE": ["A PAR - BUR"]},
        load_ruleset("standard"))
    map_times = []
    for _ in range(20):
        began = time.perf_counter()
        mapimage.compact_png(mapimage.render_map(outcome, "what if (nothing adjudicated)"))
        map_times.append((time.perf_counter() - began) * 1000)
    median, largest, drawing = statistics.median(times), max(times), statistics.median(map_times)
    print(f"whatif mail to answer queued ({len(times)} rounds): median {median:.1f} ms, max {largest:.1f} ms "
          f"(goal < 100 ms); of it the map: {drawing:.1f} ms; answer {len(answers[-1].stored) // 1024} KiB")
    print(f"RESULT whatif_ms={median:.1f} whatif_max_ms={largest:.1f} map_ms={drawing:.1f}")


if __name__ == "__main__":
    main()
