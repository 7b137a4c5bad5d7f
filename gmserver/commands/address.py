"""`address [GAME] POWER ADDRESS[,FALLBACK]`: a player's new address (and fallback)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import ADDRESSES, Call, Command, power

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.change_address(call.session, call.services, call.game, call.values["power"],
                                      call.values["addresses"], by=call.by, now=call.now)


COMMAND = Command("address", ("address",), "change a player's address (and fallback)", (power(), ADDRESSES), run,
                  ("game", "address"), cli_from_spec=True)
