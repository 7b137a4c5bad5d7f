"""One pass over an IMAP mailbox: fetch, store, process, and only then mark \\Seen.

The mailbox is read in bounded batches (BATCH_MESSAGES messages, BATCH_BYTES bytes by their
RFC822.SIZE), each stored, processed and marked \\Seen before the next is fetched: a flood of
large messages never has to fit in memory at once, and a crash part-way through leaves the
batches already done marked, so the restart carries on instead of fetching the same flood again.
A message above BATCH_BYTES is fetched alone; it is still stored and answered, never skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from gmserver.mail.imap import FetchedMessage, ImapMailbox
from gmserver.rules.limits import MAX_MESSAGE_BYTES
from gmserver.services.base.context import Services
from gmserver.services.inbox.runner import process_pending, store

log = logging.getLogger(__name__)

# Messages per FETCH.
BATCH_MESSAGES = 50
# Bytes per FETCH (by RFC822.SIZE): at most one message of the largest size taken (rules.limits).
BATCH_BYTES = MAX_MESSAGE_BYTES


@dataclass(frozen=True)
class PollReport:
    fetched: int
    new: int
    processed: int


def poll_once(services: Services, mailbox: ImapMailbox, clock: Callable[[], datetime], *,
              batch_messages: int = BATCH_MESSAGES, batch_bytes: int = BATCH_BYTES,
              on_processed: Callable[[], None] | None = None) -> PollReport:
    """Store, process and mark \\Seen every unseen message, batch by batch, until none is left.
    `on_processed`: called after each message processed (runner.process_pending)."""
    fetched = new = processed = 0
    after_uid, uidvalidity = 0, None
    while True:
        batch = mailbox.fetch_unseen(limit=batch_messages, max_bytes=batch_bytes, after_uid=after_uid)
        if not batch:
            break
        if uidvalidity is not None and batch[0].uidvalidity != uidvalidity:
            # Another folder under the same name now: after_uid means nothing in it; start over.
            uidvalidity, after_uid = None, 0
            continue
        uidvalidity = batch[0].uidvalidity
        batch_new = 0
        for message in batch:
            now = clock()
            stored = store(services.sessions, message.raw, source="imap", now=now,
                           received_at=_received_at(message, now), mailbox=mailbox.settings.folder,
                           uidvalidity=message.uidvalidity, uid=message.uid)
            batch_new += not stored.duplicate
        done = process_pending(services, clock(), on_processed=on_processed)
        # Processing is committed (or parked as failed, still stored): now the server may forget.
        mailbox.mark_seen([m.uid for m in batch], uidvalidity=uidvalidity)
        log.info("imap: %d fetched (%d bytes), %d new, %d processed", len(batch),
                 sum(len(m.raw) for m in batch), batch_new, len(done))
        fetched, new, processed = fetched + len(batch), new + batch_new, processed + len(done)
        # Never look at these UIDs again in this pass, even if \Seen did not stick (a server
        # that forgets flags, another client clearing it): the next pass retries them.
        after_uid = batch[-1].uid
        del batch, message  # let this batch go before the next is fetched
    if not fetched:
        # Stored but not yet processed (a crash, a replay): process them all the same.
        processed = len(process_pending(services, clock(), on_processed=on_processed))
    return PollReport(fetched, new, processed)


def _received_at(message: FetchedMessage, now: datetime) -> datetime:
    """When the message reached the mailbox: its INTERNALDATE, but never later than now (it was
    there when we fetched it: a server clock running ahead must not make it look late)."""
    if message.received_at is None:
        return now
    return min(message.received_at, now)
