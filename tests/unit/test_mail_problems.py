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
