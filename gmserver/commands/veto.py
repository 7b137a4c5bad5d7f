"""`veto [GAME] PROPOSAL`: the GM refuses to put a proposal to the vote (000 IX(5))."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import vote_gm  # noqa: PLC0415  (imported when it runs)

    return vote_gm.veto(call.session, call.services, call.game, call.values["proposal"], by=call.by, now=call.now)


PROPOSAL = Arg("proposal", "word", "the proposal's number, from the GM's notice", "PROPOSAL")
COMMAND = Command("veto", ("veto",), "refuse to put a proposal to the vote (000 IX(5)); its number is in the notice "
                  "the GM got when it was made", (PROPOSAL,), run, ("game", "veto"))
