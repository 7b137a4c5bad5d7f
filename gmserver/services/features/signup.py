"""Open sign-up: a game announced before it has players fills itself. Players join with their
power preferences, confirm by replying to the answer (which proves the address), wait for the GM
where the game asks approval, and when seven have confirmed (or at the announced start time) the
powers are assigned (gmserver.rules.assignment) and the game is created and started as
`game create` starts one. Joins beyond seven wait as the first standby players.

Every function works in the caller's transaction; the announcement row is locked while a
request about it changes the queue, so that two confirmations at once cannot both be the seventh.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Announcement, Game, Signup
from gmserver.db.session import transaction
from gmserver.reports.signup import OpenGame
from gmserver.rules.assignment import assign, preference_words
from gmserver.rules.game_names import name_problem
from gmserver.rules.geography import POWERS
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import queue_start_mails
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.features.records import record_of
from gmserver.services.game.games import GameError, GameSpec, PlayerSpec, create_game, new_secret

log = logging.getLogger(__name__)

JOIN, STANDBY, OBSERVE = "join", "standby", "observe"
LEAVE, UNOBSERVE = "leave", "unobserve"  # requests to end a join or standby, an observation
KINDS = (JOIN, STANDBY, OBSERVE, LEAVE, UNOBSERVE)
# what LEAVE and UNOBSERVE end, in the order looked for
ENDS = {LEAVE: (JOIN, STANDBY), UNOBSERVE: (OBSERVE,)}
# a request's states: "unconfirmed" until the player replies to its answer; a join then
# "awaiting_gm" where the game asks approval; "confirmed" (in the queue, or standing by, or
# observing); "seated" once the join gave a power; "refused" by the GM or the record asked;
# "left" (LEAVE, UNOBSERVE, or a standby who took a power)
PENDING = ("unconfirmed", "awaiting_gm", "confirmed")
QUEUED = ("confirmed",)
MIN_PLAYERS_AT_START_TIME = 2  # [P] fewer at the start time: the game stays open, the GM is told


@dataclass(frozen=True)
class AnnounceSpec:
    name: str
    ruleset: str = "standard"
    deadline_time: time | None = None
    timezone: str = "UTC"
    anonymous: bool = False
    min_reliability: float | None = None  # a share of turns ordered on time, 0 to 1
    approval: bool = False
    starts_at: datetime | None = None  # None: when seven players have confirmed


def announce(session: Session, spec: AnnounceSpec, now: datetime, *, by: str = "cli") -> Announcement:
    """The game is open for sign-up; GameError says why not."""
    existing = [*queries.games.game_names(session), *queries.signups.announcement_names(session)]
    problems = [problem] if (problem := name_problem(spec.name, existing)) else []
    ruleset = load_ruleset(spec.ruleset)  # RulesetError names an unknown profile
    try:
        ZoneInfo(spec.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        problems.append(f"unknown time zone {spec.timezone!r} (use an IANA name like Europe/London)")
    if spec.min_reliability is not None and not 0 <= spec.min_reliability <= 1:
        problems.append(f"--min-reliability {spec.min_reliability}: a share of turns ordered on time, from 0 to 1 "
                        "(e.g. 0.8)")
    if spec.starts_at is not None and spec.starts_at <= now:
        problems.append(f"the start time {spec.starts_at.isoformat()} is past")
    if problems:
        raise GameError("; ".join(problems))
    row = Announcement(name=spec.name, ruleset_name=ruleset.name, timezone=spec.timezone,
                       deadline_time=spec.deadline_time.isoformat(timespec="seconds") if spec.deadline_time else None,
                       anonymous=spec.anonymous, min_reliability=spec.min_reliability, approval=spec.approval,
                       starts_at=spec.starts_at, seed=secrets.token_hex(16), status="open", created_at=now, by=by)
    session.add(row)
    session.flush()
    log.info("%s announced (%s); seed %s", row.name, row.ruleset_name, row.seed)
    return row


def open_game(session: Session, row: Announcement) -> OpenGame:
    joined = len(queries.signups.signups(session, row.name, JOIN, QUEUED))
    return OpenGame(row.name, row.ruleset_name, joined, row.deadline_time, row.timezone, row.anonymous,
                    row.min_reliability, row.approval, row.starts_at)


def open_games(session: Session) -> list[OpenGame]:
    return [open_game(session, row) for row in queries.signups.open_announcements(session)]


def find_announcement(session: Session, name: str) -> Announcement:
    row = queries.signups.announcement(session, name, for_update=True)
    if row is None:
        names = ", ".join(a.name for a in queries.signups.open_announcements(session)) or "none now"
        raise GameError(f"no game called {name!r} is open for sign-up (open: {names})")
    return row


def request(session: Session, name: str, kind: str, address: str, preferences: Sequence[str],
            now: datetime) -> Signup:
    """A player's join (with preferences), standby or observe request, unconfirmed until they
    reply to its answer. A join needs a game open for sign-up; standby and observe a game that
    exists or is announced. The same request again is the one on file (preferences updated)."""
    address = address.strip().lower()
    if kind in ENDS:
        if not any(queries.signups.signup_of(session, name, ended, address, PENDING) for ended in ENDS[kind]):
            raise GameError(f"you have no {' or '.join(ENDS[kind])} request for {name} to take back")
    elif kind == JOIN:
        row = find_announcement(session, name)
        if row.status != "open":
            raise GameError(f"{name} has started: it takes no more players (you may stand by for it: "
                            f"standby {name})")
    elif queries.games.game_by_name(session, name) is None and queries.signups.announcement(session, name) is None:
        raise GameError(f"no game called {name!r}")
    signup = queries.signups.signup_of(session, name, kind, address, PENDING)
    if signup is None:
        signup = Signup(game_name=name, kind=kind, address=address, preferences=list(preferences),
                        status="unconfirmed", secret=new_secret(), requested_at=now)
        session.add(signup)
        session.flush()
    elif signup.status == "unconfirmed" or kind == JOIN:
        signup.preferences = list(preferences)  # the latest preferences count; the place in the queue stays
    return signup


@dataclass(frozen=True)
class Confirmed:
    signup: Signup
    place: int | None  # a join's place in the queue (1 = first)
    started: Game | None  # the game this confirmation started
    refusal: str = ""  # why the join was refused (the record the game asks)
    standing_by: bool = False  # a join confirmed once the game was full: it waits as a standby player


def confirm(session: Session, services: Services, signup: Signup, now: datetime) -> Confirmed:
    """The player replied to the answer: the address is proved. A join is checked against the
    record the game asks, then waits for the GM where the game asks approval, else takes its place
    in the queue; the seventh starts the game."""
    if signup.status != "unconfirmed":
        return Confirmed(signup, _place(session, signup), None)
    signup.confirmed_at = now
    if signup.kind in ENDS:
        signup.status = "confirmed"
        for ended in ENDS[signup.kind]:
            if (target := queries.signups.signup_of(session, signup.game_name, ended, signup.address, PENDING)):
                target.status = "left"
        return Confirmed(signup, None, None)
    if signup.kind != JOIN:
        signup.status = "confirmed"
        return Confirmed(signup, None, None)
    row = find_announcement(session, signup.game_name)
    if row.status != "open":  # full before this reply: the player waits, first in line for a power
        signup.kind, signup.status = STANDBY, "confirmed"
        return Confirmed(signup, None, None, standing_by=True)
    if row.min_reliability:
        share = record_of(session, services, signup.address).reliability
        if share is not None and share < row.min_reliability:
            signup.status = "refused"
            return Confirmed(signup, None, None, f"{row.name} asks for {row.min_reliability:.0%} of turns ordered on "
                                                 f"time in your games on this server; your record has {share:.0%}")
    signup.status = "awaiting_gm" if row.approval else "confirmed"
    if row.approval:
        notify_gm(session, services, key=f"gm:signup:{row.id}:{signup.id}", now=now,
                  subject=f"gmserver: {row.name}: {signup.address} asks to join",
                  paragraphs=[f"{signup.address} confirmed a join of {row.name} (wanting "
                              f"{preference_words(signup.preferences)}); the game asks your approval.",
                              f"gmserver game approve {row.name} {signup.address}",
                              f"gmserver game refuse-player {row.name} {signup.address}"])
    started = start_if_ready(session, services, row, now)
    return Confirmed(signup, _place(session, signup), started)


def _place(session: Session, signup: Signup) -> int | None:
    if signup.kind != JOIN or signup.status != "confirmed":
        return None
    queue = queries.signups.signups(session, signup.game_name, JOIN, QUEUED)
    return next((index for index, other in enumerate(queue, 1) if other.id == signup.id), None)


def approve(session: Session, services: Services, name: str, address: str, now: datetime,
            refuse: bool = False) -> tuple[Signup, Game | None]:
    """The GM approves (or refuses) a join waiting for approval; an approval may start the game."""
    row = find_announcement(session, name)
    signup = queries.signups.signup_of(session, name, JOIN, address.strip().lower(), ("awaiting_gm",))
    if signup is None:
        waiting = ", ".join(s.address for s in queries.signups.signups(session, name, JOIN, ("awaiting_gm",)))
        raise GameError(f"{address} has no confirmed join of {name} waiting for you (waiting: {waiting or 'none'})")
    signup.status = "refused" if refuse else "confirmed"
    if not refuse and row.status != "open":
        signup.kind = STANDBY  # the game filled meanwhile: the player waits, first in line for a power
    return signup, None if refuse else start_if_ready(session, services, row, now)


def start_if_ready(session: Session, services: Services, row: Announcement, now: datetime, *,
                   at_start_time: bool = False) -> Game | None:
    """Seven confirmed joins (or the start time, with at least two): the powers are assigned, the
    game is created at Spring 1901 and the start mails are queued; the joins beyond seven stand by."""
    queue = queries.signups.signups(session, row.name, JOIN, QUEUED)
    ready = len(queue) >= len(POWERS) or (at_start_time and len(queue) >= MIN_PLAYERS_AT_START_TIME)
    if row.status != "open" or not ready:
        return None
    seated, waiting = queue[:len(POWERS)], queue[len(POWERS):]
    result = assign([tuple(s.preferences) for s in seated], row.seed)
    spec = GameSpec(name=row.name, ruleset=load_ruleset(row.ruleset_name), timezone=row.timezone,
                    players=[PlayerSpec(power, s.address) for power, s in zip(result.powers, seated, strict=True)],
                    deadline_time=time.fromisoformat(row.deadline_time) if row.deadline_time else None)
    game = create_game(session, spec, now)
    queue_start_mails(session, services, game, now)
    row.status, row.game_id = "started", game.id
    row.assignment = {"method": "rank-maximal, ties by SHA-256(seed) mod count (gmserver.rules.assignment)",
                      "seed": row.seed, "players": [s.address for s in seated], "powers": list(result.powers),
                      "preferences": [list(s.preferences) for s in seated], "score": list(result.score),
                      "best_count": result.best_count, "chosen": result.chosen}
    for signup in seated:
        signup.status = "seated"
    for signup in waiting:
        signup.kind = STANDBY  # they wait: the first offered a power that needs a player
    notify_gm(session, services, key=f"gm:signup-started:{row.id}", now=now, game_id=game.id,
              subject=f"gmserver: {row.name} has started",
              paragraphs=[f"{row.name} is full and has started at {game.phase}; the start mails are queued.",
                          "Powers: " + ", ".join(f"{power.title()} {s.address}"
                                                 for power, s in zip(result.powers, seated, strict=True)) + ".",
                          f"The assignment and the seed of its draw: gmserver game show {row.name} --json"])
    log.info("%s started: %s", row.name, ", ".join(f"{p} {s.address}" for p, s in zip(result.powers, seated,
                                                                                     strict=True)))
    return game


def start_due(services: Services, now: datetime) -> int:
    """The daemon's sweep: each open game whose start time has come, started (in its own
    transaction) where enough have joined; how many started."""
    with transaction(services.sessions) as session:
        names = queries.signups.due_announcements(session, now)
    started = 0
    for name in names:
        with transaction(services.sessions) as session:
            row = find_announcement(session, name)
            started += start_if_ready(session, services, row, now, at_start_time=True) is not None
    return started


# -- for the command line: each in its own transaction, plain values back


def announce_game(services: Services, spec: AnnounceSpec, now: datetime) -> tuple[OpenGame, str]:
    """`game announce`: the open game and the seed of its draw."""
    with transaction(services.sessions) as session:
        row = announce(session, spec, now)
        return open_game(session, row), row.seed


def list_open(services: Services) -> list[OpenGame]:
    with transaction(services.sessions) as session:
        return open_games(session)


def decide_join(services: Services, name: str, address: str, now: datetime, *, refuse: bool) -> str | None:
    """`game approve | refuse-player`: the name of the game the approval started, if it did."""
    with transaction(services.sessions) as session:
        _, game = approve(session, services, name, address, now, refuse=refuse)
        return game.name if game is not None else None
