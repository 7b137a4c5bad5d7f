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

What reaches the connection's cursor is what is checked, so nothing reads around the writes held,
whatever built the statement: a Core or ORM statement, the ORM's flush, a relationship's load
(a joined one names its table only in the SQL), a string run with `exec_driver_sql`. A statement
touches the tables its SQL names; one that is not a SELECT, INSERT or UPDATE may touch any. A
savepoint sends what is held before it begins, and nothing is held or read ahead within it (each
write is sent at once): what its rollback undoes was never held, and what was held before it is
not undone.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Collection, Iterator, Mapping
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
    held (with any other held for the row: the later value of a column wins). Within a savepoint
    the columns are expired instead, read again when next asked for."""
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
        held.columns_held.setdefault(mapper.local_table.name, set()).update(columns)
        held.forget_columns_read(mapper.local_table.name, columns)
    if session.in_nested_transaction():
        # the ORM puts back at a savepoint's rollback only what it saw change: a value kept as
        # loaded would outlive the rollback of its UPDATE; read again, it is what the database holds
        session.expire(row, list(changed))
        return
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


@dataclass(frozen=True)
class _ReadAhead:
    """What a batch read ahead (`keep_read_ahead`), with what its statement reads."""

    reads: StatementReads
    adds: Collection[Insert]  # the INSERTs whose held rows its readers add to it
    read: Any


@dataclass
class HeldWrites:
    """The writes of a transaction that nothing reads back before it ends, held to be sent together
    at its end as one statement each (a multi-row INSERT, an UPDATE's executemany), or before any
    other statement runs on its connection, so that every read sees them.

    `read_ahead`: what a batch read for all its items at once (name -> what was read, with the
    tables and columns its statement reads), for its readers to take instead of reading an
    item's part (`read_ahead`); they add the rows held for the INSERTs they name. Forgotten once
    the writes are sent (the held rows are then in the tables, no longer held), a statement
    other than a SELECT may change its tables, a held UPDATE sets a column it reads, or a held
    INSERT its readers do not add goes to one of its tables."""

    connection: Connection
    updates: dict[tuple[Table, Any], dict[str, Any]] = field(default_factory=dict)  # (table, key) -> columns
    inserts: dict[Insert, list[Mapping[str, Any]]] = field(default_factory=dict)  # in order of first use
    # (parent table, its unique column, the children's INSERT, their key column) -> rows
    with_children: dict[tuple[Table, str, Insert, str], _Children] = field(default_factory=dict)
    read_ahead: dict[str, _ReadAhead] = field(default_factory=dict)
    columns_held: dict[str, set[str]] = field(default_factory=dict)  # table -> the columns held UPDATEs set
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
        self.columns_held = {}
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

    def forget_columns_read(self, table: str, columns: Collection[str]) -> None:
        """Forget what was read ahead that reads a column of `columns` of `table` (a held UPDATE
        sets them)."""
        for name, kept in list(self.read_ahead.items()):
            if any((table, column) in kept.reads.columns for column in columns):
                del self.read_ahead[name]

    def forget_rows_read(self, table: str, added: Insert | None) -> None:
        """Forget what was read ahead from `table`, where a row is held to be inserted, unless its
        readers add the rows held for `added` (None: rows no reader adds)."""
        for name, kept in list(self.read_ahead.items()):
            if table in kept.reads.tables and (added is None or added not in kept.adds):
                del self.read_ahead[name]

    def before_cursor(self, _connection: Connection, _cursor: Any, sql: str, _parameters: Any, context: Any,
                      _many: bool) -> None:
        """Sends the writes held before the statement `sql` reaches the cursor, unless it names none
        of their tables (`sql_tables`), or it reads around them (READS_AROUND_HELD_WRITES) and none
        it reads was held but for the INSERTs its caller adds; forgets what was read ahead from
        the tables a statement other than a SELECT may change."""
        if self.sending:
            return
        select, touched = sql_tables(sql)
        if self.read_ahead and not select:
            for name, kept in list(self.read_ahead.items()):
                if touched is None or not touched.isdisjoint(kept.reads.tables):
                    del self.read_ahead[name]
        if not (self.updates or self.inserts or self.with_children):
            return
        adds = context.execution_options.get(READS_AROUND_HELD_WRITES) if context is not None else None
        if adds is not None and context.compiled is not None and self.adds_all(statement_reads(
                context.compiled.statement), adds):
            return
        if touched is None or not touched.isdisjoint(self.tables()):
            self.send()

    def adds_all(self, reads: StatementReads, adds: Collection[Insert]) -> bool:
        """Whether a statement that `reads` misses nothing held but the rows of `adds`."""
        return (not any((table, column) in reads.columns
                        for table, columns in self.columns_held.items() if table in reads.tables for column in columns)
                and all(statement in adds for statement in self.inserts if statement.table.name in reads.tables)
                and not any(name in reads.tables for parent, _, child, _ in self.with_children
                            for name in (parent.name, child.table.name)))

    def before_savepoint(self, _connection: Connection, _name: str | None) -> None:
        """Sends the writes held before a savepoint begins: its rollback must not undo them."""
        self.send()


# An execution option: the statement reads around the writes held (`held_writes`), its caller adding
# the rows held for the INSERTs it names (`held_inserts`); the held writes of anything else it reads
# are sent before it all the same
READS_AROUND_HELD_WRITES = "reads_around_held_writes"

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_TABLE_NAMES = frozenset(Base.metadata.tables)
_ANALYSED_VERBS = frozenset({"SELECT", "INSERT", "UPDATE"})


@functools.lru_cache(maxsize=4096)
def sql_tables(sql: str) -> tuple[bool, frozenset[str] | None]:
    """(whether the statement `sql` is a SELECT, the names of the tables it names). None for the
    tables of one that is not a SELECT, INSERT or UPDATE: it may touch any (a DELETE checks the
    tables whose foreign keys name its table; a savepoint's rollback undoes writes to any)."""
    words = _WORD.findall(sql)
    verb = words[0].upper() if words else ""
    if verb not in _ANALYSED_VERBS:
        return False, None
    return verb == "SELECT", frozenset(word.lower() for word in words) & _TABLE_NAMES


@dataclass(frozen=True)
class StatementReads:
    """The tables and the (table, column) pairs a statement reads."""

    tables: frozenset[str]
    columns: frozenset[tuple[str, str]]


_STATEMENT_READS: weakref.WeakKeyDictionary[Executable, StatementReads] = weakref.WeakKeyDictionary()


def statement_reads(statement: Executable) -> StatementReads:
    """What `statement` reads: its columns (an ORM entity's every column), its WHERE, its ORDER BY
    (kept for the statements built once, as these are)."""
    if statement in _STATEMENT_READS:
        return _STATEMENT_READS[statement]
    tables: set[str] = set()
    columns: set[tuple[str, str]] = set()

    def column(column: Any) -> None:
        if isinstance(getattr(column, "table", None), Table):
            tables.add(column.table.name)
            columns.add((column.table.name, column.name))

    visitors.traverse(statement, {}, {"table": lambda table: tables.add(table.name), "column": column})
    if isinstance(statement, Select):
        for selected in statement.selected_columns:  # an ORM entity's columns are not in its structure
            column(selected)
    reads = StatementReads(frozenset(tables), frozenset(columns))
    _STATEMENT_READS[statement] = reads
    return reads


_HELD = "held_writes"


@contextmanager
def held_writes(session: Session) -> Iterator[HeldWrites]:
    """Within it, `write_now`, `insert_later` and `insert_with_children_later` hold their writes
    (a round trip each on PostgreSQL, and the SQLAlchemy CPU of a statement) to send them together
    at its end; any other statement on the session's connection that names their tables sends
    them first, as it reaches the cursor (a Connection event: the ORM's flush, a relationship's
    load, a Core statement, a string run with `exec_driver_sql`), and so does a savepoint as it
    begins, so that nothing reads around them. Within a savepoint nothing is held (`holding`).
    An exception leaves them unsent (the transaction is rolled back); one in sending them is
    `HeldWritesFailed`, the driver's error its cause."""
    held = HeldWrites(session.connection())
    session.info[_HELD] = held
    event.listen(held.connection, "before_cursor_execute", held.before_cursor)
    event.listen(held.connection, "savepoint", held.before_savepoint)
    try:
        yield held
        held.send()
    finally:
        event.remove(held.connection, "savepoint", held.before_savepoint)
        event.remove(held.connection, "before_cursor_execute", held.before_cursor)
        del session.info[_HELD]


def holding(session: Session) -> HeldWrites | None:
    """The writes held for `session` (`held_writes`), or None where each is sent at once: outside
    `held_writes`, and within a savepoint (begun on the session, its SAVEPOINT not sent yet, or
    on the connection), whose rollback must undo them."""
    held: HeldWrites | None = session.info.get(_HELD)
    if held is None or session.in_nested_transaction() or held.connection.in_nested_transaction():
        return None
    return held


def keep_read_ahead(session: Session, name: str, statement: Executable, read: Any, *,
                    adds: Collection[Insert] = ()) -> None:
    """Within `held_writes`, keep `read` (read with `statement`) as `name` for `read_ahead`; its
    readers add the rows held for the INSERTs `adds` (`held_inserts`)."""
    held = holding(session)
    if held is not None:
        held.read_ahead[name] = _ReadAhead(statement_reads(statement), adds, read)


def read_ahead(session: Session, name: str) -> Any:
    """What was kept as `name` (`keep_read_ahead`) and is still true; None otherwise. The
    session's pending changes are flushed first, as a query would: their statements may make
    what was read ahead untrue."""
    held = holding(session)
    if held is None:
        return None
    session.flush()
    kept = held.read_ahead.get(name)
    return kept.read if kept is not None else None


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
        held.forget_rows_read(statement.table.name, statement)


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
    held.forget_rows_read(parent.name, None)
    held.forget_rows_read(child.table.name, None)
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
