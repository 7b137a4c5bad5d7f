"""The end of a game, however it ends: a solo or the last phase at the deadline
(services/turn/turns.py), a passed draw or concession (services/features/vote_tally.py), or the
GM's `game end` (services/commands/gm_controls.py). Each of them records and announces the end
in its own words; what follows an end is the same for all, and is here.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db.models import Game
from gmserver.services.base.context import Services
from gmserver.services.features import held
from gmserver.services.features.press import disclose_authors


def finish_game(session: Session, services: Services, game: Game, now: datetime, *, by: str, reason: str) -> int:
    """`game` is over: finished, with no deadline, not paused; the GM learns who wrote the press
    that did not name its author; every message held for it is refused with `reason` (`by` whom),
    since held mail must not outlive its game. How many held messages were refused."""
    game.status, game.deadline, game.paused = "finished", None, False
    disclose_authors(session, services, game, now)  # 000 X(2): to the GM only, however the game ended
    return held.refuse_all_of_game(session, services, game, now, by=by, reason=reason)
