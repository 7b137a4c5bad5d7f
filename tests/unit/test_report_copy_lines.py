"""A player's copy of a report is written with the line ends the email package writes
(services/base/report_copies.py writes them with str.replace, not the generator's regex)."""

from __future__ import annotations

from email.generator import NLCRE

from hypothesis import given
from hypothesis import strategies as st

from gmserver.services.base.report_copies import with_line_ends


@given(text=st.text(alphabet="a\r\n é", max_size=40), line_end=st.sampled_from(["\r\n", "\n"]))
def test_line_ends_are_those_of_the_email_generator(text: str, line_end: str) -> None:
    assert with_line_ends(text, line_end) == NLCRE.sub(line_end, text)


def test_a_cr_before_a_crlf_is_two_line_ends() -> None:
    assert with_line_ends("a\r\r\nb\n\rc", "\r\n") == "a\r\n\r\nb\r\n\r\nc"
