"""One registry of GM commands (gmserver.commands): the mail handler, the command line and the
mail-kind classifier are all built from it, so that none of them can leave a command out."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from gmserver.cli import build_parser, chosen_group
from gmserver.commands.registry import BY_WORD, COMMANDS, MAIL_WORDS
from gmserver.commands.command import UsageError, read_mail_words
from gmserver.rules.mailkind import classify
from gmserver.services.commands import gm_commands

CLI = Path(__file__).resolve().parents[2] / "gmserver" / "cli"


def _cli_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    found = set()
    for action in parser._actions:  # the test walks the tree argparse built; the code never does
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= {(*path, name)} | _cli_paths(sub, (*path, name))
    return found


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.name)
def test_every_command_is_in_the_mail_handler_the_command_line_and_the_classifier(command) -> None:
    assert command.words and command.usage.startswith(command.words[0] + " [GAME]")
    for word in command.words:
        assert BY_WORD[word] is command
        kind = classify(subject="lepanto", order_text=f"{word} lepanto", press_text="", from_gm=True,
                        gm_commands=MAIL_WORDS)
        assert (kind.kind, kind.topic) == ("command", command.name)
        # carried out by mail, or answered with the command line that does it
        assert (word in gm_commands.mail_words()) == command.by_mail
        assert command.by_mail or command.instead.startswith("gmserver ")
    if command.cli:
        assert command.cli in _cli_paths(build_parser())


def test_the_commands_the_gm_is_told_of_are_the_registry_s() -> None:
    assert gm_commands.mail_words() == sorted(word for command in COMMANDS if command.run for word in command.words)
    assert "process" not in gm_commands.mail_words() and "audit" in gm_commands.mail_words()


def test_mail_words_are_read_by_the_command_s_argument_specs() -> None:
    """The usage the GM is told is the one the specs make; a choice is any case."""
    assert read_mail_words(BY_WORD["cd"], ("FRANCE",)) == {"power": "FRANCE", "state": "on"}
    assert read_mail_words(BY_WORD["cd"], ("FRANCE", "Search")) == {"power": "FRANCE", "state": "search"}
    with pytest.raises(UsageError, match=r"^expected: cd \[GAME\] POWER \[on\|off\|search\]$"):
        read_mail_words(BY_WORD["cd"], ("FRANCE", "maybe"))
    with pytest.raises(UsageError, match="is not a number of hours"):
        read_mail_words(BY_WORD["delay"], ("soon",))
    with pytest.raises(UsageError, match=r"^expected: rollback \[GAME\] \(it waits"):
        read_mail_words(BY_WORD["rollback"], ("now",))
    assert read_mail_words(BY_WORD["orders"], ("FRANCE", "A", "PAR", "H")) == {
        "power": "FRANCE", "orders": ("A", "PAR", "H")}
    # `set` leaves its value to the setting's own check, which takes yes and no too
    assert read_mail_words(BY_WORD["set"], ("gm_copies", "yes")) == {"setting": "gm_copies", "value": "yes"}


def test_the_command_line_uses_no_argparse_private() -> None:
    """The groups were found through argparse's private `_actions`; each group's module now builds
    its own actions, and the GM commands come from the registry."""
    sources = {path.name: path.read_text(encoding="utf-8") for path in [*CLI.glob("*.py"), *CLI.parent.glob("cli*.py")]}
    assert "__init__.py" in sources
    assert {name for name, text in sources.items()
            if any(private in text for private in ("._actions", "_SubParsersAction", "_choices_actions"))} == set()


@pytest.mark.parametrize("argv, group", [
    (["--help"], None), (["game", "show", "x"], "game"), (["--config", "game", "inbox", "list"], "inbox"),
    (["--conf", "f.toml", "-v", "orders", "read"], "orders"), (["--config=f.toml", "db", "upgrade"], "db"),
    (["-v", "--", "run"], "run"),
])
def test_the_group_is_found_before_its_parser_is_built(argv: list[str], group: str | None) -> None:
    assert chosen_group(argv) == group


def test_a_command_built_from_its_specs_has_the_arguments_mail_has() -> None:
    """`game cd`: the command line and mail read the same specs (on, off, search; on by default)."""
    args = build_parser("game").parse_args(["game", "cd", "lepanto", "FRANCE"])
    assert (args.name, args.power, args.state) == ("lepanto", "FRANCE", "on")
    with pytest.raises(SystemExit):
        build_parser("game").parse_args(["game", "cd", "lepanto", "FRANCE", "maybe"])
    assert read_mail_words(BY_WORD["cd"], ("FRANCE",)) == {"power": "FRANCE", "state": "on"}
