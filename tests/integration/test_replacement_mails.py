"""A replacement through the GM's `replace` command: the former player is told, in words, that
the power has a new player; the new player's start mail shows the position they take over."""

from __future__ import annotations

import pytest

from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.rules.position import Position
from gmserver.services.base.outbox import message_bytes
from gmserver.services.commands import gm_controls
from tests.support.intake_rows import outbox_rows, plain_text
from tests.support.world import new_game, player_address, services_for

pytestmark = pytest.mark.integration

WINTER = Position.from_json({
    "phase": "W1901A",
    "units": {"FRANCE": ["A BUR", "A SPA", "F MAO"], "GERMANY": ["A MUN", "F KIE"], "ITALY": ["A VEN"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR", "SPA"], "GERMANY": ["BER", "KIE", "MUN"], "ITALY": ["ROM", "VEN"]}})


def _replace(services, clock, game_id: int, power: str, address: str) -> None:
    with transaction(services.sessions) as session:
        gm_controls.replace(session, services, session.get(Game, game_id), power, address, by="cli", now=clock())


def _words(row) -> str:
    return " ".join(plain_text(row).split())


def test_the_former_player_is_told_once_that_the_power_has_a_new_player(database_url, clock) -> None:
    """Replaced, the former player heard nothing, and their later mail was dropped unanswered
    (they are a stranger to the game now): they get one mail that says so, in words."""
    services = services_for(database_url)
    game_id = new_game(services, clock())
    _replace(services, clock, game_id, "FRANCE", "marie@new.test")
    former = [row for row in outbox_rows(services) if row.recipient == player_address("FRANCE")]
    assert len(former) == 1
    text = _words(former[0])
    assert "France has a new player" in text and "you no longer play France in lepanto" in text
    assert "marie@new.test" not in text  # the new player's address is for the players of the game
    assert "gm+" not in message_bytes(former[0]).decode()  # no reply address: it plays no power any more
    # the others hear who plays France now; the new player gets the start mail
    others = [row for row in outbox_rows(services, "gm-action") if row.recipient != player_address("FRANCE")]
    assert len(others) == 6 and all("marie@new.test" in _words(row) for row in others)


def test_a_replacement_s_start_mail_shows_the_position_with_the_adjustment_due(database_url, clock) -> None:
    """The new player takes over mid-game: the start mail gives the units, the centres and what
    is due this turn (here France builds one), as the MAP answer does."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), position=WINTER)
    _replace(services, clock, game_id, "FRANCE", "marie@new.test")
    [start] = [row for row in outbox_rows(services, "start") if row.recipient == "marie@new.test"]
    text = _words(start)
    assert "THE POSITION (Winter 1901 Adjustments)" in text
    assert "Units (3): A Burgundy (BUR), F Mid-Atlantic Ocean (MAO), A Spain (SPA)" in text
    assert "Centres (4): Brest (BRE), Marseilles (MAR), Paris (PAR), Spain (SPA)" in text
    assert "Adjustment due: 1 build" in text
    assert text.index("France Units (3)") < text.index("Germany Units (2)")  # your own power first
