"""What a game may be called (gmserver.rules.game_names)."""

from __future__ import annotations

import pytest

from gmserver.rules.game_names import name_problem


@pytest.mark.parametrize("name", ["lepanto", "Zürich", "aegean-2", "game_3", "9th", "x" * 100])
def test_names_that_are_one_word(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(("name", "said"), [
    ("", "cannot be a game name"),
    (" ", "(a space)"),
    ("two words", "(a space)"),
    ("lep\u202eanto", "(U+202E)"),
    ("lep\u200banto", "(U+200B)"),
    ("lep\tanto", "(U+0009)"),
    ("lepanto.", "('.')"),
    ("-lepanto", "starting with a letter or digit"),
    ("x" * 101, "1 to 100"),
])
def test_names_refused_say_what_is_wrong_and_what_is_accepted(name: str, said: str) -> None:
    problem = name_problem(name)
    assert problem is not None and said in problem and "letters, digits, '-' or '_'" in problem


def test_names_that_differ_only_by_case_or_compatibility_form_are_one_game() -> None:
    assert "names that differ only by case" in str(name_problem("LEPANTO", ["lepanto"]))
    assert name_problem("ｌｅｐａｎｔｏ", ["lepanto"]) is not None  # fullwidth letters
    assert name_problem("lepanto", ["lepanto"]) == "a game called 'lepanto' already exists"
    assert name_problem("lepanto2", ["lepanto"]) is None
