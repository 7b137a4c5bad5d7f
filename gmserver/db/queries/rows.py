"""The deadline's hot path through Core: a loaded row's new column values written with one
UPDATE, and statements of plain rows run on the session's connection.

The ORM's flush of an object it was told changed costs more on the client than the statement
it sends (its unit of work: about 1.2 ms a game at the deadline for the phase record's and the
game's UPDATEs, docs/performance.md). `write_now` sends the UPDATE itself and keeps the values
on the object as if loaded, so that no flush writes them again. A Core statement run through
`Session.execute` still pays the session's ORM execution (about half again the statement's
cost on the client); `plain_rows` runs it on the session's connection, in its transaction.

Within `held_writes` (the deadline's batch of games in one transaction), the writes nothing
reads back before the transaction ends are held and sent together at its end, a statement for
all the rows of each kind: on PostgreSQL each statement is a round trip.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Connection,
    CursorResult,
    Executable,
    Insert,
    Select,
    Table,
    bindparam,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql import visitors
from sqlalchemy.sql.expression import Update

from gmserver.db.models import Base


def write_now(session: Session, row: Base, changes: Mapping[str, Any]) -> None:
    """Give `row` the column values `changes` (attribute name -> value): the ones that differ
    from what it holds are written at once, one UPDATE of its row by primary key, and kept on
    the object as loaded. A change the caller made through the ORM before stays for the flush;
    attribute events (`set` listeners) do not fire, so a caller whose columns have one passes
    the values it would set too (`queries.games.advance`). Within `held_writes`, the UPDATE is
    held (with any other held for the row: the later value of a column wins)."""
    state = inspect(row)
    changed = {key: value for key, value in changes.items() if getattr(row, key) != value}
    if not changed:
        return
    mapper = state.mapper
    columns = {mapper.get_property(key).columns[0].key: value for key, value in changed.items()}
    held = holding(session)
    if held is None:
        session.connection().execute(_update_by_key(mapper.local_table), {_ROW_KEY: state.identity[0], **columns})
    else:
        held.updates.setdefault((mapper.local_table, state.identity[0]), {}).update(columns)
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


class HeldWritesFailed(Exception):
    """The writes held for a transaction (`held_writes`) could not all be sent (the driver's error
    is the cause: a key already taken, the database out of reach): which caller's write failed is
    not known, so the caller does its work again with each write sent at once."""


@dataclass
class _Children:
    """Rows of a parent table, each with rows of a child table that name the parent's new key."""

    parents: list[Mapping[str, Any]]
    children: list[list[Mapping[str, Any]]]


@dataclass
class HeldWrites:
    """The writes of a transaction that nothing reads back before it ends, held to be sent together
    at its end as one statement each (a multi-row INSERT, an UPDATE's executemany), or before any
    other statement runs on its connection, so that every read sees them.

    `read_ahead`: what a batch read for all its items at once (name -> (the tables read, what
    was read)), for its readers to take instead of reading an item's part (`read_ahead`); they
    add what is held. Forgotten once the writes are sent (the held rows are then in the tables,
    no longer held) or a statement other than a SELECT may change its tables."""

    connection: Connection
    updates: dict[tuple[Table, Any], dict[str, Any]] = field(default_factory=dict)  # (table, key) -> columns
    inserts: dict[Insert, list[Mapping[str, Any]]] = field(default_factory=dict)  # in order of first use
    # (parent table, its unique column, the children's INSERT, their key column) -> rows
    with_children: dict[tuple[Table, str, Insert, str], _Children] = field(default_factory=dict)
    read_ahead: dict[str, tuple[frozenset[str], Any]] = field(default_factory=dict)
    sending: bool = False

    def send(self) -> None:
        """Send every write held (UPDATEs, INSERTs, then parents and their children), and hold
        nothing any more. A failure is `HeldWritesFailed`, the driver's error its cause."""
        if not (self.updates or self.inserts or self.with_children):
            return
        self.read_ahead.clear()
        self.sending = True
        updates, inserts, with_children = self.updates, self.inserts, self.with_children
        self.updates, self.inserts, self.with_children = {}, {}, {}
        try:
            by_columns: dict[tuple[Table, tuple[str, ...]], list[dict[str, Any]]] = {}
            for (table, key), columns in updates.items():
                by_columns.setdefault((table, tuple(columns)), []).append({_ROW_KEY: key, **columns})
            for (table, _), rows in by_columns.items():
                self.connection.execute(_update_by_key(table), rows)
            for statement, rows in inserts.items():
                self.connection.execute(statement, rows)
            for (parent, unique, child, key_column), held in with_children.items():
                self.connection.execute(insert(parent), held.parents)
                keys = dict(self.connection.execute(_keys_by_unique(parent, unique),
                                                    {"values": [row[unique] for row in held.parents]}).all())
                self.connection.execute(child, [{**row, key_column: keys[parent_row[unique]]}
                                                for parent_row, rows in zip(held.parents, held.children, strict=True)
                                                for row in rows])
        except Exception as error:
            raise HeldWritesFailed(f"the held writes failed: {error}") from error
        finally:
            self.sending = False

    def tables(self) -> set[str]:
        """The tables written to by the writes held."""
        return ({table.name for table, _ in self.updates} | {statement.table.name for statement in self.inserts}
                | {name for parent, _, child, _ in self.with_children for name in (parent.name, child.table.name)})

    def before_statement(self, _connection: Connection, statement: Any, *_rest: Any) -> None:
        """Sends the writes held before `statement`, unless it touches none of their tables
        (`tables_touched`), or it is marked READS_AROUND_HELD_WRITES (its caller adds what is held)."""
        if self.sending:
            return
        if isinstance(statement, Executable) and statement.get_execution_options().get(READS_AROUND_HELD_WRITES):
            return
        touched = tables_touched(statement)
        if self.read_ahead and not isinstance(statement, Select):
            for name, (tables, _) in list(self.read_ahead.items()):
                if touched is None or not touched.isdisjoint(tables):
                    del self.read_ahead[name]
        if (self.updates or self.inserts or self.with_children) and (touched is None
                                                                      or not touched.isdisjoint(self.tables())):
            self.send()


# An execution option: the statement reads around the writes held (`held_writes`), its caller adds
# them to what it reads (`held_inserts`)
READS_AROUND_HELD_WRITES = "reads_around_held_writes"

_TABLES_TOUCHED: weakref.WeakKeyDictionary[Executable, frozenset[str] | None] = weakref.WeakKeyDictionary()


def tables_touched(statement: Any) -> frozenset[str] | None:
    """The names of the tables a SELECT, INSERT or UPDATE `statement` reads or writes (kept for
    the statements built once, as most are, the ORM's flush's too). None for any other statement
    (a DELETE may cascade to other tables), or one with SQL text in it, which may touch any."""
    if not isinstance(statement, Select | Insert | Update):
        return None
    if statement in _TABLES_TOUCHED:
        return _TABLES_TOUCHED[statement]
    tables: set[str] = set()
    unknown: list[Any] = []

    def column(column: Any) -> None:
        if getattr(column, "is_literal", False):
            unknown.append(column)
        elif isinstance(getattr(column, "table", None), Table):
            tables.add(column.table.name)

    visitors.traverse(statement, {}, {"table": lambda table: tables.add(table.name), "column": column,
                                      "textclause": unknown.append, "textual_select": unknown.append})
    touched = None if unknown else frozenset(tables)
    _TABLES_TOUCHED[statement] = touched
    return touched


_HELD = "held_writes"


@contextmanager
def held_writes(session: Session) -> Iterator[HeldWrites]:
    """Within it, `write_now`, `insert_later` and `insert_with_children_later` hold their writes
    (a round trip each on PostgreSQL, and the SQLAlchemy CPU of a statement) to send them together
    at its end; any other statement on the session's connection sends them first (a Connection
    event: the ORM's flush, a lazy load, a Core statement), so that nothing reads around them.
    Not a string run with `exec_driver_sql`: SQLAlchemy fires no `before_execute` for it, so it
    would read around them (no code on the deadline's path runs one; keep it so, or send first).
    An exception leaves them unsent (the transaction is rolled back); one in sending them is
    `HeldWritesFailed`, the driver's error its cause."""
    held = HeldWrites(session.connection())
    session.info[_HELD] = held
    event.listen(held.connection, "before_execute", held.before_statement)
    try:
        yield held
        held.send()
    finally:
        event.remove(held.connection, "before_execute", held.before_statement)
        del session.info[_HELD]


def holding(session: Session) -> HeldWrites | None:
    """The writes held for `session` (`held_writes`), or None where each is sent at once."""
    return session.info.get(_HELD)


def keep_read_ahead(session: Session, name: str, tables: frozenset[str], read: Any) -> None:
    """Within `held_writes`, keep `read` (read from `tables`) as `name` for `read_ahead`."""
    held = holding(session)
    if held is not None:
        held.read_ahead[name] = (tables, read)


def read_ahead(session: Session, name: str) -> Any:
    """What was kept as `name` (`keep_read_ahead`) and is still true; None otherwise. The
    session's pending changes are flushed first, as a query would: their statements may make
    what was read ahead untrue."""
    held = holding(session)
    if held is None:
        return None
    session.flush()
    kept = held.read_ahead.get(name)
    return kept[1] if kept is not None else None


def held_inserts(session: Session, statement: Insert) -> list[Mapping[str, Any]]:
    """The rows held to be inserted with `statement` (`insert_later`), oldest first; none outside
    `held_writes`."""
    held = holding(session)
    return list(held.inserts.get(statement, ())) if held is not None else []


def insert_later(session: Session, statement: Insert, row: Mapping[str, Any]) -> None:
    """INSERT `row` with `statement` (Core, on the table's columns, depending on no change the
    session holds unflushed): held within `held_writes`, sent at once otherwise."""
    held = holding(session)
    if held is None:
        plain_rows(session, statement, row, flush=False)
    else:
        held.inserts.setdefault(statement, []).append(row)


def insert_with_children_later(session: Session, parent: Table, parent_row: Mapping[str, Any], unique: str,
                               child: Insert, key_column: str, children: list[Mapping[str, Any]]) -> None:
    """INSERT `parent_row` into `parent` and `children` with `child`, their `key_column` the
    parent's new primary key: held within `held_writes` (then sent as one INSERT of the parents,
    one SELECT of their keys by their `unique` column, one INSERT of the children), sent at once
    otherwise (the parent's INSERT returning its key)."""
    held = holding(session)
    if held is None:
        key = session.scalar(_insert_returning_key(parent), parent_row)
        session.execute(child, [{**row, key_column: key} for row in children])
        return
    together = held.with_children.setdefault((parent, unique, child, key_column), _Children([], []))
    together.parents.append(parent_row)
    together.children.append(children)


@functools.cache
def _insert_returning_key(table: Table) -> Insert:
    """An INSERT into `table` returning the new row's primary key (built once)."""
    key_column, = table.primary_key.columns
    return insert(table).returning(key_column)


@functools.cache
def _keys_by_unique(table: Table, unique: str) -> Select:
    """(unique value, primary key) of the rows of `table` whose `unique` column is among the
    expanding parameter "values" (built once)."""
    key_column, = table.primary_key.columns
    return select(table.c[unique], key_column).where(table.c[unique].in_(bindparam("values", expanding=True)))
