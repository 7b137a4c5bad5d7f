"""Proxies as stored (proxy_policy): one row per proxy asked for or given."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from gmserver.db.models import Proxy

_OF_GAME = select(Proxy).where(Proxy.game_id == bindparam("game_id")).order_by(Proxy.id)  # built once: each mail asks


def proxies_of(session: Session, game_id: int) -> list[Proxy]:
    """The game's proxies, oldest first."""
    return list(session.scalars(_OF_GAME, {"game_id": game_id}))


def latest(session: Session, game_id: int, power: str, statuses: tuple[str, ...]) -> Proxy | None:
    """The power's newest proxy with one of `statuses`."""
    return session.scalar(select(Proxy).where(Proxy.game_id == game_id, Proxy.power == power,
                                              Proxy.status.in_(statuses)).order_by(Proxy.id.desc()).limit(1))
