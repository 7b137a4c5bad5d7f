"""`proxy [GAME] POWER HOLDER [turn|N turns] [PROVINCES]`, `proxy [GAME] POWER approve|cancel`: 000
II(3) ("The GM has final ruling on allowing Proxy"), 003 [19]."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.rules.proxies import read_proxy_words  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.commands import gm_controls  # noqa: PLC0415

    args, session, services, game = call.values["words"], call.session, call.services, call.game
    if len(args) == 2 and args[1].lower() in ("approve", "cancel"):
        action = gm_controls.proxy_approve if args[1].lower() == "approve" else gm_controls.proxy_cancel
        return action(session, services, game, args[0], by=call.by, now=call.now)
    if len(args) < 2:
        raise COMMAND.expected()
    read = read_proxy_words(args[2:])  # 003 [19]: "turn" or a number of turns, some units only
    return gm_controls.proxy_give(session, services, game, args[0], args[1], read.for_turn, list(read.units),
                                  read.turns, by=call.by, now=call.now)


# the command line says --turn, --turns, --units, --approve, --cancel (gmserver/cli/game.py)
COMMAND = Command(
    "proxy", ("proxy",), "let another player (or address) send a power's orders, for this turn (--turn) or until "
    "cancelled; approve a player's request (000 II(3)) or cancel a proxy",
    (Arg("words", "words", "POWER HOLDER-POWER|ADDRESS [turn|N turns] [PROVINCES], or POWER approve|cancel"),),
    run, ("game", "proxy"),
    usage_text="proxy [GAME] POWER HOLDER-POWER|ADDRESS [turn|N turns] [PROVINCES] | proxy [GAME] POWER approve|cancel")
