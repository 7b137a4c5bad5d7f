"""gmserver.mail.written: the answers to a filed set are written straight to bytes. Each must be
the very bytes the email package wrote for the message `Composer.compose` built (what the outbox
stored before), under the outbox's policy (SMTP, or SMTPUTF8 for a recipient that is not ASCII):
parsed back, the same headers and body; fit to send (`mail_problems`); and a value the email
package refuses is refused alike."""

from __future__ import annotations

import dataclasses
import email
import email.policy
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gmserver.mail.compose import Composer
from gmserver.mail.written import Draft, WrittenMail, subject_as_read, write
from gmserver.paths import TEMPLATES_DIR
from gmserver.services.base.orders_map import attached
from gmserver.services.base.outbox import mail_problems

COMPOSER = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")
NOW = datetime(2026, 11, 28, 10, 30, 5, tzinfo=UTC)
CONFIRMATION = ("Your orders for lepanto, France, Spring 1901, are on file (version 1):\n\n"
                "  A PAR - BUR\n  A MAR H\n  F BRE - MAO\n\nDeadline: Sat 5 Dec 2026 18:00 UTC.\n")
DRAFT = Draft(to="france@players.test", subject="Re: lepanto France S1901M", body=CONFIRMATION,
              auto_submitted="auto-replied", date=NOW, in_reply_to="<m1@players.test>",
              references=("<m0@players.test>",), reply_secret="q7nqcqc7lbply4qr",
              message_id="<0123456789abcdef0123456789abcdef@gm.test>")


def composed(composer: Composer, draft: Draft) -> EmailMessage:
    """`draft` as `Composer.compose` builds it (what intake queued before)."""
    return composer.compose(to=draft.to, subject=draft.subject, body=draft.body, in_reply_to=draft.in_reply_to,
                            references=draft.references, auto_submitted=draft.auto_submitted,
                            message_id=draft.message_id, date=draft.date, reply_secret=draft.reply_secret)


def old_bytes(draft: Draft, composer: Composer = COMPOSER) -> bytes:
    """What the outbox stored for the message `compose` built (services/base/outbox._outbox_row)."""
    message = composed(composer, draft)
    recipient = str(message["To"].addresses[0].addr_spec)
    return message.as_bytes(policy=email.policy.SMTP if recipient.isascii() else email.policy.SMTPUTF8)


def assert_written_alike(draft: Draft, composer: Composer = COMPOSER) -> WrittenMail:
    mail = write(composer, draft)
    if draft.message_id is None:  # a new one, as compose makes it: the old path is given the same
        assert mail.message_id.startswith("<") and mail.message_id.endswith("@gm.test>")
        draft = dataclasses.replace(draft, message_id=mail.message_id)
    expected = old_bytes(draft, composer)
    assert mail.raw == expected
    old = composed(composer, draft)
    assert (mail.message_id, mail.sender, mail.recipient) == (
        str(old["Message-ID"]), str(old["From"].addresses[0].addr_spec), str(old["To"].addresses[0].addr_spec))
    parsed, before = (email.message_from_bytes(raw, policy=email.policy.default) for raw in (mail.raw, expected))
    assert [(name, str(value)) for name, value in parsed.items()] == [
        (name, str(value)) for name, value in before.items()]
    assert parsed.get_body(("plain",)).get_content() == before.get_body(("plain",)).get_content()
    return mail


LONG_LINE = "A PAR - BUR, " * 10  # past 78 characters: quoted-printable
CASES = {
    "the confirmation": DRAFT,
    "no reply secret": dataclasses.replace(DRAFT, reply_secret=None),
    "a new message id": dataclasses.replace(DRAFT, message_id=None),
    "no thread": dataclasses.replace(DRAFT, in_reply_to=None, references=()),
    "replied to, no references": dataclasses.replace(DRAFT, references=()),
    "the parent among the references": dataclasses.replace(DRAFT, references=("<m1@players.test>", "")),
    "ten references, folded": dataclasses.replace(DRAFT, references=tuple(f"<id{n}.abcdefgh@players.test>"
                                                                          for n in range(10))),
    "auto-generated": dataclasses.replace(DRAFT, auto_submitted="auto-generated"),
    "a long subject": dataclasses.replace(DRAFT, subject="Re: lepanto France S1901M " + "and more words " * 8),
    "a subject of one long word": dataclasses.replace(DRAFT, subject="Re: " + "x" * 120),
    "a subject not ASCII": dataclasses.replace(DRAFT, subject="Re: lepanto France S1901M — Zürich"),
    "a subject with an encoded word": dataclasses.replace(DRAFT, subject="Re: =?utf-8?q?caf=C3=A9?= orders"),
    "a subject with specials": dataclasses.replace(DRAFT, subject='Re: "lepanto" (France) <S1901M>; a,b:c'),
    "a subject with two spaces and a tab": dataclasses.replace(DRAFT, subject="Re:  lepanto\tFrance "),
    "a subject with control characters": dataclasses.replace(DRAFT, subject="Re: lepanto\x00 France\x7f S1901M"),
    "an empty subject": dataclasses.replace(DRAFT, subject=""),
    "a recipient not ASCII": dataclasses.replace(DRAFT, to="jürgen@players.test"),
    "a recipient with a display name": dataclasses.replace(DRAFT, to="Anna Smith <anna@players.test>"),
    "a recipient quoted": dataclasses.replace(DRAFT, to='"anna smith"@players.test'),
    "a message id from elsewhere": dataclasses.replace(DRAFT, in_reply_to="<a b@c> (comment)"),
    "an in-reply-to not ASCII": dataclasses.replace(DRAFT, in_reply_to="<zürich@players.test>"),
    "a body not ASCII": dataclasses.replace(DRAFT, body="Zürich, Ελλάδα, 東京\n" + CONFIRMATION),
    "a long ASCII line": dataclasses.replace(DRAFT, body=CONFIRMATION + LONG_LINE + "\n"),
    "a long line not ASCII, many lines": dataclasses.replace(DRAFT, body="é" * 50 + "\n" + CONFIRMATION * 3),
    "long lines in another script": dataclasses.replace(DRAFT, body="東京" * 40 + "\n" + "Ελλάδα " * 20 + "\n"),
    "a line of exactly 78 bytes": dataclasses.replace(DRAFT, body="x" * 78 + "\n" + "é" * 39 + "\n"),
    "a line of 79 bytes": dataclasses.replace(DRAFT, body="x" * 79 + "\n"),
    "CR and CRLF line ends": dataclasses.replace(DRAFT, body="one\r\ntwo\rthree\n\nfour"),
    "no line end at the end": dataclasses.replace(DRAFT, body="A PAR H"),
    "an empty body": dataclasses.replace(DRAFT, body=""),
    "blank lines at the end": dataclasses.replace(DRAFT, body="A PAR H\n\n\n"),
    "a line starting From": dataclasses.replace(DRAFT, body="From here on\n.\n..\n"),
    "a lone surrogate": dataclasses.replace(DRAFT, body="bad \udce9 byte\n", subject="Re: \udce9"),
    "a date in another zone": dataclasses.replace(DRAFT, date=datetime(2026, 7, 1, 23, 59, 59,
                                                                       tzinfo=timezone(timedelta(hours=-9, minutes=-30)))),
    "a naive date": dataclasses.replace(DRAFT, date=datetime(2026, 1, 2, 3, 4, 5)),
    "a date of year 50": dataclasses.replace(DRAFT, date=datetime(50, 1, 2, 3, 4, 5, tzinfo=UTC)),
    "a date of year 999": dataclasses.replace(DRAFT, date=datetime(999, 12, 31, tzinfo=UTC)),
    "a zone offset in seconds": dataclasses.replace(DRAFT, date=datetime(2026, 1, 2, tzinfo=timezone(
        timedelta(minutes=9, seconds=21)))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_bytes_are_those_the_email_package_wrote(name: str) -> None:
    mail = assert_written_alike(CASES[name])
    # the outbox's check finds what it found before: nothing, but in a quoted address or a long one
    assert mail_problems(mail.raw, mail.recipient) == mail_problems(old_bytes(CASES[name]), mail.recipient)
    assert mail_problems(mail.raw, mail.recipient) == [] or name in ("a recipient quoted",)


@pytest.mark.parametrize("gm_name", ["Garry Lord", "Gérard Maître", "G. M. (the GM)", "The GM, of Lepanto",
                                     "A very long name for a game master, far longer than anyone would write"])
def test_any_gm_name(gm_name: str) -> None:
    composer = Composer(TEMPLATES_DIR, gm_name=gm_name, gm_address="gm@gm.test")
    assert_written_alike(DRAFT, composer)


@pytest.mark.parametrize("field", ["subject", "to", "in_reply_to"])
def test_a_line_break_in_a_header_is_refused_as_the_email_package_refuses_it(field: str) -> None:
    draft = dataclasses.replace(DRAFT, **{field: "lepanto\r\nBcc: x@attacker.test"})
    with pytest.raises(ValueError, match="linefeed or carriage return"):
        composed(COMPOSER, draft)
    with pytest.raises(ValueError, match="linefeed or carriage return"):
        write(COMPOSER, draft)


def test_the_plain_fields_and_body_are_written_as_they_are() -> None:
    """The confirmation as intake writes it: every header is one line, the body 7bit."""
    mail = write(COMPOSER, DRAFT)
    head, _, body = mail.raw.partition(b"\r\n\r\n")
    assert head.split(b"\r\n") == [
        b"From: Test GM <gm@gm.test>", b"To: france@players.test", b"Reply-To: Test GM <gm+q7nqcqc7lbply4qr@gm.test>",
        b"Subject: Re: lepanto France S1901M", b"Date: Sat, 28 Nov 2026 10:30:05 +0000",
        b"Message-ID: <0123456789abcdef0123456789abcdef@gm.test>", b"In-Reply-To: <m1@players.test>",
        b"References: <m0@players.test> <m1@players.test>", b"Auto-Submitted: auto-replied",
        b"X-Auto-Response-Suppress: All", b'Content-Type: text/plain; charset="utf-8"',
        b"Content-Transfer-Encoding: 7bit", b"MIME-Version: 1.0"]
    assert b"A PAR - BUR\r\n" in body and b"\n" not in body.replace(b"\r\n", b"")


@pytest.mark.parametrize("name", ["the confirmation", "a body not ASCII", "a long ASCII line", "a recipient not ASCII"])
def test_the_copy_for_the_registered_address_is_the_one_readdress_made(name: str) -> None:
    """outgoing.registered_copy: the answer for the power's registered address, as
    Composer.readdress made it from the answer's message."""
    draft = CASES[name]
    old = COMPOSER.readdress(composed(COMPOSER, draft), to="france.home@players.test",
                             subject=str(composed(COMPOSER, draft)["Subject"]), reply_secret="s3cret",
                             message_id="<copy@gm.test>")
    copy = write(COMPOSER, dataclasses.replace(draft, to="france.home@players.test", subject=subject_as_read(draft),
                                               reply_secret="s3cret", message_id="<copy@gm.test>"))
    assert copy.raw == old.as_bytes(policy=email.policy.SMTP)


@pytest.mark.parametrize("name", ["the confirmation", "a body not ASCII", "a long ASCII line", "a recipient not ASCII"])
def test_the_map_is_attached_to_the_written_bytes_as_to_the_old(name: str) -> None:
    """The confirmation's map is added by the outbox's sender to the stored bytes (orders_map)."""
    draft = CASES[name]
    policy = email.policy.SMTP if draft.to.isascii() else email.policy.SMTPUTF8
    with_map = [attached(raw, b"\x89PNG not really", maintype="image", subtype="png", filename="lepanto-france.png",
                         boundary="=_gm0_test", policy=policy) for raw in (write(COMPOSER, draft).raw, old_bytes(draft))]
    assert with_map[0] == with_map[1]
    message = email.message_from_bytes(with_map[0], policy=email.policy.default)
    text = email.message_from_bytes(old_bytes(draft), policy=email.policy.default).get_content()
    assert message.get_body(("plain",)).get_content() == text
    assert [part.get_filename() for part in message.iter_attachments()] == ["lepanto-france.png"]


ADDRESSES = st.sampled_from(["france@players.test", "jürgen@players.test", "Anna <anna@players.test>",
                             "a.b+c@sub.players.test", '"x y"@players.test', "x@[127.0.0.1]",
                             "ü" * 90 + "@players.test"])




def ascii_or_any(size: int) -> st.SearchStrategy[str]:
    """Printable ASCII with line ends (what the email package writes as it is, within the line
    length), or any text."""
    return st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126) | st.sampled_from("\n\r\t"),
                   max_size=size) | st.text(max_size=size)


@settings(max_examples=300, deadline=None)
@given(subject=ascii_or_any(120), body=ascii_or_any(600), to=ADDRESSES,
       in_reply_to=st.none() | st.text(max_size=60) | st.just("<m1@players.test>"),
       references=st.lists(st.text(alphabet="<>@.abcxyz0129 é", max_size=30), max_size=12).map(tuple),
       date=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.timezones()),
       secret=st.none() | st.sampled_from(["q7nqcqc7lbply4qr", "s3cret.x"]))
@example(subject="Re: lepanto France S1901M", body=CONFIRMATION, to="france@players.test",
         in_reply_to="<m1@players.test>", references=(), date=NOW, secret="q7nqcqc7lbply4qr")
def test_any_answer_is_written_as_the_email_package_wrote_it(subject: str, body: str, to: str, in_reply_to: str | None,
                                                             references: tuple[str, ...], date: datetime,
                                                             secret: str | None) -> None:
    draft = Draft(to=to, subject=subject, body=body, auto_submitted="auto-replied", date=date,
                  in_reply_to=in_reply_to, references=references, reply_secret=secret, message_id="<one@gm.test>")
    try:
        expected: bytes | Exception = old_bytes(draft)
    except Exception as error:  # noqa: BLE001  the email package refused it: so must write
        expected = error
    if isinstance(expected, Exception):
        with pytest.raises(type(expected)):
            write(COMPOSER, draft)
    else:
        assert_written_alike(draft)
