"""Fixtures shared by every layer: databases on both backends, a clock, the services."""

from __future__ import annotations

import gc
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.clock import Clock
from tests.support.databases import PG_ADMIN_URL, PostgresSessionDatabase

# the real mail servers' fixtures (dovecot, mail_user, smtp_relay, mailbox)
pytest_plugins = ["tests.support.mail_servers"]

# The engine refuses to import without a home directory (docs/architecture.md, "The engine").
os.environ.setdefault("HOME", "/tmp")

# tmp_path in RAM when the machine has a tmpfs and TMPDIR does not say otherwise: every SQLite
# commit and Maildir delivery fsyncs, and on the 2-CPU VM's disk that was 30 % of the DATC
# pipeline's time (19.7 s -> 13.9 s for 6.A). No test is about surviving a power cut.
if "TMPDIR" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    tempfile.tempdir = "/dev/shm"


@pytest.fixture(scope="session")
def _postgres_database() -> Iterator[PostgresSessionDatabase]:
    try:
        database = PostgresSessionDatabase(PG_ADMIN_URL)
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"PostgreSQL at {PG_ADMIN_URL} is required for the database tests: {error}")
    yield database
    database.close()


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once per session; tests get copies of it."""
    from gmserver.db.migrate import upgrade

    path = tmp_path_factory.mktemp("sqlite-template") / "gm.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database migrated to head and empty on each backend, this test's alone. SQLite: a copy
    of a file migrated once per session; PostgreSQL: the session's database, emptied (see
    tests/support/databases.py). `gmserver db upgrade` from nothing has its own test
    (tests/integration/test_cli.py)."""
    if request.param == "sqlite":
        path = tmp_path / "gm.db"
        # The backup API copies a consistent image even if a WAL file were left beside it.
        with closing(sqlite3.connect(request.getfixturevalue("_sqlite_template"))) as source, \
                closing(sqlite3.connect(path)) as copy:
            source.backup(copy)
        yield f"sqlite:///{path}"
        return
    database: PostgresSessionDatabase = request.getfixturevalue("_postgres_database")
    try:
        url = database.fresh()
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"PostgreSQL at {PG_ADMIN_URL} is required for the database tests: {error}")
    yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no schema on each backend (SQLite: a file not created yet), for the tests
    of migrating from nothing."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    database: PostgresSessionDatabase = request.getfixturevalue("_postgres_database")
    url = database.create_empty()
    try:
        yield url
    finally:
        database.drop_other(url)


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))


@pytest.fixture
def restored_collector() -> Iterator[None]:
    """The garbage collector's settings as they were, after a test that settles them as a daemon
    does (gmserver/collector.py)."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
