"""A support of another power's unit whose order may be void.

Expectations reasoned by hand from the seeds:
- A support of a move the other power's unit cannot make (Vienna does not border Piedmont; a
  fleet cannot enter Tyrolia) or of a move to its own province is void whatever that power orders:
  if it orders the impossible move, the move is void and the unit holds (DATC 4.E.1, 001 III(1),
  002 FORMAT 5, 004 I(3)) or stays unsupportable (000 III(5), 003 [10 b]); a support of a move
  fits neither. So every profile says at once that the support is void, and why; the supporting
  unit holds.
- A support to hold another power's unit: 000 III(5) ¶1 and 003 [10 b] say "a unit ordered to move
  will not be allowed to receive support to hold, irrespective of whether the unit is able to move".
  Whether Austria orders her fleet to move is not known when Italy's orders are read, so under mhr
  and scorpion the confirmation says in one sentence that the support will then be void. The
  other profiles make a void move a hold that may be supported (001 III(1), 002 FORMAT 5,
  004 I(3), DATC 4.E.1): nothing to say there.
- A support of another power's fleet to one of two coasts it could enter: see the table below.
"""

from __future__ import annotations

import pytest

from tests.unit.reading.support import PROFILES, one, opening, position, read

HOLD_CLAUSE = {"standard": "DATC 4.E.1", "mhr": "000 III(5)", "danivon": "001 III(1)",
               "email_rules": "002 FORMAT 5", "scorpion": "003 [10 b]", "gwm": "004 I(3)"}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, why", [
    ("A Ven S Austrian A Vie - Pie", "A VIE cannot reach Piedmont"),         # not adjacent, inland: no convoy
    ("A Ven S Austrian F Tri - Tyrolia", "F TRI cannot reach Tyrolia"),      # a fleet cannot go inland
    ("A Ven S Austrian F Tri - Tri", "F TRI cannot move to Trieste, where it already is"),  # DATC 6.A.5
])
def test_support_of_a_foreign_move_void_whatever_is_ordered(profile, text, why):
    """Every profile: the support is void at once, the reply says why; Venice holds under the
    profile's rule for a void order."""
    line = one(text, opening(), "italy", profile)
    assert line.status == "rejected"
    assert str(line.order) == "A VEN H"
    assert why in line.message
    assert "the support is void whatever Austria orders" in line.message
    assert HOLD_CLAUSE[profile] in line.rule


@pytest.mark.parametrize("profile, clause", [("mhr", "000 III(5)"), ("scorpion", "003 [10 b]")])
def test_hold_support_of_a_foreign_unit_says_it_is_void_if_it_moves(profile, clause):
    """000 III(5) ¶1, 003 [10 b]: the support is accepted, with the one sentence saying it will be
    void if Austria orders the fleet to move, even impossibly."""
    line = one("A Ven S Austrian F Tri", opening(), "italy", profile)
    assert line.status == "accepted"
    assert str(line.order) == "A VEN S F TRI"
    assert line.message == "If Austria orders F TRI to move, even where it cannot go, this support will be void."
    assert clause in line.rule


@pytest.mark.parametrize("profile", ["standard", "danivon", "email_rules", "gwm"])
def test_hold_support_of_a_foreign_unit_no_sentence_where_a_void_move_may_be_supported(profile):
    """DATC 4.E.1, 001 III(1), 002 FORMAT 5, 004 I(3): a void move is a hold that may be
    supported, so the support needs no warning."""
    line = one("A Ven S Austrian F Tri", opening(), "italy", profile)
    assert line.status == "accepted" and str(line.order) == "A VEN S F TRI"
    assert line.message is None


@pytest.mark.parametrize("profile", ["mhr", "scorpion"])
def test_hold_support_of_own_unit_has_no_conditional_sentence(profile):
    """The player's own unit's order is in the set: no "if ... orders" sentence; its own void move
    voids the support at once (000 III(5), 003 [10 b])."""
    reading = read("A Vie S A Bud\nA Bud - Ven", opening(), "austria", profile)
    support = reading.lines[0]
    assert support.status == "rejected"
    assert "its own order is a void move" in support.message
    assert "If " not in support.message


# A support of another power's fleet to one coast of a province it can enter by either coast (the
# Mid-Atlantic to Spain, Constantinople to Bulgaria): where a support naming another
# coast than the fleet's move is void (DATC 4.B.4; 003 [10 c] "specifying the wrong coast will result
# in a misorder"; 002 silent: coast_support_mismatch = invalid) it depends on the coast the other
# power orders, so the reply says so in one sentence; where the fleet's coast is what counts
# (000 IV(7), 001 III(9), 004 II(3)c) nothing depends on it.
COASTS = position("S1902M", france=["F MAO"], england=["F POR"], turkey=["F CON"], russia=["F RUM"])
COAST_VOID = {"standard": "DATC 4.B.4", "email_rules": "DATC 4.B.4", "scorpion": "003 [10 c]"}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("power, text, order, sentence", [
    ("england", "F Por S French F Mao - Spa/sc", "F POR S F MAO - SPA/SC",
     "If France orders F MAO to the other coast of Spain, this support will be void."),
    ("russia", "F Rum S Turkish F Con - Bul/ec", "F RUM S F CON - BUL/EC",
     "If Turkey orders F CON to the other coast of Bulgaria, this support will be void."),
])
def test_support_of_a_foreign_fleet_to_one_of_two_coasts(profile, power, text, order, sentence):
    line = one(text, COASTS, power, profile)
    assert line.status == "accepted" and str(line.order) == order
    if profile in COAST_VOID:
        assert line.message == sentence
        assert COAST_VOID[profile] in line.rule
    else:
        assert line.message is None


@pytest.mark.parametrize("profile", PROFILES)
def test_support_of_a_foreign_fleet_without_a_coast_choice_has_no_sentence(profile):
    """Constantinople to the Black Sea: one place, nothing depends on a coast."""
    line = one("F Rum S Turkish F Con - Bla", COASTS, "russia", profile)
    assert line.status == "accepted" and line.message is None
