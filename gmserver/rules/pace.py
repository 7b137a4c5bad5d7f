"""The pace a profile aims at (`target_days_per_game_turn`): 001 IV(4) "The guide will
be that each Turn takes a week to progress". Pure; tests/unit/test_pace.py holds the table.

A game Turn (capitalised in 001, as in "two Turns in a row") is a season: its movement turn and
the retreat and adjustment turns that follow it, so the longest is Fall's (movement, retreat,
adjustment). The target is a guide, not a rule ("normally", "the GM may speed up or slow down
the timing"): nothing is refused for it. The GM is told, in words, when the turn lengths chosen
at game create, or a deadline the GM sets (or a delay moves), make a Turn longer than the guide.
The turn lengths the GM leaves open at game create are derived from it (rules/schedule.py
default_lengths: a Fall Turn of movement, retreat and adjustment turns makes the target, each at
least the minimum 001 IV(4) also sets).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from gmserver.rules.deadlines import DAY, TurnLengths
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.schedule import turn_length

def clause(ruleset: Ruleset) -> str:
    cited = ruleset.cites("target_days_per_game_turn")
    return f"house rules {cited}" if cited else "this game's rules"


def _days(length: timedelta) -> str:
    days = length / DAY
    shown = f"{days:.1f}".removesuffix(".0")
    return f"{shown} day" + ("" if shown == "1" else "s")


def lengths_over_target(ruleset: Ruleset, lengths: TurnLengths) -> list[str]:
    """The GM's turn lengths against the guide (game create): a Fall Turn with its retreat and
    adjustment turns longer than the target, in words; [] when within it or without a target."""
    target = ruleset.target_days_per_game_turn
    if target is None:
        return []
    # 003 [5]: in the two-season game the retreats and builds ride with the moves: a Turn is its movement turn
    two_season = getattr(ruleset, "season_structure", "standard") == "uk_two_season"
    fall = lengths.movement + (timedelta(0) if two_season else lengths.retreat + lengths.adjustment)
    if fall <= target * DAY:
        return []
    return [f"a Fall Turn with its retreat and adjustment turns lasts {_days(fall)} at these turn lengths, longer "
            f"than the guide of {_days(target * DAY)} a Turn ({clause(ruleset)}: \"the guide will be that each Turn "
            "takes a week\"); the players may expect a faster pace"]


def deadline_over_target(ruleset: Ruleset, turn_began: datetime, deadline: datetime, zone: str = "UTC") -> str | None:
    """A deadline (set by the GM, or moved by a delay) that makes the current Turn, begun at
    `turn_began` (when its movement turn opened), longer than the guide; None when it does not.
    Counted on the game's clocks, as the schedule counts turns."""
    target = ruleset.target_days_per_game_turn
    if target is None:
        return None
    length = turn_length(turn_began, deadline, zone)
    if length <= target * DAY:
        return None
    return (f"this Turn began {turn_began.isoformat(timespec='minutes')} and lasts {_days(length)} to this "
            f"deadline, longer than the guide of {_days(target * DAY)} a Turn ({clause(ruleset)})")


def season_movement(phase: str) -> str | None:
    """The movement phase that began the Turn `phase` belongs to: "S1901M" for "S1901R",
    "F1901M" for "F1901R" and for "W1901A" (Winter's adjustments end the Fall Turn)."""
    if len(phase) != 6 or not phase[1:5].isdigit():
        return None
    season = "F" if phase[0] == "W" else phase[0]
    return f"{season}{phase[1:5]}M" if season in ("S", "F") else None
