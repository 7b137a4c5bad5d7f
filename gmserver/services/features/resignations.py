"""RESIGN by mail: the player leaves their power. Their record (address, when they joined and
left, missed turns, civil disorder) is kept in player_history at once; the power goes to civil
disorder, and on as the house rules on an abandoned position say (rules/resignation.py: a
replacement sought, the game suspended in the first year under 001 V(3), or civil disorder for
good); the GM is told at once with the commands that follow; the other players are told; the
resigning player's address and reply addresses no longer count for the power.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import PlayerHistory
from gmserver.reports.words import plural
from gmserver.rules.position import describe_phase
from gmserver.rules.resignation import after_resignation
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.features import standby
from gmserver.services.game import actions
from gmserver.services.game.games import new_secret

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Resigned:
    said: str  # what the player is told, in words with the clause
    outcome: str  # the inbound row's outcome


def resign(session: Session, services: Services, game_id: int, power: str, *, by: str, now: datetime) -> Resigned:
    """The player of `power` leaves the game (in the message's transaction, the game row locked)."""
    game = queries.games.game_for_update(session, game_id, skip_locked=False)
    assert game is not None
    player = next(p for p in game.players if p.power == power)
    if player.resigned_at is not None:
        return Resigned(f"You have already resigned from {game.name}.", "resign-repeated")
    ruleset = queries.games.ruleset_of(game)
    course = after_resignation(ruleset, game.phase)
    session.add(PlayerHistory(
        game_id=game.id, power=player.power, address=player.address, fallback_address=player.fallback_address,
        joined_at=player.joined_at, left_at=now, left_in_phase=game.phase, missed_turns=player.missed_turns,
        missed_in_a_row=player.missed_in_a_row, civil_disorder=player.civil_disorder, cd_recorded=player.cd_recorded))
    address = player.address
    player.resigned_at = now
    player.civil_disorder = True
    player.secret = new_secret()  # the reply addresses and password the player had open nothing now
    if course.suspend and game.status == "active":
        game.waiting_for = sorted({*(game.waiting_for or ()), player.power})
        game.deadline = None
    log.info("%s: %s (%s) resigned in %s", game.name, player.power, address, game.phase)
    name = player.power.title()
    # as for a power that falls into civil disorder by missed turns: the players standing by for
    # the game are offered it, the first to reply TAKEOVER gets it
    offered = standby.offer_power(session, services, game, player.power, now)
    actions.record(session, services, game, "resign", {"power": player.power, "address": address}, address, now,
                   f"{name}'s player resigned", f"{name}'s player has resigned",  # no address: the record has it
                   (f"The player of {name} has resigned in {describe_phase(game.phase)}. {course.said}",),
                   to=[other for other in game.players if other.resigned_at is None])
    notify_gm(session, services, key=f"gm:resigned:{game.id}:{player.power}:{now:%Y%m%dT%H%M%S}", game_id=game.id,
              now=now, subject=f"gmserver: {game.name}: {name}'s player has resigned", paragraphs=(
                  f"Game {game.name}: {address} resigned from {name} in {describe_phase(game.phase)}; their record is "
                  f"kept (gmserver game show {game.name}). {name} is in civil disorder"
                  + (f"; it is offered to the {plural(offered, 'player')} standing by for the game, the first to "
                     "reply takes it over." if offered else "."),
                  course.to_gm,
                  f"To put a new player in: gmserver game replace {game.name} {player.power} ADDRESS."
                  + (f" To seek one while the power is in civil disorder: gmserver game cd {game.name} {player.power} "
                     "search." if isinstance(ruleset.cd_search_years, int) and not course.suspend else ""),
              ))
    return Resigned(f"You have resigned from {game.name}, where you played {name}; the GM has been told. "
                    f"{course.said} Your record in the game is kept.", "resigned")
