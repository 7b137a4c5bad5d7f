"""Quoted mail is never read as new orders: neither the reply headers of the big mail clients
nor copies of gmserver's own mail. Expected texts written by hand."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from gmserver.rules.reading.message import extract_order_text
from gmserver.rules.reading.quoting import GM_MAIL_END, GM_MAIL_START
from tests.unit.reading.support import PROFILES, opening, read


def _mail(body: str, subtype: str = "plain") -> bytes:
    message = EmailMessage()
    message["From"] = "anna@players.test"
    message["To"] = "gm@example.test"
    message["Subject"] = "RE: lepanto: France orders for Spring 1901"
    message.set_content(body, subtype=subtype)
    return bytes(message)


OUTLOOK_HTML = (
    "<html><body><div>A Par - Bur</div><div>F Bre - Mao</div><div><br></div>"
    "<hr style=\"display:inline-block;width:98%\" tabindex=\"-1\">"
    "<div id=\"divRplyFwdMsg\" dir=\"ltr\"><font face=\"Calibri, sans-serif\" style=\"font-size:11pt\">"
    "<b>From:</b> Anna Example &lt;anna@players.test&gt;<br><b>Sent:</b> Monday, November 23, 2026 6:02 PM<br>"
    "<b>To:</b> gm@example.test &lt;gm@example.test&gt;<br><b>Subject:</b> lepanto France S1901M</font>"
    "<div>&nbsp;</div></div><div>A Par - Pic</div><div>A Mar - Spa</div></body></html>")


@pytest.mark.parametrize("body, expected", [
    pytest.param("A Par - Bur\n\nFrom: Anna Example <anna@players.test>\nSent: Monday, November 23, 2026 6:02 PM\n"
                 "To: gm@example.test\nSubject: lepanto France S1901M\n\nA Par - Pic\n",
                 "A Par - Bur", id="outlook desktop plain"),
    pytest.param("A Par - Bur\n\nFrom: Anna Example <anna@players.test>\nDate: Monday, 23 November 2026 at 18:02\n"
                 "To: gm@example.test <gm@example.test>\nSubject: lepanto\n\nA Par - Pic\n",
                 "A Par - Bur", id="outlook mac"),
    pytest.param("A Par - Bur\n\nVon: Anna <anna@players.test>\nGesendet: Montag, 23. November 2026 18:02\n"
                 "An: gm@example.test\nBetreff: lepanto\n\nA Par - Pic\n", "A Par - Bur", id="outlook german"),
    pytest.param("A Par - Bur\n\nOn Mon, 23 Nov 2026 at 18:02, Anna Example <anna@players.test>\nwrote:\n\n"
                 "> A Par - Pic\n", "A Par - Bur", id="gmail wrapped attribution"),
    pytest.param("A Par - Bur\n\nLe lun. 23 nov. 2026 à 18:02, Anna <anna@players.test> a écrit :\n> A Par - Pic\n",
                 "A Par - Bur", id="gmail french"),
    pytest.param("A Par - Bur\n\nAm Mo., 23. Nov. 2026 um 18:02 Uhr schrieb Anna <anna@players.test>:\n"
                 "> A Par - Pic\n", "A Par - Bur", id="gmail german"),
    pytest.param("A Par - Bur\n\nEl lun, 23 nov 2026 a las 18:02, Anna (<anna@players.test>)\nescribió:\n"
                 "> A Par - Pic\n", "A Par - Bur", id="gmail spanish wrapped"),
    pytest.param("A Par - Bur\n\nIl giorno lun 23 nov 2026 alle ore 18:02 Anna <anna@players.test> ha scritto:\n"
                 "> A Par - Pic\n", "A Par - Bur", id="gmail italian"),
    pytest.param("A Par - Bur\n\n> On 23 Nov 2026, at 18:02, Anna Example <anna@players.test> wrote:\n"
                 "> \n> A Par - Pic\n", "A Par - Bur", id="apple mail"),
    pytest.param("A Par - Bur\n\nOn 23/11/2026 18:02, Anna Example wrote:\n> A Par - Pic\n", "A Par - Bur",
                 id="thunderbird"),
    pytest.param("A Par - Bur\n\n-------- Original Message --------\nSubject: lepanto\nA Par - Pic\n", "A Par - Bur",
                 id="thunderbird original message"),
    pytest.param("On 23/11/2026 18:02, Anna wrote:\n> A Par - Pic\n\nA Par - Bur\n", "A Par - Bur",
                 id="bottom posting"),
])
def test_reply_headers_cut_the_quoted_message(body, expected):
    assert extract_order_text(_mail(body)) == expected


def test_outlook_html_reply_header_without_original_message_line():
    assert extract_order_text(_mail(OUTLOOK_HTML, "html")) == "A Par - Bur\nF Bre - Mao"


def test_a_from_line_alone_is_not_a_reply_header():
    """"From: ..." without the Sent/To lines of a header block is the player's own text."""
    assert extract_order_text(_mail("From: Anna, France\nA Par - Bur\n")) == "From: Anna, France\nA Par - Bur"


CONFIRMATION = "\n".join([
    GM_MAIL_START, "", "lepanto: France orders for Spring 1901 (S1901M)", "", "Your orders were received.",
    "  line 1: A Par - Pic", "    accepted: A PAR - PIC", "",
    "If anything above is not what you meant, send a corrected set before", "the deadline.", "",
    "Test GM, Game Master", "", GM_MAIL_END])


@pytest.mark.parametrize("body", [
    pytest.param(f"A Par - Bur\n\n{CONFIRMATION}\n", id="quoted without prefix"),
    pytest.param("A Par - Bur\n\n" + "\n".join("> " + line for line in CONFIRMATION.split("\n")) + "\n",
                 id="quoted with prefix"),
    pytest.param(f"{CONFIRMATION}\n\nA Par - Bur\n", id="reply below the copy"),
    pytest.param(f"A Par - Bur\n\n{CONFIRMATION.rsplit(chr(10), 2)[0]}\n", id="end marker cut off"),
])
def test_a_copy_of_gmservers_own_mail_is_never_read(body):
    """The confirmation's footer quoted back ("If anything above ...") is not a
    conditional order, and nothing else of the copy is read."""
    assert extract_order_text(_mail(body)) == "A Par - Bur"


def test_a_turn_reports_machine_lines_start_a_copy():
    body = "A Par - Bur\n\n:: Game: lepanto\n:: Phase: S1901M\n" + GM_MAIL_START + "\nA Mar - Spa\n" + GM_MAIL_END
    assert extract_order_text(_mail(body)) == "A Par - Bur"


@pytest.mark.parametrize("profile", PROFILES)
def test_an_old_order_quoted_below_a_new_one_does_not_replace_it(profile):
    """Had the old `A Par - Pic` below Outlook's HTML reply header been read, it would
    have replaced the new order under danivon and gwm (001 III(2), 004 I(5): the last order for a
    unit), made Paris stand under scorpion (003 [10 a]) and hold under the rulebook (DATC 4.D.3);
    it is not read, so in every profile `A Par - Bur` stands and the set has the two new lines."""
    reading = read(extract_order_text(_mail(OUTLOOK_HTML, "html")), opening(), "FRANCE", profile)
    assert sorted(str(order) for order in reading.orders) == ["A PAR - BUR", "F BRE - MAO"]
    assert [line.text for line in reading.lines] == ["A Par - Bur", "F Bre - Mao"]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_confirmation_footer_quoted_back_is_not_a_conditional_order(profile):
    """In every profile (void_line by default, strip_condition under 000 III(7), which
    would have read "If anything above ..." as an order) the quoted footer gives no line at all:
    the reply is read as its one new order."""
    reading = read(extract_order_text(_mail(f"A Par - Bur\n\n{CONFIRMATION}\n")), opening(), "FRANCE", profile)
    assert [line.text for line in reading.lines] == ["A Par - Bur"]
    assert [str(order) for order in reading.orders] == ["A PAR - BUR"]
