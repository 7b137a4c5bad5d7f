"""`gmserver press ...`: the GM reads a game's press, with its authors, and approves, drops or
edits press not yet published (press_moderation; 003 [9]: insulting press is not
published; press_editing, 002 PRESS 3: spelling and punctuation corrected unless declined)."""

from __future__ import annotations

import argparse

from gmserver.cli.common import GAME, PRESS_ID, config_of, services_of, utcnow
from gmserver.cli.parser import CliError, add_command


def cmd_press_list(args: argparse.Namespace) -> int:
    from gmserver.services.features.press_moderation import press_list  # noqa: PLC0415
    from gmserver.services.game.games import GameError  # noqa: PLC0415

    try:
        items = press_list(services_of(config_of(args)), args.game, args.status)
    except GameError as error:
        raise CliError(str(error)) from error
    for item in items:
        to = ", ".join(power.title() for power in item.recipients) or "all"
        author = item.author.title() if item.author.isalpha() else item.author  # a non-player: its address
        print(f"{item.id:5d}  {item.phase:8s} {item.status:9s} {item.kind:9s} {author:8s} to {to}")
        for line in item.text.splitlines():
            print(f"       | {line}")
    if not items:
        print("no press")
    return 0


def cmd_press_moderate(args: argparse.Namespace) -> int:
    from gmserver.services.features.press_moderation import moderate  # noqa: PLC0415
    from gmserver.services.game.games import GameError  # noqa: PLC0415

    try:
        print(moderate(services_of(config_of(args)), args.game, args.id, args.press_command, utcnow()))
    except GameError as error:
        raise CliError(str(error)) from error
    return 0


def cmd_press_edit(args: argparse.Namespace) -> int:
    """press_editing (002 PRESS 1, 3): the new text from --file or standard input."""
    import sys  # noqa: PLC0415

    from gmserver.services.features.press_moderation import edit  # noqa: PLC0415
    from gmserver.services.game.games import GameError  # noqa: PLC0415

    try:
        text = open(args.file, encoding="utf-8").read() if args.file else sys.stdin.read()
    except OSError as error:
        raise CliError(f"cannot read {args.file}: {error.strerror}") from error
    try:
        print(edit(services_of(config_of(args)), args.game, args.id, text, "cli", utcnow()))
    except GameError as error:
        raise CliError(str(error)) from error
    return 0


def build(parser: argparse.ArgumentParser) -> None:
    press = parser.add_subparsers(dest="press_command", metavar="ACTION", required=True)
    listing = add_command(press, "list", help="the game's press, with its authors (for the GM only)")
    listing.add_argument("game", **GAME)
    listing.add_argument("--status", choices=["held", "report", "sent", "refused", "replaced", "dropped"],
                         help="held: waiting for your approval")
    listing.set_defaults(func=cmd_press_list)
    for action, words in (("approve", "publish a held press item"), ("drop", "never publish a press item")):
        parser = add_command(press, action, help=words)
        parser.add_argument("game", **GAME)
        parser.add_argument("id", **PRESS_ID)
        parser.set_defaults(func=cmd_press_moderate)
    editing = add_command(press, "edit", help="correct the spelling and punctuation of press not yet published "
                                            "(where the house rules allow it, 002 PRESS 3)")
    editing.add_argument("game", **GAME)
    editing.add_argument("id", **PRESS_ID)
    editing.add_argument("--file", help="the corrected text (default: standard input)")
    editing.set_defaults(func=cmd_press_edit)
