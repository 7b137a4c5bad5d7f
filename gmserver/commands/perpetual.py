"""`perpetual [GAME] POWER [on|off]`: 000 II(4), the GM keeps a power's order set from turn to turn,
or stops."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command, power

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.perpetual_mark(call.session, call.services, call.game, call.values["power"],
                                      call.values["state"] == "on", by=call.by, now=call.now)


# the command line says `--off` (gmserver/cli/game.py)
COMMAND = Command(
    "perpetual", ("perpetual",), "keep a power's order set from turn to turn (000 II(4)): at each movement deadline "
    "where it sends nothing, the orders that still fit are used",
    (power(), Arg("state", "choice", "on (the default) or off", choices=("on", "off"), default="on")), run,
    ("game", "perpetual"))
