"""GM corrections, the pure rules: the correction window of each profile, the
refusal of replays, and the deadline of the turn after a correction."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from gmserver.rules.corrections import (
    Adjudicated, cite, deadline_after_correction, extension_on_request, rollback_refusal,
)
from gmserver.rules.ruleset import load_ruleset

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def last(hours_ago: float, *, followed: bool = False) -> Adjudicated:
    return Adjudicated("S1901M", NOW - timedelta(hours=hours_ago), followed_by_another=followed)


@pytest.mark.parametrize(("profile", "hours_ago", "followed", "refused_with"), [
    ("mhr", 23.9, False, None),  # 000 VIII(1): reported within 24 hours
    ("mhr", 24.1, False, "000 VIII(1)"),  # ... and not after
    ("mhr", 1, True, "000 VIII(1)"),  # another adjudication published: the error stands
    ("danivon", 24 * 7, False, None),  # 001 VI(1): until the next adjudication, however long
    ("danivon", 1, True, "001 VI(1)"),
    ("email_rules", 100, False, None),  # 002 GM ERRORS 2
    ("email_rules", 1, True, "002 GM ERRORS 2"),
    ("scorpion", 1, True, "003 [16]"),
    ("standard", 1, True, "where its house rules are silent"),
])
def test_the_correction_window_000_VIII_1(profile, hours_ago, followed, refused_with) -> None:
    refusal = rollback_refusal(load_ruleset(profile), last(hours_ago, followed=followed), NOW)
    if refused_with is None:
        assert refusal is None
    else:
        assert refusal is not None and "stands" in refusal and refused_with in refusal


def test_a_24_hour_window_set_by_the_gm_is_cited_as_the_game_s_own_rule() -> None:
    ruleset = load_ruleset("standard").with_overrides({"correction_window": "24h_and_before_next"})
    refusal = rollback_refusal(ruleset, last(25), NOW)
    assert refusal is not None and "24 hours" in refusal and "000" not in refusal


@pytest.mark.parametrize(("profile", "clause"), [
    ("email_rules", "house rules 002 GM ERRORS 5"),  # "Under no circumstances will a season be replayed"
    ("scorpion", "house rules 003 [16]"),
    ("mhr", "where its house rules are silent"),
])
def test_a_season_is_never_replayed_002_GM_ERRORS_5(profile, clause) -> None:
    refusal = rollback_refusal(load_ruleset(profile), last(1), NOW, replay=True)
    assert refusal is not None and "never replayed" in refusal and clause in refusal
    assert "season_replay" not in refusal  # players never see option keys


def test_nothing_adjudicated_nothing_to_roll_back() -> None:
    assert "Nothing has been adjudicated" in rollback_refusal(load_ruleset("standard"), None, NOW)


FIRST = NOW + timedelta(hours=30)
FRESH = NOW + timedelta(hours=48)


@pytest.mark.parametrize(("profile", "first", "expected"), [
    ("email_rules", FIRST, FIRST),  # the first deadline stands; a request extends it (below)
    ("mhr", FIRST, FIRST),  # gm_decides: the GM may move it
    ("mhr", NOW - timedelta(hours=1), FRESH),  # ... unless it has passed
    ("mhr", None, FRESH),
])
def test_the_deadline_after_a_correction(profile, first, expected) -> None:
    assert deadline_after_correction(load_ruleset(profile), first=first, fresh=FRESH, now=NOW) == expected


@pytest.mark.parametrize(("profile", "after_correction", "extended_before", "deadline", "expected"), [
    ("email_rules", True, False, FIRST, FRESH),  # 002 GM ERRORS 3: "Only one request is necessary"
    ("email_rules", True, True, FIRST, None),  # one extension per correction
    ("email_rules", False, False, FIRST, None),  # no correction: the GM decides on delays
    ("email_rules", True, False, FRESH + timedelta(hours=1), None),  # never shortened
    ("mhr", True, False, FIRST, None),  # gm_decides
])
def test_one_request_extends_the_turn_after_a_correction_002_GM_ERRORS_3(profile, after_correction,
                                                                        extended_before, deadline, expected) -> None:
    assert extension_on_request(load_ruleset(profile), deadline=deadline, fresh=FRESH,
                                after_correction=after_correction, extended_before=extended_before) == expected


def test_clauses_are_cited_in_words() -> None:
    assert cite(load_ruleset("danivon"), "nonconforming_subject_policy") == "house rules 001 II(4)"
    assert cite(load_ruleset("email_rules"), "correction_broadcast") == "house rules 002 GM ERRORS 4"
    overridden = load_ruleset("mhr").with_overrides({"correction_window": "until_next_adjudication"})
    assert "000" not in cite(overridden, "correction_window")


def test_a_turn_rolled_back_already_waits_and_the_one_before_it_stands() -> None:
    refusal = rollback_refusal(load_ruleset("danivon"), last(50, followed=True), NOW, reopened="F1901M")
    assert "rolled back already" in refusal and "Spring 1901" in refusal and "001 VI(1)" in refusal
    assert "rolled back already" in rollback_refusal(load_ruleset("danivon"), None, NOW, reopened="S1901M")


def test_the_24_hours_count_to_when_the_error_was_reported_000_VIII_1() -> None:
    """000 VIII(1): "bring them to the attention of the GM within 24 hours": a report within the
    window counts even if the GM acts later; the GM cannot date a report after now."""
    mhr = load_ruleset("mhr")
    assert rollback_refusal(mhr, last(30), NOW, reported=NOW - timedelta(hours=7)) is None  # reported at 23 h
    assert rollback_refusal(mhr, last(30), NOW, reported=NOW - timedelta(hours=5)) is not None  # at 25 h
    assert rollback_refusal(mhr, last(30), NOW, reported=NOW + timedelta(hours=9)) is not None
