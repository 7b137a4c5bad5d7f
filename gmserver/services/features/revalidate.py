""""Orders already received for the following turn are re-validated against the
corrected position and their senders told." Run by services.turn.turns when a rolled-back turn has
been adjudicated again: each power with orders on file for the turn it opened hears whether they
all still fit the corrected position, and which do not (those are void at adjudication, as any
order the position does not allow)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.rules.position import describe_phase
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.game.ordersets import orders_on_file
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_tokens import token_of


def revalidate_after_correction(session: Session, services: Services, game: Game, state: Mapping[str, Any],
                                corrected: str, revision: int, now: datetime) -> int:
    """Tell each power with orders on file for the game's (new) current phase how they read
    against the corrected position; how many were told (once per correction: dedupe keys)."""
    on_file = orders_on_file(session, game.id, game.phase, queries.games.ruleset_of(game))
    if not on_file.orders:
        return 0
    possible = {order for orders in engine.legal_orders(state).values() for order in orders}
    told = 0
    for player in game.players:
        orders = [str(order) for order in on_file.orders.get(player.power, ())]
        if not orders:
            continue
        unfit = [order for order in orders if order not in possible]
        body = services.composer.render("player/revalidated.txt.j2", {
            "game_name": game.name, "corrected": describe_phase(corrected), "phase": describe_phase(game.phase),
            "orders": orders, "unfit": unfit,
        })
        message = outgoing.message(services, to=player.address,
                                   subject=f"{game.name}: your orders for {describe_phase(game.phase)} after the correction",
                                   body=body, now=now, secret=token_of(player, game.phase))
        told += queue(session, message, kind="revalidated", now=now, game_id=game.id,
                      dedupe_key=f"revalidated:{game.id}:{corrected}:{revision}:{player.power}")
    return told
