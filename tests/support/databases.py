"""The PostgreSQL database of one test session (one per xdist worker), emptied before each test.

A database per test cost about 1 s on the 2-CPU machine: 0.2 s to create (CREATE DATABASE
copies some 8 MB of catalogs), 0.6 s to migrate, and 0.3 to 1.5 s to drop (PostgreSQL 15 forces
a checkpoint at every DROP DATABASE, which writes out every database created since). Instead each
session migrates one database and every test gets it back as a migrated database holds it: no
rows, sequences restarted, no other connection (a test's leftovers are ended as DROP ... WITH
(FORCE) ended them), about 40 ms. If a test changed the schema itself, the database is dropped
and migrated again, so no test ever sees another test's schema either.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

PG_ADMIN_URL = os.environ.get("GMSERVER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")

# Everything of the schema a test could change: columns, constraints, indexes, sequences, the revision.
_SCHEMA_FINGERPRINT = text("""
SELECT md5(coalesce(string_agg(item, E'\\n' ORDER BY item), '')) FROM (
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
         || ' ' || coalesce(column_default, '') AS item
    FROM information_schema.columns WHERE table_schema = 'public'
  UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT 'sequence ' || sequencename FROM pg_sequences WHERE schemaname = 'public'
  UNION ALL SELECT 'revision ' || version_num FROM alembic_version
) AS schema
""")


class PostgresSessionDatabase:
    def __init__(self, admin_url: str) -> None:
        self._admin_url = admin_url
        self._admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        self.name = f"gmtest_{uuid.uuid4().hex[:12]}"
        self.url = admin_url.rsplit("/", 1)[0] + f"/{self.name}"
        # NullPool: no connection of ours stays open in the test's database while the test runs
        self._engine = create_engine(self.url, poolclass=NullPool)
        self._migrate()

    def fresh(self) -> str:
        """The database as migrated and empty, with nobody else connected; its URL."""
        with self._engine.begin() as connection:
            connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
            schema_unchanged = connection.scalar(_SCHEMA_FINGERPRINT) == self._fingerprint
            if schema_unchanged:
                # only the test data is at stake: no need to wait for the WAL to reach the disk
                connection.execute(text("SET LOCAL synchronous_commit = off"))
                connection.execute(text("SET LOCAL session_replication_role = replica"))  # no FK checks
                for table in self._tables:
                    connection.execute(text(f'DELETE FROM "{table}"'))
                for sequence in self._sequences:
                    connection.execute(text(f'ALTER SEQUENCE "{sequence}" RESTART'))
        if not schema_unchanged:
            self._drop()
            self._migrate()
        return self.url

    def create_empty(self) -> str:
        """Another database, with no schema at all (drop it with `drop_other`); its URL."""
        name = f"gmtest_{uuid.uuid4().hex[:12]}"
        self._execute(f'CREATE DATABASE "{name}"')
        return self._admin_url.rsplit("/", 1)[0] + f"/{name}"

    def drop_other(self, url: str) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')

    def close(self) -> None:
        self._drop()
        self._engine.dispose()
        self._admin.dispose()

    def _migrate(self) -> None:
        from gmserver.db.migrate import upgrade

        self._execute(f'CREATE DATABASE "{self.name}"')
        # Commits do not wait for the WAL to reach the disk (a commit still is one: visible,
        # locks released); only a crash of the server itself could lose them, and no test
        # crashes it.
        self._execute(f'ALTER DATABASE "{self.name}" SET synchronous_commit = off')
        upgrade(self.url)
        with self._engine.connect() as connection:
            self._tables = list(connection.scalars(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'")))
            self._sequences = list(connection.scalars(text(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")))
            self._fingerprint = connection.scalar(_SCHEMA_FINGERPRINT)

    def _drop(self) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _execute(self, statement: str) -> None:
        with self._admin.connect() as connection:
            connection.execute(text(statement))


def scratch_database(kind: str, directory: Path, prefix: str = "gmbench") -> tuple[str, Callable[[], None]]:
    """A fresh, empty database for a benchmark: a SQLite file in `directory`, or a PostgreSQL
    database of its own on the test server; its URL and the function that drops it."""
    if kind == "sqlite":
        return f"sqlite:///{directory / f'{prefix}-{uuid.uuid4().hex[:6]}.db'}", lambda: None
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}", drop
