"""The GM's commands of the registry (gmserver.commands) as commands of a group: their parsers, from
their argument specs where the command line is their mail words, and running them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gmserver.cli.common import GAME, config_of, hours, moment, services_of, utcnow
from gmserver.cli.parser import Subcommands, add_command
from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def add_registry_command(actions: Subcommands, command: Command, **kwargs: Any) -> argparse.ArgumentParser:
    """The parser of a GM command of the registry: its name, help and description (the game's name
    first: GAME)."""
    parser = add_command(actions, command.cli[-1], help=command.summary, description=command.description, **kwargs)
    if command.cli[0] == "game":
        parser.add_argument("name", **GAME)
    return parser


# how the command line reads each kind of argument (gmserver.commands.command.Kind)
_TYPES: dict[str, Any] = {"moment": moment, "hours": hours}


def add_arguments(parser: argparse.ArgumentParser, arguments: tuple[Arg, ...]) -> None:
    """A GM command's argument specs as argparse arguments."""
    for arg in arguments:
        options: dict[str, Any] = {"help": arg.help}
        if arg.choices:
            options["choices"] = list(arg.choices)
        elif arg.metavar:
            options["metavar"] = arg.metavar
        if arg.kind in _TYPES:
            options["type"] = _TYPES[arg.kind]
        if arg.kind == "words":
            options["nargs"] = "+" if arg.default is None else "*"
        elif arg.default is not None:
            options.update(nargs="?", default=arg.default)
        parser.add_argument(arg.dest, **options)


def add_spec_command(actions: Subcommands, command: Command) -> argparse.ArgumentParser:
    """A GM command whose command line is its mail words: the arguments from its specs, and it runs
    the command's `run` and prints what was done."""
    parser = add_registry_command(actions, command)
    add_arguments(parser, command.arguments)
    parser.set_defaults(func=lambda args: print_done(run_command(args, command)))
    return parser


def run_command(args: argparse.Namespace, command: Command, values: dict[str, Any] | None = None) -> Done:
    """Carry out a registry command on the game `args.name` in its own transaction, as "cli"; the
    values default to the arguments of its specs."""
    from gmserver.services.commands.gm_controls import act  # noqa: PLC0415  (cli/__init__.py: imported late)

    assert command.run is not None
    run = command.run
    if values is None:
        values = {arg.dest: getattr(args, arg.dest) for arg in command.arguments}
    return act(services_of(config_of(args)), args.name,
               lambda session, services, game, *, by, now: run(Call(session, services, game, values, by, now)),
               now=utcnow())


def print_done(done: Done) -> int:
    from gmserver.reports.words import plural  # noqa: PLC0415

    told = f"; {plural(done.announced, 'player')} told (mail queued)" if done.announced else ""
    print(f"{done.text}{told}")
    return 0
