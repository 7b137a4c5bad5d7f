"""Players' absences (ABSENCE by mail, `absence_policy`, `absence_days_per_year`): registered and
cancelled in the message's transaction, applied at once to the current deadline, to each new
turn's deadline (services/turn/turns.py) and to the count of missed turns
(services/features/nmr.py). The decision is pure (gmserver/rules/absence.py); each day a deadline
moves for a player is recorded in `gm_actions` (action `absence`, by the player's address, as a
granted delay is), which is the count of the player's allowance.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import AbsenceRow, Game, Player
from gmserver.reports.players import absence_days, build_absence
from gmserver.reports.requests import Answer
from gmserver.reports.words import format_time
from gmserver.rules.absence import Absence, AbsencePlan, clause, decide_absences, effect_words, registration_problem
from gmserver.rules.absence_dates import AbsenceDates
from gmserver.rules.delays import game_year
from gmserver.rules.position import describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce, deadline_event
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.game.games import new_secret

ACTION = "absence"


@dataclass(frozen=True)
class Registered:
    """What registering (or cancelling) did: the absences now on file for the power, and the
    current deadline (before: where it was, if the absence moved it)."""

    absences: tuple[AbsenceDates, ...]
    deadline: datetime | None
    before: datetime | None = None


def player_zone(game: Game, player: Player) -> str:
    """The calendar a player's absence dates are in: their SET ZONE, else the game's."""
    return player.zone or game.timezone


def today_of(game: Game, player: Player, now: datetime) -> date:
    return now.astimezone(ZoneInfo(player_zone(game, player))).date()


def days_used(session: Session, game: Game, power: str, address: str, year: int | None) -> int:
    """The days the absences of the player of `power` at `address` moved deadlines in game year
    `year` (a replacement player starts with none)."""
    return sum(int(row.arguments.get("days", 0)) for row in queries.gm_actions.actions_of(session, game.id)
               if row.action == ACTION and row.arguments.get("power") == power
               and row.arguments.get("address") == address and row.arguments.get("year") == year)


def in_force(session: Session, game: Game) -> list[Absence]:
    """The game's registered absences of the players who play their power now."""
    players = {p.power: p for p in game.players if p.resigned_at is None}
    return [Absence(row.power, row.first_day, row.last_day, player_zone(game, players[row.power]))
            for row in queries.absences.registered(session, game.id)
            if row.power in players and row.address == players[row.power].address]


def plan(session: Session, game: Game, ruleset: Ruleset, phase: str, deadline: datetime) -> AbsencePlan:
    """What the absences do to `deadline`, the deadline of `phase`."""
    away = in_force(session, game)
    if not away:  # most games, most turns: no need to count anything
        return AbsencePlan(deadline)
    year = game_year(phase)
    used = {p.power: days_used(session, game, p.power, p.address, year) for p in game.players
            if any(absence.power == p.power for absence in away)}
    return decide_absences(ruleset, deadline, away, used, game.timezone)


def excused(session: Session, game: Game, ruleset: Ruleset, deadline: datetime | None) -> frozenset[str]:
    """hold_without_nmr: the powers away at `deadline`, whose units hold and whose turn is not
    counted as missed (services/features/nmr.record_turn)."""
    if ruleset.absence_policy != "hold_without_nmr" or deadline is None:
        return frozenset()
    return plan(session, game, ruleset, game.phase, deadline).holding


def record_moves(session: Session, services: Services, game: Game, phase: str, before: datetime, moved: AbsencePlan,
                 now: datetime) -> int:
    """Count the days a deadline moved to each absent player it moved for, and tell the GM (with
    the command that undoes it); the id of the last action recorded."""
    year = game_year(phase)
    players = {p.power: p for p in game.players}
    cited = clause(queries.games.ruleset_of(game))
    row_id = 0
    for power, days in moved.days_used.items():
        row_id = queries.gm_actions.record_action(session, game.id, ACTION, {
            "power": power, "address": players[power].address, "year": year, "days": days, "phase": phase,
            "deadline": moved.deadline.isoformat(), "before": before.isoformat()}, players[power].address, now,
            f"{power} is away: the deadline of {describe_phase(phase)} moved by {days} days ({cited})").id
    who = ", ".join(power.title() for power in sorted(moved.days_used))
    notify_gm(session, services, key=f"gm:absence:{game.id}:{phase}:{moved.deadline.isoformat()}", game_id=game.id,
              now=now, subject=f"{game.name}: the deadline moved for an absence", paragraphs=(
                  f"The deadline of {describe_phase(phase)} moved from {_when(game, before)} to "
                  f"{_when(game, moved.deadline)}: {who} registered an absence covering it ({cited}).",
                  f"To undo it: gmserver game deadline {game.name} {before.isoformat()}"))
    return row_id


def register(session: Session, services: Services, game_id: int, power: str, dates: AbsenceDates, *, by: str,
             now: datetime, offer: AbsenceRow | None = None) -> Registered:
    """Register an absence of `power`'s player (replacing the ones it overlaps; `offer`: the
    absence offered in answer to an out-of-office reply, which becomes the registered one);
    applied at once to the current deadline. Raises ValueError with why it cannot be registered."""
    game = queries.games.game_for_update(session, game_id, skip_locked=False)
    assert game is not None
    ruleset = queries.games.ruleset_of(game)
    player = next(p for p in game.players if p.power == power)
    used = days_used(session, game, power, player.address, game_year(game.phase))
    if (problem := registration_problem(ruleset, dates.days, used)) is not None:
        raise ValueError(problem)
    for row in queries.absences.registered(session, game.id, power):
        if row.first_day <= dates.last and dates.first <= row.last_day:
            row.cancelled_at = now  # a new line for the same days changes them
    if offer is not None:
        offer.registered_at = now
    else:
        session.add(AbsenceRow(game_id=game.id, power=power, address=player.address, first_day=dates.first,
                               last_day=dates.last, reason=dates.reason, registered_at=now))
    session.flush()
    before = game.deadline
    moved = apply_now(session, services, game, ruleset, now)
    key = f"gm:absence-registered:{game.id}:{power}:{dates.first}:{dates.last}:{int(now.timestamp())}"
    notify_gm(session, services, key=key, game_id=game.id, now=now,
              subject=f"{game.name}: {power.title()} will be away", paragraphs=(
                  f"{power.title()} ({by}) registered an absence from {dates.first:%A %d %B %Y} to "
                  f"{dates.last:%A %d %B %Y}" + (f' ("{dates.reason}")' if dates.reason else "") + ".",
                  _for_gm(game, ruleset)))
    return Registered(on_file(session, game, power), game.deadline, before if moved else None)


def offer(session: Session, game: Game, power: str, dates: AbsenceDates, *, now: datetime) -> AbsenceRow | None:
    """An absence an out-of-office auto-reply names, stored as offered with a one-time reply secret;
    None where that absence was offered or registered before (one offer per absence)."""
    if ruleset_permits(queries.games.ruleset_of(game)) is not None:
        return None
    player = next(p for p in game.players if p.power == power)
    known = [*queries.absences.offered(session, game.id, power), *queries.absences.registered(session, game.id, power)]
    if any((row.first_day, row.last_day) == (dates.first, dates.last) for row in known):
        return None
    row = AbsenceRow(game_id=game.id, power=power, address=player.address, first_day=dates.first,
                     last_day=dates.last, reason="out-of-office reply", offered_at=now, offer_secret=new_secret())
    session.add(row)
    session.flush()
    return row


def ruleset_permits(ruleset: Ruleset) -> str | None:
    """Why absences are not registered in this game, or None."""
    return registration_problem(ruleset, 0, 0)


def answer_for(game: Game, player: Player, done: Registered, *, cancelled: int | None = None) -> Answer:
    """The player's answer: what is registered, what it does in this game, the next deadline (and
    where it was, if the absence moved it), how to change or cancel it."""
    ruleset = queries.games.ruleset_of(game)

    def shown(moment: datetime | None) -> str | None:
        return str(format_time(moment, game.timezone, player.zone)) if moment is not None else None

    registered = tuple(absence_days(a.first, a.last) + (f" ({a.reason})" if a.reason else "") for a in done.absences)
    return build_absence(game_name=game.name, registered=registered, effect=effect_words(ruleset),
                         deadline=shown(game.deadline), moved_from=shown(done.before), cancelled=cancelled)


def cancel(session: Session, services: Services, game_id: int, power: str, *, now: datetime) -> int:
    """`absence cancel`: the power's registered absences that have not ended are withdrawn (a
    deadline they moved stays where it is; the GM is told); how many."""
    game = queries.games.game_for_update(session, game_id, skip_locked=False)
    assert game is not None
    player = next(p for p in game.players if p.power == power)
    today = today_of(game, player, now)
    cancelled = 0
    for row in queries.absences.registered(session, game.id, power):
        if row.last_day >= today:
            row.cancelled_at = now
            cancelled += 1
    if cancelled:
        notify_gm(session, services, key=f"gm:absence-cancelled:{game.id}:{power}:{int(now.timestamp())}",
                  game_id=game.id, now=now, subject=f"{game.name}: {power.title()} cancelled an absence", paragraphs=(
                      f"{power.title()} withdrew the absences registered for the days to come ({cancelled}). A "
                      "deadline they moved stays where it is; `gmserver game deadline` moves it back.",))
    return cancelled


def apply_now(session: Session, services: Services, game: Game, ruleset: Ruleset, now: datetime) -> bool:
    """Registered absences that cover the current deadline move it at once (move_deadline): every
    player is told the new deadline, as a granted delay tells them. Whether it moved."""
    if game.status != "active" or game.paused or game.deadline is None:
        return False
    before = game.deadline
    moved = plan(session, game, ruleset, game.phase, before)
    if not moved.moved:
        return False
    game.deadline = moved.deadline
    queries.phases.current_record(session, game).deadline = moved.deadline
    action_id = record_moves(session, services, game, game.phase, before, moved, now)
    # who is away is not said: a player's absence is the kind of thing the others could use
    announce(session, services, game, action_id, "the deadline is moved",
             (f"A player will be away at the deadline, so the deadline of {describe_phase(game.phase)} moves to "
              f"{_when(game, moved.deadline)} (was {_when(game, before)}), for every player ({clause(ruleset)}).",),
             now, calendar=deadline_event(services, game, now))
    return True


def on_file(session: Session, game: Game, power: str) -> tuple[AbsenceDates, ...]:
    return tuple(AbsenceDates(row.first_day, row.last_day, row.reason)
                 for row in queries.absences.registered(session, game.id, power))


def _for_gm(game: Game, ruleset: Ruleset) -> str:
    cited = clause(ruleset)
    if ruleset.absence_policy == "move_deadline":
        return f"A deadline that falls in it moves to its end, within the player's allowance ({cited})."
    if ruleset.absence_policy == "hold_without_nmr":
        return f"At a deadline in it the power's units hold and no missed turn is counted ({cited})."
    return (f"You decide what it does ({cited}): for instance gmserver game deadline {game.name} ISO-TIME to "
            "move a deadline, or a proxy or stand-in for the power.")


def _when(game: Game, moment: datetime) -> str:
    return format_time(moment, game.timezone).local
