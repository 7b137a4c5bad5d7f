"""The confirmation's map is attached from the queued bytes (orders_map.attached): the bytes must
be those the email package gives for the queued mail parsed, the map added with add_attachment,
the boundary set and the whole written again, as the sender wrote it before, for mails of every
shape gmserver queues: folded and unfoldable header lines, encoded words, UTF-8 headers (SMTPUTF8),
bodies in 7bit, 8bit, quoted-printable and base64, and data and file names of every length."""

from __future__ import annotations

import email
import email.policy
import random
from email.message import EmailMessage

import pytest

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.rules.order import Order
from gmserver.services.base import orders_map

BOUNDARY = "=_gm0_" + "5e" * 24


def by_the_email_package(raw: bytes, data: bytes, filename: str, policy: email.policy.EmailPolicy) -> bytes:
    message = email.message_from_bytes(raw, _class=EmailMessage, policy=policy)
    message.add_attachment(data, maintype="image", subtype="png", filename=filename)
    message.set_boundary(BOUNDARY)
    return message.as_bytes(policy=policy)


def queued(to: str, subject: str, body: str, *, cte: str | None = None,
           headers: dict[str, str] | None = None) -> tuple[bytes, email.policy.EmailPolicy]:
    """A mail as the outbox queues it (outbox._outbox_row's policy), and that policy."""
    message = EmailMessage()
    message["From"] = "Test GM <gm@gm.test>"
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = "<00000000000000000000000000000001@gm.test>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body, cte=cte) if cte else message.set_content(body)
    policy = email.policy.SMTP if to.isascii() else email.policy.SMTPUTF8
    return message.as_bytes(policy=policy), policy


LONG_ID = "<" + "x" * 90 + "@players.test>"  # no place to fold it: a line longer than 78
MAILS = {
    "plain": queued("france@players.test", "Re: lepanto France S1901M", "Your orders were read.\n" * 3),
    "long subject": queued("france@players.test", "Re: " + "a fairly long subject line " * 6, "text\n"),
    "unfoldable references": queued("france@players.test", "Re: orders", "text\n",
                                    headers={"In-Reply-To": LONG_ID, "References": f"<a@b.test> {LONG_ID}"}),
    "encoded words": queued("france@players.test", "Re: ordres de la France, été 1901", "text\n"),
    "utf-8 body (8bit)": queued("france@players.test", "Re: orders", "Vos ordres ont été lus.\n" * 2),
    "utf-8 body (quoted-printable)": queued("france@players.test", "Re: orders", "é" + "x" * 200 + "\n",
                                            cte="quoted-printable"),
    "utf-8 body (base64)": queued("france@players.test", "Re: orders", "ordres\n", cte="base64"),
    "long body lines": queued("france@players.test", "Re: orders", "word " * 300 + "\n"),
    "utf-8 address (SMTPUTF8)": queued("frañce@joueurs.test", "Re: ordres été", "Vos ordres.\n"),
    "no line end at the end": queued("france@players.test", "Re: orders", "text"),
    # as no EmailMessage writes it: a line longer than 78 (the parser's field is folded again when
    # written) and a field folded with a tab
    "written by hand": (b"From: Test GM <gm@gm.test>\r\nTo: france@players.test\r\nSubject: Re:\r\n\tfolded with a "
                        b"tab\r\nX-Token: " + b"y" * 100 + b" z\r\nMessage-ID: <1@gm.test>\r\nContent-Type: text/plain;"
                        b" charset=\"utf-8\"\r\nMIME-Version: 1.0\r\n\r\ntext\r\n", email.policy.SMTP),
}


@pytest.mark.parametrize("name", MAILS)
@pytest.mark.parametrize("size", [0, 1, 56, 57, 58, 114, 20_000])
def test_the_map_attached_from_bytes_is_what_the_email_package_writes(name: str, size: int) -> None:
    raw, policy = MAILS[name]
    data = random.Random(size).randbytes(size)
    filename = "lepanto-france-S1901M-orders.png"
    assert orders_map.attached(raw, data, maintype="image", subtype="png", filename=filename, boundary=BOUNDARY,
                               policy=policy) == by_the_email_package(raw, data, filename, policy)


@pytest.mark.parametrize("filename", ["m.png", "a-game-with-a-very-long-name-indeed-and-more-" * 3 + "orders.png",
                                      "lépante-france-S1901M-orders.png", 'a "quoted"; name.png'])
@pytest.mark.parametrize("policy", [email.policy.SMTP, email.policy.SMTPUTF8])
def test_any_file_name_is_written_as_the_email_package_writes_it(filename: str, policy) -> None:
    raw, _ = queued("france@players.test", "Re: orders", "text\n")
    data = b"\x89PNG" * 40
    assert orders_map.attached(raw, data, maintype="image", subtype="png", filename=filename, boundary=BOUNDARY,
                               policy=policy) == by_the_email_package(raw, data, filename, policy)


def test_a_confirmation_as_the_composer_makes_it() -> None:
    composer = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")
    message = composer.compose(to="france@players.test", subject="Re: lepanto France S1901M",
                               body="[gmserver mail]\n\nYour orders were read as written.\n",
                               auto_submitted="auto-replied")
    raw = message.as_bytes(policy=email.policy.SMTP)
    data = random.Random(7).randbytes(3000)
    written = orders_map.attached(raw, data, maintype="image", subtype="png", filename="m.png", boundary=BOUNDARY,
                                  policy=email.policy.SMTP)
    assert written == by_the_email_package(raw, data, "m.png", email.policy.SMTP)
    [text, image] = email.message_from_bytes(written, policy=email.policy.default).iter_parts()
    assert image.get_content() == data and "read as written" in text.get_content()


def test_a_queued_mail_the_map_cannot_be_attached_to_goes_without_it(caplog) -> None:
    wanted = orders_map.request("FRANCE", [Order.parse("A PAR - BUR", "M")], engine.opening_position(), "m.png")
    raw = b"a line that is no header field\r\n\r\ntext\r\n"
    assert orders_map.with_map(raw, wanted, "france@players.test") == raw
    assert "could not be drawn or attached" in caplog.text
