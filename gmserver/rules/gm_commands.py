"""GM commands by mail: which lines are commands, for which game, and whether the GM may act.

Pure. The grammar mirrors the command line (`gmserver game deadline NAME ISO-TIME` is the mail
line `deadline NAME ISO-TIME`), in the manner of Mailman 3's email commands: one command per
line, its first word the command; the game's name may be left out when the subject names the
game. Lines that are not commands are listed back as ignored; a `Password:` line is the GM's
secret, never a command. Which commands exist is the services' table (services/commands/gm_commands.py):
this module only reads lines against the names it is given.

`gm_command_auth`: a GM command is carried out only from one of the GM's addresses,
and, under `gm_address_and_secret` [P], only with the game's GM secret in a password line.

A mail is carried out once: its Date must be recent when it arrives, and a command line is known
by the digest of the game, the sender, that Date, the line and the mail's text (`command_digest`), so a copy sent
again (a new Message-ID, the same mail) is refused; changing the Date makes a new mail, which
again needs the GM secret.
"""

from __future__ import annotations

import email.utils
import hashlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from gmserver.rules.authenticity import same_secret
from gmserver.rules.password_lines import is_password_line, passwords_in
from gmserver.rules.subject import name_words

MAX_COMMAND_LINES = 20  # nobody types more by hand; a longer message is not a list of commands


@dataclass(frozen=True)
class CommandLine:
    """One line read as a command: `name` is a key of the caller's table; `game` the game it is
    for (named on the line or in the subject), None if neither names one."""

    line: str
    name: str
    game: str | None
    args: tuple[str, ...]


@dataclass(frozen=True)
class ReadCommands:
    commands: tuple[CommandLine, ...]
    ignored: tuple[str, ...]  # lines that name no command (shown back to the GM)


def read_commands(text: str, *, known: Collection[str], game_names: Iterable[str],
                  subject_game: str | None) -> ReadCommands:
    """Every command line of `text`, in order. `known` are the command names; a line whose first
    word is none of them is ignored. The first argument is taken as the game when it is a game's
    name (one word, any case), else the subject's game applies."""
    games = {" ".join(name_words(name)): name for name in game_names}
    commands, ignored = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or is_password_line(stripped):
            continue
        if len(commands) + len(ignored) >= MAX_COMMAND_LINES:
            ignored.append("(the rest of the message: at most 20 lines are read)")
            break
        words = stripped.split()
        name = words[0].lower().rstrip(":")
        if name not in known:
            ignored.append(stripped)
            continue
        args = tuple(words[1:])
        game = subject_game
        if args and (named := games.get(" ".join(name_words(args[0])))) is not None:
            game, args = named, args[1:]
        commands.append(CommandLine(stripped, name, game, args))
    return ReadCommands(tuple(commands), tuple(ignored))


def authorisation_problem(rule: str, *, from_gm: bool, body: str, game_secret: str | None) -> str | None:
    """Why a GM command may not be carried out, in words (None: it may). `rule` is the game's
    `gm_command_auth`; `body` the whole text, where the password line is."""
    if not from_gm:
        return "GM commands are taken only from the GM's own addresses"
    if rule == "gm_address_only":
        return None
    # gm_address_and_secret [P]: the From line is written by the sender, so it proves nothing
    # alone; the game's GM secret must be in the message too
    if game_secret is None:
        return "this game has no GM secret yet, so no command can prove it comes from the GM"
    if any(same_secret(candidate, game_secret) for candidate in passwords_in(body)):
        return None
    return ("a GM command must carry the game's GM secret on a line 'Password: SECRET' "
            "(`gmserver game show NAME` prints it): the From address alone can be forged")


def address_change_problem(rule: str) -> str | None:
    """Why a player may not change their own address by mail (`address_change`), in
    words; None when they may (`from_known_address`, 003 [4]: the message comes from the
    registered address, which the caller has checked). `gm_only` is no profile's value: a GM's
    choice for one game, so no clause is cited."""
    if rule == "from_known_address":
        return None
    return "In this game only the GM changes a player's address: please ask the GM."


# how old a GM command mail may be when it reaches the GM (a slow relay, a laptop sending its
# queue), and how far ahead of the server's clock its Date may be (a sender's clock off)
COMMAND_MAIL_AGE = timedelta(hours=24)
COMMAND_MAIL_AHEAD = timedelta(hours=1)


def mail_date(value: str | None) -> datetime | None:
    """The Date header as an aware UTC time; None when there is none or it cannot be read."""
    try:
        moment = email.utils.parsedate_to_datetime(value) if value else None
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None or moment.tzinfo is None:  # RFC 5322 "-0000": no zone known
        return None
    return moment.astimezone(UTC)


def date_problem(date: datetime | None, received_at: datetime) -> str | None:
    """Why a GM command mail with this Date may not be carried out, in words (None: it may)."""
    if date is None:
        return ("a GM command mail must carry a readable Date line (every mail program writes one), so that "
                "a copy sent again later is known; this one had none")
    if date < received_at - COMMAND_MAIL_AGE:
        return (f"the mail is dated {date:%Y-%m-%d %H:%M} UTC, more than {COMMAND_MAIL_AGE.days * 24} hours "
                "before it arrived: an old GM mail is not carried out (it may be a copy sent again); "
                "send the command in a new mail")
    if date > received_at + COMMAND_MAIL_AHEAD:
        return (f"the mail is dated {date:%Y-%m-%d %H:%M} UTC, ahead of the server's clock: check the clock "
                "of the computer that sent it, and send the command in a new mail")
    return None


def command_digest(game: str, sender: str, date: datetime, line: str, mail_text: str = "") -> str:
    """What a re-sent copy of a GM command mail cannot change without becoming a new mail: the
    game, the sender, its Date, the command line and the mail's whole text (two mails the GM wrote
    within one second of the Date's resolution, with the same command among others, differ)."""
    text = "\n".join((game.lower(), sender.strip().lower(), date.isoformat(), " ".join(line.split()).lower(),
                      " ".join(mail_text.split())))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
