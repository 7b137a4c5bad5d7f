"""Perpetual order sets (`perpetual_orders`; 000 II(4)): the GM marks a power's set
perpetual (`gmserver game perpetual NAME POWER [--off]`); at each later movement deadline where
the power sent nothing, the orders of that set that still fit the board stand in for it, and the
report says so (rules/perpetual.py decides which). It ends when the GM turns it off or the
player sends orders for a later turn.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord, Player
from gmserver.rules.order import Order
from gmserver.rules.perpetual import cited, may_mark, orders_that_still_apply, refusal
from gmserver.rules.position import phase_type
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.game.actions import Done
from gmserver.services.game.actions import player_of as _player
from gmserver.services.game.actions import record as _record
from gmserver.services.game.actions import require_active as _active
from gmserver.services.game.games import GameError
from gmserver.services.game.ordersets import orders_on_file


def mark(session: Session, services: Services, game: Game, power: str, on: bool = True, *, by: str,
         now: datetime) -> Done:
    """Mark the power's set perpetual (the one on file for this movement turn, else the orders
    of its last adjudicated movement turn), or end it. The power's player is told."""
    _active(game)
    player = _player(game, power)
    ruleset = queries.games.ruleset_of(game)
    if not on:
        if player.perpetual is None:
            raise GameError(f"{player.power} has no perpetual order set")
        player.perpetual = None
        return _record(session, services, game, "perpetual", {"power": player.power, "on": False}, by, now,
                       f"{player.power}'s orders are no longer kept from turn to turn",
                       f"{player.power.title()}'s standing orders end",
                       ("The GM no longer keeps your orders from turn to turn: a turn without orders is a "
                        "missed turn again.",), to=[player])
    if not may_mark(ruleset):
        raise GameError(f"no order set was kept: {refusal(ruleset)}")
    orders = _set_to_keep(session, game, player.power, ruleset)
    if not orders:
        raise GameError(f"{player.power} has no movement orders to keep (none on file, none adjudicated)")
    player.perpetual = {"orders": [str(o) for o in orders], "since": game.phase}
    listed = "; ".join(map(str, orders))
    return _record(session, services, game, "perpetual", {"power": player.power, "on": True,
                   "orders": player.perpetual["orders"]}, by, now,
                   f"{player.power}'s orders are kept from turn to turn: {listed}",
                   f"{player.power.title()}'s orders are kept",
                   (f"The GM keeps these orders of {player.power.title()} from turn to turn ({cited(ruleset)}): {listed}.",
                    "At each movement deadline where you send nothing, those that still fit the board are used. "
                    "Sending orders, or the GM, ends it."), to=[player])


def _set_to_keep(session: Session, game: Game, power: str, ruleset: Ruleset) -> tuple[Order, ...]:
    if phase_type(game.phase) == "M":
        on_file = orders_on_file(session, game.id, game.phase, ruleset).orders.get(power)
        if on_file:
            return tuple(on_file)
    for record in reversed(queries.phases.adjudicated_records(session, game.id)):
        if phase_type(record.phase) == "M" and (record.orders or {}).get(power):
            return tuple(Order.parse(text, "M") for text in record.orders[power])
    return ()


def standing_orders(game: Game, record: PhaseRecord, ordered: frozenset[str]) -> dict[str, tuple[Order, ...]]:
    """power -> the orders of its perpetual set that still apply, for each power that sent no
    set for this movement turn (after the turn it was marked in); powers with none left out."""
    if phase_type(record.phase) != "M":
        return {}
    position = None  # read from the state only for a set that is used: most games have none
    used = {}
    for player in game.players:
        kept = player.perpetual
        if not kept or player.power in ordered or kept.get("since") == record.phase or player.civil_disorder:
            continue
        position = position or engine.position_from_state(record.state)
        orders = orders_that_still_apply([Order.parse(t, "M") for t in kept["orders"]], position, player.power)
        if orders:
            used[player.power] = orders
    return used


def end_where_ordered(game: Game, phase: str, sent: frozenset[str]) -> list[Player]:
    """000 II(4): a perpetual set ends when its player sends orders for a later turn."""
    ended = [p for p in game.players if p.perpetual and p.power in sent and p.perpetual.get("since") != phase]
    for player in ended:
        player.perpetual = None
    return ended
