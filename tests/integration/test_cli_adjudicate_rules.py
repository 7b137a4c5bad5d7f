"""`gmserver adjudicate` keeps the house rules on when a turn may be adjudicated: a movement turn
never before its deadline under mhr and danivon (000 VII(2), 001 IV(2)) unless the GM forces it,
the players then told; and a missed turn's contact window (001 V(1), V(3)) is seen to before the
next turn whichever path adjudicates, so a game run from the command line alone keeps it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gmserver.rules.ruleset import load_ruleset
from tests.support.cli import player_args, run, write_config
from tests.support.intake_rows import outbox_rows, plain_text, send_orders
from tests.support.world import player_address, services_for

pytestmark = pytest.mark.integration

HOLDS = {"AUSTRIA": "A VIE H", "ENGLAND": "F LON H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
         "ITALY": "A ROM H", "RUSSIA": "A MOS H", "TURKEY": "A CON H"}


@pytest.fixture
def config(tmp_path: Path, database_url: str) -> Path:
    return write_config(tmp_path, database_url)


def _create(config: Path, ruleset: str) -> None:
    assert run(config, "game", "create", "lepanto", "--ruleset", ruleset, *player_args(player_address),
               "--sender-check", "from") == 0


def _words(row) -> str:
    return " ".join(plain_text(row).split())


@pytest.mark.parametrize("ruleset, clause", [("mhr", "000 VII(2)"), ("danivon", "001 IV(2)")])
def test_a_movement_turn_before_its_deadline_needs_force_and_the_players_are_told_000_VII_2(
        config: Path, database_url: str, capsys, ruleset: str, clause: str) -> None:
    """000 VII(2) "major turns never before the deadline", 001 IV(2): `gmserver adjudicate` of
    Spring 1901 two days early is refused, saying why and how to overrule it; with --force it is
    adjudicated and every player is told it was done before its deadline, with the rule."""
    _create(config, ruleset)
    capsys.readouterr()
    assert run(config, "adjudicate", "lepanto") == 2
    refusal = " ".join(capsys.readouterr().err.split())
    assert f"never adjudicated before its deadline ({clause})" in refusal and "--force" in refusal
    services = services_for(database_url)
    assert outbox_rows(services, "report") == []  # nothing adjudicated
    assert run(config, "adjudicate", "lepanto", "--force") == 0
    assert "adjudicated S1901M" in capsys.readouterr().out
    told = outbox_rows(services, "gm-action")
    assert sorted(row.recipient for row in told) == sorted(player_address(p) for p in HOLDS)
    text = _words(told[0])
    assert "Spring 1901 Movement adjudicated before its deadline" in text and f"({clause})" in text
    assert "The GM adjudicated Spring 1901 Movement" in text and "before its deadline" in text


def test_standard_lets_the_gm_adjudicate_before_the_deadline(config: Path, database_url: str, capsys) -> None:
    """standard: no such rule (major_turns_early = gm_may): adjudicated at once, nobody told
    beyond the turn report."""
    _create(config, "standard")
    assert run(config, "adjudicate", "lepanto") == 0
    assert outbox_rows(services_for(database_url), "gm-action") == []


def test_a_cli_game_sees_to_the_abandonment_before_the_next_turn_001_V_1_V_3(
        config: Path, database_url: str, capsys, monkeypatch) -> None:
    """001 V(1): Russia missed Spring 1901 and did not write within 24 hours of the results; the
    GM runs the game from the command line only (no daemon, so no sweep). The next `gmserver
    adjudicate` finds the position abandoned: the GM is told, and in the first game year the game
    is suspended (001 V(3)), so the Fall is not adjudicated until a new player joins."""
    _create(config, "danivon")
    services = services_for(database_url)
    now = datetime.now(UTC)
    for power in (p for p in HOLDS if p != "RUSSIA"):
        send_orders(services, now, power, HOLDS[power], "S1901M", template=load_ruleset("danivon").subject_template)
    assert run(config, "adjudicate", "lepanto", "--force") == 0
    capsys.readouterr()
    monkeypatch.setattr("gmserver.cli.daemon.utcnow", lambda: now + timedelta(hours=25))
    assert run(config, "adjudicate", "lepanto") == 2
    refusal = " ".join(capsys.readouterr().err.split())
    assert "suspended until Russia has a new player (001 V(3))" in refusal
    [alert] = outbox_rows(services, "alert")
    assert "abandoned (001 V(1))" in _words(alert) and "001 V(3)" in _words(alert)
    assert run(config, "game", "show", "lepanto") == 0
    assert "F1901M" in capsys.readouterr().out
    assert run(config, "game", "replace", "lepanto", "RUSSIA", "ivan@new.test") == 0
    assert len(outbox_rows(services, "alert")) == 1  # once
