"""The GM's commands, one module each (gmserver/commands/), collected here: what the mail handler
(gmserver.services.commands.gm_commands), the command line (gmserver.cli) and the mail-kind
classifier (gmserver.rules.mailkind, which is given `MAIL_WORDS`) are built from.

Adding a command is one module that declares `COMMAND = Command(...)` (see command.py) and one
line in `COMMANDS` below; tests/unit/test_command_registry.py checks that every adapter knows it.

The players' commands (HELP, RULES...) are one module each in gmserver/commands/players/, declaring
`COMMAND = PlayerCommand(...)` (see player_command.py), and one line in `PLAYER_COMMANDS`: the
player-command handler (services/inbox/handlers/players.py), HELP and the start mail's list, and
the classifier (given `PLAYER_WORDS`) are built from it; tests/unit/test_player_commands.py
checks that each knows every one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

from gmserver.commands import (
    actions,
    address,
    announce,
    approve,
    audit,
    cd,
    clarify,
    convoy,
    correct,
    deadline,
    delay,
    end,
    pause,
    perpetual,
    preview,
    process,
    propose,
    proxy,
    refuse,
    release,
    repair,
    replace,
    resume,
    reveal,
    rollback,
    setting,
    veto,
    vote,
)
from gmserver.commands.command import Command
from gmserver.commands.player_command import PlayerCommand
from gmserver.commands.players import (
    absence,
    confirm,
    help_list,
    house_rules,
    press_delivery,
    resign,
    roster,
    signup,
    summary,
    whatif,
    zone,
)

# in the order `gmserver game --help` lists them
COMMANDS: tuple[Command, ...] = (
    deadline.COMMAND, delay.COMMAND, pause.COMMAND, resume.COMMAND, end.COMMAND, reveal.COMMAND, replace.COMMAND, address.COMMAND,
    cd.COMMAND, setting.COMMAND,
    # proposal_gm_veto (000 IX(5)), gm_may_propose (003 [18] ¶1), the GM's vote (000 IX(3))
    veto.COMMAND, propose.COMMAND, vote.COMMAND,
    proxy.COMMAND, perpetual.COMMAND, clarify.COMMAND, actions.COMMAND,
    # corrections
    correct.COMMAND, preview.COMMAND, convoy.COMMAND, repair.COMMAND, audit.COMMAND, rollback.COMMAND,
    release.COMMAND, refuse.COMMAND,
    process.COMMAND,
    # open sign-up: an announced game, its joins
    announce.COMMAND, approve.APPROVE, approve.REFUSE,
)


AnyCommand = TypeVar("AnyCommand", Command, PlayerCommand)


def _by_word(commands: tuple[AnyCommand, ...]) -> Mapping[str, AnyCommand]:
    found: dict[str, AnyCommand] = {}
    for command in commands:
        for word in command.words:
            if word in found:
                raise ValueError(f"the mail word {word!r} names two commands: {found[word].name}, {command.name}")
            found[word] = command
    return MappingProxyType(found)


# every mail word (aliases included) -> its command
BY_WORD: Mapping[str, Command] = _by_word(COMMANDS)
# mail word -> the command's name, for gmserver.rules.mailkind.classify
MAIL_WORDS: Mapping[str, str] = MappingProxyType({word: command.name for word, command in BY_WORD.items()})


def in_group(group: str) -> tuple[Command, ...]:
    """The commands of one command-line group ("game", "inbox"), in the registry's order."""
    return tuple(command for command in COMMANDS if command.cli[:1] == (group,))


# The players' commands, in the order HELP and the start mail list them.
PLAYER_COMMANDS: tuple[PlayerCommand, ...] = (
    help_list.COMMAND, roster.COMMAND, summary.COMMAND, house_rules.COMMAND, zone.COMMAND, confirm.COMMAND,
    press_delivery.COMMAND, absence.COMMAND, whatif.COMMAND, resign.COMMAND,
    # open sign-up: from anyone, player or not (carried out by their open_run)
    *signup.COMMANDS,
)


# every player mail word ("rules", "set zone") -> its command
PLAYER_BY_WORD: Mapping[str, PlayerCommand] = _by_word(PLAYER_COMMANDS)
PLAYER_BY_NAME: Mapping[str, PlayerCommand] = MappingProxyType({command.name: command for command in PLAYER_COMMANDS})
# player mail word -> the command's name, for gmserver.rules.mailkind.classify
PLAYER_WORDS: Mapping[str, str] = MappingProxyType({word: command.name for word, command in PLAYER_BY_WORD.items()})
# the names of the commands anyone may send (open sign-up): carried out before intake decides who sent them
OPEN_COMMANDS: Mapping[str, PlayerCommand] = MappingProxyType(
    {command.name: command for command in PLAYER_COMMANDS if command.open_run is not None})
# the words also read from a subject line ("lepanto rules")
PLAYER_SUBJECT_WORDS: frozenset[str] = frozenset(
    word for word, command in PLAYER_BY_WORD.items() if command.in_subject)
