"""`cd [GAME] POWER [on|off|search]`: a power in civil disorder, out of it, or while a new player
is sought (001 V(3)(ii))."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command, power

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    power_name, state = call.values["power"], call.values["state"]
    if state == "search":  # 001 V(3)(ii)
        return gm_controls.civil_disorder_search(call.session, call.services, call.game, power_name, by=call.by,
                                                 now=call.now)
    return gm_controls.civil_disorder(call.session, call.services, call.game, power_name, state == "on", by=call.by,
                                      now=call.now)


COMMAND = Command(
    "cd", ("cd",), "put a power in civil disorder (its units hold) or take it out; search: civil disorder while a "
    "new player is sought for the house rules' period (001 V(3)(ii)), permanent if nobody is found",
    (power(), Arg("state", "choice", "on (the default), off, or search while a new player is sought",
                  choices=("on", "off", "search"), default="on")), run, ("game", "cd"), cli_from_spec=True)
