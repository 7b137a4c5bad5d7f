"""Every GM action recorded. Until the gm_actions table of the "gm" work lands, this is the one
call site: it writes the action to the log (the GM's audit trail today), and the announcement
to players is sent by each action itself (services.corrections, services.held)."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.orm import Session

log = logging.getLogger("gmserver.gm_actions")


def record_action(session: Session, game_id: int | None, action: str, detail: str, now: datetime) -> None:
    """Record that the GM did `action` (e.g. "rollback", "correct-orders", "release", "refuse")."""
    # TODO(gm_actions): insert a row into gm_actions in `session` once that table exists
    log.info("GM action %s (game %s) at %s: %s", action, game_id, now.isoformat(timespec="seconds"), detail)
