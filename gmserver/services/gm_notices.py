"""Notices for the human GM about a game (a power in civil disorder, a replacement to find, a
solo to rule on, a stalemate): queued through the outbox in the caller's transaction, to
`[gm] alert_address` (or the GM's own address), each once under its dedupe key."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.services.context import Services
from gmserver.services.outbox import queue


def gm_notice_address(services: Services) -> str:
    return services.alerts_to or services.composer.gm_address


def notify_gm(session: Session, services: Services, *, key: str, subject: str, paragraphs: Sequence[str],
              now: datetime, game_id: int | None = None) -> bool:
    """Queue one notice (False if one with `key` was queued before). Marked auto-generated:
    the GM's mailbox may be gmserver's own, and intake never reads automated mail."""
    body = services.composer.render("gm/notice.txt.j2", {"paragraphs": list(paragraphs)})
    message = services.composer.compose(to=gm_notice_address(services), subject=subject, body=body,
                                        auto_submitted="auto-generated", date=now)
    return queue(session, message, kind="alert", dedupe_key=key, now=now, game_id=game_id)
