"""The words of the games' names (game_name_words, migration 0031), by which intake finds the
games a subject may name: written for the games that exist when the migration runs and for every
game created after, dropped by the downgrade; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import inspect, select

from gmserver.db.migrate import alembic_config, upgrade
from gmserver.db.models import GameNameWord
from gmserver.db.session import make_engine, transaction
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def name_words_kept(services) -> set[tuple[str, int]]:
    with transaction(services.sessions) as session:
        return {(row.word, row.game_id) for row in session.scalars(select(GameNameWord))}


def has_table(url: str, name: str) -> bool:
    engine = make_engine(url)
    try:
        return name in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_the_migration_writes_the_words_of_existing_games_and_the_downgrade_drops_them(empty_database_url,
                                                                                       clock) -> None:
    upgrade(empty_database_url)
    services = services_for(empty_database_url)
    lepanto = new_game(services, clock(), name="lepanto")
    march = new_game(services, clock(), name="Black-March_1901")
    created = {("lepanto", lepanto), ("black", march), ("march", march), ("1901", march)}
    assert name_words_kept(services) == created  # written by game create
    services.sessions.kw["bind"].dispose()

    command.downgrade(alembic_config(empty_database_url), "0030")
    assert not has_table(empty_database_url, "game_name_words")
    upgrade(empty_database_url)
    services = services_for(empty_database_url)
    assert name_words_kept(services) == created  # written by the migration for the games it found

    # a game from before the migration is found by its subject through them
    mail = order_mail(player_address("FRANCE"), format_subject(template="standard", game_name="Black-March_1901",
                                                               power="FRANCE", phase="S1901M", purpose="orders"),
                      "A Par-Bur\nA Mar-Spa\nF Bre-MAO")
    stored = intake.store(services.sessions, mail, source="smtp", now=clock())
    assert intake.process_one(services, stored.id, clock()) == "accepted"
    services.sessions.kw["bind"].dispose()
