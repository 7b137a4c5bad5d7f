"""parse_envelope reads the sender strictly ("Parse addresses strictly"): exactly one
mailbox in exactly one From header, the address in angle brackets when there are any."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmserver.rules.address import parse_mailbox
from gmserver.rules.envelope import glance_envelope, is_plain_address, parse_envelope


def envelope_of(*from_values: str, extra: str = ""):
    headers = "".join(f"From: {value}\r\n" for value in from_values)
    raw = headers + extra + "Subject: lepanto France S1901M\r\n\r\nA PAR H\r\n"
    return parse_envelope(raw.encode("utf-8", "surrogateescape"))


@pytest.mark.parametrize(("value", "sender", "display"), [
    ("france@players.test", "france@players.test", "france@players.test"),
    ("France@Players.TEST", "france@players.test", "France@Players.TEST"),
    ("<france@players.test>", "france@players.test", "france@players.test"),
    ("Jean Dupont <france@players.test>", "france@players.test", "Jean Dupont"),
    ('"Dupont, Jean" <france@players.test>', "france@players.test", "Dupont, Jean"),
    ("france@players.test (Jean Dupont)", "france@players.test", "Jean Dupont"),
    ("=?utf-8?q?J=C3=A9r=C3=B4me?= <france@players.test>", "france@players.test", "Jérôme"),
    ("Jean\r\n Dupont\r\n <france@players.test>", "france@players.test", "Jean Dupont"),
    # a display name that looks like an address is only a display name
    ("france@players.test <evil@attacker.test>", "evil@attacker.test", "france@players.test"),
    ('"france@players.test" <evil@attacker.test>', "evil@attacker.test", "france@players.test"),
    # an encoded CR LF in the display name (ValueError in the email package) is a space
    ("=?utf-8?q?Evil=0D=0ABcc:_x@y?= <germany@players.test>", "germany@players.test", "Evil Bcc: x@y"),
])
def test_one_mailbox_is_read(value: str, sender: str, display: str) -> None:
    envelope = envelope_of(value)
    assert (envelope.sender, envelope.sender_display) == (sender, display)


@pytest.mark.parametrize("value", [
    "france@players.test, evil@attacker.test",      # several addresses
    "Evil <evil@attacker.test>, france@players.test",
    "Smith, John <france@players.test>",            # an unquoted comma makes two
    "players: france@players.test;",                 # a group
    "Germany <",                                      # IndexError in the email package
    "Germany \u2039",
    "Jean <france@players.test> <evil@attacker.test>",
    "Jean <france@players.test> junk",
    '"unclosed <france@players.test>',
    "(unclosed france@players.test",
    "Jean Dupont",
    "france",
    "<france>",
    '"jean dupont"@players.test',                   # quoted local parts are not taken
    "france@players.test evil@attacker.test",
    "",
])
def test_anything_but_one_mailbox_gives_no_sender(value: str) -> None:
    assert envelope_of(value).sender == ""


def test_two_from_headers_give_no_sender() -> None:
    assert envelope_of("france@players.test", "evil@attacker.test").sender == ""


def test_reply_to_counts_only_when_there_is_no_from_at_all() -> None:
    assert envelope_of(extra="Reply-To: france@players.test\r\n").sender == "france@players.test"
    assert envelope_of("Germany <", extra="Reply-To: france@players.test\r\n").sender == ""


def test_the_glance_reads_the_sender_the_same_way() -> None:
    raw = b"From: france@players.test <evil@attacker.test>\r\nSubject: =?utf-8?q?ordres_S1901M?=\r\n\r\nA PAR H\r\n"
    glance = glance_envelope(raw)
    assert (glance.sender, glance.subject) == ("evil@attacker.test", "ordres S1901M")
    assert glance_envelope(b"From: Germany <\r\n\r\n").sender == ""


def test_a_mailbox_longer_than_any_real_one_is_not_read() -> None:
    assert parse_mailbox("x" * 3000 + " <france@players.test>") is None


@settings(max_examples=500, deadline=None)
@given(value=st.text(alphabet=st.sampled_from(list('ab@.<>()",;:\\ \r\n\t=?qQ\u2039\udcff')), max_size=80)
             | st.text(max_size=200))
def test_any_value_gives_one_mailbox_on_one_line_or_none(value: str) -> None:
    mailbox = parse_mailbox(value)
    if mailbox is not None:
        assert "\r" not in mailbox.display and "\n" not in mailbox.display
        sender = envelope_of(value.replace("\r", "").replace("\n", " ")).sender
        assert sender == "" or is_plain_address(sender)


@pytest.mark.parametrize("written", ["stranger@b..c", "=?utf-8?q?a?=@x.test"])
def test_a_sender_a_reply_could_not_name_is_nobody_to_answer(written: str) -> None:
    """The email package writes `a@b..c` back as `<>` and an encoded word as another address: a
    reply would go to someone else or nowhere (found by a 100,000-message run of
    scripts/reliability/fuzz.py)."""
    raw = f"From: {written}\r\nSubject: lepanto\r\nMessage-ID: <w@x.test>\r\n\r\nA PAR H\r\n".encode()
    assert parse_envelope(raw).sender == ""


def test_an_internationalised_address_is_still_answered() -> None:
    raw = "From: p\u00e9\u00e9r\u00e9@\u00e9lsewhere.test\r\nSubject: x\r\n\r\nhi\r\n".encode()
    assert parse_envelope(raw).sender == "p\u00e9\u00e9r\u00e9@\u00e9lsewhere.test"
