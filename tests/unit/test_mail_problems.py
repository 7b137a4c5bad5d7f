"""Every mail gmserver queues passes `outbox.mail_problems`: a reply built from hostile input
that came out malformed is never sent (the 100,000-message fuzz run found 6 among
97,000 replies: stray CR/LF in a header, a missing Auto-Submitted or Message-ID, a To of "<>")."""

from __future__ import annotations

import email.policy

from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.services.base.outbox import mail_problems

COMPOSER = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")


def reply(**headers: str) -> bytes:
    message = COMPOSER.compose(to="france@players.test", subject="Re: lepanto", body="Your orders.",
                               auto_submitted="auto-replied")
    for name, value in headers.items():
        message[name] = value
    return message.as_bytes(policy=email.policy.SMTP)


def test_a_composed_reply_has_no_problem() -> None:
    assert mail_problems(reply(), "france@players.test") == []


def test_a_bcc_or_a_second_to_is_a_problem() -> None:
    assert mail_problems(reply(Bcc="x@attacker.test"), "france@players.test") == ["a Bcc header"]
    raw = reply().replace(b"To: france@players.test\r\n", b"To: france@players.test\r\nTo: x@attacker.test\r\n")
    assert mail_problems(raw, "france@players.test") == ["2 To headers"]


def test_a_stray_line_feed_in_a_header_is_a_problem() -> None:
    raw = reply().replace(b"Subject: Re: lepanto", b"Subject: Re: lepanto\nBcc: x@attacker.test")
    assert "a stray CR or LF in a header" in mail_problems(raw, "france@players.test")


def test_a_recipient_that_is_no_plain_address_is_a_problem() -> None:
    assert mail_problems(reply(), "<>") == ["the recipient '<>' is not a plain address"]


def test_a_missing_auto_submitted_is_a_problem() -> None:
    raw = reply().replace(b"Auto-Submitted: auto-replied\r\n", b"")
    assert mail_problems(raw, "france@players.test") == ["0 Auto-Submitted headers"]


def test_a_line_that_is_no_header_field_is_a_problem_and_what_follows_it_is_still_read() -> None:
    """email's parser stopped reading headers at such a line: a Bcc after it went unseen."""
    raw = reply().replace(b"Subject: Re: lepanto\r\n", b"Subject: Re: lepanto\r\nnot a field\r\nBCC: x@attacker.test\r\n")
    assert mail_problems(raw, "france@players.test") == ["a header line that is no header field", "a Bcc header"]


def test_a_header_smuggled_after_a_stray_carriage_return_is_counted() -> None:
    raw = reply().replace(b"Subject: Re: lepanto", b"Subject: Re: lepanto\rTo: x@attacker.test")
    assert mail_problems(raw, "france@players.test") == ["a stray CR or LF in a header", "2 To headers"]


def test_a_folded_header_and_the_parts_below_the_header_block_are_no_problem() -> None:
    """Only the message's own header block is read: a part's header (a Bcc in a body) is not one."""
    long_subject = "Re: " + " ".join(["lepanto"] * 20)
    raw = COMPOSER.compose(to="france@players.test", subject=long_subject, body="Bcc: x@attacker.test\n",
                           auto_submitted="auto-replied").as_bytes(policy=email.policy.SMTP)
    assert b"\r\n lepanto" in raw  # folded
    assert mail_problems(raw, "france@players.test") == []
