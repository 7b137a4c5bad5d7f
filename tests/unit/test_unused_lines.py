"""services.turn.adjudication.with_unused_lines: the report says what was ordered where a line of the
set could not be used, and why (QA walkthrough, mhr). Pure: outcomes and stored line readings."""

from __future__ import annotations

from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position
from gmserver.services.turn.adjudication import with_unused_lines


def _outcome(phase: str, *orders: OrderOutcome) -> PhaseOutcome:
    position = Position(phase, {"AUSTRIA": ("A SER",)})
    return PhaseOutcome(phase, position, position, orders, {})


def test_an_illegal_retreat_turned_into_a_disband_says_what_was_ordered() -> None:
    disband = OrderOutcome("AUSTRIA", Order.parse("A SER D", "R"))
    lines = {"AUSTRIA": [{"text": "A SER - BUL", "status": "rejected", "order": "A SER D",
                          "message": "A SER cannot retreat to Bulgaria; it can go to Albania."}]}
    [marked] = with_unused_lines(_outcome("F1901R", disband), lines).orders
    assert marked.note == "ordered: A SER - BUL; not possible: A SER cannot retreat to Bulgaria; it can go to Albania"


def test_an_order_written_as_meant_gets_no_note_and_the_newest_line_decides() -> None:
    """The newest set's line for the order comes first: an accepted "A SER D" there is the
    player's own order, whatever an older set's rejected line became."""
    disband = OrderOutcome("AUSTRIA", Order.parse("A SER D", "R"))
    lines = {"AUSTRIA": [{"text": "A SER D", "status": "accepted", "order": "A SER D", "message": None},
                         {"text": "A SER - BUL", "status": "rejected", "order": "A SER D", "message": "No."}]}
    [marked] = with_unused_lines(_outcome("F1901R", disband), lines).orders
    assert marked.note is None


def test_builds_that_cannot_be_made_are_kept_for_the_builds_not_used() -> None:
    lines = {"FRANCE": [{"text": "BUILD A BEL", "status": "rejected", "order": None,
                         "message": "Belgium is not one of your home supply centres."}]}
    assert with_unused_lines(_outcome("W1901A"), lines).unused_builds == (
        ("FRANCE", "ordered: BUILD A BEL; not possible: Belgium is not one of your home supply centres"),)
    assert with_unused_lines(_outcome("F1901M"), lines).unused_builds == ()
