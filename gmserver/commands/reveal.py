"""`reveal [GAME]`: after an anonymous game is over, the GM tells the players who played whom."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.reveal(call.session, call.services, call.game, by=call.by, now=call.now)


COMMAND = Command(
    "reveal", ("reveal",), "after an anonymous game is over: tell its players who played each power", (), run,
    ("game", "reveal"), cli_from_spec=True,
    description="An anonymous game (`game create --anonymous`) never shows a player another's address. Once it "
                "is over (a solo, a vote, or `game end`), and only if you choose, this tells every player, and "
                "everyone who played a power before, who played each power.")
