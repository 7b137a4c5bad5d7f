"""The SQL `game show` and `game list` run through the driver alone (gmserver/db/shown_sql.py) is
what SQLAlchemy compiles from their statements on the models (gmserver/db/queries/shown.py), and
gmserver/db/plain.py opens the database URLs gmserver takes as SQLAlchemy does.
tests/integration/test_plain_reads.py runs the statements on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from gmserver.db import plain
from gmserver.db.queries import shown
from gmserver.db.session import shown_url


def test_the_generated_sql_is_what_the_statements_compile_to() -> None:
    """After changing a statement or a column it reads: `.venv/bin/python -m gmserver.db.queries.shown`."""
    assert shown.GENERATED.read_text(encoding="utf-8") == shown.source()


@pytest.mark.parametrize("url", ["sqlite:///gm.db", "sqlite:////var/lib/gmserver/gm.db", "sqlite+pysqlite:///gm.db",
                                 "postgresql://gm:S3cret@db.example:5433/gmserver",
                                 "postgresql+psycopg://gm@localhost/gmserver", "postgresql://localhost/gmserver"])
def test_the_urls_the_driver_opens_are_shown_as_sqlalchemy_shows_them(url: str) -> None:
    assert plain.opens_plainly(url)
    assert plain.plain_url(url) == shown_url(url)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "sqlite:///file:gm.db?mode=ro&uri=true",
                                 "sqlite:///gm%20db.db", "mysql://gm@localhost/gm"])
def test_other_urls_are_left_to_sqlalchemy(url: str) -> None:
    assert not plain.opens_plainly(url) and plain.plain_url(url) is None


def test_the_file_and_the_conninfo_of_a_url() -> None:
    assert str(plain.sqlite_file("sqlite:////var/lib/gmserver/gm.db")) == "/var/lib/gmserver/gm.db"
    assert str(plain.sqlite_file("sqlite:///gm.db")) == "gm.db"
    assert plain.postgresql_conninfo("postgresql+psycopg://gm:pw@db/gm?sslmode=require") == \
        "postgresql://gm:pw@db/gm?sslmode=require"


def test_raw_values_become_what_the_models_types_give() -> None:
    """SQLite keeps a datetime as text without a zone (UTC), JSON as text, a boolean as 0 or 1;
    psycopg gives them converted, a datetime in the session's zone."""
    sqlite, postgresql = plain.CONVERSIONS["sqlite"], plain.CONVERSIONS["postgresql"]
    assert sqlite["datetime"]("2026-11-29 17:08:00.000120") == datetime(2026, 11, 29, 17, 8, 0, 120, tzinfo=UTC)
    assert sqlite["json"]('{"a": [1, null]}') == {"a": [1, None]} and sqlite["json"]("null") is None
    assert sqlite["bool"](0) is False and sqlite["bool"](1) is True
    assert all(sqlite[kind](None) is None and postgresql[kind](None) is None for kind in ("datetime", "json", "bool"))
    paris = datetime(2026, 11, 29, 18, 8, tzinfo=timezone(timedelta(hours=1)))
    assert postgresql["datetime"](paris) == datetime(2026, 11, 29, 17, 8, tzinfo=UTC)
    assert postgresql["datetime"](paris).tzinfo is UTC
