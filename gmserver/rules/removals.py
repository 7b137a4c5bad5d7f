"""Which units the rules remove when a power orders too few removals (NDR, too few, or civil
disorder): `removal_algorithm` (000 V(4), 001 V(5) ¶2, 003 [8], 004 III(4), and RB2000's).

Every algorithm orders the candidates by a key and removes the first N; they differ in the
candidates, the distance target and the tie-breaks. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gmserver.rules.distance import Distances, home_country
from gmserver.rules.order import Unit
from gmserver.rules.ruleset import Ruleset

# The clause each algorithm carries out and the rule in words, as reports say it.
CLAUSES = {
    "rb2000": "2000 rulebook",
    "mhr": "house rules 000 V(4)",
    "danivon": "house rules 001 V(5)",
    "scorpion": "house rules 003 [8]",
    "gwm": "house rules 004 III(4)",
}

RULE_WORDS = {
    "rb2000": "farthest from home first",
    "mhr": "farthest from the nearest home centre first",
    "danivon": "outside the home country and farthest from it first",
    "scorpion": "units off supply centres, farthest from home first",
    "gwm": "farthest from home first",
}


def alphabetical(distances: Distances, ruleset: Ruleset) -> Callable[[str], str]:
    """`alphabetical_key`: English province names [P RB2000], or the system's three-letter
    codes, coast ignored (004 III(4) ¶3: Liverpool before London, but LON before LVP)."""
    if ruleset.alphabetical_key == "system_codes":
        return lambda province: province
    provinces = distances.geography.provinces
    return lambda province: provinces[province].name if province in provinces else province


def choose_removals(units: Sequence[Unit], power: str, count: int, ruleset: Ruleset,
                    distances: Distances) -> tuple[Unit, ...]:
    """The `count` units of `power` (out of `units`, those not already ordered removed) that
    `removal_algorithm` removes, in the order it removes them."""
    if count <= 0:
        return ()
    algorithm = ruleset.removal_algorithm
    alpha = alphabetical(distances, ruleset)
    if algorithm == "danivon":
        ranked = sorted(units, key=lambda u: _danivon_key(u, power, ruleset, distances, alpha))
    elif algorithm == "scorpion":
        ranked = _scorpion_ranked(units, power, distances, alpha)
    else:
        # rb2000 (DATC 4.D.8), mhr (000 V(4)) and gwm (004 III(4)) share the order:
        # distance from the home centres (armies may cross water, fleets count fleet moves),
        # farthest first; ties: fleets before armies, then alphabetically by `alphabetical_key`.
        ranked = sorted(units, key=lambda u: (-distances.from_home_centres(u, power), not u.is_fleet,
                                              alpha(u.province)))
    return tuple(ranked[:count])


def _scorpion_ranked(units: Sequence[Unit], power: str, distances: Distances,
                     alpha: Callable[[str], str]) -> list[Unit]:
    """003 [8]: only units "not in supply centres" are candidates; farthest from the nearest home
    centre first; ties: units in sea spaces, then units outside the home country, then fleets
    before armies, then alphabetically. Should the candidates not suffice (a GM edit), the rest
    follow in the same order [P]."""
    provinces = distances.geography.provinces
    home = home_country(power)

    def key(unit: Unit) -> tuple:
        province = provinces[unit.province]
        return (-distances.from_home_centres(unit, power), province.kind != "water", unit.province in home,
                not unit.is_fleet, alpha(unit.province))

    off_centres = sorted((u for u in units if not provinces[u.province].supply_centre), key=key)
    on_centres = sorted((u for u in units if provinces[u.province].supply_centre), key=key)
    return off_centres + on_centres


def _danivon_key(unit: Unit, power: str, ruleset: Ruleset, distances: Distances, alpha: Callable[[str], str]) -> tuple:
    """001 V(5) ¶2 classes, emptied in turn: (i) non-SC outside the home country, (ii) SC outside
    it, (iii) non-SC inside it, (iv) home SCs. In (i) and (ii) the farthest from the home country
    first (`danivon_within_class = distance_then_alphabetical`, [P]), then alphabetically by the
    current province; in (iii) and (iv), and in every class under `alphabetical_only`,
    alphabetically."""
    province = distances.geography.provinces[unit.province]
    inside = unit.province in home_country(power)
    klass = (2 if inside else 0) + (1 if province.supply_centre else 0)
    by_distance = not inside and ruleset.danivon_within_class == "distance_then_alphabetical"
    distance = distances.from_home_country(unit, power) if by_distance else 0
    return (klass, -distance, alpha(unit.province))
