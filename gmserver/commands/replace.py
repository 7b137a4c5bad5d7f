"""`replace [GAME] POWER ADDRESS[,FALLBACK]`: a new player takes over a power."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import ADDRESSES, Call, Command, power

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.replace(call.session, call.services, call.game, call.values["power"],
                               call.values["addresses"], by=call.by, now=call.now)


COMMAND = Command("replace", ("replace",), "a new player takes over a power (they get the start mail)",
                  (power(), ADDRESSES), run, ("game", "replace"), cli_from_spec=True)
