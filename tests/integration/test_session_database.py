"""The PostgreSQL database the tests share within a session (tests/support/databases.py) is,
at every test's start, what a newly migrated database is: no rows, sequences from 1, nobody else
connected, the migrations' schema."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, func, inspect, select, text

from gmserver.db.models import Game, Player
from gmserver.db.session import transaction
from tests.support.databases import PG_ADMIN_URL, PostgresSessionDatabase
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration


@pytest.fixture
def session_database():
    database = PostgresSessionDatabase(PG_ADMIN_URL)
    yield database
    database.close()


def test_the_next_test_finds_no_rows_restarted_sequences_and_no_connection_left(session_database, clock) -> None:
    services = services_for(session_database.fresh())
    first = new_game(services, clock())
    # a test that ends with a transaction still open, holding locks on what it wrote
    leftover = create_engine(session_database.url).connect()
    leftover.execute(text("UPDATE games SET name = 'held'"))

    url = session_database.fresh()
    services = services_for(url)
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0
        assert session.scalar(select(func.count()).select_from(Player)) == 0
    assert new_game(services, clock()) == first  # the same id: its sequence started again
    with pytest.raises(Exception):
        leftover.execute(text("SELECT 1"))  # its connection was ended
    leftover.invalidate()


def test_a_schema_changed_by_a_test_is_migrated_again(session_database) -> None:
    url = session_database.fresh()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE games ADD COLUMN left_behind integer"))
    engine.dispose()

    url = session_database.fresh()
    engine = create_engine(url)
    try:
        assert "left_behind" not in {column["name"] for column in inspect(engine).get_columns("games")}
    finally:
        engine.dispose()
