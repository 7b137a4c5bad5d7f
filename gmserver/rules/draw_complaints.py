"""Complaints about a passed draw (`draw_revote_on_majority_complaint_days`, 002 DRAWS 5
"If the majority of players complain about a draw, one revote will be taken. Players have one
week to complain."). Pure: the window, the majority, and the words the players read.

How gmserver reads the clause [P]: a draw that passes under the option ends the game, but only
provisionally: for `days` days each player still in the game when it passed may send COMPLAIN
DRAW. When the complaints are a majority of those players (more than half), the game is reopened
and the draw is put to one revote, counted at the next deadline like any draw; a revote that
passes is final (one revote only), one that fails lets the game go on. With no majority by the
end of the window the draw stands and the game is over for good.
"""

from __future__ import annotations

from datetime import datetime, timedelta

COMPLAINT = "draw_complaint"  # the proposals row of an open window (its ballots are the complaints)
REVOTE = "draw_revote"  # the one revote: a draw with the same members, counted like a draw
CLAUSE = "house rules 002 DRAWS 5"


def window_end(passed_at: datetime, days: int) -> datetime:
    return passed_at + timedelta(days=days)


def majority(complaints: int, players: int) -> bool:
    """"the majority of players": more than half of those still in the game when the draw passed."""
    return players > 0 and 2 * complaints > players


def window_text(days: int, closes: str) -> str:
    """What every player reads when the draw passes."""
    return (f"This result is final only if no majority of the players complains within {days} days ({CLAUSE}): "
            f"to complain, send a message whose first line is COMPLAIN DRAW before {closes}. If a majority of the "
            "players complains, the game is reopened and one revote on the draw is held at the next deadline.")


def complaint_answer(complaints: int, players: int, closes: str) -> str:
    """The complainer's answer while no majority is reached (never who else complained)."""
    needed = players // 2 + 1
    return (f"Your complaint about the draw is recorded. A revote is held if {needed} of the {players} players "
            f"still in the game complain before {closes} ({CLAUSE}); {complaints} have complained so far.")


def revote_text(described: str) -> str:
    """Every player's mail when the complaints reach a majority."""
    return (f"A majority of the players complained about {described}, so the game is reopened and one revote "
            f"is held ({CLAUSE}): vote again on the same draw; the votes are counted at the deadline below, as "
            "for any draw. If the revote passes the game ends with that draw for good; if it fails the game goes on.")


def final_text(days: int) -> str:
    """Every player's mail when the window closes without a majority."""
    return (f"No majority of the players complained about the draw within {days} days, so the draw stands and "
            f"the game is over for good ({CLAUSE}).")
