"""Registered absences on a real database (SQLite and PostgreSQL), applied where the schedule sets
a new turn's deadline (move_deadline, 000 VII(5)) and where missed turns are counted
(hold_without_nmr)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, GmAction
from gmserver.db.session import transaction
from gmserver.services.game.games import show_game
from gmserver.services.turn import turns
from tests.support.intake_rows import deliver
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def test_000_VII_5_an_absence_over_the_next_turn_s_deadline_moves_it_when_the_turn_opens(database_url, clock) -> None:
    """Registered before the turn: the current deadline is not covered and stands; the next
    turn's scheduled deadline falls on the last day away and moves to the day after (one day
    counted to the player's allowance, recorded as the GM's actions are)."""
    world = services_for(database_url)
    game_id = new_game(world, clock(), ruleset="mhr")  # 48-hour turns
    first = datetime_of(world)
    scheduled = first + timedelta(hours=48)  # Fall 1901's deadline by the schedule
    away = f"absence {scheduled.date() - timedelta(days=1)} to {scheduled.date()} (conference)"
    row = deliver(world, order_mail(player_address("ENGLAND"), "lepanto", away), clock())
    assert row.outcome == "absence-registered"
    assert datetime_of(world) == first

    done = turns.adjudicate(world, game_id, first + timedelta(minutes=5))
    assert done is not None and done.next_phase == "F1901M"
    assert done.deadline == scheduled + timedelta(days=1) == datetime_of(world)
    with transaction(world.sessions) as session:
        [action] = session.scalars(select(GmAction).where(GmAction.action == "absence")).all()
        assert (action.arguments["power"], action.arguments["days"], action.arguments["year"]) == ("ENGLAND", 1, 1901)


def test_hold_without_nmr_an_absent_player_s_silent_turn_is_not_counted_as_missed(database_url, clock) -> None:
    world = services_for(database_url)
    game_id = new_game(world, clock())
    with transaction(world.sessions) as session:
        game = session.get(Game, game_id)
        game.ruleset = {**game.ruleset, "absence_policy": "hold_without_nmr"}
    deadline = datetime_of(world)
    away = f"absence {clock().date()} to {deadline.date()}"
    assert deliver(world, order_mail(player_address("FRANCE"), "lepanto", away), clock()).outcome == "absence-registered"
    assert datetime_of(world) == deadline  # the deadline stands

    turns.adjudicate(world, game_id, deadline + timedelta(minutes=5))
    nmr = show_game(world.sessions, "lepanto")["nmr"]
    assert nmr["FRANCE"] == 0 and nmr["ENGLAND"] == 1


def datetime_of(world):
    with transaction(world.sessions) as session:
        return session.scalar(select(Game.deadline).where(Game.name == "lepanto"))
