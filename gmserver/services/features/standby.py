"""Standby players (open sign-up's STANDBY): when a power needs a new player (civil disorder,
a resignation, the GM's search), each player standing by for the game is offered it, in the order
they confirmed, by a mail whose Reply-To is their own one-time address at the GM; the first to reply
TAKEOVER gets the power (services.commands.signup_mail). The GM can still `game replace` by hand.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.rules.position import describe_phase
from gmserver.services.base import mails
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue

log = logging.getLogger(__name__)

OFFER_KIND = "standby-offer"


def offer_power(session: Session, services: Services, game: Game, power: str, now: datetime) -> int:
    """Offer `power` of `game` to every player standing by for it who has no offer open; how many
    offers were queued."""
    standing_by = [s for s in queries.signups.signups(session, game.name, "standby", ("confirmed",))
                   if s.offered_power is None and all(p.address != s.address for p in game.players)]
    for signup in standing_by:
        signup.offered_power = power
        body = services.composer.render("player/gm_action.txt.j2", {
            "game_name": game.name, "headline": f"{power.title()} needs a new player", "deadline": None,
            "paused": False, "paragraphs": [
                f"{power.title()} in {game.name} needs a new player ({describe_phase(game.phase)}), and you stand "
                "by for this game.",
                "To take it over, reply to this mail with the word TAKEOVER. The first player standing by to reply "
                "gets it, with the start mail and the position; a later reply is told it was taken."]})
        message = mails.one_time(services, to=signup.address, subject=f"{game.name}: {power.title()} needs a new player",
                                 body=body, token=signup.secret, now=now)
        queue(session, message, kind=OFFER_KIND, now=now, game_id=game.id,
              dedupe_key=f"offer:{game.id}:{power}:{game.phase}:{signup.id}")
    if standing_by:
        log.info("%s: %s offered to %d standby players", game.name, power, len(standing_by))
    return len(standing_by)


def offer_taken(session: Session, game: Game, power: str) -> None:
    """The power has a new player: the other offers of it are withdrawn (a later TAKEOVER is told)."""
    for signup in queries.signups.signups(session, game.name, "standby", ("confirmed",)):
        if signup.offered_power == power:
            signup.offered_power = None
