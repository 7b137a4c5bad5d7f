"""What every use case needs, passed in (one place, the daemon or the CLI, builds it)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session, sessionmaker

from gmserver.mail.compose import Composer
from gmserver.rules.geography import MapInfo


@dataclass(frozen=True)
class Services:
    sessions: sessionmaker[Session]
    composer: Composer
    geography: MapInfo
