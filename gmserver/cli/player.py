"""`gmserver player show ADDR`: a player's record across the server's games, for the GM."""

from __future__ import annotations

import argparse
import dataclasses

from gmserver.cli.common import config_of, services_of
from gmserver.cli.parser import add_command, print_json


def cmd_player_show(args: argparse.Namespace) -> int:
    from gmserver.rules.record import record_lines  # noqa: PLC0415  (cli/__init__.py: imported late)
    from gmserver.services.features.records import player_record_of  # noqa: PLC0415

    record = player_record_of(services_of(config_of(args)), args.address)
    if args.json:
        print_json({**dataclasses.asdict(record), "reliability": record.reliability})
        return 0
    print(f"{record.address} on this server (as main or fallback address):")
    for line in record_lines(record):
        print(f"  {line}")
    return 0


def build(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="player_command", metavar="ACTION", required=True)
    show = add_command(actions, "show", help="a player's record across games: turns on time and missed, civil "
                       "disorders, resignations, takeovers, solos and draws")
    show.add_argument("address", metavar="ADDR", help="the player's address (their fallback address counts too)")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=cmd_player_show)
