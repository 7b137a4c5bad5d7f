"""How a game ended, for its last mail: the end in words and each power's supply centres year by
year as text lines (the HTML part draws the chart and the map). Pure: values in, words out; the
same for every way a game ends (a solo, a vote, the GM), so that each end's mail says it alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gmserver.reports.extras import centre_history
from gmserver.reports.words import plural, power_name

# one block of the history table: the power's name in 11 columns, then 6 per year ("  1905",
# " start"): 11 + 6 * 10 = 71 characters, under the 78 a plain text line may have
_NAME_WIDTH = 11
_YEARS_PER_BLOCK = 10


def solo_words(winner: str, *, phase_name: str, owned: int, occupied: int, solo_centres: int,
               clause: str | None = None) -> str:
    """A solo in words: who won, with how many centres after which turn, against the count the
    rules ask. `occupied`: centres held by a unit but not yet owned (a Spring solo, 003 [23]),
    `clause` the rule that counts them."""
    name = power_name(winner)
    if occupied:
        held = (f"after {phase_name} it owns {plural(owned, 'supply centre')} and occupies {occupied} more, "
                f"{owned + occupied} in all")
    else:
        held = f"it owns {plural(owned, 'supply centre')} after {phase_name}"
    rule = f" (house rules {clause})" if clause else ""
    return f"{name} has won the game: {held}, the {solo_centres} a solo needs{rule}."


def history_lines(points: Sequence[tuple[str, Mapping[str, int]]]) -> tuple[str, ...]:
    """Each power's supply centres at the end of every game year, a row per power under a row of
    the years ("start" before the first, "end" for the final position), in blocks of at most 10
    years; () with fewer than two points (nothing to compare)."""
    years, series = centre_history(points)
    if len(years) < 2:
        return ()
    lines: list[str] = []
    for start in range(0, len(years), _YEARS_PER_BLOCK):
        block = slice(start, start + _YEARS_PER_BLOCK)
        if lines:
            lines.append("")
        lines.append(" " * _NAME_WIDTH + "".join(f"{year:>6}" for year in years[block]))
        lines += [f"{power_name(power):<{_NAME_WIDTH}}" + "".join(f"{count:>6}" for count in counts[block])
                  for power, counts in series.items()]
    return tuple(line.rstrip() for line in lines)
