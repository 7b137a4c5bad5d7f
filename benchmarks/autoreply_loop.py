"""Measured: a player's autoresponder answers every mail gmserver sends it.

Two responders, each given ROUNDS chances: one writes "Out of Office: <our subject>" with no
header (the reproducer: 187 confirmations in 45 s, orders v187 = []), the other marks itself
nowhere at all (it echoes our subject and says it is away). Prints how many replies gmserver sent
back and what stands on file. SQLite in a temp dir, or --database-url.

    PYTHONPATH=. .venv/bin/python benchmarks/autoreply_loop.py [--rounds 187]
"""

from __future__ import annotations

import argparse
import email
import logging
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from gmserver.db.migrate import upgrade
from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.reading.sets import effective_orders
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.game.ordersets import stored_sets
from gmserver.services.inbox import runner as intake
from tests.support.world import new_game, order_mail, player_address, services_for


def run(database_url: str, rounds: int, responder: str) -> None:
    upgrade(database_url)
    services = services_for(database_url)
    now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    game_id = new_game(services, now, name=f"lepanto-{responder}")
    germany = player_address("GERMANY")
    subject = f"lepanto-{responder} Germany S1901M"
    intake.store(services.sessions, order_mail(germany, subject, "A BER - KIE\nA MUN - RUH\nF KIE - DEN\n"),
                 source="smtp", now=now)
    intake.process_pending(services, now)
    for _ in range(rounds):
        with transaction(services.sessions) as session:
            last = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
            ours = email.message_from_bytes(last.raw)
        theirs = " ".join(str(ours["Subject"]).split())
        echoed = f"Out of Office: {theirs}" if responder == "marked" else theirs
        raw = order_mail(germany, echoed, "I am out of the office until Monday.\n\nHans\n",
                         headers={"In-Reply-To": ours["Message-ID"]} if responder == "marked" else None)
        intake.store(services.sessions, raw, source="smtp", now=now)
        intake.process_pending(services, now)
        now += timedelta(seconds=45 / max(rounds, 1))
    with transaction(services.sessions) as session:
        replies = len(session.scalars(select(OutboxMessage.id).where(OutboxMessage.game_id == game_id)).all())
        sets = stored_sets(session, game_id, "S1901M").get("GERMANY", [])
        on_file = effective_orders(sets, load_ruleset("standard"))
    print(f"{responder:>8} responder, {rounds} rounds in 45 s: {replies} replies sent (1 is the first "
          f"confirmation), {len(sets)} set(s) on file, orders on file: {[str(o) for o in on_file]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=187)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    logging.getLogger("gmserver").setLevel(logging.ERROR)  # one "filed without a reply" per round
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/loop.db"
    for responder in ("marked", "unmarked"):
        run(url, args.rounds, responder)


if __name__ == "__main__":
    main()
