"""Proxies as stored (proxy_policy): one row per proxy asked for or given."""

from __future__ import annotations

from sqlalchemy import Row, bindparam, select
from sqlalchemy.orm import Session

from gmserver.db.models import Proxy
from gmserver.db.queries.rows import plain_rows

_OF_GAME = select(Proxy).where(Proxy.game_id == bindparam("game_id")).order_by(Proxy.id)  # built once: each mail asks


def proxies_of(session: Session, game_id: int) -> list[Proxy]:
    """The game's proxies, oldest first."""
    return list(session.scalars(_OF_GAME, {"game_id": game_id}))


_PROXIES = Proxy.__table__.c
_ROWS_OF_GAME = select(*_PROXIES).where(_PROXIES.game_id == bindparam("game_id")).order_by(_PROXIES.id)


def proxy_rows(session: Session, game_id: int) -> list[Row]:
    """`proxies_of` as plain rows (the same fields, read-only), for a reader that changes none:
    each order mail reads the game's proxies, and the ORM's objects cost more than the statement."""
    return list(plain_rows(session, _ROWS_OF_GAME, {"game_id": game_id}))


def latest(session: Session, game_id: int, power: str, statuses: tuple[str, ...]) -> Proxy | None:
    """The power's newest proxy with one of `statuses`."""
    return session.scalar(select(Proxy).where(Proxy.game_id == game_id, Proxy.power == power,
                                              Proxy.status.in_(statuses)).order_by(Proxy.id.desc()).limit(1))
