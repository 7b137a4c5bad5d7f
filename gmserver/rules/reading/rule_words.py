"""The rule behind a reading, as a player reads it: never an option key, never a bare number.

The reader names the clause of the game's profile that decided a line ("000 IV(1)"), a source
("RB2000"; "DATC 4.D.3", said "the 2000 rulebook as the DATC reads it, 4.D.3"), or, where the
profile is silent or the GM changed the value, the option itself
("conditional_movement_orders = void_line"). Players never see option keys: a key becomes the
rule in words, a clause number says whose rules it is.
"""

from __future__ import annotations

import re

# option = value -> the rule in words, for the values the profiles leave to the catalogue default
_WORDS: dict[str, str] = {
    "abbreviation_table = standard": "province names are read with the standard abbreviations",
    "conditional_adjustment_orders = objective_only":
        "a condition on a build or removal is used only when it tests what happened on the board",
    "conditional_adjustment_orders = none": "builds and removals may not carry a condition",
    "conditional_movement_orders = void_line": "a movement order with a condition is void",
    "conditional_movement_orders = strip_condition": "the condition is dropped and the order used",
    "contingent_minor_orders = accepted":
        "retreat and adjustment orders sent with moves are kept for the turn that follows",
    "contingent_minor_orders = rejected": "retreat and adjustment orders are read only in their own turn",
    "default_set_status = final": "a set is final unless it is marked preliminary",
    "default_set_status = preliminary": "a set is preliminary unless it is marked final",
    "invalid_set_feedback = conditional_mhr": ("the GM asks about lines that cannot be used only when the GM "
                                               "finds such sets unusual from you, time remains and you have not said "
                                               "the orders are meant as written"),
    "invalid_set_feedback = receipt_only": "each set is confirmed on receipt only",
    "hold_plus_support = by_multiple_order_rule":
        "a hold and a support for one unit follow the rule for several orders to one unit",
    "multiple_retreat_orders = first": "of several retreat orders for one unit the first is used",
    "nonsense_order_treatment = hold": "a unit given words that are not an order holds",
    "nonsense_order_treatment = ignore_line": "a line that is not an order is ignored",
    "orders_for_missing_units = void_and_report": "an order for a unit you do not have is void",
    "parenthetical_order = use": "an order written in parentheses is used",
    "partial_names = accept": "a shortened name that fits one province only is read as that province",
    "typo_tolerance = unambiguous_only": "a misspelt name that fits one province only is read as that province",
    "unit_location_matching = map_only": "a unit is found by the province written",
    "set_ordering = receipt_time": "sets are taken in the order they were received",
    "set_combination = replace": "a new set replaces the one before",
    "set_combination = merge_per_unit": "a new set is merged with the one before, unit by unit",
}
_KEY = re.compile(r"^([a-z][a-z0-9_]*) = (.*)$")
_NUMBERED = re.compile(r"^00[0-9] ")
_DATC = re.compile(r"^DATC ([0-9].*)$")
# The DATC (Diplomacy Adjudicator Test Cases) reads the 2000 rulebook where it is unclear
# (section 4, its issues) and tests it case by case (section 6): players are told whose rule
# it is in words, the DATC numbers after them (the QA walkthrough stumbled on a bare "(DATC 4.D.1)").
DATC_WORDS = "the 2000 rulebook as the DATC reads it"


def rule_in_words(rule: str) -> str:
    """One cited rule for a player: "house rules 000 IV(1)", "the 2000 rulebook", "the 2000
    rulebook as the DATC reads it, 4.D.3", or an option key said in words."""
    rule = rule.strip()
    key = _KEY.match(rule)
    if key:
        words = _WORDS.get(rule)
        if words is None:  # a value no table entry says: its name and value, in words
            value = key.group(2).replace("_", " ").strip("()") or "none"
            words = f"this game's rule on {key.group(1).replace('_', ' ')}: {value}"
        return f"{words}, a rule of this game"
    if rule == "RB2000":
        return "the 2000 rulebook"
    if _NUMBERED.match(rule):
        return f"house rules {rule}"
    datc = _DATC.match(rule)
    if datc:
        return f"{DATC_WORDS}, {datc.group(1)}"
    return rule


def rules_in_words(rules: str | None) -> str | None:
    """The reader's "; "-joined rules, each in words, once each; the DATC's numbers said together
    ("the 2000 rulebook as the DATC reads it, 4.B.1 and 4.E.1")."""
    if not rules:
        return None
    cited = [r.strip() for r in rules.split(";") if r.strip()]
    numbers = list(dict.fromkeys(m.group(1) for r in cited if (m := _DATC.match(r))))
    together = "DATC " + _and(numbers) if numbers else ""
    # every DATC number at the place of the first one cited
    said = [together if _DATC.match(r) else r for r in cited]
    return "; ".join(dict.fromkeys(rule_in_words(r) for r in said)) or None


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
