"""Order sets as stored, one row per set a power sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Row, bindparam, insert, select
from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage, OrderSet
from gmserver.db.queries.rows import plain_rows

# Built once: every deadline reads each game's sets (building the statement cost more than
# running it on SQLite)
_PHASE_SETS = (select(OrderSet).where(OrderSet.game_id == bindparam("game_id"), OrderSet.phase == bindparam("phase"))
               .order_by(OrderSet.power, OrderSet.version))


def order_sets(session: Session, game_id: int, phase: str) -> list[OrderSet]:
    """The sets sent for the phase, by power, then in order of receipt."""
    return list(session.scalars(_PHASE_SETS, {"game_id": game_id, "phase": phase}))


_SETS_TABLE = OrderSet.__table__.c
_PHASE_SET_ROWS = (select(*_SETS_TABLE).where(_SETS_TABLE.game_id == bindparam("game_id"),
                                              _SETS_TABLE.phase == bindparam("phase"))
                   .order_by(_SETS_TABLE.power, _SETS_TABLE.version))


def order_set_rows(session: Session, game_id: int, phase: str) -> list[Row]:
    """`order_sets` as plain rows (the same fields, read-only) for a reader that changes none: the
    deadline reads every due game's sets, and the ORM's objects cost twice the statement."""
    return list(plain_rows(session, _PHASE_SET_ROWS, {"game_id": game_id, "phase": phase}))


_INSERT_SET = insert(OrderSet.__table__)  # built once: each order mail files one


def add_order_set(session: Session, values: Mapping[str, Any]) -> None:
    """Store a set (column -> value) with one INSERT, not an ORM object: filing reads it back as
    a plain row (`order_set_rows`), and the object's flush cost more than its statement."""
    plain_rows(session, _INSERT_SET, values)


# a player's own sets (the GM's and a proxy holder's are not the player's), newest first
PLAYERS_OWN = (OrderSet.by_gm.is_(False), OrderSet.by_proxy.is_(False))
NEWEST_FIRST = (OrderSet.received_at.desc(), OrderSet.id.desc())


def players_sets(session: Session, game_id: int) -> list[OrderSet]:
    """Every power's own sets in the game, any phase, newest first (PLAYERS_OWN)."""
    return list(session.scalars(select(OrderSet).where(OrderSet.game_id == game_id, *PLAYERS_OWN)
                                .order_by(*NEWEST_FIRST)))


_NEWEST_SET_MESSAGE = (select(InboundMessage.raw).join(OrderSet, OrderSet.inbound_id == InboundMessage.id)
                       .where(OrderSet.game_id == bindparam("game_id"), OrderSet.power == bindparam("power"),
                              OrderSet.phase == bindparam("phase"), OrderSet.by_gm.is_(False))
                       .order_by(OrderSet.version.desc()).limit(1))  # built once: each proven mail asks


def newest_set_message(session: Session, game_id: int, power: str, phase: str) -> bytes | None:
    """The raw mail of the power's newest set this phase that came by mail, if any."""
    return plain_rows(session, _NEWEST_SET_MESSAGE, {"game_id": game_id, "power": power, "phase": phase}).scalar()
