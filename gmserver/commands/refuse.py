"""`refuse [GAME] MESSAGE-ID [REASON]`: a message held for the GM is refused; the sender is told."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command
from gmserver.commands.release import message_id

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import held  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    words = call.values["words"]
    done = held.refuse_in(call.session, call.services, message_id(COMMAND, words), call.now,
                          " ".join(words[1:]) or None, by=call.by, game_name=call.game.name)
    return Done("refuse", f"message {done.inbound_id} refused; the sender is told")


COMMAND = Command("refuse", ("refuse",), "refuse a message held for the GM (the sender is told)",
                  (Arg("words", "words", "the held message's number, then the reason", default=""),), run, ("inbox", "refuse"),
                  usage_text="refuse [GAME] MESSAGE-ID [REASON]")
