"""`gmserver game deadline|pause|resume|replace|address|cd|end|set|proxy|perpetual|clarify|actions`: the GM's controls
(issue 8). Each is one call into services/commands/gm_controls.py, recorded as done "by cli" and announced
to the players; the same commands work by mail from the GM's address (services/commands/gm_commands.py)."""

from __future__ import annotations

import argparse

from gmserver.cli_common import GAME, POWER, config_of, count, moment, print_json, services_of, utcnow


def _run(args: argparse.Namespace, action_name: str, *values: object) -> int:
    from gmserver.reports.words import plural  # noqa: PLC0415
    from gmserver.services.commands import gm_controls  # noqa: PLC0415

    services = services_of(config_of(args))
    done = gm_controls.act(services, args.name, getattr(gm_controls, action_name), *values, now=utcnow())
    told = f"; {plural(done.announced, 'player')} told (mail queued)" if done.announced else ""
    print(f"{done.text}{told}")
    return 0


def cmd_deadline(args: argparse.Namespace) -> int:
    return _run(args, "set_deadline", args.deadline)


def cmd_pause(args: argparse.Namespace) -> int:
    return _run(args, "pause")


def cmd_resume(args: argparse.Namespace) -> int:
    return _run(args, "resume")


def cmd_replace(args: argparse.Namespace) -> int:
    return _run(args, "replace", args.power, args.addresses)


def cmd_address(args: argparse.Namespace) -> int:
    return _run(args, "change_address", args.power, args.addresses)


def cmd_cd(args: argparse.Namespace) -> int:
    if args.state == "search":  # 001 V(3)(ii)
        return _run(args, "civil_disorder_search", args.power)
    return _run(args, "civil_disorder", args.power, args.state == "on")


def cmd_end(args: argparse.Namespace) -> int:
    return _run(args, "end_game")


def cmd_set(args: argparse.Namespace) -> int:
    return _run(args, "set_setting", args.setting, args.value)


def cmd_veto(args: argparse.Namespace) -> int:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415
    from gmserver.services.features import vote_gm  # noqa: PLC0415

    done = gm_controls.act(services_of(config_of(args)), args.name, vote_gm.veto, args.proposal, now=utcnow())
    print(f"{done.text}; {done.announced} player(s) told (mail queued)")
    return 0


def cmd_propose(args: argparse.Namespace) -> int:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415
    from gmserver.services.features import vote_gm  # noqa: PLC0415

    done = gm_controls.act(services_of(config_of(args)), args.name, vote_gm.propose_by_gm, " ".join(args.words),
                           now=utcnow())
    print(f"{done.text}; {done.announced} player(s) told (mail queued)")
    return 0


def cmd_vote(args: argparse.Namespace) -> int:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415
    from gmserver.services.features import vote_gm  # noqa: PLC0415

    done = gm_controls.act(services_of(config_of(args)), args.name, vote_gm.vote_by_gm,
                           f"{args.proposal} {args.choice}", now=utcnow())
    print(done.text)
    return 0


def cmd_proxy(args: argparse.Namespace) -> int:
    """MATRIX 2.2 proxy_policy (000 II(3), 003 [19]): give, approve or cancel a power's proxy."""
    if args.cancel:
        return _run(args, "proxy_cancel", args.power)
    if args.approve:
        return _run(args, "proxy_approve", args.power)
    if not args.holder:
        from gmserver.services.game.games import GameError  # noqa: PLC0415

        raise GameError("name the holder (a power or an address), or use --approve or --cancel")
    units = [u for u in (args.units or "").replace(",", " ").split() if u]
    return _run(args, "proxy_give", args.power, args.holder, args.turn, units, args.turns)


def cmd_perpetual(args: argparse.Namespace) -> int:
    """MATRIX 2.2 perpetual_orders (000 II(4)): keep a power's set from turn to turn, or stop."""
    return _run(args, "perpetual_mark", args.power, not args.off)


def cmd_clarify(args: argparse.Namespace) -> int:
    """000 III(1) (a): ask about the player's invalid sets (on), or send them a receipt only (off)."""
    return _run(args, "clarify", args.power, args.state == "on")


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


def add_commands(game: argparse._SubParsersAction) -> None:
    """The GM's controls, as subcommands of `gmserver game`."""
    deadline = game.add_parser("deadline", help="set, extend or shorten the current turn's deadline",
                               description="Set the current turn's deadline. It may not be earlier than the "
                                           "house rules' minimum turn length allows (unless the game was created with "
                                           "--short-turns-for-testing); the players are told, with a deadline.ics "
                                           "that moves the event of the last report in their calendars.")
    deadline.add_argument("name", **GAME)
    deadline.add_argument("deadline", type=moment, metavar="ISO-TIME", help="e.g. 2026-12-01T18:00+00:00")
    deadline.set_defaults(func=cmd_deadline)
    for verb, func, text in (("pause", cmd_pause, "pause a game: no adjudication and no reminders until resumed"),
                             ("resume", cmd_resume, "resume a paused game (a deadline that passed meanwhile is "
                                                    "set one full turn from now)"),
                             ("end", cmd_end, "end a game where it stands; the players get the final centres")):
        parser = game.add_parser(verb, help=text)
        parser.add_argument("name", **GAME)
        parser.set_defaults(func=func)
    for verb, func, text in (("replace", cmd_replace, "a new player takes over a power (they get the start mail)"),
                             ("address", cmd_address, "change a player's address (and fallback)")):
        parser = game.add_parser(verb, help=text)
        parser.add_argument("name", **GAME)
        parser.add_argument("power", **POWER)
        parser.add_argument("addresses", metavar="ADDRESS[,FALLBACK]",
                            help="the player's address, and a fallback address after a comma if they have one")
        parser.set_defaults(func=func)
    cd = game.add_parser("cd", help="put a power in civil disorder (its units hold) or take it out; "
                         "search: civil disorder while a new player is sought for the house rules' period "
                         "(001 V(3)(ii)), permanent if nobody is found")
    cd.add_argument("name", **GAME)
    cd.add_argument("power", **POWER)
    cd.add_argument("state", choices=["on", "off", "search"], nargs="?", default="on",
                    help="on (the default), off, or search while a new player is sought")
    cd.set_defaults(func=cmd_cd)
    setting = game.add_parser("set", help="change a game setting: gm_copies on|off, sender-check verified|from",
                              description="gm_copies: a copy of every report and every refusal goes to the GM "
                                          "([gm] alert_address, else [gm] address). sender-check: verified "
                                          "(a player's mail is used only with proof that they sent it; the "
                                          "players are told) or from (the From line alone, which anyone can "
                                          "forge).")
    setting.add_argument("name", **GAME)
    setting.add_argument("setting", choices=["gm_copies", "sender-check"], help="the setting to change")
    setting.add_argument("value", choices=["on", "off", "verified", "from"],
                         help="its new value: on|off for gm_copies, verified|from for sender-check")
    setting.set_defaults(func=cmd_set)
    veto = game.add_parser("veto", help="refuse to put a proposal to the vote (000 IX(5)); its number is in "
                           "the notice the GM got when it was made")
    veto.add_argument("name", **GAME)
    veto.add_argument("proposal", metavar="PROPOSAL", help="the proposal's number, from the GM's notice")
    veto.set_defaults(func=cmd_veto)
    propose = game.add_parser("propose", help="propose a draw or a concession, where the house rules let the GM "
                              "(003 [18]): e.g. `propose NAME draw Austria England`",
                              description="The GM proposes an end of the game (or a rule change) for the players "
                                          "to vote on, where the house rules let the GM (003 [18]); the GM casts "
                                          "no vote. The forms, of the kinds the game's house rules offer: "
                                          "draw [POWERS] (all survivors if none named); concede POWER; "
                                          "end game TERMS; rule change WORDS.",
                              epilog="e.g. gmserver game propose lepanto draw Austria England")
    propose.add_argument("name", **GAME)
    propose.add_argument("words", nargs="+", metavar="FORM",
                         help="draw [POWERS] | concede POWER | end game TERMS | rule change WORDS")
    propose.set_defaults(func=cmd_propose)
    vote = game.add_parser("vote", help="the GM's vote on a proposal where the house rules make the GM an elector "
                           "(000 IX(3): a rule change needs the GM's agreement)")
    vote.add_argument("name", **GAME)
    vote.add_argument("proposal", metavar="PROPOSAL", help="the proposal's number, from the GM's notice")
    vote.add_argument("choice", choices=("yes", "no", "abstain"), help="the GM's vote")
    vote.set_defaults(func=cmd_vote)
    proxy = game.add_parser("proxy", help="let another player (or address) send a power's orders, for this turn "
                            "(--turn) or until cancelled; approve a player's request (000 II(3)) or cancel a proxy")
    proxy.add_argument("name", **GAME)
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
    perpetual = game.add_parser("perpetual", help="keep a power's order set from turn to turn (000 II(4)): at "
                                "each movement deadline where it sends nothing, the orders that still fit are used")
    perpetual.add_argument("name", **GAME)
    perpetual.add_argument("power", **POWER)
    perpetual.add_argument("--off", action="store_true", help="stop keeping the set")
    perpetual.set_defaults(func=cmd_perpetual)
    clarify = game.add_parser("clarify", help="whether the GM asks a player about their sets with lines that cannot "
                              "be used (on, the start) or sends a receipt only (off), house rules 000 III(1)(a); "
                              "`game show` says how often each player's sets had such lines")
    clarify.add_argument("name", **GAME)
    clarify.add_argument("power", **POWER)
    clarify.add_argument("state", choices=["on", "off"],
                         help="on: the player is asked about such lines; off: a receipt only")
    clarify.set_defaults(func=cmd_clarify)
    actions = game.add_parser("actions", help="list the GM actions recorded for a game")
    actions.add_argument("name", **GAME)
    actions.add_argument("--json", action="store_true", help="print JSON")
    actions.set_defaults(func=cmd_actions)
