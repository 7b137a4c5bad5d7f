"""Players' absences: those registered (and not cancelled), and offers waiting for a reply."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import select
from sqlalchemy.orm import Session

from gmserver.db.models import AbsenceRow

# an absence in force: registered (not merely offered) and not cancelled
IN_FORCE = (AbsenceRow.registered_at.is_not(None), AbsenceRow.cancelled_at.is_(None))


def registered(session: Session, game_id: int, power: str | None = None) -> list[AbsenceRow]:
    """The game's registered absences not cancelled (one power's where named), by first day."""
    query = select(AbsenceRow).where(AbsenceRow.game_id == game_id, *IN_FORCE)
    if power is not None:
        query = query.where(AbsenceRow.power == power)
    return list(session.scalars(query.order_by(AbsenceRow.first_day, AbsenceRow.id)))


def offered(session: Session, game_id: int, power: str) -> list[AbsenceRow]:
    """The absences offered to a power's player in answer to an out-of-office auto-reply."""
    return list(session.scalars(select(AbsenceRow).where(
        AbsenceRow.game_id == game_id, AbsenceRow.power == power, AbsenceRow.offered_at.is_not(None))))


def offers_of_secret(session: Session, secrets: Collection[str]) -> list[AbsenceRow]:
    """The offers whose one-time reply address carries one of `secrets`."""
    return list(session.scalars(select(AbsenceRow).where(AbsenceRow.offer_secret.in_(secrets))))
