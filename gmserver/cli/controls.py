"""The GM's controls whose command line differs from their mail words: `gmserver game
veto|propose|vote|proxy|perpetual`, and `game actions`. Each runs the registry's command
(gmserver.commands) or the same GM control (services/commands/gm_controls.py), recorded as done
"by cli" and announced to the players; the controls whose command line is their mail words are
built from the registry alone (gmserver.cli.common.add_spec_command)."""

from __future__ import annotations

import argparse

from gmserver.cli.commands import add_arguments, add_registry_command, print_done, run_command
from gmserver.cli.common import POWER, config_of, count, services_of, utcnow
from gmserver.cli.parser import Subcommands, print_json
from gmserver.commands import perpetual, propose, veto, vote
from gmserver.commands.command import Command


def cmd_veto(args: argparse.Namespace) -> int:
    done = run_command(args, veto.COMMAND)
    print(f"{done.text}; {done.announced} player(s) told (mail queued)")
    return 0


def cmd_propose(args: argparse.Namespace) -> int:
    done = run_command(args, propose.COMMAND)
    print(f"{done.text}; {done.announced} player(s) told (mail queued)")
    return 0


def cmd_vote(args: argparse.Namespace) -> int:
    print(run_command(args, vote.COMMAND, {"words": (args.proposal, args.choice)}).text)
    return 0


def cmd_proxy(args: argparse.Namespace) -> int:
    """000 II(3), 003 [19]: give, approve or cancel a power's proxy."""
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (cli/__init__.py: imported late)
    from gmserver.services.game.games import GameError  # noqa: PLC0415

    if args.cancel:
        action, values = gm_controls.proxy_cancel, (args.power,)
    elif args.approve:
        action, values = gm_controls.proxy_approve, (args.power,)
    elif not args.holder:
        raise GameError("name the holder (a power or an address), or use --approve or --cancel")
    else:
        units = [u for u in (args.units or "").replace(",", " ").split() if u]
        action, values = gm_controls.proxy_give, (args.power, args.holder, args.turn, units, args.turns)
    return print_done(gm_controls.act(services_of(config_of(args)), args.name, action, *values, now=utcnow()))


def cmd_perpetual(args: argparse.Namespace) -> int:
    """000 II(4): keep a power's set from turn to turn, or stop."""
    return print_done(run_command(args, perpetual.COMMAND, {"power": args.power, "state": "off" if args.off else "on"}))


def cmd_actions(args: argparse.Namespace) -> int:
    from gmserver.services.commands.gm_controls import action_log  # noqa: PLC0415

    actions = action_log(services_of(config_of(args)), args.name)
    if args.json:
        print_json(actions)
    elif not actions:
        print(f"no GM actions recorded for {args.name}")
    for action in actions if not args.json else ():
        print(f"{action['at']}  {action['by']:<24} {action['action']:<9} {action['result']}")
    return 0


def add_veto(game: Subcommands, command: Command) -> None:
    parser = add_registry_command(game, command)
    add_arguments(parser, command.arguments)
    parser.set_defaults(func=cmd_veto)


def add_propose(game: Subcommands, command: Command) -> None:
    parser = add_registry_command(game, command, epilog="e.g. gmserver game propose lepanto draw Austria England")
    add_arguments(parser, command.arguments)
    parser.set_defaults(func=cmd_propose)


def add_vote(game: Subcommands, command: Command) -> None:
    parser = add_registry_command(game, command)
    parser.add_argument("proposal", metavar="PROPOSAL", help=veto.PROPOSAL.help)
    parser.add_argument("choice", choices=("yes", "no", "abstain"), help="the GM's vote")
    parser.set_defaults(func=cmd_vote)


def add_proxy(game: Subcommands, command: Command) -> None:
    proxy = add_registry_command(game, command)
    proxy.add_argument("power", **POWER)
    proxy.add_argument("holder", nargs="?", metavar="HOLDER-POWER|ADDRESS",
                       help="who sends the orders: another power of the game, or an address; "
                            "leave it out with --approve or --cancel")
    proxy.add_argument("--turn", action="store_true", help="for the current turn only")
    proxy.add_argument("--turns", type=count, metavar="N", help="for N game turns, this one counted (003 [19])")
    proxy.add_argument("--units", metavar="PROVINCES", help="only the power's units in these provinces, e.g. PAR,MAR "
                       "(003 [19]); all its units if left out")
    group = proxy.add_mutually_exclusive_group()
    group.add_argument("--approve", action="store_true", help="allow the proxy the power's player asked for")
    group.add_argument("--cancel", action="store_true", help="end the power's proxy (or refuse its request)")
    proxy.set_defaults(func=cmd_proxy)


def add_perpetual(game: Subcommands, command: Command) -> None:
    parser = add_registry_command(game, command)
    parser.add_argument("power", **POWER)
    parser.add_argument("--off", action="store_true", help="stop keeping the set")
    parser.set_defaults(func=cmd_perpetual)


def add_actions(game: Subcommands, command: Command) -> None:
    actions = add_registry_command(game, command)
    actions.add_argument("--json", action="store_true", help="print JSON")
    actions.set_defaults(func=cmd_actions)
