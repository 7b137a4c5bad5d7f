"""`set press each|digest`: each (the default) mails every press item as it comes; digest keeps
them and mails the day's press in one message (services/features/press_digest.py). Only in a
game with press."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply
from gmserver.commands.players.choice import set_choice
from gmserver.rules.player_settings import read_press_delivery
from gmserver.rules.ruleset import Ruleset

_SAID = {
    "digest": "Press for you in {game} is now kept and mailed once a day, all of it in one message.",
    "each": "Press for you in {game} is now mailed as it comes, one message an item.",
}


def run(call: PlayerCall) -> Reply:
    return set_choice(call, read_press_delivery, "press_delivery", _SAID, "press-set")


def permits(ruleset: Ruleset) -> str | None:
    return None if ruleset.press_kinds else "this game has no press."


COMMAND = PlayerCommand(
    "press", ("set press",), "digest: press mailed once a day in one message; each: as it comes (the default)",
    "set press digest", run, permits=permits, usage_text="set press each|digest")
