"""The players' reply addresses, gm+TOKEN@domain (gmserver.rules.authenticity): which token a
mail sent now carries, and which tokens still prove a sender.

A token belongs to a period, the phase the mail was sent in. It proves the sender for the current
turn and the one before (the phases the game's last adjudication processed, one or several at once
under 003 [5]), so that a reply to last turn's report sent just after the deadline still counts,
and a mail someone else saw stops being a key two turns later.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from gmserver.db.models import Game, Player
from gmserver.db.queries.games import OpenGame
from gmserver.db.queries.phases import phases_of_last_adjudication
from gmserver.db.queries.players import players_of_address
from gmserver.rules.authenticity import reply_token, reply_tokens


def token_of(player: Player, phase: str) -> str | None:
    """The token of the player's reply address in a mail sent in `phase` (the game's phase when
    it is sent); None for a player without a password (a game from before sender checks)."""
    return reply_token(player.secret, phase) if player.secret else None


def reply_periods(session: Session, game: Game | OpenGame) -> tuple[str, ...]:
    """The periods whose tokens are accepted now: the game's phase, then those of its last adjudication."""
    before = phases_of_last_adjudication(session, game.id, game.phase) or []
    return (game.phase, *(phase for phase in before if phase != game.phase))


def tokens_of_address(session: Session, address: str) -> set[str]:
    """The reply tokens that prove mail from `address` (lower case) now, in every game it plays in."""
    return {token for player in players_of_address(session, address)
            for token in reply_tokens(player.secret, reply_periods(session, player.game))}
