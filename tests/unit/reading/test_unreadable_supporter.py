"""A support or convoy whose own unit cannot be read is never read as the supported unit's order.

Before the fix, "A Zz S A Ser - Rum" (and "Please support A Ser - Rum")
skipped the words before the second unit as a prefix and filed A SER - RUM, a move the player never
ordered. Reasoned from the seeds: no profile reads an order the player did not write (000 III(1)
"orders will be interpreted as written"; 001 II(1) presumes valid orders, not other ones; 002 FORMAT
12; 003 [10]; 004 I(3)); the words after a support word name what is supported. So in every profile
nothing on such a line is used, and the reply says the supporting unit could not be read (a name of
three letters or fewer is taken as a fragment of a unit's province and refused as no province). A
label before a whole support ("Support: A Mun S A Ber - Kie") is still only a label.
"""

from __future__ import annotations

import pytest

from tests.unit.reading.support import PROFILES, position, read

POS = position("S1902M", austria=["A BUD", "A SER", "F TRI"], england=["F NTH", "A LON"],
               germany=["A MUN", "A BER"])


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("power, text, what, who", [
    ("austria", "A Zzzz S A Ser - Rum", "support", "'A Zzzz' is not a unit of yours I can read"),
    ("austria", "Axxx supports A Ser - Rum", "support", "'Axxx' is not a unit of yours I can read"),
    ("austria", "Please support A Ser - Rum", "support", "it names no unit of yours to give it"),
    ("austria", "support A Ser", "support", "it names no unit of yours to give it"),
    ("england", "F Zzzz C A Lon - Bel", "convoy", "'F Zzzz' is not a unit of yours I can read"),
])
def test_support_without_a_readable_unit_is_not_the_supported_order(profile, power, text, what, who):
    reading = read(text, POS, power, profile)
    (line,) = reading.lines
    assert (line.status, line.order) == ("rejected", None)
    assert line.message == (f"This looks like a {what}, but {who}, so nothing on this line was used. "
                            "Write the unit first, e.g. 'A Mun S A Ber - Kie'.")
    assert reading.orders == ()
    # no unit of the player's is named: void as an order for a unit not there (002 FORMAT 12; the
    # others are silent, void_and_report)
    assert line.rule == ("002 FORMAT 12" if profile == "email_rules" else "orders_for_missing_units = void_and_report")


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text", ["Support: A Mun S A Ber - Kie", "Support A Mun S A Ber - Kie"])
def test_a_label_before_a_whole_support_is_still_a_label(profile, text):
    (line,) = read(text, POS, "germany", profile).lines
    assert str(line.order) == "A MUN S A BER - KIE"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("power, text", [("austria", "A Zz S A Ser - Rum"), ("england", "F Zz C A Lon - Bel")])
def test_short_unreadable_unit_is_no_province(profile, power, text):
    """Three letters or fewer are read as a fragment of a unit's province (units._fragment_unit);
    "Zz" starts none of the player's units and no province: no order, and the reply says so."""
    reading = read(text, POS, power, profile)
    (line,) = reading.lines
    assert (line.status, line.order, reading.orders) == ("rejected", None, ())
    assert line.message.startswith("'Zz' is not a province I know.")


HOW_TO_WRITE = ("This looks like an order but I cannot read it: write the unit, then the order, e.g. 'A Par - Bur', "
                "'F Nth C A Lon - Bel', 'A Mun S A Ber - Kie'.")


@pytest.mark.parametrize("profile, rule, accepted", [
    ("mhr", "000 III(2)", "Any abbreviation or typing error is accepted as long as the order can mean one thing only."),
    ("danivon", "001 II(2)", "Any abbreviation or typing error is accepted as long as the order can mean one thing "
                             "only."),
    ("email_rules", "002 FORMAT 2", "Any format is accepted, and the standard one is preferred: "
                                    "'F Eng S German F Nth -> Bel'."),
    ("scorpion", "003 [15]", "An order that can mean one thing only is accepted however badly it is written."),
    ("gwm", "004 I(1)", "The standard abbreviations are preferred, and any abbreviation that fits one province only "
                        "is accepted."),
    ("standard", None, None),  # the rulebook has no clause on how orders are written: nothing is cited
])
def test_an_order_like_line_that_cannot_be_read_names_what_the_rules_accept(profile, rule, accepted):
    """QA: "This looks like an order but I cannot read it" cited no rule; where the profile has a
    clause for what it accepts (000 III(2), 001 II(2), 002 FORMAT 2, 003 [15], 004 I(1)),
    the refusal says it in words and cites it."""
    (line,) = read("Army to Burgundy", POS, "austria", profile).lines
    assert (line.status, line.order, line.rule) == ("rejected", None, rule)
    assert line.message == (f"{HOW_TO_WRITE} {accepted}" if accepted else HOW_TO_WRITE)


@pytest.mark.parametrize("power, text, said", [
    ("austria", "A Bud S", "The supported unit is not a unit I can read."),
    ("england", "F Nth C", "The convoyed army is not a unit I can read."),
])
def test_the_reader_says_I_not_i(power, text, said):
    """Found with the QA walkthrough's wording: the sentence was capitalised with str.capitalize,
    which wrote "a unit i can read"."""
    (line,) = read(text, POS, power).lines
    assert line.message.startswith(said)
