"""`resign`: the player leaves the game. The GM is told at once, the power goes to civil disorder
and on as the house rules on an abandoned position say (rules/resignation.py), the other players
are told, and the player's record is kept (services/features/resignations.py)."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply


def run(call: PlayerCall) -> Reply:
    from gmserver.reports.requests import Answer  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.features.resignations import resign  # noqa: PLC0415

    done = resign(call.session, call.services, call.game.id, call.power, by=call.sender, now=call.now)
    return Reply(done.outcome, Answer(done.said))


COMMAND = PlayerCommand(
    "resign", ("resign",), "leave the game: your power goes to civil disorder as the house rules say, the GM is told",
    "resign", run)
