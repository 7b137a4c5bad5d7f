"""SQLite's writers in one process take the database's lock in turn, first come, first served.

Every SQLite transaction of gmserver starts with BEGIN IMMEDIATE (db/session.py), so the threads
of a daemon (intake, the outbox's sender, the listener storing mail) queue on the database's
write lock. SQLite lets a waiter poll for it: its busy handler sleeps 1, 2, 5, 10, 15, 20, 25...
ms between tries, and a thread that commits and begins again at once (intake through a burst of
mail) takes the lock back before a sleeping waiter wakes, again and again: in a burst of 200 order
mails the sender's confirmations waited behind most of the burst (docs/performance.md). The
connections of one engine queue here instead, on a ticket lock: each waiter is woken when the
one before it has committed or rolled back, in the order they asked. Another process (a second
daemon, the CLI) still meets SQLite's own busy handler, as before; so does a waiter still
without its turn after the busy timeout, which then queues on SQLite's lock as it did (so a
writer behind one that never ends fails after twice the busy timeout, not once).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import deque
from collections.abc import Callable


class WriterTurns:
    """A first-come, first-served lock: `take` waits until every earlier taker has given its turn
    back (at most `timeout` seconds: then it returns False and the caller goes on without a turn)."""

    def __init__(self, timeout: float) -> None:
        self._timeout = timeout
        self._changed = threading.Condition()
        self._waiting: deque[object] = deque()
        self._held = False

    def take(self) -> bool:
        ticket = object()
        with self._changed:
            self._waiting.append(ticket)
            if self._changed.wait_for(lambda: not self._held and self._waiting[0] is ticket, self._timeout):
                self._waiting.popleft()
                self._held = True
                return True
            self._waiting.remove(ticket)
            self._changed.notify_all()  # the one behind may be first now
            return False

    @property
    def queued(self) -> int:
        """Takers waiting for their turn."""
        with self._changed:
            return len(self._waiting)

    def give_back(self) -> None:
        with self._changed:
            self._held = False
            self._changed.notify_all()


def taking_turns(turns: WriterTurns) -> type[sqlite3.Connection]:
    """A sqlite3 connection class (sqlite3.connect's `factory`) that gives its turn back once its
    transaction has ended: after COMMIT or ROLLBACK has run, or when it is closed."""

    class TakingTurns(sqlite3.Connection):
        writer_turns = turns  # the lock its connections share
        holds_turn = False

        def take_turn(self) -> None:
            """Before BEGIN IMMEDIATE: wait for this connection's turn."""
            self.holds_turn = turns.take()

        def give_back_turn(self) -> None:
            if self.holds_turn:
                self.holds_turn = False
                turns.give_back()

        def ending(self, end: Callable[[], None]) -> None:
            """`end` (COMMIT, ROLLBACK, close), then the turn given back, whether `end` failed or not."""
            try:
                end()
            finally:
                self.give_back_turn()

        def commit(self) -> None:
            self.ending(super().commit)

        def rollback(self) -> None:
            self.ending(super().rollback)

        def close(self) -> None:
            self.ending(super().close)

    return TakingTurns
