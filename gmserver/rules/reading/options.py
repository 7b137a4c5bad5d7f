"""Ruleset options the reader uses, with the catalogue defaults, and the clause behind each value.

The reader asks `option(ruleset, name)` rather than reading attributes directly so that a ruleset
missing an option falls back to the catalogue default (the `standard` profile).
`clause(ruleset, name)` names the document clause that decides the option in the game's profile
(its `clause.KEY` line, `Ruleset.cites`), for the confirmation ("000 III(6)"); options decided by a
proposal cite their source ("DATC 4.D.3").
"""

from __future__ import annotations

import functools
from typing import Any

from gmserver.rules.ruleset import Ruleset, default_ruleset

_standard = functools.cache(default_ruleset)  # built once: option() is on the reading hot path


PROFILES = ("mhr", "danivon", "email_rules", "scorpion", "gwm")

# (option, value) -> the source of a proposed value, used when the profile is silent.
_PROPOSALS: dict[tuple[str, str], str] = {
    ("interpretation_presumption", "literal"): "DATC 4.E.2",
    ("unit_type_omitted", "accept"): "DATC 4.C.1",
    ("unit_type_wrong", "ignore"): "DATC 4.C.2",
    ("nationality_omitted", "accept"): "DATC 4.C.5",
    ("nationality_wrong", "ignore"): "DATC 4.C.6",
    ("coast_omitted_move", "accept_if_unique"): "DATC 4.B.1",
    ("coast_wrong_destination", "invalid"): "DATC 4.B.3",
    ("coast_own_location", "ignore"): "DATC 4.B.5",
    ("coast_support_omitted", "accept_always"): "DATC 4.B.4",
    ("coast_support_mismatch", "invalid"): "DATC 4.B.4",
    ("multiple_orders_same_unit", "conflict_holds"): "DATC 4.D.3",
    ("impossible_move_treatment", "hold_supportable"): "DATC 4.E.1",
    ("move_to_own_province", "hold_supportable"): "DATC 6.A.4",
    ("convoy_possible_move_legal", "True"): "DATC 4.E.1",
    ("implied_orders", "none"): "DATC 4.E.3",
    ("set_combination", "replace"): "DATC 4.D.1",
    ("excess_adjustment_order", "top_down"): "DATC 4.D.4, 4.D.6",
    ("multiple_builds_same_centre", "first_top_down"): "DATC 4.D.5",
    ("build_type_omitted", "army_inland_fleet_if_coast"): "DATC 4.C.3",
    ("fleet_build_inland", "no_build"): "DATC 4.C.4",
    ("army_build_with_coast", "ignore_coast"): "DATC 4.B.6",
    ("fleet_build_coast_omitted", "no_build"): "DATC 4.B.7",
    ("abbreviation_policy", "any_unambiguous"): "RB2000",
    ("orders_for_missing_units", "void_and_report"): "002 FORMAT 12",
    ("typo_tolerance", "unambiguous_only"): "000 III(2)",
    ("multiple_retreat_orders", "first"): "002 FORMAT 4",
    ("illegal_retreat", "disband"): "RB2000",
    ("contingent_minor_orders", "accepted"): "000 II(5)",
    ("conditional_adjustment_orders", "objective_only"): "000 II(5)",
    ("nonsense_order_treatment", "hold"): "000 III(5)",
    ("parenthetical_order", "use"): "002 FORMAT 6",
    ("combined_orders", "accept"): "RB2000",
    ("unit_location_matching", "map_only"): "002 FORMAT 7",
    ("coast_own_location", "must_match_if_given"): "003 [10 c]",
    ("rulebook", "rb2000"): "RB2000",
    ("datc_4a6", "ignored"): "DATC 4.A.6",
    ("datc_4a6", "allowed_not_required"): "DATC 4.A.6",
    ("datc_4a6", "required"): "DATC 4.A.6",
}


def option(ruleset: Ruleset, name: str) -> Any:
    """The ruleset's value for `name`, or the catalogue default (MATRIX section 2, the `standard`
    profile) when the ruleset has none."""
    value = getattr(ruleset, name, None)
    if value is None:
        return getattr(_standard(), name)
    return value


def profile_of(ruleset: Ruleset) -> str | None:
    for attribute in ("profile", "id", "name", "profile_id"):
        value = getattr(ruleset, attribute, None)
        if isinstance(value, str) and value in PROFILES + ("standard",):
            return value
    return None


def clause(ruleset: Ruleset, name: str) -> str:
    """The clause deciding option `name` in the ruleset's profile, e.g. "000 III(6)"."""
    cited = ruleset.cites(name)
    if cited:
        return cited
    value = option(ruleset, name)
    proposal = _PROPOSALS.get((name, str(value)))
    # A proposal from the rulebook or the DATC is this profile's source; one taken from another
    # house-rule document is not, and citing it would send the player to rules of another game.
    if proposal and proposal.startswith(("DATC", "RB2000")):
        return proposal
    # a value no clause of this profile gives (silent, or changed by the GM): the option itself
    return f"{name} = {value}"
