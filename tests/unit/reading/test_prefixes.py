"""Words or a label before an order. Expected values written by hand from the seeds:

a poorly written order with one clear meaning is followed and the player told what was read
(000 III(2) mhr, 001 II(2) danivon, 002 FORMAT 2 email_rules, 003 [17] scorpion, 004 I(1) gwm,
RB2000 standard); an order for a unit that is not the player's is never used (000 III(1), 002 FORMAT 12).
"""

from __future__ import annotations

import pytest

from gmserver.rules.position import Position
from tests.unit.reading.support import PROFILES, one, opening

# (text written by Germany in Spring 1901, order read, words the reply says were skipped or None)
PREFIXED = [
    ("Germany: A Mun - Bur", "A MUN - BUR", None),       # a judge report's power label: the player's own power
    ("GERMANY:  F Kie - Den", "F KIE - DEN", None),
    ("Orders: A Mun - Bur", "A MUN - BUR", "Orders"),
    ("Retreat: A Mun - Ruh", "A MUN - RUH", "Retreat"),
    # a kind of order as a label: never a misspelt province however close (Moscow, Holland)
    ("Moves: A Mun - Bur", "A MUN - BUR", "Moves"),
    ("Holds: A Ber H", "A BER H", "Holds"),
    ("Supports: A Ber S A Mun - Kie", "A BER S A MUN - KIE", "Supports"),
    ("Hello, A Mun - Bur", "A MUN - BUR", "Hello"),  # a greeting, not a misspelt Helgoland
    ("oops, A Ber H", "A BER H", "oops"),
    ("Please: A Mun - Bur", "A MUN - BUR", "Please"),
    ("I'd like to move A Mun - Tyr", "A MUN - TYR", "I'd like to"),
]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, order, skipped", PREFIXED)
def test_words_before_an_order_are_skipped_and_said(profile, text, order, skipped):
    """000 III(2) / 001 II(2) / 002 FORMAT 2 / 003 [17] / 004 I(1): the order after a label or a few
    words is read; the reply names the words skipped."""
    line = one(text, opening(), "GERMANY", profile)
    assert str(line.order) == order
    assert line.status in ("accepted", "corrected")
    if skipped is None:
        assert line.status == "accepted"
    else:
        assert line.status == "corrected"
        assert f"The words '{skipped}' before the order were skipped." in line.message


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text", ["France: A Par - Bur", "FRANCE: F Bre - Mao", "France: A Mar - Spa"])
def test_label_of_another_power_is_never_used(profile, text):
    """000 III(1), 002 FORMAT 12: a line ordering another power's unit gives no order, and says so."""
    line = one(text, opening(), "GERMANY", profile)
    assert line.order is None
    assert line.status == "rejected"
    assert "France's, not yours" in line.message


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text", ["Hello GM,", "Hello", "Good morning GM", "Dear GM,",
                                  "I think France will attack you", "Paris is lovely in spring",
                                  "Please confirm my orders", "thanks for the game everyone"])
def test_chatter_stays_chatter(profile, text):
    """Prose with no unit in it is not an order (000 III(2): only an order with one meaning is followed)."""
    line = one(text, opening(), "GERMANY", profile)
    assert line.order is None and line.status == "ignored"
    assert line.message == "Not an order."  # never "no action follows the place name" (Hello: Helgoland)


BUILD_TURN = Position(phase="W1901A", units={"ITALY": ("A ROM",)}, centers={"ITALY": ("NAP", "ROM", "VEN")})


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, order, skipped", [
    ("oops, F Nap B", "F NAP B", "oops"),
    ("Builds: F Nap B", "F NAP B", "Builds"),
    ("Italy: Build A Ven", "A VEN B", None),
])
def test_words_before_a_build(profile, text, order, skipped):
    """The same reading in an adjustment turn (000 V, 002 ORDERS, 004 III): the build is used."""
    line = one(text, BUILD_TURN, "ITALY", profile)
    assert str(line.order) == order
    if skipped is not None:
        assert f"'{skipped}'" in line.message


@pytest.mark.parametrize("profile", PROFILES)
def test_build_labelled_for_another_power_is_refused_and_said(profile):
    """000 III(1), 002 FORMAT 12: Italy's message "France: Build A Ven" builds nothing and says why."""
    line = one("France: Build A Ven", BUILD_TURN, "ITALY", profile)
    assert line.order is None and line.status == "rejected"
    assert line.message == "This line is labelled France: orders for another power are not used (you play Italy)."


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, message", [
    ("Paris is lovely in spring", "Not an order."),
    ("The Russians are coming to Warsaw", "Not an order."),
    ("Munich.", "Not an order: no action follows the place name."),
    ("Paris", "Not an order: no action follows the place name."),
])
def test_no_action_follows_only_for_a_bare_place(profile, text, message):
    """"No action follows the place name" is said of a place written alone, not of prose."""
    line = one(text, opening(), "FRANCE", profile)
    assert line.order is None and line.message == message


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text", ["Remember when you moved A Mun - Bur last year",
                                  "Last spring I think that everyone saw A Mun - Bur"])
def test_prose_naming_an_order_is_not_an_order(profile, text):
    """Only a few words before an order, and none after it, are skipped (000 III(2): an order is
    followed when its meaning is clear; a sentence about an order is not one)."""
    assert one(text, opening(), "GERMANY", profile).order is None


RETREAT_TURN = Position(phase="S1902R", units={"GERMANY": ("A BER",)}, centers={},
                        dislodged={"GERMANY": ("A MUN",)}, retreats={"GERMANY": {"A MUN": ("BOH", "KIE")}})


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, order, skipped", [
    ("Retreat: A Mun - Boh", "A MUN R BOH", "Retreat"),
    ("Germany: A Mun R Kie", "A MUN R KIE", None),
])
def test_words_before_a_retreat(profile, text, order, skipped):
    """The same reading in a retreat turn (000 III(2) ... 004 I(1)): the retreat is used."""
    line = one(text, RETREAT_TURN, "GERMANY", profile)
    assert str(line.order) == order
    assert (line.message is None) if skipped is None else (f"'{skipped}'" in line.message)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, keyword", [
    ("TURN LENGTH 14", "TURN LENGTH"),  # 003 [23]: the start mail asks for this vote
    ("Draw Austria England YES", "DRAW"),
    ("Delay please", "DELAY"),
])
def test_a_vote_or_request_line_inside_an_order_set_says_how_it_is_sent(profile, text, keyword):
    """A vote or request is read from the first line of a message (rules/mailkind.py); written
    under orders it was called "Not an order" and the player believed they had voted."""
    line = one(text, opening(), "FRANCE", profile)
    assert line.order is None and line.status == "ignored"
    assert line.message == (f"Not an order, and not read as the {keyword} line it looks like: a vote or request "
                            f"is read only as the first line of a message of its own: reply to this mail with it as the "
                            "first line.")
