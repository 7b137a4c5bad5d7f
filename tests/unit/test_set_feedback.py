"""000 III(1): "No presumption that a player wants a complete set of valid orders. GM may ask for
clarification of an invalid set if (a) such sets are unusual from this player, (b) time remains
before the deadline, (c) the player has not said the orders are meant as written."

invalid_set_feedback (mhr: conditional_mhr), clarification_min_hours (12 [P]),
confirm_each_set. The expectations are worked out by hand from the clause: (a) is the GM's
per-player switch (the GM has not switched clarifications off for this player),
(b) counts the hours left before the deadline, (c) looks for "as written" in the message.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta

import pytest

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import build_confirmation
from gmserver.rules.set_feedback import (
    ASK,
    ECHO,
    RECEIPT,
    SILENT,
    InvalidRecord,
    invalid_record,
    set_feedback,
    with_as_written,
)
from tests.unit.reading.support import opening, read, ruleset

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
INVALID_SET = "A Par - Xyz\nA Mar S A Par - Bur\nF Bre - Pic"  # line 1: 'Xyz' is no province
VALID_SET = "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Pic"


def _feedback(text: str, profile_or_ruleset, *, hours_left: float | None = 30, clarify: bool = True,
              subject: str = ""):
    rules = ruleset(profile_or_ruleset) if isinstance(profile_or_ruleset, str) else profile_or_ruleset
    reading = read(text, opening(), "france", "mhr")
    deadline = None if hours_left is None else NOW + timedelta(hours=hours_left)
    return set_feedback(rules, statuses=[line.status for line in reading.lines],
                        texts=[subject, *(line.text for line in reading.lines)], clarify=clarify,
                        deadline=deadline, now=NOW)


# (text, hours left, the GM's switch for the player) -> asked?, why not
CONDITIONS = [
    pytest.param(INVALID_SET, 30, True, ASK, None, id="all three hold: asked"),
    pytest.param(INVALID_SET, 30, False, RECEIPT, "the GM has found that sets with lines that cannot be used are "
                 "not unusual from you", id="(a) the GM switched clarifications off: a receipt"),
    pytest.param(INVALID_SET, 11, True, RECEIPT, "less than 12 hours remain", id="(b) fails, 11 h left: a receipt"),
    pytest.param(INVALID_SET, 12, True, ASK, None, id="(b) holds at exactly 12 h left: asked"),
    pytest.param(INVALID_SET, None, True, ASK, None, id="(b) no deadline set: asked"),
    pytest.param(INVALID_SET + "\nAs written", 30, True, RECEIPT, "meant as written", id="(c) fails: a receipt"),
    pytest.param(VALID_SET, 30, False, ECHO, None, id="no invalid line, clarifications off: the reading"),
]


@pytest.mark.parametrize("text, hours_left, clarify, kind, why", CONDITIONS)
def test_000_III_1_conditions_for_asking_about_an_invalid_set(text, hours_left, clarify, kind, why):
    """000 III(1) (a), (b), (c) under mhr (invalid_set_feedback = conditional_mhr)."""
    feedback = _feedback(text, "mhr", hours_left=hours_left, clarify=clarify)
    assert feedback.kind == kind
    if why is None:
        assert feedback.not_asked is None
    else:
        assert why in feedback.not_asked
        assert feedback.rule == "house rules 000 III(1)"


@pytest.mark.parametrize("profile", ["standard", "danivon", "email_rules", "scorpion", "gwm"])
def test_000_III_1_a_the_switch_is_only_for_conditional_mhr(profile):
    """000 III(1) (a): a switch left off from a game under another rule changes nothing: under
    echo_always every set gets its reading."""
    assert _feedback(INVALID_SET, profile, clarify=False).kind == ECHO


# each set given as its lines' statuses, newest first -> (invalid, sets, recent_invalid, recent)
RECORDS = [
    pytest.param([], (0, 0, 0, 0), id="no set yet"),
    pytest.param([["accepted", "rejected"], ["accepted"], ["accepted", "ignored"], ["rejected"]], (2, 4, 1, 3),
                 id="4 sets, 2 with a void line; 1 of the last 3"),
    pytest.param([["accepted"], ["rejected", "rejected"]], (1, 2, 1, 2), id="two void lines are one invalid set"),
]


@pytest.mark.parametrize("sets, expected", RECORDS)
def test_000_III_1_a_the_record_shown_to_the_gm(sets, expected):
    """000 III(1) (a): what the GM judges by "the server showing the GM how often the
    player's sets contained invalid lines": sets with a rejected line out of all, and of the last 3."""
    assert invalid_record(sets) == InvalidRecord(*expected)


def test_000_III_1_c_as_written_in_the_subject():
    """(c): the player may say it in the subject line too."""
    feedback = _feedback(INVALID_SET, "mhr", subject="mhr1 S1901M France [2] orders as written")
    assert feedback.kind == RECEIPT and "meant as written" in feedback.not_asked


@pytest.mark.parametrize("profile", ["standard", "danivon", "email_rules", "scorpion", "gwm"])
def test_echo_always_never_asks_001_II_1(profile):
    """echo_always (the default; 001 II(1), IV(1) ¶2): the reading is stated, nothing is asked and
    no condition of 000 III(1) is mentioned."""
    feedback = _feedback(INVALID_SET, profile)
    assert (feedback.kind, feedback.not_asked) == (ECHO, None)


def test_000_III_1_b_clarification_min_hours_is_the_games():
    """clarification_min_hours = 48 (not the default 12): with 30 hours left (b) fails; with 50
    it holds."""
    rules = dataclasses.replace(ruleset("mhr"), clarification_min_hours=48)
    not_asked = _feedback(INVALID_SET, rules, hours_left=30)
    assert not_asked.kind == RECEIPT and "less than 48 hours remain" in not_asked.not_asked
    assert _feedback(INVALID_SET, rules, hours_left=50).kind == ASK


def test_000_III_1_c_the_as_written_line_is_said_to_be_taken_so():
    """The reader ignores "As written" as not an order; under conditional_mhr the reply says what
    it was taken as, with the clause. Other profiles keep the reader's words."""
    reading = read(INVALID_SET + "\nAs written", opening(), "france", "mhr")
    marked = with_as_written(ruleset("mhr"), reading.lines)[-1]
    assert (marked.status, marked.message, marked.rule) == (
        "ignored", "Taken as saying your orders are meant as written.", "000 III(1)")
    assert with_as_written(ruleset("danivon"), reading.lines)[-1] == reading.lines[-1]


# confirm_each_set = false (no profile sets it)

@pytest.mark.parametrize("text, kind", [
    pytest.param(VALID_SET, SILENT, id="read as written: no reply"),
    pytest.param(INVALID_SET, ECHO, id="a line not used: confirmed"),
    pytest.param("A Par - Burgundyy\nA Mar H", ECHO, id="a corrected name: confirmed"),
    pytest.param("Hello GM", ECHO, id="nothing read: confirmed"),
])
def test_confirm_each_set_false_files_a_set_read_as_written_without_a_reply(text, kind):
    rules = dataclasses.replace(ruleset("standard"), confirm_each_set=False)
    assert _feedback(text, rules).kind == kind


def test_confirm_each_set_false_still_confirms_a_set_with_remarks():
    rules = dataclasses.replace(ruleset("standard"), confirm_each_set=False)
    reading = read(VALID_SET, opening(), "france", "standard")
    feedback = set_feedback(rules, statuses=[line.status for line in reading.lines], texts=[], clarify=True,
                            deadline=None, now=NOW, has_remarks=True)
    assert feedback.kind == ECHO


def test_confirm_each_set_true_confirms_a_set_read_as_written_001_IV_1():
    """001 IV(1) ¶2: the GM confirms receipt (every profile: confirm_each_set = true)."""
    assert _feedback(VALID_SET, "danivon").kind == ECHO


# the confirmation as the player reads it

@pytest.fixture(scope="module")
def composer() -> Composer:
    return Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")


def _confirmation(text: str, feedback, composer: Composer) -> str:
    reading = read(text, opening(), "france", "mhr")
    context = build_confirmation(
        game_name="lepanto", power="FRANCE", phase="S1901M", deadline=NOW + timedelta(hours=30),
        readings=reading.lines, orders_on_file=reading.orders, version=1, geography=engine.map_info(),
        units=opening().units["FRANCE"], feedback=feedback)
    return " ".join(composer.render(context.template, context).split())


def test_000_III_1_the_question_names_the_lines_and_the_deadline(composer):
    body = _confirmation(INVALID_SET, _feedback(INVALID_SET, "mhr"), composer)
    assert "PLEASE CHECK: 1 line of this set cannot be used line 1 (A Par - Xyz)" in body
    assert ("Did you mean something else? If so, reply to this mail with a corrected set before Friday 27 November 2026, 18:00 UTC. "
            "If the orders are meant as written, there is nothing to do: the set below stands as read "
            "(house rules 000 III(1)).") in body
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", body.split("YOUR MESSAGE")[0])  # no option key


def test_000_III_1_not_asked_says_why(composer):
    feedback = _feedback(INVALID_SET, "mhr", clarify=False)
    body = _confirmation(INVALID_SET, feedback, composer)
    assert "PLEASE CHECK" not in body and "NOT USED" not in body  # a receipt only
    assert ("The GM confirms receipt only and does not say how each line was read: the GM does not presume "
            "that you wanted a complete set of valid orders, and goes through a set with you only when the GM "
            "finds that unusual for you, time remains and you have not said the orders are meant as written; "
            "here the GM has found that sets with lines that cannot be used are not unusual from you "
            "(house rules 000 III(1)).") in " ".join(body.split())


def test_echo_always_reply_has_neither_question_nor_explanation(composer):
    body = _confirmation(INVALID_SET, _feedback(INVALID_SET, "danivon"), composer)
    assert "PLEASE CHECK" not in body and "does not presume" not in body
    assert "NOT USED" in body


# invalid_set_feedback = receipt_only (no profile sets it "receipt, no verdicts")

@pytest.mark.parametrize("text", [VALID_SET, INVALID_SET])
def test_receipt_only_confirms_receipt_of_every_set(text):
    rules = dataclasses.replace(ruleset("standard"), invalid_set_feedback="receipt_only")
    assert _feedback(text, rules).kind == RECEIPT


def test_receipt_only_reply_says_no_verdict(composer):
    rules = dataclasses.replace(ruleset("standard"), invalid_set_feedback="receipt_only")
    body = _confirmation(INVALID_SET, _feedback(INVALID_SET, rules), composer)
    assert ("Your message was received and filed as set version 1. The GM confirms receipt only and does not "
            "say how each line was read (each set is confirmed on receipt only, a rule of this game).") in body
    assert "Deadline: Friday 27 November 2026, 18:00 UTC" in body
    for verdict in ("NOT USED", "LINES TO CHECK", "ORDERS ON FILE", "A PAR", "Xyz", "receipt_only"):
        assert verdict not in body
