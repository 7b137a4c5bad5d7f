"""`extend [GAME] HOURS` (or `delay`): the current turn's deadline, so many hours later."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.games import GameError  # noqa: PLC0415

    delta = call.values["hours"]
    if call.game.deadline is None or delta <= timedelta(0):
        raise GameError("extend needs a positive number of hours and a game with a deadline")
    return gm_controls.set_deadline(call.session, call.services, call.game, call.game.deadline + delta, by=call.by,
                                    now=call.now)


# by mail only: `gmserver game deadline` sets the time itself
COMMAND = Command("delay", ("extend", "delay"), "move the current turn's deadline so many hours later",
                  (Arg("hours", "hours", "how many hours later", "HOURS"),), run)
