"""compose.TextRewriter writes a text part's copies with other texts exactly as `set_content` on a
copy of the part does (the bytes of each player's copy of a turn report depend on it), reusing
the part's headers and each line's quoted-printable encoding where that gives the same bytes."""

from __future__ import annotations

import copy
import email.policy
from email.message import EmailMessage

from hypothesis import given, settings
from hypothesis import strategies as st

from gmserver.mail.compose import TextRewriter, with_text_edited

# lines with what changes the encoding: non-ASCII, long lines (soft breaks), trailing blanks,
# '=' and other characters quoted-printable escapes, vertical tabs and form feeds
LINE = st.lists(st.sampled_from([*"ab =\t.<>&é€ßZ\x0b\x0c\x85", "x" * 40]), max_size=12).map("".join)
TEXT = st.lists(LINE, min_size=0, max_size=30).map(lambda lines: "\n".join(lines) + "\n")


def part_of(text: str, subtype: str) -> EmailMessage:
    message = EmailMessage()
    message.set_content(text, subtype=subtype, charset="utf-8")
    return message


def set_content_copy(part: EmailMessage, text: str) -> bytes:
    """What with_text_edited does without a rewriter: set_content on a copy of the part."""
    message = copy.deepcopy(part)
    message.set_content(text, subtype=part.get_content_subtype(), charset="utf-8")
    return message.as_bytes(policy=email.policy.SMTP)


@settings(max_examples=300, deadline=None)
@given(base=TEXT, edits=st.lists(TEXT, min_size=1, max_size=4), subtype=st.sampled_from(["plain", "html"]))
def test_each_rewrite_is_what_set_content_writes(base: str, edits: list[str], subtype: str) -> None:
    part = part_of(base, subtype)
    rewriter = TextRewriter(part)
    for text in edits + edits:  # the second round reuses what the first encoded
        assert rewriter.rewritten(text).as_bytes(policy=email.policy.SMTP) == set_content_copy(part, text)


@settings(max_examples=100, deadline=None)
@given(head=st.lists(LINE, min_size=11, max_size=14), tail=st.lists(LINE, max_size=20), own=LINE)
def test_a_long_report_whose_lines_differ_in_one_place(head: list[str], tail: list[str], own: str) -> None:
    """As a turn report's HTML: the same first lines, a long line, the player's own line."""
    mark = "@@MARK@@"
    base = "\n".join([*head, "é" + "y" * 90, mark, *tail]) + "\n"
    part = part_of(base, "html")
    rewriter = TextRewriter(part)
    for power in ("FRANCE", own, "TURKEY", own):
        text = base.replace(mark, power)
        assert rewriter.rewritten(text).as_bytes(policy=email.policy.SMTP) == set_content_copy(part, text)


def test_with_text_edited_uses_the_rewriters_and_leaves_the_rest_shared() -> None:
    message = EmailMessage()
    message.set_content("one\n")
    message.add_alternative("<p>one</p>\n", subtype="html")
    message.add_attachment(b"data", maintype="application", subtype="octet-stream", filename="d.bin")
    for number, part in enumerate(message.walk()):
        if part.is_multipart():
            part.set_boundary(f"b{number}")  # not random: the two writings compared
    rewriters = {id(part): TextRewriter(part) for part in message.walk()
                 if part.get_content_maintype() == "text" and not part.is_attachment()}
    plain = with_text_edited(message, lambda subtype, text: text.replace("one", "two"))
    fast = with_text_edited(message, lambda subtype, text: text.replace("one", "two"), rewriters)
    assert fast.as_bytes(policy=email.policy.SMTP) == plain.as_bytes(policy=email.policy.SMTP)
    assert list(fast.iter_attachments())[0] is list(message.iter_attachments())[0]
    assert with_text_edited(message, lambda subtype, text: text, rewriters) is message
