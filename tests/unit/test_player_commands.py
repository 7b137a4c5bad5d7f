"""One registry of player commands (gmserver.commands.registry.PLAYER_COMMANDS): the classifier,
the request handler and HELP are built from it, so that none of them can leave a command out."""

from __future__ import annotations

import pytest

from gmserver.commands.player_command import permitted
from gmserver.commands.registry import PLAYER_BY_NAME, PLAYER_BY_WORD, PLAYER_COMMANDS, PLAYER_SUBJECT_WORDS, PLAYER_WORDS
from gmserver.rules.mailkind import KEYWORDS, PHRASES, classify
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.inbox.handlers import requests


def _kind(subject: str, body: str):
    return classify(subject=subject, order_text=body, press_text="", game_names=["lepanto"],
                    player_commands=PLAYER_WORDS, subject_commands=PLAYER_SUBJECT_WORDS)


@pytest.mark.parametrize("command", PLAYER_COMMANDS, ids=lambda command: command.name)
def test_every_player_command_is_read_from_its_words_in_any_case_with_extra_words(command) -> None:
    assert command.words and command.example and command.summary
    for word in command.words:
        assert PLAYER_BY_WORD[word] is command
        for line in (word, word.upper(), word.title(), f"{word.upper()}: please"):
            kind = _kind("lepanto", line)
            assert (kind.kind, kind.topic) == ("request", command.name), line
        assert _kind("lepanto", f"{word}\nthanks").more_text
    # the example a player is shown is read as the command
    assert (_kind("lepanto", command.example).kind, _kind("lepanto", command.example).topic) == ("request", command.name)
    assert PLAYER_BY_NAME[command.name] is command
    assert (command.name in requests.READ_ONLY) == command.read_only


@pytest.mark.parametrize("word", sorted(PLAYER_SUBJECT_WORDS))
def test_a_subject_word_is_read_when_the_body_names_no_command(word: str) -> None:
    kind = _kind(f"Re: lepanto {word}", "")
    assert (kind.kind, kind.topic) == ("request", PLAYER_WORDS[word])


def test_no_player_word_is_also_a_vote_or_request_keyword() -> None:
    """A word names one thing: the classifier would otherwise read it as whichever it tries first."""
    assert not set(PLAYER_WORDS) & set(KEYWORDS)
    assert not {" ".join(phrase) for phrase in PHRASES} & set(PLAYER_WORDS)


def test_the_argument_is_the_rest_of_the_line_after_the_command_s_words() -> None:
    assert _kind("lepanto", "Rules: may I proxy?").argument == "may I proxy?"


def test_every_profile_permits_what_it_does_not_refuse() -> None:
    for name in ("standard", "mhr", "danivon", "email_rules", "scorpion", "gwm"):
        ruleset = load_ruleset(name)
        assert {c.name for c in permitted(PLAYER_COMMANDS, ruleset)} == {
            c.name for c in PLAYER_COMMANDS if c.refusal(ruleset) is None}
