"""Order reader benchmark: lines read per second and the median time to read a 12-order email
in a mid-game position (target: at most 2 ms per email, per-phase data cached), read whole by
`read_mail` as intake reads it. The CPU time is printed beside the wall-clock time: on a machine
shared with other work the wall clock measures the others too.

    .venv/bin/python benchmarks/bench_reading.py [--profile mhr] [--rounds 300]

The last line: `RESULT email_ms=... email_cpu_ms=... lines_per_s=... load=...`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

os.environ.setdefault("HOME", "/tmp")

from gmserver import engine
from gmserver.rules.position import Position
from gmserver.rules.reading.mail import read_mail
from gmserver.rules.reading.message import extract_order_text
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.turn.adjudication import adjudicate_with_defaults


def mid_game(seed: int = 11, phases: int = 14) -> tuple[Position, dict]:
    """A movement position after a few years of random legal play."""
    rng = random.Random(seed)
    state = engine.initial_state()
    best = None
    for _ in range(phases):
        position = engine.position_from_state(state)
        if position.phase_type == "M":
            best = (position, state)
        legal = engine.legal_orders(state)
        orders = {}
        for power in position.powers_to_order():
            locs = [u.split()[1] for u in position.units.get(power, ())] if position.phase_type == "M" else \
                [u.split()[1] for u in position.dislodged.get(power, ())] if position.phase_type == "R" else \
                [loc for loc in legal if any(o.endswith((" B", " D")) for o in legal[loc])]
            orders[power] = [rng.choice(legal[loc]) for loc in locs if loc in legal][:12]
        # engine.adjudicate refuses incomplete orders: the rules' defaults complete them
        state = adjudicate_with_defaults(state, orders, load_ruleset("standard")).state_after
    assert best is not None
    return best


def email_for(position: Position, state: dict, rng: random.Random) -> tuple[str, str]:
    """(power, a realistic email body with 12 order lines plus greeting, chatter and signature)."""
    power = max(position.units, key=lambda p: len(position.units[p]))
    legal = engine.legal_orders(state)
    lines = []
    for unit in position.units[power]:
        options = [o for o in legal.get(unit.split()[1], ()) if " S " in o or " - " in o] or [f"{unit} H"]
        order = rng.choice(options).replace(" VIA", " via convoy")
        lines.append(order.title() if rng.random() < 0.5 else order)
    while len(lines) < 12:
        lines.append(f"{rng.choice(position.units[power])} H")
    lines = lines[:12]
    body = "\n".join(["Hi GM,", "", "here are my orders for this turn:", ""]
                     + [f"{i}. {line}" for i, line in enumerate(lines, 1)]
                     + ["", "Thanks!", "-- ", "Alice"])
    message = (f"From: alice@example.test\r\nTo: gm@example.test\r\nSubject: game {power} orders\r\n"
               f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()
    return power, message.decode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="standard")
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    ruleset = load_ruleset(args.profile)
    geography = engine.map_info()
    position, state = mid_game()
    rng = random.Random(5)
    emails = [email_for(position, state, rng) for _ in range(20)]
    # warm-up: builds the name tables and the position's index once (per-phase cache)
    for power, message in emails:
        read_mail(message, position=position, power=power, ruleset=ruleset, geography=geography)
    times = []
    cpu = []
    lines = 0
    for i in range(args.rounds):
        power, message = emails[i % len(emails)]
        start, start_cpu = time.perf_counter(), time.process_time()
        # intake passes the subject its envelope already read
        reading = read_mail(message, position=position, power=power, ruleset=ruleset, geography=geography,
                            subject=f"game {power} orders")
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        lines += sum(1 for line in extract_order_text(message).splitlines() if line.strip())
        assert len(reading.orders) >= 1
    total = sum(times)
    median_ms = statistics.median(times) * 1000
    print(f"profile {args.profile}: position {position.phase}, {len(times)} emails of 12 orders")
    print(f"lines read per second: {lines / total:,.0f}")
    print(f"median time per 12-order email (extraction + reading): {median_ms:.3f} ms "
          f"(p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.3f} ms; target <= 2 ms)")
    print(f"median CPU time per 12-order email: {statistics.median(cpu) * 1000:.3f} ms")
    print(f"RESULT email_ms={median_ms:.3f} email_cpu_ms={statistics.median(cpu) * 1000:.3f} "
          f"lines_per_s={lines / total:.0f} load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
