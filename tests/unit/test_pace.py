"""001 IV(4) "The guide will be that each Turn takes a week to progress"
(target_days_per_game_turn = 7 under danivon), by tables: a Turn is a season, Fall's with its
retreat and adjustment turns the longest. Expected values by hand."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.rules.deadlines import TurnLengths
from gmserver.rules.pace import deadline_over_target, lengths_over_target, season_movement
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.ruleset_options import APPLIED, OPTIONS
from gmserver.rules.schedule import default_lengths

D = timedelta(days=1)
H = timedelta(hours=1)
DANIVON = load_ruleset("danivon")


@pytest.mark.parametrize(("movement", "retreat", "adjustment", "warned"), [
    (3 * D, D, D, False),  # the minimums of 001 IV(4): a Fall Turn of 5 days
    (5 * D, D, D, False),  # exactly a week
    (5 * D, D, 25 * H, True),  # an hour over
    (7 * D, D, D, True),  # a week's movement turn: 9 days
])
def test_001_IV_4_turn_lengths_longer_than_a_week_a_turn_are_noted(movement, retreat, adjustment, warned) -> None:
    warnings = lengths_over_target(DANIVON, TurnLengths(movement, retreat, adjustment))
    assert bool(warnings) == warned


def test_001_IV_4_the_note_says_the_guide_in_words_then_the_clause() -> None:
    (warning,) = lengths_over_target(DANIVON, TurnLengths(7 * D, D, D))
    assert warning == ("a Fall Turn with its retreat and adjustment turns lasts 9 days at these turn lengths, "
                       "longer than the guide of 7 days a Turn (house rules 001 IV(4): \"the guide will be that "
                       "each Turn takes a week\"); the players may expect a faster pace")


@pytest.mark.parametrize("profile", ["mhr", "standard", "scorpion", "gwm", "email_rules"])
def test_profiles_without_a_target_note_nothing(profile) -> None:
    ruleset = load_ruleset(profile)
    assert lengths_over_target(ruleset, TurnLengths(21 * D, D, D)) == []
    assert deadline_over_target(ruleset, datetime(2026, 1, 1, tzinfo=UTC),
                                datetime(2026, 3, 1, tzinfo=UTC)) is None


def test_derived_lengths_are_within_the_guide_in_every_season_structure() -> None:
    """The lengths derived from a target (rules/schedule.py default_lengths) never warn: 001 IV(4)'s
    week as 5 + 1 + 1 days, and a two-season game's (003 [5]) Turn, its movement turn alone."""
    assert lengths_over_target(DANIVON, default_lengths(DANIVON)) == []
    scorpion = dataclasses.replace(load_ruleset("scorpion"), target_days_per_game_turn=14)
    assert default_lengths(scorpion).movement == 14 * D and lengths_over_target(scorpion, default_lengths(scorpion)) == []
    assert lengths_over_target(scorpion, TurnLengths(15 * D, D, D))  # a day over


def test_a_target_the_gm_set_is_not_cited_as_001() -> None:
    ruleset = dataclasses.replace(DANIVON, target_days_per_game_turn=4)
    (warning,) = lengths_over_target(ruleset, TurnLengths(3 * D, D, D))
    assert "lasts 5 days" in warning and "guide of 4 days a Turn (this game's rules" in warning


BEGAN = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)  # a Monday, 18:00


@pytest.mark.parametrize(("deadline", "note"), [
    (BEGAN + 7 * D, None),
    (BEGAN + 8 * D, "this Turn began 2026-11-02T18:00+00:00 and lasts 8 days to this deadline, longer than the "
                    "guide of 7 days a Turn (house rules 001 IV(4))"),
    (BEGAN + 7 * D + 12 * H, "this Turn began 2026-11-02T18:00+00:00 and lasts 7.5 days to this deadline, longer "
                             "than the guide of 7 days a Turn (house rules 001 IV(4))"),
])
def test_001_IV_4_a_deadline_that_makes_the_turn_longer_than_a_week_is_noted(deadline, note) -> None:
    assert deadline_over_target(DANIVON, BEGAN, deadline) == note


def test_a_turn_is_counted_on_the_games_clocks() -> None:
    # 24 October 18:00 BST (17:00 UTC) to 31 October 18:00 GMT: 7 days on the clocks, 169 hours
    began = datetime(2026, 10, 24, 17, 0, tzinfo=UTC)
    assert deadline_over_target(DANIVON, began, datetime(2026, 10, 31, 18, 0, tzinfo=UTC),
                                "Europe/London") is None


@pytest.mark.parametrize(("phase", "movement"), [
    ("S1901M", "S1901M"), ("S1901R", "S1901M"), ("F1902R", "F1902M"), ("W1902A", "F1902M"), ("COMPLETED", None),
])
def test_the_turn_a_phase_belongs_to(phase, movement) -> None:
    assert season_movement(phase) == movement


def test_the_catalogue_marks_the_guide_applied_001_IV_4() -> None:
    """target_days_per_game_turn is applied: open turn lengths are derived from it
    (tests/unit/test_schedule.py) and the GM is told when a Turn would last longer."""
    spec = OPTIONS["target_days_per_game_turn"]
    assert spec.status == APPLIED and not spec.misleads(7)
