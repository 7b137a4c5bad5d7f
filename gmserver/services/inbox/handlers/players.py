"""A player's command (gmserver/commands/players/, one module each, listed in the registry's
`PLAYER_COMMANDS`): intake accepted the message for a power and the classifier read the command's
words as the first line. The command is carried out if the game's profile permits it, and answered
in words by reply, in the player's thread, through the outbox and under the notice limit
(handlers/notice.py, which composes it in services/base/outgoing.py).

A command the profile does not permit, and a line that does not fit its command
(`PlayerUsageError`), are answered too: what was wrong, and what would have been accepted.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from gmserver.commands.player_command import PlayerCall, PlayerUsageError, Reply, permitted
from gmserver.commands.registry import PLAYER_BY_NAME, PLAYER_COMMANDS
from gmserver.db.models import Game
from gmserver.db.queries.games import ruleset_of
from gmserver.reports.players import CommandLine, build_help, build_not_permitted, build_usage_error
from gmserver.reports.requests import Answer
from gmserver.rules.intake import GameView, expected_subject
from gmserver.rules.ruleset import Ruleset
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail


def help_lines(ruleset: Ruleset) -> tuple[CommandLine, ...]:
    """HELP's list: each permitted command's example and what it does."""
    return tuple(CommandLine(command.example, command.summary) for command in permitted(PLAYER_COMMANDS, ruleset))


def help_answer(session: Session, game: GameView, power: str, *, why: str = "") -> Answer:
    """HELP's words for `power` in `game`; `why` first, when HELP answers a mail that asked for
    nothing (it named no game and no command)."""
    ruleset = ruleset_of(session.get(Game, game.id))
    answer = build_help(game_name=game.name, power=power, subject=expected_subject(game, power),
                        commands=help_lines(ruleset))
    return Answer(f"{why} {answer.title}", answer.sections) if why else answer


def handle(mail: Mail) -> str:
    """Carry out the command the classifier named (mail.kind.topic); the inbound row's outcome."""
    assert mail.decision is not None, "a player command comes from a power"
    command = PLAYER_BY_NAME[mail.kind.topic or ""]
    game = mail.session.get(Game, mail.decision.game.id)
    assert game is not None
    ruleset = ruleset_of(game)
    if (why := command.refusal(ruleset)) is not None:
        return _send(mail, Reply("command-not-permitted", build_not_permitted(
            game_name=game.name, word=command.words[0], why=why, commands=help_lines(ruleset))))
    call = PlayerCall(mail.session, mail.services, game, mail.decision.game, mail.decision.power, mail.kind.argument,
                      mail.envelope.sender, mail.now, mail.row.id, permitted(PLAYER_COMMANDS, ruleset),
                      lines=_after_first_line(mail.order_text) if command.reads_lines else "")
    try:
        reply = command.run(call)
    except PlayerUsageError as problem:
        reply = Reply("command-not-understood", build_usage_error(
            word=command.words[0], problem=str(problem), usage=command.usage, example=command.example))
    return _send(mail, reply, all_read=command.reads_lines)


def _after_first_line(text: str) -> str:
    """The text after its first non-empty line (the command's)."""
    return text.lstrip().partition("\n")[2]


def _send(mail: Mail, reply: Reply, *, all_read: bool = False) -> str:
    answer: Answer = reply.answer
    context = {"title": answer.title, "sections": answer.sections, **({"more_text": False} if all_read else {})}
    notice.answer(mail, answer.template, context, reply.attachments)
    return reply.outcome
