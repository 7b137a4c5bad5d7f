"""The `gmserver` command. Each subcommand is a thin call into the services.

The services, the database layer, the daemon and the mail adapters load SQLAlchemy and the
mail libraries (about a second together), the order reader builds its tables: they are imported
inside the commands that use them, so that `--help` and a mistyped command answer at once and
`orders read` does not load the database (nor the engine: the map facts it needs are cached on
disk, see `engine.engine_facts`). Everything else is imported here. benchmarks/bench_cli.py
measures what each command costs.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Sequence

from gmserver import __version__, cli_game, cli_gm, cli_mail, cli_press, cli_ruleset
from gmserver.cli_common import GAME, ArgumentParser, CliError, config_of, print_json, services_of, utcnow
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset

log = logging.getLogger("gmserver")

# The errors a user can act on, each printed as one line: "module:class". A command that never
# loaded a module cannot have raised its error, so main() catches only those of loaded modules and
# loads none itself (the daemon's module alone costs half a second).
USER_ERRORS = ("gmserver.cli_common:CliError", "gmserver.config:ConfigError", "gmserver.daemon:DaemonError",
               "gmserver.services.game.games:GameError", "gmserver.rules.ruleset:RulesetError")


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from gmserver.db.migrate import current_revision, upgrade  # noqa: PLC0415
    from gmserver.db.session import shown_url  # noqa: PLC0415

    config = config_of(args)
    upgrade(config.database_url)
    print(f"database {shown_url(config.database_url)} is at revision {current_revision(config.database_url)}")
    return 0


def cmd_poll(args: argparse.Namespace) -> int:
    from gmserver.daemon import imap_settings  # noqa: PLC0415
    from gmserver.mail.imap import ImapMailbox, MailboxError  # noqa: PLC0415
    from gmserver.services.inbox.runner import process_pending  # noqa: PLC0415
    from gmserver.services.inbox.polling import poll_once  # noqa: PLC0415

    if not args.once:
        raise CliError("use `gmserver poll --once` (the daemon, `gmserver run`, polls continuously)")
    config = config_of(args)
    services = services_of(config)
    if config.inbound_mode == "imap":
        try:
            with ImapMailbox(imap_settings(config)) as mailbox:
                report = poll_once(services, mailbox, utcnow)
        except MailboxError as error:
            raise CliError(str(error)) from None
        print(f"fetched {report.fetched} message(s), {report.new} new, {report.processed} processed")
    else:
        done = process_pending(services, utcnow())
        print(f"processed {len(done)} stored message(s) (inbound mode smtp: the listener receives mail)")
    return 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from gmserver.services.turn.turns import adjudicate  # noqa: PLC0415
    from gmserver.services.features.views import game_row  # noqa: PLC0415

    services = services_of(config_of(args))
    game = game_row(services.sessions, args.name)
    game_id, phase, status = game.id, game.phase, game.status
    if status != "active":
        raise CliError(f"{args.name} is {status}: nothing to adjudicate")
    if game.paused:
        raise CliError(f"{args.name} is paused: a paused game is never adjudicated (`gmserver game resume "
                       f"{args.name}` first)")
    done = adjudicate(services, game_id, utcnow(), expected_phase=phase, force=True, wait=True, by="cli")
    if done is None:
        raise CliError(f"{args.name} {phase} was adjudicated by another process just now")
    print(f"{done.game}: adjudicated {done.phase}; now {done.next_phase}, "
          f"deadline {done.deadline.isoformat() if done.deadline else 'none (game over)'}; "
          f"{done.reports} report(s) queued (send them with `gmserver outbox send --once`)")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from gmserver.daemon import Daemon  # noqa: PLC0415

    config = config_of(args)
    if not args.verbose:
        logging.getLogger().setLevel(config.log_level)
    services_of(config)  # fails early with a clear message when the database is not ready
    daemon = Daemon(config)
    _run_until_signal(daemon)
    return 0


def _run_until_signal(daemon) -> None:  # type: ignore[no-untyped-def]
    stop = lambda *_: daemon.request_stop()  # noqa: E731
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    daemon.start()
    log.info("gmserver %s running; Ctrl-C stops it", __version__)
    try:
        while not daemon.wait(1.0):
            pass
    finally:
        daemon.stop()


def cmd_web(args: argparse.Namespace) -> int:
    """The read-only web pages alone, without the mail side (`gmserver run` serves them too)."""
    from gmserver.web.auth import hash_password  # noqa: PLC0415
    from gmserver.web.server import pages_app, serve  # noqa: PLC0415

    if args.hash_password:
        password = sys.stdin.readline().rstrip("\n")
        if not password:
            raise CliError("give the GM's password on standard input, e.g. `read -s p; echo \"$p\" | gmserver web "
                           "--hash-password`")
        print(hash_password(password))
        return 0
    config = config_of(args)
    if not config.web.enabled:
        raise CliError('the web pages are off: set [web] listen = "127.0.0.1:8080" in the configuration')
    host, port = config.web.host_and_port
    app = pages_app(config, services_of(config))
    print(f"gmserver web pages at http://{host}:{port}/games/NAME ({config.web.base_url or 'no base_url'}); "
          "Ctrl-C stops them", flush=True)
    serve(app, host, port)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from gmserver.demo import run_demo  # noqa: PLC0415

    return run_demo(Path(args.dir), port=args.port, turn_seconds=args.turn_seconds, turns=args.turns,
                    web_port=args.web_port)


def cmd_orders_read(args: argparse.Namespace) -> int:
    from gmserver import engine  # noqa: PLC0415  (its map facts come from the cache: the engine stays unloaded)
    from gmserver.rules.reading import extract_order_text, read_orders, reading_to_json  # noqa: PLC0415

    try:
        position = (Position.from_json(json.loads(Path(args.position).read_text(encoding="utf-8")))
                    if args.position else engine.opening_position())
    except (OSError, json.JSONDecodeError, ValueError) as error:
        raise CliError(f"--position {args.position}: {error}") from None
    previous: list[Order] = []
    if args.previous:
        try:
            data = json.loads(Path(args.previous).read_text(encoding="utf-8"))
            lines = data.get("orders", data) if isinstance(data, dict) else data
            # the reader takes Order values, read for the position's phase ("A PAR D" is a removal in Winter)
            previous = [Order.parse(str(line), position.phase_type) for line in lines]
        except (OSError, json.JSONDecodeError, TypeError, ValueError) as error:
            raise CliError(f"--previous {args.previous}: {error}") from None
    geography = engine.map_info()
    power = geography.power_words.get(args.power.strip().upper())
    if power is None:
        raise CliError(f"--power {args.power!r}: not a power of the {geography.name} map "
                       f"({', '.join(p.title() for p in geography.powers)})")
    message = sys.stdin.buffer.read()
    reading = read_orders(extract_order_text(message), position=position, power=power,
                          ruleset=load_ruleset(args.ruleset), geography=geography, previous=previous)
    print_json(reading_to_json(reading))
    return 0


# ---------------------------------------------------------------------------------------------
# argument parsing


def build_parser() -> argparse.ArgumentParser:
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

    db = commands.add_parser("db", help="database schema").add_subparsers(dest="db_command", metavar="ACTION",
                                                                          required=True)
    db.add_parser("upgrade", help="apply every migration (SQLite or PostgreSQL)").set_defaults(func=cmd_db_upgrade)

    cli_game.add_commands(commands)

    poll = commands.add_parser("poll", help="fetch and process waiting inbound mail")
    poll.add_argument("--once", action="store_true", help="process everything waiting, then exit")
    poll.set_defaults(func=cmd_poll)

    adjudicate = commands.add_parser("adjudicate", help="adjudicate a game's current phase now")
    adjudicate.add_argument("name", **GAME)
    adjudicate.set_defaults(func=cmd_adjudicate)

    cli_mail.add_outbox_commands(commands)
    cli_mail.add_inbox_commands(commands)
    cli_press.add_press_commands(commands)
    cli_gm.add_commands(commands)  # joins the game and inbox groups

    commands.add_parser("run", help="run the daemon (inbound mail, deadlines, outbox)").set_defaults(func=cmd_run)
    web = commands.add_parser("web", help="serve the read-only web pages without the mail side",
                              description="Serves the pages of [web] listen until Ctrl-C (`gmserver run` serves "
                                          "them too). --hash-password reads the GM's password on standard "
                                          "input and prints the value of [web] gm_password_hash.")
    web.add_argument("--hash-password", action="store_true", help="print [web] gm_password_hash for a password")
    web.set_defaults(func=cmd_web)

    demo = commands.add_parser("demo", help="a self-contained demo game played by seven bots",
                               description="Runs the daemon on SQLite with the SMTP listener and a Maildir "
                                           "outbox; seven bots mail orders; turns are adjudicated every few "
                                           "seconds. Ctrl-C stops it.")
    demo.add_argument("--dir", default="demo-data", metavar="DIR", help="where the demo keeps its files (default: demo-data)")
    demo.add_argument("--port", type=int, default=2525, metavar="PORT", help="SMTP listener port (default: 2525)")
    demo.add_argument("--web-port", type=int, default=8080, metavar="PORT",
                      help="the web pages' port on 127.0.0.1 (default: 8080)")
    demo.add_argument("--turn-seconds", type=float, default=15.0, metavar="SECONDS",
                      help="length of a movement turn, in seconds (default: 15)")
    demo.add_argument("--turns", type=int, default=0, metavar="N", help="stop after this many adjudications (default: never)")
    demo.set_defaults(func=cmd_demo)

    cli_ruleset.add_commands(commands)

    orders = commands.add_parser("orders", help="order reading tools").add_subparsers(
        dest="orders_command", metavar="ACTION", required=True)
    read = orders.add_parser("read", help="read an order message (stdin) as the house rules say; print JSON",
                             description="Reads one order message from standard input (a whole email, headers "
                                         "and all, or just its text) for POWER, as the house rules of --ruleset "
                                         "read it, and prints the reading as JSON: each line's status and rule, "
                                         "and the order set it gives. Nothing is stored.",
                             epilog="e.g. printf 'A Par - Bur\\nF Bre - Eng\\n' | gmserver orders read --power France")
    read.add_argument("--ruleset", default="standard", help="profile name or TOML file")
    read.add_argument("--position", metavar="POSITION.json",
                      help="DATC-format position (default: the standard opening, Spring 1901)")
    read.add_argument("--power", required=True,
                      help="the power the message gives orders for (the sender's), e.g. France")
    read.add_argument("--previous", metavar="ORDERS.json", help="the order set already on file (JSON list)")
    read.set_defaults(func=cmd_orders_read)
    _describe_every_command(parser)
    return parser


def _describe_every_command(parser: argparse.ArgumentParser) -> None:
    """A command given no description of its own says its one-line help at the top of its
    `--help` (argparse shows a subcommand's help only in its parent's list)."""
    for action in parser._actions:  # noqa: SLF001  argparse keeps subcommands nowhere public
        if not isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            continue
        helps = {choice.dest: choice.help for choice in action._choices_actions}  # noqa: SLF001
        for name, sub in action.choices.items():
            if sub.description is None and helps.get(name):
                text = str(helps[name])
                sub.description = text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
            _describe_every_command(sub)


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """Built once per process (some 30 ms, most of it argparse's gettext look-ups): a process that
    runs many commands, as the tests do, parses each with the same parser, which keeps no state."""
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
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
