"""`queries.rows.held_writes`: a batch's writes that nothing reads back, held and sent together at
its end (a statement for the rows of each kind), or before any statement that could read them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, selectinload

from gmserver.db import queries
from gmserver.db.models import Game, OrderSet, PhaseRecord, Player
from gmserver.db.session import transaction
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration


@contextmanager
def statements_sent(session) -> Iterator[list[str]]:  # type: ignore[no-untyped-def]
    """The SQL the session's engine sends while it is entered."""
    sent: list[str] = []

    def record(_connection, _cursor, statement, *_rest) -> None:  # type: ignore[no-untyped-def]
        sent.append(" ".join(statement.split()).upper())

    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_held_writes_go_together_at_the_end_the_later_value_of_a_column_winning(database_url, clock) -> None:
    services = services_for(database_url)
    first, second = new_game(services, clock(), name="first"), new_game(services, clock(), name="second")
    with transaction(services.sessions) as session:
        records = [queries.phases.phase_record(session, game_id, "S1901M") for game_id in (first, second)]
        with statements_sent(session) as sent, queries.rows.held_writes(session):
            for record in records:
                queries.rows.write_now(session, record, {"adjudicated_at": clock(), "results": [{"power": "ITALY"}]})
                queries.rows.write_now(session, record, {"results": [{"power": "FRANCE"}]})
                queries.phases.open_next_phase(session, record.game_id, "F1901M", {"name": "F1901M"}, None, clock())
            assert sent == []  # nothing yet: nothing read them
        updates = [s for s in sent if s.startswith("UPDATE PHASES")]
        inserts = [s for s in sent if s.startswith("INSERT INTO PHASES")]
        assert len(updates) == 1 and len(inserts) == 1  # one statement each for both games' rows
        assert records[0].results == [{"power": "FRANCE"}]
    with transaction(services.sessions) as session:
        stored = session.execute(select(PhaseRecord.game_id, PhaseRecord.phase, PhaseRecord.results)
                                 .order_by(PhaseRecord.id)).all()
    assert stored == [(first, "S1901M", [{"power": "FRANCE"}]), (second, "S1901M", [{"power": "FRANCE"}]),
                      (first, "F1901M", None), (second, "F1901M", None)]


def test_a_statement_that_may_read_them_sends_them_first_and_one_that_cannot_does_not(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        game = session.get(Game, game_id)
        with statements_sent(session) as sent:
            queries.games.advance(session, game, {"phase": "F1901M"})
            session.scalars(select(OrderSet).where(OrderSet.game_id == game_id)).all()  # another table
            assert [s for s in sent if s.startswith("UPDATE")] == []
            assert session.scalar(select(Game.phase).where(Game.id == game_id)) == "F1901M"  # its table: sent first
            assert len([s for s in sent if s.startswith("UPDATE GAMES")]) == 1
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).phase == "F1901M"


def test_held_writes_that_fail_are_refused_together_and_an_exception_leaves_them_unsent(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    opened = insert(PhaseRecord.__table__)
    with pytest.raises(queries.rows.HeldWritesFailed) as failure:
        with transaction(services.sessions) as session, queries.rows.held_writes(session):
            queries.rows.insert_later(session, opened, {"game_id": game_id, "phase": "S1901M", "state": {},
                                                        "opened_at": clock()})  # the game's phase: taken
    assert isinstance(failure.value.__cause__, IntegrityError)
    with pytest.raises(RuntimeError):
        with transaction(services.sessions) as session, queries.rows.held_writes(session):
            queries.rows.insert_later(session, opened, {"game_id": game_id, "phase": "F1901M", "state": {},
                                                        "opened_at": clock()})
            raise RuntimeError("the batch fails")
    with transaction(services.sessions) as session:
        assert session.scalars(select(PhaseRecord.phase).where(PhaseRecord.game_id == game_id)).all() == ["S1901M"]


def test_spring_centres_read_ahead_with_the_phases_held_are_what_the_database_gives_after(database_url, clock) -> None:
    """A batch reads every game's spring centres ahead (one statement) and adds the Spring phase
    it opened and holds: the same as read from the tables once the writes are sent."""
    services = services_for(database_url)
    game_ids = [new_game(services, clock(), name=name) for name in ("first", "second")]
    spring = {"name": "S1902M", "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ITALY": []}}
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        queries.phases.read_spring_centres_ahead(session, game_ids)
        queries.phases.open_next_phase(session, game_ids[0], "S1902M", spring, None, clock())
        with statements_sent(session) as sent:
            during = [queries.phases.spring_centres(session, game_id) for game_id in game_ids]
            assert sent == []
        session.add(PhaseRecord(game_id=game_ids[1], phase="F1901R", state={}, opened_at=clock()))
        session.flush()  # a phase opened by the ORM: what was read ahead is forgotten, the writes sent
        assert queries.rows.read_ahead(session, "spring_centres") is None
        assert queries.phases.spring_centres(session, game_ids[0]) == during[0]
    with transaction(services.sessions) as session:
        after = [queries.phases.spring_centres(session, game_id) for game_id in game_ids]
    assert during == after and [phase for phase, _ in after[0]] == ["S1901M", "S1902M"]
    assert after[0][1][1] == spring["centers"]


def test_sets_read_ahead_are_what_each_game_reads_until_a_set_is_stored(database_url, clock) -> None:
    """A batch reads every game's sets on file ahead (one statement); a set stored within it (a
    statement that changes `order_sets`) has them read from the table again."""
    services = services_for(database_url)
    game_ids = [new_game(services, clock(), name=name) for name in ("first", "second")]
    with transaction(services.sessions) as session:
        session.add(OrderSet(game_id=game_ids[0], power="FRANCE", phase="S1901M", version=1, orders=["A PAR H"],
                             lines=[], received_at=clock()))
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        queries.ordersets.read_sets_ahead(session, [(game_id, "S1901M") for game_id in game_ids])
        with statements_sent(session) as sent:
            ahead = [queries.ordersets.order_set_rows(session, game_id, "S1901M") for game_id in game_ids]
            assert sent == []
        assert [[row.orders for row in rows] for rows in ahead] == [[["A PAR H"]], []]
        session.add(OrderSet(game_id=game_ids[1], power="ITALY", phase="S1901M", version=1, orders=["A ROM H"],
                             lines=[], received_at=clock()))
        assert [row.orders for row in queries.ordersets.order_set_rows(session, game_ids[1], "S1901M")] == [
            ["A ROM H"]]


def test_a_string_run_with_exec_driver_sql_sees_the_held_writes(database_url, clock) -> None:
    """SQLAlchemy fires no `before_execute` for a driver string: it still reads no row around them."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        queries.games.advance(session, session.get(Game, game_id), {"phase": "F1901M"})
        connection = session.connection()
        with statements_sent(session) as sent:
            connection.exec_driver_sql("SELECT COUNT(*) FROM order_sets").scalar()  # another table
            assert [s for s in sent if s.startswith("UPDATE")] == []
            phase = connection.exec_driver_sql(f"SELECT phase FROM games WHERE id = {int(game_id)}").scalar()
        assert phase == "F1901M"


def _store_a_set(services, game_id: int, now) -> None:  # type: ignore[no-untyped-def]
    with transaction(services.sessions) as session:
        session.add(OrderSet(game_id=game_id, power="FRANCE", phase="S1901M", version=1, orders=["A PAR H"],
                             lines=[], received_at=now))


def _orm_flush(session, game_id: int) -> None:  # type: ignore[no-untyped-def]
    session.scalars(select(OrderSet).where(OrderSet.game_id == game_id)).one().orders = ["A PAR - BUR"]


def _core(session, game_id: int) -> None:  # type: ignore[no-untyped-def]
    session.execute(update(OrderSet.__table__).where(OrderSet.__table__.c.game_id == game_id)
                    .values(orders=["A PAR - BUR"]))


def _text(session, game_id: int) -> None:  # type: ignore[no-untyped-def]
    session.execute(text("UPDATE order_sets SET marker = 'x' WHERE game_id = :game_id"), {"game_id": game_id})


def _driver_sql(session, game_id: int) -> None:  # type: ignore[no-untyped-def]
    session.connection().exec_driver_sql(f"UPDATE order_sets SET marker = 'x' WHERE game_id = {int(game_id)}")


def _held_update(session, game_id: int) -> None:  # type: ignore[no-untyped-def]
    row = session.scalars(select(OrderSet).where(OrderSet.game_id == game_id)).one()
    queries.rows.write_now(session, row, {"orders": ["A PAR - BUR"]})


@pytest.mark.parametrize("change", [_orm_flush, _core, _text, _driver_sql, _held_update],
                         ids=["orm-flush", "core", "text", "driver-sql", "held-update"])
def test_a_write_to_a_table_read_ahead_forgets_what_was_read(database_url, clock, change) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    _store_a_set(services, game_id, clock())
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        queries.ordersets.read_sets_ahead(session, [(game_id, "S1901M")])
        assert queries.rows.read_ahead(session, "order_sets") is not None
        change(session, game_id)
        assert queries.rows.read_ahead(session, "order_sets") is None


def test_a_held_write_of_a_column_a_read_ahead_reads_forgets_it_and_one_of_another_does_not(database_url,
                                                                                            clock) -> None:
    """The deadline holds the phase's results (a column the spring centres do not read): what was
    read ahead stays; a held change of a state it read does not."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    centres = {"FRANCE": ["PAR"]}
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        record = queries.phases.phase_record(session, game_id, "S1901M")
        queries.phases.read_spring_centres_ahead(session, [game_id])
        queries.rows.write_now(session, record, {"results": [{"power": "FRANCE"}], "adjudicated_at": clock()})
        assert queries.rows.read_ahead(session, "spring_centres") is not None
        queries.rows.write_now(session, record, {"state": {**record.state, "centers": centres}})
        assert queries.rows.read_ahead(session, "spring_centres") is None
        assert queries.phases.spring_centres(session, game_id) == [("S1901M", centres)]


def _stored_phases(services, game_id: int) -> list[str]:  # type: ignore[no-untyped-def]
    with transaction(services.sessions) as session:
        return list(session.scalars(select(PhaseRecord.phase).where(PhaseRecord.game_id == game_id)
                                    .order_by(PhaseRecord.id)))


def _open(session, game_id: int, phase: str, now) -> None:  # type: ignore[no-untyped-def]
    queries.phases.open_next_phase(session, game_id, phase, {"name": phase}, None, now)


def test_a_write_held_before_a_savepoint_rolled_back_is_kept(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        _open(session, game_id, "F1901M", clock())
        savepoint = session.begin_nested()
        _open(session, game_id, "W1901A", clock())
        savepoint.rollback()
        _open(session, game_id, "S1902M", clock())
    assert _stored_phases(services, game_id) == ["S1901M", "F1901M", "S1902M"]


def test_a_write_made_in_a_savepoint_rolled_back_is_not_sent(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        game = session.get(Game, game_id)
        savepoint = session.begin_nested()
        queries.games.advance(session, game, {"phase": "F1901M"})
        _open(session, game_id, "F1901M", clock())
        savepoint.rollback()
        assert game.phase == "S1901M"
    assert _stored_phases(services, game_id) == ["S1901M"]
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).phase == "S1901M"


def test_a_failed_statement_in_a_savepoint_rolled_back_leaves_the_held_writes_to_be_sent(database_url,
                                                                                        clock) -> None:
    """On PostgreSQL a failed statement aborts the transaction until the savepoint is rolled back:
    nothing held may be sent in between."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with transaction(services.sessions) as session, queries.rows.held_writes(session):
        game = session.get(Game, game_id)
        _open(session, game_id, "F1901M", clock())
        with pytest.raises(IntegrityError), session.begin_nested():
            queries.games.advance(session, game, {"phase": "F1901M"})
            session.execute(insert(OrderSet.__table__), [
                {"game_id": game_id, "power": "FRANCE", "phase": "S1901M", "version": 1, "orders": [], "lines": [],
                 "received_at": clock()}] * 2)  # the same version twice: refused
        _open(session, game_id, "W1901A", clock())
    assert _stored_phases(services, game_id) == ["S1901M", "F1901M", "W1901A"]
    with transaction(services.sessions) as session:
        assert session.get(Game, game_id).phase == "S1901M"


def _lazy(session, game_id: int) -> list[Player]:  # type: ignore[no-untyped-def]
    return list(session.get(Game, game_id).players)


def _joined(session, game_id: int) -> list[Player]:  # type: ignore[no-untyped-def]
    return list(session.scalars(select(Game).where(Game.id == game_id).options(joinedload(Game.players)))
                .unique().one().players)


def _selectin(session, game_id: int) -> list[Player]:  # type: ignore[no-untyped-def]
    return list(session.scalars(select(Game).where(Game.id == game_id).options(selectinload(Game.players)))
                .one().players)


@pytest.mark.parametrize("load", [_lazy, _joined, _selectin], ids=["lazy", "joined", "selectin"])
def test_a_relationship_load_of_rows_with_held_writes_sees_them(database_url, clock, load) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with transaction(services.sessions) as session, queries.rows.held_writes(session) as held:
        france = session.scalars(select(Player).where(Player.game_id == game_id, Player.power == "FRANCE")).one()
        queries.rows.write_now(session, france, {"address": "new@players.test"})
        assert held.tables() == {"players"}
        session.expire_all()  # the objects loaded again from what the database gives
        addresses = {player.power: player.address for player in load(session, game_id)}
    assert addresses["FRANCE"] == "new@players.test"


def test_held_writes_that_fail_when_a_statement_sends_them_are_refused_as_such(database_url, clock) -> None:
    """Sent as a statement reaches the cursor, their failure is still `HeldWritesFailed` (what the
    deadline's batch catches to do its work again), not the statement's own error."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="first")
    with pytest.raises(queries.rows.HeldWritesFailed) as failure:
        with transaction(services.sessions) as session, queries.rows.held_writes(session):
            _open(session, game_id, "S1901M", clock())  # the game's phase: taken
            session.connection().exec_driver_sql("SELECT COUNT(*) FROM phases").scalar()
    assert isinstance(failure.value.__cause__, IntegrityError)
