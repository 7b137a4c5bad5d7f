"""`gmserver poll | adjudicate | run | demo`: the commands that move mail and turns, each its own
command (no group)."""

from __future__ import annotations

import argparse
import logging
import signal
from pathlib import Path

from gmserver import __version__
from gmserver.cli.common import GAME, config_of, services_of, utcnow
from gmserver.cli.parser import CliError

log = logging.getLogger("gmserver")


def cmd_poll(args: argparse.Namespace) -> int:
    from gmserver.daemon import imap_settings  # noqa: PLC0415
    from gmserver.mail.imap import ImapMailbox, MailboxError  # noqa: PLC0415
    from gmserver.services.inbox.polling import poll_once  # noqa: PLC0415
    from gmserver.services.inbox.runner import process_pending  # noqa: PLC0415

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
    from gmserver.services.features.views import game_row  # noqa: PLC0415
    from gmserver.services.turn.turns import adjudicate  # noqa: PLC0415

    services = services_of(config_of(args))
    game = game_row(services.sessions, args.name)
    game_id, phase, status = game.id, game.phase, game.status
    if status != "active":
        raise CliError(f"{args.name} is {status}: nothing to adjudicate")
    if game.paused:
        raise CliError(f"{args.name} is paused: a paused game is never adjudicated (`gmserver game resume "
                       f"{args.name}` first)")
    done = adjudicate(services, game_id, utcnow(), expected_phase=phase, force=True, wait=True, by="cli",
                      overrule=args.force)
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
    daemon.settle()
    log.info("gmserver %s running; Ctrl-C stops it", __version__)
    try:
        while not daemon.wait(1.0):
            pass
    finally:
        daemon.stop()


def cmd_demo(args: argparse.Namespace) -> int:
    from gmserver.demo import run_demo  # noqa: PLC0415

    return run_demo(Path(args.dir), port=args.port, turn_seconds=args.turn_seconds, turns=args.turns,
                    web_port=args.web_port)


def build_poll(poll: argparse.ArgumentParser) -> None:
    poll.add_argument("--once", action="store_true", help="process everything waiting, then exit")
    poll.set_defaults(func=cmd_poll)


def build_adjudicate(adjudicate: argparse.ArgumentParser) -> None:
    """`process` by mail (gmserver/commands/process.py) is this command."""
    adjudicate.add_argument("name", **GAME)
    adjudicate.add_argument("--force", action="store_true",
                            help="adjudicate even where the house rules forbid it now: a movement turn before its "
                                 "deadline (000 VII(2), 001 IV(2); the players are told), a game suspended until "
                                 "new players join")
    adjudicate.set_defaults(func=cmd_adjudicate)


def build_run(run: argparse.ArgumentParser) -> None:
    run.set_defaults(func=cmd_run)


def build_demo(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--dir", default="demo-data", metavar="DIR", help="where the demo keeps its files (default: demo-data)")
    demo.add_argument("--port", type=int, default=2525, metavar="PORT", help="SMTP listener port (default: 2525)")
    demo.add_argument("--web-port", type=int, default=8080, metavar="PORT",
                      help="the web pages' port on 127.0.0.1 (default: 8080)")
    demo.add_argument("--turn-seconds", type=float, default=15.0, metavar="SECONDS",
                      help="length of a movement turn, in seconds (default: 15)")
    demo.add_argument("--turns", type=int, default=0, metavar="N", help="stop after this many adjudications (default: never)")
    demo.set_defaults(func=cmd_demo)
