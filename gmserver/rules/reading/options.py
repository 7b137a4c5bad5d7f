"""Ruleset options the reader uses, with the catalogue defaults, and the clause behind each value.

The reader asks `option(ruleset, name)` rather than reading attributes directly so that a ruleset
missing an option (an older snapshot, a custom profile) falls back to the MATRIX 2.x default.
`clause(ruleset, name)` names the document clause that decides the option in the game's profile,
for the confirmation ("000 III(6)"); options decided by a proposal cite their source ("DATC 4.D.3").
"""

from __future__ import annotations

import functools
from typing import Any

from gmserver.rules.ruleset import default_ruleset

_standard = functools.cache(default_ruleset)  # built once: option() is on the reading hot path


PROFILES = ("mhr", "danivon", "email_rules", "scorpion", "gwm")

# option -> clause per profile (MATRIX section 1 and 2); absent: the profile is silent.
_CLAUSES: dict[str, dict[str, str]] = {
    "interpretation_presumption": {"mhr": "000 III(1)", "danivon": "001 II(1)", "email_rules": "002 FORMAT 9, 10",
                                   "scorpion": "003 [15]"},
    "abbreviation_table": {"email_rules": "002 FORMAT 1", "scorpion": "003 [17]", "gwm": "004 I(1)"},
    "abbreviation_policy": {"mhr": "000 III(2)", "danivon": "001 II(2)", "email_rules": "002 FORMAT 2",
                            "scorpion": "003 [17]", "gwm": "004 I(1)"},
    "partial_names": {"mhr": "000 III(2)", "danivon": "001 II(2)", "email_rules": "002 FORMAT 7",
                      "scorpion": "003 [15]", "gwm": "004 I(1)"},
    "forbidden_abbreviations": {"scorpion": "003 [17]"},
    "player_abbreviation_lists": {"gwm": "004 I(1)"},
    "unit_location_matching": {"danivon": "001 II(1)", "email_rules": "002 FORMAT 7"},
    "typo_tolerance": {"mhr": "000 III(2)", "danivon": "001 II(2)", "email_rules": "002 FORMAT 5",
                       "scorpion": "003 [17]"},
    "valid_name_typos": {"mhr": "000 III(2)", "gwm": "004 I(1)"},
    "unit_type_omitted": {"mhr": "000 IV(1)", "danivon": "001 III(3)", "email_rules": "002 FORMAT 7",
                          "scorpion": "003 [15]", "gwm": "004 II(1)"},
    "unit_type_wrong": {"mhr": "000 IV(1)", "danivon": "001 III(4)", "email_rules": "002 ORDERS 1",
                        "scorpion": "003 [15]", "gwm": "004 II(1)"},
    "nationality_omitted": {"mhr": "000 IV(2)", "danivon": "001 III(5)", "scorpion": "003 [21]",
                            "gwm": "004 II(2)"},
    "nationality_wrong": {"mhr": "000 IV(2)", "danivon": "001 III(6)", "email_rules": "002 ORDERS 1",
                          "scorpion": "003 [21]", "gwm": "004 II(2)"},
    "coast_omitted_move": {"mhr": "000 IV(3)", "danivon": "001 III(7)", "email_rules": "002 ORDERS 1",
                           "scorpion": "003 [10 c]", "gwm": "004 II(3)b"},
    "coast_wrong_destination": {"mhr": "000 IV(4)", "email_rules": "002 ORDERS 1", "scorpion": "003 [10 c]",
                                "gwm": "004 II(3)b"},
    "coast_own_location": {"mhr": "000 IV(5)", "email_rules": "002 ORDERS 1", "scorpion": "003 [10 c]",
                           "gwm": "004 II(3)a"},
    "coast_support_omitted": {"mhr": "000 IV(6)", "danivon": "001 III(8)", "email_rules": "002 ORDERS 1",
                              "scorpion": "003 [10 c]", "gwm": "004 II(3)c"},
    "coast_support_mismatch": {"mhr": "000 IV(7)", "danivon": "001 III(9)", "scorpion": "003 [10 c]",
                               "gwm": "004 II(3)c"},
    "multiple_orders_same_unit": {"mhr": "000 III(6)", "danivon": "001 III(2)", "email_rules": "002 FORMAT 4",
                                  "scorpion": "003 [10 a]",
                                  "gwm": "004 I(5)"},
    "hold_plus_support": {"email_rules": "002 FORMAT 8"},
    "impossible_move_treatment": {"mhr": "000 III(5)", "danivon": "001 III(1)", "email_rules": "002 FORMAT 5",
                                  "scorpion": "003 [10 b]", "gwm": "004 I(3)"},
    "move_to_own_province": {"mhr": "000 III(5)", "danivon": "001 III(1)", "email_rules": "002 FORMAT 11",
                             "scorpion": "003 [10 b]", "gwm": "004 I(3)"},
    "convoy_possible_move_legal": {"mhr": "000 III(5)", "danivon": "001 III(1)", "gwm": "004 I(3)"},
    "nonsense_order_treatment": {"mhr": "000 III(5)", "danivon": "001 III(1)", "email_rules": "002 FORMAT 5",
                                 "scorpion": "003 [10 b]", "gwm": "004 I(3)"},
    "parenthetical_order": {"mhr": "000 III(2)", "danivon": "001 II(2)", "email_rules": "002 FORMAT 6",
                            "scorpion": "003 [15]"},
    "implied_orders": {"mhr": "000 III(3)", "email_rules": "002 FORMAT 9", "gwm": "004 I(2)"},
    "combined_orders": {"email_rules": "002 FORMAT 10", "scorpion": "003 [15]"},
    "orders_for_missing_units": {"email_rules": "002 FORMAT 12"},
    "conditional_movement_orders": {"mhr": "000 III(7)", "scorpion": "003 [5 a]"},
    "contingent_minor_orders": {"mhr": "000 II(5)", "danivon": "001 II(6)", "scorpion": "003 [5]"},
    "conditional_adjustment_orders": {"mhr": "000 II(5)", "danivon": "001 III(10)", "scorpion": "003 [5 a]"},
    "set_combination": {"mhr": "000 III(4)", "danivon": "001 II(7)", "email_rules": "002 ORDERS 2",
                        "scorpion": "003 [10]"},
    "set_ordering": {"mhr": "000 III(4)", "danivon": "001 II(7)", "email_rules": "002 ORDERS 2",
                     "scorpion": "003 [10]"},
    "default_set_status": {"mhr": "000 II(1)", "danivon": "001 II(3)"},
    "multiple_retreat_orders": {"mhr": "000 III(6)", "danivon": "001 III(2)", "email_rules": "002 FORMAT 4",
                                "scorpion": "003 [5]", "gwm": "004 I(5)"},
    "illegal_retreat": {"scorpion": "003 [5]", "gwm": "004 I(4)"},
    "excess_adjustment_order": {"mhr": "000 V(2)", "danivon": "001 III(10)", "email_rules": "002 FORMAT 4",
                                "scorpion": "003 [10 d]", "gwm": "004 III(2)"},
    "multiple_builds_same_centre": {"mhr": "000 V(3)", "danivon": "001 III(11)", "email_rules": "002 FORMAT 4",
                                    "scorpion": "003 [10 d]",
                                    "gwm": "004 III(3)"},
    "build_type_omitted": {"mhr": "000 V(1)", "danivon": "001 III(3)", "email_rules": "002 ORDERS 1",
                           "scorpion": "003 [15]",
                           "gwm": "004 III(1)"},
    "fleet_build_inland": {"mhr": "000 V(5)", "email_rules": "002 Q&A 2", "gwm": "004 III(5)"},
    "army_build_with_coast": {"gwm": "004 III(5)"},
    "fleet_build_coast_omitted": {"email_rules": "002 ORDERS 1"},
    # the rulebook that settles what the house rules leave to it (a plain illegal order)
    "rulebook": {"mhr": "000 I(2)", "danivon": "001 I(2)", "scorpion": "003 [1]"},
    "datc_4a6": {"mhr": "000 VI(3)"},
}

# The value each document gives the options above (the profiles' own values; a test checks them against
# config/rulesets). A GM override that changes a value (MATRIX 2.0 `gm_override`) leaves the document
# behind: the clause is then not cited, since it says something else.
_DOCUMENT_VALUES: dict[str, dict[str, Any]] = {
    "interpretation_presumption": {"mhr": "literal", "danivon": "complete_valid_set",
                                   "email_rules": "complete_valid_set", "scorpion": "literal"},
    "abbreviation_table": {"email_rules": "email_rules_list", "scorpion": "scorpion_list", "gwm": "standard"},
    "abbreviation_policy": {"mhr": "any_unambiguous", "danivon": "any_unambiguous",
                            "email_rules": "any_unambiguous", "scorpion": "any_unambiguous",
                            "gwm": "any_unambiguous"},
    "partial_names": {"mhr": "accept", "danivon": "accept", "email_rules": "accept", "scorpion": "accept",
                      "gwm": "accept"},
    "forbidden_abbreviations": {"scorpion": ("Nor", "Liv")},
    "player_abbreviation_lists": {"gwm": True},
    "unit_location_matching": {"danivon": "own_units", "email_rules": "own_units"},
    "typo_tolerance": {"mhr": "unambiguous_only", "danivon": "unambiguous_only", "email_rules": "generous",
                       "scorpion": "unambiguous_only"},
    "valid_name_typos": {"mhr": "literal", "gwm": "literal"},
    "unit_type_omitted": {"mhr": "accept", "danivon": "invalid", "email_rules": "accept", "scorpion": "invalid",
                          "gwm": "accept"},
    "unit_type_wrong": {"mhr": "invalid", "danivon": "invalid", "email_rules": "invalid", "scorpion": "invalid",
                        "gwm": "ignore"},
    "nationality_omitted": {"mhr": "accept", "danivon": "accept", "scorpion": "invalid_for_supports",
                            "gwm": "accept"},
    "nationality_wrong": {"mhr": "invalid", "danivon": "ignore", "email_rules": "invalid", "scorpion": "invalid",
                          "gwm": "ignore"},
    "coast_omitted_move": {"mhr": "accept_if_unique", "danivon": "accept_if_unique",
                           "email_rules": "always_invalid", "scorpion": "accept_if_unique",
                           "gwm": "accept_if_unique"},
    "coast_wrong_destination": {"mhr": "redirect_if_unique", "email_rules": "invalid", "scorpion": "invalid",
                                "gwm": "redirect_if_unique"},
    "coast_own_location": {"mhr": "ignore", "email_rules": "must_match_if_given", "scorpion": "must_match_if_given",
                           "gwm": "ignore"},
    "coast_support_omitted": {"mhr": "accept_if_unique", "danivon": "accept_if_unique",
                              "email_rules": "always_invalid", "scorpion": "accept_if_unique",
                              "gwm": "accept_if_unique"},
    "coast_support_mismatch": {"mhr": "accept_if_unique", "danivon": "accept_if_unique", "scorpion": "invalid",
                               "gwm": "accept_if_unique"},
    "multiple_orders_same_unit": {"mhr": "first", "danivon": "last", "email_rules": "first",
                                  "scorpion": "identical_ok_else_stand", "gwm": "last"},
    "hold_plus_support": {"email_rules": "support_wins"},
    "impossible_move_treatment": {"mhr": "failed_move_unsupportable", "danivon": "hold_supportable",
                                  "email_rules": "hold_supportable", "scorpion": "failed_move_unsupportable",
                                  "gwm": "hold_supportable"},
    "move_to_own_province": {"mhr": "failed_move_unsupportable", "danivon": "hold_supportable",
                             "email_rules": "hold_supportable", "scorpion": "failed_move_unsupportable",
                             "gwm": "hold_supportable"},
    "convoy_possible_move_legal": {"mhr": True, "danivon": True, "gwm": True},
    "nonsense_order_treatment": {"mhr": "hold", "danivon": "hold", "email_rules": "hold", "scorpion": "hold",
                                 "gwm": "hold"},
    "parenthetical_order": {"mhr": "use", "danivon": "use", "email_rules": "use", "scorpion": "use"},
    "implied_orders": {"mhr": "none", "email_rules": "from_own_support", "gwm": "none"},
    "combined_orders": {"email_rules": "accept", "scorpion": "accept"},
    "orders_for_missing_units": {"email_rules": "void_and_report"},
    "conditional_movement_orders": {"mhr": "strip_condition", "scorpion": "void_line"},
    "contingent_minor_orders": {"mhr": "accepted", "danivon": "accepted", "scorpion": "accepted"},
    "conditional_adjustment_orders": {"mhr": "objective_only", "danivon": "objective_only",
                                      "scorpion": "objective_only"},
    "set_combination": {"mhr": "merge_per_unit", "danivon": "replace",
                        "email_rules": "replace_unless_marked_change", "scorpion": "replace"},
    "set_ordering": {"mhr": "receipt_time", "danivon": "version_then_receipt",
                     "email_rules": "version_then_receipt", "scorpion": "receipt_time"},
    "default_set_status": {"mhr": "preliminary", "danivon": "final"},
    "multiple_retreat_orders": {"mhr": "first", "danivon": "last", "email_rules": "first",
                                "scorpion": "priority_list", "gwm": "last"},
    "illegal_retreat": {"scorpion": "disband", "gwm": "disband"},
    "excess_adjustment_order": {"mhr": "top_down", "danivon": "top_down", "email_rules": "top_down",
                                "scorpion": "top_down", "gwm": "bottom_up"},
    "multiple_builds_same_centre": {"mhr": "first_top_down", "danivon": "first_top_down",
                                    "email_rules": "first_top_down", "scorpion": "first_top_down",
                                    "gwm": "first_bottom_up"},
    "build_type_omitted": {"mhr": "no_build", "danivon": "no_build", "email_rules": "no_build",
                           "scorpion": "no_build", "gwm": "army_inland_fleet_if_coast"},
    "fleet_build_inland": {"mhr": "no_build", "email_rules": "no_build", "gwm": "no_build"},
    "army_build_with_coast": {"gwm": "no_build"},
    "fleet_build_coast_omitted": {"email_rules": "no_build"},
    "rulebook": {"mhr": "rb2000", "danivon": "gibsons1989", "scorpion": "rb2000"},
    "datc_4a6": {"mhr": "allowed_not_required"},
}

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


def option(ruleset: Any, name: str) -> Any:
    """The ruleset's value for `name`, or the catalogue default (MATRIX section 2, the `standard`
    profile) when the ruleset has none."""
    value = getattr(ruleset, name, None)
    if value is None:
        return getattr(_standard(), name)
    return value


def profile_of(ruleset: Any) -> str | None:
    for attribute in ("profile", "id", "name", "profile_id"):
        value = getattr(ruleset, attribute, None)
        if isinstance(value, str) and value in PROFILES + ("standard",):
            return value
    return None


def clause(ruleset: Any, name: str) -> str:
    """The clause deciding option `name` in the ruleset's profile, e.g. "000 III(6)"."""
    profile = profile_of(ruleset)
    cited = _CLAUSES.get(name, {})
    value = option(ruleset, name)
    if profile in cited and _DOCUMENT_VALUES.get(name, {}).get(profile, value) == value:
        return cited[profile]
    proposal = _PROPOSALS.get((name, str(value)))
    # A proposal from the rulebook or the DATC is this profile's source; one taken from another
    # house-rule document is not, and citing it would send the player to rules of another game.
    if proposal and proposal.startswith(("DATC", "RB2000")):
        return proposal
    # a value no clause of this profile gives (silent, or changed by the GM): the option itself
    return f"{name} = {value}"
