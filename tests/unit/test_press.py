"""Press policy (gmserver.rules.press and 2.15): what kind a press section is, who gets
it, and whether each profile accepts it. Expected values come from the house rules' words."""

from __future__ import annotations

import dataclasses

import pytest

from gmserver.rules.press import (PressItem, Verdict, judge, power_claimed, read_item, recipients_of, report_placement,
                                  reserved_holder, shown_author, with_own_label)
from gmserver.rules.reading.message import press_sections, split_message
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.ruleset_options import ReservedLabel
from gmserver.rules.geography import POWERS


def item(heading: str, author: str = "FRANCE") -> PressItem:
    found = read_item(heading, "text", author)
    assert isinstance(found, PressItem), found
    return found


@pytest.mark.parametrize(("heading", "kind", "recipients", "signature"), [
    ("PRESS", "white", (), None),
    ("Broadcast press:", "white", (), None),
    ("press to all", "white", (), None),
    ("Press to England, Germany:", "white", ("ENGLAND", "GERMANY"), None),
    ("PRESS TO eng and ger", "white", ("ENGLAND", "GERMANY"), None),
    ("Grey press to Italy:", "grey", ("ITALY",), None),
    ("Anonymous press", "grey", (), None),
    ("press from The Oracle", "grey", (), "The Oracle"),  # a label that is no power: grey
    ("press from France", "white", (), "France"),  # the author's own power: white
    ("press from Italy", "black", (), "Italy"),  # another power's name: black
    ("black press to Russia from Turkey", "black", ("RUSSIA",), "Turkey"),
    ("dark grey press from Italy", "dark_grey", (), "Italy"),
])
def test_a_press_heading_says_kind_recipients_and_signature(heading, kind, recipients, signature) -> None:
    found = item(heading)
    assert (found.kind, found.recipients, found.signature) == (kind, recipients, signature)


def test_a_heading_naming_no_power_is_refused_in_words() -> None:
    assert read_item("press to Narnia", "hi", "FRANCE") == (
        '"Narnia" in "press to Narnia" is not one of the powers; '
        'a heading like "BLACK PRESS FROM The Pope TO England, Italy" would have been read')


@pytest.mark.parametrize(("heading", "kind", "recipients", "signature"), [
    ("BLACK PRESS FROM Italy TO England", "black", ("ENGLAND",), "Italy"),  # FROM before TO
    ("press from \"Back to the Future\" to Russia", "grey", ("RUSSIA",), "Back to the Future"),
    ("black press from The Pope", "black", (), "The Pope"),
    ("grey press from Ital y", "black", (), "Ital y"),  # grey claims no country (002 PRESS 1)
    ("press from Frankreich", "white", (), "Frankreich"),  # the author's own power, in German
])
def test_headings_with_from_first_quoted_labels_and_power_names_however_spelt(heading, kind, recipients,
                                                                              signature) -> None:
    found = item(heading)
    assert (found.kind, found.recipients, found.signature) == (kind, recipients, signature)


def test_a_heading_naming_recipients_twice_is_refused() -> None:
    assert "names its recipients twice" in read_item("press to France from Italy to England", "hi", "GERMANY")


def test_black_press_is_shown_under_the_signature_it_carries_never_the_author() -> None:
    """002 PRESS 1: black press is published like white press, under the name the author chose."""
    rules = load_ruleset("email_rules")
    assert report_placement(rules, "black", "The Pope", "FRANCE").heading == "From The Pope"
    assert report_placement(rules, "black", "ita", "FRANCE").heading == "From Italy"
    assert shown_author(item("black press from Rome"), "FRANCE") == "Rome"


def test_sections_keep_their_headings_and_orders_are_kept_apart() -> None:
    body = "A PAR - BUR\n\nPRESS TO ENGLAND:\nHello.\nEND PRESS\nGrey press\nBoo.\n"
    assert press_sections(body) == [("PRESS TO ENGLAND:", "Hello."), ("Grey press", "Boo.")]
    assert split_message(body) == ("A PAR - BUR", "Hello.\nBoo.")


def test_press_kinds_001_vii_1_white_only_refuses_grey_press_with_the_clause() -> None:
    verdict = judge(load_ruleset("danivon"), item("grey press"), "FRANCE")
    assert verdict.action == "refused"
    assert verdict.reason == ("grey (anonymous) press is not accepted in this game, only white press "
                              "(house rules 001 VII(1))")
    assert judge(load_ruleset("danivon"), item("press"), "FRANCE").action == "send"


def test_press_kinds_003_9_refuses_black_press() -> None:
    verdict = judge(load_ruleset("scorpion"), item("press from Italy"), "FRANCE")
    assert verdict.action == "refused" and "(house rules 003 [9])" in verdict.reason


def test_press_kinds_non_default_dark_grey_is_accepted_when_listed() -> None:
    ruleset = dataclasses.replace(load_ruleset("standard"), press_kinds=frozenset({"white", "dark_grey"}))
    assert judge(ruleset, item("dark grey press from Italy"), "FRANCE").action == "send"
    assert judge(ruleset, item("grey press"), "FRANCE").action == "refused"


def test_press_power_attribution_002_press_2_black_press_signed_as_a_power_is_accepted() -> None:
    ruleset = load_ruleset("email_rules")  # {white, grey, black}, players_and_eliminated
    assert judge(ruleset, item("press from Italy"), "FRANCE").action == "send"
    assert judge(ruleset, item("press from Italy"), "FRANCE", may_sign_as_players=False).action == "refused"


def test_press_power_attribution_own_power_only_refuses_another_powers_name() -> None:
    ruleset = dataclasses.replace(load_ruleset("standard"), press_kinds=frozenset({"white", "black"}))
    verdict = judge(ruleset, item("press from Italy"), "FRANCE")
    assert verdict == dataclasses.replace(verdict, action="refused")
    assert verdict.reason.startswith("press may be signed only with your own power's name")


def test_press_reserved_labels_003_9_capitals_and_country_abbreviations_are_the_players() -> None:
    ruleset = load_ruleset("scorpion")
    assert reserved_holder(ruleset, "lon") == "ENGLAND"
    refused = judge(ruleset, item("press from Lon"), "FRANCE")
    assert refused.action == "refused"
    assert refused.reason == 'the signature "Lon" is reserved for England (house rules 003 [9])'
    # England may sign with its own capital: that names its author, so it is white press
    own = with_own_label(ruleset, item("press from Lon", "ENGLAND"), "ENGLAND")
    assert own.kind == "white" and judge(ruleset, own, "ENGLAND").action == "held"  # 003 [9]: held for the GM
    assert with_own_label(ruleset, item("press from Lon"), "FRANCE").kind == "grey"
    assert judge(ruleset, item("press from GM"), "FRANCE").reason == \
        'the signature "GM" is reserved for the GM (house rules 003 [9])'


def test_press_reserved_labels_non_default_table_reserves_another_label() -> None:
    ruleset = dataclasses.replace(load_ruleset("standard"),
                                  press_reserved_labels=(ReservedLabel("Oracle", "ITALY"),))
    assert judge(ruleset, item("press from Oracle"), "FRANCE").action == "refused"
    assert judge(ruleset, item("press from Oracle", "ITALY"), "ITALY").action == "send"
    # the default table reserves "GM" and "Zurich" for the GM; this one does not
    assert judge(ruleset, item("press from Zurich"), "FRANCE").action == "send"


def test_press_moderation_003_9_insulting_press_needs_the_gm_so_all_press_is_held() -> None:
    verdict = judge(load_ruleset("scorpion"), item("press"), "FRANCE")
    assert verdict.action == "held" and verdict.reason.endswith("(house rules 003 [9])")
    assert judge(load_ruleset("mhr"), item("press"), "FRANCE").action == "send"


def test_press_before_first_turn_false_refuses_press_before_the_first_adjudication() -> None:
    ruleset = dataclasses.replace(load_ruleset("standard"), press_before_first_turn=False)
    assert judge(ruleset, item("press"), "FRANCE", game_started=False).action == "refused"
    assert judge(ruleset, item("press"), "FRANCE", game_started=True).action == "send"
    assert judge(load_ruleset("email_rules"), item("press"), "FRANCE", game_started=False).action == "send"


def test_grey_press_never_shows_its_author_003_9() -> None:
    assert shown_author(item("grey press"), "FRANCE") is None
    assert shown_author(item("press"), "FRANCE") == "France"
    assert recipients_of(item("press to England"), "FRANCE", POWERS) == ("ENGLAND",)
    assert len(recipients_of(item("press"), "FRANCE", POWERS)) == 6


def test_000_x_1_grey_press_in_an_anonymous_section_and_white_press_with_its_authors_orders() -> None:
    mhr = load_ruleset("mhr")
    assert report_placement(mhr, "grey", None, "FRANCE").placement == "anonymous"
    assert report_placement(mhr, "grey", None, "FRANCE").heading == "Anonymous"
    white = report_placement(mhr, "white", None, "FRANCE")
    assert (white.placement, white.power) == ("orders", "FRANCE")
    scorpion = load_ruleset("scorpion")
    assert report_placement(scorpion, "grey", None, "FRANCE").placement == "press"
    assert report_placement(scorpion, "white", None, "FRANCE").placement == "press"


def test_003_9_a_label_that_reads_as_another_power_is_black_press_and_refused_in_words() -> None:
    """003 [9] reserves the country names for the seven players and refuses black press: "Ital y"
    from England is black press, and the refusal says what it read."""
    verdict = judge(load_ruleset("scorpion"), item("press from Ital y", "ENGLAND"), "ENGLAND")
    assert verdict == Verdict("refused", "black press (signed with another power's name) (the signature \"Ital y\" "
                                         "reads as Italy) is not accepted in this game, only white press and grey "
                                         "(anonymous) press (house rules 003 [9])")


@pytest.mark.parametrize(("signature", "power"), [
    ("Italy", "ITALY"), ("Ital y", "ITALY"), ("Italia", "ITALY"), ("Itlay", "ITALY"), ("Itа1y", "ITALY"),
    ("The Italian", "ITALY"), ("Frankreich", "FRANCE"), ("Österreich", "AUSTRIA"), ("Prussia", "GERMANY"),
    ("Voice of Russia", "RUSSIA"), ("Ottoman Sultan", "TURKEY"),
    ("The Pope", None), ("Rome", None), ("Zurich", None), ("The Oracle", None), ("Back to the Future", None),
])
def test_002_press_2_the_power_a_signature_claims_however_spelt(signature, power) -> None:
    """002 PRESS 2: press "purporting to be from one of the seven powers" is the players' alone."""
    assert power_claimed(signature) == power
