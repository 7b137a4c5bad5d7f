"""The record across games (gmserver.rules.record) from hand-made facts: seats, turns, endings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gmserver.rules.record import Ending, Seat, Turn, player_record, record_lines
from gmserver.rules.ruleset import load_ruleset

T0 = datetime(2026, 1, 1, tzinfo=UTC)
MHR = load_ruleset("mhr")


def _turn(game: str, index: int, phase: str, ordered: set[str], owing: set[str] | None = None) -> Turn:
    return Turn(game, phase, phase[-1], T0 + timedelta(days=index), frozenset(owing or {"FRANCE", "ENGLAND"}),
                frozenset(ordered))


def test_two_consecutive_misses_are_one_civil_disorder_000_VII_6() -> None:
    """000 VII(6) ¶2 (nmr_limit_to_cd = 2): two missed movement turns in a row put the power in
    civil disorder: one civil disorder on the record, however many turns it then misses."""
    seats = [Seat("a", "FRANCE", "fr@x.test", "fr2@x.test", None, None, "start", None)]
    turns = [_turn("a", i, phase, set()) for i, phase in enumerate(("S1901M", "F1901M", "S1902M", "F1902M"))]
    record = player_record("fr@x.test", seats, turns, [], {"a": MHR})
    assert (record.missed, record.turns_on_time, record.civil_disorders) == (4, 0, 1)
    assert player_record("FR2@x.test", seats, turns, [], {"a": MHR}).civil_disorders == 1  # the fallback


def test_a_single_miss_between_orders_is_no_civil_disorder_and_minor_turns_do_not_count_001_V_4() -> None:
    """nmr_counts_minor_turns = false (mhr): a retreat the power owed and did not send is no miss."""
    seats = [Seat("a", "FRANCE", "fr@x.test", None, None, None, "start", None)]
    turns = [_turn("a", 0, "S1901M", set()), _turn("a", 1, "F1901R", set()), _turn("a", 2, "F1901M", {"FRANCE"}),
             _turn("a", 3, "S1902M", set())]
    record = player_record("fr@x.test", seats, turns, [], {"a": MHR})
    assert (record.missed, record.turns_on_time, record.civil_disorders) == (2, 1, 0)
    assert record.reliability == 1 / 3


def test_turns_belong_to_the_seat_held_when_they_were_adjudicated_and_endings_to_the_last_holder() -> None:
    """England's first player misses S1901M and is replaced before F1901M; the new player orders
    F1901M and is there when the game ends in a draw. Another game of the first player ended in
    France's solo."""
    swap = T0 + timedelta(hours=12)
    seats = [Seat("a", "ENGLAND", "old@x.test", None, None, swap, "start", "replaced"),
             Seat("a", "ENGLAND", "new@x.test", None, swap, None, "takeover", None),
             Seat("b", "FRANCE", "old@x.test", None, None, None, "start", None)]
    turns = [_turn("a", 0, "S1901M", set()), _turn("a", 1, "F1901M", {"ENGLAND"}), _turn("b", 0, "S1901M", {"FRANCE"})]
    endings = [Ending("a", None, frozenset({"ENGLAND", "FRANCE"})), Ending("b", "FRANCE")]
    old = player_record("old@x.test", seats, turns, endings, {"a": MHR, "b": MHR})
    new = player_record("new@x.test", seats, turns, endings, {"a": MHR, "b": MHR})
    assert (old.games, old.missed, old.turns_on_time, old.replaced, old.solos, old.draws) == (2, 1, 1, 1, 1, 0)
    assert (new.games, new.missed, new.turns_on_time, new.takeovers, new.solos, new.draws) == (1, 0, 1, 1, 0, 1)
    assert "turns missed: 1 (50% on time)" in record_lines(old)
