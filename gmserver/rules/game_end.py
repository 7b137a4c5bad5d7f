"""Game end: the solo at the profile's centre count and the stalemate notice.

The engine is not left to decide a solo: it ends a game at 18 centres, and only for a power
that grew and leads alone, while a profile may name another count (`solo_centres`). gmserver
asks the engine never to end a game by itself and decides here, from the position.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from gmserver.rules.position import Position, unit_province
from gmserver.rules.ruleset import Ruleset

Centres = Mapping[str, Collection[str]]


def ownership_updated(phase: str, next_phase: str) -> bool:
    """Whether adjudicating `phase` passed the Fall ownership update (RB2000; the engine updates
    centre ownership when the Fall turn is over): the last Fall phase before Winter or Spring."""
    return phase[:1] == "F" and next_phase[:1] != "F"


def spring_over(phase: str, next_phase: str) -> bool:
    """Whether adjudicating `phase` ended the Spring turn (moves and any retreats)."""
    return phase[:1] == "S" and next_phase[:1] != "S"


def solo_winner(centres: Centres, ruleset: Ruleset) -> str | None:
    """The power owning at least `solo_centres` supply centres (000 IX(1), 001 VIII(1), 002
    DRAWS 3, 003 [23]: eighteen in every document; a custom profile may say otherwise). Two
    powers can reach a low count together: the one with more wins; with as many, nobody yet."""
    counts = sorted(((len(c), p) for p, c in centres.items() if len(c) >= ruleset.solo_centres), reverse=True)
    if not counts or (len(counts) > 1 and counts[0][0] == counts[1][0]):
        return None
    return counts[0][1]


def spring_solo_candidates(position: Position, supply_centres: Collection[str], ruleset: Ruleset
                           ) -> tuple[str, ...]:
    """solo_check_after_spring (003 [23] "conquers the 18th supply centre (Spring or Autumn)"):
    after the Spring turn, the powers whose owned centres plus the centres their units occupy
    reach `solo_centres`. Ownership does not change in Spring (RB2000 and the engine): the one
    power among them with the most has won (`spring_solo_winner`); a tie is the GM's to rule."""
    if not ruleset.solo_check_after_spring:
        return ()
    return tuple(power for power in sorted(set(position.centers) | set(position.units))
                 if len(conquered(position, power, supply_centres)) >= ruleset.solo_centres)


def spring_solo_winner(position: Position, supply_centres: Collection[str], ruleset: Ruleset) -> str | None:
    """003 [23] "a game ends when a nation conquers the 18th supply centre (Spring or Autumn)":
    after the Spring turn, the one power whose owned and occupied centres reach `solo_centres`
    (more than any other such power) has won; None when there is none, or two tie, which the GM
    rules (`spring_solo_candidates`)."""
    candidates = spring_solo_candidates(position, supply_centres, ruleset)
    return solo_winner({power: conquered(position, power, supply_centres) for power in candidates}, ruleset)


def conquered(position: Position, power: str, supply_centres: Collection[str]) -> frozenset[str]:
    """The supply centres `power` owns or occupies: what it holds after a Spring turn, before the
    Fall ownership update (003 [23])."""
    occupied = {unit_province(u) for u in position.units.get(power, ())} & set(supply_centres)
    return frozenset(position.centers.get(power, ())) | occupied


def years_without_change(history: Sequence[Centres]) -> int:
    """Game years in a row, up to now, in which no supply centre changed hands. `history`: the
    ownership at the start of each game year, oldest first, the current year last."""
    years = 0
    for before, after in zip(reversed(history[:-1]), reversed(history[1:]), strict=False):
        if _owners(before) != _owners(after):
            break
        years += 1
    return years


def years(count: int) -> str:
    """`1` -> "1 game year"; `4` -> "4 game years"."""
    return f"{count} game year{'' if count == 1 else 's'}"


def _owners(centres: Centres) -> dict[str, str]:
    return {centre: power for power, owned in centres.items() for centre in owned}


@dataclass(frozen=True)
class StalemateNotice:
    years: int
    clause: str
    text: str  # what the GM may do, in words


def stalemate_notice(count: int, ruleset: Ruleset) -> StalemateNotice | None:
    """stalemate_years and stalemate_action: the notice for the GM once `years` years without a
    change of ownership reach the profile's count. gmserver never ends the game itself."""
    if ruleset.stalemate_years is None or count < ruleset.stalemate_years:
        return None
    if ruleset.stalemate_action == "gm_may_impose_settlement":
        return StalemateNotice(count, "002 DRAWS 4", "You may impose a reasonable settlement based on the "
                               "stalemate lines and the centres held.")
    return StalemateNotice(count, "000 IX(2) ¶2, 001 VIII(2)", "After a warning to the players, you may "
                           "declare a draw including all survivors, if no player has any prospect of winning "
                           "by reaching the solo count or by concession. A draft warning: \"No supply centre "
                           f"has changed hands for {years(count)}. Unless that changes, the GM may "
                           "declare a draw including all survivors.\"")
