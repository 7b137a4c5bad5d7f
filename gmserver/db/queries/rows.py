"""The deadline's hot path through Core: a loaded row's new column values written with one
UPDATE, and statements of plain rows run on the session's connection.

The ORM's flush of an object it was told changed costs more on the client than the statement
it sends (its unit of work: about 1.2 ms a game at the deadline for the phase record's and the
game's UPDATEs, docs/performance.md). `write_now` sends the UPDATE itself and keeps the values
on the object as if loaded, so that no flush writes them again. A Core statement run through
`Session.execute` still pays the session's ORM execution (about half again the statement's
cost on the client); `plain_rows` runs it on the session's connection, in its transaction.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from sqlalchemy import CursorResult, Executable, Table, bindparam, inspect, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql.expression import Update

from gmserver.db.models import Base


def write_now(session: Session, row: Base, changes: Mapping[str, Any]) -> None:
    """Give `row` the column values `changes` (attribute name -> value): the ones that differ
    from what it holds are written at once, one UPDATE of its row by primary key, and kept on
    the object as loaded. A change the caller made through the ORM before stays for the flush;
    attribute events (`set` listeners) do not fire, so a caller whose columns have one passes
    the values it would set too (`queries.games.advance`)."""
    state = inspect(row)
    changed = {key: value for key, value in changes.items() if getattr(row, key) != value}
    if not changed:
        return
    mapper = state.mapper
    session.connection().execute(_update_by_key(mapper.local_table), {
        _ROW_KEY: state.identity[0], **{mapper.get_property(key).columns[0].key: value for key, value in changed.items()}})
    for key, value in changed.items():
        set_committed_value(row, key, value)


_ROW_KEY = "row_key"


@functools.cache
def _update_by_key(table: Table) -> Update:
    """An UPDATE of one row of `table` by its primary key; its SET clause is the parameters'
    columns (built once: building it cost more than sending it)."""
    key_column, = table.primary_key.columns
    return update(table).where(key_column == bindparam(_ROW_KEY))


def plain_rows(session: Session, statement: Executable, parameters: Mapping[str, Any], *,
               flush: bool = True) -> CursorResult[Any]:
    """`statement` (Core, on the tables' columns) run on the session's connection, in its
    transaction. With `flush`, the session's pending changes are written first, as an ORM query
    would (a session with none costs a check); `flush=False` where the statement depends on none."""
    if flush:
        session.flush()
    return session.connection().execute(statement, parameters)
