"""`gmserver game approve NAME ADDR` and `gmserver game refuse-player NAME ADDR`: the GM's word on
a confirmed join, where the announced game asks for approval (`--approval`). On the command line
only, as `announce` (the game has no GM secret before it starts)."""

from __future__ import annotations

from gmserver.commands.command import Command

APPROVE = Command("approve", ("approve",), "let a player who confirmed a join of an announced game into its queue",
                  cli=("game", "approve"), instead="gmserver game approve GAME ADDRESS")
# "decline" by mail: the classifier reads a mail word up to its first hyphen ("refuse" is the held mail's)
REFUSE = Command("refuse-player", ("decline",), "refuse a player's confirmed join of an announced game",
                 cli=("game", "refuse-player"), instead="gmserver game refuse-player GAME ADDRESS")
