"""Deadline jobs on a real APScheduler: pointers that re-check, rebuilt at start-up."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from apscheduler.schedulers.background import BackgroundScheduler

from gmserver.scheduler import DeadlineJobs, GameTiming

pytestmark = pytest.mark.integration


@pytest.fixture
def scheduler():
    scheduler = BackgroundScheduler(timezone=UTC)
    scheduler.start()
    yield scheduler
    scheduler.shutdown(wait=False)


def test_a_deadline_that_passed_while_down_runs_at_once(scheduler) -> None:
    fired: list[tuple[int, str]] = []
    done = threading.Event()

    def on_deadline(game_id: int, phase: str) -> None:
        fired.append((game_id, phase))
        done.set()

    jobs = DeadlineJobs(scheduler, on_deadline, lambda g, p: None)
    now = datetime.now(UTC)
    jobs.sync([GameTiming(7, "S1901M", now - timedelta(hours=3), None)], now)
    assert done.wait(5)
    assert fired == [(7, "S1901M")]
    # a date job is removed by the scheduler once it has run: the pointer does not linger
    deadline = time.monotonic() + 30  # a generous wait for the event, not a count of tries
    while scheduler.get_job("resolve:7:S1901M") is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert scheduler.get_job("resolve:7:S1901M") is None


def test_sync_replaces_stale_jobs_and_keeps_ids_stable(scheduler) -> None:
    jobs = DeadlineJobs(scheduler, lambda g, p: None, lambda g, p: None)
    now = datetime.now(UTC)
    later = now + timedelta(days=1)
    jobs.sync([GameTiming(1, "S1901M", later, later - timedelta(hours=2)),
               GameTiming(2, "F1901M", later, None)], now)
    assert jobs.job_ids() == ["remind:1:S1901M", "resolve:1:S1901M", "resolve:2:F1901M"]
    jobs.sync([GameTiming(1, "F1901M", later, None)], now)  # game 1 moved on, game 2 ended
    assert jobs.job_ids() == ["resolve:1:F1901M"]
    assert scheduler.get_job("resolve:1:F1901M").next_run_time == later


def test_sync_game_touches_only_that_games_jobs(scheduler) -> None:
    """After one deadline only that game's jobs are rebuilt (a full rebuild after each of 1,000
    deadlines due at once was quadratic); the others stay as they were."""
    jobs = DeadlineJobs(scheduler, lambda g, p: None, lambda g, p: None)
    now = datetime.now(UTC)
    later = now + timedelta(days=1)
    jobs.sync([GameTiming(1, "S1901M", later, later - timedelta(hours=2)),
               GameTiming(2, "S1901M", later, None)], now)
    jobs.sync_games([1], [GameTiming(1, "F1901M", later + timedelta(days=2), None)], now)
    assert jobs.job_ids() == ["resolve:1:F1901M", "resolve:2:S1901M"]
    jobs.sync_games([2], [], now)  # game 2 is over
    assert jobs.job_ids() == ["resolve:1:F1901M"]
    jobs.sync([GameTiming(1, "F1901M", later, None), GameTiming(2, "F1901M", later, None),
               GameTiming(3, "F1901M", later, None)], now)
    # several games at once: each one's jobs follow its timing; a game not named keeps its jobs
    jobs.sync_games([1, 2], [GameTiming(1, "S1902M", later, later - timedelta(hours=1))], now)
    assert jobs.job_ids() == ["remind:1:S1902M", "resolve:1:S1902M", "resolve:3:F1901M"]


def test_deadline_jobs_run_on_their_own_threads(scheduler) -> None:
    """A flood of deadline jobs must not take the threads the outbox and inbound jobs run on."""
    from gmserver.scheduler import DEADLINE_EXECUTOR

    jobs = DeadlineJobs(scheduler, lambda g, p: None, lambda g, p: None)
    now = datetime.now(UTC)
    jobs.sync([GameTiming(3, "S1901M", now + timedelta(days=1), None)], now)
    assert scheduler.get_job("resolve:3:S1901M").executor == DEADLINE_EXECUTOR


def test_stop_does_not_wait_on_a_job_that_asks_the_scheduler(tmp_path) -> None:
    """APScheduler's shutdown(wait=True) holds its job-store lock while it waits for running jobs,
    so a job that then asks the scheduler for its jobs (a deadline's resync) never finishes:
    `gmserver run` hung on SIGTERM in the soak. Daemon.stop must return."""
    from gmserver.config import Config
    from gmserver.daemon import Daemon
    from gmserver.db.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'gm.db'}"
    upgrade(url)
    daemon = Daemon(Config(database_url=url, inbound_mode="smtp", maildir_path=str(tmp_path / "out")).with_changes(
        listener=Config().listener.__class__(port=0)))
    asking, release = threading.Event(), threading.Event()

    def job_that_asks_the_scheduler() -> None:
        with daemon._jobs.running():
            asking.set()
            release.wait(5)
            daemon.scheduler.get_jobs()  # blocks for ever under shutdown(wait=True)

    daemon.scheduler.start()
    # an interval job, like the daemon's own: a one-off job is removed by the scheduler's thread
    # after it starts, which races with the shutdown this test is about
    daemon.scheduler.add_job(job_that_asks_the_scheduler, "interval", hours=1, id="asker",
                             next_run_time=datetime.now(UTC))
    assert asking.wait(5)
    stopper = threading.Thread(target=daemon.stop)
    stopper.start()
    from apscheduler.schedulers.base import STATE_STOPPED

    while daemon.scheduler.state != STATE_STOPPED:  # stop() has begun shutting the scheduler down
        time.sleep(0.01)
    time.sleep(0.1)  # and reached its wait for running jobs; only then does the job ask
    release.set()
    stopper.join(timeout=10)
    assert not stopper.is_alive()
