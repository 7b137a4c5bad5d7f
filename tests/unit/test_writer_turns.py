"""db/writer_turns.py: SQLite's writers of one process take the database's lock in turn."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from gmserver.db.writer_turns import WriterTurns, taking_turns


def _queued(turns: WriterTurns, count: int) -> None:
    """Wait until `count` takers are queued (they block in `take`; nothing is timed)."""
    while turns.queued < count:
        threading.Event().wait(0.001)


def test_waiters_get_their_turn_in_the_order_they_asked() -> None:
    turns, order = WriterTurns(timeout=30), []

    def writer(name: str) -> None:
        assert turns.take()
        order.append(name)
        turns.give_back()

    assert turns.take()
    threads = []
    for count, name in enumerate(["second", "third", "fourth"], start=1):
        threads.append(threading.Thread(target=writer, args=(name,)))
        threads[-1].start()
        _queued(turns, count)
    order.append("first")
    turns.give_back()
    for thread in threads:
        thread.join(10)
    assert order == ["first", "second", "third", "fourth"]


def test_a_waiter_without_a_turn_after_the_timeout_goes_on_without_one() -> None:
    turns = WriterTurns(timeout=0)
    assert turns.take()
    assert not turns.take()
    assert turns.queued == 0
    turns.give_back()
    assert turns.take()


@pytest.mark.parametrize("end", ["commit", "rollback", "close"])
def test_a_connection_gives_its_turn_back_when_its_transaction_ends(tmp_path: Path, end: str) -> None:
    turns = WriterTurns(timeout=0)
    connection = sqlite3.connect(tmp_path / "gm.db", isolation_level=None, factory=taking_turns(turns))
    connection.take_turn()
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("CREATE TABLE t (x)")
    assert not turns.take()  # held by the connection
    getattr(connection, end)()
    assert turns.take()
    turns.give_back()
    if end != "close":
        connection.close()


def test_a_connection_that_did_not_take_a_turn_gives_none_back(tmp_path: Path) -> None:
    turns = WriterTurns(timeout=0)
    connection = sqlite3.connect(tmp_path / "gm.db", isolation_level=None, factory=taking_turns(turns))
    assert turns.take()  # someone else's turn
    connection.rollback()  # as the pool does when a connection comes back unused
    connection.close()
    assert not turns.take()  # still theirs
