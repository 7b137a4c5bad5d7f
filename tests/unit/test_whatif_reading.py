"""WHATIF's words and lines as players write them: the command in any case, as "what if", with an
order on its own line; power names before lines or above them; lines for any power, each read for
the power whose unit it orders on the board; lines that cannot be read listed as a confirmation
lists them."""

from __future__ import annotations

import pytest

from gmserver.commands.registry import PLAYER_SUBJECT_WORDS, PLAYER_WORDS
from gmserver.rules.mailkind import classify
from gmserver.rules.order import Order
from gmserver.rules.reading.imagined import power_heading, read_imagined
from tests.unit.reading.support import geography, opening, ruleset


def kind_of(body: str):
    return classify(subject="lepanto", order_text=body, press_text="", game_names=("lepanto",),
                    player_commands=PLAYER_WORDS, subject_commands=PLAYER_SUBJECT_WORDS)


@pytest.mark.parametrize(("body", "argument"), [
    ("whatif\nA Mun - Bur", ""),
    ("WHATIF\nA Mun - Bur", ""),
    ("What if\nA Mun - Bur", ""),
    ("what-if: A Par - Bur\nA Mun - Bur", "A Par - Bur"),
    ("Whatif A Par - Bur", "A Par - Bur"),
])
def test_whatif_is_read_in_any_case_and_as_two_words(body: str, argument: str) -> None:
    found = kind_of(body)
    assert (found.kind, found.topic, found.argument) == ("request", "whatif", argument)


def test_a_question_starting_with_what_is_no_mistyped_whatif() -> None:
    """"What is the deadline?" is not answered as a WHAT IF written wrong."""
    assert kind_of("What is the deadline?").kind == "orders"


def imagine(text: str, asker: str = "FRANCE", profile: str = "standard"):
    return read_imagined(text, position=opening(), asker=asker, ruleset=ruleset(profile), geography=geography())


def test_each_line_is_read_for_the_power_whose_unit_it_orders() -> None:
    """Lower case, no power named: the board says whose unit each line orders."""
    found = imagine("a par - bur\na mun - bur\nf lon - nth")
    assert found.orders == {
        "FRANCE": (Order.parse("A PAR - BUR"),),
        "GERMANY": (Order.parse("A MUN - BUR"),),
        "ENGLAND": (Order.parse("F LON - NTH"),),
    }
    assert [line.power for line in found.lines] == ["FRANCE", "GERMANY", "ENGLAND"]
    assert found.unused() == ()


def test_power_names_before_lines_and_above_them_are_set_aside() -> None:
    found = imagine("Germany: A Mun - Bur\nAustria\nA Vie - Gal\nOrders for Turkey:\nF Ank - Bla\nthanks")
    assert found.orders == {
        "GERMANY": (Order.parse("A MUN - BUR"),),
        "AUSTRIA": (Order.parse("A VIE - GAL"),),
        "TURKEY": (Order.parse("F ANK - BLA"),),
    }
    assert [line.named for line in found.lines if line.power] == ["GERMANY", "AUSTRIA", "TURKEY"]
    assert found.unused() == ()  # the headings and the thanks are no lines to check


def test_a_line_under_another_power_s_name_is_read_for_the_unit_s_owner_and_says_so() -> None:
    [line] = imagine("Austria:\nA War - Gal").lines
    assert line.power == "RUSSIA" and line.reading.order == Order.parse("A WAR - GAL")
    assert line.reading.message == "read as Russia's, whose unit it orders, not Austria's as written"


def test_lines_that_cannot_be_read_are_listed_with_what_was_wrong() -> None:
    found = imagine("A Par - Bur\nA Xyz - Bur\nhello there")
    assert found.orders == {"FRANCE": (Order.parse("A PAR - BUR"),)}
    [unused] = found.unused()
    assert unused.power is None and unused.reading.text == "A Xyz - Bur"
    assert unused.reading.status == "rejected" and "Xyz" in str(unused.reading.message)


def test_no_order_at_all_gives_no_orders() -> None:
    assert imagine("").orders == {} and imagine("just wondering").orders == {}


@pytest.mark.parametrize(("line", "power"), [
    ("Germany", "GERMANY"), ("GERMANY:", "GERMANY"), ("German orders", "GERMANY"), ("Orders for Italy -", "ITALY"),
    ("Germany: A Mun - Bur", None), ("Germany and Austria", None), ("Hello", None),
])
def test_a_heading_is_a_power_s_name_and_nothing_else(line: str, power: str | None) -> None:
    assert power_heading(line, geography()) == power
