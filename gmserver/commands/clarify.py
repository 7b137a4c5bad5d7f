"""`clarify [GAME] POWER on|off`: 000 III(1) (a), whether the GM asks a player about their sets with
lines that cannot be used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command, power

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.clarify(call.session, call.services, call.game, call.values["power"],
                               call.values["state"] == "on", by=call.by, now=call.now)


COMMAND = Command(
    "clarify", ("clarify",), "whether the GM asks a player about their sets with lines that cannot be used (on, the "
    "start) or sends a receipt only (off), house rules 000 III(1)(a); `game show` says how often each player's sets "
    "had such lines",
    (power(), Arg("state", "choice", "on: the player is asked about such lines; off: a receipt only",
                  choices=("on", "off"))), run, ("game", "clarify"), cli_from_spec=True)
