"""What SET CONFIRM and SET PRESS share: one word read from a closed set of choices, stored on the
player's row, and answered with what now holds."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gmserver.commands.player_command import PlayerCall, PlayerUsageError, Reply


def set_choice(call: PlayerCall, read: Callable[[str], str], field: str, said: Mapping[str, str],
               outcome: str) -> Reply:
    """Read the choice from the words after the command (`read` raises ValueError with what was
    wrong), set the player's `field` to it, and answer `said[choice]` ("{game}" the game's name)."""
    from gmserver.reports.players import build_setting_changed  # noqa: PLC0415  (imported when it runs)

    try:
        choice = read(call.argument)
    except ValueError as problem:
        raise PlayerUsageError(str(problem)) from None
    setattr(call.player, field, choice)
    return Reply(outcome, build_setting_changed(said=said[choice].format(game=call.game.name)))
