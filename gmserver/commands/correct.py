"""`orders [GAME] POWER ORDER[; ORDER...]` (or `correct`): an order set filed for a power, as the
GM's (a correction)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command, power

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import corrections  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    # one line of mail holds the whole set: orders are separated by ";" (read one a line)
    text = "\n".join(part.strip() for part in " ".join(call.values["orders"]).split(";") if part.strip())
    done = corrections.correct_orders_in(call.session, call.services, call.game, call.values["power"], text,
                                         by=call.by, now=call.now)
    return Done("orders", f"{done.power}'s set v{done.version} for {done.phase} filed as the GM's: "
                          f"{', '.join(done.on_file) or 'nothing'} on file; {done.power.title()} told", 1)


# the command line reads the orders from --set or --file (gmserver/cli/game.py)
COMMAND = Command("correct", ("orders", "correct"), "file an order set for a power, as the GM (a correction)",
                  (power(), Arg("orders", "words", "the orders, separated by ;")), run, ("game", "orders"),
                  usage_text="orders [GAME] POWER ORDER[; ORDER...]",
                  description="File a new order set for POWER in the current phase, read as a player's set is read "
                              "and marked as the GM's; the player is told by mail.")
