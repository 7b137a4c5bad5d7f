"""The requests answered from the game's records: STATUS, HISTORY, MAP, ORDERS (RULES is a player
command: gmserver/commands/players/house_rules.py).

Each reads what it needs in the message's transaction and answers the player by reply, in the
thread, through the outbox and under the notice limit (handlers/notice.py). The words are made
in gmserver.reports.requests; nothing here tells a player another power's orders before they
are adjudicated, nor a vote, nor an address.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from gmserver import mapimage
from gmserver.db.models import Game
from gmserver.db.queries.games import ruleset_of
from gmserver.db.queries.phases import adjudicated_records, current_record
from gmserver.engine import position_from_state
from gmserver.reports import requests as words
from gmserver.reports.replies import if_unordered
from gmserver.rules.briefing import civil_disorder_rule
from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome, phase_type
from gmserver.services.game.ordersets import counted_sets, orders_on_file
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail

log = logging.getLogger(__name__)

TEMPLATE = words.Answer.template


def _game(mail: Mail) -> tuple[Game, str]:
    """The game row and the asking power (intake accepted the message for them)."""
    assert mail.decision is not None, "a request comes from a power"
    game = mail.session.get(Game, mail.decision.game.id)
    assert game is not None
    return game, mail.decision.power


def _send(mail: Mail, answer: words.Answer, outcome: str, attachments: Sequence[tuple[str, bytes]] = ()) -> str:
    notice.answer(mail, TEMPLATE, {"title": answer.title, "sections": answer.sections}, attachments)
    return outcome


def status(mail: Mail) -> str:
    """Phase, deadline in the game's time zone, who has ordered (never what), the asker's own
    missed turns and civil disorder (services/features/nmr.py)."""
    game, power = _game(mail)
    position = position_from_state(current_record(mail.session, game).state)
    player = next(p for p in game.players if p.power == power)
    answer = words.build_status(
        game_name=game.name, phase=game.phase, deadline=game.deadline, timezone=game.timezone, paused=game.paused,
        to_order=position.powers_to_order() if game.status == "active" else (),
        # the sets that count: a proxy's as proxy_precedence says
        ordered=sorted(counted_sets(mail.session, game.id, game.phase, ruleset_of(game))),
        player=words.PlayerState(power, player.missed_in_a_row, player.missed_turns, player.civil_disorder,
                                 civil_disorder_rule(ruleset_of(game))))
    return _send(mail, answer, "status-sent")


def history(mail: Mail) -> str:
    """The adjudicated phases with their orders and results (public once adjudicated), or the
    phases the argument names ("HISTORY F1901")."""
    game, _ = _game(mail)
    phases = [words.PhaseHistory(record.phase, _outcomes(record.phase, record.results or []),
                                 position_from_state(record.state))
              for record in adjudicated_records(mail.session, game.id)]
    answer = words.build_history(game_name=game.name, phases=phases, asked=mail.kind.argument,
                                 geography=mail.services.geography)
    return _send(mail, answer, "history-sent")


def _outcomes(phase: str, rows: list[dict[str, Any]]) -> tuple[OrderOutcome, ...]:
    """A record's results (engine notation in the database JSON, services.turn.turns.results_rows)
    as values, read at this edge."""
    kind = phase_type(phase)
    return tuple(OrderOutcome(row["power"], Order.parse(row["order"], kind), tuple(row.get("results") or ()),
                              bool(row.get("defaulted"))) for row in rows)


def map_png(session: Session, game: Game) -> bytes | None:
    """The map of the current position as a PNG, attached to the MAP answer (the report map's
    board, gmserver/mapimage.py); None if it cannot be drawn: the answer is then the text alone."""
    try:
        return mapimage.position_png(position_from_state(current_record(session, game).state))
    except Exception:
        log.exception("%s: the map could not be drawn; answering with the text position", game.name)
        return None


def position(mail: Mail) -> str:
    """MAP: the current position as text (units and centres per power); the PNG when there is one."""
    game, _ = _game(mail)
    state = current_record(mail.session, game).state
    png = map_png(mail.session, game)
    answer = words.build_position(game_name=game.name, position=position_from_state(state),
                                  geography=mail.services.geography, has_map=png is not None)
    return _send(mail, answer, "map-sent", [] if png is None else [(f"{game.name}-{game.phase}.png", png)])


def own_orders(mail: Mail) -> str:
    """ORDERS: the asker's own orders on file for the current phase, as they were read; to that
    player only (the answer goes to the sender, a registered address of the power)."""
    game, power = _game(mail)
    on_file = orders_on_file(mail.session, game.id, game.phase, ruleset_of(game))
    position_now = position_from_state(current_record(mail.session, game).state)
    units = {"M": position_now.units, "R": position_now.dislodged}.get(position_now.phase_type, {}).get(power, ())
    answer = words.build_own_orders(game_name=game.name, power=power, phase=game.phase,
                                    orders=on_file.orders.get(power, ()), versions=on_file.versions.get(power, 0),
                                    units=units, geography=mail.services.geography,
                                    if_unordered=if_unordered(game.phase))
    return _send(mail, answer, "orders-sent")
