"""Inbound mail: store it first, then process each message in its own transaction.

docs/architecture.md, "The life of a message": the raw bytes are committed before anything else happens (and
before the IMAP server is told \\Seen or the SMTP client gets its 250: services.inbox.store);
processing claims a pending row, does everything the message causes (order set, replies in the
outbox: services.inbox.routing, then a handler) and marks it done in one transaction; an
exception parks the row as `failed` with its traceback. Filing an order set is
services/game/filing.py (`file_orders`, which the orders handler calls), with PhaseMoved, which
it raises and process_one catches.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from datetime import datetime

from gmserver.db.queries.inbound import (
    claim,
    park,
    pending_attempts_for_update,
    pending_for_update,
    requeue_failed,
    uncount_claim,
    unsaved,
    write_changes,
)
from gmserver.db.queries.inbound import (
    pending_ids as pending_inbound_ids,
)
from gmserver.db.session import connection_transaction, transaction
from gmserver.services.base.context import Services
from gmserver.services.base.reply_limits import (  # noqa: F401  (the limits are part of intake's interface)
    CONFIRMATION_KINDS,
    CONFIRMATIONS_PER_HOUR,
    PLAYER_REFUSALS_PER_HOUR,
    REFUSAL_KINDS,
    STRANGER_REFUSALS_PER_HOUR,
    STRANGER_REPLY_INTERVAL,
)
from gmserver.services.features.held import HELD
from gmserver.services.features.senders import DkimNeeded
from gmserver.services.game.filing import PhaseMoved
from gmserver.services.game.games import game_view  # noqa: F401

# what callers and tests know as intake's: storing, reading one message, the GM's view of it
from gmserver.services.inbox.routing import (  # noqa: F401
    ORDER_KINDS,
    Kept,
    Prepared,
    gm_addresses,
    kept,
    prepare,
)
from gmserver.services.inbox.routing import (
    handle as _handle,
)
from gmserver.services.inbox.store import FINGERPRINT_HEADERS, Stored, fingerprint, store  # noqa: F401

log = logging.getLogger(__name__)


def pending_ids(sessions) -> list[int]:
    with transaction(sessions) as session:
        return pending_inbound_ids(session)


# DKIM key look-ups run beside the queue, never in front of it: a forger's signatures from
# domains whose DNS never answers cost their budget (mail/dkim.py) on a thread of their own while
# the players' mail behind them is read and answered.
LOOKUP_THREADS = 4
_LOOKUP_POLL_SECONDS = 0.2


def process_pending(services: Services, now: datetime, *,
                    on_processed: Callable[[], None] | None = None) -> list[tuple[int, str | None]]:
    """Process every pending message, oldest first, until none is left (messages stored while
    this runs included); returns (id, outcome) for each one done. A message whose sender check
    needs DNS look-ups waits for them on a look-up thread, and is processed once they are done.
    `on_processed` is called after each message done (committed), so that what it queued (its
    confirmation) can be sent while the rest are processed, not only when this returns."""
    done: list[tuple[int, str | None]] = []

    def processed(row_id: int, outcome: str | None) -> None:
        if outcome is not None:
            done.append((row_id, outcome))
            if on_processed is not None:
                on_processed()

    tried: set[int] = set()
    with ThreadPoolExecutor(max_workers=LOOKUP_THREADS, thread_name_prefix="dkim") as lookups:
        waiting: dict[Future[None], int] = {}
        while True:
            if ids := [row_id for row_id in pending_ids(services.sessions) if row_id not in tried]:
                for row_id in ids:
                    tried.add(row_id)
                    try:
                        outcome = process_one(services, row_id, now, defer_lookups=True)
                    except DkimNeeded as needed:
                        waiting[lookups.submit(needed.verify)] = row_id
                        continue
                    processed(row_id, outcome)
                continue
            if not waiting:
                return done
            finished, _ = wait(waiting, timeout=_LOOKUP_POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in finished:
                row_id = waiting.pop(future)
                processed(row_id, process_one(services, row_id, now))


# Claims of one message that may end without a word (the process killed: out of memory, SIGKILL,
# a crash in C code) before it is parked unread: one bad message must never block those after it
# for ever, and a message that fails by chance (the host rebooted) gets two more tries.
MAX_ATTEMPTS = 3


def process_one(services: Services, inbound_id: int, now: datetime, *, defer_lookups: bool = False) -> str | None:
    """Process one stored message exactly once; None if someone else has it or it is done.
    `defer_lookups`: a message that needs DNS look-ups raises DkimNeeded (its claim undone) for
    the caller to run them, instead of running them here.

    The claim is counted in its own committed transaction before the work starts, so that a
    message that kills the process is known as such on the next try; after MAX_ATTEMPTS such
    claims it is parked as failed without being read again. The work itself holds the row lock
    (FOR UPDATE), so two workers never process one message. It waits for that lock rather than
    skipping a locked row: the claim was counted, and a worker that skipped here could find the
    row locked only by another's claim bookkeeping (_count_claim, _uncount_claim), so that every
    worker skipped it and a pending message was left for the next poll. The wait is short: a
    worker that is processing the message holds its lock from before our claim, which then
    finds it "busy"."""
    with _in_flight(inbound_id) as mine:
        if not mine:
            return None  # another thread of this process has it (see _IN_FLIGHT)
        return _process_claimed(services, inbound_id, now, defer_lookups=defer_lookups)


# The messages a thread of this process is working on. The message is read outside any
# transaction (_prepare), so its row is not locked meanwhile: without this, the process's other
# threads (the intake job, the DNS look-up threads) would each count a claim on it while the first
# reads it, and the third would park a message nobody had failed on as "stopped the processor 3
# times". Each process counts one claim at a time on a message; several daemons sharing a
# PostgreSQL database count one each, fewer than MAX_ATTEMPTS.
_IN_FLIGHT: set[int] = set()
_IN_FLIGHT_LOCK = threading.Lock()


@contextmanager
def _in_flight(inbound_id: int) -> Iterator[bool]:
    with _IN_FLIGHT_LOCK:
        mine = inbound_id not in _IN_FLIGHT
        _IN_FLIGHT.add(inbound_id)
    try:
        yield mine
    finally:
        if mine:
            with _IN_FLIGHT_LOCK:
                _IN_FLIGHT.discard(inbound_id)


def _process_claimed(services: Services, inbound_id: int, now: datetime, *, defer_lookups: bool) -> str | None:
    raw = _count_claim(services, inbound_id, now)
    if not isinstance(raw, bytes):
        return None if raw == "busy" else "failed"
    try:
        prepared = _prepare(inbound_id, raw)
        with transaction(services.sessions) as session:
            # no SKIP LOCKED here (see above); after the wait the status is tested again
            loaded = pending_for_update(session, inbound_id)
            if loaded is not None:
                # what the work sets on the row (its kind, game, power) is written with the
                # outcome, in one UPDATE
                row = unsaved(loaded, raw)
                outcome = _handle(session, services, row, now, prepared)
                # hold_for_gm: the message waits for the GM (`gmserver inbox release` or `refuse`)
                row.status = "held" if outcome == HELD else "done"
                row.outcome, row.processed_at = outcome, now
                write_changes(session, row, loaded)
                return outcome
        _uncount_claim(services, inbound_id)  # another worker took it between our two transactions
        return None
    except PhaseMoved:
        log.info("inbound message %s: its game was adjudicated meanwhile; it stays queued", inbound_id)
        _uncount_claim(services, inbound_id)
        return None
    except DkimNeeded as needed:
        # DNS look-ups outside the transaction, then once more with their result remembered
        _uncount_claim(services, inbound_id)
        if defer_lookups:
            raise
        needed.verify()
        return _process_claimed(services, inbound_id, now, defer_lookups=False)
    except Exception as problem:  # noqa: BLE001  park it for the GM; never lose it, never crash the loop
        summary = f"{type(problem).__name__}: {(str(problem).splitlines() or [''])[0]}"
        error = summary + "\n\n" + traceback.format_exc()
        log.error("inbound message %s parked: %s", inbound_id, summary)
        with transaction(services.sessions) as session:
            park(session, inbound_id, error, now, only_pending=True)
        return "failed"


def _prepare(inbound_id: int, raw: bytes) -> Prepared:
    """The message read (services.inbox.routing.prepare) outside any transaction: on SQLite each
    holds the write lock from its start (BEGIN IMMEDIATE), and a stranger's message must not keep
    players' mail from being stored meanwhile."""
    started = time.thread_time()
    prepared = prepare(raw)
    if (seconds := time.thread_time() - started) > READ_CPU_SECONDS:
        log.warning("inbound message %s took %.1f s of CPU to read (%d bytes)", inbound_id, seconds, len(raw))
    return prepared


# What reading one message (parsing it, converting its text) should cost at most, in CPU seconds:
# the bounds of gmserver.rules.limits and gmserver.rules.reading.message keep the worst hostile
# message measured under a third of it (benchmarks/bench_hostile.py); more is logged.
READ_CPU_SECONDS = 1.0


def _count_claim(services: Services, inbound_id: int, now: datetime) -> bytes | str:
    """The message's raw bytes once its claim is counted (go on), "busy" (another worker has it,
    or it is no longer pending) or "parked" (it ended MAX_ATTEMPTS claims without a word: parked
    unread)."""
    with connection_transaction(services.sessions) as connection:
        if (raw := claim(connection, inbound_id, MAX_ATTEMPTS)) is not None:
            return raw
        # not claimed: someone holds it, it is no longer pending, or its claims are spent
        if (attempts := pending_attempts_for_update(connection, inbound_id)) is None or attempts < MAX_ATTEMPTS:
            return "busy"
        error = (f"Processing this message stopped the processor {attempts} times (killed or crashed "
                 "before it could finish: out of memory?); parked without reading it again. "
                 "`gmserver inbox replay` tries it once more.")
        log.error("inbound message %s parked unread: it stopped the processor %d times", inbound_id, attempts)
        park(connection, inbound_id, error, now, only_pending=False)
        return "parked"


def _uncount_claim(services: Services, inbound_id: int) -> None:
    """A claim that ended without reading the message to its end, but cleanly (the message stays
    queued): it must not count towards MAX_ATTEMPTS."""
    with transaction(services.sessions) as session:
        uncount_claim(session, inbound_id)


def replay(services: Services, inbound_id: int, now: datetime) -> str | None:
    """Put a parked message back in the queue and process it (after the GM fixed the cause)."""
    with transaction(services.sessions) as session:
        requeue_failed(session, inbound_id)
    return process_one(services, inbound_id, now)
