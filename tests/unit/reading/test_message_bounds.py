"""What of a message is read: HTML converted in time that grows with its length alone, and no
more than the bounds of gmserver.rules.reading.message (the rest is said to be unread)."""

from __future__ import annotations

import resource
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

from gmserver.rules.reading.message import (
    MAX_HTML_CHARS,
    MAX_READ_BYTES,
    MAX_TEXT_CHARS,
    html_to_text,
    read_message,
)

ROOT = Path(__file__).resolve().parents[3]
# CPU seconds the child may use: reading the 400 KB bomb below took minutes with html.parser
CPU_SECONDS = 5


def _mail(body: str, subtype: str = "plain") -> bytes:
    message = EmailMessage()
    message["From"] = "stranger@elsewhere.test"
    message["To"] = "gm@gm.test"
    message["Subject"] = "lepanto France S1901M"
    message.set_content(body, subtype=subtype, cte="base64")
    return bytes(message)


def _cpu_limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


CHILD = """
import sys
from email.message import EmailMessage
from gmserver.rules.reading.message import extract_order_text
body = {"tags": "<a" * 200_000, "brackets": "<" * 1_000_000, "closed tags": "<a>" * 300_000}[sys.argv[1]]
message = EmailMessage()
message["From"], message["Subject"] = "stranger@elsewhere.test", "hello"
message.set_content(body, subtype="html", cte="base64")
extract_order_text(bytes(message))
print("read")
"""


@pytest.mark.parametrize("shape", ["tags", "brackets", "closed tags"])
def test_an_html_bomb_is_read_within_a_few_cpu_seconds(shape: str) -> None:
    """'<a' * 200,000 took minutes in html.parser (its time grows with the square of the input);
    a child limited to a few CPU seconds is killed if reading it is not linear."""
    child = subprocess.run([sys.executable, "-c", CHILD, shape], cwd=ROOT, capture_output=True, text=True,
                           preexec_fn=_cpu_limit, timeout=300)
    assert child.returncode == 0, f"killed or failed ({child.returncode}): {child.stderr[-500:]}"
    assert child.stdout.strip() == "read"


WROTE_CHILD = """
from gmserver.rules.reading.quoting import wrote_at
wrote_at([" " * 2_000_000 + "x"], 0)
print("read")
"""


def test_a_line_of_blanks_is_no_slower_to_read_than_its_length() -> None:
    """The "... wrote:" pattern tried up to 300 characters after each leading blank: a line of
    2,000,000 blanks took some 16 CPU seconds, under the text bound 100,000 blanks 0.8 s."""
    child = subprocess.run([sys.executable, "-c", WROTE_CHILD], cwd=ROOT, capture_output=True, text=True,
                           preexec_fn=_cpu_limit, timeout=300)
    assert child.returncode == 0 and child.stdout.strip() == "read", child.stderr[-500:]


def test_html_past_its_bound_is_not_read() -> None:
    markup = "<p>A PAR H</p>" + "<b>x</b>" * (MAX_HTML_CHARS // 8) + "<p>F BRE H</p>"
    text = html_to_text(markup)
    assert "A PAR H" in text and "F BRE H" not in text
    read = read_message(_mail(markup, "html"))
    assert "A PAR H" in read.orders and "F BRE H" not in read.orders
    assert "HTML" in read.unread and f"{MAX_HTML_CHARS:,}" in read.unread


def test_text_past_its_bound_is_not_read_and_the_reader_is_told() -> None:
    body = "A PAR H\n" + ("x" * 79 + "\n") * (MAX_TEXT_CHARS // 80) + "F BRE H\n"
    read = read_message(_mail(body))
    assert read.orders.startswith("A PAR H") and "F BRE H" not in read.orders
    assert len(read.orders) <= MAX_TEXT_CHARS
    assert read.unread == (f"Your message is longer than gmserver reads: only the first {MAX_TEXT_CHARS:,} "
                           "characters of its text were read; the rest was not read.")


def test_a_message_past_the_read_bound_says_how_much_was_read() -> None:
    body = "A PAR H\n" + ("y" * 79 + "\n") * (MAX_READ_BYTES // 60)
    assert f"only its first {MAX_READ_BYTES:,} bytes were read" in read_message(_mail(body)).unread


def test_mail_within_the_bounds_has_nothing_unread() -> None:
    assert read_message(_mail("A PAR H\nF BRE H\n")).unread == ""


def test_html_details_the_scan_keeps() -> None:
    """Entities, scripts with '<' inside, comments, declarations, '<' as text, self-closing br."""
    markup = ("<!DOCTYPE html><html><head><style>p { x: 1 }</style><script>if (a<b) x()</script></head>"
              "<body><!-- <p>A MAR H</p> --><p>A PAR &amp; B&nbsp;<3 1 < 2</p>F BRE H<br/>A MUN H"
              "<div class='gmail_quote'>On Mon wrote:<p>A KIE H</p></div></body></html>")
    assert html_to_text(markup).split("\n") == ["A PAR & B <3 1 < 2", "F BRE H", "A MUN H"]


def test_a_quoted_angle_bracket_does_not_end_a_tag_and_a_tag_never_closed_is_text() -> None:
    """As html.parser read them: "x > y" in an attribute is not text; a trailing "<A PAR" is."""
    assert html_to_text('<img alt="a > b" src=x><p>A PAR - BUR</p><A MAR H') == "A PAR - BUR\n<A MAR H"
