"""A support to hold one of the player's own units that the same set orders to
move, validly.

Expectations reasoned by hand from the seeds and the rulebook:
- Every profile: a unit ordered to move cannot receive support to hold. 000 III(5) ¶1 "A unit
  ordered to move will not be allowed to receive support to hold, irrespective of whether the unit
  is able to move"; 003 [10 b] the same words; 002 Q&A 4 "If you are moving a unit, you cannot
  simultaneously support it to hold."; 001, 004 and the standard profile say nothing of their own,
  so the 2000 rulebook decides ("a unit ordered to move can only be supported by a support order
  that matches the move the unit is trying to make"; DATC 6.D.7). The player's own move is in the
  set, so the confirmation says at once that the support is void and why, citing the profile's
  clause, or the rulebook where the profile has none; the supporting unit holds.
- A unit ordered to hold, support or convoy, or not ordered at all, may receive support to hold
  (RB2000; DATC 6.D.4 to 6.D.6; 000 III(5) and 003 [10 b] "unordered units ... may receive support
  to hold"): nothing to say there.
"""

from __future__ import annotations

import pytest

from tests.unit.reading.support import PROFILES, opening, read

CLAUSE = {"standard": "RB2000", "mhr": "000 III(5)", "danivon": "RB2000", "email_rules": "002 Q&A 4",
          "scorpion": "003 [10 b]", "gwm": "RB2000"}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, support_line, move, hint", [
    # Vienna does not border Serbia: it could not support that move either, so no "Did you mean"
    ("A Vie S A Bud\nA Bud - Ser", 0, "A BUD - SER", ""),
    ("A Bud - Ser\nA Vie S A Bud", 1, "A BUD - SER", ""),
    # Vienna borders Galicia: the support the player probably meant is offered
    ("A Vie S A Bud\nA Bud - Gal", 0, "A BUD - GAL", " Did you mean A VIE S A BUD - GAL?"),
    # a fleet's move, supported to hold by an army (Trieste -> Adriatic; Vienna cannot reach a sea)
    ("A Vie S F Tri\nF Tri - Adr", 0, "F TRI - ADR", ""),
])
def test_hold_support_of_own_moving_unit_void_every_profile(profile, text, support_line, move, hint):
    reading = read(text, opening(), "austria", profile)
    support = reading.lines[support_line]
    moved = move.split(" - ")[0]
    assert support.status == "rejected"
    assert str(support.order) == "A VIE H"
    assert support.message == (f"{moved} cannot receive support to hold: it is ordered to move ({move}). "
                               f"The support is void; A VIE holds.{hint}")
    assert support.rule == CLAUSE[profile]
    assert move in {str(o) for o in reading.orders}  # the move itself stands
    assert "A VIE H" in {str(o) for o in reading.orders}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text", [
    "A Vie S A Bud",                      # Budapest not ordered: it holds
    "A Vie S A Bud\nA Bud H",             # ordered to hold
    "A Vie S A Bud\nA Bud S F Tri",       # ordered to support (DATC 6.D.4)
    "A Vie S A Bud\nA Bud S A Vie - Gal",  # ordered to support a move (DATC 6.D.5)
])
def test_hold_support_of_own_unit_not_moving_accepted_every_profile(profile, text):
    reading = read(text, opening(), "austria", profile)
    support = reading.lines[0]
    assert (support.status, support.message) == ("accepted", None)
    assert str(support.order).startswith("A VIE S ")
    assert " - " not in str(support.order)


def test_hold_support_void_by_a_move_implied_by_another_support_002_format_9():
    """002 FORMAT 9 (implied_orders = from_own_support): "A Mun S A Ber - Sil" implies A BER - SIL
    for the unordered army, so Kiel's support to hold it is void (002 Q&A 4)."""
    reading = read("A Mun S A Ber - Sil\nF Kie S A Ber", opening(), "germany", "email_rules")
    assert "A BER - SIL" in {str(o) for o in reading.orders}
    support = reading.lines[1]
    assert (support.status, str(support.order)) == ("rejected", "F KIE H")
    assert support.rule == "002 Q&A 4"
    assert "it is ordered to move (A BER - SIL)" in support.message


@pytest.mark.parametrize("profile", ["standard", "mhr", "danivon", "scorpion", "gwm"])
def test_no_implied_move_no_void_support(profile):
    """implied_orders = none (DATC 4.E.3, and every profile but 002): Berlin is not ordered, holds,
    and may be supported to hold."""
    reading = read("A Mun S A Ber - Sil\nF Kie S A Ber", opening(), "germany", profile)
    assert (reading.lines[1].status, str(reading.lines[1].order)) == ("accepted", "F KIE S A BER")
