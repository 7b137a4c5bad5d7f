"""`set confirm brief|full`: a brief confirmation of an order set says the orders as read and the
deadline, nothing else; full (the default) says how every line was read."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply
from gmserver.commands.players.choice import set_choice
from gmserver.rules.player_settings import read_confirm_style

_SAID = {
    "brief": "Your confirmations in {game} now say your orders as read and the deadline, nothing else.",
    "full": "Your confirmations in {game} now say how every line of your orders was read.",
}


def run(call: PlayerCall) -> Reply:
    return set_choice(call, read_confirm_style, "confirm_style", _SAID, "confirm-set")


COMMAND = PlayerCommand(
    "confirm", ("set confirm",), "brief: confirmations say only your orders as read and the deadline; full: every "
    "line (the default)", "set confirm brief", run, usage_text="set confirm brief|full")
