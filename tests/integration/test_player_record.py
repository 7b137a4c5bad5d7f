"""A player's record across games (gmserver.rules.record), derived from the stored facts: a turn
counts as its current adjudication has it, so a rollback takes it back and a late set the GM
releases into the reopened turn makes it a turn ordered on time, as it does for the turn itself."""

from __future__ import annotations

import pytest

from gmserver.services.commands.gm_controls import act, replace
from gmserver.services.features import corrections, held
from gmserver.services.features.records import player_record_of
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.intake_rows import game_row, send_orders
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def _counts(services, address: str) -> tuple[int, int, int]:
    record = player_record_of(services, address)
    return record.games, record.turns_on_time, record.missed


def test_a_missed_spring_is_on_the_record_of_the_address_and_its_fallback(world, clock) -> None:
    send_orders(world, clock(), "FRANCE", "A PAR - BUR", "S1901M")
    clock.advance(hours=48)
    turns.adjudicate_due(world, clock())
    assert _counts(world, player_address("FRANCE")) == (1, 1, 0)
    assert _counts(world, player_address("ENGLAND")) == (1, 0, 1)
    assert _counts(world, "England.Backup@players.test") == (1, 0, 1)  # the fallback, any case
    assert _counts(world, "stranger@players.test") == (0, 0, 0)


def test_a_rollback_takes_the_turn_back_and_the_gm_s_corrected_set_makes_it_on_time_000_VIII_1(world,
                                                                                                clock) -> None:
    """000 VIII(1): England missed Spring 1901; the GM rolls the turn back (it no longer counts
    either way), files England's set and adjudicates again: England ordered, as the turn says."""
    game_id = game_row(world).id
    turns.adjudicate(world, game_id, clock(), force=True)
    assert _counts(world, player_address("ENGLAND")) == (1, 0, 1)
    clock.advance(hours=1)
    corrections.rollback(world, "lepanto", clock())
    assert _counts(world, player_address("ENGLAND")) == (1, 0, 0)
    corrections.correct_orders(world, "lepanto", "ENGLAND", "F LON - NTH", clock())
    turns.adjudicate(world, game_id, clock(), force=True)
    assert _counts(world, player_address("ENGLAND")) == (1, 1, 0)


@pytest.mark.parametrize("released, counts", [(True, (1, 1, 0)), (False, (1, 0, 1))])
def test_a_held_set_counts_once_the_gm_releases_it_001_II_4(database_url, clock, released: bool,
                                                          counts: tuple[int, int, int]) -> None:
    """001 II(4) (hold_for_gm): France's set lacks the turn in its subject and is held for the GM.
    Released before the deadline it is France's orders for the turn, and on the record; still held
    at the deadline, the turn was missed."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="danivon")
    held_id = intake.store(services.sessions, order_mail(player_address("FRANCE"), "lepanto France", "A Par-Bur"),
                           source="smtp", now=clock()).id
    intake.process_pending(services, clock())
    if released:
        held.release(services, held_id, clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    assert _counts(services, player_address("FRANCE")) == counts


def test_two_missed_turns_and_a_replacement_a_takeover(
        database_url, clock) -> None:
    """Two missed turns are on the record of the player replaced; the replacement the GM puts in has a takeover on theirs, the one replaced a replacement."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="standard")
    for _ in range(2):
        turns.adjudicate(services, game_id, clock(), force=True)
        clock.advance(hours=1)
    act(services, "lepanto", lambda session, svc, game, *, by, now: replace(
        session, svc, game, "ENGLAND", "new@players.test", by=by, now=now), now=clock())
    clock.advance(hours=1)
    turns.adjudicate(services, game_id, clock(), force=True)
    old, new = player_record_of(services, player_address("ENGLAND")), player_record_of(services, "new@players.test")
    assert (old.missed, old.replaced, old.takeovers) == (2, 1, 0)
    assert (new.games, new.takeovers, new.replaced) == (1, 1, 0)
