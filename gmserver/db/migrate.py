"""Alembic, driven from code so that `gmserver db upgrade` needs no alembic.ini."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from alembic import command
from alembic.config import Config as AlembicConfig

from gmserver.paths import MIGRATIONS_DIR


def alembic_config(database_url: str) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


@contextmanager
def _quiet_alembic() -> Iterator[None]:
    """Alembic logs every connection ("Context impl SQLiteImpl.") and every step at INFO; the
    caller says in one line what the schema is now. The steps still show with -v (DEBUG)."""
    logger = logging.getLogger("alembic")
    if logging.getLogger().isEnabledFor(logging.DEBUG):
        yield
        return
    previous = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(previous)


def upgrade(database_url: str, revision: str = "head") -> None:
    with _quiet_alembic():
        command.upgrade(alembic_config(database_url), revision)


def current_revision(database_url: str) -> str | None:
    """The schema's revision; None when not initialised (a SQLite file that does not exist is
    not created by asking)."""
    from alembic.runtime.migration import MigrationContext  # noqa: PLC0415

    from gmserver.db.session import make_engine, missing_sqlite_file  # noqa: PLC0415

    if missing_sqlite_file(database_url):
        return None
    engine = make_engine(database_url)
    try:
        with _quiet_alembic(), engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
