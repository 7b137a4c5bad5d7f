"""A SQLite engine's threads take the database's lock in the order they asked for it
(db/writer_turns.py): a thread that commits and begins again at once does not keep it from a
thread that was waiting, as it did when the waiter polled in SQLite's busy handler."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from gmserver.db.session import make_engine

pytestmark = pytest.mark.integration


def test_a_waiting_writer_goes_next_not_after_a_busy_writers_loop(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'gm.db'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE done (who TEXT)"))
        turns = type(connection.connection.dbapi_connection).writer_turns
    first_begun = threading.Event()

    def busy_writer() -> None:  # intake through a burst: commit, begin again at once
        for number in range(50):
            with engine.begin() as connection:
                if number == 0:
                    first_begun.set()
                    while turns.queued < 1:  # the other writer is waiting for the lock
                        threading.Event().wait(0.001)
                connection.execute(text("INSERT INTO done VALUES ('busy')"))

    def other_writer() -> None:  # the outbox's sender, one transaction
        first_begun.wait(10)
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO done VALUES ('other')"))

    threads = [threading.Thread(target=busy_writer), threading.Thread(target=other_writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    with engine.connect() as connection:
        order = list(connection.scalars(text("SELECT who FROM done ORDER BY rowid")))
    engine.dispose()
    assert len(order) == 51
    assert order.index("other") == 1
