"""Creating games and looking at them."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.orm import Session, sessionmaker

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, Player
from gmserver.db.session import plain_reader, transaction
from gmserver.rules.authenticity import SENDER_CHECKS
from gmserver.rules.envelope import is_plain_address
from gmserver.rules.game_names import name_problem
from gmserver.rules.geography import POWERS, MapInfo
from gmserver.rules.intake import GameView
from gmserver.rules.position import Position
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.schedule import (
    deadline_problems,
    default_lengths,
    first_deadline,
    length_problems,
    local_time_of_day,
    minimums_of,
)
from gmserver.rules.subject import name_words
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.base.reply_tokens import reply_periods
from gmserver.services.base.roster import in_play
from gmserver.services.game import shown
from gmserver.services.game.ordersets import proxy_states
from gmserver.services.game.schedule import schedule_of
from gmserver.services.game.shown import GameError, lengths_of, no_such_game


@dataclass(frozen=True)
class PlayerSpec:
    power: str
    address: str
    fallback: str | None = None
    abbreviations: Mapping[str, str] = field(default_factory=dict)  # 004 I(1) ¶2


@dataclass(frozen=True)
class GameSpec:
    name: str
    ruleset: Ruleset
    players: Sequence[PlayerSpec]
    position: Position | None = None
    first_deadline: datetime | None = None
    movement: timedelta | None = None  # None: the ruleset's min_hours_*
    retreat: timedelta | None = None
    adjustment: timedelta | None = None
    reminder: timedelta | None = None  # None: the ruleset's reminder setting
    timezone: str = "UTC"
    notes: tuple[str, ...] = field(default=())
    # who may speak for a power (gmserver.rules.authenticity): "verified" wants proof beyond From
    sender_check: str = "verified"
    # the local time of day of every deadline; None: that of the first deadline
    deadline_time: time | None = None
    # False only for demonstrations and load tests (turns of seconds): the profile's minimum turn
    # lengths (min_hours_*) are not enforced
    enforce_minimums: bool = True
    gm_copies: bool = False  # a copy of every report and refusal to the GM
    # an anonymous (gunboat) game: no player is shown another's address; `game reveal` after the end
    anonymous: bool = False
    # whether its pages show anything without a player's or the GM's link; None: `[web] public`
    pages_public: bool | None = None


def parse_player(text: str) -> PlayerSpec:
    """`FRANCE=fr@example.org[,fallback@example.org]`."""
    power, sep, addresses = text.partition("=")
    if not sep:
        raise GameError(f"--player {text!r}: expected POWER=ADDRESS[,FALLBACK]")
    primary, _, fallback = addresses.partition(",")
    return PlayerSpec(power.strip().upper(), primary.strip().lower(), fallback.strip().lower() or None)


def check_spec(spec: GameSpec) -> list[str]:
    problems = []
    if problem := name_problem(spec.name):
        problems.append(problem)
    seen: set[str] = set()
    for player in spec.players:
        if player.power not in POWERS:
            problems.append(f"unknown power {player.power!r} (powers: {', '.join(POWERS)})")
        if player.power in seen:
            problems.append(f"{player.power} is given twice")
        seen.add(player.power)
        for address in (player.address, player.fallback):
            if address is not None and not is_plain_address(address):
                problems.append(f"{player.power}: {address!r} is not a plain email address (like anna@example.org)")
    try:
        ZoneInfo(spec.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        problems.append(f"unknown time zone {spec.timezone!r} (use an IANA name like Europe/London)")
    if spec.sender_check not in SENDER_CHECKS:
        problems.append(f"unknown sender check {spec.sender_check!r} (use {' or '.join(SENDER_CHECKS)})")
    if spec.first_deadline is not None and spec.first_deadline.tzinfo is None:
        problems.append("the first deadline needs a time zone (e.g. 2026-12-01T18:00+00:00)")
    return problems


def setup_notes(spec: GameSpec) -> list[str]:
    """What a GM should know about the players given, though nothing stops the game: a power with
    units and no player holds every turn (its units stand, as in civil disorder) until
    `gmserver game replace` gives it one; one address playing several powers."""
    notes = []
    played = {player.power for player in spec.players}
    with_units = [p for p in POWERS if spec.position is None or spec.position.units.get(p)]
    if unplayed := [p for p in with_units if p not in played]:
        notes.append(f"{', '.join(p.title() for p in unplayed)} {'has' if len(unplayed) == 1 else 'have'} no player: "
                     "their units hold every turn until you give them one with `gmserver game replace NAME POWER "
                     "ADDRESS`")
    powers_of: dict[str, list[str]] = {}
    for player in spec.players:
        powers_of.setdefault(player.address, []).append(player.power.title())
    notes += [f"{address} plays {' and '.join(powers)}" for address, powers in powers_of.items() if len(powers) > 1]
    return notes


def new_secret() -> str:
    """A player's secret: 80 random bits as 16 lower-case base32 characters, so that it survives
    a mail system that changes the case of an address's local part (gm+SECRET@domain)."""
    return base64.b32encode(secrets.token_bytes(10)).decode("ascii").lower()


def _reminder(ruleset: Ruleset) -> timedelta:
    """The ruleset's first reminder offset (`reminders`; [P] 24 h)."""
    for reminder in getattr(ruleset, "reminders", ()) or ():
        hours = getattr(reminder, "hours_before", None)
        if hours is None and isinstance(reminder, Mapping):
            hours = reminder.get("hours_before")
        if isinstance(hours, (int, float)):
            return timedelta(hours=hours)
    return timedelta(hours=24)


def create_game(session: Session, spec: GameSpec, now: datetime) -> Game:
    problems = check_spec(spec)
    if (problem := name_problem(spec.name, queries.games.game_names(session))) and problem not in problems:
        problems.append(problem)
    if spec.position is not None:
        try:
            state = engine.state_from_position(spec.position)
        except Exception as error:  # noqa: BLE001  the engine's own complaint, passed on
            problems.append(f"the position cannot be set up: {error}")
    else:
        state = engine.initial_state()
    if problems:
        raise GameError("; ".join(problems))
    rules = spec.ruleset
    # open lengths are the profile's minimums, or make 001 IV(4)'s week a Turn
    lengths = default_lengths(rules, spec.movement, spec.retreat, spec.adjustment)
    game = Game(
        name=spec.name, ruleset_name=rules.name, ruleset=rules.snapshot(), status="active",
        phase=state["name"], timezone=spec.timezone, created_at=now,
        movement_seconds=int(lengths.movement.total_seconds()), retreat_seconds=int(lengths.retreat.total_seconds()),
        adjustment_seconds=int(lengths.adjustment.total_seconds()),
        reminder_seconds=int((spec.reminder if spec.reminder is not None else _reminder(rules)).total_seconds()),
        sender_check=spec.sender_check, gm_copies=spec.gm_copies, paused=False,
        enforce_minimums=spec.enforce_minimums, anonymous=spec.anonymous, pages_public=spec.pages_public,
        gm_secret=new_secret(),  # what a GM command by mail must carry (gm_command_auth)
    )
    game.deadline_time = spec.deadline_time.isoformat(timespec="seconds") if spec.deadline_time else None
    game.deadline = spec.first_deadline or first_deadline(game.phase, now, schedule_of(game, rules))
    if spec.enforce_minimums:
        problems = _schedule_problems(game, rules, now, spec.first_deadline is not None)
        if problems:
            raise GameError("; ".join(problems))
    if game.deadline is not None and game.deadline_time is None:
        # the schedule keeps the first deadline's time of day
        game.deadline_time = local_time_of_day(game.deadline, game.timezone).isoformat(timespec="seconds")
    game.players = [Player(power=p.power, address=p.address, fallback_address=p.fallback,
                           abbreviations=checked_abbreviations(p.abbreviations, engine.map_info()),
                           secret=new_secret())
                    for p in spec.players]
    session.add(game)
    session.flush()
    queries.games.add_name_words(session, game.id, name_words(game.name))  # how intake finds it by a subject
    queries.phases.open_phase(session, game.id, game.phase, state, game.deadline, now)
    return game


def _schedule_problems(game: Game, rules: Ruleset, now: datetime, first_given: bool) -> list[str]:
    """min_hours_*, enforced as minimums: the turn lengths, and the first turn when
    the GM gave its deadline (otherwise it is a full turn long)."""
    minimums = minimums_of(rules)
    problems = length_problems(lengths_of(game), minimums, rules)
    if game.deadline is not None and first_given:
        problems += deadline_problems(game.phase, game.deadline, opened_at=now, now=now, minimums=minimums,
                                      ruleset=rules, zone=game.timezone)
    return problems


def checked_abbreviations(entries: Mapping[str, str], geography: MapInfo) -> dict[str, str]:
    """A player's own abbreviation list (004 I(1) ¶2): token -> location code. Every place must
    be a province or coast of the map, written as its code or its full name."""
    result, problems = {}, []
    for token, place in entries.items():
        word = " ".join(str(token).split())
        code = resolve_place(str(place), geography)
        if not word:
            problems.append("an abbreviation may not be empty")
        elif code is None:
            problems.append(f"{word!r} = {place!r}: {place!r} is not a province or coast of the map")
        else:
            result[word] = code
    if problems:
        raise GameError("; ".join(problems))
    return result


def resolve_place(text: str, geography: MapInfo) -> str | None:
    """`Mar`, `MAR`, `Marseilles`, `spa/nc` -> the location code; None if the map has no such place."""
    key = " ".join(text.upper().split())
    province = key.split("/")[0]
    if province in geography.provinces:
        return key if "/" not in key or key in geography.provinces[province].coasts else None
    return geography.aliases.get(key)


def set_abbreviations(session: Session, game: Game, power: str, entries: Mapping[str, str],
                      geography: MapInfo) -> dict[str, str]:
    """Replace the player's list (the GM lodges it, or lodges one a player sent)."""
    player = next((p for p in game.players if p.power == power.upper()), None)
    if player is None:
        raise GameError(f"{game.name} has no player for {power!r} (players: "
                        f"{', '.join(p.power for p in game.players)})")
    player.abbreviations = checked_abbreviations(entries, geography)
    return player.abbreviations


def find_game(session: Session, name: str) -> Game:
    game = queries.games.game_by_name(session, name)
    if game is None:
        raise no_such_game(name, queries.games.game_names(session))
    return game


def game_summary(session: Session, game: Game, gm_address: str | None = None) -> dict[str, Any]:
    """The game as `game show` prints it (services/game/shown.show_game), read in the session."""
    return shown.show_game(plain_reader(session), game.name, gm_address)


def list_games(sessions: sessionmaker[Session], *, active: bool = False, open_turn: bool = False,
               limit: int | None = None) -> tuple[list[dict[str, Any]], int]:
    """The games `game list` shows, and how many match in all (services/game/shown.list_games)."""
    with transaction(sessions) as session:
        return shown.list_games(plain_reader(session), active=active, open_turn=open_turn, limit=limit)


# -- for the command line and the demo: each opens its own transaction and returns plain values


def open_game(sessions: sessionmaker[Session], spec: GameSpec, now: datetime,
              gm_address: str | None = None, services: Services | None = None) -> tuple[int, dict[str, Any]]:
    """Create the game; its id and `game_summary`. With `services`, every player's start mail
    is queued in the same transaction."""
    with transaction(sessions) as session:
        game = create_game(session, spec, now)
        if services is not None:
            queue_start_mails(session, services, game, now)
        return game.id, game_summary(session, game, gm_address)


def show_game(sessions: sessionmaker[Session], name: str, gm_address: str | None = None) -> dict[str, Any]:
    with transaction(sessions) as session:
        return shown.show_game(plain_reader(session), name, gm_address)


@dataclass(frozen=True)
class Abbreviations:
    entries: dict[str, str]  # token -> location code
    applied: bool  # whether the game's ruleset uses players' own lists (004 I(1))


def player_abbreviations(sessions: sessionmaker[Session], name: str, power: str, *, add: Mapping[str, str],
                         clear: bool, geography: MapInfo) -> Abbreviations:
    """A player's own list: shown, extended with `add`, or emptied (`clear`) then shown."""
    with transaction(sessions) as session:
        game = find_game(session, name)
        player = next((p for p in game.players if p.power == power.upper()), None)
        current = dict(player.abbreviations or {}) if player else {}
        if add or clear:
            current = set_abbreviations(session, game, power, {} if clear else {**current, **add}, geography)
        return Abbreviations(current, queries.games.ruleset_of(game).player_abbreviation_lists)


def postpone_deadline(sessions: sessionmaker[Session], game_id: int, deadline: datetime) -> None:
    with transaction(sessions) as session:
        game = session.get(Game, game_id)
        if game is not None:
            game.deadline = deadline


def game_view(game: Game | queries.games.OpenGame, session: Session | None = None) -> GameView:
    """What intake needs of `game`; with `session`, under late_with_proof = gm_discretion, the
    turn adjudicated last and its deadline (000 VII(1): a late set for it may be held for the GM)."""
    ruleset = queries.games.ruleset_of(game)
    previous = None
    if session is not None and ruleset.late_with_proof == "gm_discretion":
        record = queries.phases.last_adjudicated(session, game.id)
        previous = (record.phase, record.deadline) if record is not None else None
    return GameView(
        id=game.id, name=game.name, ruleset=ruleset, phase=game.phase,
        deadline=game.deadline, status=game.status, timezone=game.timezone, sender_check=game.sender_check,
        # a player who resigned sends nothing for the power any more (RESIGN)
        players={p.power: (p.address.lower(), p.fallback_address.lower() if p.fallback_address else None)
                 for p in in_play(game.players)},
        secrets={p.power: p.secret for p in in_play(game.players)},
        # the current turn's reply tokens and the last one's prove a sender, no older ones
        periods=reply_periods(session, game) if session is not None else (),
        previous=previous,
        # proxy_policy (000 II(3), 003 [19]): whose mail may carry a power's orders
        # a game read with intake's statement says whether it has any proxies to read
        proxies=(proxy_states(session, game.id, game.phase) if session is not None and (
            not isinstance(game, queries.games.OpenGame) or game.has_proxies) else {}),
        turn_opened=game.turn_opened if isinstance(game, queries.games.OpenGame) else None,
        turn_opened_read=isinstance(game, queries.games.OpenGame),
    )


def turn_opened(session: Session, view: GameView) -> datetime | None:
    """When the view's game's latest phase was adjudicated (when its current phase started), as
    the view was read with it (intake's games: the statement that found them), else from the
    phases now."""
    return view.turn_opened if view.turn_opened_read else queries.phases.last_adjudicated_at(session, view.id)


def locked_game(session: Session, name: str) -> Game:
    """The active game `name`, its row locked until the transaction ends (waiting for the lock)."""
    game = queries.games.game_for_update(session, find_game(session, name).id, skip_locked=False)
    assert game is not None
    return game
