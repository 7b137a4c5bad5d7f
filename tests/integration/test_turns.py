"""Deadlines on a real database: adjudicated exactly once, reports and reminders queued once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from gmserver import engine
from gmserver.db.models import Game, OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services import intake, turns
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


@pytest.fixture
def world(database_url, clock):
    services = services_for(database_url)
    game_id = new_game(services, clock())
    return services, game_id


def send(services, clock, power: str, body: str, phase: str) -> None:
    subject = format_subject(template="standard", game_name="lepanto", power=power, phase=phase, purpose="orders")
    intake.store(services.sessions, order_mail(player_address(power), subject, body), source="smtp", now=clock())
    intake.process_pending(services, clock())


def count(services, kind: str) -> int:
    with transaction(services.sessions) as session:
        return session.scalar(select(func.count(OutboxMessage.id)).where(OutboxMessage.kind == kind))


def game_row(services, game_id) -> Game:
    with transaction(services.sessions) as session:
        return session.get(Game, game_id)


def test_nothing_happens_before_the_deadline(world, clock) -> None:
    services, game_id = world
    assert turns.adjudicate(services, game_id, clock()) is None
    assert turns.adjudicate_due(services, clock()) == []


def test_a_due_phase_is_adjudicated_once_with_the_latest_orders(world, clock) -> None:
    services, game_id = world
    send(services, clock, "FRANCE", "A PAR - BUR", "S1901M")
    send(services, clock, "FRANCE", "A PAR - PIC\nA MAR - SPA", "S1901M")  # version 2 replaces version 1
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert (done.phase, done.next_phase, done.reports) == ("S1901M", "F1901M", 7)
    assert done.deadline == clock() + timedelta(hours=48)
    assert turns.adjudicate_due(services, clock()) == []
    assert turns.adjudicate(services, game_id, clock(), force=True, expected_phase="S1901M") is None
    with transaction(services.sessions) as session:
        state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.phase == "F1901M"))
        spring = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == "S1901M"))
        assert spring.orders == {"FRANCE": ["A MAR - SPA", "A PAR - PIC"]}
        assert {"power": "GERMANY", "order": "A BER H", "results": [], "defaulted": True} in spring.results
    assert "A PIC" in engine.position_from_state(state).units["FRANCE"]
    assert count(services, "report") == 7


def test_concurrent_deadline_jobs_adjudicate_once(world, clock) -> None:
    services, game_id = world
    clock.advance(hours=49)
    results = []
    threads = [threading.Thread(target=lambda: results.append(
        turns.adjudicate(services, game_id, clock(), expected_phase="S1901M"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r is not None for r in results) == 1
    assert count(services, "report") == 7
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count(PhaseRecord.id))) == 2


def test_reminders_go_once_to_powers_without_orders(world, clock) -> None:
    services, game_id = world
    send(services, clock, "ENGLAND", "F LON - NTH", "S1901M")
    assert turns.queue_reminders(services, clock()) == 0  # too early
    clock.advance(hours=25)
    assert turns.queue_reminders(services, clock()) == 6
    assert turns.queue_reminders(services, clock()) == 0
    with transaction(services.sessions) as session:
        recipients = set(session.scalars(select(OutboxMessage.recipient).where(OutboxMessage.kind == "reminder")))
    assert player_address("ENGLAND") not in recipients and len(recipients) == 6


def test_a_whole_year_reaches_the_builds_and_the_next_spring(world, clock) -> None:
    services, game_id = world
    send(services, clock, "RUSSIA", "F SEV - RUM\nA WAR - GAL", "S1901M")
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    send(services, clock, "RUSSIA", "F RUM H", "F1901M")
    clock.advance(hours=48)
    [fall] = turns.adjudicate_due(services, clock())
    assert fall.next_phase == "W1901A"
    send(services, clock, "RUSSIA", "Build F Sev", "W1901A")
    clock.advance(hours=24)
    [winter] = turns.adjudicate_due(services, clock())
    assert winter.next_phase == "S1902M"
    with transaction(services.sessions) as session:
        state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.phase == "S1902M"))
    position = engine.position_from_state(state)
    assert "F SEV" in position.units["RUSSIA"] and "RUM" in position.centers["RUSSIA"]
    assert game_row(services, game_id).phase == "S1902M"
