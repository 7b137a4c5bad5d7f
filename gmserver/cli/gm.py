"""The GM's corrections from the command line: `gmserver game orders | preview | convoy |
repair | audit | rollback` and `gmserver inbox release | refuse`. Each is a thin call into a
service (gmserver.services.features.corrections, .preview, .held) and prints more than the answer
by mail; its name, help and description are the registry's command (gmserver.commands), its
options its own. The `game` and `inbox` groups (gmserver/cli/game.py, inbox.py) add them."""

from __future__ import annotations

import argparse
from pathlib import Path

from gmserver.cli.commands import add_registry_command
from gmserver.cli.common import HELD_ID, POWER, config_of, moment, services_of, utcnow
from gmserver.cli.parser import CliError, Subcommands
from gmserver.commands.command import Command
from gmserver.commands.convoy import RULINGS


def cmd_game_orders(args: argparse.Namespace) -> int:
    from gmserver.services.features.corrections import correct_orders  # noqa: PLC0415

    if bool(args.set) == bool(args.file):
        raise CliError('give the orders with --set "A PAR - BUR" (repeat) or --file ORDERS.txt, not both')
    try:
        text = "\n".join(args.set) if args.set else Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        raise CliError(f"--file {args.file}: {error}") from None
    done = correct_orders(services_of(config_of(args)), args.name, args.power, text, utcnow())
    print(f"{done.game} {done.phase}: the GM's order set v{done.version} filed for {done.power}")
    for line in done.lines:
        print(f"  {line}")
    print("on file now: " + (", ".join(done.on_file) or "nothing"))
    print(f"{done.power.title()} " + ("is told by mail" if done.informed else "was told already"))
    return 0


def cmd_game_preview(args: argparse.Namespace) -> int:
    from gmserver.services.turn.preview import preview  # noqa: PLC0415

    shown = preview(services_of(config_of(args)), args.name, utcnow())
    print(f"PREVIEW of {shown.game} {shown.phase} (nothing stored, nothing sent); it would open {shown.next_phase}")
    print()
    print(shown.text)
    if shown.disputes:
        print("CONVOYS TO RULE ON (the game's convoy rule):")
        for dispute in shown.disputes:
            print(f"  - {dispute}")
    if shown.if_disrupted is not None:
        print(f"\nIF YOU RULE THEM DISRUPTED (gmserver game convoy {shown.game} MOVE fails):\n")
        print(shown.if_disrupted)
    return 0


def cmd_game_convoy(args: argparse.Namespace) -> int:
    from gmserver.services.features.convoys import rule_convoy  # noqa: PLC0415

    done = rule_convoy(services_of(config_of(args)), args.name, args.move, args.ruling, utcnow())
    print(f"{done.game} {done.phase}: {done.move} {done.ruling} (the game's convoy rule); applied when "
          f"{done.phase} is adjudicated")
    return 0


def cmd_game_repair(args: argparse.Namespace) -> int:
    from gmserver.services.features.repairs import repair_unit  # noqa: PLC0415

    done = repair_unit(services_of(config_of(args)), args.name, args.power, args.unit, args.to, utcnow(),
                       confirm=args.confirm)
    if not done.done:
        print(f"{done.game} {done.phase}: proposed, not done: {done.repair.describe()}")
        print("to do it, run the same command with --confirm")
        return 0
    print(f"{done.game} {done.phase}: {done.repair.describe()}; {done.notices} notice(s) queued")
    return 0


def cmd_game_audit(args: argparse.Namespace) -> int:
    from gmserver.services.features.audit import audit_game  # noqa: PLC0415

    done = audit_game(services_of(config_of(args)), args.name, utcnow(), years=args.years, notify=not args.no_mail)
    print(f"{done.game}: replayed {', '.join(done.replayed) or 'no phase'} with their stored orders")
    if not done.differences:
        print("every stored board is what the stored orders give")
        return 0
    print("DIFFERENCES (house rules 000 VIII(2), VIII(3)):")
    for text in done.differences:
        print(f"  - {text}")
    for command in done.repairs:
        print(f"  repair: {command}")
    print("the GM was sent this by mail" if done.told_gm else "no mail sent")
    return 1


def cmd_game_rollback(args: argparse.Namespace) -> int:
    from gmserver.services.features.corrections import rollback  # noqa: PLC0415

    done = rollback(services_of(config_of(args)), args.name, utcnow(), deadline=args.deadline, replay=args.replay,
                    reported=args.reported_at)
    print(f"{done.game}: the adjudication of {done.phase} was rolled back ({done.undone} undone); "
          f"{done.notices} correction notice(s) queued")
    if done.deadline is None:
        print(f"{done.phase} waits for you: correct orders with `gmserver game orders {done.game} POWER --set ...`, "
              f"check with `gmserver game preview {done.game}`, then `gmserver adjudicate {done.game}`")
    else:
        print(f"{done.phase} will be adjudicated again at {done.deadline.isoformat()}")
    return 0


def cmd_inbox_release(args: argparse.Namespace) -> int:
    from gmserver.services.features.held import release  # noqa: PLC0415

    done = release(services_of(config_of(args)), args.id, utcnow())
    print(f"message {done.inbound_id}: released; filed as {done.power}'s orders for {done.game} {done.phase} "
          "and confirmed to the sender")
    return 0


def cmd_inbox_refuse(args: argparse.Namespace) -> int:
    from gmserver.services.features.held import refuse  # noqa: PLC0415

    done = refuse(services_of(config_of(args)), args.id, utcnow(), reason=args.reason)
    print(f"message {done.inbound_id}: refused; the sender is told")
    return 0


def add_orders(game: Subcommands, command: Command) -> None:
    orders = add_registry_command(game, command)
    orders.add_argument("power", **POWER)
    orders.add_argument("--set", action="append", metavar="ORDER", help='an order, e.g. "A PAR - BUR" (repeat)')
    orders.add_argument("--file", metavar="ORDERS.txt", help="the orders, one a line")
    orders.set_defaults(func=cmd_game_orders)


def add_preview(game: Subcommands, command: Command) -> None:
    add_registry_command(game, command).set_defaults(func=cmd_game_preview)


def add_convoy(game: Subcommands, command: Command) -> None:
    convoy = add_registry_command(game, command)
    convoy.add_argument("move", metavar="MOVE", help='the army\'s move in engine notation, e.g. "A LON - BEL"')
    convoy.add_argument("ruling", choices=list(RULINGS),
                        help="fails: the convoy was disrupted; stands: the engine's result")
    convoy.set_defaults(func=cmd_game_convoy)


def add_repair(game: Subcommands, command: Command) -> None:
    repair = add_registry_command(game, command)
    repair.add_argument("power", **POWER)
    repair.add_argument("unit", nargs="?", metavar="UNIT", help='the surplus unit, e.g. "A PAR"')
    repair.add_argument("--to", metavar="LOCATION", help="000 VIII(3): the province it should have been in")
    repair.add_argument("--confirm", action="store_true", help="do it (default: only show the proposal)")
    repair.set_defaults(func=cmd_game_repair)


def add_audit(game: Subcommands, command: Command) -> None:
    audit = add_registry_command(game, command)
    audit.add_argument("--years", type=int, default=1, metavar="N",
                       help="how many game years before the current one to include (default: 1)")
    audit.add_argument("--no-mail", action="store_true", help="print only; do not mail the GM")
    audit.set_defaults(func=cmd_game_audit)


def add_rollback(game: Subcommands, command: Command) -> None:
    back = add_registry_command(game, command)
    back.add_argument("--deadline", type=moment, metavar="ISO-TIME",
                      help="adjudicate it again at this time (default: wait for `gmserver adjudicate NAME`)")
    back.add_argument("--reported-at", type=moment, metavar="ISO-TIME",
                      help="when the error was reported to you (000 VIII(1) counts its 24 hours to that)")
    back.add_argument("--replay", action="store_true",
                      help="reopen the turn for new orders from the players (no house rules allow it)")
    back.set_defaults(func=cmd_game_rollback)


def add_release(inbox: Subcommands, command: Command) -> None:
    release = add_registry_command(inbox, command)
    release.add_argument("id", **HELD_ID)
    release.set_defaults(func=cmd_inbox_release)


def add_refuse(inbox: Subcommands, command: Command) -> None:
    refuse = add_registry_command(inbox, command)
    refuse.add_argument("id", **HELD_ID)
    refuse.add_argument("--reason", metavar="TEXT", help="what to tell the sender")
    refuse.set_defaults(func=cmd_inbox_refuse)
