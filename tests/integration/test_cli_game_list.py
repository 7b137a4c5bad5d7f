"""`gmserver game list` among many games: filtered (--active, --ordering) and cut (--limit) in the
database, so that its cost follows what it prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import exit_status, player_args, run, write_config

pytestmark = pytest.mark.integration


@pytest.fixture
def config(tmp_path: Path, capsys) -> Path:
    """Four games: alpha and bravo running, charlie paused, delta ended."""
    path = write_config(tmp_path)
    run(path, "db", "upgrade")
    for name in ("delta", "charlie", "bravo", "alpha"):
        assert run(path, "game", "create", name, *player_args(), "--movement-hours", "72") == 0
    assert run(path, "game", "pause", "charlie") == 0
    assert run(path, "game", "end", "delta") == 0
    capsys.readouterr()
    return path


def listed(config: Path, capsys, *options: str) -> list[dict]:
    assert run(config, "game", "list", "--json", *options) == 0
    return json.loads(capsys.readouterr().out)


def test_game_list_filters_active_and_open_games(config: Path, capsys) -> None:
    assert [g["name"] for g in listed(config, capsys)] == ["alpha", "bravo", "charlie", "delta"]
    assert [g["name"] for g in listed(config, capsys, "--active")] == ["alpha", "bravo", "charlie"]
    assert [g["name"] for g in listed(config, capsys, "--ordering")] == ["alpha", "bravo"]
    assert {g["players"] for g in listed(config, capsys)} == {7}


def test_game_list_limit_says_how_many_more_there_are(config: Path, capsys) -> None:
    assert [g["name"] for g in listed(config, capsys, "--limit", "2")] == ["alpha", "bravo"]
    assert run(config, "game", "list", "--active", "--limit", "1") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("alpha ") and out[1] == "... and 2 more (--limit 3 shows them all)"


def test_game_list_refuses_a_limit_that_is_no_number_of_games(config: Path, capsys) -> None:
    assert exit_status(config, "game", "list", "--limit", "0") == 2
    assert "'0' is not a number of games: a whole number from 1, e.g. 50" in capsys.readouterr().err
