"""The `gmserver` command: a static table of its command groups (GROUPS), each built by its own
module of this package (one per group: db, game, inbox, outbox, press, ruleset, orders, and the
daemon's commands); the GM's commands come from the registry (gmserver.commands).

Only the chosen group's module is imported (and through it the registry), and the services, the
database layer, the daemon and the mail adapters (SQLAlchemy and the mail libraries, about a
second together) only inside the commands that use them: `--help` and a mistyped command answer
at once, and `orders read` does not load the database. benchmarks/bench_cli.py measures what
each command costs.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from gmserver import __version__
from gmserver.cli.parser import ArgumentParser, sentence

# The errors a user can act on, each printed as one line: "module:class". A command that never
# loaded a module cannot have raised its error, so main() catches only those of loaded modules and
# loads none itself (the daemon's module alone costs half a second).
USER_ERRORS = ("gmserver.cli.parser:CliError", "gmserver.config:ConfigError", "gmserver.daemon:DaemonError",
               "gmserver.services.game.shown:GameError", "gmserver.rules.ruleset:RulesetError",
               "gmserver.commands.command:UsageError", "gmserver.db.plain:DatabaseUnreachable")


@dataclass(frozen=True)
class Group:
    """A command of `gmserver` (a group of actions, or one command): its help, and "module:function"
    that adds its arguments or actions to its parser."""

    name: str
    help: str
    build: str
    description: str | None = None


GROUPS: tuple[Group, ...] = (
    Group("db", "database schema", "gmserver.cli.db:build"),
    Group("game", "create and inspect games", "gmserver.cli.game:build"),
    Group("poll", "fetch and process waiting inbound mail", "gmserver.cli.daemon:build_poll"),
    Group("adjudicate", "adjudicate a game's current phase now", "gmserver.cli.daemon:build_adjudicate"),
    Group("outbox", "outgoing mail", "gmserver.cli.outbox:build"),
    Group("inbox", "stored inbound mail, parked failures", "gmserver.cli.inbox:build"),
    Group("press", "a game's press: list, approve, drop, edit", "gmserver.cli.press:build"),
    Group("run", "run the daemon (inbound mail, deadlines, outbox)", "gmserver.cli.daemon:build_run"),
    Group("web", "serve the read-only web pages without the mail side", "gmserver.cli.web:build",
          "Serves the pages of [web] listen until Ctrl-C (`gmserver run` serves them too). --hash-password reads "
          "the GM's password on standard input and prints the value of [web] gm_password_hash."),
    Group("demo", "a self-contained demo game played by seven bots", "gmserver.cli.daemon:build_demo",
          "Runs the daemon on SQLite with the SMTP listener and a Maildir outbox; seven bots mail orders; turns "
          "are adjudicated every few seconds. Ctrl-C stops it."),
    Group("ruleset", "house-rule profiles: their options and whether gmserver applies them",
          "gmserver.cli.ruleset:build",
          "House-rule profiles (config/rulesets/*.toml) and, for each option, whether gmserver applies it, "
          "applies it in part, or not yet, and what it does instead."),
    Group("orders", "order reading tools", "gmserver.cli.orders:build"),
    Group("player", "a player's record across games", "gmserver.cli.player:build"),
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command tree; `only`: just that group's actions built (the others listed)."""
    parser = ArgumentParser(
        prog="gmserver",
        description="Game Master server for play-by-email Diplomacy.",
        epilog="Configuration: --config FILE or $GMSERVER_CONFIG (see config/gmserver.example.toml); "
               "without one, SQLite in ./gmserver.db, the SMTP listener on 127.0.0.1:2525 and a Maildir outbox.",
    )
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file (default: $GMSERVER_CONFIG)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    parser.add_argument("--version", action="version", version=f"gmserver {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in GROUPS:
        sub = commands.add_parser(group.name, help=group.help, description=group.description or sentence(group.help))
        if only is None or only == group.name:
            module, _, function = group.build.partition(":")
            getattr(importlib.import_module(module), function)(sub)
    return parser


def chosen_group(argv: Sequence[str]) -> str | None:
    """The command group named on the command line (the first word that is no option and not the
    value of --config), None if none is."""
    words = iter(argv)
    for word in words:
        if word == "--":
            return next(words, None)
        if not word.startswith("-"):
            return word
        if len(word) > 2 and "--config".startswith(word) and "=" not in word:  # --config FILE, or --conf FILE
            next(words, None)
    return None


@functools.cache
def _parser(group: str) -> argparse.ArgumentParser:
    """Built once per process and group (argparse's gettext look-ups cost most of it): a process
    that runs many commands, as the tests do, parses each with the same parser, which keeps no
    state. "": no group built (`--help`, or a word that names none: argparse says so)."""
    return build_parser(group)


_NAMES = frozenset(group.name for group in GROUPS)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    group = chosen_group(argv)
    args = _parser(group if group in _NAMES else "").parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # one line per plugin, every run
    try:
        return args.func(args)
    except BrokenPipeError:
        # the reader went away (`gmserver ruleset list | head`): no traceback, and none at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # what a shell reports for SIGPIPE
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if isinstance(error, _loaded(USER_ERRORS)):
            print(f"gmserver: error: {error}", file=sys.stderr)
            return 2
        database = sys.modules.get("gmserver.db.session")
        if database is not None and isinstance(error, database.DATABASE_UNREACHABLE):
            print(f"gmserver: error: cannot use the database: {database.unreachable_reason(error)}", file=sys.stderr)
            return 2
        raise


def _loaded(names: Sequence[str]) -> tuple[type[Exception], ...]:
    """The classes named "module:class" whose modules are loaded."""
    found = []
    for name in names:
        module, _, attribute = name.partition(":")
        if module in sys.modules:
            found.append(getattr(sys.modules[module], attribute))
    return tuple(found)


if __name__ == "__main__":
    sys.exit(main())
