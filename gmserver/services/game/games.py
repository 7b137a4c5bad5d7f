"""Creating games and looking at them."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.orm import Session, sessionmaker

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, Player
from gmserver.db.session import transaction
from gmserver.rules.authenticity import SENDER_CHECKS, reply_address, reply_token
from gmserver.rules.envelope import is_plain_address
from gmserver.rules.game_names import name_problem
from gmserver.rules.geography import POWERS, MapInfo
from gmserver.rules.intake import GameView
from gmserver.rules.position import Position
from gmserver.rules.proxies import ProxyState
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.ruleset_view import not_in_force_keys
from gmserver.rules.schedule import (
    deadline_problems,
    default_lengths,
    first_deadline,
    length_problems,
    local_time_of_day,
    minimums_of,
)
from gmserver.rules.set_feedback import InvalidRecord
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.base.reply_tokens import reply_periods
from gmserver.services.game.ordersets import invalid_records, orders_on_file, proxy_states
from gmserver.services.game.schedule import lengths_of, pace_warnings, schedule_of


class GameError(Exception):
    """A request about games that cannot be carried out; the message says why."""


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
        enforce_minimums=spec.enforce_minimums,
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
        names = ", ".join(queries.games.game_names(session)) or "none yet"
        raise GameError(f"no game called {name!r} (games: {names})")
    return game


def game_summary(session: Session, game: Game, gm_address: str | None = None) -> dict[str, Any]:
    """The game as JSON: position in the DATC notation, players, deadline, orders on file; with
    `gm_address`, each player's password and this turn's reply address (gm+TOKEN@domain): the GM
    tells them to the player only; they prove the sender in a "verified" game."""
    record = queries.phases.current_record(session, game)
    position = engine.position_from_state(record.state).to_json()
    ruleset = queries.games.ruleset_of(game)
    on_file = orders_on_file(session, game.id, game.phase, ruleset)
    owing = engine.position_from_state(record.state).powers_to_order() if game.status == "active" else ()
    proxies = proxy_states(session, game.id, game.phase)
    invalid = invalid_records(session, game)
    return {
        "name": game.name,
        "ruleset": game.ruleset_name,
        "status": game.status,
        "phase": game.phase,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "paused": game.paused,
        "timezone": game.timezone,
        "deadline_time": game.deadline_time,  # every deadline's local time of day
        "sender_check": game.sender_check,
        **{key: position[key] for key in ("units", "centers", "dislodged")},
        **({"retreats": position["retreats"]} if "retreats" in position else {}),
        **({"adjustments": position["adjustments"]} if "adjustments" in position else {}),
        "players": {p.power: _player_summary(p, gm_address, proxies, invalid[p.power]) for p in game.players},
        "orders": {power: {"version": on_file.versions[power], "orders": [str(o) for o in orders]}
                   for power, orders in on_file.orders.items()},
        "turn_lengths_seconds": {"movement": game.movement_seconds, "retreat": game.retreat_seconds,
                                 "adjustment": game.adjustment_seconds},
        # powers that owe orders, have a player and have none on file
        "not_ordered": [p.power for p in game.players if p.power in owing and p.power not in on_file.orders],
        "reminder_seconds": game.reminder_seconds,
        # missed turns per power, its present player's (rules/nmr.py): in all, and in a row (the
        # run nmr_limit_to_cd counts); the powers in civil disorder; the powers a Spring 1901 waits for
        "nmr": {p.power: p.missed_turns for p in game.players},
        "nmr_in_a_row": {p.power: p.missed_in_a_row for p in game.players},
        "civil_disorder": sorted(p.power for p in game.players if p.civil_disorder),
        **({"waiting_for": list(game.waiting_for)} if game.waiting_for else {}),
        # who played a power before its present player (replacements keep each record)
        **({"former_players": former} if (former := _former_players(session, game)) else {}),
        # hold_for_gm: order sets waiting for `gmserver inbox release | refuse`
        **({"held": held} if (held := [{"id": row.id, "power": row.power, "phase": row.held_phase}
                                       for row in queries.inbound.held_of_game(session, game.id)]) else {}),
        # 000 VIII(1): the current turn was rolled back and waits to be adjudicated again
        **({"corrected": {"revision": record.revision}} if record.revision else {}),
        # open sign-up: who stands by to take over a power (in the order they are offered one), who observes
        "standby": [s.address for s in queries.signups.signups(session, game.name, "standby", ("confirmed",))],
        "observers": [s.address for s in queries.signups.signups(session, game.name, "observe", ("confirmed",))],
        **({"assignment": sign_up.assignment} if (sign_up := queries.signups.announcement(session, game.name))
           and sign_up.assignment else {}),
        "gm_copies": game.gm_copies,
        **({"gm_secret": game.gm_secret} if gm_address and game.gm_secret else {}),
        "rules_not_in_force": not_in_force_keys(ruleset),  # options of its rules gmserver does not carry out
        # 001 IV(4) target_days_per_game_turn: turn lengths that make a Turn longer than the guide
        **({"pace_warnings": pace} if (pace := pace_warnings(game, ruleset)) else {}),
    }


def _player_summary(p: Player, gm_address: str | None, proxies: Mapping[str, ProxyState],
                    invalid: InvalidRecord) -> dict[str, Any]:
    return {"address": p.address, "fallback": p.fallback_address,
            # this turn's reply address (its token changes every turn) and the password, which does not
            **({"reply_address": reply_address(gm_address, reply_token(p.secret, p.game.phase)),
                "password": p.secret} if gm_address and p.secret else {}),
            **({"abbreviations": p.abbreviations} if p.abbreviations else {}),
            # its proxy this turn (000 II(3), 003 [19]), its kept set (000 II(4))
            **({"proxy": {"holder": proxies[p.power].holder, "in_force": proxies[p.power].in_force}}
               if p.power in proxies else {}),
            **({"perpetual": p.perpetual["orders"]} if p.perpetual else {}),
            # 000 III(1) (a): the GM's switch, and the record the GM judges it by
            "clarifications": p.clarifications, "invalid_sets": asdict(invalid)}


def _former_players(session: Session, game: Game) -> list[dict[str, Any]]:
    return [{"power": h.power, "address": h.address,
             "joined": h.joined_at.isoformat() if h.joined_at else None, "left": h.left_at.isoformat(),
             "left_in_phase": h.left_in_phase, "missed_turns": h.missed_turns,
             "civil_disorder_recorded": h.cd_recorded}
            for h in queries.players.former_players(session, game.id)]


def list_games(sessions: sessionmaker[Session], *, active: bool = False, open_turn: bool = False,
               limit: int | None = None) -> tuple[list[dict[str, Any]], int]:
    """The games `game list` shows (see queries.games.game_list_rows for the filters), and how
    many match in all (more than shown when `limit` cut the list)."""
    with transaction(sessions) as session:
        rows, total = queries.games.game_list_rows(session, active=active, open_turn=open_turn, limit=limit)
        return [{"name": g.name, "ruleset": g.ruleset_name, "status": g.status, "phase": g.phase,
                 "deadline": g.deadline.isoformat() if g.deadline else None, "timezone": g.timezone,
                 "paused": g.paused, "players": g.players}
                for g in rows], total


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
        return game_summary(session, find_game(session, name), gm_address)


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


def game_view(game: Game, session: Session | None = None) -> GameView:
    """What intake needs of `game`; with `session`, under late_with_proof = gm_discretion, the
    turn adjudicated last and its deadline (000 VII(1): a late set for it may be held for the GM)."""
    ruleset = queries.games.ruleset_of(game)
    previous = None
    if session is not None and ruleset.late_with_proof == "gm_discretion":
        record = queries.phases.last_adjudicated(session, game.id)
        previous = (record.phase, record.deadline) if record is not None else None
    return GameView(
        id=game.id, name=game.name, ruleset=ruleset, phase=game.phase,
        deadline=game.deadline, status=game.status, timezone=game.timezone,
        players={p.power: (p.address.lower(), p.fallback_address.lower() if p.fallback_address else None)
                 for p in game.players},
        secrets={p.power: p.secret for p in game.players},
        # the current turn's reply tokens and the last one's prove a sender, no older ones
        periods=reply_periods(session, game) if session is not None else (),
        previous=previous,
        # proxy_policy (000 II(3), 003 [19]): whose mail may carry a power's orders
        proxies=proxy_states(session, game.id, game.phase) if session is not None else {},
    )


def locked_game(session: Session, name: str) -> Game:
    """The active game `name`, its row locked until the transaction ends (waiting for the lock)."""
    game = queries.games.game_for_update(session, find_game(session, name).id, skip_locked=False)
    assert game is not None
    return game
