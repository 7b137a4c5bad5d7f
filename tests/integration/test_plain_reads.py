"""`gmserver game show` and `game list` read through the database driver alone (gmserver/db/plain.py,
with the SQL of gmserver/db/shown_sql.py): every statement gives, on both databases, the very
values SQLAlchemy gives for the same statement on the models (aware UTC datetimes, JSON, booleans,
NULLs), and the command prints what the services show in a session."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from gmserver.db import plain
from gmserver.db.models import AbsenceRow, Announcement, Game, InboundMessage, OrderSet, PlayerHistory, Proxy, Signup
from gmserver.db.queries.shown import STATEMENTS
from gmserver.db.session import plain_reader, transaction
from gmserver.db.shown_sql import STATEMENTS as GENERATED
from gmserver.services.base.context import Services
from gmserver.services.game import shown
from gmserver.services.game.games import list_games, show_game
from tests.support.cli import modules_among, modules_loaded_by, run, write_config

# a moment with microseconds, to see them kept
AT = datetime(2026, 11, 22, 12, 0, 0, 123456, tzinfo=UTC)
PARAMETERS = {"name": "lepanto", "phase": "S1901M", "limit": 5, "kind": "standby"}


def _stored_besides_the_game(services: Services) -> None:
    """A row in every table the statements read, with NULLs, JSON, booleans and datetimes."""
    with transaction(services.sessions) as session:
        game = session.scalars(select(Game).where(Game.name == "lepanto")).one()
        game.waiting_for = ["ITALY"]
        game.players[0].perpetual = {"orders": ["A VIE H"]}
        game.players[1].abbreviations = {"Lpl": "LVP"}
        game.players[2].joined_at = AT - timedelta(days=3)
        session.add_all([
            OrderSet(game_id=game.id, power="FRANCE", phase="S1901M", version=1, orders=["A PAR - BUR"],
                     lines=[{"text": "A Par - Bur", "status": "accepted"}, {"text": "x", "status": "unreadable"}],
                     received_at=AT, marker="v1", is_change=False, unsupportable=["A MAR"], contingent=[],
                     by_proxy=False),
            OrderSet(game_id=game.id, power="FRANCE", phase="S1901M", version=2, orders=["A MAR H"], lines=[],
                     received_at=AT + timedelta(minutes=1), is_change=True, by_gm=True),
            Proxy(game_id=game.id, power="ITALY", holder="england@players.test", status="active", until_phase=None,
                  units=["A ROM"], requested_by="italy@players.test", requested_at=AT),
            PlayerHistory(game_id=game.id, power="TURKEY", address="old@players.test", joined_at=None, left_at=AT,
                          left_in_phase="S1901M", missed_turns=2, missed_in_a_row=1, civil_disorder=True,
                          cd_recorded=True),
            InboundMessage(fingerprint="f" * 64, source="cli", raw=b"x", received_at=AT, status="held",
                           game_id=game.id, power="ITALY", held_phase="S1901M"),
            Announcement(name="lepanto", ruleset_name="standard", timezone="UTC", seed="s", status="started",
                         assignment={"seed": "s", "powers": {"FRANCE": "x@players.test"}}, game_id=game.id,
                         created_at=AT, by="cli"),
            Signup(game_name="lepanto", kind="standby", address="stand@players.test", preferences=[],
                   status="confirmed", secret="t", requested_at=AT, confirmed_at=AT),
            AbsenceRow(game_id=game.id, power="FRANCE", address="france@players.test", first_day=date(2026, 12, 20),
                       last_day=date(2026, 12, 28), reason="skiing", registered_at=AT),
        ])
        session.add(Game(name="other", ruleset_name="standard", ruleset={}, status="finished", phase="F1905M",
                         deadline=None, movement_seconds=1, retreat_seconds=1, adjustment_seconds=1,
                         reminder_seconds=0, created_at=AT))
        session.execute(update(Game).where(Game.name == "lepanto").values(deadline=AT))


def test_every_statement_reads_through_the_driver_what_sqlalchemy_reads(world: Services) -> None:
    _stored_besides_the_game(world)
    with transaction(world.sessions) as session:
        game_id = session.scalars(select(Game.id).where(Game.name == "lepanto")).one()
        reader = plain_reader(session)
        for name, statement in STATEMENTS.items():
            parameters = {key: value for key, value in {**PARAMETERS, "game_id": game_id}.items()
                          if key in statement.compile().params}
            expected = [tuple(row) for row in session.execute(statement, parameters)]
            read = [tuple(vars(row).values()) for row in reader.rows(GENERATED[name], **parameters)]
            assert read == expected, name
            assert expected, f"{name} read nothing: the test data should give every statement a row"


def test_game_show_and_list_print_the_same_through_the_driver_as_in_a_session(
        world: Services, database_url: str, tmp_path: Path, capsys) -> None:
    _stored_besides_the_game(world)
    with plain.open_reader(database_url) as reader:
        assert shown.show_game(reader, "lepanto", "gm@gm.test") == show_game(world.sessions, "lepanto", "gm@gm.test")
        for options in ({}, {"active": True}, {"open_turn": True}, {"limit": 1}, {"active": True, "limit": 1}):
            assert shown.list_games(reader, **options) == list_games(world.sessions, **options), options
        assert reader.stored_revision() is not None
    config = write_config(tmp_path, database_url)
    assert run(config, "game", "show", "lepanto", "--json") == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(show_game(world.sessions, "lepanto", "gm@gm.test")))


def test_a_database_never_migrated_has_no_revision(empty_database_url: str, tmp_path: Path) -> None:
    if plain.sqlite_file(empty_database_url) is not None:
        plain.sqlite_file(empty_database_url).touch()  # an empty file: SQLite's database with no table
    with plain.open_reader(empty_database_url) as reader:
        assert reader.stored_revision() is None


def test_an_unreachable_database_is_one_error_with_the_drivers_reason(tmp_path: Path) -> None:
    with pytest.raises(plain.DatabaseUnreachable, match="^cannot use the database: "), \
            plain.open_reader(f"sqlite:///{tmp_path / 'missing' / 'gm.db'}"):
        pass


# what `game show` and `game list` must not load: their cost was loading these (benchmarks/bench_cli.py)
NOT_LOADED = ("sqlalchemy", "alembic", "jinja2", "dkim", "dns", "PIL", "diplomacy", "gmserver.db.models",
              "gmserver.db.queries", "gmserver.db.session", "gmserver.mail", "gmserver.services.base",
              "gmserver.daemon", "gmserver.rules.reading.reader", "gmserver.reports.turn", "gmserver.reports.replies")


@pytest.mark.parametrize("command", [["game", "show", "lepanto"], ["game", "list"]])
def test_game_show_and_list_load_no_database_library_nor_the_services_behind_them(
        world: Services, database_url: str, tmp_path: Path, command: list[str]) -> None:
    loaded = modules_loaded_by(["--config", str(write_config(tmp_path, database_url)), *command], tmp_path / "cache")
    assert "gmserver.services.game.shown" in loaded
    assert modules_among(loaded, NOT_LOADED) == []
