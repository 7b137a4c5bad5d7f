"""`resume [GAME]`: a paused game goes on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.resume(call.session, call.services, call.game, by=call.by, now=call.now)


COMMAND = Command("resume", ("resume",),
                  "resume a paused game (a deadline that passed meanwhile is set one full turn from now)", (), run,
                  ("game", "resume"), cli_from_spec=True)
