"""`queries.rows.write_now`: a loaded row's new values in one UPDATE at once (the deadline's
phase record and game), kept on the object as loaded so that no flush writes them again."""

from __future__ import annotations

from sqlalchemy import event

from gmserver.db import queries
from gmserver.db.models import PhaseRecord
from gmserver.db.session import transaction
from tests.support.world import new_game, services_for


def test_only_what_differs_is_written_once_and_the_flush_writes_nothing_more(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock())
    statements: list[str] = []

    def sent(_connection, _cursor, statement, *_rest) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    with transaction(services.sessions) as session:
        record = queries.phases.phase_record(session, game_id, "S1901M")
        deadline = record.deadline
        engine = session.get_bind()
        event.listen(engine, "before_cursor_execute", sent)
        try:
            queries.rows.write_now(session, record, {"adjudicated_at": clock(), "results": [{"power": "FRANCE"}],
                                                     "deadline": deadline})  # the deadline as it was
            assert record.adjudicated_at == clock() and record.results == [{"power": "FRANCE"}]
            assert not session.dirty
            queries.rows.write_now(session, record, {"adjudicated_at": clock()})  # nothing differs
            session.flush()
        finally:
            event.remove(engine, "before_cursor_execute", sent)
    updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE")]
    assert len(updates) == 1 and "deadline" not in updates[0].lower()
    with transaction(services.sessions) as session:
        stored = session.get(PhaseRecord, record.id)
        assert (stored.adjudicated_at, stored.results, stored.deadline) == (clock(), [{"power": "FRANCE"}], deadline)
