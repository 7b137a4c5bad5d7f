"""Players of a game."""

from __future__ import annotations

from sqlalchemy import Row, bindparam, func, or_, select
from sqlalchemy.orm import Session

from gmserver.db.models import Game, Player, PlayerHistory
from gmserver.db.queries.rows import plain_rows


def player_of(session: Session, game_id: int, power: str) -> Player | None:
    return session.scalar(select(Player).where(Player.game_id == game_id, Player.power == power))


_PLAYERS = Player.__table__.c
_PLAYER_NOW = select(*_PLAYERS).where(_PLAYERS.game_id == bindparam("game_id"),
                                      _PLAYERS.power == bindparam("power"))  # built once: each mail asks


def player_now(session: Session, game_id: int, power: str) -> Row | None:
    """The power's player row as the database has it now, even where this session loaded it
    before (filing reads its civil disorder and clarifications after locking the game): a plain
    row, read-only (each order mail reads it; the ORM's object cost twice the statement)."""
    return plain_rows(session, _PLAYER_NOW, {"game_id": game_id, "power": power}).first()


def player_abbreviations(session: Session, game_id: int, power: str) -> dict[str, str] | None:
    """The abbreviations the power's player listed (004 I(1) ¶2), if any."""
    return session.scalar(select(Player.abbreviations).where(Player.game_id == game_id, Player.power == power))


def games_of_address(session: Session, address: str) -> list[int]:
    """The active games in which `address` (as written) is a player's address or fallback."""
    return list(session.scalars(select(Player.game_id).join(Game).where(
        Game.status == "active", or_(Player.address == address, Player.fallback_address == address))))


def players_of_address(session: Session, address: str) -> list[Player]:
    """The players with a password whose address or fallback is `address` (lower case)."""
    return list(session.scalars(select(Player).where(
        Player.secret.is_not(None),
        or_(func.lower(Player.address) == address, func.lower(Player.fallback_address) == address))))


def plays_in_an_active_game(session: Session, address: str) -> bool:
    """Whether `address` (lower case) is a player's address or fallback in an active game, in any case."""
    return session.scalar(select(Player.id).join(Game).where(
        Game.status == "active",
        or_(func.lower(Player.address) == address, func.lower(Player.fallback_address) == address),
    ).limit(1)) is not None


def former_players(session: Session, game_id: int) -> list[PlayerHistory]:
    """The players replaced in the game, by power, in the order they left."""
    return list(session.scalars(select(PlayerHistory).where(PlayerHistory.game_id == game_id)
                                .order_by(PlayerHistory.power, PlayerHistory.id)))


def awaiting_contact(session: Session, game_id: int | None = None) -> list[Player]:
    """Players of active games (or of the game `game_id`) gmserver waits to hear from after a
    missed turn (001 V(1))."""
    query = select(Player).join(Game).where(Game.status == "active", Player.contact_due_since.is_not(None))
    if game_id is not None:
        query = query.where(Player.game_id == game_id)
    return list(session.scalars(query.order_by(Player.id)))


def seats_of_address(session: Session, address: str) -> tuple[list[Player], list[PlayerHistory]]:
    """Every seat `address` (lower case) holds or held, as main or fallback address: the players
    of today and those replaced (player_history), in every game of the server."""
    now = list(session.scalars(select(Player).where(
        or_(func.lower(Player.address) == address, func.lower(Player.fallback_address) == address))
        .order_by(Player.id)))
    before = list(session.scalars(select(PlayerHistory).where(
        or_(func.lower(PlayerHistory.address) == address, func.lower(PlayerHistory.fallback_address) == address))
        .order_by(PlayerHistory.id)))
    return now, before
