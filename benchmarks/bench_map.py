"""Report map benchmark: the time to draw a turn report's map as a PNG, the static board
rasterised once per process beforehand (its one-off cost is printed too). Goal: under 100 ms.
The scenario is the mid-game turn of the report's golden files (tests/support/midgame.py); the
confirmation's map of one power's orders (mapimage.own_orders_png) is timed too.

`--confirmations N` also times sending full confirmations with their map, on a scratch SQLite
database: N games of seven players, each power's Spring 1901 order mail read by intake (its
confirmation queued with the map's request), then, in CPU time a confirmation (medians of
`--send-rounds` passes over all of them, the queue put back as intake left it between passes):
`orders_map.with_map` alone (the map drawn, attached, the mail written) and `outbox.deliver_due`
to a transport that only takes the bytes (claim, write with the map, renew the lease with the
bytes, send, record as sent). Python calls a confirmation (cProfile's count, host-independent)
are printed for both.

    .venv/bin/python benchmarks/bench_map.py [--rounds 50] [--confirmations 30] [--send-rounds 5]

The last line: `RESULT map_ms=... own_ms=... chart_ms=... load=...` (medians; own_ms is the
confirmation's map), with `--confirmations` also `with_map_cpu_ms=... send_cpu_ms=...
with_map_calls=... send_calls=...`.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("HOME", "/tmp")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.support

from sqlalchemy import select, update

from gmserver import centrechart, mapboard, mapimage
from gmserver.db.migrate import upgrade
from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.reports.extras import centre_history
from gmserver.rules.order import Order
from gmserver.rules.subject import format_subject
from gmserver.services.base import orders_map, outbox
from gmserver.services.base.context import Services
from gmserver.services.inbox import runner as intake
from tests.support.databases import scratch_database
from tests.support.intake_rows import player_reply_address
from tests.support.midgame import midgame
from tests.support.world import OPENINGS, new_game, order_mail, player_address, services_for


def timed(function, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


class TakeBytes:
    """A transport that takes the message and answers at once: what is left is gmserver's own work."""

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        return "taken"

    def close(self) -> None:
        pass


def queued_confirmations(services: Services, games: int, now: datetime) -> list[tuple[int, bytes, dict]]:
    """Every power's Spring 1901 order mail in `games` new games, read by intake: (row id, stored
    bytes, addressing) of each confirmation queued (the rows the games' start queued are sent)."""
    names = [f"bench{number}" for number in range(games)]
    for name in names:
        new_game(services, now, name=name, sender_check="verified")
    outbox.deliver_due(services.sessions, TakeBytes(), now, limit=10 ** 6)
    for name in names:
        for power, body in OPENINGS.items():
            subject = format_subject(template="standard", game_name=name, power=power, phase="S1901M", purpose="orders")
            intake.store(services.sessions, order_mail(player_address(power), subject, body,
                                                       to=player_reply_address(services, power, name)),
                         source="smtp", now=now)
    intake.process_pending(services, now)
    with transaction(services.sessions) as session:
        rows = session.execute(select(OutboxMessage.id, OutboxMessage.stored, OutboxMessage.addressing)
                               .where(OutboxMessage.status == "pending")).all()
    assert len(rows) == games * len(OPENINGS) and all(orders_map.KEY in row.addressing for row in rows)
    return [tuple(row) for row in rows]


def cpu_and_calls(function: Callable[[], object], count: int, rounds: int,
                  between: Callable[[], object] = lambda: None) -> tuple[float, float]:
    """Median CPU ms of `function` over `rounds` (`between` runs before each, untimed), divided by
    `count`; and the Python calls of one more run (cProfile), divided by `count`."""
    times = []
    for _ in range(rounds):
        between()
        started = time.process_time()
        function()
        times.append((time.process_time() - started) * 1000 / count)
    between()
    profile = cProfile.Profile()
    profile.runcall(function)
    return statistics.median(times), pstats.Stats(profile).total_calls / count


def confirmation_figures(games: int, rounds: int) -> tuple[float, float, float, float]:
    """(with_map CPU ms, its calls, deliver_due CPU ms, its calls), a confirmation."""
    now = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as tmp:
        url, _ = scratch_database("sqlite", Path(tmp), "gmbenchsend")
        upgrade(url)
        services = services_for(url)
        queued = queued_confirmations(services, games, now)

        def write_all() -> None:
            for _, raw, addressing in queued:
                orders_map.with_map(raw, addressing, "player@players.test")

        def as_intake_left_them() -> None:
            with transaction(services.sessions) as session:
                for row_id, raw, addressing in queued:
                    session.execute(update(OutboxMessage).where(OutboxMessage.id == row_id).values(
                        status="pending", stored=raw, addressing=addressing, attempts=0, lease_until=None,
                        sent_at=None, next_attempt_at=now))

        def send_all() -> None:
            report = outbox.deliver_due(services.sessions, TakeBytes(), now, limit=10 ** 6)
            assert report.sent == len(queued), report

        with_map_ms, with_map_calls = cpu_and_calls(write_all, len(queued), rounds)
        send_ms, send_calls = cpu_and_calls(send_all, len(queued), rounds, between=as_intake_left_them)
    print(f"a full confirmation, {len(queued)} queued by intake ({games} games; CPU medians of {rounds} passes): "
          f"with_map {with_map_ms:.2f} ms ({with_map_calls:.0f} Python calls); deliver_due to a transport that only "
          f"takes the bytes {send_ms:.2f} ms ({send_calls:.0f} calls)")
    return with_map_ms, with_map_calls, send_ms, send_calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--confirmations", type=int, default=0, metavar="GAMES",
                        help="also time sending the confirmations of GAMES games' order mails (7 each)")
    parser.add_argument("--send-rounds", type=int, default=5)
    args = parser.parse_args()
    outcome = midgame()
    started = time.perf_counter()
    mapboard.board()
    print(f"static board (SVG read, rasterised once per process): {(time.perf_counter() - started) * 1000:.0f} ms")
    size = len(mapimage.map_png(outcome))
    map_times = times = timed(lambda: mapimage.map_png(outcome), args.rounds)
    print(f"report map PNG ({size // 1024} KiB, {args.rounds} rounds): median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms (goal < 100 ms)")
    france = outcome.before.units.get("FRANCE", ())
    own = [o.order for o in outcome.orders if o.power == "FRANCE"] or [Order.parse(f"{unit} H") for unit in france]
    own_times = times = timed(lambda: mapimage.own_orders_png(outcome.before, "FRANCE", own), args.rounds)
    print(f"a confirmation's map of one power's {len(own)} orders (cropped): median {statistics.median(times):.1f} ms "
          f"(what the map adds to each full confirmation)")
    history = centre_history([(f"S{1901 + y}M", {"FRANCE": 3 + y, "ITALY": 3, "RUSSIA": 4 + y % 3})
                              for y in range(12)])
    times = timed(lambda: centrechart.centre_chart(*history), args.rounds)
    print(f"centre chart PNG, 12 years: median {statistics.median(times):.1f} ms")
    sending = ""
    if args.confirmations:
        with_map_ms, with_map_calls, send_ms, send_calls = confirmation_figures(args.confirmations, args.send_rounds)
        sending = (f" with_map_cpu_ms={with_map_ms:.2f} send_cpu_ms={send_ms:.2f} with_map_calls={with_map_calls:.0f} "
                   f"send_calls={send_calls:.0f}")
    print(f"RESULT map_ms={statistics.median(map_times):.1f} own_ms={statistics.median(own_times):.1f} "
          f"chart_ms={statistics.median(times):.1f}{sending} load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
