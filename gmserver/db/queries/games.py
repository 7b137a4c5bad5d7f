"""Games: by name, by id for adjudication, the ones due, and a game's ruleset."""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Row, Text, bindparam, cast, exists, func, or_, select
from sqlalchemy.orm import Session

from gmserver.db.models import TIMING_COLUMNS, Game, GameNameWord, PhaseRecord, Player, Proxy, look_again_at
from gmserver.db.queries.rows import plain_rows, write_now
from gmserver.rules.ruleset import Ruleset


def game_by_name(session: Session, name: str) -> Game | None:
    return session.scalar(select(Game).where(Game.name == name))


def deadline_of(session: Session, game_id: int) -> datetime | None:
    """The game's deadline as it stands now in this transaction (a command may just have moved it)."""
    return session.scalar(select(Game.deadline).where(Game.id == game_id))


def game_names(session: Session) -> list[str]:
    return list(session.scalars(select(Game.name).order_by(Game.name)))


def games_by_name(session: Session) -> list[Game]:
    """Every game, in order of name."""
    return list(session.scalars(select(Game).order_by(Game.name)))


def games_named_like(session: Session, prefix: str) -> list[Game]:
    """The games whose name starts with `prefix`, oldest first."""
    return list(session.scalars(select(Game).where(Game.name.startswith(prefix, autoescape=True))
                                .order_by(Game.id)))


def past_deadline(session: Session, now: datetime) -> list[Game]:
    """Every active game whose deadline has passed, earliest deadline first (whether each is due
    yet depends on its ruleset's grace period and trigger: services/game/schedule.py decides); a paused
    game is never due."""
    return list(session.scalars(select(Game).where(Game.status == "active", Game.paused.is_(False),
                                                   Game.deadline <= now).order_by(Game.deadline)))


def in_minor_phase_before_deadline(session: Session, now: datetime) -> list[Game]:
    """Active games in a retreat or adjustment phase whose deadline has not come (candidates for
    early adjudication, 000 VII(2))."""
    return list(session.scalars(select(Game).where(
        Game.status == "active", Game.paused.is_(False), Game.deadline > now, or_(Game.phase.like("%R"), Game.phase.like("%A")))
        .order_by(Game.id)))


def reminders_to_look_at(session: Session, now: datetime) -> list[int]:
    """Active games whose next reminder time has come (games.next_reminder_at, indexed: an idle
    sweep reads none); a paused game gets none."""
    return list(session.scalars(select(Game.id).where(Game.next_reminder_at <= now, Game.status == "active",
                                                      Game.paused.is_(False)).order_by(Game.id)))


def checks_to_look_at(session: Session, now: datetime) -> list[int]:
    """Active games whose next checkpoint time has come (games.next_check_at, indexed)."""
    return list(session.scalars(select(Game.id).where(Game.next_check_at <= now, Game.status == "active",
                                                      Game.paused.is_(False)).order_by(Game.id)))


def active_games_checking(session: Session, sender_check: str) -> list[Game]:
    """The active games whose senders are checked so (`sender_check`), oldest first."""
    return list(session.scalars(select(Game).where(Game.status == "active", Game.sender_check == sender_check)
                                .order_by(Game.id)))


# built once: each deadline claims its game with one of them
_FOR_UPDATE = {skip: select(Game).where(Game.id == bindparam("game_id")).with_for_update(skip_locked=skip)
               for skip in (False, True)}


def game_for_update(session: Session, game_id: int, *, skip_locked: bool) -> Game | None:
    """The game row, locked until the transaction ends; with `skip_locked`, None while another
    transaction holds it (the caller tries again later)."""
    return session.scalar(_FOR_UPDATE[skip_locked], {"game_id": game_id})


def ruleset_of(game: Game | OpenGame) -> Ruleset:
    """The game's own ruleset, from the snapshot it keeps (editing a profile never changes a
    game in progress). Read once per distinct snapshot: every mail and phase asks for it. The
    game object keeps the answer for its snapshot (a deadline asks about eight times;
    benchmark): the snapshot is only ever replaced, never changed in place. A game loaded
    afresh (each mail's transaction loads its game) finds the ruleset read for its id before
    when its snapshot is equal to that one's: comparing them cost a fraction of writing the
    snapshot out as the key of the cache of distinct snapshots, and a snapshot the GM changed is
    unequal, so read again."""
    if isinstance(game, OpenGame):  # the snapshot's stored text
        return _ruleset(game.ruleset)
    snapshot = game.ruleset
    kept = game.__dict__.get("_ruleset_read")
    if kept is not None and kept[0] is snapshot:
        return kept[1]
    read_before = _READ_BY_GAME.get(game.id)
    if read_before is not None and read_before[0] == snapshot:
        ruleset = read_before[1]
    else:
        ruleset = _ruleset(json.dumps(snapshot, sort_keys=True))
        if len(_READ_BY_GAME) >= _GAMES_KEPT:
            _READ_BY_GAME.clear()  # one statement, safe beside the intake's other threads
        _READ_BY_GAME[game.id] = (snapshot, ruleset)
    game.__dict__["_ruleset_read"] = (snapshot, ruleset)
    return ruleset


# game id -> (the snapshot last read for it, its ruleset); at most _GAMES_KEPT games, so that a
# server with many games keeps a bounded number of snapshots (each game's own copy). As the
# object's own answer above, this holds because a snapshot is never changed in place.
_READ_BY_GAME: dict[int, tuple[Any, Ruleset]] = {}
_GAMES_KEPT = 1024


@functools.lru_cache(maxsize=256)
def _ruleset(snapshot_json: str) -> Ruleset:
    return Ruleset.from_snapshot(json.loads(snapshot_json))


def timing_rows(session: Session, game_ids: Collection[int] | None = None
                ) -> Iterator[tuple[int, str, datetime | None, bool, int, Ruleset]]:
    """(id, phase, deadline, paused, reminder_seconds, ruleset) of every active game, or of those
    of `game_ids` that are active, what the daemon's deadline and reminder jobs follow from. Read a
    batch at a time as plain rows, the snapshot as its stored text (parsed once per distinct
    text): the daemon's start reads every game, and keeping them all as objects cost it more
    than 100 MiB for good."""
    query = select(Game.id, Game.phase, Game.deadline, Game.paused, Game.reminder_seconds,
                   cast(Game.ruleset, Text)).where(Game.status == "active")
    if game_ids is not None:
        query = query.where(Game.id.in_(game_ids))
    for row in session.execute(query.execution_options(yield_per=500)):
        yield row[0], row[1], row[2], row[3], row[4], _ruleset(row[5])


_PHASE_FOR_UPDATE = (select(Game.__table__.c.phase).where(Game.__table__.c.id == bindparam("game_id"))
                     .with_for_update())  # built once: each mail; a Core statement on the table (plain_rows)


def game_phase_for_update(session: Session, game_id: int) -> str | None:
    """The game's phase, its row locked until the transaction ends (waiting for the lock)."""
    return plain_rows(session, _PHASE_FOR_UPDATE, {"game_id": game_id}).scalar()


def add_name_words(session: Session, game_id: int, words: Iterable[str]) -> None:
    """Keep the words of the game's name (GameNameWord), each once."""
    session.add_all(GameNameWord(word=word, game_id=game_id) for word in sorted(set(words)))


_OPEN = ("active", "finished")


@dataclass(frozen=True)
class OpenGame:
    """An active or finished game as intake reads it (`open_games_named_by`,
    `open_games_with_players`): what services.game.games.game_view takes of a game, as plain
    rows, read-only, with when its current phase started. `ruleset` is the snapshot's stored
    text (`ruleset_of` reads each distinct text once); `players` have power, address,
    fallback_address, secret and resigned_at."""

    id: int
    name: str
    phase: str
    deadline: datetime | None
    status: str
    timezone: str
    sender_check: str
    ruleset: str
    turn_opened: datetime | None  # when its latest phase was adjudicated (phases.last_adjudicated_at)
    # whether it has any row of proxies (000 II(3), 003 [19]): most games have none, and their
    # proxies are then not read for each mail (services.game.games.game_view)
    has_proxies: bool
    players: tuple[Any, ...]


_GAMES, _PLAYERS, _PHASES = Game.__table__.c, Player.__table__.c, PhaseRecord.__table__.c
_GAME_FIELDS = ("id", "name", "phase", "deadline", "status", "timezone", "sender_check")
_PLAYER_FIELDS = ("power", "address", "fallback_address", "secret", "resigned_at")
# One statement a mail, each game's row beside each of its players' (the ORM read the players
# with a second statement, and made an object of every row): player columns labelled with a
# prefix, since both tables have an id and a status.
_TURN_OPENED = (select(func.max(_PHASES.adjudicated_at)).where(_PHASES.game_id == _GAMES.id)
                .scalar_subquery().label("turn_opened"))
_HAS_PROXIES = exists().where(Proxy.__table__.c.game_id == _GAMES.id).label("has_proxies")
_OPEN_GAMES = (select(*(_GAMES[field] for field in _GAME_FIELDS), cast(_GAMES.ruleset, Text).label("ruleset"),
                      _TURN_OPENED, _HAS_PROXIES,
                      *(_PLAYERS[field].label(f"player_{field}") for field in _PLAYER_FIELDS))
               .select_from(Game.__table__.outerjoin(Player.__table__, _PLAYERS.game_id == _GAMES.id))
               .where(_GAMES.status.in_(_OPEN)).order_by(_GAMES.id, _PLAYERS.power))
_NAMED_BY = _OPEN_GAMES.where(_GAMES.id.in_(  # built once: each mail asks
    select(GameNameWord.game_id).where(GameNameWord.word.in_(bindparam("words", expanding=True)))))
_GAME_COLUMNS = len(_GAME_FIELDS) + 3  # and the ruleset's text, the turn's start and has_proxies, in OpenGame's order
_WITH_IDS = _OPEN_GAMES.where(_GAMES.id.in_(bindparam("game_ids", expanding=True)))


def open_games_named_by(session: Session, words: Iterable[str]) -> list[OpenGame]:
    """The active or finished games a word of whose name is among `words`, their players read,
    oldest first: one statement, through the name words' key."""
    return _open_games(plain_rows(session, _NAMED_BY, {"words": sorted(set(words))}))


def open_games_with_players(session: Session, game_ids: Sequence[int]) -> list[OpenGame]:
    """The active or finished games among `game_ids`, their players read, oldest first."""
    return _open_games(plain_rows(session, _WITH_IDS, {"game_ids": list(game_ids)}))


def _open_games(rows: Iterable[Row]) -> list[OpenGame]:
    """`_OPEN_GAMES` rows (a game's row once for each of its players, in order) as games."""
    games: dict[int, tuple[Row, list[SimpleNamespace]]] = {}
    for row in rows:
        _, players = games.setdefault(row.id, (row, []))
        if row.player_power is not None:  # a game without players has one row, theirs empty
            players.append(SimpleNamespace(**dict(zip(_PLAYER_FIELDS, row[_GAME_COLUMNS:], strict=True))))
    return [OpenGame(*row[:_GAME_COLUMNS], players=tuple(players)) for row, players in games.values()]


def game_for_no_key_update(session: Session, game_id: int) -> Game | None:
    """The game row locked against adjudication and other writers (FOR NO KEY UPDATE on
    PostgreSQL), for a message that already refers to the game: that reference holds a KEY SHARE
    lock on the row, which FOR UPDATE would wait for (two such messages would deadlock)."""
    return session.scalar(select(Game).where(Game.id == game_id).with_for_update(key_share=True))


def advance(session: Session, game: Game, changes: dict[str, Any]) -> None:
    """Give the game the column values `changes` with one UPDATE at once (`rows.write_now`: the
    deadline's phase, deadline and end of a wait), the sweep's times set back as every other
    change of what they follow from sets them (models.TIMING_COLUMNS)."""
    if any(column in TIMING_COLUMNS and getattr(game, column) != value for column, value in changes.items()):
        look = look_again_at(game, changes)
        changes = {**changes, "next_reminder_at": look, "next_check_at": look}
    write_now(session, game, changes)
