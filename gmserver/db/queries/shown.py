"""What `game show` and `game list` read, written once on the models and compiled into
gmserver/db/shown_sql.py, which those commands run through the driver alone (gmserver/db/plain.py
says why). After changing a statement here, or a model column it reads, write that file again:

    .venv/bin/python -m gmserver.db.queries.shown

(tests/unit/test_shown_sql.py fails while it differs from what this module compiles.)
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Boolean, Date, DateTime, Select, bindparam, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.types import TypeDecorator, TypeEngine

from gmserver.db.models import (
    AbsenceRow,
    Announcement,
    Game,
    InboundMessage,
    OrderSet,
    PhaseRecord,
    Player,
    PlayerHistory,
    Proxy,
    Signup,
)
from gmserver.db.queries.absences import IN_FORCE
from gmserver.db.queries.ordersets import NEWEST_FIRST, PLAYERS_OWN

GENERATED = Path(__file__).resolve().parents[1] / "shown_sql.py"

_PLAYERS = (select(func.count(Player.id)).where(Player.game_id == Game.id).correlate(Game)
            .scalar_subquery().label("players"))
_LISTED = (Game.name, Game.ruleset_name, Game.status, Game.phase, Game.deadline, Game.timezone, Game.paused, _PLAYERS)
# game list: every game; --active: not finished; --open: active, not paused, with a deadline (the players can order now)
_FILTERS = {
    "all": (),
    "active": (Game.status == "active",),
    "open": (Game.status == "active", Game.paused.is_(False), Game.deadline.is_not(None)),
}


def _listing(conditions: tuple, *, limited: bool) -> Select:
    query = select(*_LISTED).where(*conditions).order_by(Game.name)
    return query.limit(bindparam("limit")) if limited else query


STATEMENTS: dict[str, Select] = {
    # game show: the game, and the names of all when there is none of that name
    "game": select(Game.id, Game.name, Game.ruleset_name, Game.ruleset, Game.status, Game.phase, Game.deadline,
                   Game.paused, Game.timezone, Game.deadline_time, Game.sender_check, Game.movement_seconds,
                   Game.retreat_seconds, Game.adjustment_seconds, Game.reminder_seconds, Game.waiting_for,
                   Game.gm_copies, Game.gm_secret, Game.anonymous, Game.pages_public).where(
        Game.name == bindparam("name")),
    "game_names": select(Game.name).order_by(Game.name),
    "record": select(PhaseRecord.state, PhaseRecord.revision).where(
        PhaseRecord.game_id == bindparam("game_id"), PhaseRecord.phase == bindparam("phase")),
    "players": select(Player.power, Player.address, Player.fallback_address, Player.secret, Player.abbreviations,
                      Player.perpetual, Player.clarifications, Player.missed_turns, Player.missed_in_a_row,
                      Player.civil_disorder, Player.joined_at, Player.zone, Player.confirm_style,
                      Player.press_delivery, Player.resigned_at).where(
        Player.game_id == bindparam("game_id")).order_by(Player.power),
    # the sets sent for the phase, by power, then in order of receipt (queries.ordersets.order_sets)
    "phase_sets": select(OrderSet.power, OrderSet.phase, OrderSet.orders, OrderSet.version, OrderSet.marker,
                         OrderSet.is_change, OrderSet.status, OrderSet.unsupportable, OrderSet.contingent,
                         OrderSet.by_proxy).where(
        OrderSet.game_id == bindparam("game_id"), OrderSet.phase == bindparam("phase")).order_by(
        OrderSet.power, OrderSet.version),
    # every power's own sets in the game, newest first (queries.ordersets.players_sets)
    "players_sets": select(OrderSet.power, OrderSet.received_at, OrderSet.lines).where(
        OrderSet.game_id == bindparam("game_id"), *PLAYERS_OWN).order_by(*NEWEST_FIRST),
    # the game's proxies, oldest first (queries.proxies.proxies_of)
    "proxies": select(Proxy.power, Proxy.holder, Proxy.status, Proxy.until_phase, Proxy.units).where(
        Proxy.game_id == bindparam("game_id")).order_by(Proxy.id),
    # the players replaced, by power, in the order they left (queries.players.former_players)
    "former_players": select(PlayerHistory.power, PlayerHistory.address, PlayerHistory.joined_at,
                             PlayerHistory.left_at, PlayerHistory.left_in_phase, PlayerHistory.missed_turns,
                             PlayerHistory.cd_recorded).where(
        PlayerHistory.game_id == bindparam("game_id")).order_by(PlayerHistory.power, PlayerHistory.id),
    # messages held for the GM, oldest first (queries.inbound.held_of_game)
    "held": select(InboundMessage.id, InboundMessage.power, InboundMessage.held_phase).where(
        InboundMessage.game_id == bindparam("game_id"), InboundMessage.status == "held").order_by(InboundMessage.id),
    # open sign-up: the confirmed standby players or observers, in queue order (queries.signups.signups)
    "signups": select(Signup.address).where(
        Signup.game_name == bindparam("name"), Signup.kind == bindparam("kind"), Signup.status == "confirmed").order_by(
        Signup.confirmed_at.is_(None), Signup.confirmed_at, Signup.id),
    # the players' registered absences not cancelled, by power and first day (queries.absences.registered)
    "absences": select(AbsenceRow.power, AbsenceRow.first_day, AbsenceRow.last_day).where(
        AbsenceRow.game_id == bindparam("game_id"), *IN_FORCE).order_by(AbsenceRow.power, AbsenceRow.first_day, AbsenceRow.id),
    # how the powers were assigned at an open sign-up's start (queries.signups.announcement)
    "assignment": select(Announcement.assignment).where(Announcement.name == bindparam("name")),
    **{f"list_{name}": _listing(conditions, limited=False) for name, conditions in _FILTERS.items()},
    **{f"list_{name}_limited": _listing(conditions, limited=True) for name, conditions in _FILTERS.items()},
    **{f"count_{name}": select(func.count(Game.id).label("games")).where(*conditions) for name, conditions in _FILTERS.items()},
}

# each database's dialect, with named parameters (sqlite3 takes :name, psycopg %(name)s)
DIALECTS = {"sqlite": sqlite.dialect(paramstyle="named"), "postgresql": postgresql.psycopg.dialect()}


def kind_of(column_type: TypeEngine) -> str:
    """What gmserver.db.plain converts a column's raw value with (its CONVERSIONS)."""
    if isinstance(column_type, TypeDecorator):
        column_type = column_type.impl_instance
    if isinstance(column_type, DateTime):
        return "datetime"
    if isinstance(column_type, Date):
        return "date"
    if isinstance(column_type, JSON):
        return "json"
    if isinstance(column_type, Boolean):
        return "bool"
    return "any"


def compiled(statement: Select) -> tuple[dict[str, str], dict[str, dict[str, Any]], tuple[tuple[str, str], ...]]:
    """The statement's SQL per database (on one line), the values written in it per database (its
    parameters that have one: `status = 'held'`, SQLite's OFFSET 0), and (name, kind) of each
    column it reads."""
    sql, values = {}, {}
    for name, dialect in DIALECTS.items():
        text = statement.compile(dialect=dialect)
        sql[name] = " ".join(str(text).split())
        if fixed := {key: value for key, value in text.params.items() if value is not None}:
            values[name] = fixed
    return sql, values, tuple((column.name, kind_of(column.type)) for column in statement.selected_columns)


def _wrapped(text: str, indent: str) -> list[str]:
    """A long SQL text as adjacent string literals of lines that fit the code's width."""
    chunks = textwrap.wrap(text, 96, break_long_words=False, break_on_hyphens=False)
    return [f"{indent}{chunk + (' ' if place < len(chunks) - 1 else '')!r}" for place, chunk in enumerate(chunks)]


def source() -> str:
    """The text of gmserver/db/shown_sql.py."""
    lines = [
        '"""Generated by `python -m gmserver.db.queries.shown` from the statements of gmserver/db/queries/shown.py:',
        'do not edit (tests/unit/test_shown_sql.py checks that it is up to date)."""',
        "",
        "from gmserver.db.plain import Statement",
        "",
        "STATEMENTS: dict[str, Statement] = {",
    ]
    for name, statement in STATEMENTS.items():
        sql, values, columns = compiled(statement)
        lines += [f"    {name!r}: Statement(", "        sql={"]
        for dialect, text in sql.items():
            lines += [f"            {dialect!r}: (", *_wrapped(text, " " * 16), "            ),"]
        lines.append("        },")
        if values:
            lines.append(f"        values={values!r},")
        lines.append("        columns=(")
        lines += [f"            {column!r}," for column in columns]
        lines += ["        ),", "    ),"]
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    GENERATED.write_text(source(), encoding="utf-8")
    print(f"wrote {GENERATED}", file=sys.stderr)
