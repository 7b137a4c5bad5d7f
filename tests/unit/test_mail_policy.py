"""rules.mailpolicy: the default email policy with each header name's class made once and header
objects reused by name and text. What a reader sees is what email.policy.default gives."""

from __future__ import annotations

import copy
import email
import email.policy
import pickle

from gmserver.rules.mailpolicy import KEPT_HEADERS, MAIL_POLICY

RAW = (b"From: =?utf-8?q?J=C3=BCrgen?= <jurgen@players.test>\r\nTo: gm@gm.test, \"Smith, Bob\" <bob@x.test>\r\n"
       b"Subject: lepanto Germany S1901M\r\nDate: Fri, 27 Nov 2026 17:00:00 +0000\r\n"
       b"Message-ID: <one@players.test>\r\nReceived: from a by b; Fri, 27 Nov 2026 17:00:00 +0000\r\n"
       b"Received: broken ((\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n\r\nA BER - KIE\r\n")


def test_every_header_reads_as_under_the_default_policy() -> None:
    ours = email.message_from_bytes(RAW, policy=MAIL_POLICY)
    theirs = email.message_from_bytes(RAW, policy=email.policy.default)
    for name in ("From", "To", "Subject", "Date", "Message-ID", "Received", "Content-Type", "X-None"):
        mine, default = ours.get_all(name) or [], theirs.get_all(name) or []
        assert [str(h) for h in mine] == [str(h) for h in default]
        assert [type(h).__mro__[1:] for h in mine] == [type(h).__mro__[1:] for h in default]
        assert [h.defects for h in mine] == [h.defects for h in default]
    assert ours["To"].addresses == theirs["To"].addresses
    assert ours["Date"].datetime == theirs["Date"].datetime
    assert ours.get_content() == theirs.get_content()


def test_a_header_read_again_is_the_object_already_made() -> None:
    first = email.message_from_bytes(RAW, policy=MAIL_POLICY)
    second = email.message_from_bytes(RAW, policy=MAIL_POLICY)
    assert first["Subject"] is first["Subject"] is second["Subject"]
    assert type(first["Subject"]) is type(first["X-Other"] or MAIL_POLICY.header_factory("Subject", "other"))


def test_the_store_is_bounded_and_non_text_values_are_made_as_before() -> None:
    for number in range(KEPT_HEADERS + 10):
        MAIL_POLICY.header_factory("Subject", f"subject {number}")
    assert len(MAIL_POLICY.header_factory._made) <= KEPT_HEADERS
    address = MAIL_POLICY.header_factory("To", "a@b.test").addresses[0]
    assert MAIL_POLICY.header_factory("To", address).addresses == (address,)


def test_a_message_copied_or_pickled_shares_the_factory() -> None:
    message = email.message_from_bytes(RAW, policy=MAIL_POLICY)
    for copied in (copy.deepcopy(message), pickle.loads(pickle.dumps(message))):
        assert copied.policy.header_factory is MAIL_POLICY.header_factory
        assert copied.as_bytes() == message.as_bytes()
