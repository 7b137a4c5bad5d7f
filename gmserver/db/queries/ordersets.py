"""Order sets as stored, one row per set a power sent."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from gmserver.db.models import OrderSet


def order_sets(session: Session, game_id: int, phase: str) -> list[OrderSet]:
    """The sets sent for the phase, by power, then in order of receipt."""
    return list(session.scalars(select(OrderSet).where(OrderSet.game_id == game_id, OrderSet.phase == phase)
                                .order_by(OrderSet.power, OrderSet.version)))


def powers_with_sets(session: Session, game_id: int, phase: str) -> list[str]:
    """The powers that sent at least one set for the phase."""
    return list(session.scalars(select(OrderSet.power).where(OrderSet.game_id == game_id, OrderSet.phase == phase)
                                .distinct()))


def recent_player_sets(session: Session, game_id: int, power: str, limit: int) -> list[OrderSet]:
    """The power's last `limit` sets in the game, any phase, newest first; the GM's own left out."""
    return list(session.scalars(select(OrderSet).where(OrderSet.game_id == game_id, OrderSet.power == power,
                                                       OrderSet.by_gm.is_(False))
                                .order_by(OrderSet.received_at.desc(), OrderSet.id.desc()).limit(limit)))
