"""The confirmation a player reads (gmserver.reports.replies.build_confirmation, rendered from
templates/player/confirmation.txt.j2), from real readings: a clean set in a few lines, the
greeting, heading, comment, sign-off and signature lines counted in one line, every line the
player must see still listed, reasons that fit the line, the player's own words quoted."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import Confirmation, build_confirmation, chatter_summary
from gmserver.reports.words import excerpt
from gmserver.rules.order import Order
from gmserver.rules.reading.text import quoted_exactly
from tests.unit.reading.support import PROFILES, geography, opening, read

DEADLINE = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
COMPOSER = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")
CLEAN = "Hi Garry,\nOrders for Russia:\nF Sev - Bla\nA Mos - Ukr\nA War - Gal\nF Stp/sc - Bot\n\nCheers,\nIvan\n"


def confirm(text: str, power: str, profile: str = "standard", *, timezone: str = "UTC",
            previous: tuple[Order, ...] = ()) -> tuple[Confirmation, str]:
    reading = read(text, opening(), power, profile, previous=previous)
    confirmation = build_confirmation(
        game_name="lepanto", power=power, phase="S1901M", deadline=DEADLINE, readings=reading.lines,
        orders_on_file=reading.orders, version=2 if previous else 1, geography=geography(),
        units=opening().units[power], notes=reading.notes, timezone=timezone)
    return confirmation, COMPOSER.render(confirmation.template, confirmation)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_clean_set_of_four_orders_is_confirmed_in_at_most_15_lines(profile: str) -> None:
    confirmation, body = confirm(CLEAN, "RUSSIA", profile)
    assert confirmation.clean and confirmation.to_check == ()
    lines = body.rstrip("\n").split("\n")
    assert len(lines) <= 15, body
    assert "Your orders were received and read as written. On file (set version 1):" in lines
    for order in ("F Sevastopol -> Black Sea (F SEV - BLA)", "A Moscow -> Ukraine (A MOS - UKR)",
                  "A Warsaw -> Galicia (A WAR - GAL)",
                  "F St Petersburg (south coast) -> Gulf of Bothnia (F STP/SC - BOT)"):
        assert f"  {order}" in lines
    # the greeting, the heading, the sign-off and the name below it: one line, none listed
    assert "4 lines of greeting, heading and signature not read as orders." in lines
    assert "ignored" not in body and "line 1" not in body
    assert "Deadline: Saturday 28 November 2026, 18:00 UTC" in lines
    assert "To change them, reply to this mail with a corrected set before the deadline." in lines


def test_in_a_game_kept_in_another_time_zone_the_deadline_adds_its_utc_line_only() -> None:
    _, body = confirm("A Par - Bur\nF Bre - Mao\nA Mar - Spa", "FRANCE", timezone="Europe/Paris")
    assert len(body.rstrip("\n").split("\n")) <= 14, body
    assert "          Saturday 28 November 2026, 18:00 UTC\n" in body


def test_every_line_the_player_must_see_is_still_listed_000_III_2() -> None:
    """A line not used (000 III(2): only an order with one meaning is followed), a place with no
    action and prose naming a place are listed with their reasons; the greeting is counted."""
    confirmation, body = confirm("Hello GM,\nA Par - Bur\nF Bre - Spa\nMarseilles\nParis is lovely in spring",
                                 "FRANCE", "mhr")
    assert not confirmation.clean and confirmation.problems
    assert [line.text for line in confirmation.to_check] == ["F Bre - Spa", "Marseilles", "Paris is lovely in spring"]
    assert "LINES TO CHECK" in body and "ORDERS ON FILE FOR FRANCE (version 1)" in body
    flat = " ".join(body.split())
    assert "line 4: Marseilles ignored: Not an order: no action follows the place name." in flat
    assert "line 5: Paris is lovely in spring ignored: Not an order." in flat
    assert "1 line of greeting not read as an order." in flat
    assert "reply to this mail with a corrected set before the deadline" in flat


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, kind", [
    ("Orders for Russia:", "heading"), ("Orders for Spring 1901:", "heading"), ("Spring 1901", "heading"),
    ("Moves:", "heading"), ("Unit Order To", "heading"), ("Hello Anna,", "greeting"), ("Dear GM,", "greeting"),
    ("Best regards,", "sign-off"), ("Sending again in case it got lost, I had no confirmation.", "comment"),
    ("Ivan", None), ("Paris is lovely in spring", None), ("Kiel Berlin", None),
])
def test_no_action_follows_the_place_name_only_for_a_line_that_starts_with_one(profile: str, text: str,
                                                                               kind: str | None) -> None:
    """A heading, a greeting, a sign-off or a first name is no place missing its action ("Spring"
    and "Moves" are one typo from Spain and Moscow): it gets "Not an order." and, but for a name
    or prose that names a place, is counted with the others of its kind."""
    line = read(f"{text}\nA Mos - Ukr", opening(), "RUSSIA", profile).lines[0]
    assert line.status == "ignored" and line.order is None
    assert "no action follows" not in (line.message or "")
    assert line.chatter == kind


@pytest.mark.parametrize("text", ["Paris", "Munich.", "Vienna,"])
def test_a_place_alone_is_still_said_to_lack_its_action(text: str) -> None:
    line = read(f"{text}\nA Par - Bur", opening(), "FRANCE").lines[0]
    assert line.message == "Not an order: no action follows the place name." and line.chatter is None


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("text, quoted", [
    ("Oops, A Par - Bur", "'Oops'"), ("I'd like to move A Mun - Tyr", "'I'd like to'"),
    ("HOLDS: A Par H", "'HOLDS'"),
])
def test_the_words_skipped_are_quoted_as_written_000_III_2(profile: str, text: str, quoted: str) -> None:
    """000 III(2), 001 II(2), 002 FORMAT 2, 003 [15], 004 I(1): the order after a few words is
    followed, and the reply quotes those words as the player wrote them, not as read."""
    power = "GERMANY" if "Mun" in text else "FRANCE"
    line = read(text, opening(), power, profile).lines[0]
    assert f"The words {quoted} before the order were skipped." in line.message


def test_a_quotation_not_found_as_written_is_left_as_it_is() -> None:
    assert quoted_exactly("The words 'ss' were ignored.", "A Par - Bur Straße") == "The words 'ss' were ignored."
    assert quoted_exactly("The words 'please now' were ignored.", "A Par H, Please... NOW") == \
        "The words 'Please... NOW' were ignored."


def test_excerpts_are_cut_between_words_and_quote_the_line_as_written() -> None:
    text = "Could you please move my fleet in Naples to the Ionian Sea rather than Apulia"
    cut = excerpt(text, 40)
    assert cut == "Could you please move my fleet in..." and len(cut) <= 40
    assert text.startswith(cut.removesuffix("..."))
    assert excerpt("A Par - Bur", 40) == "A Par - Bur"
    _, body = confirm(f"{text} xyz qqq\nA Par - Bur", "ITALY")
    assert "line 1: Could you please move my fleet in Naples to the Ionian...\n" in body


def test_none_was_used_is_never_said_above_orders_on_file_000_III_4() -> None:
    """000 III(4) (mhr merges a set unit by unit): a message from which no order is read leaves the
    orders on file, and the reply says that they stand, not that none was used."""
    on_file = (Order.parse("A PAR - BUR"), Order.parse("F BRE - MAO"))
    confirmation, body = confirm("F Bre - Spa", "FRANCE", "mhr", previous=on_file)
    assert confirmation.read_none and confirmation.orders
    flat = " ".join(body.split())
    assert "none was used" not in flat
    assert "No order could be read from your message as written; the orders on file are below." in flat
    assert flat.index("are below.") < flat.index("A Paris -> Burgundy (A PAR - BUR)")
    _, nothing_on_file = confirm("Xyz Abc - Qqq", "FRANCE", "mhr")
    assert "No order could be read from your message, so none was used." in nothing_on_file


@pytest.mark.parametrize("kinds, said", [
    ((), ""),
    (("greeting",), "1 line of greeting not read as an order."),
    (("signature", "greeting", "signature", "signature"), "4 lines of greeting and signature not read as orders."),
    (("sign-off", "heading", "comment", "greeting"),
     "4 lines of greeting, heading, comment and sign-off not read as orders."),
])
def test_the_chatter_is_said_in_one_line(kinds: tuple[str, ...], said: str) -> None:
    assert chatter_summary(kinds) == said
