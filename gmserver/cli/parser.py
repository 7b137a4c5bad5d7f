"""What every `gmserver` command's parser shares: the parser, a group's command, the error a user
can fix and JSON output. Apart from gmserver.cli.common (the configuration, the database and the
argument types) so that `--help`, a mistyped command and `orders read` load no configuration."""

from __future__ import annotations

import argparse
import json
from typing import Any, NoReturn, Protocol


class CliError(Exception):
    """A problem the user can fix; printed without a traceback."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a wrong argument said in one line: the whole usage of `game create` (a
    dozen lines) buried the one line that said what was wrong. Subcommands' parsers are of this
    class too (argparse makes them of their parent's)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} --help` lists what it takes)\n")


def sentence(text: str) -> str:
    """A one-line help as the first sentence of a `--help` (argparse shows a subcommand's help only
    in its parent's list)."""
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


class Subcommands(Protocol):
    """What `ArgumentParser.add_subparsers()` returns, as the groups use it."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def add_command(actions: Subcommands, name: str, *, help: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A command of a group, its `--help` opening with its description or else its help."""
    kwargs["description"] = kwargs.get("description") or sentence(help)
    return actions.add_parser(name, help=help, **kwargs)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))
