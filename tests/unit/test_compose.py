"""Outgoing messages, template rendering, and which incoming mail must never be answered."""

from __future__ import annotations

import email
import email.policy
import email.utils
from dataclasses import dataclass
from datetime import UTC, datetime

import jinja2
import pytest

from gmserver.mail.compose import Composer, fill, is_automated
from gmserver.paths import TEMPLATES_DIR

NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)


@pytest.fixture()
def composer():
    return Composer(TEMPLATES_DIR, gm_name="Garry, Lord of the March", gm_address="gm@lepanto.example")


def compose(composer, **kwargs):
    kwargs.setdefault("to", "Bob <bob@example.net>")
    kwargs.setdefault("subject", "lepanto: Spring 1901 results")
    kwargs.setdefault("body", "Hello Zürich\n")
    kwargs.setdefault("auto_submitted", "auto-generated")
    kwargs.setdefault("date", NOW)
    return composer.compose(**kwargs)


def reparse(message):
    return email.message_from_bytes(message.as_bytes(), policy=email.policy.default)


# ---------------------------------------------------------------------------------------------
# compose

START = "[gmserver mail: a copy of it quoted in a reply is not read]"
END = "[end of gmserver mail]"


def test_headers_and_body(composer):
    message = reparse(compose(composer))
    assert message["From"].addresses[0].display_name == "Garry, Lord of the March"
    assert message["From"].addresses[0].addr_spec == "gm@lepanto.example"
    assert str(message["To"]) == "Bob <bob@example.net>"
    assert str(message["Subject"]) == "lepanto: Spring 1901 results"
    assert email.utils.parsedate_to_datetime(str(message["Date"])) == NOW
    assert str(message["Auto-Submitted"]) == "auto-generated"
    assert str(message["X-Auto-Response-Suppress"]) == "All"
    assert message["Precedence"] is None
    assert message["In-Reply-To"] is None and message["References"] is None
    assert message.get_content_type() == "text/plain"
    assert message.get_content_charset() == "utf-8"
    # gmserver's mail is marked so that a reply quoting it is never read as orders
    assert message.get_content() == ("[gmserver mail: a copy of it quoted in a reply is not read]\n\n"
                                     "Hello Zürich\n\n[end of gmserver mail]\n")


@pytest.mark.parametrize(("first_secret", "secret"), [("s3cret1", "s3cret2"), (None, "s3cret2"), ("s3cret1", None),
                                                    (None, None)])
@pytest.mark.parametrize("body", ["Hello Zürich\n", "plain ASCII report\n" * 40, ("x" * 990 + "\n") * 3])
def test_readdress_gives_the_bytes_compose_gives(composer, first_secret, secret, body):
    """One report per player (services.turn.turn_report.turn_report): the copy for another player is the
    very message `compose` would have made for them, byte for byte."""
    first = compose(composer, to="anna@example.org", subject="lepanto England S1901M results", body=body,
                    reply_secret=first_secret, references=["<a@x.example>"], in_reply_to="<b@x.example>")
    other = composer.readdress(first, to="bob@example.net", subject="lepanto France S1901M results",
                               reply_secret=secret, message_id="<fixed@lepanto.example>")
    wanted = compose(composer, to="bob@example.net", subject="lepanto France S1901M results", body=body,
                     reply_secret=secret, references=["<a@x.example>"], in_reply_to="<b@x.example>",
                     message_id="<fixed@lepanto.example>")
    for policy in (email.policy.SMTP, email.policy.default):
        assert other.as_bytes(policy=policy) == wanted.as_bytes(policy=policy)
    assert "anna" not in other.as_string() and first["To"] == "anna@example.org"  # the original is unchanged


def test_readdress_makes_a_new_message_id(composer):
    first = compose(composer)
    assert composer.readdress(first, to="c@example.org", subject="s")["Message-ID"] != first["Message-ID"]


def test_display_name_with_a_comma_is_quoted(composer):
    raw = compose(composer).as_string()
    assert 'From: "Garry, Lord of the March" <gm@lepanto.example>' in raw


def test_message_id_is_in_the_gm_domain_and_fixed_at_creation(composer):
    message = compose(composer)
    message_id = str(message["Message-ID"])
    assert message_id.startswith("<") and message_id.endswith("@lepanto.example>")
    assert str(reparse(message)["Message-ID"]) == message_id  # serialising does not change it
    assert str(compose(composer)["Message-ID"]) != message_id
    again = compose(composer, message_id=message_id)
    assert str(again["Message-ID"]) == message_id


def test_reply_threading_headers(composer):
    message = compose(
        composer,
        auto_submitted="auto-replied",
        in_reply_to="<orders-2@example.net>",
        references=["<root@example.net>", "<orders-1@example.net>"],
    )
    assert str(message["In-Reply-To"]) == "<orders-2@example.net>"
    assert str(message["References"]).split() == [
        "<root@example.net>", "<orders-1@example.net>", "<orders-2@example.net>"
    ]
    assert str(message["Auto-Submitted"]) == "auto-replied"


def test_reply_without_references_and_no_duplicate(composer):
    message = compose(composer, auto_submitted="auto-replied", in_reply_to="<a@x>")
    assert str(message["References"]) == "<a@x>"
    message = compose(composer, auto_submitted="auto-replied", in_reply_to="<a@x>", references=["<a@x>"])
    assert str(message["References"]) == "<a@x>"


def test_long_lines_and_ascii_bodies_travel_intact(composer):
    body = "x" * 120 + "\n" + "plain line\n"
    message = reparse(compose(composer, body=body))
    assert message.get_content() == f"{START}\n\n{body}\n{END}\n"
    ascii_only = compose(composer, body="no newline at the end")
    assert ascii_only["Content-Transfer-Encoding"] == "7bit"
    assert ascii_only.get_content() == f"{START}\n\nno newline at the end\n\n{END}\n"


def test_a_reports_machine_lines_stay_above_the_marker(composer):
    """The `::` lines stay above the marker, at the top, where mail filters look for them."""
    message = reparse(compose(composer, body=":: Game: lepanto\n:: Phase: S1901M\n\nResults\n"))
    assert message.get_content() == f":: Game: lepanto\n:: Phase: S1901M\n{START}\n\nResults\n\n{END}\n"


def test_our_own_messages_are_automated(composer):
    assert is_automated(reparse(compose(composer)))


def test_gm_address_must_have_a_domain():
    with pytest.raises(ValueError):
        Composer(TEMPLATES_DIR, gm_name="GM", gm_address="gm")


# ---------------------------------------------------------------------------------------------
# render


@pytest.fixture()
def tmp_composer(tmp_path):
    (tmp_path / "hello.txt.j2").write_text(
        "{% if name %}\nHello {{ name }}   \n{% endif %}\nBye {{ gm_name }}\n"
    )
    return Composer(tmp_path, gm_name="Garry", gm_address="gm@lepanto.example")


def test_render_mapping_and_dataclass(tmp_composer):
    @dataclass(frozen=True)
    class Context:
        name: str

    expected = "Hello Bob\nBye Garry\n"  # trim_blocks, lstrip_blocks, trailing newline kept
    assert tmp_composer.render("hello.txt.j2", {"name": "Bob"}) == expected
    assert tmp_composer.render("hello.txt.j2", Context("Bob")) == expected


def test_render_leaves_no_text_escaped(tmp_composer):
    assert tmp_composer.render("hello.txt.j2", {"name": "<A & B>"}).startswith("Hello <A & B>\n")


def test_missing_variable_fails_loudly(tmp_composer):
    with pytest.raises(jinja2.UndefinedError):
        tmp_composer.render("hello.txt.j2", {})


@pytest.mark.parametrize("template", ["report", "confirmation", "rejection", "reminder"])
def test_player_templates_refuse_an_incomplete_context(composer, template):
    with pytest.raises(jinja2.UndefinedError):
        composer.render(f"player/{template}.txt.j2", {"game_name": "lepanto"})


def test_render_refuses_other_contexts(tmp_composer):
    with pytest.raises(TypeError):
        tmp_composer.render("hello.txt.j2", ["name"])


@pytest.mark.parametrize(
    ("chunks", "width", "indent", "sep", "expected"),
    [
        (["Ankara", "Belgium", "Berlin"], 20, "  ", ", ", "Ankara, Belgium,\n  Berlin"),
        (["St Petersburg", "Sevastopol"], 16, "", ", ", "St Petersburg,\nSevastopol"),
        (["A Paris -> Burgundy", "(A PAR - BUR): bounced"], 30, "    ", " ",
         "A Paris -> Burgundy\n    (A PAR - BUR): bounced"),
        ("short", 72, "", ", ", "short"),
        (["a very long chunk that cannot fit"], 12, "  ", ", ", "a very long\n  chunk that\n  cannot fit"),
        ([], 10, "", ", ", ""),
    ],
)
def test_fill(chunks, width, indent, sep, expected):
    assert fill(chunks, width, indent, sep) == expected


# ---------------------------------------------------------------------------------------------
# is_automated: RFC 3834 sections 2 and 5, and common practice

HUMAN = "From: Bob <bob@example.net>\nTo: gm@lepanto.example\nSubject: lepanto France S1901M\n"


@pytest.mark.parametrize(
    ("headers", "automated"),
    [
        ("", False),
        ("Auto-Submitted: no\n", False),
        ("Auto-Submitted: No (a person wrote this)\n", False),
        ("Auto-Submitted: auto-replied\n", True),
        ("Auto-Submitted: auto-generated\n", True),
        ("Auto-Submitted: auto-notified\n", True),  # RFC 5436
        ("Auto-Submitted: auto-replied; owner-email=\"bob@example.net\"\n", True),
        ("Auto-Submitted: something-new\n", True),  # anything but "no"
        ("Return-Path: <>\n", True),  # RFC 3834 section 2: never answer a null return path
        ("Return-Path: \n", True),
        ("Return-Path: <bob@example.net>\n", False),
        ("Precedence: bulk\n", True),
        ("Precedence: junk\n", True),
        ("Precedence: list\n", True),
        ("Precedence: first-class\n", False),
        ("List-Id: Diplomacy players <dip.lists.example.net>\n", True),
        ("List-Unsubscribe: <mailto:leave@lists.example.net>\n", True),
        ("X-Autoreply: yes\n", True),
        ("X-Autorespond: Out of office\n", True),
        ("X-Autoreply: no\n", False),
        ("Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\n", True),
        ("Content-Type: text/plain; charset=utf-8\n", False),
    ],
)
@pytest.mark.parametrize("policy", [email.policy.compat32, email.policy.default])
def test_is_automated_headers(headers, automated, policy):
    message = email.message_from_string(HUMAN + headers + "\nA PAR - BUR\n", policy=policy)
    assert is_automated(message) is automated


@pytest.mark.parametrize(
    ("sender", "automated"),
    [
        ("MAILER-DAEMON@mx.example.net", True),
        ("Mail Delivery System <MAILER-DAEMON@mx.example.net>", True),
        ("postmaster@example.net", True),
        ("owner-diplomacy@lists.example.net", True),
        ("diplomacy-request@lists.example.net", True),
        ("diplomacy-bounces@lists.example.net", True),
        ("Postmaster General <bob@example.net>", False),  # only the address counts
        ("Bob <bob@example.net>", False),
    ],
)
def test_is_automated_senders(sender, automated):
    message = email.message_from_string(f"From: {sender}\nSubject: x\n\nbody\n", policy=email.policy.default)
    assert is_automated(message) is automated


def test_is_automated_survives_malformed_headers():
    raw = b"From: =?utf-8?q?broken\nReturn-Path: <<<>\nSubject: x\n\nbody\n"
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert is_automated(message) is False


def test_message_ids_do_not_depend_on_the_global_random_state() -> None:
    """The engine reseeds `random` when it loads a map; ids must stay unique regardless."""
    import random

    from gmserver.mail.compose import new_message_id

    random.seed(7)
    first = new_message_id("gm.test")
    random.seed(7)
    assert new_message_id("gm.test") != first and first.endswith("@gm.test>")


def test_the_marker_is_followed_by_one_blank_line():
    """The marker opens every mail; the QA walkthrough read two blank lines after it (the
    blank ending a report's `::` lines was kept too): one blank line, then the text."""
    from gmserver.mail.compose import mark_gm_mail
    from gmserver.rules.reading.quoting import GM_MAIL_END, GM_MAIL_START

    report = ":: Game: lepanto\n:: Phase: F1902M\n\nlepanto: results\n"
    assert mark_gm_mail(report) == (
        f":: Game: lepanto\n:: Phase: F1902M\n{GM_MAIL_START}\n\nlepanto: results\n\n{GM_MAIL_END}\n")
    assert mark_gm_mail("\nYour press in demo:\n") == f"{GM_MAIL_START}\n\nYour press in demo:\n\n{GM_MAIL_END}\n"
