"""The "adjudicated" log line tells the truth: it is written after the commit, never for a turn
whose commit failed (that turn is rolled back and adjudicated again later)."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.services.turn import turns
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration


class CommitRefused(Exception):
    pass


def test_adjudicated_is_not_logged_when_the_commit_fails(database_url, clock, caplog) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), movement_hours=1)
    clock.advance(hours=2)

    def refuse_the_turn(session: Session) -> None:
        raise CommitRefused("the database went away at commit")

    event.listen(services.sessions, "before_commit", refuse_the_turn)
    caplog.set_level(logging.INFO, logger="gmserver.services.turn.turns")
    with pytest.raises(CommitRefused):
        turns.adjudicate(services, game_id, clock())
    assert not [r for r in caplog.records if "adjudicated" in r.getMessage()]

    event.remove(services.sessions, "before_commit", refuse_the_turn)
    with transaction(services.sessions) as session:  # rolled back: the phase is still due
        assert session.get(Game, game_id).phase == "S1901M"
    done = turns.adjudicate(services, game_id, clock())
    assert done is not None and done.phase == "S1901M"
    [line] = [r.getMessage() for r in caplog.records if "adjudicated" in r.getMessage()]
    assert line.startswith("lepanto: adjudicated S1901M -> F1901M")
