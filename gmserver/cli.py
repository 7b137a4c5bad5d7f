"""The `gmserver` command. Each subcommand is a thin call into the services.

The services, the database layer, the daemon and the mail adapters load SQLAlchemy and the
mail libraries (about a second together), the order reader builds its tables: they are imported
inside the commands that use them, so that `--help` and a mistyped command answer at once and
`orders read` does not load the database. Everything else is imported here.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import signal
import sys
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Sequence

from gmserver import __version__, cli_ruleset, engine
from gmserver.config import Config, ConfigError, config_path_from, load_config
from gmserver.rules.mailkind import KINDS
from gmserver.rules.position import Position
from gmserver.rules.ruleset import RulesetError, load_ruleset

log = logging.getLogger("gmserver")


class CliError(Exception):
    """A problem the user can fix; printed without a traceback."""


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


# ---------------------------------------------------------------------------------------------
# plumbing


def _config(args: argparse.Namespace) -> Config:
    return load_config(config_path_from(args.config))


def _services(config: Config):
    from gmserver.daemon import build_services  # noqa: PLC0415
    from gmserver.db.migrate import current_revision, head_revision  # noqa: PLC0415
    from gmserver.db.session import shown_url  # noqa: PLC0415

    current = current_revision(config.database_url)
    if current != head_revision():
        raise CliError(
            f"the database at {shown_url(config.database_url)} is "
            + ("not initialised" if current is None else f"at revision {current}, not the latest")
            + ": run `gmserver db upgrade` first"
        )
    return build_services(config)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))


def _hours(value: str) -> timedelta:
    try:
        hours = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of hours") from None
    if hours < 0:
        raise argparse.ArgumentTypeError("a duration cannot be negative")
    return timedelta(hours=hours)


def _datetime(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an ISO 8601 date and time") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{value!r} needs a time zone, e.g. {value}+00:00")
    return moment.astimezone(timezone.utc)


# ---------------------------------------------------------------------------------------------
# commands


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from gmserver.db.migrate import current_revision, upgrade  # noqa: PLC0415
    from gmserver.db.session import shown_url  # noqa: PLC0415

    config = _config(args)
    upgrade(config.database_url)
    print(f"database {shown_url(config.database_url)} is at revision {current_revision(config.database_url)}")
    return 0


def _players_from_file(path: Path, abbreviations: dict[str, dict[str, str]]) -> list[str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CliError(f"--players {path}: {error}") from None
    table = data.get("players", data)
    if not isinstance(table, dict):
        raise CliError(f"--players {path}: expected a [players] table of POWER = \"address\" lines")
    specs = []
    for power, value in table.items():
        if isinstance(value, str):
            specs.append(f"{power}={value}")
        elif isinstance(value, dict) and isinstance(value.get("address"), str):
            fallback = value.get("fallback")
            specs.append(f"{power}={value['address']}" + (f",{fallback}" if fallback else ""))
            if value.get("abbreviations"):
                if not isinstance(value["abbreviations"], dict):
                    raise CliError(f"--players {path}: {power}.abbreviations must be a table of TOKEN = \"place\"")
                abbreviations[power.upper()] = {str(k): str(v) for k, v in value["abbreviations"].items()}
        else:
            raise CliError(f"--players {path}: {power} must be an address or {{address=..., fallback=...}}")
    return specs


def cmd_game_create(args: argparse.Namespace) -> int:
    from gmserver.services.games import GameSpec, open_game, parse_player  # noqa: PLC0415

    config = _config(args)
    player_texts = list(args.player or [])
    abbreviations: dict[str, dict[str, str]] = {}
    if args.players:
        player_texts += _players_from_file(Path(args.players), abbreviations)
    if not player_texts:
        raise CliError("give the players with --player POWER=ADDRESS[,FALLBACK] (repeat) or --players FILE.toml")
    position = None
    if args.position:
        try:
            position = Position.from_json(json.loads(Path(args.position).read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError, ValueError) as error:
            raise CliError(f"--position {args.position}: {error}") from None
    spec = GameSpec(
        name=args.name, ruleset=load_ruleset(args.ruleset),
        players=[dataclasses.replace(p, abbreviations=abbreviations.get(p.power, {}))
                 for p in map(parse_player, player_texts)],
        position=position, first_deadline=args.deadline, movement=args.movement_hours, retreat=args.retreat_hours,
        adjustment=args.adjustment_hours, reminder=args.reminder_hours, timezone=args.timezone,
        sender_check=args.sender_check,
    )
    _, summary = open_game(_services(config).sessions, spec, utcnow(), config.gm_address)
    print(f"created game {summary['name']} ({summary['ruleset']}) at {summary['phase']}, "
          f"deadline {summary['deadline']}, {len(summary['players'])} players")
    if warning := cli_ruleset.not_in_force_text(spec.ruleset, args.ruleset):  # so that no GM is misled
        print(warning)
    if summary["sender_check"] == "verified":
        print("senders are verified: each player's orders must prove their sender. Every mail the GM sends a "
              "player has Reply-To set to the player's own reply address (a plain reply proves it); tell "
              "players that address if they write new messages:")
        for power, player in summary["players"].items():
            print(f"  {power:<8} {player['address']:<30} {player.get('reply_address', '-')}")
        if not config.trusted_authserv_ids:
            print("note: no [inbound] trusted_authserv_ids is configured, so the receiving server's "
                  "Authentication-Results headers are not believed; proof comes from gmserver's own DKIM check, "
                  "the player's reply address or their 'Password:' line")
    else:
        print("senders are not verified (--sender-check from): anyone who writes a player's address in From "
              "can give that power's orders")
    return 0


def cmd_game_list(args: argparse.Namespace) -> int:
    from gmserver.services.games import list_games  # noqa: PLC0415

    games = list_games(_services(_config(args)).sessions)
    if args.json:
        _print_json(games)
    elif not games:
        print("no games yet: create one with `gmserver game create`")
    else:
        for g in games:
            print(f"{g['name']:<24} {g['ruleset']:<12} {g['status']:<9} {g['phase']:<8} "
                  f"deadline {g['deadline'] or '-'}  ({g['players']} players)")
    return 0


def cmd_game_show(args: argparse.Namespace) -> int:
    from gmserver.services.games import show_game  # noqa: PLC0415

    config = _config(args)
    summary = show_game(_services(config).sessions, args.name, config.gm_address)
    if args.json:
        _print_json(summary)
        return 0
    print(f"{summary['name']}: ruleset {summary['ruleset']}, {summary['status']}, phase {summary['phase']}, "
          f"deadline {summary['deadline'] or '-'} ({summary['timezone']}), senders "
          + ("verified" if summary["sender_check"] == "verified" else "not verified (From alone)"))
    for power, player in summary["players"].items():
        units = ", ".join(summary["units"].get(power, [])) or "no units"
        centres = len(summary["centers"].get(power, []))
        on_file = summary["orders"].get(power)
        status = f"orders v{on_file['version']} on file" if on_file else "no orders yet"
        print(f"  {power:<8} {player['address']:<30} {centres:>2} centres; {units}; {status}")
    if summary["rules_not_in_force"]:
        print(f"not in force: {', '.join(summary['rules_not_in_force'])} (see `gmserver ruleset show`)")
    # what a player sends to (or replies to) so that the message proves its sender
    if any(player.get("reply_address") for player in summary["players"].values()):
        print("reply addresses (tell each player only their own):")
        for power, player in summary["players"].items():
            print(f"  {power:<8} {player.get('reply_address') or '-'}")
    return 0


def cmd_game_abbreviations(args: argparse.Namespace) -> int:
    from gmserver.services.games import player_abbreviations  # noqa: PLC0415

    services = _services(_config(args))
    entries: dict[str, str] = {}
    for text in args.entries:
        token, sep, place = text.partition("=")
        if not sep:
            raise CliError(f"{text!r}: expected TOKEN=PLACE, e.g. Mar=Marseilles")
        entries[token] = place
    listed = player_abbreviations(services.sessions, args.name, args.power, add=entries, clear=args.clear,
                                  geography=services.geography)
    for token, code in sorted(listed.entries.items()):
        print(f"{token} = {code}")
    if not listed.entries:
        print(f"no abbreviations on file for {args.power.upper()}")
    if not listed.applied:
        print(f"note: the ruleset of {args.name} does not use players' own lists "
              "(player_abbreviation_lists, 004 I(1)); they are kept but not applied", file=sys.stderr)
    return 0


def cmd_poll(args: argparse.Namespace) -> int:
    from gmserver.daemon import imap_settings  # noqa: PLC0415
    from gmserver.mail.imap import ImapMailbox, MailboxError  # noqa: PLC0415
    from gmserver.services.intake import process_pending  # noqa: PLC0415
    from gmserver.services.polling import poll_once  # noqa: PLC0415

    if not args.once:
        raise CliError("use `gmserver poll --once` (the daemon, `gmserver run`, polls continuously)")
    config = _config(args)
    services = _services(config)
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
    from gmserver.services.turns import adjudicate  # noqa: PLC0415
    from gmserver.services.views import game_row  # noqa: PLC0415

    services = _services(_config(args))
    game = game_row(services.sessions, args.name)
    game_id, phase, status = game.id, game.phase, game.status
    if status != "active":
        raise CliError(f"{args.name} is {status}: nothing to adjudicate")
    done = adjudicate(services, game_id, utcnow(), expected_phase=phase, force=True, wait=True)
    if done is None:
        raise CliError(f"{args.name} {phase} was adjudicated by another process just now")
    print(f"{done.game}: adjudicated {done.phase}; now {done.next_phase}, "
          f"deadline {done.deadline.isoformat() if done.deadline else 'none (game over)'}; "
          f"{done.reports} report(s) queued (send them with `gmserver outbox send --once`)")
    return 0


def cmd_outbox_send(args: argparse.Namespace) -> int:
    from gmserver.daemon import build_transport  # noqa: PLC0415
    from gmserver.services.outbox import deliver_due  # noqa: PLC0415

    if not args.once:
        raise CliError("use `gmserver outbox send --once` (the daemon, `gmserver run`, sends continuously)")
    config = _config(args)
    services = _services(config)
    report = deliver_due(services.sessions, build_transport(config), utcnow(),
                         max_attempts=config.outbox_max_attempts, limit=10_000)
    print(f"sent {report.sent}, will retry {report.retrying}, failed {report.failed}")
    return 0 if report.failed == 0 else 1


def cmd_outbox_retry(args: argparse.Namespace) -> int:
    from gmserver.services.outbox import requeue_failed  # noqa: PLC0415

    services = _services(_config(args))
    count = requeue_failed(services.sessions, utcnow(), ids=args.ids or None)
    print(f"{count} failed message(s) queued again (the daemon, or `gmserver outbox send --once`, sends them)")
    return 0


def cmd_outbox_list(args: argparse.Namespace) -> int:
    from gmserver.services.views import outbox  # noqa: PLC0415

    for row in outbox(_services(_config(args)).sessions, args.status):
        print(f"{row.id:>6} {row.status:<8} {row.kind:<13} to {row.recipient:<30} attempts {row.attempts}"
              + (f"  about: {row.about}" if row.about is not None else "")
              + (f"  last error: {row.last_error}" if row.last_error else ""))
    return 0


def cmd_inbox_list(args: argparse.Namespace) -> int:
    from gmserver.services.views import inbox  # noqa: PLC0415

    for row in inbox(_services(_config(args)).sessions, args.status, args.kind):
        print(f"{row.id:>6} {row.status:<8} {row.outcome or '-':<14} {row.kind or '-':<12} "
              f"{row.received_at:%Y-%m-%d %H:%M} from {row.sender}: {row.subject}")
        if row.error is not None:
            print("       " + row.error)
    return 0


def cmd_inbox_show(args: argparse.Namespace) -> int:
    from gmserver.services.intake import kept  # noqa: PLC0415

    message = kept(_services(_config(args)), args.id)
    if message is None:
        raise CliError(f"no inbound message {args.id}")
    print(f"message {message.id}: {message.status}, {message.outcome or '-'}, kind {message.kind or '-'}")
    print(f"from {message.sender}: {message.subject}")
    print()
    print(message.text or "(no text)")
    if message.press:
        print()
        print("PRESS")
        print(message.press)
    return 0


def cmd_inbox_replay(args: argparse.Namespace) -> int:
    from gmserver.services.intake import replay  # noqa: PLC0415

    outcome = replay(_services(_config(args)), args.id, utcnow())
    if outcome is None:
        raise CliError(f"message {args.id} is not parked (only failed messages can be replayed)")
    print(f"message {args.id}: {outcome}")
    return 0 if outcome != "failed" else 1


def cmd_run(args: argparse.Namespace) -> int:
    from gmserver.daemon import Daemon  # noqa: PLC0415

    config = _config(args)
    if not args.verbose:
        logging.getLogger().setLevel(config.log_level)
    _services(config)  # fails early with a clear message when the database is not ready
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


def cmd_demo(args: argparse.Namespace) -> int:
    from gmserver.demo import run_demo  # noqa: PLC0415

    return run_demo(Path(args.dir), port=args.port, turn_seconds=args.turn_seconds, turns=args.turns)


def cmd_orders_read(args: argparse.Namespace) -> int:
    from gmserver.rules.reading import extract_order_text, read_orders, reading_to_json  # noqa: PLC0415

    try:
        position = Position.from_json(json.loads(Path(args.position).read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValueError) as error:
        raise CliError(f"--position {args.position}: {error}") from None
    previous: list[str] = []
    if args.previous:
        try:
            data = json.loads(Path(args.previous).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise CliError(f"--previous {args.previous}: {error}") from None
        previous = list(data.get("orders", data) if isinstance(data, dict) else data)
    geography = engine.map_info()
    power = geography.power_words.get(args.power.strip().upper())
    if power is None:
        raise CliError(f"--power {args.power!r}: not a power of the {geography.name} map "
                       f"({', '.join(p.title() for p in geography.powers)})")
    message = sys.stdin.buffer.read()
    reading = read_orders(extract_order_text(message), position=position, power=power,
                          ruleset=load_ruleset(args.ruleset), geography=geography, previous=previous)
    _print_json(reading_to_json(reading))
    return 0


# ---------------------------------------------------------------------------------------------
# argument parsing


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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

    game = commands.add_parser("game", help="create and inspect games").add_subparsers(
        dest="game_command", metavar="ACTION", required=True)
    create = game.add_parser("create", help="create a game",
                             description="Create a game. Deadlines default to the ruleset's minimum turn lengths.")
    create.add_argument("name", help="the game's name, as players write it in subjects")
    create.add_argument("--ruleset", default="standard",
                        help="house-rule profile: standard, mhr, danivon, email_rules, scorpion, gwm, or a TOML "
                             "file (default: standard)")
    create.add_argument("--player", action="append", metavar="POWER=ADDRESS[,FALLBACK]",
                        help="a player (repeat for each power)")
    create.add_argument("--players", metavar="FILE.toml", help="players from a file: [players] FRANCE = \"addr\"")
    create.add_argument("--position", metavar="POSITION.json",
                        help="start from this position (DATC case format: phase, units, centers, dislodged)")
    create.add_argument("--deadline", type=_datetime, metavar="ISO-TIME",
                        help="first deadline, e.g. 2026-12-01T18:00+00:00 (default: now + the turn length)")
    create.add_argument("--movement-hours", type=_hours, metavar="H", help="length of movement turns")
    create.add_argument("--retreat-hours", type=_hours, metavar="H", help="length of retreat turns")
    create.add_argument("--adjustment-hours", type=_hours, metavar="H", help="length of adjustment turns")
    create.add_argument("--reminder-hours", type=_hours, metavar="H",
                        help="remind players without orders this long before the deadline (0: never)")
    create.add_argument("--timezone", default="UTC", help="the game's time zone for reports (default: UTC)")
    create.add_argument("--sender-check", choices=["from", "verified"], default="verified",
                        help="who may give a power's orders. verified (the default): a message from the "
                             "power's address must also prove its sender, by a DKIM/DMARC pass for that "
                             "address's domain (checked by gmserver, or by a receiving server listed in "
                             "[inbound] trusted_authserv_ids), by being sent to the player's own reply "
                             "address gm+SECRET@... (the Reply-To of every mail the GM sends them: a plain "
                             "reply does it), or by a line 'Password: SECRET'. from: the From address "
                             "alone, which anyone can forge")
    create.set_defaults(func=cmd_game_create)
    listing = game.add_parser("list", help="list games")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(func=cmd_game_list)
    show = game.add_parser("show", help="show a game's position, players and orders on file")
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="print JSON (DATC position notation)")
    show.set_defaults(func=cmd_game_show)
    abbreviations = game.add_parser(
        "abbreviations", help="show or set a player's own abbreviation list (004 I(1))",
        description="A player's own abbreviations, matched before the standard table where the ruleset has "
                    "player_abbreviation_lists (004 I(1) ¶2). Without TOKEN=PLACE, shows the list.")
    abbreviations.add_argument("name")
    abbreviations.add_argument("power")
    abbreviations.add_argument("entries", nargs="*", metavar="TOKEN=PLACE", help="e.g. Mar=Marseilles or Wm=WES")
    abbreviations.add_argument("--clear", action="store_true", help="remove every entry")
    abbreviations.set_defaults(func=cmd_game_abbreviations)

    poll = commands.add_parser("poll", help="fetch and process waiting inbound mail")
    poll.add_argument("--once", action="store_true", help="process everything waiting, then exit")
    poll.set_defaults(func=cmd_poll)

    adjudicate = commands.add_parser("adjudicate", help="adjudicate a game's current phase now")
    adjudicate.add_argument("name")
    adjudicate.set_defaults(func=cmd_adjudicate)

    out = commands.add_parser("outbox", help="outgoing mail").add_subparsers(dest="outbox_command",
                                                                             metavar="ACTION", required=True)
    send = out.add_parser("send", help="deliver queued mail")
    send.add_argument("--once", action="store_true", help="deliver everything due, then exit")
    send.set_defaults(func=cmd_outbox_send)
    retry = out.add_parser("retry", help="queue failed mail again (after fixing the relay settings)")
    retry.add_argument("ids", nargs="*", type=int, metavar="ID", help="only these messages (default: every failed one)")
    retry.set_defaults(func=cmd_outbox_retry)
    out_list = out.add_parser("list", help="list outgoing mail")
    out_list.add_argument("--status", choices=["pending", "sending", "sent", "failed"])
    out_list.set_defaults(func=cmd_outbox_list)

    inbox = commands.add_parser("inbox", help="stored inbound mail, parked failures").add_subparsers(
        dest="inbox_command", metavar="ACTION", required=True)
    in_list = inbox.add_parser("list", help="list stored inbound mail")
    in_list.add_argument("--status", choices=["pending", "done", "failed"])
    in_list.add_argument("--kind", choices=list(KINDS), help="only mail of this kind (a GM command, press...)")
    in_list.set_defaults(func=cmd_inbox_list)
    in_show = inbox.add_parser("show", help="one stored message's text and press, as they were read")
    in_show.add_argument("id", type=int)
    in_show.set_defaults(func=cmd_inbox_show)
    in_replay = inbox.add_parser("replay", help="process a parked (failed) message again")
    in_replay.add_argument("id", type=int)
    in_replay.set_defaults(func=cmd_inbox_replay)

    commands.add_parser("run", help="run the daemon (inbound mail, deadlines, outbox)").set_defaults(func=cmd_run)

    demo = commands.add_parser("demo", help="a self-contained demo game played by seven bots",
                               description="Runs the daemon on SQLite with the SMTP listener and a Maildir "
                                           "outbox; seven bots mail orders; turns are adjudicated every few "
                                           "seconds. Ctrl-C stops it.")
    demo.add_argument("--dir", default="demo-data", help="where the demo keeps its files (default: demo-data)")
    demo.add_argument("--port", type=int, default=2525, help="SMTP listener port (default: 2525)")
    demo.add_argument("--turn-seconds", type=float, default=15.0, help="length of a movement turn (default: 15)")
    demo.add_argument("--turns", type=int, default=0, help="stop after this many adjudications (default: never)")
    demo.set_defaults(func=cmd_demo)

    cli_ruleset.add_commands(commands)

    orders = commands.add_parser("orders", help="order reading tools").add_subparsers(
        dest="orders_command", metavar="ACTION", required=True)
    read = orders.add_parser("read", help="read an order message (stdin) as the house rules say; print JSON")
    read.add_argument("--ruleset", default="standard", help="profile name or TOML file")
    read.add_argument("--position", required=True, metavar="POSITION.json", help="DATC-format position")
    read.add_argument("--power", required=True)
    read.add_argument("--previous", metavar="ORDERS.json", help="the order set already on file (JSON list)")
    read.set_defaults(func=cmd_orders_read)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # one line per plugin, every run
    from gmserver.daemon import DaemonError  # noqa: PLC0415
    from gmserver.db.session import DATABASE_UNREACHABLE, unreachable_reason  # noqa: PLC0415
    from gmserver.services.games import GameError  # noqa: PLC0415

    try:
        return args.func(args)
    except (CliError, ConfigError, DaemonError, GameError, RulesetError) as error:
        print(f"gmserver: error: {error}", file=sys.stderr)
        return 2
    except DATABASE_UNREACHABLE as error:
        print(f"gmserver: error: cannot use the database: {unreachable_reason(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
