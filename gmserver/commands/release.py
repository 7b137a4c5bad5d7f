"""`release [GAME] MESSAGE-ID`: a message held for the GM is accepted (filed and confirmed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command, UsageError

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done

HELD_NOTE = "(the number `gmserver inbox list --status held` shows)"


def message_id(command: Command, words: tuple[str, ...]) -> int:
    """The held message's number, the first word."""
    if not words or not words[0].isdigit():
        raise UsageError(f"expected: {command.usage} {HELD_NOTE}")
    return int(words[0])


def run(call: Call) -> Done:
    from gmserver.services.features import held  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    if len(call.values["words"]) != 1:
        raise COMMAND.expected()
    done = held.release_in(call.session, call.services, message_id(COMMAND, call.values["words"]), call.now,
                           by=call.by, game_name=call.game.name)
    return Done("release", f"message {done.inbound_id} released: filed as {done.power}'s orders for "
                           f"{done.phase} and confirmed to the sender")


# the command line names no game: `gmserver inbox release ID` (gmserver/cli/inbox.py)
COMMAND = Command("release", ("release",), "accept a message held for the GM (file and confirm it)",
                  (Arg("words", "words", "the held message's number"),), run, ("inbox", "release"),
                  usage_text="release [GAME] MESSAGE-ID")
