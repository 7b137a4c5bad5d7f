"""Orders for the player's other game: the same player in two games, the subject naming one and
the units the other's. Read against each game, the set whose every order line is usable in the
other game, and not all of them here, belongs there: none of it is used here (a line that happens
to fit both boards, "A Par - Bur", would otherwise be merged into the wrong game).
"""

from __future__ import annotations

from typing import Mapping

from gmserver.rules.reading.model import Reading


def _usable(reading: Reading) -> dict[int, str]:
    return {line.line: str(line.order) for line in reading.lines
            if line.order is not None and line.status in ("accepted", "corrected")}


def belongs_elsewhere(here: Reading, elsewhere: Mapping[str, Reading]) -> str | None:
    """The one other game (by name) whose units the message orders, read there as `elsewhere`
    gives; None when the set is this game's, or when it could be more than one other game's."""
    refused = {line.line for line in here.lines if line.status == "rejected"}
    if not refused:
        return None
    ordered = set(_usable(here)) | refused
    fitting = [name for name, there in elsewhere.items() if ordered <= set(_usable(there))]
    return fitting[0] if len(fitting) == 1 else None
