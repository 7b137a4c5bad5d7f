"""`queries.rows.held_writes`: a batch's writes that nothing reads back, held and sent together at
its end (a statement for the rows of each kind), or before any statement that could read them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, insert, select
from sqlalchemy.exc import IntegrityError

from gmserver.db import queries
from gmserver.db.models import Game, OrderSet, PhaseRecord
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
