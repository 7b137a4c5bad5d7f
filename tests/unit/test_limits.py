"""gmserver.rules.limits: real mail passes, mail that would be ruinous to parse is caught on its
raw bytes."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmserver.rules import limits
from gmserver.rules.envelope import glance_envelope
from gmserver.rules.limits import first_excess
from tests.support.hostile import encoded_word_bomb, nested_multipart

EMAILS = Path(__file__).resolve().parents[1] / "data" / "orders" / "emails"


def test_every_sample_order_mail_passes() -> None:
    samples = sorted(EMAILS.glob("*.eml"))
    assert len(samples) >= 20
    assert {path.name: first_excess(path.read_bytes()) for path in samples} == {p.name: None for p in samples}


def big_real_headers() -> bytes:
    """Headers as large as real Outlook/Gmail mail gets (about 25 KB): a long Received chain,
    DKIM and ARC signatures, a long References list, a Cc of 60 non-ASCII names."""
    received = b"".join(
        b"Received: from mx%d.mail.example.net (mx%d.mail.example.net [10.1.2.%d])\r\n"
        b"\tby relay.example.org (Postfix) with ESMTPS id 4Zx%dAbCd\r\n"
        b"\tfor <gm@gm.test>; Mon, 23 Nov 2026 15:05:00 +0000 (UTC)\r\n" % (i, i, i, i) for i in range(40))
    signature = b"\r\n\t".join([b"b=" + b"A" * 70] * 6)
    dkim = b"".join(b"%s: i=%d; a=rsa-sha256; d=example.net; s=s1; h=from:to:subject:date;\r\n\t%s\r\n"
                    % (name, i, signature) for i in range(1, 4)
                    for name in (b"ARC-Seal", b"ARC-Message-Signature", b"DKIM-Signature"))
    references = b"References: " + b"\r\n ".join(b"<CAF%032d@mail.gmail.com>" % i for i in range(80)) + b"\r\n"
    cc = b"Cc: " + b",\r\n ".join(b"=?utf-8?q?J=C3=BCrgen_M=C3=BCller_%d?= <j%d@example.de>" % (i, i)
                                  for i in range(60)) + b"\r\n"
    return (received + dkim + references + cc + b"From: Anna <anna@example.org>\r\nTo: gm@gm.test\r\n"
            b"Subject: =?utf-8?q?lepanto_France_S1901M_=E2=80=93_ordres?=\r\n")


def test_headers_as_large_as_real_mail_gets_pass() -> None:
    raw = big_real_headers() + b"MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nA PAR H\r\n"
    assert len(raw) > 20_000
    assert first_excess(raw) is None


def test_a_real_shaped_multipart_with_attachments_and_a_forward_passes() -> None:
    attachment = b"Content-Type: image/png; name=map.png\r\nContent-Transfer-Encoding: base64\r\n\r\n" + (
        b"iVBORw0KGgoAAAANSUhEUgAA" * 3 + b"\r\n") * 2000
    forwarded = (b"Content-Type: message/rfc822\r\n\r\nFrom: b@x.test\r\nSubject: old\r\n"
                 b"Content-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\n"
                 b"Content-Type: text/plain\r\n\r\nhi\r\n--inner\r\nContent-Type: text/html\r\n\r\n<p>hi\r\n--inner--\r\n")
    raw = (big_real_headers() + b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"outer\"\r\n\r\n"
           b"--outer\r\nContent-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\n"
           b"Content-Type: text/plain\r\n\r\nA PAR H\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>A PAR H\r\n--alt--\r\n"
           + b"".join(b"--outer\r\n" + attachment for _ in range(20)) + b"--outer\r\n" + forwarded + b"--outer--\r\n")
    assert first_excess(raw) is None


@pytest.mark.parametrize("size", [140_000, 280_000])
def test_the_encoded_word_bomb_is_caught_by_its_subject(size: int) -> None:
    excess = first_excess(encoded_word_bomb(size))
    assert excess is not None and (excess.what, excess.kind) == ("Its Subject header", "bytes")
    assert excess.describe() == (f"Its Subject header is {excess.found:,} bytes long; gmserver reads at most "
                                 "65,536 bytes (64 KB) there")


def test_encoded_words_are_counted_even_when_every_header_is_small() -> None:
    words = b" ".join([b"=?utf-8?q?A?="] * 50)
    raw = b"From: a@b.test\r\n" + b"".join(b"X-Filler-%d: %s\r\n" % (i, words) for i in range(21)) + b"\r\nhi\r\n"
    excess = first_excess(raw)
    assert excess is not None and (excess.kind, excess.found, excess.limit) == ("encoded words", 1050, 1000)
    assert "1,050 encoded words" in excess.describe()
    assert first_excess(raw.replace(b"X-Filler-20", b"X-Filler-X", 1).replace(words + b"\r\n\r\n", b"x\r\n\r\n")) is None


def test_a_header_section_of_many_small_headers_is_bounded() -> None:
    raw = b"From: a@b.test\r\n" + b"X-Stamp: " + b"x" * 70 + b"\r\n" * 1 + b"".join(
        b"X-Stamp-%d: %s\r\n" % (i, b"x" * 70) for i in range(1700)) + b"\r\nhi\r\n"
    excess = first_excess(raw)
    assert excess is not None and excess.what == "The message's header section" and excess.kind == "bytes"


@pytest.mark.parametrize(("depth", "refused"), [(1, False), (limits.MAX_MIME_DEPTH, False),
                                                (limits.MAX_MIME_DEPTH + 1, True), (1000, True)])
def test_nesting_depth_is_counted_as_the_parser_would_see_it(depth: int, refused: bool) -> None:
    raw = nested_multipart(depth)
    if not refused:  # the parser agrees on the depth
        part, seen = email.message_from_bytes(raw, policy=email.policy.default), 0
        while part.is_multipart():
            part, seen = part.get_payload()[0], seen + 1
        assert seen == depth
    excess = first_excess(raw)
    assert (excess is not None) == refused
    if refused:
        assert excess.kind == "depth" and "nested more than 32 levels deep" in excess.describe()


def test_message_rfc822_counts_as_a_level() -> None:
    inner = b"From: a@b.test\r\nSubject: fwd\r\n\r\nA PAR H\r\n"
    for _ in range(limits.MAX_MIME_DEPTH + 1):
        inner = b"From: a@b.test\r\nSubject: fwd\r\nContent-Type: message/rfc822\r\n\r\n" + inner
    excess = first_excess(inner)
    assert excess is not None and excess.kind == "depth"


def test_sibling_multiparts_closed_in_turn_do_not_add_up_to_depth() -> None:
    sibling = (b"--top\r\nContent-Type: multipart/alternative; boundary=alt%d\r\n\r\n--alt%d\r\n"
               b"Content-Type: text/plain\r\n\r\nx\r\n--alt%d--\r\n")
    raw = (b"From: a@b.test\r\nContent-Type: multipart/mixed; boundary=top\r\n\r\n"
           + b"".join(sibling % (i, i, i) for i in range(100)) + b"--top--\r\n")
    assert first_excess(raw) is None


def test_an_outer_boundary_closes_the_inner_levels() -> None:
    # 40 multiparts each opened inside the last but never closed; the outer boundary ends them all
    unclosed = b"".join(b"--top\r\nContent-Type: multipart/mixed; boundary=in%d\r\n\r\n--in%d\r\n"
                        b"Content-Type: text/plain\r\n\r\nx\r\n" % (i, i) for i in range(40))
    raw = b"From: a@b.test\r\nContent-Type: multipart/mixed; boundary=top\r\n\r\n" + unclosed + b"--top--\r\n"
    assert first_excess(raw) is None


def test_the_number_of_parts_is_bounded() -> None:
    def message(parts: int) -> bytes:
        return (b"From: a@b.test\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n"
                + b"--p\r\nContent-Type: text/plain\r\n\r\nx\r\n" * parts + b"--p--\r\n")

    assert first_excess(message(limits.MAX_MIME_PARTS)) is None
    excess = first_excess(message(limits.MAX_MIME_PARTS + 1))
    assert excess is not None and excess.kind == "parts" and "more than 1,000 parts" in excess.describe()


def test_a_huge_header_inside_a_part_is_caught() -> None:
    raw = (b"From: a@b.test\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n--p\r\n"
           b"Content-Type: text/plain; name=\"" + b"x" * (limits.MAX_HEADER_BYTES + 10) + b"\"\r\n\r\nx\r\n--p--\r\n")
    excess = first_excess(raw)
    assert excess is not None and excess.what == "Its Content-Type header"


def test_the_whole_message_is_bounded() -> None:
    raw = b"From: a@b.test\r\n\r\n" + (b"x" * 76 + b"\r\n") * (limits.MAX_MESSAGE_BYTES // 78 + 1)
    excess = first_excess(raw)
    assert excess is not None and excess.what == "The message" and "at most 41,943,040 bytes (40 MB)" in excess.describe()


@pytest.mark.parametrize("raw", [b"", bytes(range(256)) * 8, b"no headers at all", b"\r\n\r\n",
                                 b"Content-Type: multipart/mixed\r\n\r\n--\r\n", b"From: x\r\n\r\n--p\r\n--p--"])
def test_junk_is_not_over_any_bound(raw: bytes) -> None:
    assert first_excess(raw) is None


# Any bytes at all: the checks that run before every parse must never raise themselves.
_MIME_PIECES = st.sampled_from([b"From: a@b.test\r\n", b"Subject: =?utf-8?q?A?= x\r\n", b"\r\n", b"--b\r\n",
                                b"--b--\r\n", b"Content-Type: multipart/mixed; boundary=b\r\n",
                                b"Content-Type: message/rfc822\r\n", b" folded\r\n", b"x" * 70 + b"\r\n"])


@settings(max_examples=300, deadline=None)
@given(raw=st.one_of(st.binary(max_size=2000), st.lists(_MIME_PIECES, max_size=60).map(b"".join)))
def test_the_bounds_and_the_glance_take_any_bytes(raw: bytes) -> None:
    excess = first_excess(raw)
    assert excess is None or excess.describe()
    envelope = glance_envelope(raw)
    assert envelope.sender == "" or "@" in envelope.sender


def test_comments_nested_deeper_than_parsers_go_are_caught_but_a_frowning_subject_is_not() -> None:
    def message(header: bytes) -> bytes:
        return b"From: a@b.test\r\n" + header + b"\r\n\r\nhi\r\n"

    excess = first_excess(message(b"Content-Type: text/plain " + b"(" * 1000))
    assert excess is not None and excess.what == "Its Content-Type header" and excess.kind == "comments"
    assert "parentheses nested more than 32 deep" in excess.describe()
    assert first_excess(message(b"To: " + b"(" * 33 + b"a@b.test")) is not None
    assert first_excess(message(b"To: (Anna (work)) a@b.test, " + b"(x) " * 500 + b"b@c.test")) is None
    assert first_excess(message(b"Subject: lost the war :-" + b"(" * 1000)) is None
