"""Complaints about a passed draw (002 DRAWS 5): filled in below."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.services.context import Services


def record(session: Session, services: Services, game_id: int, power: str, inbound_id: int | None,
           now: datetime) -> str:
    return "Your complaint was not recorded: this game's house rules hold no revote on complaints about a draw."
