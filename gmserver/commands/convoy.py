"""`convoy [GAME] A LON - BEL fails|stands`: the GM's ruling on a convoyed army's move (000 VI(4))."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done

RULINGS = ("fails", "stands")


def run(call: Call) -> Done:
    from gmserver.services.features import convoys  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    words = call.values["words"]
    if len(words) < 2 or words[-1].lower() not in RULINGS:
        raise COMMAND.expected()
    done = convoys.rule_convoy_in(call.session, call.services, call.game, " ".join(words[:-1]), words[-1].lower(),
                                  by=call.by, now=call.now)
    return Done("convoy", f"{done.move} {done.ruling} in {done.phase} (house rules 000 VI(4)); applied when it is "
                          "adjudicated")


COMMAND = Command(
    "convoy", ("convoy",), "rule on a convoy under house rules 000 VI(4) (mhr) or the 1971 rulebook's any-route rule",
    (Arg("words", "words", "the army's move, then fails or stands"),), run, ("game", "convoy"),
    usage_text="convoy [GAME] A LON - BEL fails|stands",
    description="Rule on a convoyed army's move of the current phase: fails (the convoy was disrupted: under house "
                "rules 000 VI(4) a fleet of the army's own power on a possible route, or of the route the order "
                "named, was dislodged; under the 1971 rulebook as the DATC reads it, 4.A.1, any fleet on a possible "
                "route was) or stands (the engine's result). Applied at adjudication.")
