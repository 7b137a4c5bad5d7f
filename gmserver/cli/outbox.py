"""`gmserver outbox ...`: outgoing mail."""

from __future__ import annotations

import argparse

from gmserver.cli.common import config_of, cut, row_id, services_of, utcnow
from gmserver.cli.parser import CliError, add_command


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
              f"attempts {row.attempts}: {cut(row.subject, 50)}"
              + (f"  about: {row.about}" if row.about is not None else "")
              + (f"  last error: {row.last_error}" if row.last_error else ""))
    if not rows:
        print("no outgoing mail" + (f" with status {args.status}" if args.status else " yet"))
    return 0


def build(parser: argparse.ArgumentParser) -> None:
    out = parser.add_subparsers(dest="outbox_command", metavar="ACTION", required=True)
    send = add_command(out, "send", help="deliver queued mail")
    send.add_argument("--once", action="store_true", help="deliver everything due, then exit")
    send.set_defaults(func=cmd_outbox_send)
    retry = add_command(out, "retry", help="queue failed mail again (after fixing the relay settings)")
    retry.add_argument("ids", nargs="*", type=row_id, metavar="ID", help="only these messages (default: every failed one)")
    retry.set_defaults(func=cmd_outbox_retry)
    out_list = add_command(out, "list", help="list outgoing mail")
    out_list.add_argument("--status", choices=["pending", "sending", "sent", "failed"])
    out_list.set_defaults(func=cmd_outbox_list)
