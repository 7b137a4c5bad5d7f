"""`repair [GAME] POWER [UNIT [to LOCATION]] [confirm]`: 000 VIII(2), VIII(3), a surplus unit removed
or moved; without "confirm" only the proposal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import repairs  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    args = call.values["words"]
    confirm = bool(args) and args[-1].lower() == "confirm"
    words = args[:-1] if confirm else args
    if len(words) not in (1, 3, 5) or (len(words) == 5 and words[3].lower() != "to"):
        raise COMMAND.expected()
    unit = " ".join(words[1:3]) or None
    done = repairs.repair_unit_in(call.session, call.services, call.game, words[0], unit,
                                  words[4] if len(words) == 5 else None, confirm=confirm, by=call.by, now=call.now)
    if not done.done:
        return Done("repair", f"proposed, not done: {done.repair.describe()}. To do it, add \"confirm\"")
    return Done("repair", f"{done.repair.describe()}; every player told", done.notices)


# the command line has --to and --confirm (gmserver/cli/game.py)
COMMAND = Command(
    "repair", ("repair",), "remove or move a surplus unit (house rules 000 VIII(2), VIII(3); mhr)",
    (Arg("words", "words", "POWER [UNIT [to LOCATION]] [confirm]"),), run, ("game", "repair"),
    usage_text="repair [GAME] POWER [UNIT [to LOCATION]] [confirm]",
    description="Repair a unit a power should not have, on the current phase's board: remove the named UNIT (a GM "
                "error), move it --to where it should be if that is free (000 VIII(3)), or with no UNIT remove the "
                "one the game's civil-disorder removal rule picks (too few disbands, 000 VIII(2)). Shows the "
                "proposal; --confirm does it and tells every player.")
