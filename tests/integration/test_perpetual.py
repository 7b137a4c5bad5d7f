"""Perpetual order sets on both databases (perpetual_orders; 000 II(4)): the GM keeps
France's set; at the next movement deadline France sends nothing and the orders that still fit
the board are used, the report says so, and it ends when France sends orders."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gmserver.db.models import GmAction, Game, OutboxMessage, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.commands import gm_controls
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from gmserver.services.game.games import GameError, show_game
from gmserver.services.base.outbox import message_bytes
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def send(services, phase: str, body: str, now) -> str | None:
    subject = format_subject(template="mhr", game_name="lepanto", power="FRANCE", phase=phase, purpose="orders")
    row_id = intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, body), source="smtp",
                          now=now).id
    return intake.process_one(services, row_id, now)


def record(services, phase: str) -> PhaseRecord:
    with transaction(services.sessions) as session:
        row = session.scalar(select(PhaseRecord).where(PhaseRecord.phase == phase))
        session.expunge(row)
        return row


def perpetual_of_france(services):
    with transaction(services.sessions) as session:
        game = session.scalar(select(Game).where(Game.name == "lepanto"))
        return next(p.perpetual for p in game.players if p.power == "FRANCE")


@pytest.fixture
def services(database_url, clock):
    services = services_for(database_url)
    new_game(services, clock(), ruleset="mhr")  # game id 1
    return services


def test_000_II_4_a_kept_set_stands_in_for_a_missed_turn_with_the_orders_that_still_fit(services, clock) -> None:
    assert send(services, "S1901M", "A PAR H\nA MAR - SPA\nF BRE - MAO", clock()) == "accepted"
    done = gm_controls.act(services, "lepanto", gm_controls.perpetual_mark, "FRANCE", now=clock())
    assert done.announced == 1  # France's player alone
    assert sorted(done.text.split(": ", 1)[1].split("; ")) == ["A MAR - SPA", "A PAR H", "F BRE - MAO"]
    assert turns.adjudicate(services, 1, clock(), force=True).next_phase == "F1901M"
    # Fall 1901: France sends nothing. A MAR is in SPA and F BRE in MAO now: only "A PAR H" fits
    assert turns.adjudicate(services, 1, clock(), force=True) is not None
    fall = record(services, "F1901M")
    assert fall.orders["FRANCE"] == ["A PAR H"]
    [kept] = [r for r in fall.results if r["power"] == "FRANCE" and r["order"] == "A PAR H"]
    assert kept["note"] == "from the standing orders the GM kept for this power (house rules 000 II(4))" and not kept["defaulted"]
    with transaction(services.sessions) as session:
        reports = [" ".join(message_bytes(row).decode(errors="replace").split()) for row in session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "report"))]
    assert any("standing orders the GM kept" in text for text in reports)
    assert perpetual_of_france(services) is not None  # France sent nothing: still kept
    shown = show_game(services.sessions, "lepanto")["players"]["FRANCE"]
    assert sorted(shown["perpetual"]) == ["A MAR - SPA", "A PAR H", "F BRE - MAO"]


def test_000_II_4_the_kept_set_ends_when_the_player_sends_orders_or_the_gm_turns_it_off(services, clock) -> None:
    send(services, "S1901M", "A PAR H", clock())
    gm_controls.act(services, "lepanto", gm_controls.perpetual_mark, "FRANCE", now=clock())
    turns.adjudicate(services, 1, clock(), force=True)
    assert send(services, "F1901M", "A PAR - BUR", clock()) == "accepted"
    turns.adjudicate(services, 1, clock(), force=True)
    assert perpetual_of_france(services) is None
    with pytest.raises(GameError, match="no perpetual order set"):
        gm_controls.act(services, "lepanto", gm_controls.perpetual_mark, "FRANCE", False, now=clock())
    with transaction(services.sessions) as session:
        assert [a.action for a in session.scalars(select(GmAction))] == ["perpetual"]


def test_perpetual_orders_forbidden_no_set_is_kept_where_the_house_rules_say_nothing(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="lepanto", ruleset="scorpion")
    with pytest.raises(GameError, match="never kept from turn to turn"):
        gm_controls.act(services, "lepanto", gm_controls.perpetual_mark, "FRANCE", now=clock())
