"""RFC 3676 format=flowed: the soft breaks a client put in a long line are undone."""

from __future__ import annotations

from gmserver.rules.reading.flowed import unflow
from gmserver.rules.reading.message import extract_order_text

FLOWED = (
    "From: p@example.org\r\nTo: gm@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n"
    "Content-Type: text/plain; charset=utf-8; format=flowed{delsp}\r\n\r\n"
    "A Munich supports A Berlin to \r\nKiel\r\nF Kie - Den\r\n"
)


def test_a_soft_break_joins_the_line_rfc_3676_4_1():
    assert extract_order_text(FLOWED.format(delsp="")).splitlines()[:2] == [
        "A Munich supports A Berlin to Kiel", "F Kie - Den"]


def test_delsp_yes_deletes_the_space_before_the_break_rfc_3676_4_2():
    text = FLOWED.format(delsp="; delsp=yes").replace("to \r\nKiel", "to K \r\niel")
    assert extract_order_text(text).splitlines()[0] == "A Munich supports A Berlin to Kiel"


def test_without_format_flowed_lines_stay_apart():
    text = FLOWED.format(delsp="").replace("; format=flowed", "")
    assert extract_order_text(text).splitlines()[:2] == ["A Munich supports A Berlin to ", "Kiel"]


def test_quoted_lines_join_only_at_one_depth_and_stuffing_is_removed_rfc_3676_4_4_4_5():
    assert unflow("> A Par - \n> Bur\n>> old \nnew\n From here") == "> A Par - Bur\n>> old \nnew\nFrom here"  # 4.5: a depth change ends it as written


def test_the_signature_separator_never_flows_rfc_3676_4_3():
    assert unflow("A Par H\n-- \nJane") == "A Par H\n-- \nJane"
