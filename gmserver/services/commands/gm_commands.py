"""GM commands by mail (issue 8): the command table and carrying out one GM message.

The table maps each command word to how it reads its arguments and which GM control it runs
(services/commands/gm_controls.py, the same functions as the command line). Adding a command by mail is
one entry in COMMANDS: `MailCommand(usage, run)`, where `run(session, services, game, args, by,
now)` returns a gm_controls.Done or raises GameError saying why not. Commands named in
NOT_BY_MAIL are answered with the command line that does the same.

Each message is answered once, Mailman-style: every command line with what was done or why
not, and the lines that were no command. Nothing is done for a game unless the message proves
it comes from the GM (MATRIX 2.2 `gm_command_auth`, rules/gm_commands.authorisation_problem).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Callable, Mapping

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.reports.words import plural
from gmserver.rules.gm_commands import (
    CommandLine, authorisation_problem, command_digest, date_problem, mail_date, read_commands,
)
from gmserver.rules.proxies import read_proxy_words
from gmserver.rules.reading.message import body_text
from gmserver.services.commands import correction_commands, gm_controls
from gmserver.services.features import vote_gm
from gmserver.services.base.context import Services
from gmserver.services.game.games import GameError

Run = Callable[[Session, Services, Game, tuple[str, ...], str, datetime], gm_controls.Done]


@dataclass(frozen=True)
class MailCommand:
    usage: str  # as the GM writes it, e.g. "deadline [GAME] ISO-TIME"
    run: Run


def _args(args: tuple[str, ...], count: int, usage: str) -> tuple[str, ...]:
    if len(args) != count:
        raise GameError(f"expected: {usage}")
    return args


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise GameError(f"{text!r} is not an ISO 8601 date and time, e.g. 2026-12-01T18:00+00:00") from None
    if moment.tzinfo is None:
        raise GameError(f"{text!r} needs a time zone, e.g. {text}+00:00")
    return moment


def _deadline(session, services, game, args, by, now):
    (when,) = _args(args, 1, "deadline [GAME] ISO-TIME")
    return gm_controls.set_deadline(session, services, game, _moment(when), by=by, now=now)


def _extend(session, services, game, args, by, now):
    (hours,) = _args(args, 1, "extend [GAME] HOURS")
    try:
        delta = timedelta(hours=float(hours))
    except ValueError:
        raise GameError(f"{hours!r} is not a number of hours") from None
    if game.deadline is None or delta <= timedelta(0):
        raise GameError("extend needs a positive number of hours and a game with a deadline")
    return gm_controls.set_deadline(session, services, game, game.deadline + delta, by=by, now=now)


def _plain(action: Callable[..., gm_controls.Done], usage: str) -> Run:
    def run(session, services, game, args, by, now):
        _args(args, 0, usage)
        return action(session, services, game, by=by, now=now)
    return run


def _player_change(action: Callable[..., gm_controls.Done], usage: str) -> Run:
    def run(session, services, game, args, by, now):
        power, addresses = _args(args, 2, usage)
        return action(session, services, game, power, addresses, by=by, now=now)
    return run


def _cd(session, services, game, args, by, now):
    if len(args) not in (1, 2) or (len(args) == 2 and args[1].lower() not in ("on", "off", "search")):
        raise GameError("expected: cd [GAME] POWER [on|off|search]")
    if len(args) == 2 and args[1].lower() == "search":  # 001 V(3)(ii)
        return gm_controls.civil_disorder_search(session, services, game, args[0], by=by, now=now)
    on = len(args) == 1 or args[1].lower() == "on"
    return gm_controls.civil_disorder(session, services, game, args[0], on, by=by, now=now)


PROXY = "proxy [GAME] POWER HOLDER-POWER|ADDRESS [turn|N turns] [PROVINCES] | proxy [GAME] POWER approve|cancel"


def _proxy(session, services, game, args, by, now):
    """MATRIX 2.2 proxy_policy (000 II(3): "The GM has final ruling on allowing Proxy")."""
    if len(args) == 2 and args[1].lower() in ("approve", "cancel"):
        action = gm_controls.proxy_approve if args[1].lower() == "approve" else gm_controls.proxy_cancel
        return action(session, services, game, args[0], by=by, now=now)
    if len(args) < 2:
        raise GameError(f"expected: {PROXY}")
    read = read_proxy_words(args[2:])  # 003 [19]: "turn" or a number of turns, some units only
    return gm_controls.proxy_give(session, services, game, args[0], args[1], read.for_turn, list(read.units),
                                  read.turns, by=by, now=now)


def _perpetual(session, services, game, args, by, now):
    """MATRIX 2.2 perpetual_orders (000 II(4)): "perpetual [GAME] POWER [off]"."""
    if len(args) not in (1, 2) or (len(args) == 2 and args[1].lower() not in ("on", "off")):
        raise GameError("expected: perpetual [GAME] POWER [on|off]")
    return gm_controls.perpetual_mark(session, services, game, args[0], len(args) == 1 or args[1].lower() == "on",
                                      by=by, now=now)


def _clarify(session, services, game, args, by, now):
    """000 III(1) (a): "clarify [GAME] POWER on|off"."""
    if len(args) != 2 or args[1].lower() not in ("on", "off"):
        raise GameError("expected: clarify [GAME] POWER on|off")
    return gm_controls.clarify(session, services, game, args[0], args[1].lower() == "on", by=by, now=now)


def _veto(session, services, game, args, by, now):
    (number,) = _args(args, 1, "veto [GAME] PROPOSAL")
    return vote_gm.veto(session, services, game, number, by=by, now=now)


def _propose(session, services, game, args, by, now):
    if not args:
        raise GameError(f"expected: {vote_gm.PROPOSE}")
    return vote_gm.propose_by_gm(session, services, game, " ".join(args), by=by, now=now)


def _vote(session, services, game, args, by, now):
    if len(args) not in (1, 2):
        raise GameError(f"expected: {vote_gm.VOTE}")
    return vote_gm.vote_by_gm(session, services, game, " ".join(args), by=by, now=now)


SET_USAGE = "set [GAME] gm_copies on|off, or set [GAME] sender-check verified|from"


def _set(session, services, game, args, by, now):
    name, value = _args(args, 2, SET_USAGE)
    return gm_controls.set_setting(session, services, game, name, value, by=by, now=now)


COMMANDS: Mapping[str, MailCommand] = MappingProxyType({
    "deadline": MailCommand("deadline [GAME] ISO-TIME", _deadline),
    "extend": MailCommand("extend [GAME] HOURS", _extend),
    "delay": MailCommand("delay [GAME] HOURS", _extend),
    "pause": MailCommand("pause [GAME]", _plain(gm_controls.pause, "pause [GAME]")),
    "resume": MailCommand("resume [GAME]", _plain(gm_controls.resume, "resume [GAME]")),
    "end": MailCommand("end [GAME]", _plain(gm_controls.end_game, "end [GAME]")),
    "replace": MailCommand("replace [GAME] POWER ADDRESS[,FALLBACK]",
                           _player_change(gm_controls.replace, "replace [GAME] POWER ADDRESS[,FALLBACK]")),
    "address": MailCommand("address [GAME] POWER ADDRESS[,FALLBACK]",
                           _player_change(gm_controls.change_address, "address [GAME] POWER ADDRESS[,FALLBACK]")),
    "cd": MailCommand("cd [GAME] POWER [on|off|search]", _cd),
    "set": MailCommand(SET_USAGE, _set),
    "proxy": MailCommand(PROXY, _proxy),
    "clarify": MailCommand("clarify [GAME] POWER on|off", _clarify),  # 000 III(1) (a)
    "perpetual": MailCommand("perpetual [GAME] POWER [on|off]", _perpetual),  # 000 II(4)  # MATRIX 2.2 proxy_policy (services/features/proxies.py)
    # proposal_gm_veto (000 IX(5)), gm_may_propose (003 [18] ¶1), the GM's vote (000 IX(3)): services/features/vote_gm.py
    "veto": MailCommand("veto [GAME] PROPOSAL", _veto),
    "propose": MailCommand(vote_gm.PROPOSE, _propose),
    "vote": MailCommand(vote_gm.VOTE, _vote),  # vote.rule_change.gm_must_agree (000 IX(3))
    # corrections (services/commands/correction_commands.py)
    "release": MailCommand(correction_commands.RELEASE, correction_commands.release),
    "refuse": MailCommand(correction_commands.REFUSE, correction_commands.refuse),
    "orders": MailCommand(correction_commands.ORDERS, correction_commands.orders),
    "correct": MailCommand(correction_commands.ORDERS.replace("orders", "correct", 1), correction_commands.orders),
    "preview": MailCommand(correction_commands.PREVIEW, correction_commands.show_preview),
    "rollback": MailCommand(correction_commands.ROLLBACK, correction_commands.rollback),
    "convoy": MailCommand(correction_commands.CONVOY, correction_commands.convoy),
    "repair": MailCommand(correction_commands.REPAIR, correction_commands.repair),
    "audit": MailCommand(correction_commands.AUDIT, correction_commands.audit),  # 000 VIII(2), VIII(3)
})

# commands the GM may write that are not carried out by mail yet: the command line instead
# (never a word of COMMANDS: `_one` looks here first, so a word in both would not be carried out)
NOT_BY_MAIL: Mapping[str, str] = MappingProxyType({
    "process": "gmserver adjudicate GAME",
})


@dataclass(frozen=True)
class Answer:
    results: tuple[tuple[str, bool, str], ...]  # (line, done, what was done or why not)
    ignored: tuple[str, ...]
    refused: str | None  # why nothing at all was done, if so

    @property
    def done(self) -> int:
        return sum(1 for _, ok, _ in self.results if ok)


@dataclass(frozen=True)
class CommandMail:
    """What makes a GM command mail single-use: its Date line, when it reached the GM, its row."""

    date: str | None
    received_at: datetime
    inbound_id: int | None = None


def carry_out(session: Session, services: Services, text: str, message_body: str, *, sender: str,
              subject_game: str | None, now: datetime, mail: CommandMail) -> Answer:
    """Every command of one GM message, in order, in the message's transaction."""
    read = read_commands(text, known=set(COMMANDS) | set(NOT_BY_MAIL),
                         game_names=queries.games.game_names(session), subject_game=subject_game)
    results = [_one(session, services, command, message_body, sender, now, mail) for command in read.commands]
    refused = None
    if results and all(reason.startswith(_REFUSED) for _, done, reason in results if not done) and not any(
            done for _, done, _ in results):
        refused = results[0][2].removeprefix(_REFUSED)
    return Answer(tuple(results), read.ignored, refused)


_REFUSED = "not from the GM: "


def _one(session: Session, services: Services, command: CommandLine, body: str, sender: str,
         now: datetime, mail: CommandMail) -> tuple[str, bool, str]:
    if command.game is None:
        return command.line, False, "no game named: name it in the subject or after the command"
    if command.name in NOT_BY_MAIL:
        return command.line, False, ("not carried out by mail yet; the command line does it: "
                                     + NOT_BY_MAIL[command.name].replace("GAME", command.game))
    found = queries.games.game_by_name(session, command.game)
    game = queries.games.game_for_update(session, found.id, skip_locked=False) if found else None
    if game is None:
        return command.line, False, f"no game called {command.game!r}"
    problem = authorisation_problem(queries.games.ruleset_of(game).gm_command_auth, from_gm=True, body=body,
                                    game_secret=game.gm_secret)
    if problem is not None:
        return command.line, False, _REFUSED + problem
    # a GM mail is carried out once: a copy sent again (a new Message-ID) must not extend twice
    date = mail_date(mail.date)
    if (problem := date_problem(date, mail.received_at)) is not None:
        return command.line, False, f"not carried out: {problem}"
    assert date is not None
    digest = command_digest(game.name, sender, date, command.line)
    if (earlier := queries.gm_actions.command_mail(session, digest)) is not None:
        return command.line, False, (
            f"not carried out again: the same command, in a mail with the same Date, was read on "
            f"{earlier.at:%Y-%m-%d %H:%M} UTC already, and a copy of a GM mail is never carried out twice; "
            "to do it once more, send the command in a new mail")
    queries.gm_actions.record_command_mail(session, game.id, digest, mail.inbound_id, now)
    try:
        done = COMMANDS[command.name].run(session, services, game, command.args, sender, now)
    except GameError as error:
        return command.line, False, str(error)
    told = f" ({plural(done.announced, 'player')} told)" if done.announced else ""
    return command.line, True, done.text + told


def message_body(message) -> str:
    """The whole text of the GM's message, where its password line is."""
    return body_text(message)
