"""Every GM action recorded: a row of gm_actions (db/queries/gm_actions.py) and a log line (the
GM's audit trail in the log too). The announcement to players is sent by each action itself
(services.corrections, services.held, services.gm_controls)."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.queries.gm_actions import record_action as insert_action

log = logging.getLogger("gmserver.gm_actions")


def record_action(session: Session, game_id: int | None, action: str, detail: str, now: datetime, *,
                  by: str = "cli") -> None:
    """Record that the GM did `action` (e.g. "rollback", "correct-orders", "release", "refuse"),
    by `by` ("cli" or the GM's address). An action on no game is logged only."""
    log.info("GM action %s (game %s) at %s: %s", action, game_id, now.isoformat(timespec="seconds"), detail)
    if game_id is not None:
        insert_action(session, game_id, action, {}, by, now, detail)
