"""SET PRESS digest: press for a player who chose it is kept (table press_digest, by
services/features/press.deliver) and mailed as one message a day: when the oldest item waiting
is a day old, every item waiting goes in one mail. A player who goes back to SET PRESS each gets
what waits at the next sweep. The daemon's sweep calls `send_due`."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game, Player
from gmserver.db.session import each_in_its_own_transaction, transaction
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_tokens import token_of

log = logging.getLogger(__name__)

TEMPLATE = "player/press_digest.txt.j2"
# one mail a day: the items wait until the oldest is this old
DIGEST_INTERVAL = timedelta(days=1)


def send_due(services: Services, now: datetime) -> int:
    """Queue each digest that is due, one transaction per player; how many were queued."""
    with transaction(services.sessions) as session:
        players = queries.press.pending_digests(session)
    return each_in_its_own_transaction(services.sessions, players,
                                       lambda session, player_id: _send(session, services, player_id, now),
                                       lambda player_id: f"player {player_id}: the press digest could not be queued")


def _send(session: Session, services: Services, player_id: int, now: datetime) -> int:
    player = session.get(Player, player_id)
    items = queries.press.digest_items(session, player_id)
    if player is None or not items:
        return 0
    if player.press_delivery == "digest" and player.resigned_at is None and items[0].created_at > now - DIGEST_INTERVAL:
        return 0  # the day is not over yet
    for item in items:
        item.sent_at = now
    if player.resigned_at is not None:
        return 0  # the player left: their press is not mailed
    game = session.get(Game, player.game_id)
    assert game is not None
    body = services.composer.render(TEMPLATE, {"game_name": game.name, "items": [item.body for item in items]})
    message = outgoing.message(services, to=player.address, subject=f"{game.name}: the day's press ({len(items)})",
                               body=body, now=now, secret=token_of(player, game.phase))
    return int(queue(session, message, kind="press", dedupe_key=f"pressdigest:{player.id}:{items[-1].id}", now=now,
                     game_id=game.id))
