"""What the web pages read besides games and phases: the stored turn reports of a game and the
players' page tokens."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage, OutboxMessage, PageToken, StoredReport


def reports_of(session: Session, game_id: int) -> list[StoredReport]:
    """The game's stored turn reports, oldest first (a re-adjudication's after the one it replaced)."""
    return list(session.scalars(select(StoredReport).where(StoredReport.game_id == game_id)
                                .order_by(StoredReport.id)))


def tokens_of_game(session: Session, game_id: int) -> list[PageToken]:
    return list(session.scalars(select(PageToken).where(PageToken.game_id == game_id).order_by(PageToken.id)))


def tokens_of_player(session: Session, player_id: int) -> list[PageToken]:
    return list(session.scalars(select(PageToken).where(PageToken.player_id == player_id).order_by(PageToken.id)))


def count_inbound(session: Session, status: str) -> int:
    return session.scalar(select(func.count()).select_from(InboundMessage).where(InboundMessage.status == status)) or 0


def count_outbox(session: Session, status: str) -> int:
    return session.scalar(select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == status)) or 0


def recent_alerts(session: Session, limit: int) -> list[OutboxMessage]:
    """The latest alerts mailed to the GM, newest first."""
    return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert")
                                .order_by(OutboxMessage.id.desc()).limit(limit)))
