"""`gmserver outbox ...` and `gmserver inbox ...`: outgoing mail, and stored inbound mail with
its parked failures."""

from __future__ import annotations

import argparse

from gmserver.cli_common import MESSAGE_ID, CliError, config_of, row_id, services_of, utcnow
from gmserver.rules.mailkind import KINDS


def cmd_outbox_send(args: argparse.Namespace) -> int:
    from gmserver.daemon import build_transport  # noqa: PLC0415
    from gmserver.services.base.outbox import deliver_due  # noqa: PLC0415

    if not args.once:
        raise CliError("use `gmserver outbox send --once` (the daemon, `gmserver run`, sends continuously)")
    config = config_of(args)
    services = services_of(config)
    report = deliver_due(services.sessions, build_transport(config), utcnow(),
                         max_attempts=config.outbox_max_attempts, limit=10_000)
    print(f"sent {report.sent}, will retry {report.retrying}, failed {report.failed}")
    return 0 if report.failed == 0 else 1


def cmd_outbox_retry(args: argparse.Namespace) -> int:
    from gmserver.services.base.outbox import requeue_failed  # noqa: PLC0415

    services = services_of(config_of(args))
    count = requeue_failed(services.sessions, utcnow(), ids=args.ids or None)
    print(f"{count} failed message(s) queued again (the daemon, or `gmserver outbox send --once`, sends them)")
    return 0


def cmd_outbox_list(args: argparse.Namespace) -> int:
    from gmserver.services.features.views import outbox  # noqa: PLC0415

    rows = outbox(services_of(config_of(args)).sessions, args.status)
    for row in rows:
        print(f"{row.id:>6} {row.status:<8} {row.kind:<13} {row.queued_at:%Y-%m-%d %H:%M} to {row.recipient:<30} "
              f"attempts {row.attempts}: {_cut(row.subject, 50)}"
              + (f"  about: {row.about}" if row.about is not None else "")
              + (f"  last error: {row.last_error}" if row.last_error else ""))
    if not rows:
        print("no outgoing mail" + (f" with status {args.status}" if args.status else " yet"))
    return 0


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


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


def add_outbox_commands(commands: argparse._SubParsersAction) -> None:
    out = commands.add_parser("outbox", help="outgoing mail").add_subparsers(dest="outbox_command",
                                                                             metavar="ACTION", required=True)
    send = out.add_parser("send", help="deliver queued mail")
    send.add_argument("--once", action="store_true", help="deliver everything due, then exit")
    send.set_defaults(func=cmd_outbox_send)
    retry = out.add_parser("retry", help="queue failed mail again (after fixing the relay settings)")
    retry.add_argument("ids", nargs="*", type=row_id, metavar="ID", help="only these messages (default: every failed one)")
    retry.set_defaults(func=cmd_outbox_retry)
    out_list = out.add_parser("list", help="list outgoing mail")
    out_list.add_argument("--status", choices=["pending", "sending", "sent", "failed"])
    out_list.set_defaults(func=cmd_outbox_list)


def add_inbox_commands(commands: argparse._SubParsersAction) -> None:
    inbox = commands.add_parser("inbox", help="stored inbound mail, parked failures").add_subparsers(
        dest="inbox_command", metavar="ACTION", required=True)
    in_list = inbox.add_parser("list", help="list stored inbound mail")
    in_list.add_argument("--status", choices=["pending", "done", "failed", "held"],
                         help="held: order sets waiting for the GM (gmserver inbox release / refuse)")
    in_list.add_argument("--kind", choices=list(KINDS), help="only mail of this kind (a GM command, press...)")
    in_list.set_defaults(func=cmd_inbox_list)
    in_show = inbox.add_parser("show", help="one stored message's text and press, as they were read")
    in_show.add_argument("id", **MESSAGE_ID)
    in_show.set_defaults(func=cmd_inbox_show)
    in_replay = inbox.add_parser("replay", help="process a parked (failed) message again")
    in_replay.add_argument("id", **MESSAGE_ID)
    in_replay.set_defaults(func=cmd_inbox_replay)
