"""Game end inside the adjudication's transaction (rules/game_end.py decides): the solo at the
profile's count, the Spring solo check for the GM (003 [23]) and the stalemate notice (000
IX(2) ¶2, 001 VIII(2), 002 DRAWS 4)."""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.rules import game_end
from gmserver.rules.game_end import years
from gmserver.rules.position import PhaseOutcome
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import notify_gm

log = logging.getLogger(__name__)

GAME_OVER = "COMPLETED"  # the engine's name for the phase of a finished game


def decide_end(session: Session, services: Services, game: Game, ruleset: Ruleset, outcome: PhaseOutcome,
               now: datetime) -> PhaseOutcome:
    """The outcome with its winner by the profile's `solo_centres`, checked after the Fall
    ownership update (the engine was told not to decide); a won game's next phase is the end.
    Under `solo_check_after_spring` (003 [23]) a power owning or occupying the count after the
    Spring turn has won too. Notices for the GM: a Spring solo to rule on (a tie), a stalemate."""
    if game_end.ownership_updated(outcome.phase, outcome.after.phase):
        winner = game_end.solo_winner(outcome.after.centers, ruleset)
        if winner is not None:
            log.info("%s: %s owns %d supply centres after %s: a solo (%d needed)", game.name, winner,
                     len(outcome.after.centers[winner]), outcome.phase, ruleset.solo_centres)
            return dataclasses.replace(outcome, winners=(winner,),
                                       after=dataclasses.replace(outcome.after, phase=GAME_OVER))
    if game_end.spring_over(outcome.phase, outcome.after.phase):
        # 003 [23]: a nation that conquers the solo count in Spring has won, as in the Fall
        winner = game_end.spring_solo_winner(outcome.after, services.geography.supply_centres(), ruleset)
        if winner is not None:
            log.info("%s: %s owns or occupies %d supply centres after %s: a solo in Spring (%d needed)", game.name,
                     winner, len(game_end.conquered(outcome.after, winner, services.geography.supply_centres())),
                     outcome.phase, ruleset.solo_centres)
            return dataclasses.replace(outcome, winners=(winner,),
                                       after=dataclasses.replace(outcome.after, phase=GAME_OVER))
        _spring_solo(session, services, game, ruleset, outcome, now)
    if outcome.after.phase.startswith("S") and outcome.after.phase_type == "M":
        _stalemate(session, services, game, ruleset, outcome, now)
    return outcome


def _spring_solo(session: Session, services: Services, game: Game, ruleset: Ruleset, outcome: PhaseOutcome,
                 now: datetime) -> None:
    """003 [23]: two powers reaching the solo count together in Spring (each counting a centre one
    owns and the other occupies) have no winner by the count: the GM rules."""
    for power in game_end.spring_solo_candidates(outcome.after, services.geography.supply_centres(), ruleset):
        notify_gm(session, services, key=f"gm:springsolo:{game.id}:{outcome.phase}:{power}", game_id=game.id,
                  now=now, subject=f"gmserver: {game.name}: {power.title()} may have a solo in Spring",
                  paragraphs=[
                      f"Game {game.name}, after {outcome.phase}: {power.title()} owns or occupies "
                      f"{ruleset.solo_centres} or more supply centres.",
                      "Under the house rules a game ends when a nation conquers the solo count of supply "
                      "centres, in Spring or Autumn (003 [23]). More than one power reaches it by the centres "
                      "it owns or occupies, so gmserver has not ended the game: the ruling is yours (gmserver "
                      f"game end {game.name} ends it).",
                  ])


def _stalemate(session: Session, services: Services, game: Game, ruleset: Ruleset, outcome: PhaseOutcome,
               now: datetime) -> None:
    if ruleset.stalemate_years is None:
        return
    history = [engine.position_from_state(state).centers for state in queries.phases.spring_states(session, game.id)]
    history.append(outcome.after.centers)
    notice = game_end.stalemate_notice(game_end.years_without_change(history), ruleset)
    if notice is None:
        return
    year = outcome.after.phase[1:5]
    notify_gm(session, services, key=f"gm:stalemate:{game.id}:{year}", game_id=game.id, now=now,
              subject=f"gmserver: {game.name}: no supply centre has changed hands for {years(notice.years)}",
              paragraphs=[
                  f"Game {game.name}, Spring {year}: no supply centre has changed hands for "
                  f"{years(notice.years)}.",
                  f"{notice.text} ({notice.clause}). gmserver does not end the game itself.",
              ])
