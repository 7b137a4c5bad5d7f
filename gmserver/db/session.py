"""Database engine and sessions, for SQLite (embedded default) and PostgreSQL (production)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from gmserver.db.plain import Reader
from gmserver.db.writer_turns import WriterTurns, taking_turns

log = logging.getLogger(__name__)
Item = TypeVar("Item")

# how long a SQLite writer waits for the database's lock before its statement fails
SQLITE_BUSY_SECONDS = 30


def make_engine(url: str) -> Engine:
    """An engine whose transactions are safe for several threads and daemons.

    SQLite: every transaction starts with BEGIN IMMEDIATE, so writers queue on the database
    lock (busy timeout) instead of failing when a read transaction tries to upgrade, the threads
    of this process in the order they came (db/writer_turns.py); WAL lets readers proceed
    meanwhile. PostgreSQL: row locks (FOR UPDATE SKIP LOCKED) do the sharing.
    """
    if url.startswith("sqlite"):
        turns = WriterTurns(timeout=SQLITE_BUSY_SECONDS)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS, "check_same_thread": False,
                                                  "factory": taking_turns(turns)})

        @event.listens_for(engine, "connect")
        def _sqlite_connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
            dbapi_connection.isolation_level = None  # let SQLAlchemy's BEGIN below be the only one
            cursor = dbapi_connection.cursor()
            if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection) -> None:  # type: ignore[no-untyped-def]
            driver_connection = connection.connection.dbapi_connection
            driver_connection.take_turn()  # the threads of this process in turn (db/writer_turns.py)
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            except BaseException:
                driver_connection.give_back_turn()
                raise

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return create_engine(url, pool_pre_ping=True)


def missing_sqlite_file(url: str) -> bool:
    """Whether `url` names a SQLite file that does not exist. Connecting would create it, empty;
    only `gmserver db upgrade` (and the demo, which upgrades its own) should create a database,
    so a read-only command checks this first and leaves no empty file behind."""
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001  an unparsable URL is reported by the database layer itself
        return False
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return False  # in memory, or a URI filename (its mode= decides), is not ours to judge
    return not Path(database).exists()


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception."""
    with factory() as session, session.begin():
        yield session


@contextmanager
def connection_transaction(factory: sessionmaker[Session]) -> Iterator[Connection]:
    """`transaction` on a connection of the factory's engine, without a Session, for a small
    transaction of Core statements alone (intake's claim of each message): the Session's setup
    and commit cost more than its one statement. Commits on success, rolls back on any
    exception; on SQLite it begins with BEGIN IMMEDIATE as every transaction does."""
    engine: Engine = factory.kw["bind"]
    with engine.begin() as connection:
        yield connection


def each_in_its_own_transaction(factory: sessionmaker[Session], items: Iterable[Item],
                                work: Callable[[Session, Item], int], failed: Callable[[Item], str]) -> int:
    """`work` on each item in a transaction of its own; the sum of what it returns. An item whose
    work fails is rolled back alone and logged with `failed(item)`, and the others go on (a
    sweep's duty tries it again at its next round)."""
    done = 0
    for item in items:
        try:
            with transaction(factory) as session:
                done += work(session, item)
        except Exception:
            log.exception("%s", failed(item))
    return done


# What SQLAlchemy raises when the database cannot be reached or used right now (server down,
# connection dropped, SQLite locked past the busy timeout): callers report it, wait and retry.
DATABASE_UNREACHABLE: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def unreachable_reason(error: Exception) -> str:
    """The first line of the driver's own message for a DATABASE_UNREACHABLE error."""
    orig = getattr(error, "orig", None)
    lines = str(orig if orig is not None else error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def shown_url(url: str) -> str:
    """A database URL fit for a terminal or a log: the password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001  an unparsable URL is reported by the database layer itself
        return "(unreadable database URL)"


def plain_reader(session: Session) -> Reader:
    """The session's own connection, in its transaction, for the statements of gmserver.db.plain
    (what the session holds unflushed is flushed first)."""
    session.flush()
    return Reader(session.connection().connection.dbapi_connection, session.get_bind().dialect.name)


@contextmanager
def engine_reader(url: str) -> Iterator[Reader]:
    """A gmserver.db.plain reader on a connection SQLAlchemy opens: for the URLs the driver cannot
    open alone (options, escapes, SQLite in memory)."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection, connection.begin():
            yield Reader(connection.connection.dbapi_connection, engine.dialect.name)
    finally:
        engine.dispose()
