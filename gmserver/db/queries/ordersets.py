"""Order sets as stored, one row per set a power sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Row, bindparam, insert, select, tuple_
from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage, OrderSet
from gmserver.db.queries.rows import holding, keep_read_ahead, plain_rows, read_ahead

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
    deadline reads every due game's sets, and the ORM's objects cost twice the statement. Within
    a batch of deadlines, as read ahead for it (`read_sets_ahead`)."""
    ahead = read_ahead(session, _SETS_AHEAD)
    if ahead is not None and (game_id, phase) in ahead:
        return list(ahead[game_id, phase])
    return list(plain_rows(session, _PHASE_SET_ROWS, {"game_id": game_id, "phase": phase}))


_POWER_SET_ROWS = _PHASE_SET_ROWS.where(_SETS_TABLE.power == bindparam("power"))  # built once: each order mail


def power_set_rows(session: Session, game_id: int, phase: str, power: str) -> list[Row]:
    """`order_set_rows` of one power: filing a set reads only its own power's (the others' rows,
    their orders parsed, were read for nothing)."""
    return list(plain_rows(session, _POWER_SET_ROWS, {"game_id": game_id, "phase": phase, "power": power}))


_INSERT_SET = insert(OrderSet.__table__)  # built once: each order mail files one


def add_order_set(session: Session, values: Mapping[str, Any]) -> None:
    """Store a set (column -> value) with one INSERT, not an ORM object: filing reads it back as
    a plain row (`order_set_rows`), and the object's flush cost more than its statement."""
    plain_rows(session, _INSERT_SET, values)


_SETS_AHEAD = "order_sets"
_SET_ROWS_OF_GAMES = (select(*_SETS_TABLE).where(tuple_(_SETS_TABLE.game_id, _SETS_TABLE.phase).in_(
    bindparam("games", expanding=True))).order_by(_SETS_TABLE.game_id, _SETS_TABLE.power, _SETS_TABLE.version))


def read_sets_ahead(session: Session, phases: list[tuple[int, str]]) -> None:
    """Within `rows.held_writes` (a batch of deadlines), `order_set_rows` of every (game id,
    phase) of `phases` in one statement, kept while no statement may change the sets."""
    if holding(session) is None or not phases:
        return
    by_phase: dict[tuple[int, str], list[Row]] = {game_phase: [] for game_phase in phases}
    for row in plain_rows(session, _SET_ROWS_OF_GAMES, {"games": phases}):
        by_phase[row.game_id, row.phase].append(row)
    keep_read_ahead(session, _SETS_AHEAD, _SET_ROWS_OF_GAMES, by_phase)


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
