"""the subject line each player's copy of a report shows is a pure function of the report
and the power (reports.with_orders_subject), put into a copy without touching the others' parts."""

from __future__ import annotations

from email.message import EmailMessage

from gmserver.mail.compose import add_html, with_text_edited
from gmserver.reports.turn import ORDERS_SUBJECT_MARK, TurnReport, with_orders_subject, with_subject_template


def report(next_phase: str | None = "F1901M", **fields) -> TurnReport:
    return TurnReport(game_name="lepanto", phase="S1901M", phase_name="Spring 1901 Movement", orders=(), dislodged=(),
                      centres=(), unowned_centres=(), centres_changed=False, adjustments=(), unused_builds=(),
                      engine_removals=(), units=(), next_phase=next_phase, next_phase_name=None, next_deadline=None,
                      to_order=(), game_over=next_phase is None, winners=(), **fields)


def test_each_power_gets_its_own_line_and_the_gm_a_placeholder() -> None:
    shown = with_subject_template(report(), "email_rules")
    text = f"Subject line for your orders: {shown.orders_subject_mark}"
    assert with_orders_subject(text, shown, "FRANCE") == "Subject line for your orders: lepanto France Fall 1901 orders"
    assert with_orders_subject(text, shown, None) == "Subject line for your orders: lepanto <your power> Fall 1901 orders"
    assert with_orders_subject(text, shown, None, html=True).endswith("lepanto &lt;your power&gt; Fall 1901 orders")


def test_no_line_when_the_game_is_over_or_the_next_phase_is_processed_at_once() -> None:
    assert with_subject_template(report(None), "default").orders_subject_mark == ""
    assert with_subject_template(report(processed_at_once=True), "default").orders_subject_mark == ""


def test_with_text_edited_leaves_the_message_it_copies_untouched() -> None:
    message = EmailMessage()
    message["To"] = "a@b.test"
    message.set_content(f"line: {ORDERS_SUBJECT_MARK}\n")
    message = add_html(message, f"<p>{ORDERS_SUBJECT_MARK}</p>", attachments=[("d.ics", "text/calendar", b"X")])
    copy = with_text_edited(message, lambda subtype, text: text.replace(ORDERS_SUBJECT_MARK, subtype.upper()))
    assert copy["To"] == "a@b.test"
    assert copy.get_body(("plain",)).get_content() == "line: PLAIN\n"
    assert "<p>HTML</p>" in copy.get_body(("html",)).get_content()
    assert ORDERS_SUBJECT_MARK in message.get_body(("plain",)).get_content()
    assert ORDERS_SUBJECT_MARK in message.get_body(("html",)).get_content()
    # the calendar attachment is shared, not copied
    assert list(copy.iter_attachments())[0] is list(message.iter_attachments())[0]
