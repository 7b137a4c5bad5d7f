"""`preview [GAME]`: what adjudicating the current phase would do, nothing stored, nothing sent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.game.actions import Done  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.turn import preview  # noqa: PLC0415

    shown = preview.preview_in(call.session, call.services, call.game, call.now)
    text = (f"preview of {shown.phase} (nothing stored, nothing sent; it would open {shown.next_phase}): "
            + "; ".join(shown.results))
    if shown.disputes:
        text += ". Convoys to rule on (house rules 000 VI): " + "; ".join(shown.disputes)
    return Done("preview", text)


# the command line prints the whole report (gmserver/cli/game.py)
COMMAND = Command("preview", ("preview",), "adjudicate the current phase without storing or sending anything", (),
                  run, ("game", "preview"),
                  description="Adjudicate the current phase with the orders on file now and print the report the "
                              "players would get; nothing is stored and nobody is mailed.")
