"""A rollback undoes the missed turns its adjudication counted (000 VII(6), 000 VIII(1)): the
re-adjudication counts them again from the orders then on file."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver.db.models import Game, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.features import corrections
from gmserver.services.game.games import game_summary
from gmserver.services.turn import turns
from tests.support.intake_rows import send_orders
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.integration

HOLDS = {"AUSTRIA": "A VIE H", "ENGLAND": "F LON H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
         "ITALY": "A ROM H", "RUSSIA": "A MOS H", "TURKEY": "A CON H"}


def _hold(services, clock, powers, phase: str) -> None:
    for power in powers:
        send_orders(services, clock(), power, HOLDS[power], phase, game="mhrgame",
                    template=load_ruleset("mhr").subject_template)


def _summary(services, game_id) -> dict:
    with transaction(services.sessions) as session:
        return game_summary(session, session.get(Game, game_id))


def test_a_rolled_back_miss_is_not_counted_twice_000_VII_6(database_url, clock) -> None:
    """000 VII(6) ¶2 ("two consecutive NMR's" put the country in civil disorder): Russia's Spring
    orders reach the GM only after the adjudication, which is rolled back (000 VIII(1)) and done
    again with them. The Spring miss is undone; missing the Fall is then Russia's first miss in a
    row, not its second: no civil disorder."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="mhrgame", ruleset="mhr")
    others = [p for p in HOLDS if p != "RUSSIA"]
    _hold(services, clock, others, "S1901M")
    clock.advance(hours=49)
    [spring] = turns.adjudicate_due(services, clock())
    assert spring.phase == "S1901M" and _summary(services, game_id)["nmr"]["RUSSIA"] == 1

    clock.advance(hours=2)
    corrections.rollback(services, "mhrgame", clock())
    shown = _summary(services, game_id)
    assert (shown["nmr"]["RUSSIA"], shown["nmr_in_a_row"]["RUSSIA"]) == (0, 0)  # undone with the adjudication
    corrections.correct_orders(services, "mhrgame", "RUSSIA", "A MOS H", clock())  # the late orders, released
    turns.adjudicate(services, game_id, clock(), force=True)
    shown = _summary(services, game_id)
    assert (shown["nmr"]["RUSSIA"], shown["nmr_in_a_row"]["RUSSIA"]) == (0, 0)

    _hold(services, clock, others, "F1901M")
    clock.advance(hours=49)
    [fall] = turns.adjudicate_due(services, clock())
    assert fall.phase == "F1901M"
    shown = _summary(services, game_id)
    assert (shown["nmr"]["RUSSIA"], shown["nmr_in_a_row"]["RUSSIA"], shown["civil_disorder"]) == (1, 1, [])
    with transaction(services.sessions) as session:
        assert session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert")).all() == []


def test_a_miss_that_stands_after_a_rollback_is_counted_once_000_VII_6(database_url, clock) -> None:
    """000 VII(6): re-adjudicated with Russia still silent, the Spring miss counts once (not
    twice, not none); the second silent turn then puts Russia in civil disorder."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="mhrgame", ruleset="mhr")
    others = [p for p in HOLDS if p != "RUSSIA"]
    _hold(services, clock, others, "S1901M")
    clock.advance(hours=49)
    turns.adjudicate_due(services, clock())
    clock.advance(hours=2)
    corrections.rollback(services, "mhrgame", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    shown = _summary(services, game_id)
    assert (shown["nmr"]["RUSSIA"], shown["nmr_in_a_row"]["RUSSIA"]) == (1, 1)
    _hold(services, clock, others, "F1901M")
    clock.advance(hours=49)
    turns.adjudicate_due(services, clock())
    shown = _summary(services, game_id)
    assert (shown["nmr"]["RUSSIA"], shown["civil_disorder"]) == (2, ["RUSSIA"])
