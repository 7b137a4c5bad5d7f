"""The words of the answers to players' commands (gmserver/commands/players/) that every command
shares: HELP's list of commands, a command the game's profile does not permit, a command line
that does not fit its command.

Pure: the handler (services/inbox/handlers/players.py) and the commands pass plain values; each
`build_*` returns a gmserver.reports.requests `Answer` (templates/player/request_answer.txt.j2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gmserver.reports.requests import Answer, Section

# how a player sends any command: the same in HELP, the start mail and every refusal
HOW_TO_REPLY = ("Reply to this mail (or to any mail of this game's GM) and write the command as the first "
                "line of your message; nothing else is needed. One command per message.")


@dataclass(frozen=True)
class CommandLine:
    """One player command as HELP lists it."""

    example: str  # as a player writes it ("set zone Europe/Berlin")
    summary: str  # what it does


def command_lines(commands: Sequence[CommandLine]) -> tuple[str, ...]:
    """One line per command: its example, then what it does."""
    width = max((len(command.example) for command in commands), default=0)
    return tuple(f"{command.example.ljust(width)}  {command.summary}" for command in commands)


def build_help(*, game_name: str, power: str, subject: str, commands: Sequence[CommandLine]) -> Answer:
    """HELP: the commands this player may use in this game, each with an example line, the subject
    line for orders, and how to send a command."""
    return Answer(f"The commands you may use in {game_name} as {power.title()}.", (
        Section("Commands", command_lines(commands)),
        Section("How to send one", (HOW_TO_REPLY,)),
        Section("Your subject line for orders this turn", (subject,)),
    ))


def build_not_permitted(*, game_name: str, word: str, why: str, commands: Sequence[CommandLine]) -> Answer:
    """A command the game's profile does not permit: why (with the clause), and what is permitted."""
    return Answer(f"{word.upper()} is not open to players in {game_name}: {why} Nothing was changed.",
                  (Section("The commands you may use", command_lines(commands)),))


def build_usage_error(*, word: str, problem: str, usage: str, example: str) -> Answer:
    """A command line that does not fit its command: what was wrong and what would be read."""
    lines = [f"Write it as: {usage}"]
    if example != usage:
        lines.append(f"For example: {example}")
    lines.append(HOW_TO_REPLY)
    return Answer(f"Your {word.upper()} line was not understood: {problem} Nothing was changed.",
                  (Section("What is read", tuple(lines)),))
