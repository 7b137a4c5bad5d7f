"""One GM command as one value: its mail words, its place on the command line, its arguments,
its usage and the function that carries it out (in the manner of Mailman 3's email commands and
click's command tree).

Pure at import: the command's implementation (the services, SQLAlchemy) is imported by its `run`
when it runs, so that the registry costs `gmserver --help` and the mail-kind classifier nothing.
Arguments are typed specs; each adapter reads them its own way: mail words here
(`read_mail_words`), argparse in gmserver.cli.commands (`add_arguments`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from gmserver.db.models import Game
    from gmserver.services.base.context import Services
    from gmserver.services.game.actions import Done

# what an argument is: how mail words and the command line read it
#   power: a power's name; word: one word; addresses: ADDRESS[,FALLBACK]; choice: one of `choices`;
#   moment: an ISO 8601 date and time with a time zone; hours: a number of hours;
#   words: all the words left (the command reads them itself)
Kind = Literal["power", "word", "addresses", "choice", "moment", "hours", "words"]

POWER_HELP = "a power of the game, e.g. FRANCE or France"  # as gmserver.cli.common.POWER says it


class UsageError(ValueError):
    """The words of a command line do not fit its arguments; the text says what would have."""


@dataclass(frozen=True)
class Arg:
    dest: str  # the value's key (and the command line's dest)
    kind: Kind
    help: str
    metavar: str = ""  # as the usage shows it; "" shows the choices ("on|off")
    choices: tuple[str, ...] = ()
    default: str | None = None  # set: the argument may be left out
    # False: mail passes any word through and the action says what it accepts (`set`)
    mail_checks_choices: bool = True

    @property
    def shown(self) -> str:
        text = self.metavar or "|".join(self.choices)
        return f"[{text}]" if self.default is not None else text


def power(help: str = POWER_HELP) -> Arg:
    return Arg("power", "power", help, "POWER")


ADDRESSES = Arg("addresses", "addresses", "the player's address, and a fallback address after a comma if they have one",
                "ADDRESS[,FALLBACK]")


@dataclass(frozen=True)
class Call:
    """One command to carry out: in the caller's transaction, the game row locked."""

    session: Session
    services: Services
    game: Game
    values: Mapping[str, Any]  # the arguments read, by dest
    by: str  # "cli" or the GM's address
    now: datetime


Run = Callable[[Call], "Done"]


@dataclass(frozen=True)
class Command:
    name: str  # the topic the inbound row records, e.g. "delay"
    words: tuple[str, ...]  # the mail words, the first one shown in the usage; () none
    summary: str  # one line for `--help` and the GM's answers
    arguments: tuple[Arg, ...] = ()
    run: Run | None = None  # None: not carried out by mail (see `instead`)
    cli: tuple[str, ...] = ()  # its path on the command line, e.g. ("game", "deadline"); () none
    # the command line's parser is built from `arguments` and runs `run`; False: the CLI module
    # builds it (its options differ from the mail words, or it prints more)
    cli_from_spec: bool = False
    description: str | None = None  # the command line's `--help` text, when more than the summary
    usage_text: str | None = None  # when the mail words are read by `run` itself
    usage_note: str = ""  # added to "expected: USAGE" when the words do not fit
    instead: str = ""  # not by mail: the command line that does it ("gmserver adjudicate GAME")

    @property
    def usage(self) -> str:
        """As the GM writes it by mail, e.g. "deadline [GAME] ISO-TIME"."""
        if self.usage_text is not None:
            return self.usage_text
        return " ".join([self.words[0], "[GAME]", *(arg.shown for arg in self.arguments)])

    @property
    def by_mail(self) -> bool:
        return bool(self.words) and self.run is not None

    def expected(self) -> UsageError:
        return UsageError(f"expected: {self.usage}" + (f" {self.usage_note}" if self.usage_note else ""))


def read_mail_words(command: Command, words: tuple[str, ...]) -> dict[str, Any]:
    """The values of a mail command line's words (after the game), by dest; UsageError says the usage."""
    specs = command.arguments
    rest = bool(specs) and specs[-1].kind == "words"
    fixed = specs[:-1] if rest else specs
    required = sum(1 for arg in fixed if arg.default is None)
    if len(words) < required or (not rest and len(words) > len(fixed)):
        raise command.expected()
    values: dict[str, Any] = {}
    for index, arg in enumerate(fixed):
        values[arg.dest] = _mail_value(command, arg, words[index] if index < len(words) else arg.default)
    if rest:
        left = tuple(words[len(fixed):])
        if not left and specs[-1].default is None:
            raise command.expected()
        values[specs[-1].dest] = left
    return values


def _mail_value(command: Command, arg: Arg, word: str | None) -> Any:
    if word is None:
        return None
    if arg.kind == "choice" and arg.mail_checks_choices:
        if word.lower() not in arg.choices:
            raise command.expected()
        return word.lower()
    if arg.kind == "moment":
        return mail_moment(word)
    if arg.kind == "hours":
        try:
            return timedelta(hours=float(word))
        except ValueError:
            raise UsageError(f"{word!r} is not a number of hours") from None
    return word


def mail_moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{text!r} is not an ISO 8601 date and time, e.g. 2026-12-01T18:00+00:00") from None
    if moment.tzinfo is None:
        raise UsageError(f"{text!r} needs a time zone, e.g. {text}+00:00")
    return moment
