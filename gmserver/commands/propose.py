"""`propose [GAME] FORM`: the GM proposes an end of the game or a rule change, where the house rules
let the GM (003 [18] ¶1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command
from gmserver.commands.usage import PROPOSE

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import vote_gm  # noqa: PLC0415  (imported when it runs)

    return vote_gm.propose_by_gm(call.session, call.services, call.game, " ".join(call.values["words"]), by=call.by,
                                 now=call.now)


COMMAND = Command(
    "propose", ("propose",), "propose a draw or a concession, where the house rules let the GM (003 [18]): e.g. "
    "`propose NAME draw Austria England`",
    (Arg("words", "words", "draw [POWERS] | concede POWER | end game TERMS | rule change WORDS", "FORM"),), run,
    ("game", "propose"), usage_text=PROPOSE,
    description="The GM proposes an end of the game (or a rule change) for the players to vote on, where the house "
                "rules let the GM (003 [18]); the GM casts no vote. The forms, of the kinds the game's house rules "
                "offer: draw [POWERS] (all survivors if none named); concede POWER; end game TERMS; rule change "
                "WORDS.")
