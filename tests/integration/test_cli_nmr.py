"""`gmserver game show` lists missed turns and civil disorder."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from gmserver.services.game.games import POWERS
from tests.support.cli import player_args, run, write_config

pytestmark = pytest.mark.integration


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path)


def test_game_show_lists_nmr_counts_and_civil_disorder(config: Path, capsys) -> None:
    """standard (nmr_limit_to_cd 2, cd_mode permanent): nobody orders in Spring or Fall 1901,
    so after two adjudications every power has missed two turns and is in civil disorder."""
    players = player_args()
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *players) == 0
    assert run(config, "adjudicate", "lepanto") == 0
    capsys.readouterr()
    assert run(config, "game", "show", "lepanto", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["nmr"] == dict.fromkeys(POWERS, 1) and shown["civil_disorder"] == []
    assert run(config, "game", "show", "lepanto") == 0
    austria = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("AUSTRIA"))
    assert austria.endswith("no orders yet, 1 missed turn (1 in a row)")  # one turn, not "1 missed turns"
    assert run(config, "adjudicate", "lepanto") == 0
    capsys.readouterr()
    assert run(config, "game", "show", "lepanto", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["nmr"] == dict.fromkeys(POWERS, 2) and shown["civil_disorder"] == sorted(POWERS)
    assert run(config, "game", "show", "lepanto") == 0
    out = capsys.readouterr().out
    austria = next(line for line in out.splitlines() if line.strip().startswith("AUSTRIA"))
    assert "in civil disorder, 2 missed turns (2 in a row)" in austria


def test_game_show_lists_the_players_replaced(config: Path, capsys) -> None:
    players = player_args()
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", *players) == 0
    assert run(config, "adjudicate", "lepanto") == 0
    assert run(config, "game", "replace", "lepanto", "RUSSIA", "ivan@new.test") == 0
    capsys.readouterr()
    assert run(config, "game", "show", "lepanto") == 0
    out = capsys.readouterr().out
    former = next(line for line in out.splitlines() if "formerly" in line)
    assert "RUSSIA" in former and "russia@players.test" in former and former.endswith(", 1 missed turn")
    assert run(config, "game", "show", "lepanto", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["nmr"]["RUSSIA"] == 0 and shown["former_players"][0]["missed_turns"] == 1


def test_game_show_says_a_scorpion_game_waits_for_new_players_003_14(config: Path, capsys) -> None:
    """003 [14]: nobody ordered in Spring 1901; the deadline passes; the sweep's adjudication
    leaves the game waiting, and game show says for whom."""
    from gmserver.config import load_config  # noqa: PLC0415
    from gmserver.daemon import build_services  # noqa: PLC0415
    from gmserver.services.turn import turns  # noqa: PLC0415

    players = player_args()
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "darkside", "--ruleset", "scorpion", *players) == 0
    services = build_services(load_config(config))
    # the first deadline is at most a few weeks away (003 [23]: turns of one to three weeks)
    assert turns.adjudicate_due(services, datetime.now(timezone.utc) + timedelta(days=60)) == []
    capsys.readouterr()
    assert run(config, "game", "show", "darkside") == 0
    out = capsys.readouterr().out
    assert "waiting for new players for " + ", ".join(sorted(POWERS)) in out
    assert "gmserver game replace darkside POWER ADDRESS" in out
