"""`deadline [GAME] ISO-TIME`: set, extend or shorten the current turn's deadline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.set_deadline(call.session, call.services, call.game, call.values["deadline"], by=call.by,
                                    now=call.now)


COMMAND = Command(
    "deadline", ("deadline",), "set, extend or shorten the current turn's deadline",
    (Arg("deadline", "moment", "e.g. 2026-12-01T18:00+00:00", "ISO-TIME"),), run, ("game", "deadline"),
    cli_from_spec=True,
    description="Set the current turn's deadline. It may not be earlier than the house rules' minimum turn length "
                "allows (unless the game was created with --short-turns-for-testing); the players are told, with a "
                "deadline.ics that moves the event of the last report in their calendars.")
