"""`help`: the commands this player may use in this game under its profile, each with one example
line, the subject line for orders and how to send a command. Built from the registry
(`call.permitted`), so that a command registered is a command listed. Changes nothing."""

from __future__ import annotations

from gmserver.commands.player_command import PlayerCall, PlayerCommand, Reply


def run(call: PlayerCall) -> Reply:
    from gmserver.reports.players import CommandLine, build_help  # noqa: PLC0415  (imported when it runs)
    from gmserver.rules.intake import expected_subject  # noqa: PLC0415

    answer = build_help(game_name=call.game.name, power=call.power, subject=expected_subject(call.view, call.power),
                        commands=[CommandLine(command.example, command.summary) for command in call.permitted])
    return Reply("help-sent", answer)


COMMAND = PlayerCommand(
    "help", ("help",), "this list of the commands you may use", "help", run, read_only=True, in_subject=True)
