"""The kinds of mail a careful human GM reads, read whole (headers and MIME) by `read_mail`, the
path intake and `gmserver orders read` share: tests/data/clients/classes (hand-written messages
and expectations) and the rules behind each kind, clause by clause where a house rule decides."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gmserver.rules.mailkind import classify
from gmserver.rules.position import Position
from gmserver.rules.reading.elsewhere import belongs_elsewhere
from gmserver.rules.reading.mail import read_mail
from gmserver.rules.reading.message import html_to_text, read_message
from tests.unit.reading.support import PROFILES, geography, opening, read, ruleset

CLASSES = Path(__file__).resolve().parents[2] / "data" / "clients" / "classes"
EXPECTED = {name: case for name, case in json.loads((CLASSES / "expected.json").read_text()).items()
            if name.endswith(".eml")}
ORDER_MAILS = sorted(name for name, case in EXPECTED.items() if case["orders"] is not None)


def read_file(name: str, profile: str = "standard", **options):
    rules = dataclasses.replace(ruleset(profile), **options) if options else ruleset(profile)
    return read_mail((CLASSES / name).read_bytes(), position=opening(), power=EXPECTED[name]["power"],
                     ruleset=rules, geography=geography())


def said(reading) -> str:
    return " ".join([*reading.notes, *(line.message or "" for line in reading.lines)])


@pytest.mark.parametrize("name", ORDER_MAILS)
def test_each_class_message_gives_its_hand_written_orders_and_says_why(name: str) -> None:
    reading = read_file(name)
    assert sorted(map(str, reading.set_orders)) == sorted(EXPECTED[name]["orders"])
    for words in EXPECTED[name]["answer_says"]:
        if "reply to this mail" not in words:  # the template's words, not the reader's
            assert words in said(reading)
    # nothing is refused as a broken order; only what the rules refuse (a name in another language)
    assert [line.text for line in reading.lines if line.status == "rejected"] == EXPECTED[name].get("refused", [])


def test_the_german_names_are_read_where_the_profile_reads_them() -> None:
    """province_languages [P] = ["de"]: the same whole message, München read as Munich."""
    reading = read_file("thunderbird_german_names.eml", province_languages=frozenset({"de"}))
    assert sorted(map(str, reading.set_orders)) == ["A BER - KIE", "A MUN - RUH", "F KIE - HOL"]
    assert not [line for line in reading.lines if line.status == "rejected"]


def test_a_press_subject_makes_a_press_mail_whatever_its_words() -> None:
    """"lepanto: Germany press for Spring 1901 (S1901M)": the order subject with "press" where
    "orders" stands; "Munich holds" in it is never read as an order."""
    raw = (CLASSES / "gmail_press_subject.eml").read_bytes()
    text = read_message(raw)
    assert classify(subject=text.subject, order_text=text.orders, press_text="", game_names=["lepanto"]).kind == "press"


@pytest.mark.parametrize("profile", PROFILES)
def test_text_attachments_true_reads_orders_txt_after_the_text(profile: str) -> None:
    """text_attachments [P]: under true the attached orders.txt is read, and the answer says so."""
    reading = read_file("thunderbird_orders_txt_attachment.eml", profile, text_attachments=True)
    assert sorted(map(str, reading.set_orders)) == ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"]
    assert 'The attached file "orders.txt" was read for orders' in said(reading)


def test_an_attached_file_that_is_not_text_is_named_never_passed_over() -> None:
    raw = (b"From: Tarik Turkey <turkey@players.test>\nTo: gm@gm.test\nSubject: lepanto orders\n"
           b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n"
           b"Orders attached\n--b\nContent-Type: application/pdf\nContent-Disposition: attachment; "
           b"filename=orders.pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0=\n--b--\n")
    assert read_message(raw).notes == (
        'The attached file "orders.pdf" was not read: orders are read from text only. To send them, reply to this '
        "mail with the orders written in it.",)


def test_a_forward_of_the_players_own_mail_needs_the_players_own_address() -> None:
    """The same forward sent from another address is someone else's mail: not read, and said so."""
    raw = (CLASSES / "gmail_forward_own_orders.eml").read_bytes().replace(
        b"From: Anna France <france@players.test>\nTo", b"From: Anna France <anna@elsewhere.test>\nTo", 1)
    text = read_message(raw)
    assert "A Par - Bur" not in text.orders
    assert text.notes[0].startswith("A forwarded message (from france@players.test) was not read")


def test_a_reply_quoting_the_players_own_mail_is_still_quoted_text() -> None:
    """Only a forward ("Fwd:"/"FW:" or a forward line) is read: a reply's quoted block never is."""
    raw = (CLASSES / "outlook_forward_own_orders.eml").read_bytes().replace(b"Subject: FW:", b"Subject: RE:")
    assert read_message(raw).orders == "Resending, I have had no reply to this one."


@pytest.mark.parametrize("text, orders, assumed", [
    ("could you move my fleet in Naples to the Ionian rather than Apulia, thanks", ["F NAP - ION"], ""),
    ("One change: F Nap - Ion instead.", ["F NAP - ION"], ""),
    ("I'd like my army in Venice to go to Tyrolia or Piedmont please", ["A VEN - TYR"],
     "It is ambiguous: the sentence names two places to go (Tyrolia or Piedmont): the first was taken"),
])
@pytest.mark.parametrize("profile", PROFILES)
def test_an_order_written_as_a_sentence_is_read_and_said_how(profile, text, orders, assumed) -> None:
    """A poorly written order with one meaning is followed (000 III(2), 001 II(1), 002 FORMAT 2,
    003 [15], 004 I(3)); the confirmation says how the sentence was read and what was assumed."""
    reading = read(text, opening(), "ITALY", profile)
    assert list(map(str, reading.set_orders)) == orders
    line = reading.lines[0]
    assert line.status == "corrected" and line.message.startswith(f"Read the sentence as {orders[0]}.")
    assert assumed in line.message


@pytest.mark.parametrize("text", ["Remember when you moved A Mun - Bur last year",
                                  "Last spring I think that everyone saw A Mun - Bur",
                                  "My army is in Paris to stay for good"])
def test_a_sentence_telling_of_a_move_is_not_an_order(text: str) -> None:
    assert read(text, opening(), "GERMANY").set_orders == ()


def test_a_line_wrapped_at_72_keeps_its_unit() -> None:
    body = ("Hi, this turn I would like to move my fleet in Naples to the Ionian and my\n"
            "army in Venice to Tyrolia please.\n")
    assert sorted(map(str, read_mail(body, position=opening(), power="ITALY", ruleset=ruleset("standard"),
                                     geography=geography()).set_orders)) == ["A VEN - TYR", "F NAP - ION"]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("closing", ["Let me know if anything is unclear.", "Please tell me if there's a problem",
                                     "Shout if you have any questions!"])
def test_a_polite_closing_is_no_condition(profile: str, closing: str) -> None:
    """conditional_movement_orders (000 III(1), 001 II(1)...) voids a conditional line; "let me
    know if anything is unclear" is a courtesy, not an order's condition."""
    reading = read(f"A Ven - Tyr\nF Nap - Ion\n{closing}", opening(), "ITALY", profile)
    assert sorted(map(str, reading.set_orders)) == ["A VEN - TYR", "F NAP - ION"]
    assert reading.lines[-1].status == "ignored"


@pytest.mark.parametrize("profile", PROFILES)
def test_a_signature_without_its_dashes_is_no_order_and_hides_none(profile: str) -> None:
    """A job title and an address under the name hold unit and place words ("Army Reserve,
    Venice"): the signature is not read, and the order above it is the unit's order
    (multiple_orders_same_unit, 000 III(6), never decided by a signature line)."""
    reading = read("A Ven - Tyr\nF Nap - Ion\n\nThanks,\nMarco Rossi\nArmy Reserve Officer, Venice\n"
                   "Fleet Street 4, Naples", opening(), "ITALY", profile)
    assert sorted(map(str, reading.set_orders)) == ["A VEN - TYR", "F NAP - ION"]
    assert [line.message for line in reading.lines[2:]] == ["Signature: not read as an order."] * 4


@pytest.mark.parametrize("profile", PROFILES)
def test_an_italian_name_is_never_read_as_another_english_province(profile: str) -> None:
    """province_languages [P] = [] (English only): "Roma" is not Rumania one prefix away; the
    answer says it is the Italian name of Rome and to write Rome."""
    line = read("A Roma - Apu", opening(), "ITALY", profile).lines[0]
    assert line.order is None or str(line.order) != "A RUM - APU"
    assert "'Roma' is the Italian name of Rome" in line.message


@pytest.mark.parametrize("languages, text, orders", [
    ({"it"}, "A Roma - Puglia\nF Napoli - Mar Ionio\nA Venezia - Tirolo", ["A ROM - APU", "A VEN - TYR", "F NAP - ION"]),
    ({"de"}, "A Rom - Apulien\nF Neapel - Ionisches Meer\nA Venedig - Tirol", ["A ROM - APU", "A VEN - TYR", "F NAP - ION"]),
    ({"fr"}, "A Rome - Apulie\nF Naples - Mer Ionienne\nA Venise - Tyrol", ["A ROM - APU", "A VEN - TYR", "F NAP - ION"]),
])
def test_province_languages_reads_the_names_of_the_editions(languages, text, orders) -> None:
    rules = dataclasses.replace(ruleset("standard"), province_languages=frozenset(languages))
    reading = read_mail(text, position=opening(), power="ITALY", ruleset=rules, geography=geography())
    assert sorted(map(str, reading.set_orders)) == orders


TRAFALGAR = Position(phase="S1901M", units={"FRANCE": ("A PAR", "A BUR", "F MAO"), "GERMANY": ("A MUN",)}, centers={})


def test_orders_for_the_players_other_game_belong_there_even_one_line_that_fits_here() -> None:
    """The subject names lepanto, the units are France's in trafalgar: "A Par - Pic" fits both
    boards, and is not merged into lepanto alone."""
    name = "apple_mail_other_game.eml"
    here = read_file(name)
    there = read_mail((CLASSES / name).read_bytes(), position=TRAFALGAR, power="FRANCE", ruleset=ruleset("standard"),
                      geography=geography())
    assert list(map(str, here.set_orders)) == ["A PAR - PIC"]
    assert belongs_elsewhere(here, {"trafalgar": there}) == "trafalgar"
    assert belongs_elsewhere(there, {"lepanto": here}) is None
    assert belongs_elsewhere(here, {"trafalgar": there, "salamis": there}) is None  # which one: not guessed


def _forwarded_as_attachment(author: str) -> bytes:
    return (b"From: Anna France <france@players.test>\nTo: gm@gm.test\nSubject: FW: lepanto orders\n"
            b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n"
            b"Sending again.\n--b\nContent-Type: message/rfc822\n\n"
            b"From: " + author.encode() + b"\nTo: gm@gm.test\nSubject: lepanto orders\n\nA Par - Bur\nF Bre - Mao\n"
            b"--b--\n")


def test_a_forward_as_attachment_of_the_players_own_mail_is_read_and_anyone_elses_named() -> None:
    own = read_message(_forwarded_as_attachment("Anna <france@players.test>"))
    assert own.orders.split("\n") == ["Sending again.", "", "A Par - Bur", "F Bre - Mao"]
    other = read_message(_forwarded_as_attachment("Franz <austria@players.test>"))
    assert other.orders == "Sending again."
    assert other.notes[0].startswith("A forwarded message (from austria@players.test) was not read")


@pytest.mark.parametrize("markup, text", [
    ("<table><tr><td><p>A Par</p></td><td><p>-</p></td><td><p>Bur</p></td></tr>"
     "<tr><td><p>F Bre</p></td><td><p>- Mao</p></td></tr></table>", "A Par - Bur\nF Bre - Mao"),
    # HTML may leave </td>, </tr> and </table> out
    ("<table><tr><td>A Par<td>-<td>Bur<tr><td>F Bre<td>- Mao</table><p>Anna", "A Par - Bur\nF Bre - Mao\nAnna"),
    # a table for layout: a whole message in one cell keeps its lines
    ("<table><tr><td><p>Hi GM,</p><p>A Par - Bur</p><p>F Bre - Mao</p></td></tr></table>",
     "Hi GM,\nA Par - Bur\nF Bre - Mao"),
])
def test_in_an_html_table_a_row_is_a_line_and_its_cells_are_words(markup: str, text: str) -> None:
    assert html_to_text(markup) == text


def test_tables_nested_past_the_depth_read_are_still_read_as_blocks() -> None:
    """Past a few levels of nesting (each level reads its rows' text once more) rows are plain
    blocks and cells words: nothing is lost, and a run of "<table><tr><td>" costs its length."""
    assert html_to_text("<table><tr><td>x" * 2000).split() == ["x"] * 2000
