"""Fixtures shared by every layer: databases on both backends, a clock, the services."""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
import uuid
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import create_engine, text

# The engine refuses to import without a home directory (docs/architecture.md, "The engine").
os.environ.setdefault("HOME", "/tmp")

PG_ADMIN_URL = os.environ.get("GMSERVER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


class PostgresDatabases:
    """Fresh migrated PostgreSQL databases for one session (one per xdist worker).

    The schema is migrated once into a template; each test gets `CREATE DATABASE ... TEMPLATE`,
    a byte copy of it (about 0.2 s instead of 0.6 s to migrate). Dropping a database forces a
    checkpoint on PostgreSQL 15 (0.3 to 1.5 s measured on the 2-CPU machine), so drops run in a
    background thread while the next tests go on; the session's end waits for the last of them.
    """

    def __init__(self) -> None:
        self._admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        self.template = f"gmtemplate_{uuid.uuid4().hex[:12]}"
        self._drops: queue.Queue[str | None] = queue.Queue()
        self._drop_errors: list[str] = []
        self._dropper = threading.Thread(target=self._drop_queued, name="drop-test-databases", daemon=True)
        self._execute(f'CREATE DATABASE "{self.template}"')
        self._dropper.start()
        try:
            from gmserver.db.migrate import upgrade

            upgrade(self.url(self.template))
        except BaseException:
            self.close()
            raise

    @staticmethod
    def url(name: str) -> str:
        return PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"

    def create(self) -> str:
        """A new database, migrated to head (a copy of the template); its name."""
        name = f"gmtest_{uuid.uuid4().hex[:12]}"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        return name

    def create_empty(self) -> str:
        """A new database with no schema at all; its name."""
        name = f"gmtest_{uuid.uuid4().hex[:12]}"
        self._execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_later(self, name: str) -> None:
        self._drops.put(name)

    def close(self) -> list[str]:
        """Drop every test database and the template; the drops that failed, in words."""
        self._drops.put(self.template)
        self._drops.put(None)
        if self._dropper.is_alive():
            self._dropper.join()
        else:
            self._drop_queued()
        self._admin.dispose()
        return self._drop_errors

    def _drop_queued(self) -> None:
        while (name := self._drops.get()) is not None:
            try:
                self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except Exception as error:  # noqa: BLE001  reported at the session's end
                self._drop_errors.append(f"{name}: {error}")

    def _execute(self, statement: str) -> None:
        with self._admin.connect() as connection:
            connection.execute(text(statement))


@pytest.fixture(scope="session")
def _postgres_databases() -> Iterator[PostgresDatabases]:
    try:
        databases = PostgresDatabases()
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"PostgreSQL at {PG_ADMIN_URL} is required for the database tests: {error}")
    yield databases
    if errors := databases.close():
        pytest.fail("test databases left behind (drop failed):\n" + "\n".join(errors), pytrace=False)


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once per session; tests get copies of it."""
    from gmserver.db.migrate import upgrade

    path = tmp_path_factory.mktemp("sqlite-template") / "gm.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database migrated to head on each backend, this test's alone: a copy of a
    template migrated once per session (`gmserver db upgrade` from nothing is tested on its own,
    tests/integration/test_cli.py). The PostgreSQL one is created and dropped."""
    if request.param == "sqlite":
        path = tmp_path / "gm.db"
        # The backup API copies a consistent image even if a WAL file were left beside it.
        with closing(sqlite3.connect(request.getfixturevalue("_sqlite_template"))) as source, \
                closing(sqlite3.connect(path)) as copy:
            source.backup(copy)
        yield f"sqlite:///{path}"
        return
    databases: PostgresDatabases = request.getfixturevalue("_postgres_databases")
    try:
        name = databases.create()
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"PostgreSQL at {PG_ADMIN_URL} is required for the database tests: {error}")
    try:
        yield databases.url(name)
    finally:
        databases.drop_later(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no schema on each backend (SQLite: a file not created yet), for the tests
    of migrating from nothing."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    databases: PostgresDatabases = request.getfixturevalue("_postgres_databases")
    name = databases.create_empty()
    try:
        yield databases.url(name)
    finally:
        databases.drop_later(name)


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
