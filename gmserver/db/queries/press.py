"""Press items as stored."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from gmserver.db.models import Player, Press, PressDigestItem


def press_of_phase(session: Session, game_id: int, phase: str, status: str) -> list[Press]:
    """The phase's press items with `status`, in the order they arrived."""
    return list(session.scalars(select(Press).where(Press.game_id == game_id, Press.phase == phase,
                                                    Press.status == status).order_by(Press.id)))


def replace_press(session: Session, game_id: int, phase: str, author: str) -> int:
    """Mark the author's press waiting for the phase's report (or for the GM) as replaced; how many."""
    result = session.execute(update(Press).where(
        Press.game_id == game_id, Press.phase == phase, Press.author == author,
        Press.status.in_(("report", "held"))).values(status="replaced"))
    return result.rowcount or 0


def press_of_game(session: Session, game_id: int, status: str | None = None) -> list[Press]:
    """The game's press items (with `status`, if given), in the order they arrived."""
    query = select(Press).where(Press.game_id == game_id)
    if status is not None:
        query = query.where(Press.status == status)
    return list(session.scalars(query.order_by(Press.id)))


def press_count(session: Session, game_id: int, phase: str, author: str, statuses: tuple[str, ...]) -> int:
    """How many of the phase's press items `author` has with one of `statuses`."""
    return session.scalar(select(func.count()).select_from(Press).where(
        Press.game_id == game_id, Press.phase == phase, Press.author == author,
        Press.status.in_(statuses))) or 0


def digest_players(session: Session, game_id: int) -> dict[str, int]:
    """power -> player id, for the players of the game who chose SET PRESS digest (and still play)."""
    return {power: player_id for power, player_id in session.execute(select(Player.power, Player.id).where(
        Player.game_id == game_id, Player.press_delivery == "digest", Player.resigned_at.is_(None)))}


def pending_digests(session: Session) -> list[int]:
    """The players with press items waiting for their digest mail."""
    return list(session.scalars(select(PressDigestItem.player_id).where(PressDigestItem.sent_at.is_(None))
                                .distinct().order_by(PressDigestItem.player_id)))


def digest_items(session: Session, player_id: int) -> list[PressDigestItem]:
    """The press items waiting for one player's digest, oldest first."""
    return list(session.scalars(select(PressDigestItem).where(
        PressDigestItem.player_id == player_id, PressDigestItem.sent_at.is_(None)).order_by(PressDigestItem.id)))
