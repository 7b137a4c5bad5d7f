"""A game's schedule on the database: which games are due (grace period, trigger, early
adjudication), the next deadline after a turn, the GM's notice of a minor turn ready early, and
the checks a deadline set by the GM must pass. The maths is gmserver/rules/schedule.py; this
module only reads the game row and its sets."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.db.queries.outbox import dedupe_key_taken
from gmserver.db.session import transaction
from gmserver.rules.deadlines import TurnLengths
from gmserver.rules.pace import deadline_over_target, season_movement
from gmserver.rules.position import describe_phase, phase_type
from gmserver.rules.reading.sets import ordered_sets, set_status
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.schedule import (
    Schedule,
    adjudication_due,
    deadline_problems,
    first_deadline,
    minimums_of,
    minor_turn_complete,
    next_deadline,
)
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue
from gmserver.services.game.ordersets import contingent_for, counted_sets
from gmserver.services.game.shown import lengths_of

NO_MINIMUMS = TurnLengths(timedelta(0), timedelta(0), timedelta(0))


@dataclass(frozen=True)
class Due:
    game_id: int
    phase: str
    early: bool  # before its deadline: every power that owes orders has final orders (000 VII(2))


def schedule_of(game: Game, ruleset: Ruleset) -> Schedule:
    """The game's schedule: its turn lengths at its fixed time of day in its time zone, the
    profile's minimums (min_hours_*) and its grace period (processing_grace_minutes)."""
    return Schedule(lengths_of(game), game.timezone, time.fromisoformat(game.deadline_time) if game.deadline_time
                    else None, minimums_of(ruleset), timedelta(minutes=ruleset.processing_grace_minutes))


def following_deadline(game: Game, ruleset: Ruleset, phase: str, now: datetime) -> datetime | None:
    """The deadline of `phase`, the one after the game's current phase, adjudicated at `now`:
    from the current phase's DEADLINE, never from `now` (early or late processing never
    shifts the following deadlines). A game without a deadline (paused) starts from `now`."""
    return next_deadline(game.deadline or now, phase, schedule_of(game, ruleset), now)


def fresh_deadline(game: Game, ruleset: Ruleset, now: datetime) -> datetime | None:
    """A deadline for the game's current phase one full turn from `now`, at the fixed time of
    day (a game resumed after its deadline passed, or going on after a Spring 1901 wait)."""
    return first_deadline(game.phase, now, schedule_of(game, ruleset))


def due_games(session: Session, now: datetime) -> list[Due]:
    """The games to adjudicate now: past their deadline plus the grace period where the trigger
    is automatic, then those ready early (early_processing = minor_when_all_final)."""
    due = [Due(g.id, g.phase, False) for g in queries.games.past_deadline(session, now)
           if adjudication_due(g.deadline, queries.games.ruleset_of(g), now)]
    due += [Due(g.id, g.phase, True) for g in queries.games.in_minor_phase_before_deadline(session, now)
            if early_ready(session, g, queries.games.ruleset_of(g))]
    return due


def is_due(session: Session, game: Game, now: datetime, *, early: bool) -> bool:
    """Re-checked under the game's lock: due at its time, or (`early`) ready early."""
    ruleset = queries.games.ruleset_of(game)
    if adjudication_due(game.deadline, ruleset, now):
        return True
    return early and game.deadline is not None and early_ready(session, game, ruleset)


def early_ready(session: Session, game: Game, ruleset: Ruleset) -> bool:
    """000 VII(2), minor_when_all_final: the minor turn is complete (`minor_turn_ready`)."""
    return ruleset.early_processing == "minor_when_all_final" and minor_turn_ready(session, game, ruleset)


def minor_turn_ready(session: Session, game: Game, ruleset: Ruleset) -> bool:
    """Every power that owes orders in this retreat or adjustment turn has a final set on file,
    or contingent orders sent with the moves (early_processing)."""
    if phase_type(game.phase) not in ("R", "A"):
        return False
    # the sets that count: a proxy's as proxy_precedence says
    ready = {power for power, sets in counted_sets(session, game.id, game.phase, ruleset).items()
             if set_status(ordered_sets(sets, ruleset)[-1], ruleset) == "final"}
    ready |= set(contingent_for(session, game.id, game.phase, ruleset))
    if not ready:
        return False  # nobody is ready: no need to ask the engine who owes orders (the sweep's cost)
    record = queries.phases.current_record(session, game)
    owing = frozenset(engine.position_from_state(record.state).powers_to_order())
    return minor_turn_complete(game.phase, owing, frozenset(ready))


def queue_early_notices(services: Services, now: datetime, *, to: str) -> int:
    """early_processing = minor_gm_discretion (000 VII(2)): tell the GM, once per phase, that a
    minor turn is complete and may be adjudicated now (`gmserver adjudicate NAME`)."""
    queued = 0
    with transaction(services.sessions) as session:
        for game in queries.games.in_minor_phase_before_deadline(session, now):
            ruleset = queries.games.ruleset_of(game)
            if ruleset.early_processing != "minor_gm_discretion":
                continue
            key = f"alert:early:{game.id}:{game.phase}"
            if dedupe_key_taken(session, key) or not minor_turn_ready(session, game, ruleset):
                continue
            body = services.composer.render("gm/early.txt.j2", {
                "game": game.name, "phase": game.phase, "phase_name": describe_phase(game.phase),
                "clause": "house rules 000 VII(2)" if ruleset.name == "mhr"
                else "the house rules' early processing of minor turns",
                "deadline": f"{game.deadline:%Y-%m-%d %H:%M} UTC"})
            message = outgoing.message(services, to=to, subject=f"{game.name} {game.phase}: ready to adjudicate early",
                                       body=body, now=now)
            queued += queue(session, message, kind="alert", dedupe_key=key, now=now, game_id=game.id)
    return queued


def new_deadline_problems(session: Session, game: Game, deadline: datetime, now: datetime) -> list[str]:
    """Why the GM may not set `deadline` for the game's current phase (`game deadline NAME
    ISO-TIME`): in the past, or a turn shorter than the profile's minimum from when the phase
    opened (min_hours_*) in a game that enforces them. [] when it may."""
    ruleset = queries.games.ruleset_of(game)
    record = queries.phases.current_record(session, game)
    # a game created with short turns (demo, load test) was never held to the minimums: nor is its GM
    minimums = minimums_of(ruleset) if game.enforce_minimums else NO_MINIMUMS
    return deadline_problems(game.phase, deadline, opened_at=record.opened_at, now=now,
                             minimums=minimums, ruleset=ruleset, zone=game.timezone)


def pace_note(session: Session, game: Game, deadline: datetime) -> str | None:
    """001 IV(4): whether `deadline` makes the current Turn longer than the guide, in words for
    the GM (never refused: it is a guide). The Turn began when its movement phase opened."""
    ruleset = queries.games.ruleset_of(game)
    if ruleset.target_days_per_game_turn is None:
        return None
    movement = season_movement(game.phase)
    record = queries.phases.phase_record(session, game.id, movement) if movement else None
    began = (record or queries.phases.current_record(session, game)).opened_at
    return deadline_over_target(ruleset, began, deadline, game.timezone)
