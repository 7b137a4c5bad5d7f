"""A player's delay request by mail (`delay_policy`, `delay_hours`, `max_auto_delays`),
carried out in the message's transaction with the game row locked. The decision is pure
(gmserver/rules/delays.py); this module counts the player's delays, moves the deadline, records
the grant in `gm_actions` (by the player's address, like the GM's own moves of a deadline), tells
the other players and tells the GM, who may undo it with `gmserver game deadline`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.reports.words import format_time
from gmserver.rules.delays import DelayDecision, DelayRequest, clause, decide_delay, delayed_deadline, game_year
from gmserver.rules.position import describe_phase
from gmserver.services.game import schedule
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce, deadline_event
from gmserver.services.base.gm_notices import notify_gm

ACTION = "delay"
# the inbound row's outcome for each decision
OUTCOMES = {"granted": "delay-granted", "to_gm": "delay-to-gm", "refused": "delay-refused"}


def granted_this_year(session: Session, game_id: int, power: str, address: str, year: int | None) -> int:
    """Delays granted at once to the player of `power` at `address` in game year `year` (000
    VII(5): counted per player, so a replacement player starts with none)."""
    return sum(1 for row in queries.gm_actions.actions_of(session, game_id)
               if row.action == ACTION and row.arguments.get("power") == power
               and row.arguments.get("address") == address
               and row.arguments.get("year") == year and row.arguments.get("automatic"))


def request_delay(session: Session, services: Services, game_id: int, power: str, reason: str, *, by: str,
                  inbound_id: int, now: datetime) -> DelayDecision:
    """Decide one request and do what the decision says; the decision (its words for the player)."""
    game = queries.games.game_for_update(session, game_id, skip_locked=False)
    assert game is not None
    ruleset = queries.games.ruleset_of(game)
    player = next(p for p in game.players if p.power == power)
    active = game.status == "active" and not game.paused
    used = granted_this_year(session, game.id, power, player.address, game_year(game.phase))
    decision = decide_delay(ruleset, DelayRequest(
        phase=game.phase, deadline=game.deadline if active else None, received=now, used=used,
        civil_disorder=player.civil_disorder, zone=game.timezone))
    if decision.outcome == "granted":
        _grant(session, services, game, power, reason, decision, by=by, inbound_id=inbound_id, now=now,
               count=used + 1)
    elif decision.outcome == "to_gm":
        _pass_on(session, services, game, power, reason, decision, inbound_id=inbound_id, now=now)
    return decision


def _address(game: Game, power: str) -> str:
    return next(p.address for p in game.players if p.power == power)


def _when(game: Game, moment: datetime | None) -> str:
    return format_time(moment, game.timezone).local if moment is not None else "none"


def _grant(session: Session, services: Services, game: Game, power: str, reason: str, decision: DelayDecision, *,
           by: str, inbound_id: int, now: datetime, count: int) -> None:
    ruleset = queries.games.ruleset_of(game)
    assert decision.new_deadline is not None and game.deadline is not None
    before, phase = game.deadline, describe_phase(game.phase)
    game.deadline = decision.new_deadline
    queries.phases.current_record(session, game).deadline = decision.new_deadline
    cited = clause(ruleset)
    text = (f"{power} was granted a delay of {ruleset.delay_hours} hours ({cited}): the deadline of {phase} is "
            f"{_when(game, game.deadline)} (was {_when(game, before)})")
    row = queries.gm_actions.record_action(session, game.id, ACTION, {
        "power": power, "address": _address(game, power), "year": game_year(game.phase), "automatic": True, "hours": ruleset.delay_hours,
        "deadline": game.deadline.isoformat(), "before": before.isoformat(), "inbound": inbound_id,
        "reason": reason[:200]}, by, now, text)
    # who asked is not said: a player's absence is the kind of thing the others could use
    others = [p for p in game.players if p.power != power]
    announce(session, services, game, row.id, "the deadline is delayed",
             (f"At a player's request the deadline of {phase} is delayed by {ruleset.delay_hours} hours, for "
              f"every player ({cited}: delay requests received before the deadline are generally granted).",),
             now, to=others, calendar=deadline_event(services, game, now))  # the report's calendar event, moved
    pace = schedule.pace_note(session, game, game.deadline)  # 001 IV(4): the GM may want to undo it
    notify_gm(session, services, key=f"gm:delay:{game.id}:{game.phase}:{inbound_id}",
              subject=f"{game.name}: {power.title()} was granted a delay", now=now, game_id=game.id, paragraphs=(
                  f"{power.title()} asked for a delay of {phase}" + (f' ("{reason[:200]}")' if reason else "")
                  + f" and was granted one at once ({cited}): the deadline moved from {_when(game, before)} "
                  f"to {_when(game, game.deadline)}. Every player has been told.",
                  f"To undo it: gmserver game deadline {game.name} {before.isoformat()}  (or mail the command "
                  f"\"deadline {game.name} {before.isoformat()}\").",
                  f"Delays granted at once to {power.title()} in {game_year(game.phase)}: {count} of the "
                  f"{ruleset.max_auto_delays} a player may have each game year"
                  + ("; further requests this year come to you." if decision.last_automatic else "."),
                  *([f"Note: {pace}."] if pace else [])))


def _pass_on(session: Session, services: Services, game: Game, power: str, reason: str, decision: DelayDecision, *,
             inbound_id: int, now: datetime) -> None:
    """The GM decides (gm_decides, or beyond what is granted at once): a notice with the commands."""
    ruleset = queries.games.ruleset_of(game)
    assert game.deadline is not None
    suggested = _suggested(game, ruleset.delay_hours)
    notify_gm(session, services, key=f"gm:delay:{game.id}:{game.phase}:{inbound_id}",
              subject=f"{game.name}: {power.title()} asks for a delay", now=now, game_id=game.id, paragraphs=(
                  f"{power.title()} asks for a delay of {describe_phase(game.phase)} (deadline "
                  f"{_when(game, game.deadline)})" + (f': "{reason[:200]}"' if reason else ", giving no reason") + ".",
                  f"What the player was told: {decision.said}",
                  f"To grant {ruleset.delay_hours} hours: gmserver game deadline {game.name} {suggested}  (or mail "
                  f"the command \"delay {game.name} {ruleset.delay_hours}\"). To refuse, do nothing.",
              ))


def _suggested(game: Game, hours: int) -> str:
    assert game.deadline is not None
    return delayed_deadline(game.deadline, hours, game.timezone).isoformat()
