"""Fixtures shared by every layer: databases on both backends, a clock, the services."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import create_engine, text

# The engine refuses to import without a home directory (docs/architecture.md, "The engine").
os.environ.setdefault("HOME", "/tmp")

PG_ADMIN_URL = os.environ.get("GMSERVER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database on each backend; the PostgreSQL one is created and dropped."""
    from gmserver.db.migrate import upgrade

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'gm.db'}"
        upgrade(url)
        yield url
        return
    name = f"gmtest_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"PostgreSQL at {PG_ADMIN_URL} is required for the database tests: {error}")
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    try:
        upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Clock:
    """Time passed in: tests move it by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        from datetime import timedelta

        self.now = self.now + timedelta(**kwargs)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc))
