"""`gmserver inbox ...`: stored inbound mail with its parked failures, and the GM's release or
refusal of held mail (the registry's commands, gmserver/cli/gm.py)."""

from __future__ import annotations

import argparse

from gmserver.cli import gm
from gmserver.cli.common import MESSAGE_ID, config_of, services_of, utcnow
from gmserver.cli.parser import CliError, add_command
from gmserver.commands.registry import in_group
from gmserver.rules.mailkind import KINDS


def cmd_inbox_list(args: argparse.Namespace) -> int:
    from gmserver.services.features.views import inbox  # noqa: PLC0415

    rows = inbox(services_of(config_of(args)).sessions, args.status, args.kind)
    for row in rows:
        print(f"{row.id:>6} {row.status:<8} {row.outcome or '-':<14} {row.kind or '-':<12} "
              f"{row.received_at:%Y-%m-%d %H:%M} from {row.sender}: {row.subject}")
        if row.error is not None:
            print("       " + row.error)
    if not rows:
        which = " and ".join(f"{name} {value}" for name, value in (("status", args.status), ("kind", args.kind))
                             if value)
        print("no stored inbound mail" + (f" with {which}" if which else " yet"))
    return 0


def cmd_inbox_show(args: argparse.Namespace) -> int:
    from gmserver.services.inbox.runner import kept  # noqa: PLC0415

    message = kept(services_of(config_of(args)), args.id)
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
    from gmserver.services.inbox.runner import replay  # noqa: PLC0415

    outcome = replay(services_of(config_of(args)), args.id, utcnow())
    if outcome is None:
        raise CliError(f"message {args.id} is not parked (only failed messages can be replayed)")
    print(f"message {args.id}: {outcome}")
    return 0 if outcome != "failed" else 1


# the registry's inbox commands, by name
BUILDERS = {"release": gm.add_release, "refuse": gm.add_refuse}


def build(parser: argparse.ArgumentParser) -> None:
    inbox = parser.add_subparsers(dest="inbox_command", metavar="ACTION", required=True)
    in_list = add_command(inbox, "list", help="list stored inbound mail")
    in_list.add_argument("--status", choices=["pending", "done", "failed", "held"],
                         help="held: order sets waiting for the GM (gmserver inbox release / refuse)")
    in_list.add_argument("--kind", choices=list(KINDS), help="only mail of this kind (a GM command, press...)")
    in_list.set_defaults(func=cmd_inbox_list)
    in_show = add_command(inbox, "show", help="one stored message's text and press, as they were read")
    in_show.add_argument("id", **MESSAGE_ID)
    in_show.set_defaults(func=cmd_inbox_show)
    in_replay = add_command(inbox, "replay", help="process a parked (failed) message again")
    in_replay.add_argument("id", **MESSAGE_ID)
    in_replay.set_defaults(func=cmd_inbox_replay)
    for command in in_group("inbox"):
        BUILDERS[command.name](inbox, command)
