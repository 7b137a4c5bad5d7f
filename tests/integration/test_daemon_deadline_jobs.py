"""The running daemon's deadline and reminder jobs among many games, some due and most not.

Each game has its own jobs on the scheduler (gmserver/scheduler.py); games that share a moment
fire theirs together, and one run does the work for every game due (the deadline's batches of a
transaction, `turns.adjudicate_due`; `turns.queue_reminders`). The sweep, the safety net that
would find the same work, is off here, so only the jobs can have done it."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from gmserver.config import Config, ListenerConfig
from gmserver.daemon import Daemon
from gmserver.db.models import Game, PhaseRecord
from gmserver.db.session import transaction
from gmserver.scheduler import remind_job_id, resolve_job_id
from gmserver.services.turn import turns
from tests.support.dovecot import free_port
from tests.support.intake_rows import outbox_rows
from tests.support.world import GM, new_game, services_for

pytestmark = pytest.mark.integration

DUE, NOT_DUE = 6, 12


def _phases(services) -> dict[str, str]:
    with transaction(services.sessions) as session:
        return {name: phase for name, phase in session.execute(select(Game.name, Game.phase))}


def _adjudicated(services) -> dict[str, int]:
    """How many times each game's Spring 1901 was adjudicated (phase records of S1901M that
    were adjudicated)."""
    with transaction(services.sessions) as session:
        rows = session.execute(select(Game.name).join(PhaseRecord, PhaseRecord.game_id == Game.id)
                               .where(PhaseRecord.phase == "S1901M", PhaseRecord.adjudicated_at.is_not(None)))
        counts: dict[str, int] = {}
        for (name,) in rows:
            counts[name] = counts.get(name, 0) + 1
        return counts


def _wait_for(condition, seconds: float = 60) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _started_without_sweep(services, database_url: str, tmp_path) -> Daemon:  # type: ignore[no-untyped-def]
    """A started daemon whose sweep does nothing: only the jobs can do the work."""
    config = Config(database_url=database_url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                    maildir_path=str(tmp_path / "maildir"), sweep_interval_seconds=3600)
    daemon = Daemon(config, services=services)
    daemon._sweep = lambda: None  # type: ignore[method-assign]
    daemon.start()
    return daemon


def test_games_sharing_a_deadline_are_adjudicated_once_by_one_run_and_the_rest_keep_their_jobs(
        database_url, tmp_path, monkeypatch) -> None:
    """Six games share a deadline a few seconds ahead, twelve are due in two days: the six
    deadline jobs fire together, the first one's run adjudicates all six in one batch, each
    once; the twelve are untouched and keep their jobs; the six get the next phase's jobs."""
    services = services_for(database_url)
    now = datetime.now(UTC)
    soon = [new_game(services, now, name=f"due{n}", movement_hours=4 / 3600, reminder_hours=1) for n in range(DUE)]
    later = [new_game(services, now, name=f"later{n}") for n in range(NOT_DUE)]
    runs: list[list[str]] = []
    adjudicate_due = turns.adjudicate_due

    def noted(services, now, **options):  # type: ignore[no-untyped-def]
        done = adjudicate_due(services, now, **options)
        runs.append(sorted(turn.game for turn in done))
        return done

    monkeypatch.setattr(turns, "adjudicate_due", noted)
    daemon = _started_without_sweep(services, database_url, tmp_path)
    try:
        assert set(daemon.deadlines.job_ids()) >= {resolve_job_id(game, "S1901M") for game in soon + later}
        assert _wait_for(lambda: all(_phases(services)[f"due{n}"] == "F1901M" for n in range(DUE)))
        assert _wait_for(lambda: resolve_job_id(soon[-1], "F1901M") in daemon.deadlines.job_ids())
        jobs = set(daemon.deadlines.job_ids())
    finally:
        daemon.stop()
    first = next(run for run in runs if run)
    assert first == sorted(f"due{n}" for n in range(DUE))  # one run, every game due
    assert sum(len(run) for run in runs) == DUE
    assert _adjudicated(services) == {f"due{n}": 1 for n in range(DUE)}
    assert all(_phases(services)[f"later{n}"] == "S1901M" for n in range(NOT_DUE))
    assert {resolve_job_id(game, "F1901M") for game in soon} <= jobs
    assert {resolve_job_id(game, "S1901M") for game in later} <= jobs
    assert not {resolve_job_id(game, "S1901M") for game in soon} & jobs


def test_games_sharing_a_reminder_are_reminded_once_and_the_rest_are_not(database_url, tmp_path) -> None:
    """Six games' reminders fall due together a few seconds ahead (24 hours before their
    deadline), twelve games' a day later: each of the six gets one reminder per power without
    orders, once, the twelve none; every game keeps its deadline job, the twelve their reminder jobs."""
    services = services_for(database_url)
    now = datetime.now(UTC)
    soon = [new_game(services, now, name=f"due{n}", reminder_hours=24) for n in range(DUE)]
    later = [new_game(services, now, name=f"later{n}", movement_hours=48, reminder_hours=24) for n in range(NOT_DUE)]
    with transaction(services.sessions) as session:  # a turn's deadline is a whole minute: not here, to wait less
        for game_id in soon:
            session.get(Game, game_id).deadline = now + timedelta(hours=24, seconds=4)
    daemon = _started_without_sweep(services, database_url, tmp_path)
    try:
        assert {remind_job_id(game, "S1901M") for game in soon + later} <= set(daemon.deadlines.job_ids())
        assert _wait_for(lambda: len(outbox_rows(services, "reminder")) >= DUE * 7)
        assert _wait_for(lambda: not {remind_job_id(game, "S1901M") for game in soon} & set(daemon.deadlines.job_ids()))
        jobs = set(daemon.deadlines.job_ids())
    finally:
        daemon.stop()
    reminded = outbox_rows(services, "reminder")
    assert len(reminded) == DUE * 7
    assert len({(row.recipient, row.game_id) for row in reminded}) == DUE * 7
    assert {row.game_id for row in reminded} == set(soon)
    assert {resolve_job_id(game, "S1901M") for game in soon + later} <= jobs
    assert {remind_job_id(game, "S1901M") for game in later} <= jobs
    assert all(phase == "S1901M" for phase in _phases(services).values())
