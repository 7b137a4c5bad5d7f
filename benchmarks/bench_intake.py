"""What processing one stored order mail costs: CPU, SQL statements and commits a mail (a script
that prints figures; not a test).

`--games N` games of seven players, each power's Spring 1901 order mail stored first (as the
listener stores it), then `intake.process_pending` reads them all: the sender proven (a game
whose sender check is "verified", each mail sent to the player's own reply address), the order
set filed and its confirmation queued. No IMAP, no SMTP, no outbox sending: the figure is intake's
own. Printed: CPU a mail (this process's), the SQL statements and commits a mail (host-independent),
and with `--profile` the functions taking the most CPU (cProfile, cumulative) and the Python
calls a mail (the RESULT line's python_calls_per_mail; the CPU figure is then the profiler's too).
With `--stages`, the Python calls a mail by stage (STAGES: each call counted to the innermost stage
running; host-independent), and the CPU a mail spent inside each (cumulative, under that tracer).

    .venv/bin/python benchmarks/bench_intake.py [--games 30] [--idle-games 0] [--database sqlite|postgresql]
        [--profile FILE] [--stages]

The host's speed moves by up to 2x minute to minute: compare two checkouts by running this script
of each alternately at the same moment. The last line:
`RESULT cpu_ms_per_mail=... mails_per_cpu_s=... statements_per_mail=... commits_per_mail=... load=... database=...
[python_calls_per_mail=...]`.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402

from gmserver import collector, engine  # noqa: E402
from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.rules.subject import format_subject  # noqa: E402
from gmserver.services.game.games import POWERS  # noqa: E402
from gmserver.services.inbox import runner as intake  # noqa: E402
from tests.support.databases import scratch_database  # noqa: E402
from tests.support.intake_rows import player_reply_address  # noqa: E402
from tests.support.world import OPENINGS, new_game, order_mail, player_address, services_for  # noqa: E402


class StatementCount:
    """The SQL statements and commits the engine runs while it is attached."""

    def __init__(self, bound_engine) -> None:
        self.statements = self.commits = 0
        event.listen(bound_engine, "before_cursor_execute", self._statement)
        event.listen(bound_engine, "commit", self._commit)

    def _statement(self, *_args) -> None:
        self.statements += 1

    def _commit(self, *_args) -> None:
        self.commits += 1


# What a processed mail does, in order (module, function): each Python call is counted to the
# innermost of these running. A name a checkout lacks is left out (to run this script on an older one).
STAGES = (
    ("gmserver.services.inbox.runner", "pending_ids"),
    ("gmserver.services.inbox.runner", "_count_claim"),
    ("gmserver.services.inbox.routing", "prepare"),
    ("gmserver.rules.limits", "first_excess"),
    ("gmserver.rules.reading.message", "read_message"),
    ("gmserver.db.queries.inbound", "pending_for_update"),
    ("gmserver.db.queries.inbound", "unsaved"),
    ("gmserver.services.inbox.routing", "handle"),
    ("gmserver.services.inbox.routing", "_with_transport_facts"),
    ("gmserver.services.inbox.routing", "_game_views"),
    ("gmserver.rules.mailkind", "classify"),
    ("gmserver.rules.intake", "decide"),
    ("gmserver.services.features.senders", "check_sender"),
    ("gmserver.services.game.filing", "file_orders"),
    ("gmserver.rules.reading.mail", "read_mail"),
    ("gmserver.services.game.filing", "_confirm"),
    ("gmserver.services.base.mails", "confirmation"),
    ("gmserver.mail.compose", "Composer.render"),
    ("gmserver.services.base.outbox", "queue"),
    ("gmserver.db.queries.inbound", "write_changes"),
)


class StageCalls:
    """Python calls (and C calls) counted to the innermost STAGES function running, and the CPU
    spent inside each stage's outermost call (sys.setprofile: slower, so only its counts and
    shares mean much)."""

    def __init__(self) -> None:
        self.codes = {}
        for module, name in STAGES:
            found = importlib.import_module(module)
            for part in name.split("."):
                found = getattr(found, part, None)
            if found is not None:
                self.codes[getattr(found, "__wrapped__", found).__code__] = name
        self.calls: Counter[str] = Counter()
        self.cpu: Counter[str] = Counter()
        self._stack: list[tuple[object, str, float]] = []

    def __call__(self, frame, event, _arg) -> None:
        if event in ("call", "c_call"):
            self.calls[self._stack[-1][1] if self._stack else "(the loop)"] += 1
            if event == "call" and (stage := self.codes.get(frame.f_code)) is not None:
                self._stack.append((frame, stage, time.process_time()))
        elif event == "return" and self._stack and self._stack[-1][0] is frame:
            _, stage, started = self._stack.pop()
            if all(entered != stage for _, entered, _ in self._stack):  # its outermost call
                self.cpu[stage] += time.process_time() - started

    def print(self, mails: int) -> None:
        print(f"{'stage (innermost)':24s} {'calls a mail':>12s} {'CPU inside, ms':>15s}")
        for stage, calls in sorted(self.calls.items(), key=lambda item: -item[1]):
            print(f"{stage:24s} {calls / mails:12.0f} {self.cpu[stage] * 1000 / mails:15.2f}")
        print(f"{'total':24s} {sum(self.calls.values()) / mails:12.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games, seven order mails each (default 30)")
    parser.add_argument("--idle-games", type=int, default=0, metavar="N",
                        help="N more open games that get no mail (what a subject's game is looked for among)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--profile", metavar="FILE", type=Path,
                        help="profile the processing (cProfile), print the top functions and write the stats to FILE")
    parser.add_argument("--stages", action="store_true",
                        help="count the Python calls a mail by stage (STAGES) and print them")
    parser.add_argument("--gc-default", action="store_true",
                        help="leave CPython's garbage collector as it is, not as `gmserver run` sets it "
                             "(gmserver/collector.py)")
    args = parser.parse_args()
    if not args.gc_default:  # as `gmserver run` does once started
        collector.settle_after_start()
    with tempfile.TemporaryDirectory() as tmp:
        url, drop = scratch_database(args.database, Path(tmp), "gmbenchintake")
        try:
            upgrade(url)
            services = services_for(url)
            now = datetime.now(UTC)
            names = [f"bench{n}" for n in range(args.games)]
            for name in names:
                new_game(services, now, name=name, sender_check="verified")
            for number in range(args.idle_games):
                new_game(services, now, name=f"idle{number}")
            engine.map_info()
            for name in names:
                for power, body in OPENINGS.items():
                    subject = format_subject(template="standard", game_name=name, power=power, phase="S1901M",
                                             purpose="orders")
                    raw = order_mail(player_address(power), subject, body,
                                     to=player_reply_address(services, power, name))
                    intake.store(services.sessions, raw, source="smtp", now=now)
            mails = len(names) * len(POWERS)
            counted = StatementCount(services.sessions.kw["bind"])
            # CPU time, as the figure: the SQLite commit's wait for the disk is no CPU
            profile = cProfile.Profile(time.process_time) if args.profile else None
            stages = StageCalls() if args.stages else None
            started, cpu = time.perf_counter(), time.process_time()
            if profile is not None:
                profile.enable()
            if stages is not None:
                sys.setprofile(stages)
            done = intake.process_pending(services, now)
            sys.setprofile(None)
            if profile is not None:
                profile.disable()
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            outcomes = {outcome for _, outcome in done}
            assert len(done) == mails and outcomes == {"accepted"}, (len(done), outcomes)
        finally:
            drop()
    calls = ""
    if stages is not None:
        stages.print(mails)
    if profile is not None:
        profile.dump_stats(args.profile)
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(45)
        calls = f" python_calls_per_mail={stats.total_calls / mails:.0f}"  # host-independent, as the statements
    load = os.getloadavg()[0]
    print(f"{mails} order mails ({args.database}, {args.games + args.idle_games} open games, sender proven by the "
          f"reply address): CPU {cpu * 1000 / mails:.2f} ms "
          f"a mail ({mails / cpu:.0f} a CPU second; wall {elapsed * 1000 / mails:.2f} ms), "
          f"{counted.statements / mails:.1f} SQL statements and {counted.commits / mails:.2f} commits a mail "
          f"(load average {load:.2f})")
    print(f"RESULT cpu_ms_per_mail={cpu * 1000 / mails:.2f} mails_per_cpu_s={mails / cpu:.0f} "
          f"statements_per_mail={counted.statements / mails:.1f} commits_per_mail={counted.commits / mails:.2f} "
          f"load={load:.2f} open_games={args.games + args.idle_games} database={args.database}{calls}")


if __name__ == "__main__":
    main()
