"""`vote [GAME] PROPOSAL yes|no|abstain`: the GM's ballot where the house rules make the GM an
elector (000 IX(3): a rule change needs the GM's agreement)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command
from gmserver.commands.usage import VOTE

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import vote_gm  # noqa: PLC0415  (imported when it runs)

    if len(call.values["words"]) not in (1, 2):
        raise COMMAND.expected()
    return vote_gm.vote_by_gm(call.session, call.services, call.game, " ".join(call.values["words"]), by=call.by,
                              now=call.now)


# by mail the choice may be left out (yes); the command line names it (gmserver/cli/game.py)
COMMAND = Command("vote", ("vote",), "the GM's vote on a proposal where the house rules make the GM an elector "
                  "(000 IX(3): a rule change needs the GM's agreement)",
                  (Arg("words", "words", "the proposal's number, then yes, no or abstain"),), run, ("game", "vote"),
                  usage_text=VOTE)
