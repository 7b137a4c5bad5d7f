"""The ruleset model and the six shipped profiles, checked against the seed documents.

The per-profile tables below are transcribed from the documents' clauses by hand, independently of the TOML
files, so a wrong value in either shows up here. Each case id names the deciding clause.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
import typing
from pathlib import Path
from typing import Any

import pytest

from gmserver.paths import RULESETS_DIR
from gmserver.rules import briefing, delays
from gmserver.rules.ruleset import (
    Reminder,
    ReservedLabel,
    Ruleset,
    RulesetError,
    VoteKindRules,
    available_rulesets,
    default_ruleset,
    load_ruleset,
)
from gmserver.rules.ruleset_options import OPTIONS, Choice, describe_options

PROFILES = ("standard", "mhr", "danivon", "email_rules", "scorpion", "gwm")

# --- loading the shipped profiles -----------------------------------------------------------


def test_the_six_profiles_are_shipped() -> None:
    assert available_rulesets() == sorted(PROFILES)


@pytest.mark.parametrize("name", PROFILES)
def test_profile_loads(name: str) -> None:
    ruleset = load_ruleset(name)
    assert ruleset.name == name
    assert ruleset.title


def _flat_keys(table: dict[str, Any], prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for key, value in table.items():
        if isinstance(value, dict):
            keys |= _flat_keys(value, f"{prefix}{key}.")
        else:
            keys.add(prefix + key)
    return keys


@pytest.mark.parametrize("name", PROFILES)
def test_shipped_file_states_every_option(name: str) -> None:
    """A GM reading one file sees the whole profile: no key is left to the defaults."""
    raw = tomllib.loads((RULESETS_DIR / f"{name}.toml").read_text(encoding="utf-8"))
    raw.pop("clause", None)
    assert _flat_keys(raw) == set(OPTIONS) | {"name", "title"}


DOCUMENTS = {"mhr": "000", "danivon": "001", "email_rules": "002", "scorpion": "003", "gwm": "004"}


@pytest.mark.parametrize("name", PROFILES)
def test_each_clause_line_sits_below_its_key_and_cites_the_profiles_document(name: str) -> None:
    """`clause.KEY = "000 III(6)"` right below `KEY = ...` (or below the comment on a derived
    value), naming a clause of the profile's own document; `standard` has no document."""
    lines = (RULESETS_DIR / f"{name}.toml").read_text(encoding="utf-8").splitlines()
    cited = [(n, line) for n, line in enumerate(lines) if line.startswith("clause.")]
    assert bool(cited) == (name != "standard")
    for n, line in cited:
        key = line.removeprefix("clause.").split(" = ")[0]
        above = next(lines[m] for m in range(n - 1, -1, -1) if not lines[m].startswith((" ", "]")))
        assert above.startswith((f"{key} = ", f"# {key}", "#   ", "# impossible_move_treatment")), (key, above)
        assert line.split(" = ")[1].startswith(f'"{DOCUMENTS[name]} '), line
    assert {c.option for c in load_ruleset(name).citations} == {
        line.removeprefix("clause.").split(" = ")[0] for _, line in cited}


@pytest.mark.parametrize("name", PROFILES)
def test_shipped_file_comments_every_key(name: str) -> None:
    """Each key is preceded by its comment block (allowed values, then the deciding clause)."""
    lines = (RULESETS_DIR / f"{name}.toml").read_text(encoding="utf-8").splitlines()
    prefix = "Default:" if name == "standard" else {"mhr": "000", "danivon": "001", "email_rules": "002",
                                                    "scorpion": "003", "gwm": "004"}[name]
    for n, line in enumerate(lines):
        if line and not line.startswith(("#", " ", "]", "name =", "title =", "clause.")):
            key = line.split(" = ")[0]
            block = []
            for above in reversed(lines[:n]):
                if not above.startswith("#"):
                    break
                block.append(above)
            assert any(c.startswith(f"# {prefix}") for c in block), f"{key} has no clause comment"


def test_standard_is_the_catalogue_default() -> None:
    assert load_ruleset("standard") == default_ruleset()


def test_load_by_path() -> None:
    assert load_ruleset(RULESETS_DIR / "mhr.toml") == load_ruleset("mhr")


def test_dataclass_has_one_field_per_option() -> None:
    fields = {f.name for f in dataclasses.fields(Ruleset)} - {"name", "title", "vote", "citations"}
    plain = {name for name in OPTIONS if "." not in name}
    assert fields == plain
    ruleset = default_ruleset()
    for name in OPTIONS:  # dotted vote options are reachable too
        ruleset.option(name)


def test_option_documentation_lists_every_option() -> None:
    doc = describe_options()
    assert all(f"`{name}`" in doc for name in OPTIONS)


# --- per-profile values ---------------------------------------------------------------------
# option -> one (value, clause) per profile, in the order of PROFILES.

INTERPRETATION_AND_SETS: dict[str, list[tuple[Any, str]]] = {
    # 2.3
    "interpretation_presumption": [("literal", "DATC 4.E.2"), ("literal", "000 III(1)"),
        ("complete_valid_set", "001 II(1)"), ("complete_valid_set", "002 silent, analogy FORMAT 5 9 10"),
        ("literal", "003 silent, [15]"), ("literal", "004 silent")],
    "abbreviation_table": [("standard", "default"), ("standard", "000 silent"), ("standard", "001 silent"),
        ("email_rules_list", "002 FORMAT 1"), ("scorpion_list", "003 [17]"), ("standard", "004 I(1) ¶1")],
    "abbreviation_policy": [("any_unambiguous", "RB2000"), ("any_unambiguous", "000 III(2)"),
        ("any_unambiguous", "001 II(2)"), ("any_unambiguous", "002 FORMAT 2 5 7"),
        ("any_unambiguous", "003 [17]"), ("any_unambiguous", "004 I(1) ¶1")],
    "partial_names": [("accept", "default"), ("accept", "000 silent, III(2)"), ("accept", "001 silent, II(2)"),
        ("accept", "002 FORMAT 7"), ("accept", "003 silent, [15]"), ("accept", "004 I(1) ¶1")],
    "forbidden_abbreviations": [((), "default"), ((), "000"), ((), "001"), ((), "002"),
        (("Nor", "Liv"), "003 [17]"), ((), "004")],
    "player_abbreviation_lists": [(False, "default"), (False, "000 silent"), (False, "001 silent"),
        (False, "002 silent"), (False, "003 silent"), (True, "004 I(1) ¶2")],
    "unit_location_matching": [("map_only", "default"), ("map_only", "000 silent"),
        ("own_units", "001 silent, analogy II(1)"), ("own_units", "002 FORMAT 7"),
        ("map_only", "003 silent"), ("map_only", "004 silent")],
    "typo_tolerance": [("unambiguous_only", "default"), ("unambiguous_only", "000 III(2)"),
        ("unambiguous_only", "001 II(2)"), ("generous", "002 FORMAT 5"),
        ("unambiguous_only", "003 [15] [17]"), ("unambiguous_only", "004 silent")],
    "province_languages": [(frozenset(), "default [P]"), (frozenset(), "000 silent"), (frozenset(), "001 silent"),
        (frozenset(), "002 silent"), (frozenset(), "003 silent"), (frozenset(), "004 silent")],
    "valid_name_typos": [("literal", "default"), ("literal", "000 III(2) s.3"), ("literal", "001 silent"),
        ("literal", "002 silent"), ("literal", "003 silent"), ("literal", "004 I(1) ¶2")],
    "unit_type_omitted": [("accept", "DATC 4.C.1"), ("accept", "000 IV(1)"), ("invalid", "001 III(3)"),
        ("accept", "002 FORMAT 7"), ("invalid", "003 [15]"), ("accept", "004 II(1)")],
    "unit_type_wrong": [("ignore", "DATC 4.C.2"), ("invalid", "000 IV(1)"), ("invalid", "001 III(4)"),
        ("invalid", "002 ORDERS 1"), ("invalid", "003 [15]"), ("ignore", "004 II(1)")],
    "nationality_omitted": [("accept", "DATC 4.C.5"), ("accept", "000 IV(2)"), ("accept", "001 III(5)"),
        ("accept", "002 silent, DATC"), ("invalid_for_supports", "003 [21]"), ("accept", "004 II(2)")],
    "nationality_wrong": [("ignore", "DATC 4.C.6"), ("invalid", "000 IV(2)"), ("ignore", "001 III(6)"),
        ("invalid", "002 silent, analogy ORDERS 1"), ("invalid", "003 silent, a fortiori [21]"),
        ("ignore", "004 II(2)")],
    "coast_omitted_move": [("accept_if_unique", "DATC 4.B.1 4.B.2"), ("accept_if_unique", "000 IV(3)"),
        ("accept_if_unique", "001 III(7)"), ("always_invalid", "002 ORDERS 1"),
        ("accept_if_unique", "003 [10 c]"), ("accept_if_unique", "004 II(3)b")],
    "coast_wrong_destination": [("invalid", "DATC 4.B.3"), ("redirect_if_unique", "000 IV(4)"),
        ("invalid", "001 silent, DATC 4.B.3"), ("invalid", "002 silent, analogy ORDERS 1"),
        ("invalid", "003 [10 c]"), ("redirect_if_unique", "004 II(3)b")],
    "coast_own_location": [("ignore", "DATC 4.B.5"), ("ignore", "000 IV(3) IV(4) IV(5)"),
        ("ignore", "001 silent, DATC 4.B.5"), ("must_match_if_given", "002 silent, analogy ORDERS 1"),
        ("must_match_if_given", "003 [10 c]"), ("ignore", "004 II(3)a b")],
    "coast_support_omitted": [("accept_always", "DATC 4.B.4"), ("accept_if_unique", "000 IV(6)"),
        ("accept_if_unique", "001 III(8)"), ("always_invalid", "002 ORDERS 1"),
        ("accept_if_unique", "003 [10 c]"), ("accept_if_unique", "004 II(3)c")],
    "coast_support_mismatch": [("invalid", "DATC 4.B.4, Calhamer"), ("accept_if_unique", "000 IV(7)"),
        ("accept_if_unique", "001 III(9)"), ("invalid", "002 silent, DATC"),
        ("invalid", "003 silent, analogy [10 c]"), ("accept_if_unique", "004 II(3)c")],
    "multiple_orders_same_unit": [("conflict_holds", "DATC 4.D.3"), ("first", "000 III(6)"),
        ("last", "001 III(2)"), ("first", "002 silent, analogy FORMAT 4"),
        ("identical_ok_else_stand", "003 [10 a]"), ("last", "004 I(5)")],
    "multiple_orders_skip_illegal": [(False, "default"), (False, "000 silent"), (False, "001 silent"),
        (False, "002 silent"), (False, "003 [10 a] [10 b]"), (False, "004 silent")],
    "hold_plus_support": [("by_multiple_order_rule", "default"), ("by_multiple_order_rule", "000 silent"),
        ("by_multiple_order_rule", "001 silent"), ("support_wins", "002 FORMAT 8"),
        ("by_multiple_order_rule", "003 silent"), ("by_multiple_order_rule", "004 silent")],
    "impossible_move_treatment": [("hold_supportable", "DATC 4.E.1"),
        ("failed_move_unsupportable", "000 III(5) ¶1"), ("hold_supportable", "001 III(1)"),
        ("hold_supportable", "002 FORMAT 5 11"), ("failed_move_unsupportable", "003 [10 b]"),
        ("hold_supportable", "004 I(3)")],
    "move_to_own_province": [("hold_supportable", "DATC 6.A.4"),
        ("failed_move_unsupportable", "000 III(5) ¶1"), ("hold_supportable", "001 III(1)"),
        ("hold_supportable", "002 FORMAT 11"), ("failed_move_unsupportable", "003 [10 b]"),
        ("hold_supportable", "004 I(3)")],
    "convoy_possible_move_legal": [(True, "DATC 4.E.1"), (True, "000 III(5) ¶2"), (True, "001 III(1)"),
        (True, "002 silent"), (True, "003 silent"), (True, "004 I(3)")],
    "nonsense_order_treatment": [("hold", "default"), ("hold", "000 III(5) ¶1"), ("hold", "001 III(1)"),
        ("hold", "002 FORMAT 5 6"), ("hold", "003 [10 b]"), ("hold", "004 I(3)")],
    "parenthetical_order": [("use", "default"), ("use", "000 silent, III(2)"), ("use", "001 silent, II(2)"),
        ("use", "002 FORMAT 6"), ("use", "003 silent, [15]"), ("use", "004 silent")],
    "implied_orders": [("none", "DATC 4.E.3"), ("none", "000 III(3)"), ("none", "001 silent, DATC 4.E.3"),
        ("from_own_support", "002 FORMAT 9"), ("none", "003 silent"), ("none", "004 I(2)")],
    "combined_orders": [("accept", "RB2000"), ("accept", "000 silent"), ("accept", "001 silent"),
        ("accept", "002 FORMAT 10"), ("accept", "003 silent, [15]"), ("accept", "004 silent")],
    "orders_for_missing_units": [("void_and_report", "default"), ("void_and_report", "000 silent"),
        ("void_and_report", "001 silent"), ("void_and_report", "002 FORMAT 12"),
        ("void_and_report", "003 silent"), ("void_and_report", "004 silent")],
    "conditional_movement_orders": [("void_line", "practice"), ("strip_condition", "000 III(7)"),
        ("void_line", "001 silent"), ("void_line", "002 silent"), ("void_line", "003 silent, [5 a]"),
        ("void_line", "004 silent")],
    "contingent_minor_orders": [("accepted", "default"), ("accepted", "000 II(5)"), ("accepted", "001 II(6)"),
        ("accepted", "002 silent"), ("accepted", "003 n/a, [5]"), ("accepted", "004 silent")],
    "conditional_adjustment_orders": [("objective_only", "default"), ("objective_only", "000 II(5) III(7)"),
        ("objective_only", "001 III(10)"), ("objective_only", "002 silent"),
        ("objective_only", "003 [5 a]"), ("objective_only", "004 silent")],
    # 2.4
    "set_combination": [("replace", "DATC 4.D.1"), ("merge_per_unit", "000 III(4)"),
        ("replace", "001 II(7) ¶2"), ("replace_unless_marked_change", "002 ORDERS 2"),
        ("replace", "003 [10]"), ("replace", "004 silent")],
    "set_ordering": [("receipt_time", "default"), ("receipt_time", "000 III(4)"),
        ("version_then_receipt", "001 II(7) ¶1"), ("version_then_receipt", "002 ORDERS 2"),
        ("receipt_time", "003 [10]"), ("receipt_time", "004 silent")],
    "default_set_status": [("final", "default"), ("preliminary", "000 II(1) s.2"), ("final", "001 II(3)"),
        ("final", "002 silent"), ("final", "003 silent, [11]"), ("final", "004 silent")],
    "publish_overridden_orders": [(False, "default"), (False, "000 silent"), (False, "001 silent"),
        (False, "002 ORDERS 3"), (False, "003 silent"), (False, "004 silent")],
    "report_order_sequence": [("canonical", "default"), ("canonical", "000 silent"),
        ("canonical", "001 silent"), ("canonical", "002 FORMAT 3"), ("canonical", "003 silent"),
        ("canonical", "004 silent")],
}

# A sample of the other sections, chosen where the profiles differ.
OTHER_SECTIONS: dict[str, list[tuple[Any, str]]] = {
    # 2.1
    "subject_required_fields": [
        (frozenset({"game", "year", "season", "power"}), "practice"),
        (frozenset({"game", "year", "season", "power", "version"}), "000 II(2) b"),
        (frozenset({"game", "year", "season", "phase", "power"}), "001 II(4)"),
        (frozenset({"game"}), "002 silent, practice"),
        (frozenset({"game", "power", "season", "year"}), "003 [10]"),
        (frozenset({"game", "year", "season", "power"}), "004 silent")],
    "subject_template": [("default", "default"), ("mhr", "000 II(2) b"), ("danivon", "001 II(4)"),
        ("email_rules", "002 [P]"), ("scorpion", "003 [10]"), ("default", "004 [P]")],
    "nonconforming_subject_policy": [("reject_with_reply", "default"), ("reject_with_reply", "000 II(2) c"),
        ("hold_for_gm", "001 II(4)"), ("accept_with_warning", "002 silent"),
        ("accept_with_warning", "003 [10]"), ("reject_with_reply", "004 silent")],
    "recipient_header_rule": [("any", "default"), ("to_only", "000 II(2) a"), ("any", "001 silent"),
        ("any", "002 silent"), ("any", "003 silent"), ("any", "004 silent")],
    "invalid_set_feedback": [("echo_always", "default"), ("conditional_mhr", "000 III(1)"),
        ("echo_always", "001 II(1) IV(1) ¶2"), ("echo_always", "002 silent"), ("echo_always", "003 silent"),
        ("echo_always", "004 silent")],
    # 2.2
    "proxy_policy": [("forbidden", "DATC 4.E.5"), ("gm_approval", "000 II(3)"), ("forbidden", "001 II(5)"),
        ("forbidden", "002 silent"), ("allowed_with_notice", "003 [19]"), ("forbidden", "004 silent")],
    "perpetual_orders": [("forbidden", "DATC 4.E.4"), ("gm_approval", "000 II(4)"), ("forbidden", "001 silent"),
        ("forbidden", "002 silent"), ("forbidden", "003 silent"), ("forbidden", "004 silent")],
    # 2.5
    "rulebook": [("rb2000", "default"), ("rb2000", "000 I(2)"), ("gibsons1989", "001 I(2)"),
        ("rb2000", "002 silent"), ("rb2000", "003 [1]"), ("rb2000", "004 silent")],
    "datc_4a1": [("all_routes", "engine"), ("mhr_hybrid", "000 VI(4)"), ("all_routes", "001 silent"),
        ("all_routes", "002 Q&A 3"), ("all_routes", "003 silent"), ("all_routes", "004 silent")],
    "datc_4a2": [("szykman", "engine"), ("rb2000_all_hold_backup", "000 VI(6)"), ("szykman", "001 silent"),
        ("szykman", "002 silent"), ("szykman", "003 silent, [1]"), ("szykman", "004 silent")],
    "datc_4a6": [("ignored", "engine"), ("allowed_not_required", "000 VI(3)"), ("ignored", "001 silent"),
        ("ignored", "002 silent"), ("ignored", "003 silent"), ("ignored", "004 silent")],
    # 2.6
    "nrr_default": [("disband", "RB2000"), ("disband", "000 silent"), ("danivon_auto_retreat", "001 V(4)"),
        ("disband", "002 silent"), ("disband", "003 [6] [12]"), ("disband", "004 I(4) I(6)b")],
    "multiple_retreat_orders": [("first", "default"), ("first", "000 III(6)"), ("last", "001 III(2)"),
        ("first", "002 FORMAT 4"), ("priority_list", "003 [5]"), ("last", "004 I(5)")],
    # 2.7
    "season_structure": [("standard", "default"), ("standard", "000 II(5)"), ("standard", "001 II(6)"),
        ("standard", "002 ORDERS 4"), ("uk_two_season", "003 [5]"), ("standard", "004 silent")],
    "excess_adjustment_order": [("top_down", "DATC 4.D.4"), ("top_down", "000 V(2)"),
        ("top_down", "001 III(10)"), ("top_down", "002 FORMAT 4"), ("top_down", "003 [10 d]"),
        ("bottom_up", "004 III(2)")],
    "multiple_builds_same_centre": [("first_top_down", "DATC 4.D.5"), ("first_top_down", "000 V(3)"),
        ("first_top_down", "001 III(11)"), ("first_top_down", "002 silent, analogy FORMAT 4"),
        ("first_top_down", "003 [10 d]"), ("first_bottom_up", "004 III(3)")],
    "build_type_omitted": [("army_inland_fleet_if_coast", "DATC 4.C.3"), ("no_build", "000 V(1)"),
        ("no_build", "001 III(3)"), ("no_build", "002 silent, analogy ORDERS 1"), ("no_build", "003 [15]"),
        ("army_inland_fleet_if_coast", "004 III(1)")],
    "army_build_with_coast": [("ignore_coast", "DATC 4.B.6"), ("ignore_coast", "000 silent"),
        ("ignore_coast", "001 silent"), ("ignore_coast", "002 silent"), ("ignore_coast", "003 silent"),
        ("no_build", "004 III(5) ¶2")],
    "nbr_default": [("waive", "DATC 4.D.7"), ("waive", "000 silent"), ("danivon_auto_build", "001 V(5) ¶1"),
        ("waive", "002 silent"), ("waive", "003 [12]"), ("waive", "004 I(6)c")],
    "removal_algorithm": [("rb2000", "RB2000"), ("mhr", "000 V(4)"), ("danivon", "001 V(5) ¶2"),
        ("rb2000", "002 silent"), ("scorpion", "003 [8]"), ("gwm", "004 III(4) I(6)d")],
    "alphabetical_key": [("english_names", "RB2000"), ("english_names", "000 silent"),
        ("english_names", "001 silent"), ("english_names", "002 silent"), ("english_names", "003 silent, [8]"),
        ("system_codes", "004 III(4) ¶3")],
    "cd_mode": [("permanent", "default"), ("permanent", "000 VII(6) ¶2"), ("gm_chooses", "001 V(3)"),
        ("per_turn_then_replace", "002 ORDERS 0"), ("permanent", "003 [13]"), ("permanent", "004 silent")],
    "record_cd_on_player": [(False, "default"), (True, "000 VII(6) ¶2"), (False, "001 silent"),
        (False, "002 silent"), (False, "003 silent"), (False, "004 silent")],
    "first_year_abandonment": [("normal", "default"), ("normal", "000"), ("suspend_and_replace", "001 V(3)"),
        ("normal", "002"), ("normal", "003 see s1901_policy"), ("normal", "004")],
    "cd_search_years": [(None, "default"), (None, "000"), (2, "001 V(3)(ii)"), (None, "002"),
        (None, "003"), (None, "004")],
    # 2.8
    "min_hours_movement": [(48, "practice"), (48, "000 VII(4)"), (72, "001 IV(4)"), (48, "002 silent"),
        (168, "003 [23]"), (48, "004 silent")],
    "target_days_per_game_turn": [(None, "default"), (None, "000"), (7, "001 IV(4)"), (None, "002"),
        (None, "003 the voted length"), (None, "004")],
    "turn_length_vote": [(None, "default"), (None, "000"), (None, "001"), (None, "002"),
        ((7, 14, 21), "003 [23]"), (None, "004")],
    "early_processing": [("never", "default"), ("minor_gm_discretion", "000 VII(2)"), ("never", "001 IV(2)"),
        ("never", "002 silent, ORDERS 0"), ("never", "003 [10]"), ("never", "004 silent")],
    "orders_accepted_until": [("deadline", "default"), ("adjudication_start", "000 VII(3)"),
        ("adjudication_start", "001 IV(3)"), ("adjudication_start", "002 ORDERS 0"), ("deadline", "003 [10]"),
        ("deadline", "004 silent")],
    "late_with_proof": [("never", "default"), ("gm_discretion", "000 VII(1)"), ("gm_discretion", "001 IV(1)"),
        ("never", "002 silent, ORDERS 0"), ("never", "003 [10]"), ("never", "004 silent")],
    "delay_policy": [("gm_decides", "default"), ("auto_grant_gm_may_refuse", "000 VII(5)"),
        ("auto_grant_gm_may_refuse", "001 IV(5)"), ("auto_grant_gm_may_refuse", "002 ORDERS 0"),
        ("gm_decides", "003 [10]"), ("gm_decides", "004 silent")],
    "nmr_limit_to_cd": [(2, "practice"), (2, "000 VII(6) ¶2"), ("gm_after_2", "001 V(2)"),
        (None, "002 ORDERS 0"), (2, "003 [13]"), (2, "004 silent")],
    "nmr_contact_window_hours": [(None, "default"), (None, "000"), (24, "001 V(1)"), (None, "002"),
        (None, "003"), (None, "004")],
    "nmr_replacement_after": [(None, "default"), (None, "000 VII(5)"), (None, "001 V(2) V(3)"),
        (2, "002 ORDERS 0"), (None, "003"), (None, "004")],
    "s1901_policy": [("normal", "default"), ("preliminary_required", "000 II(1) s.1"), ("normal", "001"),
        ("normal", "002 silent"), ("suspend_until_replaced", "003 [14]"), ("normal", "004 silent")],
    # 2.9
    "press_kinds": [(frozenset({"white", "grey"}), "practice"), (frozenset({"white", "grey"}), "000 X(1)"),
        (frozenset({"white"}), "001 VII(1)"), (frozenset({"white", "grey", "black"}), "002 PRESS 1"),
        (frozenset({"white", "grey"}), "003 [9]"), (frozenset({"white", "grey"}), "004 silent")],
    "press_channel": [("any_message", "default"), ("any_message", "000 silent"), ("any_message", "001 silent"),
        ("any_message", "002 silent"), ("in_order_set_last_only", "003 [9]"), ("any_message", "004 silent")],
    # 2.10
    "vote_kinds": [(frozenset({"concession", "draw"}), "default"),
        (frozenset({"concession", "draw", "rule_change"}), "000 IX(1)-(3)"),
        (frozenset({"concession", "draw", "rule_change"}), "001 VIII(1)-(3)"),
        (frozenset({"draw"}), "002 DRAWS"),
        (frozenset({"end_game_any_terms", "deadline_change", "rule_change"}), "003 [18]"),
        (frozenset({"concession", "draw"}), "004 silent")],
    "stalemate_years": [(None, "default"), (4, "000 IX(2) ¶2"), (2, "001 VIII(2)"), (3, "002 DRAWS 4"),
        (None, "003"), (None, "004")],
    "end_proposals_per_player_per_turn": [(None, "default"), (None, "000"), (1, "001 VIII(4) ¶3"),
        (None, "002"), (None, "003"), (None, "004")],
    "vote.draw.uncast": [("no", "default"), ("no", "000 silent, IX(1)"), ("no", "001 VIII(2)"),
        ("yes", "002 DRAWS 1"), ("no", "003 n/a"), ("no", "004 silent")],
    "vote.concession.abstention": [("no", "default"), ("excluded", "000 IX(1)"), ("no", "001 VIII(1)"),
        ("yes", "002 as NVR"), ("no", "003 n/a"), ("no", "004 silent")],
    "vote.rule_change.gm_must_agree": [(False, "default"), (True, "000 IX(3)"), (False, "001 VIII(3)"),
        (False, "002 n/a"), (False, "003 [18] ¶3"), (False, "004 silent")],
    "vote.end_game_any_terms.uncast": [("no", "default"), ("no", "000 n/a"), ("no", "001 n/a"),
        ("no", "002 n/a"), ("yes", "003 [18] ¶1"), ("no", "004 n/a")],
    # 2.11
    "correction_window": [("until_next_adjudication", "default"), ("24h_and_before_next", "000 VIII(1)"),
        ("until_next_adjudication", "001 VI(1)"), ("until_next_adjudication", "002 GM ERRORS 2"),
        ("until_next_adjudication", "003 [16]"), ("until_next_adjudication", "004 silent")],
    "extra_unit_repair": [("gm_manual", "default"), ("mhr", "000 VIII(2) VIII(3)"), ("gm_manual", "001 silent"),
        ("gm_manual", "002 silent"), ("gm_manual", "003 silent"), ("gm_manual", "004 silent")],
}


def _cases(table: dict[str, list[tuple[Any, str]]]) -> list[Any]:
    return [
        pytest.param(profile, option, value, id=f"{clause} [{profile}.{option}]")
        for option, row in table.items()
        for profile, (value, clause) in zip(PROFILES, row, strict=True)
    ]


@pytest.fixture(scope="module")
def profiles() -> dict[str, Ruleset]:
    return {name: load_ruleset(name) for name in PROFILES}


@pytest.mark.parametrize(("profile", "option", "expected"), _cases(INTERPRETATION_AND_SETS))
def test_interpretation_and_sets(profiles: dict[str, Ruleset], profile: str, option: str, expected: Any) -> None:
    assert getattr(profiles[profile], option) == expected


@pytest.mark.parametrize(("profile", "option", "expected"), _cases(OTHER_SECTIONS))
def test_other_sections(profiles: dict[str, Ruleset], profile: str, option: str, expected: Any) -> None:
    assert profiles[profile].option(option) == expected


def test_interpretation_and_sets_tables_cover_sections_2_3_and_2_4() -> None:
    wanted = {name for name, spec in OPTIONS.items() if spec.section in ("2.3", "2.4")}
    assert wanted | {"move_to_own_province"} == set(INTERPRETATION_AND_SETS)


def test_structured_values(profiles: dict[str, Ruleset]) -> None:
    assert profiles["standard"].reminders == (Reminder("powers_without_set", 24),)
    # 003 [11]: "send provisional orders" rides on every report
    assert Reminder("all_powers", None) in profiles["scorpion"].reminders
    assert profiles["mhr"].press_reserved_labels == (ReservedLabel("GM", "gm"),)
    email = {r.label: r.holder for r in profiles["email_rules"].press_reserved_labels}
    assert email["Zurich"] == "gm" and email["France"] == "players_and_eliminated"  # 002 PRESS 2, 6
    scorpion = {r.label: r.holder for r in profiles["scorpion"].press_reserved_labels}
    assert scorpion["A-H"] == "AUSTRIA" and scorpion["StP"] == "RUSSIA" and scorpion["GM"] == "gm"  # 003 [9]
    assert profiles["mhr"].vote.rule_change.gm_must_agree  # 000 IX(3)


# --- errors ---------------------------------------------------------------------------------

BAD_PROFILE = """\
name = "bad"
multiple_orders_same_units = "first"
typo_tolerance = "loose"
confirm_each_set = "yes"
min_hours_movement = -5
press_kinds = ["white", "purple"]
vote.draw.uncast = "maybe"
reminders = [{ hours_before = 24 }]
"""


def test_bad_file_reports_every_problem_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BAD_PROFILE, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    problems = {p.key: p for p in caught.value.problems}
    assert set(problems) == {"multiple_orders_same_units", "typo_tolerance", "confirm_each_set",
                             "min_hours_movement", "press_kinds", "vote.draw.uncast", "reminders"}
    assert all(p.source == str(path) for p in caught.value.problems)
    message = str(caught.value)
    assert message.startswith("7 problems in ruleset:")
    for key in problems:  # one line per problem, naming the file and the key
        assert f"{path}: {key}: " in message
    assert "did you mean 'multiple_orders_same_unit'?" in problems["multiple_orders_same_units"].message
    assert "allowed: none, unambiguous_only, generous" in problems["typo_tolerance"].message
    assert "expected a boolean" in problems["confirm_each_set"].message
    assert "'purple'" in problems["press_kinds"].message
    assert "allowed: yes, no, excluded" in problems["vote.draw.uncast"].message
    assert "missing field(s) audience" in problems["reminders"].message


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "broken"\ntypo_tolerance = "generous"\nconfirm_each_set = \n', encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    (problem,) = caught.value.problems
    assert problem.source == str(path)
    assert "TOML syntax error" in problem.message and "line 3" in problem.message


def test_unknown_profile_name_suggests_one() -> None:
    with pytest.raises(RulesetError, match="did you mean 'mhr'"):
        load_ruleset("mrh")


# --- custom files: defaults and extends -----------------------------------------------------


def test_custom_file_gets_defaults_for_omitted_keys(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('title = "Mine"\ntypo_tolerance = "generous"\n', encoding="utf-8")
    ruleset = load_ruleset(path)
    assert (ruleset.name, ruleset.title, ruleset.typo_tolerance) == ("mine", "Mine", "generous")
    expected = dataclasses.replace(default_ruleset(), name="mine", title="Mine", typo_tolerance="generous")
    assert ruleset == expected


def test_extends_starts_from_another_profile(tmp_path: Path) -> None:
    path = tmp_path / "mhr_lenient.toml"
    path.write_text('extends = "mhr"\nunit_type_wrong = "ignore"\nvote.draw.uncast = "yes"\n', encoding="utf-8")
    ruleset = load_ruleset(path)
    mhr = load_ruleset("mhr")
    assert ruleset.unit_type_wrong == "ignore" and ruleset.vote.draw.uncast == "yes"
    assert ruleset.name == "mhr_lenient"
    assert dataclasses.replace(ruleset, name="mhr", title=mhr.title, unit_type_wrong=mhr.unit_type_wrong,
                               vote=mhr.vote, citations=mhr.citations) == mhr
    # 000 IV(1) still decides the options the variant keeps, not the one it changes
    assert (ruleset.cites("unit_type_omitted"), ruleset.cites("unit_type_wrong")) == ("000 IV(1)", None)


def test_extends_a_file_beside_it_and_chains(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text('extends = "scorpion"\nsolo_centres = 17\n', encoding="utf-8")
    (tmp_path / "top.toml").write_text('extends = "base.toml"\ncd_powers_vote = true\n', encoding="utf-8")
    ruleset = load_ruleset(tmp_path / "top.toml")
    assert (ruleset.solo_centres, ruleset.cd_powers_vote, ruleset.season_structure) == (17, True, "uk_two_season")


def test_extends_cycle_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text('extends = "a.toml"\n', encoding="utf-8")
    with pytest.raises(RulesetError, match="circular"):
        load_ruleset(tmp_path / "a.toml")


def test_problems_of_the_base_are_reported_with_ours(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text('solo_centres = "eighteen"\n', encoding="utf-8")
    (tmp_path / "top.toml").write_text('extends = "base.toml"\ncd_mode = "forever"\n', encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "top.toml")
    keys = {(Path(p.source).name, p.key) for p in caught.value.problems}
    assert {("base.toml", "solo_centres"), ("top.toml", "cd_mode"), ("top.toml", "extends")} <= keys


# --- snapshots, overrides, immutability -----------------------------------------------------


@pytest.mark.parametrize("name", PROFILES)
def test_snapshot_round_trip(name: str) -> None:
    ruleset = load_ruleset(name)
    stored = json.loads(json.dumps(ruleset.snapshot()))  # as a game row would keep it
    assert Ruleset.from_snapshot(stored) == ruleset


def test_rulesets_compare_hash_and_print_by_every_field() -> None:
    """Ruleset's eq, hash and repr are written by hand (cheaper to import than generated ones for
    158 fields): two rulesets that differ in any one field differ, equal ones hash alike, and the
    repr is the one dataclass would write."""
    ruleset = load_ruleset("mhr")
    other = load_ruleset("standard")
    names = [f.name for f in dataclasses.fields(Ruleset)]
    assert ruleset == load_ruleset("mhr") and hash(ruleset) == hash(load_ruleset("mhr"))
    differing = [name for name in names if getattr(ruleset, name) != getattr(other, name)]
    assert len(differing) > 20
    for name in differing:
        changed = dataclasses.replace(ruleset, **{name: getattr(other, name)})
        assert changed != ruleset, name
    assert ruleset != "mhr" and (ruleset == object()) is False
    shown = ", ".join(f"{name}={getattr(ruleset, name)!r}" for name in names)
    assert repr(ruleset) == f"Ruleset({shown})"


def test_snapshot_is_independent_of_later_file_edits(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "danivon"\n', encoding="utf-8")
    snapshot = load_ruleset(path).snapshot()
    path.write_text('extends = "danivon"\nstalemate_years = 9\n', encoding="utf-8")
    assert Ruleset.from_snapshot(snapshot).stalemate_years == 2


def test_old_snapshot_missing_an_option_takes_its_default() -> None:
    snapshot = load_ruleset("gwm").snapshot()
    del snapshot["solo_check_after_spring"]
    assert Ruleset.from_snapshot(snapshot) == load_ruleset("gwm")


def test_snapshot_with_unknown_key_is_rejected() -> None:
    snapshot = load_ruleset("gwm").snapshot() | {"solo_centers": 18}
    with pytest.raises(RulesetError, match="<snapshot>: solo_centers: unknown option; did you mean 'solo_centres'"):
        Ruleset.from_snapshot(snapshot)


def test_overrides_are_applied_and_validated() -> None:
    mhr = load_ruleset("mhr")
    changed = mhr.with_overrides({"press_kinds": ["white"], "stalemate_years": "none",
                                  "vote": {"draw": {"uncast": "yes"}}})
    assert changed.press_kinds == frozenset({"white"})
    assert changed.stalemate_years is None
    assert changed.vote.draw.uncast == "yes" and changed.vote.draw.abstention == "excluded"
    assert changed.name == "mhr" and mhr.stalemate_years == 4  # the original is untouched
    with pytest.raises(RulesetError) as caught:
        mhr.with_overrides({"stalemate_years": 0, "nmr_limit_to_cd": "gm_after_x", "name": "other"})
    assert {p.key for p in caught.value.problems} == {"stalemate_years", "nmr_limit_to_cd", "name"}
    assert all(p.source == "<override>" for p in caught.value.problems)


def test_overrides_accept_python_values() -> None:
    changed = default_ruleset().with_overrides({
        "forbidden_abbreviations": ("Nor",), "turn_length_vote": [14, 7], "cd_search_years": None,
        "reminders": [Reminder("all_powers", 48)],
    })
    assert changed.forbidden_abbreviations == ("Nor",)
    assert changed.turn_length_vote == (7, 14)
    assert changed.reminders == (Reminder("all_powers", 48),)


def test_ruleset_is_immutable_and_hashable() -> None:
    ruleset = load_ruleset("scorpion")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.typo_tolerance = "generous"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.vote.draw.uncast = "yes"  # type: ignore[misc]
    assert isinstance(ruleset.press_kinds, frozenset) and isinstance(ruleset.reminders, tuple)
    assert len({ruleset, load_ruleset("scorpion")}) == 1


def test_move_to_own_province_is_derived() -> None:
    changed = default_ruleset().with_overrides({"impossible_move_treatment": "failed_move_unsupportable"})
    assert changed.move_to_own_province == "failed_move_unsupportable"
    with pytest.raises(RulesetError, match="move_to_own_province: unknown option"):
        default_ruleset().with_overrides({"move_to_own_province": "hold_supportable"})


# --- the clause each profile cites: data in its TOML (clause.KEY) ---------------------------


def test_a_custom_profile_cites_the_clause_its_file_gives(tmp_path: Path) -> None:
    """A profile's clause is data: a GM's own file that takes 000 VII(5) for delays cites it,
    and its variant of mhr keeps the clauses of 000 for the values it keeps."""
    path = tmp_path / "house.toml"
    path.write_text('delay_policy = "auto_grant_gm_may_refuse"\nclause.delay_policy = "000 VII(5)"\n',
                    encoding="utf-8")
    assert delays.clause(load_ruleset(path)) == "house rules 000 VII(5)"
    (tmp_path / "variant.toml").write_text('extends = "mhr"\ndelay_policy = "gm_decides"\n', encoding="utf-8")
    variant = load_ruleset(tmp_path / "variant.toml")
    assert variant.cites("proxy_policy") == "000 II(3)"
    assert delays.clause(variant) == "this game's rules, where its house rules are silent"


def test_a_misspelt_clause_key_or_a_clause_without_its_document_fails_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('clause.delay_polcy = "000 VII(5)"\nclause.proxy_policy = "II(3)"\n'
                    'clause.subject_location = 3\ntypo_tolerance = "lenient"\n'
                    'clause.sender_policy = "000 X(6)\\nBcc: all"\n', encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    problems = {p.key: p.message for p in caught.value.problems}
    assert set(problems) == {"clause.delay_polcy", "clause.proxy_policy", "clause.subject_location", "typo_tolerance",
                             "clause.sender_policy"}  # one line: a clause goes into players' mails
    assert "did you mean 'delay_policy'?" in problems["clause.delay_polcy"]
    assert "its number first" in problems["clause.proxy_policy"] and "'II(3)'" in problems["clause.proxy_policy"]
    assert all(p.source == str(path) for p in caught.value.problems)


def test_000_I_1_a_gm_override_of_a_value_cites_the_documents_clause_no_more() -> None:
    """000 VII(6) ¶2 says two missed turns; a game whose GM chose three is not told the clause."""
    mhr = load_ruleset("mhr")
    assert briefing.cited_clause(mhr, "nmr_limit_to_cd") == " (000 VII(6) ¶2)"
    changed = mhr.with_overrides({"nmr_limit_to_cd": 3})
    assert briefing.cited_clause(changed, "nmr_limit_to_cd") == ""
    assert briefing.cited_clause(dataclasses.replace(mhr, nmr_limit_to_cd=3), "nmr_limit_to_cd") == ""
    assert Ruleset.from_snapshot(json.loads(json.dumps(changed.snapshot()))) == changed
    with pytest.raises(RulesetError, match="<override>: clause: cannot be overridden"):
        mhr.with_overrides({"clause": {"nmr_limit_to_cd": "000 VII(6)"}})


def test_a_snapshot_stored_without_clauses_takes_its_profiles() -> None:
    """Games started before profiles stated their clauses keep citing them (000 II(3))."""
    mhr = load_ruleset("mhr")
    old = mhr.snapshot()
    del old["clause"]
    assert Ruleset.from_snapshot(old) == mhr
    old["proxy_policy"] = "forbidden"  # overridden by the GM then: 000 II(3) no longer decides it
    assert Ruleset.from_snapshot(old).cites("proxy_policy") is None


# --- fields typed from the catalogue --------------------------------------------------------


def test_each_closed_option_is_typed_by_the_literal_its_catalogue_row_reads() -> None:
    """A field whose option has a closed set of values is a Literal of exactly those values, in
    the catalogue's order; no such field is left a plain str."""
    hints = typing.get_type_hints(Ruleset)
    vote_hints = typing.get_type_hints(VoteKindRules)
    for name, spec in OPTIONS.items():
        if not isinstance(spec.kind, Choice):
            continue
        hint = vote_hints[name.rsplit(".", 1)[1]] if name.startswith("vote.") else hints[name]
        assert typing.get_origin(hint) is typing.Literal, name
        assert typing.get_args(hint) == spec.kind.values, name
    plain = {f.name for f in dataclasses.fields(Ruleset) if hints[f.name] is str}
    assert plain == {"name", "title"}


def test_a_misspelt_key_and_a_misspelt_value_each_fail_naming_the_file_key_and_allowed_values(
        tmp_path: Path) -> None:
    path = tmp_path / "typos.toml"
    path.write_text('subject_locaton = "subject_only"\nsubject_location = "subject_onyl"\n', encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}: subject_locaton: unknown option; did you mean 'subject_location'?",
        f"{path}: subject_location: 'subject_onyl' is not allowed; allowed: subject_only, subject_or_body; "
        "did you mean 'subject_only'?",
    ]
