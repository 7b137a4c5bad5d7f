"""`queries.rows.sql_tables`: which tables a statement's SQL may touch, as the held writes' check
reads it at the cursor (`held_writes`)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver.db.models import OrderSet, PhaseRecord
from gmserver.db.queries.rows import sql_tables, statement_reads


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT games.phase FROM games WHERE games.id = ?", (True, frozenset({"games"}))),
    ('SELECT "Phases".state FROM "PHASES" JOIN games ON games.id = phases.game_id', (True, {"phases", "games"})),
    ("  (SELECT players.address FROM players)", (True, {"players"})),
    ("UPDATE order_sets SET marker = 'x' WHERE game_id = 1", (False, {"order_sets"})),
    ("INSERT INTO outbox (report_id) VALUES (%(report_id)s)", (False, {"outbox"})),
    ("SELECT 1", (True, frozenset())),
    ("DELETE FROM games WHERE id = 1", (False, None)),  # the foreign keys that name games are checked
    ("WITH x AS (UPDATE phases SET results = NULL RETURNING id) SELECT * FROM x", (False, None)),
    ("SAVEPOINT sa_savepoint_1", (False, None)),
    ("ROLLBACK TO SAVEPOINT sa_savepoint_1", (False, None)),
    ("", (False, None)),
])
def test_the_tables_a_statement_names(sql: str, expected: tuple[bool, frozenset[str] | None]) -> None:
    select_, tables = sql_tables(sql)
    assert (select_, tables) == (expected[0], None if expected[1] is None else frozenset(expected[1]))


def test_what_a_statement_reads_is_its_columns_where_and_order_by() -> None:
    phases = PhaseRecord.__table__.c
    reads = statement_reads(select(phases.phase, phases.state["centers"]).where(phases.game_id == 1)
                            .order_by(phases.id))
    assert reads.tables == {"phases"}
    assert reads.columns == {("phases", name) for name in ("id", "game_id", "phase", "state")}
    orm = statement_reads(select(PhaseRecord.results).where(PhaseRecord.adjudicated_at.is_(None)))
    assert orm.columns == {("phases", "results"), ("phases", "adjudicated_at")}
    entity = statement_reads(select(OrderSet).where(OrderSet.game_id == 1))
    assert entity.columns == {("order_sets", column.name) for column in OrderSet.__table__.columns}
