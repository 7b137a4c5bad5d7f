"""GM commands by mail: carrying out one GM message.

The commands are the registry's (gmserver.commands.registry, one module each): a line's first word names
the command, its other words are read by the command's argument specs, and the command's `run`
returns a Done or raises GameError (or UsageError) saying why not. A command that is not carried
out by mail is answered with the command line that does the same.

Each message is answered once, Mailman-style: every command line with what was done or why
not, and the lines that were no command. Nothing is done for a game unless the message proves
it comes from the GM (`gm_command_auth`, rules/gm_commands.authorisation_problem).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.commands.command import Call, UsageError, read_mail_words
from gmserver.commands.registry import BY_WORD
from gmserver.db import queries
from gmserver.reports.words import plural
from gmserver.rules.gm_commands import (
    CommandLine,
    authorisation_problem,
    command_digest,
    date_problem,
    mail_date,
    read_commands,
)
from gmserver.rules.reading.message import body_text
from gmserver.services.base.context import Services
from gmserver.services.game.games import GameError


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
    read = read_commands(text, known=set(BY_WORD),
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
    spec = BY_WORD[command.name]
    if spec.run is None:
        return command.line, False, ("not carried out by mail yet; the command line does it: "
                                     + spec.instead.replace("GAME", command.game))
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
    digest = command_digest(game.name, sender, date, command.line, body)
    if (earlier := queries.gm_actions.command_mail(session, digest)) is not None:
        return command.line, False, (
            f"not carried out again: the same command, in a mail with the same Date, was read on "
            f"{earlier.at:%Y-%m-%d %H:%M} UTC already, and a copy of a GM mail is never carried out twice; "
            "to do it once more, send the command in a new mail")
    queries.gm_actions.record_command_mail(session, game.id, digest, mail.inbound_id, now)
    try:
        done = spec.run(Call(session, services, game, read_mail_words(spec, command.args), sender, now))
    except (GameError, UsageError) as error:
        return command.line, False, str(error)
    told = f" ({plural(done.announced, 'player')} told)" if done.announced else ""
    return command.line, True, done.text + told


def mail_words() -> list[str]:
    """The words that name a command carried out by mail, as the GM's answers list them."""
    return sorted(word for word, command in BY_WORD.items() if command.by_mail)


def message_body(message) -> str:
    """The whole text of the GM's message, where its password line is."""
    return body_text(message)
