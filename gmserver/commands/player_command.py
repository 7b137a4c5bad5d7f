"""One player command as one value: its mail words, what it is for, one example line, whether the
game's profile permits it, and the function that answers it (the players' counterpart of
command.py's GM `Command`, in the manner of the judges' HELP, LIST, SUMMARY, RESIGN, SET ...).

A player's command mail comes from the player (to their own reply address, or with the game
named in the subject); the command is the first non-empty line of the text read for orders
(gmserver.rules.mailkind, given the registry's `PLAYER_WORDS`). Its answer is a notice in the
player's thread (services/inbox/handlers/players.py queues it through services/base/outgoing.py).

Pure at import, as command.py: `run` imports what it needs when it runs, so that the registry
costs `gmserver game --help` and the mail-kind classifier nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from gmserver.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from gmserver.db.models import Game, Player
    from gmserver.reports.requests import Answer
    from gmserver.rules.intake import GameView
    from gmserver.services.base.context import Services


class PlayerUsageError(ValueError):
    """The command's words do not fit it: the text says what was wrong (the answer adds the
    command's usage and example, what would have been accepted)."""


@dataclass(frozen=True)
class PlayerCall:
    """One player command to answer, in the message's transaction."""

    session: Session
    services: Services
    game: Game  # the game row (not locked: a command that changes the game locks it through its service)
    view: GameView  # the game as intake read it (subject lines, reply tokens)
    power: str  # the asking player's power
    argument: str  # the first line's words after the command's ("Europe/Berlin" after "set zone")
    sender: str  # the address the mail came from (a registered address of the power)
    now: datetime
    inbound_id: int
    # the player commands this game's profile permits, in the registry's order (what HELP lists)
    permitted: tuple[PlayerCommand, ...] = ()
    # the text read for orders after the command's line (WHATIF's orders), for a command that reads it
    lines: str = ""

    @property
    def player(self) -> Player:
        return next(player for player in self.game.players if player.power == self.power)


@dataclass(frozen=True)
class Reply:
    """What a command answers: the words (printed by the answer's template) and the inbound
    row's outcome ("rules-sent"); attachments as (file name, bytes)."""

    outcome: str
    answer: Answer
    attachments: tuple[tuple[str, bytes], ...] = ()


Run = Callable[[PlayerCall], Reply]


@dataclass(frozen=True)
class OpenCall:
    """A command anyone may send, player or not (open sign-up: JOIN, STANDBY, OBSERVE, LIST OPEN,
    RECORD...): carried out before intake decides whose power a message speaks for, in the
    message's transaction. The sender is only the From address: nothing the command does may
    rely on it before the reply to its answer proves it."""

    session: Session
    services: Services
    sender: str
    argument: str  # the first line's words after the command's ("lepanto England, France" after "join")
    now: datetime
    inbound_id: int


@dataclass(frozen=True)
class OpenReply:
    """What an open command answers; `token`: the one-time secret of the answer's Reply-To, where a
    reply to it confirms the request (None: a plain answer)."""

    outcome: str
    answer: Answer
    token: str | None = None


OpenRun = Callable[[OpenCall], OpenReply]


def open_only(call: PlayerCall) -> Reply:
    """The `run` of a command anyone may send: services/inbox/routing.py carries every such
    command out by its `open_run` before intake decides who sent it, so no player call reaches it."""
    raise AssertionError(f"an open command is carried out by its open_run, not for {call.power}")
# None: the profile permits the command; else why not, in words with the clause
Permits = Callable[[Ruleset], str | None]


def always(ruleset: Ruleset) -> str | None:
    """Every profile permits it."""
    return None


@dataclass(frozen=True)
class PlayerCommand:
    name: str  # the topic the inbound row records, e.g. "rules"
    # the mail words, the first one shown in HELP; a two-word command is one string ("set zone")
    words: tuple[str, ...]
    summary: str  # what it does, one line of HELP ("the house rules of this game, with their clauses")
    example: str  # one line as a player writes it, e.g. "set zone Europe/Berlin"
    run: Run
    permits: Permits = always
    # answered after the game has ended too (it reads the game's records, changes nothing)
    read_only: bool = False
    # also recognised as a word of the subject when the body has no keyword line ("lepanto rules")
    in_subject: bool = False
    usage_text: str = ""  # what the answer to a wrong line says is accepted; "" the example
    # anyone may send it, player or not (open sign-up): carried out by this instead of `run`
    # (services/inbox/handlers/signup.py), before intake decides whose power the message speaks for
    open_run: OpenRun | None = None
    # reads the lines after its own (WHATIF's orders): they are handed to `run`, and the answer does
    # not say that the rest of the message went unread
    reads_lines: bool = False

    @property
    def usage(self) -> str:
        return self.usage_text or self.example

    def refusal(self, ruleset: Ruleset) -> str | None:
        """Why the game's profile does not permit it, or None."""
        return self.permits(ruleset)


def permitted(commands: tuple[PlayerCommand, ...], ruleset: Ruleset) -> tuple[PlayerCommand, ...]:
    """The commands of `commands` the game's profile permits, in their order (what HELP and the
    start mail list)."""
    return tuple(command for command in commands if command.refusal(ruleset) is None)
