"""What every GM action shares: its result (Done), its record in `gm_actions` with the announcement
to the players (record), and the checks most actions start with (require_active, player_of).

The GM's controls (services/commands/gm_controls.py), proxies, perpetual orders and the GM's
votes (services/features/) record their actions through here; so does the turn, for an
adjudication the GM forced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game, Player
from gmserver.reports.words import format_duration
from gmserver.rules.position import describe_phase
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce
from gmserver.services.game.games import GameError


@dataclass(frozen=True)
class Addressee:
    """Someone told of an action who is no longer a player's address (gm_mail.announce)."""

    power: str
    address: str
    secret: str | None


@dataclass(frozen=True)
class Done:
    """What a GM action did, in words, and how many players were told."""

    action: str
    text: str
    announced: int = 0
    action_id: int | None = None  # its row in gm_actions (a further announcement's dedupe key)


def record(session: Session, services: Services, game: Game, action: str, arguments: dict[str, Any], by: str,
           now: datetime, text: str, headline: str | None = None, paragraphs: tuple[str, ...] = (),
           to: list[Player] | None = None, calendar: bytes | None = None, table: Sequence[str] = (),
           images: Sequence[tuple[str, bytes]] = ()) -> Done:
    row = queries.gm_actions.record_action(session, game.id, action, arguments, by, now, text)
    told = announce(session, services, game, row.id, headline, paragraphs, now, to=to,
                    calendar=calendar, table=table, images=images) if headline else 0
    return Done(action, text, told, row.id)


def require_active(game: Game) -> None:
    if game.status != "active":
        raise GameError(f"{game.name} is {game.status}: its turns are over")


def player_of(game: Game, power: str) -> Player:
    player = next((p for p in game.players if p.power == power.strip().upper()), None)
    if player is None:
        raise GameError(f"{game.name} has no player for {power!r} (players: "
                        f"{', '.join(p.power for p in game.players)})")
    return player


def record_forced_adjudication(session: Session, game: Game, now: datetime, *, by: str = "cli") -> int:
    """`gmserver adjudicate`: the GM adjudicates the current turn whether or not it is due. A GM
    action like any other (`game actions`), recorded in the adjudication's own transaction, so
    exactly once with the turn. Its row's id."""
    when = (f", {format_duration(game.deadline - now)} before its deadline"
            if game.deadline is not None and game.deadline > now else "")
    return queries.gm_actions.record_action(session, game.id, "adjudicate", {"phase": game.phase}, by, now,
                                            f"{describe_phase(game.phase)} adjudicated by the GM{when}").id


def tell_players_of_early_adjudication(session: Session, services: Services, game: Game, action_id: int,
                                       phase: str, deadline: datetime, clause: str | None, now: datetime) -> int:
    """000 VII(2), 001 IV(2): the GM adjudicated a movement turn before its deadline against the
    house rule (`--force`): every player is told, with the rule, once (the GM action's row). Sent
    once the next turn is open, so that its deadline is the one shown. Mails queued."""
    return announce(session, services, game, action_id, f"{describe_phase(phase)} adjudicated before its deadline",
                    (f"The GM adjudicated {describe_phase(phase)} {format_duration(deadline - now)} before its "
                     "deadline, overruling the house rule that a movement turn is never adjudicated before its "
                     f"deadline{f' ({clause})' if clause else ''}. Orders that had not reached the GM by then were "
                     "not used; the results follow in the turn report.",), now)
