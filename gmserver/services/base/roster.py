"""Whether a game's players may see who plays the other powers (their names and addresses): one
function, which the roster (LIST), the start mail and whatever else names another player asks.
Every game shows them (the start mail has always listed the other players' primary addresses)
but an anonymous one (`game create --anonymous`), whose players know each other by their powers
only until the GM reveals them after the end (`game reveal`)."""

from __future__ import annotations

from collections.abc import Iterable

from gmserver.db.models import Game, Player


def roster_visible(game: Game) -> bool:
    """True: a player may be told who plays each other power (primary addresses only: a fallback
    address is never published, `registered_with_fallback`); False in an anonymous game."""
    return not game.anonymous


def in_play(players: Iterable[Player]) -> list[Player]:
    """The players who have not resigned (RESIGN, services/features/resignations.py): those the
    game's mail goes to and whose mail counts for their power."""
    return [player for player in players if player.resigned_at is None]
