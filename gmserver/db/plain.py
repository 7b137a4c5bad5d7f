"""Reading stored rows through the database driver alone, without SQLAlchemy.

A command that only shows what is stored (`game show`, `game list`, the check that the database
is at the latest revision) is a whole process, and loading SQLAlchemy costs it more than the rest
together (benchmarks/bench_cli.py). Its statements are still written once, in SQLAlchemy, on the
models (gmserver/db/queries/shown.py); their SQL text for each database and the kind of each
column are generated into gmserver/db/shown_sql.py, which a test keeps equal to what SQLAlchemy
compiles. `Reader` runs that text on a driver connection and converts the values as the models'
column types do (aware UTC datetimes, JSON, booleans), so a row reads the same either way; a
session's own connection can be read the same way (gmserver/db/session.plain_reader).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# The column kinds a generated statement names, and how each raw value becomes the model's.
_ANY = "any"  # as the driver gives it (text, numbers)


@dataclass(frozen=True)
class Statement:
    """One generated statement: its SQL text per database ("sqlite", "postgresql"), with named
    parameters, the values of those the statement itself gives (per database), and (name, kind) of
    each column it reads."""

    sql: Mapping[str, str]
    columns: tuple[tuple[str, str], ...]
    values: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


class DatabaseUnreachable(Exception):
    """The database cannot be reached or used right now (gmserver/db/session.DATABASE_UNREACHABLE
    for the driver alone)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"cannot use the database: {reason}")


def _sqlite_datetime(value: Any) -> datetime | None:
    """SQLAlchemy stores a datetime on SQLite as text without a zone ("2026-11-29 17:08:00.000000"),
    UTC by the models' UTCDateTime."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _aware_datetime(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _sqlite_date(value: Any) -> date | None:
    """SQLAlchemy stores a date on SQLite as ISO text ("2026-12-20")."""
    return date.fromisoformat(value) if isinstance(value, str) else value


def _sqlite_json(value: Any) -> Any:
    return None if value is None else json.loads(value)


def _sqlite_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _same(value: Any) -> Any:
    return value


# dialect -> kind -> conversion (psycopg itself gives aware datetimes, parsed JSON and booleans)
CONVERSIONS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "sqlite": {"datetime": _sqlite_datetime, "date": _sqlite_date, "json": _sqlite_json, "bool": _sqlite_bool, _ANY: _same},
    "postgresql": {"datetime": _aware_datetime, "date": _same, "json": _same, "bool": _same, _ANY: _same},
}


class Reader:
    """Runs generated statements on one driver connection (sqlite3 or psycopg) of `dialect`."""

    def __init__(self, connection: Any, dialect: str) -> None:
        self.connection = connection
        self.dialect = dialect
        # sqlite3 (an engine's connections are of a subclass: db/writer_turns.py) or psycopg
        self._driver = (sqlite3 if isinstance(connection, sqlite3.Connection)
                        else sys.modules[type(connection).__module__.partition(".")[0]])
        # what every DB-API driver raises when the database cannot be used now
        self._unreachable = (self._driver.OperationalError, self._driver.InterfaceError)

    def rows(self, statement: Statement, **parameters: Any) -> list[SimpleNamespace]:
        """The statement's rows, each with its columns as attributes."""
        convert = [(name, CONVERSIONS[self.dialect][kind]) for name, kind in statement.columns]
        return [SimpleNamespace(**{name: how(value) for (name, how), value in zip(convert, raw, strict=True)})
                for raw in self.execute(statement.sql[self.dialect],
                                        {**statement.values.get(self.dialect, {}), **parameters})]

    def first(self, statement: Statement, **parameters: Any) -> SimpleNamespace | None:
        found = self.rows(statement, **parameters)
        return found[0] if found else None

    def execute(self, sql: str, parameters: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
        try:
            return self._run(sql, parameters)
        except self._unreachable as error:
            raise DatabaseUnreachable(_first_line(error)) from error

    def _run(self, sql: str, parameters: Mapping[str, Any] | None) -> list[tuple[Any, ...]]:
        cursor = self.connection.cursor()
        try:
            cursor.execute(sql, parameters or {})
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def stored_revision(self) -> str | None:
        """The schema's revision as Alembic recorded it (its `alembic_version` table); None when
        the database was never migrated (no such table), as Alembic says."""
        try:
            rows = self._run("SELECT version_num FROM alembic_version", None)
        except self._driver.Error as error:  # sqlite3: OperationalError; psycopg: UndefinedTable
            if "no such table" not in str(error) and "does not exist" not in str(error):
                if isinstance(error, self._unreachable):
                    raise DatabaseUnreachable(_first_line(error)) from error
                raise
            self.connection.rollback()
            return None
        return rows[0][0] if len(rows) == 1 else None


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


# -- database URLs the driver can open directly; anything else goes through SQLAlchemy

_SQLITE_FILE = re.compile(r"sqlite(?:\+pysqlite)?:///(?P<path>[^?%]+)")
_POSTGRESQL = re.compile(r"postgresql(?:\+psycopg)?://(?P<rest>.*)", re.DOTALL)
_PASSWORD = re.compile(r"^(?P<user>[^:/@]*):(?P<password>[^@/]*)@")


def sqlite_file(url: str) -> Path | None:
    """The file a plain SQLite URL names (`sqlite:///gm.db`, `sqlite:////var/gm.db`); None for
    any other URL, or one with options or escapes (SQLAlchemy reads those)."""
    match = _SQLITE_FILE.fullmatch(url)
    if match is None or match.group("path") == ":memory:" or match.group("path").startswith("file:"):
        return None
    return Path(match.group("path"))


def postgresql_conninfo(url: str) -> str | None:
    """The libpq URI for psycopg (`postgresql://...`, the driver named in SQLAlchemy's form left out)."""
    match = _POSTGRESQL.fullmatch(url)
    return None if match is None else "postgresql://" + match.group("rest")


def plain_url(url: str) -> str | None:
    """`url` as a terminal or log may show it (the password masked, as SQLAlchemy masks it), for
    the URLs this module opens itself; None for the others."""
    if sqlite_file(url) is not None:
        return url
    conninfo = postgresql_conninfo(url)
    if conninfo is None:
        return None
    scheme, _, rest = url.partition("://")
    return f"{scheme}://" + _PASSWORD.sub(r"\g<user>:***@", rest, count=1)


def opens_plainly(url: str) -> bool:
    """Whether `open_reader` opens the URL with the driver alone."""
    return sqlite_file(url) is not None or postgresql_conninfo(url) is not None


@contextmanager
def open_reader(url: str) -> Iterator[Reader]:
    """A read-only look at the database of a URL `opens_plainly` accepts, through its driver: no
    SQLAlchemy. A SQLite file must exist (reading never creates one)."""
    path = sqlite_file(url)
    try:
        if path is not None:
            connection: Any = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
            connection.execute("BEGIN")  # one snapshot for every statement, as a session's transaction
            dialect = "sqlite"
        else:
            conninfo = postgresql_conninfo(url)
            if conninfo is None:
                raise ValueError(f"not a URL the driver opens alone: {plain_url(url) or 'unreadable URL'}")
            import psycopg  # noqa: PLC0415  (only a PostgreSQL database loads the driver: a tenth of a second)

            connection = psycopg.connect(conninfo)
            dialect = "postgresql"
    except (sqlite3.OperationalError, sqlite3.InterfaceError) as error:
        raise DatabaseUnreachable(_first_line(error)) from error
    except Exception as error:
        if type(error).__module__.startswith("psycopg"):
            raise DatabaseUnreachable(_first_line(error)) from error
        raise
    try:
        yield Reader(connection, dialect)
    finally:
        connection.close()
