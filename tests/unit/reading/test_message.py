"""extract_order_text: the text to read from a message as it arrives."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from gmserver.rules.envelope import parse_message
from gmserver.rules.reading.message import body_text, extract_order_text, extract_press_text, html_to_text, read_message


def _mail(body: str, subtype: str = "plain") -> bytes:
    message = EmailMessage()
    message["From"] = "alice@example.test"
    message["To"] = "gm@example.test"
    message["Subject"] = "lepanto France S1901M"
    message.set_content(body, subtype=subtype)
    return bytes(message)


def test_bare_body_is_read_as_is():
    assert extract_order_text("A Par - Bur\nF Bre - MAO") == "A Par - Bur\nF Bre - MAO"


def test_plain_email():
    assert extract_order_text(_mail("Hi\nA Par - Bur\n")) == "Hi\nA Par - Bur"


def test_plain_preferred_over_html():
    message = EmailMessage()
    message["From"], message["Subject"] = "a@b.test", "orders"
    message.set_content("A Par - Bur\n")
    message.add_alternative("<p>A Mar - Spa</p>", subtype="html")
    assert extract_order_text(bytes(message)) == "A Par - Bur"


def test_html_only_converted():
    html = "<html><body><p>Hi GM</p><ul><li>A Par &rarr; Bur</li><li>F Bre - MAO</li></ul>" \
           "<div class=\"gmail_quote\">On Mon, Bob wrote:<blockquote>A Mar - Spa</blockquote></div></body></html>"
    text = extract_order_text(_mail(html, "html"))
    assert "A Par → Bur" in text and "F Bre - MAO" in text and "Spa" not in text


def test_quoted_reply_and_attribution_removed():
    body = ("A Par - Bur\n\nOn Mon, 3 Mar 2025 at 10:00, GM <gm@example.test> wrote:\n"
            "> Spring 1901 results\n> A Mar - Spa\n")
    assert extract_order_text(_mail(body)) == "A Par - Bur"


def test_orders_under_a_quoted_report_are_kept():
    body = "> Results of Fall 1901\n> A Par - Bur succeeded\n\nA Bur - Mun\nF Bre - MAO\n"
    assert extract_order_text(_mail(body)) == "A Bur - Mun\nF Bre - MAO"


def test_signature_removed():
    assert extract_order_text(_mail("A Par - Bur\n-- \nAlice\nA Mar - Spa\n")) == "A Par - Bur"


def test_forwarded_copy_removed():
    body = "A Par - Bur\n\n---------- Forwarded message ---------\nFrom: x\nA Mar - Spa\n"
    assert extract_order_text(_mail(body)) == "A Par - Bur"


def test_outlook_original_message_removed():
    body = "A Par - Bur\n\n-----Original Message-----\nFrom: GM\nA Mar - Spa\n"
    assert extract_order_text(_mail(body)) == "A Par - Bur"


def test_press_kept_apart():
    body = "A Par - Bur\nPRESS:\nFrance to all: peace!\nEND PRESS\nF Bre - MAO\n"
    assert extract_order_text(body) == "A Par - Bur\nF Bre - MAO"
    assert extract_press_text(body) == "France to all: peace!"


def test_quoted_printable_latin1():
    raw = (b"From: a@b.test\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
           b"Gr=FC=DFe\r\nA Mun - Ruh\r\n")
    assert extract_order_text(raw) == "Grüße\nA Mun - Ruh"


def test_broken_mime_never_raises():
    raw = b"From: a@b\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nA Par - Bur\r\n"
    assert "A Par - Bur" in extract_order_text(raw)


def test_attachments_skipped():
    message = EmailMessage()
    message["From"], message["Subject"] = "a@b.test", "orders"
    message.set_content("A Par - Bur\n")
    message.add_attachment(b"A Mar - Spa", maintype="text", subtype="plain", filename="old.txt")
    assert extract_order_text(bytes(message)) == "A Par - Bur"


def test_html_to_text_lines():
    assert html_to_text("<div>A Par - Bur</div><div>F Bre - MAO<br>A Mar H</div>").split("\n") == [
        "A Par - Bur", "F Bre - MAO", "A Mar H"]


def _plain_and_html() -> bytes:
    message = EmailMessage()
    message["From"], message["Subject"] = "a@b.test", "orders"
    message.set_content("A Par - Bur\n")
    message.add_alternative("<p>A Mar - Spa</p>", subtype="html")
    return bytes(message)


@pytest.mark.parametrize("raw", [
    _mail("Hi\nA Par - Bur\n"),
    _mail("<p>A Par - Bur</p><blockquote>A Mar - Spa</blockquote>", "html"),
    _plain_and_html(),
    _mail("A Par - Bur\n" * 12_000),  # over MAX_TEXT_CHARS: cut at a line end
    b"From: a@b.test\nSubject: x\nContent-Type: multipart/mixed; boundary=zz\n\n--zz\nbroken",
], ids=["plain", "html", "alternative", "long", "broken"])
def test_the_body_read_from_the_parse_given_is_body_text(raw: bytes) -> None:
    """The intake reads a message parsed once (routing.prepare): the body it keeps for the sender
    check is body_text's of that parse, and only a message read from that parse keeps one."""
    parsed = parse_message(raw)
    assert parsed is not None
    assert read_message(raw, parsed).body == body_text(parsed)
    assert read_message(raw).body is None
    assert read_message(raw, parsed) == read_message(raw)
