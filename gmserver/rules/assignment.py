"""Which power each player of an open sign-up gets: their preferences read, and the powers assigned
by a published, reproducible method (pure; docs/players.md says it to players).

The method ("rank-maximal, then a seeded draw"):

1. Each player lists powers in the order they want them ("England, France, Austria"); a power
   they did not list is as good to them as any other unlisted one. "any" (or no list) means every
   power is as good as any other: such a player never decides between two assignments.
2. Every way of giving the players distinct powers is scored by the vector (n1, n2, ..., n7),
   nk being how many players get their k-th choice. The best assignments are those whose vector
   is greatest in lexicographic order: as many first choices as possible; among those, as many
   second choices as possible; and so on (a rank-maximal matching). Seven players and seven
   powers make at most 5,040 assignments, so all are scored: no heuristic, no order effect.
3. When several assignments are best, they are listed in a fixed order (the powers of the first
   player in the queue, then of the second, ..., each power by its name in alphabetical order),
   and the one at index `SHA-256(seed) mod count` is taken. The seed is drawn when the game is
   announced and recorded with it, so anyone can redo the draw.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from gmserver.rules.geography import POWERS
from gmserver.rules.press import power_named

ANY_WORDS = frozenset({"any", "anything", "all", "whatever", "none", "-"})


class PreferenceError(ValueError):
    """A preference list that names something other than a power; the text says what was meant."""


def read_preferences(text: str) -> tuple[str, ...]:
    """"England, France, Austria" -> ("ENGLAND", "FRANCE", "AUSTRIA"); "any" or "" -> () (no
    preference). Commas, semicolons, slashes, ">" or spaces separate the powers; a power named
    twice counts at its first place."""
    words = [word for word in text.replace(">", ",").replace(";", ",").replace("/", ",").replace(",", " ").split()
             if word.strip(" .")]
    if not words or (len(words) == 1 and words[0].casefold().strip(" .") in ANY_WORDS):
        return ()
    powers: list[str] = []
    unknown = []
    for word in words:
        power = power_named(word)
        if power is None:
            unknown.append(word)
        elif power not in powers:
            powers.append(power)
    if unknown:
        raise PreferenceError(f"{', '.join(repr(word) for word in unknown)} "
                              f"{'is not a power' if len(unknown) == 1 else 'are not powers'}: write powers "
                              f"in the order you want them ({', '.join(p.title() for p in POWERS)}), or 'any'")
    return tuple(powers)


def preference_words(preferences: Sequence[str]) -> str:
    """() -> "any power"; ("ENGLAND", "FRANCE") -> "England, then France"."""
    return ", then ".join(power.title() for power in preferences) if preferences else "any power"


@dataclass(frozen=True)
class Assignment:
    powers: tuple[str, ...]  # the power of each player, in the order they were given
    score: tuple[int, ...]  # n1..n7: how many players got their 1st, 2nd, ... choice
    best_count: int  # how many assignments had that best score (the draw chose among them)
    chosen: int  # the index drawn among them (SHA-256 of the seed, modulo best_count)
    seed: str


def _score(preferences: Sequence[Sequence[str]], powers: Sequence[str]) -> tuple[int, ...]:
    counts = [0] * len(POWERS)
    for wanted, power in zip(preferences, powers, strict=True):
        if power in wanted:
            counts[wanted.index(power)] += 1
    return tuple(counts)


def draw_index(seed: str, count: int) -> int:
    """The seeded draw: SHA-256 of the seed's UTF-8 bytes, read as a big-endian number, modulo `count`."""
    return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest(), "big") % count


def assign(preferences: Sequence[Sequence[str]], seed: str) -> Assignment:
    """The powers of the players whose preference lists are given in queue order (at most seven;
    fewer leave powers without a player), by the method of this module's docstring."""
    if len(preferences) > len(POWERS):
        raise ValueError(f"{len(preferences)} players for {len(POWERS)} powers")
    best: tuple[int, ...] | None = None
    best_powers: list[tuple[str, ...]] = []
    # permutations of the sorted powers come in the fixed (lexicographic) order the draw indexes
    for powers in itertools.permutations(POWERS, len(preferences)):
        score = _score(preferences, powers)
        if best is None or score > best:
            best, best_powers = score, [powers]
        elif score == best:
            best_powers.append(powers)
    assert best is not None
    chosen = draw_index(seed, len(best_powers))
    return Assignment(best_powers[chosen], best, len(best_powers), chosen, seed)
