"""One pass over an IMAP mailbox: fetch, store, process, and only then mark \\Seen."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from gmserver.mail.imap import ImapMailbox
from gmserver.services.context import Services
from gmserver.services.intake import process_pending, store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PollReport:
    fetched: int
    new: int
    processed: int


def poll_once(services: Services, mailbox: ImapMailbox, clock: Callable[[], datetime]) -> PollReport:
    fetched = mailbox.fetch_unseen()
    new = 0
    for message in fetched:
        stored = store(services.sessions, message.raw, source="imap", now=clock(), mailbox=mailbox.settings.folder,
                       uidvalidity=message.uidvalidity, uid=message.uid)
        new += not stored.duplicate
    processed = process_pending(services, clock())
    # Processing is committed (or parked as failed, still stored): now the server may forget.
    if fetched:
        mailbox.mark_seen([m.uid for m in fetched], uidvalidity=fetched[0].uidvalidity)
        log.info("imap: %d fetched, %d new, %d processed", len(fetched), new, len(processed))
    return PollReport(len(fetched), new, len(processed))
