"""`gmserver game ...`: create games, list and show them, players' own abbreviation lists, and the
GM's commands on a game (the registry's, gmserver.commands)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tomllib
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from gmserver.cli import controls, gm, signup
from gmserver.cli import ruleset as cli_ruleset
from gmserver.cli.commands import add_spec_command
from gmserver.cli.common import (
    GAME,
    POWER,
    config_of,
    hours,
    moment,
    reader_of,
    services_of,
    time_of_day,
    utcnow,
)
from gmserver.cli.parser import CliError, Subcommands, add_command, print_json
from gmserver.commands.command import Command
from gmserver.commands.registry import in_group
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset


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
    from gmserver.services.game.games import GameSpec, open_game, parse_player, setup_notes  # noqa: PLC0415

    config = config_of(args)
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
        sender_check=args.sender_check, gm_copies=args.gm_copies, deadline_time=args.deadline_time,
        enforce_minimums=not args.short_turns_for_testing, anonymous=args.anonymous, pages_public=args.pages_public,
    )
    services = services_of(config)
    # the game starts by mail: every player's start mail is queued with the game
    _, summary = open_game(services.sessions, spec, utcnow(), config.gm_address, services=services)
    print(f"created game {summary['name']} ({summary['ruleset']}) at {summary['phase']}, "
          f"deadline {_deadline_words(summary)}, {len(summary['players'])} players")
    print(f"start mails queued for {len(summary['players'])} players (`gmserver outbox send --once` or the daemon "
          "sends them)")
    print(f"GM commands by mail need the line 'Password: {summary.get('gm_secret', '')}' (the game's GM secret)")
    if warning := cli_ruleset.not_in_force_text(spec.ruleset, args.ruleset):  # so that no GM is misled
        print(warning)
    for pace in summary.get("pace_warnings", ()):  # 001 IV(4): a guide, so a warning, never a refusal
        print(f"note: {pace}")
    for note in setup_notes(spec):
        print(f"note: {note}")
    if summary["sender_check"] == "verified":
        print("senders are verified: each player's orders must prove their sender. Every mail the GM sends a "
              "player has Reply-To set to the player's reply address of that turn (a plain reply proves it); "
              "a new message proves it with the line 'Password: PASSWORD' (in each player's start mail):")
        for power, player in summary["players"].items():
            print(f"  {power:<8} {player['address']:<30} {player.get('password', '-')}")
        if not config.trusted_authserv_ids:
            print("note: no [inbound] trusted_authserv_ids is configured, so the receiving server's "
                  "Authentication-Results headers are not believed; proof comes from gmserver's own DKIM check, "
                  "the player's reply address or their 'Password:' line")
    else:
        print("senders are not verified (--sender-check from): anyone who writes a player's address in From "
              "can give that power's orders")
    return 0


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of games: a whole number from 1, e.g. 50")
    return number


def cmd_game_list(args: argparse.Namespace) -> int:
    from gmserver.services.game.shown import list_games  # noqa: PLC0415

    if args.open:
        return _list_open(args)
    with reader_of(config_of(args)) as reader:
        games, total = list_games(reader, active=args.active, open_turn=args.ordering, limit=args.limit)
    if args.json:
        print_json(games)
    elif not games:
        print("no games yet: create one with `gmserver game create`" if not (args.active or args.ordering)
              else "no such game: `gmserver game list` shows them all")
    else:
        for g in games:
            print(f"{g['name']:<24} {g['ruleset']:<12} {g['status']:<9} "
                  f"{g['phase']:<8} deadline {_deadline_words(g)}  ({g['players']} players)")
        if total > len(games):
            print(f"... and {total - len(games)} more (--limit {total} shows them all)")
    return 0


def _list_open(args: argparse.Namespace) -> int:
    """`game list --open`: the games open for sign-up, one line each with their rules."""
    from gmserver.reports.signup import open_game_line  # noqa: PLC0415
    from gmserver.services.features.signup import list_open  # noqa: PLC0415

    games = list_open(services_of(config_of(args)))[:args.limit]
    if args.json:
        print_json([dataclasses.asdict(g) | {"starts_at": g.starts_at.isoformat() if g.starts_at else None}
                    for g in games])
    elif not games:
        print("no game is open for sign-up: announce one with `gmserver game announce GAME --ruleset RULESET`")
    else:
        for g in games:
            print(open_game_line(g))
    return 0


def cmd_game_show(args: argparse.Namespace) -> int:
    from gmserver.reports.words import plural  # noqa: PLC0415
    from gmserver.services.game.shown import show_game  # noqa: PLC0415

    config = config_of(args)
    with reader_of(config) as reader:
        summary = show_game(reader, args.name, config.gm_address)
    if args.json:
        print_json(summary)
        return 0
    print(f"{summary['name']}: ruleset {summary['ruleset']}, {summary['status']}, phase {summary['phase']}, "
          f"deadline {_deadline_words(summary)}, senders "
          + ("verified" if summary["sender_check"] == "verified" else
             f"not verified (From alone: anyone can forge it; `gmserver game set {summary['name']} sender-check "
             "verified` checks them)"))
    _print_schedule(summary)
    for power, player in summary["players"].items():
        units = ", ".join(summary["units"].get(power, [])) or "no units"
        centres = len(summary["centers"].get(power, []))
        on_file = summary["orders"].get(power)
        status = f"orders v{on_file['version']} on file" if on_file else "no orders yet"
        if power in summary["civil_disorder"]:
            status += ", in civil disorder"
        if "nmr" in summary:  # the missed-turn counts, where the game keeps them
            missed, in_a_row = summary["nmr"].get(power, 0), summary["nmr_in_a_row"].get(power, 0)
            status += f", {plural(missed, 'missed turn')} ({in_a_row} in a row)" if missed else ""
        status += _clarify_status(player)
        if player.get("resigned"):  # RESIGN by mail: the record is kept, the power waits for a new player
            status += f", its player resigned {player['resigned'][:16]}"
        if player.get("zone"):  # SET ZONE by mail
            status += f", zone {player['zone']}"
        for away in summary.get("absences", {}).get(power, ()):  # ABSENCE by mail
            status += f", away {away['from']} to {away['to']}"
        print(f"  {power:<8} {player['address']:<30} {centres:>2} centres; {units}; {status}")
        for order in (on_file or {}).get("orders", []):
            print(f"      {order}")
    if summary["not_ordered"]:
        print(f"no orders yet from: {', '.join(summary['not_ordered'])}")
    if summary["standby"]:  # open sign-up: offered a power that needs a new player, in this order
        print(f"standing by: {', '.join(summary['standby'])}")
    if summary["observers"]:
        print(f"observers: {', '.join(summary['observers'])}")
    _print_nmr(summary)
    for pace in summary.get("pace_warnings", ()):  # 001 IV(4)
        print(f"note: {pace}")
    if summary.get("corrected"):  # 000 VIII(1)
        print(f"{summary['phase']} was rolled back for a correction: `gmserver adjudicate {summary['name']}` "
              "adjudicates it again")
    for held in summary.get("held", ()):  # hold_for_gm
        print(f"held for you: message {held['id']} from {held['power']} for {held['phase']} "
              f"(gmserver inbox release {held['id']} | gmserver inbox refuse {held['id']})")
    if summary["rules_not_in_force"]:
        print(f"not in force: {', '.join(summary['rules_not_in_force'])} (see `gmserver ruleset show`)")
    if summary.get("gm_secret"):  # gm_command_auth
        print(f"GM commands by mail carry the line 'Password: {summary['gm_secret']}'")
    # what a player sends to (or replies to) so that the message proves its sender
    if any(player.get("reply_address") for player in summary["players"].values()):
        print("passwords and this turn's reply addresses (tell each player only their own):")
        for power, player in summary["players"].items():
            print(f"  {power:<8} {player.get('password') or '-':<18} {player.get('reply_address') or '-'}")
    return 0


def _clarify_status(player: dict) -> str:
    """000 III(1) (a): how often the player's sets had lines not used, and the GM's switch."""
    record = player["invalid_sets"]
    said = (f", lines not used in {record['invalid']} of {record['sets']} sets "
            f"({record['recent_invalid']} of the last {record['recent']})" if record["invalid"] else "")
    return said + ("" if player["clarifications"] else ", clarifications off (000 III(1))")


def _print_nmr(summary: dict) -> None:
    """A Spring 1901 wait and the players replaced; missed turns and civil disorder
    are on each power's line."""
    from gmserver.reports.words import plural  # noqa: PLC0415

    for former in summary.get("former_players", ()):
        print(f"  formerly {former['power']:<8} {former['address']} until {former['left']} "
              f"({former['left_in_phase']}), {plural(former['missed_turns'], 'missed turn')}"
              + (", civil disorder on record" if former["civil_disorder_recorded"] else ""))
    if summary.get("waiting_for"):
        print(f"waiting for new players for {', '.join(summary['waiting_for'])}: the game is suspended, with "
              "no deadline, until they join (house rules 003 [14], 001 V(3)); gmserver game replace "
              f"{summary['name']} POWER ADDRESS")


def _deadline_words(summary: dict) -> str:
    """In the game's time zone, then UTC ("Tuesday 1 December 2026, 19:00 CET (Europe/Berlin) =
    Tuesday 1 December 2026, 18:00 UTC"); `--json` keeps the ISO form for machines."""
    from gmserver.reports.words import format_time  # noqa: PLC0415

    if not summary["deadline"]:
        return f"none ({summary['timezone']})"
    return str(format_time(datetime.fromisoformat(summary["deadline"]), summary["timezone"]))


def _print_schedule(summary: dict) -> None:
    from gmserver.reports.words import format_length  # noqa: PLC0415
    from gmserver.rules.schedule import local_time_of_day  # noqa: PLC0415

    lengths = summary["turn_lengths_seconds"]
    turns = ", ".join(f"{kind} {format_length(lengths[kind])}" for kind in ("movement", "retreat", "adjustment"))
    lead = summary["reminder_seconds"]
    reminder = f"{format_length(lead)} before the deadline" if lead else "none"
    at = f", deadlines at {summary['deadline_time'][:5]} {summary['timezone']}" if summary.get("deadline_time") else ""
    if at and summary.get("deadline"):
        # the GM moved this turn's deadline off the time of day; the turns after it keep that time
        current = local_time_of_day(datetime.fromisoformat(summary["deadline"]), summary["timezone"])
        if current.isoformat(timespec="minutes") != summary["deadline_time"][:5]:
            at += f" (this turn's moved to {current.isoformat(timespec='minutes')})"
    print(f"schedule: turns: {turns}{at}; reminders {reminder}"
          + ("; PAUSED: no adjudication and no reminders until `gmserver game resume`" if summary["paused"] else "")
          + ("; copies of reports and refusals go to the GM" if summary["gm_copies"] else ""))
    if summary.get("anonymous"):
        print("anonymous: no player is shown another's address"
              + (f" (`gmserver game reveal {summary['name']}` names them to each other)"
                 if summary["status"] != "active" else "; once the game is over, `game reveal` may name them"))
    if summary.get("pages_public") is not None:
        print(f"web pages: {'public' if summary['pages_public'] else 'private (a player’s link or the GM’s password)'}")


def cmd_game_abbreviations(args: argparse.Namespace) -> int:
    from gmserver.services.game.games import player_abbreviations  # noqa: PLC0415

    services = services_of(config_of(args))
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


# the registry's game commands whose command line is not their mail words (the rest: add_spec_command)
BUILDERS: dict[str, Callable[[Subcommands, Command], None]] = {
    "veto": controls.add_veto, "propose": controls.add_propose, "vote": controls.add_vote,
    "proxy": controls.add_proxy, "perpetual": controls.add_perpetual, "actions": controls.add_actions,
    "correct": gm.add_orders, "preview": gm.add_preview, "convoy": gm.add_convoy, "repair": gm.add_repair,
    "audit": gm.add_audit, "rollback": gm.add_rollback,
    "announce": signup.add_announce, "approve": signup.add_approve, "refuse-player": signup.add_approve,
}


def build(parser: argparse.ArgumentParser) -> None:
    """`gmserver game`: create and inspect games, and the GM's commands on a game (the registry's)."""
    game = parser.add_subparsers(dest="game_command", metavar="ACTION", required=True)
    create = add_command(game, "create", help="create a game",
                             description="Create a game. Turn lengths default to the ruleset's minimum lengths, or, where "
                                         "it sets a target length for a game Turn (001 IV(4): a week), to lengths "
                                         "that make a Fall Turn that long.")
    create.add_argument("name", metavar="GAME", help="the new game's name, as players write it in subjects")
    create.add_argument("--ruleset", default="standard",
                        help="house-rule profile: standard, mhr, danivon, email_rules, scorpion, gwm, or a TOML "
                             "file (default: standard)")
    create.add_argument("--player", action="append", metavar="POWER=ADDRESS[,FALLBACK]",
                        help="a player (repeat for each power)")
    create.add_argument("--players", metavar="FILE.toml", help="players from a file: [players] FRANCE = \"addr\"")
    create.add_argument("--position", metavar="POSITION.json",
                        help="start from this position (DATC case format: phase, units, centers, dislodged)")
    create.add_argument("--deadline", type=moment, metavar="ISO-TIME",
                        help="first deadline, e.g. 2026-12-01T18:00+00:00 (default: now + the turn length)")
    create.add_argument("--movement-hours", type=hours, metavar="H", help="length of movement turns")
    create.add_argument("--retreat-hours", type=hours, metavar="H", help="length of retreat turns")
    create.add_argument("--adjustment-hours", type=hours, metavar="H", help="length of adjustment turns")
    create.add_argument("--reminder-hours", type=hours, metavar="H",
                        help="remind players without orders this long before the deadline (0: never)")
    create.add_argument("--timezone", default="UTC",
                        help="the game's time zone, for its deadlines' time of day and for reports (default: UTC)")
    create.add_argument("--deadline-time", type=time_of_day, metavar="HH:MM",
                        help="every deadline at this local time (default: the first deadline's time of day)")
    create.add_argument("--short-turns-for-testing", action="store_true",
                        help="for demonstrations and load tests only: allow turns shorter than the house "
                             "rules' minimum lengths")
    create.add_argument("--sender-check", choices=["from", "verified"], default="verified",
                        help="who may give a power's orders. verified (the default): a message from the "
                             "power's address must also prove its sender, by a DKIM/DMARC pass for that "
                             "address's domain (checked by gmserver, or by a receiving server listed in "
                             "[inbound] trusted_authserv_ids), by being sent to the player's own reply "
                             "address gm+SECRET@... (the Reply-To of every mail the GM sends them: a plain "
                             "reply does it), or by a line 'Password: SECRET'. from: the From address "
                             "alone, which anyone can forge")
    create.add_argument("--gm-copies", action="store_true",
                        help="send the GM a copy of every report and every refusal ([gm] alert_address, else "
                             "[gm] address); `game set NAME gm_copies on|off` changes it later")
    create.add_argument("--anonymous", action="store_true",
                        help="an anonymous (gunboat) game: no player is ever shown another player's address, "
                             "only the powers; once it is over `game reveal NAME` tells them who played whom")
    pages = create.add_mutually_exclusive_group()
    pages.add_argument("--private", dest="pages_public", action="store_false", default=None,
                       help="its web pages show nothing without a player's own link or the GM's password "
                            "(default: as [web] public says); `game set NAME pages public|private` changes it")
    pages.add_argument("--public", dest="pages_public", action="store_true", default=None,
                       help="its web pages are public whatever [web] public says")
    create.set_defaults(func=cmd_game_create)
    listing = add_command(game, "list", help="list games")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.add_argument("--active", action="store_true", help="active games only (not finished)")
    listing.add_argument("--ordering", action="store_true",
                         help="games whose players can order now: active, not paused, with a deadline")
    listing.add_argument("--open", action="store_true",
                         help="games open for sign-up (`game announce`), one line each with their rules")
    listing.add_argument("--limit", type=_positive, metavar="N", help="the first N games by name")
    listing.set_defaults(func=cmd_game_list)
    show = add_command(game, "show", help="show a game's position, players and orders on file",
                           description="The game's phase, deadline (in its time zone, then UTC), schedule, "
                                       "players with their units, centres and orders on file, and what waits "
                                       "for the GM.")
    show.add_argument("name", **GAME)
    show.add_argument("--json", action="store_true", help="print JSON (DATC position notation)")
    show.set_defaults(func=cmd_game_show)
    abbreviations = add_command(
        game, "abbreviations", help="show or set a player's own abbreviation list (004 I(1))",
        description="A player's own abbreviations, matched before the standard table where the ruleset has "
                    "player_abbreviation_lists (004 I(1) ¶2). Without TOKEN=PLACE, shows the list.")
    abbreviations.add_argument("name", **GAME)
    abbreviations.add_argument("power", **POWER)
    abbreviations.add_argument("entries", nargs="*", metavar="TOKEN=PLACE", help="e.g. Mar=Marseilles or Wm=WES")
    abbreviations.add_argument("--clear", action="store_true", help="remove every entry")
    abbreviations.set_defaults(func=cmd_game_abbreviations)
    for command in in_group("game"):
        if command.cli_from_spec:
            add_spec_command(game, command)
        else:
            BUILDERS[command.name](game, command)
