"""A kick while the job runs marks it to run again, without a call of its own (Daemon.kick)."""

from __future__ import annotations

import threading

from gmserver.daemon import RerunWhenKicked


def test_a_job_that_is_not_running_is_not_marked_and_does_not_run() -> None:
    runs: list[int] = []
    job = RerunWhenKicked(lambda: runs.append(1), threading.Event())

    assert job.again_if_running() is False
    assert runs == []


def test_a_mark_made_while_the_job_runs_runs_it_once_more_when_the_run_ends() -> None:
    started, release = threading.Event(), threading.Event()
    runs: list[int] = []

    def work() -> None:
        runs.append(len(runs) + 1)
        if len(runs) == 1:
            started.set()
            release.wait(10)

    job = RerunWhenKicked(work, threading.Event())
    runner = threading.Thread(target=job)
    runner.start()
    assert started.wait(10)
    assert job.again_if_running() is True
    assert job.again_if_running() is True  # marks do not add up: one more run
    release.set()
    runner.join(10)

    assert runs == [1, 2]
    assert job.again_if_running() is False  # the call has ended


def test_a_call_made_while_the_job_runs_returns_at_once_and_the_running_call_runs_again() -> None:
    started, release = threading.Event(), threading.Event()
    runs: list[str] = []

    def work() -> None:
        runs.append(threading.current_thread().name)
        if len(runs) == 1:
            started.set()
            release.wait(10)

    job = RerunWhenKicked(work, threading.Event())
    runner = threading.Thread(target=job, name="first")
    runner.start()
    assert started.wait(10)
    job()  # returns without running: the first call has it
    release.set()
    runner.join(10)

    assert runs == ["first", "first"]


def test_a_job_that_raises_can_be_called_again() -> None:
    runs: list[int] = []

    def fails() -> None:
        runs.append(1)
        raise RuntimeError("the database went away")

    job = RerunWhenKicked(fails, threading.Event())
    for _ in range(2):
        try:
            job()
        except RuntimeError:
            pass
    assert runs == [1, 1]
    assert job.again_if_running() is False


def test_nothing_runs_again_once_the_daemon_is_stopping() -> None:
    stopping = threading.Event()
    started, release = threading.Event(), threading.Event()
    runs: list[int] = []

    def work() -> None:
        runs.append(1)
        started.set()
        release.wait(10)

    job = RerunWhenKicked(work, stopping)
    runner = threading.Thread(target=job)
    runner.start()
    assert started.wait(10)
    job.again_if_running()
    stopping.set()
    release.set()
    runner.join(10)

    assert runs == [1]
