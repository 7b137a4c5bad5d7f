"""`gmserver orders read`: the order reader on a message, nothing stored (it loads neither the
database nor the engine: the map facts it needs are cached on disk, see `engine.engine_facts`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gmserver.cli.parser import CliError, add_command, print_json
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset


def cmd_orders_read(args: argparse.Namespace) -> int:
    from gmserver import engine  # noqa: PLC0415  (its map facts come from the cache: the engine stays unloaded)
    from gmserver.rules.mailkind import ORDER_KINDS, classify  # noqa: PLC0415
    from gmserver.rules.reading.mail import read_mail  # noqa: PLC0415
    from gmserver.rules.reading.message import read_message  # noqa: PLC0415
    from gmserver.rules.reading.model import Reading  # noqa: PLC0415
    from gmserver.rules.reading.output import reading_to_json  # noqa: PLC0415

    try:
        position = (Position.from_json(json.loads(Path(args.position).read_text(encoding="utf-8")))
                    if args.position else engine.opening_position())
    except (OSError, json.JSONDecodeError, ValueError) as error:
        raise CliError(f"--position {args.position}: {error}") from None
    previous: list[Order] = []
    if args.previous:
        try:
            data = json.loads(Path(args.previous).read_text(encoding="utf-8"))
            lines = data.get("orders", data) if isinstance(data, dict) else data
            # the reader takes Order values, read for the position's phase ("A PAR D" is a removal in Winter)
            previous = [Order.parse(str(line), position.phase_type) for line in lines]
        except (OSError, json.JSONDecodeError, TypeError, ValueError) as error:
            raise CliError(f"--previous {args.previous}: {error}") from None
    geography = engine.map_info()
    power = geography.power_words.get(args.power.strip().upper())
    if power is None:
        raise CliError(f"--power {args.power!r}: not a power of the {geography.name} map "
                       f"({', '.join(p.title() for p in geography.powers)})")
    # a whole message as stored (headers and MIME) is read as intake reads it; a bare body too:
    # its kind first (press by its subject or sections, a request, a vote), as intake classifies it
    text = read_message(sys.stdin.buffer.read())
    kind = classify(subject=text.subject, order_text=text.orders, press_text=text.press)
    if kind.kind in ORDER_KINDS:
        reading = read_mail(text, position=position, power=power, ruleset=load_ruleset(args.ruleset),
                            geography=geography, previous=previous)
    else:  # intake files no order set for it: the orders on file stand
        what = "press" if kind.kind == "press" else f"a {kind.kind}" + (f" ({kind.topic})" if kind.topic else "")
        reading = Reading(power=power, phase=position.phase, orders=tuple(previous), lines=(),
                          notes=(f"This message is {what}, not an order set: no order is read from it.",))
    print_json({"kind": kind.kind, **reading_to_json(reading)})
    return 0


def build(parser: argparse.ArgumentParser) -> None:
    orders = parser.add_subparsers(dest="orders_command", metavar="ACTION", required=True)
    read = add_command(orders, "read", help="read an order message (stdin) as the house rules say; print JSON",
                       description="Reads one order message from standard input (a whole email, headers "
                                   "and all, or just its text) for POWER, as the house rules of --ruleset "
                                   "read it, and prints the reading as JSON: each line's status and rule, "
                                   "and the order set it gives. Nothing is stored.",
                       epilog="e.g. printf 'A Par - Bur\\nF Bre - Eng\\n' | gmserver orders read --power France")
    read.add_argument("--ruleset", default="standard", help="profile name or TOML file")
    read.add_argument("--position", metavar="POSITION.json",
                      help="DATC-format position (default: the standard opening, Spring 1901)")
    read.add_argument("--power", required=True,
                      help="the power the message gives orders for (the sender's), e.g. France")
    read.add_argument("--previous", metavar="ORDERS.json", help="the order set already on file (JSON list)")
    read.set_defaults(func=cmd_orders_read)
