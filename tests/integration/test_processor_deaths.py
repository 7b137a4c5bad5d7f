"""One message must never block the ones after it: a message that kills the
processor every time it is read is parked unread after intake.MAX_ATTEMPTS claims, and the mail
stored after it is processed. A real child process is SIGKILLed, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from gmserver.db.models import InboundMessage
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.game import filing
from gmserver.services.inbox import runner as intake
from tests.support.hostile import encoded_word_bomb
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MARKER = "THIS-MESSAGE-KILLS"


def subject(power: str) -> str:
    return format_subject(template="standard", game_name="lepanto", power=power, phase="S1901M", purpose="orders")


def run_dying_processor(url: str, now) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.support.dying_processor", url, MARKER, now.isoformat()],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=120)


def rows(services) -> dict[int, InboundMessage]:
    with transaction(services.sessions) as session:
        return {row.id: row for row in session.scalars(select(InboundMessage))}


def test_a_message_that_kills_the_processor_is_parked_and_the_next_one_is_processed(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    deadly = intake.store(services.sessions, order_mail(player_address("FRANCE"), subject("FRANCE"),
                                                        f"A PAR H\n{MARKER}\n"), source="smtp", now=clock()).id
    good = intake.store(services.sessions, order_mail(player_address("GERMANY"), subject("GERMANY"), "A BER H\n"),
                        source="smtp", now=clock()).id

    for attempt in range(1, intake.MAX_ATTEMPTS + 1):
        child = run_dying_processor(database_url, clock())
        assert child.returncode == -signal.SIGKILL, child.stderr
        state = rows(services)
        assert (state[deadly].status, state[deadly].attempts) == ("pending", attempt)
        assert state[good].status == "pending"  # still behind it

    # The next processor does not read it again (the deadly handler would kill it): it parks it
    # and goes on to the good message.
    child = run_dying_processor(database_url, clock())
    assert child.returncode == 0, child.stderr
    assert json.loads(child.stdout) == [[deadly, "failed"], [good, "accepted"]]
    state = rows(services)
    assert state[deadly].status == "failed" and state[deadly].outcome is None
    assert state[deadly].error.startswith(f"Processing this message stopped the processor {intake.MAX_ATTEMPTS} times")
    assert (state[good].status, state[good].outcome) == ("done", "accepted")

    # Once the GM has fixed the cause, a replay reads it again with a fresh count.
    assert intake.replay(services, deadly, clock()) == "accepted"
    assert rows(services)[deadly].status == "done"


def test_claims_that_end_cleanly_do_not_count(database_url, clock, monkeypatch) -> None:
    """A message put back in the queue (its game moved on meanwhile) is not one that kills."""
    services = services_for(database_url)
    new_game(services, clock())
    stored = intake.store(services.sessions, order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR H"),
                          source="smtp", now=clock()).id

    def moved(*args, **kwargs):
        raise filing.PhaseMoved()

    monkeypatch.setattr(filing, "file_orders", moved)
    for _ in range(intake.MAX_ATTEMPTS + 2):
        assert intake.process_one(services, stored, clock()) is None
    assert (rows(services)[stored].status, rows(services)[stored].attempts) == ("pending", 0)
    monkeypatch.undo()
    assert intake.process_one(services, stored, clock()) == "accepted"


BOMB_CHILD = """
import resource, sys
from datetime import datetime
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
from gmserver.services.game import filing
from gmserver.services.inbox import runner as intake
from tests.support.world import services_for
print(intake.process_pending(services_for(sys.argv[1]), datetime.fromisoformat(sys.argv[3])))
"""


@pytest.mark.parametrize("size", [140_000, 280_000])
def test_the_bomb_is_answered_within_a_300_mb_address_space(database_url, clock, size: int) -> None:
    """Parsing the 140 KB bomb took about 650 MB, the 280 KB one 2.7 GB: a processor capped at
    300 MB (interpreter, SQLAlchemy and the database driver included) must still answer it."""
    services = services_for(database_url)
    new_game(services, clock())
    stored = intake.store(services.sessions, encoded_word_bomb(size), source="smtp", now=clock()).id
    child = subprocess.run([sys.executable, "-c", BOMB_CHILD, database_url, str(300 * 1024 * 1024),
                            clock().isoformat()], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == f"[({stored}, 'refused')]"
