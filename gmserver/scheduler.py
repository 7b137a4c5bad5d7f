"""Deadline and reminder jobs on APScheduler, as pointers rebuilt from the database.

A job holds only `(game id, phase)`; the work it triggers re-checks the database, so a job that
fires twice, late, or after the phase moved on does nothing harmful. `sync` is called at
start-up and after every change: a deadline that passed while the daemon was down runs at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Iterable

from apscheduler.schedulers.base import BaseScheduler

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameTiming:
    game_id: int
    phase: str
    deadline: datetime | None
    reminder_at: datetime | None


def resolve_job_id(game_id: int, phase: str) -> str:
    return f"resolve:{game_id}:{phase}"


def remind_job_id(game_id: int, phase: str) -> str:
    return f"remind:{game_id}:{phase}"


class DeadlineJobs:
    def __init__(self, scheduler: BaseScheduler, on_deadline: Callable[[int, str], None],
                 on_reminder: Callable[[int, str], None]) -> None:
        self._scheduler = scheduler
        self._on_deadline = on_deadline
        self._on_reminder = on_reminder

    def sync(self, timings: Iterable[GameTiming], now: datetime) -> None:
        wanted: dict[str, tuple[Callable[[int, str], None], datetime, int, str]] = {}
        for t in timings:
            if t.deadline is not None:
                wanted[resolve_job_id(t.game_id, t.phase)] = (self._on_deadline, t.deadline, t.game_id, t.phase)
            if t.reminder_at is not None and t.deadline is not None and t.reminder_at < t.deadline:
                wanted[remind_job_id(t.game_id, t.phase)] = (self._on_reminder, t.reminder_at, t.game_id, t.phase)
        for job in self._scheduler.get_jobs():
            if job.id.startswith(("resolve:", "remind:")) and job.id not in wanted:
                job.remove()
        for job_id, (func, when, game_id, phase) in wanted.items():
            existing = self._scheduler.get_job(job_id)
            run_at = max(when, now)
            if existing is not None and existing.next_run_time == run_at:
                continue
            # misfire_grace_time=None: a job that is late (daemon busy or just restarted) still runs
            self._scheduler.add_job(func, "date", run_date=run_at, args=(game_id, phase), id=job_id,
                                    replace_existing=True, misfire_grace_time=None, coalesce=True)
            log.debug("scheduled %s at %s", job_id, run_at.isoformat())

    def job_ids(self) -> list[str]:
        return sorted(job.id for job in self._scheduler.get_jobs() if job.id.startswith(("resolve:", "remind:")))
