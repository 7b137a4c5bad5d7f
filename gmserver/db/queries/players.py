"""Players of a game."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from gmserver.db.models import Player


def player_of(session: Session, game_id: int, power: str) -> Player | None:
    return session.scalar(select(Player).where(Player.game_id == game_id, Player.power == power))
