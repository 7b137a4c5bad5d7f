"""`pause [GAME]`: no adjudication and no reminders until the game is resumed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.pause(call.session, call.services, call.game, by=call.by, now=call.now)


COMMAND = Command("pause", ("pause",), "pause a game: no adjudication and no reminders until resumed", (), run,
                  ("game", "pause"), cli_from_spec=True)
