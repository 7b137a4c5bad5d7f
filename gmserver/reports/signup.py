"""Open sign-up in words (pure): an open game's one line (`gmserver game list --open`, LIST OPEN
by mail) and the start condition."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gmserver.rules.geography import POWERS


@dataclass(frozen=True)
class OpenGame:
    name: str
    ruleset: str
    joined: int  # confirmed joins (the GM's approval included, where the game asks it)
    deadline_time: str | None  # "18:00:00"
    timezone: str
    anonymous: bool
    min_reliability: float | None
    approval: bool
    starts_at: datetime | None


def start_words(game: OpenGame) -> str:
    if game.starts_at is None:
        return f"starts when {len(POWERS)} players have joined"
    return f"starts {game.starts_at:%Y-%m-%d %H:%M} UTC"


def open_game_line(game: OpenGame) -> str:
    """"lepanto: standard rules, 3 of 7 joined, starts when 7 players have joined, deadlines at
    18:00 Europe/Berlin, anonymous, joining needs 80% of turns ordered on time, the GM approves
    each player"."""
    parts = [f"{game.ruleset} rules", f"{game.joined} of {len(POWERS)} joined", start_words(game)]
    if game.deadline_time:
        parts.append(f"deadlines at {game.deadline_time[:5]} {game.timezone}")
    else:
        parts.append(f"time zone {game.timezone}")
    if game.anonymous:
        parts.append("anonymous")
    if game.min_reliability:
        parts.append(f"joining needs {game.min_reliability:.0%} of turns ordered on time")
    if game.approval:
        parts.append("the GM approves each player")
    return f"{game.name}: {', '.join(parts)}"
