"""compose.plain_header: a player's copy of a report sets its own To, Reply-To, Subject and
Message-ID as the text the email package writes them as, without parsing them into header
objects (services/base/report_copies.write_copy); the answer to a filed set writes its From
and threading headers so too (gmserver.mail.written). Each such line must be the one the email
package folds the parsed header into, under SMTP's policy and SMTPUTF8's; every other value is
left to the email package."""

from __future__ import annotations

import email.policy
from email.headerregistry import Address

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmserver.mail.compose import WRITE_ONLY_POLICY, Composer, PlainHeader, plain_address, plain_header
from gmserver.paths import TEMPLATES_DIR
from gmserver.rules.mailpolicy import HEADER_FACTORY

POLICIES = (email.policy.SMTP, email.policy.SMTPUTF8)
ATEXT = "abcXYZ019!#$%&'*+/=?^_`{|}~-"
# what a header's parse could change: specials, quotes, comments, encoded words, spaces, non-ASCII
TRICKY = ATEXT + " .@<>()[]:;,\\\"=?é\t"
ATOM = st.text(alphabet=ATEXT, min_size=1, max_size=12)
DOT_ATOMS = st.lists(ATOM, min_size=1, max_size=3).map(".".join)
ADDRESS = st.tuples(DOT_ATOMS, DOT_ATOMS).map("@".join)


def written(name: str, value: object, policy: email.policy.EmailPolicy) -> bytes:
    """What the email package writes: the value parsed into a header object, folded."""
    return policy.fold_binary(name, HEADER_FACTORY(name, value))


def assert_written_alike(name: str, value: object) -> None:
    header = plain_header(name, value)
    if header is not None:
        for policy in POLICIES:
            assert policy.fold_binary(name, header) == written(name, value, policy), (name, value)


@settings(max_examples=400)
@given(name=st.sampled_from(["To", "Subject", "Message-ID", "Reply-To", "From", "In-Reply-To", "References",
                              "Auto-Submitted"]), text=st.text(alphabet=TRICKY, max_size=90))
def test_any_text_taken_as_plain_is_written_as_the_email_package_writes_it(name: str, text: str) -> None:
    assert_written_alike(name, text)


@settings(max_examples=300)
@given(address=ADDRESS, words=st.lists(st.text(alphabet=TRICKY.replace(" ", "").replace("\t", ""), min_size=1,
                                                max_size=10), min_size=1, max_size=8),
       display=st.lists(ATOM, min_size=1, max_size=4).map(" ".join))
def test_plain_addresses_subjects_and_ids_are_written_alike(address: str, words: list[str], display: str) -> None:
    for name, value in (("To", address), ("Message-ID", f"<{address}>"), ("Subject", " ".join(words)),
                        ("References", " ".join(words)), ("Reply-To", Address(display_name=display, addr_spec=address)),
                        ("From", Address(display_name=display, addr_spec=address))):
        assert_written_alike(name, value)
        if isinstance(value, Address):  # the same without the Address made (gmserver.mail.written)
            assert plain_address(name, display, address) == plain_header(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("To", "france@players.test"),
    ("Message-ID", "<0123456789abcdef0123456789abcdef@gm.test>"),
    ("Subject", "lepanto France S1901M results"),
    ("Reply-To", Address(display_name="Test GM", addr_spec="gm+q7nqcqc7lbply4qr@gm.test")),
])
def test_what_gmserver_writes_is_plain(name: str, value: object) -> None:
    header = plain_header(name, value)
    assert isinstance(header, PlainHeader)
    assert_written_alike(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("To", "jürgen@players.test"),  # UTF-8 under SMTPUTF8, refused under SMTP
    ("To", "Anna <anna@players.test>"),
    ("Subject", "=?utf-8?q?caf=C3=A9?="),  # decoded by the parser
    ("Subject", "two  spaces"),
    ("Subject", "lepanto " + "x" * 80),  # folded
    ("Subject", "Zürich results"),
    ("Reply-To", Address(display_name="Garry, Lord of the March", addr_spec="gm+s@gm.test")),  # quoted
    ("Message-ID", "<a@b> trailing"),
    ("Subject", "lepanto\r\nBcc: x@attacker.test"),  # refused by the email package, as before
    ("Date", "Tue, 01 Dec 2026 18:01:00 +0000"),  # a date is parsed (gmserver.mail.written writes its own)
    ("Cc", "anna@players.test"),  # an address header but From, To and Reply-To
    ("References", "<a@b>  <c@d>"),
])
def test_anything_else_is_left_to_the_email_package(name: str, value: object) -> None:
    assert plain_header(name, value) is None


def test_a_copy_only_written_has_the_bytes_of_one_with_parsed_headers() -> None:
    composer = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")
    report = composer.compose(to="gm@gm.test", subject="", body="The report.\n", auto_submitted="auto-generated")
    for to, subject in (("france@players.test", "lepanto France S1901M results"),
                        ("jürgen@players.test", "Zürich " + "results " * 12)):
        copies = [composer.readdress(report, to=to, subject=subject, reply_secret="s3cret", message_id="<one@gm.test>",
                                     policy=policy) for policy in (None, WRITE_ONLY_POLICY)]
        for policy in POLICIES if to.isascii() else POLICIES[1:]:
            assert copies[1].as_bytes(policy=policy) == copies[0].as_bytes(policy=policy)


@pytest.mark.parametrize("value", ["france@players.test", Address(display_name="Test GM", addr_spec="gm+s3cret@gm.test")])
def test_under_a_policy_of_shorter_lines_a_plain_header_is_folded_by_the_email_package(value: object) -> None:
    name = "To" if isinstance(value, str) else "Reply-To"
    narrow = email.policy.SMTP.clone(max_line_length=20)
    header = plain_header(name, value)
    assert header is not None and narrow.fold_binary(name, header) == written(name, value, narrow)
    assert b"\r\n " in narrow.fold_binary(name, header)
