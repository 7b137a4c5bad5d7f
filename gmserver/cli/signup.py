"""`gmserver game announce | approve | refuse-player`: open sign-up on the command line (the
registry's commands announce, approve, refuse-player; gmserver.services.features.signup)."""

from __future__ import annotations

import argparse

from gmserver.cli.commands import add_registry_command
from gmserver.cli.common import config_of, moment, services_of, time_of_day, utcnow
from gmserver.cli.parser import Subcommands
from gmserver.commands.command import Command


def _share(value: str) -> float:
    """`0.8` or `80%` -> 0.8."""
    try:
        number = float(value.removesuffix("%")) / (100 if value.endswith("%") else 1)
    except ValueError:
        number = -1.0
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"{value!r}: a share of turns ordered on time, e.g. 0.8 or 80%")
    return number


def cmd_announce(args: argparse.Namespace) -> int:
    from gmserver.reports.signup import open_game_line  # noqa: PLC0415  (cli/__init__.py: imported late)
    from gmserver.services.features import signup  # noqa: PLC0415

    spec = signup.AnnounceSpec(name=args.name, ruleset=args.ruleset, deadline_time=args.deadline_time,
                               timezone=args.timezone, anonymous=args.anonymous, min_reliability=args.min_reliability,
                               approval=args.approval, starts_at=args.starts)
    config = config_of(args)
    shown, seed = signup.announce_game(services_of(config), spec, utcnow())
    print(f"announced {open_game_line(shown)}")
    print(f"players join by mail to {config.gm_address}: first line 'join {args.name} England, France' (or "
          f"'join {args.name} any'); standby {args.name}; observe {args.name}")
    print(f"the powers are assigned by the players' preferences; seed of the draw among equal assignments: {seed}")
    return 0


def cmd_approve(args: argparse.Namespace, refuse: bool) -> int:
    from gmserver.services.features.signup import decide_join  # noqa: PLC0415  (cli/__init__.py: imported late)

    started = decide_join(services_of(config_of(args)), args.name, args.address, utcnow(), refuse=refuse)
    print(f"{args.address}: {'refused' if refuse else 'approved'} for {args.name}")
    if started:
        print(f"{started} is full and has started: start mails queued")
    return 0


def add_announce(game: Subcommands, command: Command) -> None:
    parser = add_registry_command(game, command)
    parser.add_argument("--ruleset", default="standard", help="house-rule profile (default: standard)")
    parser.add_argument("--deadline-time", type=time_of_day, metavar="HH:MM", help="every deadline at this local time")
    parser.add_argument("--timezone", default="UTC", help="the game's time zone (default: UTC)")
    parser.add_argument("--anonymous", action="store_true", help="players do not see who plays which power")
    parser.add_argument("--min-reliability", type=_share, metavar="X",
                        help="a joining player's record must show this share of turns ordered on time (0.8 or 80%%)")
    parser.add_argument("--approval", action="store_true",
                        help="each confirmed join waits for `gmserver game approve GAME ADDRESS`")
    starts = parser.add_mutually_exclusive_group()
    starts.add_argument("--starts-when-full", action="store_true",
                        help="start when seven players have confirmed (the default)")
    starts.add_argument("--starts", type=moment, metavar="ISO-TIME",
                        help="start at this time with those who have confirmed (or when seven have, if sooner)")
    parser.set_defaults(func=cmd_announce)


def add_approve(game: Subcommands, command: Command) -> None:
    parser = add_registry_command(game, command)
    parser.add_argument("address", metavar="ADDRESS", help="the player's address")
    parser.set_defaults(func=lambda args: cmd_approve(args, refuse=command.name != "approve"))
