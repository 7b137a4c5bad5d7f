"""`end [GAME]`: the game ends where it stands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.end_game(call.session, call.services, call.game, by=call.by, now=call.now)


COMMAND = Command("end", ("end",), "end a game where it stands; the players get the final centres", (), run,
                  ("game", "end"), cli_from_spec=True)
