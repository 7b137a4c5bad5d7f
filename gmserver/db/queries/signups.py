"""Games announced for open sign-up, and the players' join, standby and observe requests."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gmserver.db.models import Announcement, Signup


def announcement(session: Session, name: str, *, for_update: bool = False) -> Announcement | None:
    query = select(Announcement).where(Announcement.name == name)
    return session.scalar(query.with_for_update() if for_update else query)


def announcement_names(session: Session) -> list[str]:
    return list(session.scalars(select(Announcement.name).order_by(Announcement.name)))


def open_announcements(session: Session) -> list[Announcement]:
    """The games still taking players, by name."""
    return list(session.scalars(select(Announcement).where(Announcement.status == "open")
                                .order_by(Announcement.name)))


def due_announcements(session: Session, now: datetime) -> list[str]:
    """The open games whose start time has come."""
    return list(session.scalars(select(Announcement.name).where(
        Announcement.status == "open", Announcement.starts_at.is_not(None), Announcement.starts_at <= now)))


def signups(session: Session, game_name: str, kind: str, statuses: Collection[str]) -> list[Signup]:
    """The game's requests of one kind in these states, in queue order (first confirmed first)."""
    return list(session.scalars(select(Signup).where(
        Signup.game_name == game_name, Signup.kind == kind, Signup.status.in_(statuses))
        .order_by(Signup.confirmed_at.is_(None), Signup.confirmed_at, Signup.id)))


def signup_of(session: Session, game_name: str, kind: str, address: str, statuses: Collection[str]) -> Signup | None:
    """The address's latest request of this kind for the game in one of these states."""
    return session.scalar(select(Signup).where(
        Signup.game_name == game_name, Signup.kind == kind, func.lower(Signup.address) == address,
        Signup.status.in_(statuses)).order_by(Signup.id.desc()).limit(1))


def signups_of_secret(session: Session, secrets: Collection[str]) -> list[Signup]:
    return list(session.scalars(select(Signup).where(Signup.secret.in_(secrets))))
