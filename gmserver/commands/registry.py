"""The GM's commands, one module each (gmserver/commands/), collected here: what the mail handler
(gmserver.services.commands.gm_commands), the command line (gmserver.cli) and the mail-kind
classifier (gmserver.rules.mailkind, which is given `MAIL_WORDS`) are built from.

Adding a command is one module that declares `COMMAND = Command(...)` (see command.py) and one
line in `COMMANDS` below; tests/unit/test_command_registry.py checks that every adapter knows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

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
    rollback,
    setting,
    veto,
    vote,
)
from gmserver.commands.command import Command

# in the order `gmserver game --help` lists them
COMMANDS: tuple[Command, ...] = (
    deadline.COMMAND, delay.COMMAND, pause.COMMAND, resume.COMMAND, end.COMMAND, replace.COMMAND, address.COMMAND,
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


def _by_word() -> Mapping[str, Command]:
    found: dict[str, Command] = {}
    for command in COMMANDS:
        for word in command.words:
            if word in found:
                raise ValueError(f"the mail word {word!r} names two commands: {found[word].name}, {command.name}")
            found[word] = command
    return MappingProxyType(found)


# every mail word (aliases included) -> its command
BY_WORD: Mapping[str, Command] = _by_word()
# mail word -> the command's name, for gmserver.rules.mailkind.classify
MAIL_WORDS: Mapping[str, str] = MappingProxyType({word: command.name for word, command in BY_WORD.items()})


def in_group(group: str) -> tuple[Command, ...]:
    """The commands of one command-line group ("game", "inbox"), in the registry's order."""
    return tuple(command for command in COMMANDS if command.cli[:1] == (group,))
