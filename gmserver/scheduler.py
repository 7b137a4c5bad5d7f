"""Deadline and reminder jobs on APScheduler, as pointers rebuilt from the database.

A job holds only `(game id, phase)`; the work it triggers re-checks the database, so a job that
fires twice, late, or after the phase moved on does nothing harmful. `sync` is called at
start-up and after every change: a deadline that passed while the daemon was down runs at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from datetime import datetime

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.base import BaseScheduler

from gmserver.rules.deadlines import GameTiming

log = logging.getLogger(__name__)


# Deadline and reminder jobs run on threads of their own: a thousand deadlines due at once must
# not hold up the outbox and inbound jobs on the scheduler's default executor.
DEADLINE_EXECUTOR = "deadlines"
DEADLINE_THREADS = 2


def resolve_job_id(game_id: int, phase: str) -> str:
    return f"resolve:{game_id}:{phase}"


def remind_job_id(game_id: int, phase: str) -> str:
    return f"remind:{game_id}:{phase}"


class DeadlineJobs:
    def __init__(self, scheduler: BaseScheduler, on_deadline: Callable[[int, str], None],
                 on_reminder: Callable[[int, str], None]) -> None:
        self._scheduler = scheduler
        try:
            scheduler.add_executor(ThreadPoolExecutor(DEADLINE_THREADS), DEADLINE_EXECUTOR)
        except ValueError:  # the scheduler has it already (a second DeadlineJobs on it)
            pass
        self._on_deadline = on_deadline
        self._on_reminder = on_reminder

    def sync(self, timings: Iterable[GameTiming], now: datetime) -> None:
        """Make the jobs exactly those `timings` want (every active game's)."""
        wanted = self._wanted(timings)
        for job in self._scheduler.get_jobs():
            if job.id.startswith(("resolve:", "remind:")) and job.id not in wanted:
                job.remove()
        self._add(wanted, now)

    def sync_games(self, game_ids: Collection[int], timings: Iterable[GameTiming], now: datetime) -> None:
        """The same for the games of `game_ids` (`timings`: theirs; one without any is over or
        paused), so that processing deadlines costs those games' jobs and one look at the others
        (1,000 games due at once, a look at every job for each, were quadratic)."""
        wanted = self._wanted(timings)
        ids = set(game_ids)
        stale = [job.id for job in self._scheduler.get_jobs()
                 if job.id.startswith(("resolve:", "remind:")) and job.args[:1] and job.args[0] in ids
                 and job.id not in wanted]
        for job_id in stale:
            self._scheduler.remove_job(job_id)
        self._add(wanted, now)

    def _wanted(self, timings: Iterable[GameTiming]) -> dict[str, tuple[Callable[[int, str], None], datetime, int, str]]:
        wanted: dict[str, tuple[Callable[[int, str], None], datetime, int, str]] = {}
        for t in timings:
            if t.deadline is not None:
                wanted[resolve_job_id(t.game_id, t.phase)] = (self._on_deadline, t.deadline, t.game_id, t.phase)
            # reminders come before the deadline; a game only the GM adjudicates has no deadline job
            if t.reminder_at is not None and (t.deadline is None or t.reminder_at < t.deadline):
                wanted[remind_job_id(t.game_id, t.phase)] = (self._on_reminder, t.reminder_at, t.game_id, t.phase)
        return wanted

    def _add(self, wanted: dict[str, tuple[Callable[[int, str], None], datetime, int, str]], now: datetime) -> None:
        for job_id, (func, when, game_id, phase) in wanted.items():
            existing = self._scheduler.get_job(job_id)
            run_at = max(when, now)
            if existing is not None and existing.next_run_time == run_at:
                continue
            # misfire_grace_time=None: a job that is late (daemon busy or just restarted) still runs
            self._scheduler.add_job(func, "date", run_date=run_at, args=(game_id, phase), id=job_id,
                                    replace_existing=True, misfire_grace_time=None, coalesce=True,
                                    executor=DEADLINE_EXECUTOR)
            log.debug("scheduled %s at %s", job_id, run_at.isoformat())

    def job_ids(self) -> list[str]:
        return sorted(job.id for job in self._scheduler.get_jobs() if job.id.startswith(("resolve:", "remind:")))
