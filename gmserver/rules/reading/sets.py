"""Order sets and versions, as pure functions: merge per unit (000 III(4)), replace (001 II(7) ¶2,
003 [10]), replace unless marked a change (002 ORDERS 2), and version markers (000 II(2),
001 II(7) ¶1, 002 ORDERS 2).

A player's turn is a list of stored sets (`StoredSet`: the orders read from one message, its
receipt sequence, its version marker, its change marker and its Preliminary/Final status).
`effective_orders(sets, ruleset)` gives the orders to adjudicate; `file_set(on_file, new, ruleset)`
gives the same orders once a new set arrives, with what the reply says about how it was filed (the
reader and the intake both use it, so the reply never names one set and lists another).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from gmserver.rules.order import Order, Unit
from gmserver.rules.reading.options import clause, option
from gmserver.rules.reading.rule_words import rules_in_words
from gmserver.rules.ruleset import Ruleset

_VERSION = re.compile(
    r"(?:\[\s*(?P<a>\d+(?:\.\d+)*)\s*\]|\(\s*(?P<b>\d+(?:\.\d+)*)\s*\)|#\s*(?P<c>\d+(?:\.\d+)*)"
    r"|\bv(?:er(?:sion)?)?\.?\s*(?P<d>\d+(?:\.\d+)*)\b)",
    re.IGNORECASE,
)
_CHANGE = re.compile(r"\b(?:changes?|amendments?|amended|add(?:ition)?s? to\s*#?\d*|in addition to)\b",
                     re.IGNORECASE)
_FINAL = re.compile(r"\bfinal\b", re.IGNORECASE)
_PRELIMINARY = re.compile(r"\b(?:preliminary|provisional|prelim)\b", re.IGNORECASE)


def version_marker(text: str) -> str | None:
    """Version markers (000 II(2), 001 II(7) ¶1, 002 ORDERS 2): "[2]", "(2)", "#2", "v2", "v2.1",
    "version 2" -> "2", "2.1"; None if absent."""
    for match in _VERSION.finditer(text or ""):
        value = next(v for v in match.groupdict().values() if v)
        # a bare "(1901)" or "#1901" is a year, not a version
        if len(value.split(".")[0]) <= 3:
            return value
    return None


def version_key(marker: str | None) -> tuple[int, ...]:
    """Markers compare component by component (2.1 after 2.0 after 1.9)."""
    if not marker:
        return ()
    return tuple(int(part) for part in marker.split(".") if part.isdigit())


def is_change_marker(text: str) -> bool:
    """Change markers (002 ORDERS 2; the words are gmserver's reading [P]): "change", "changes",
    "amendment", "add to #n", "in addition to"."""
    return bool(_CHANGE.search(text or ""))


def set_status_marker(text: str) -> str | None:
    """"final" or "preliminary" when the text says so (both words understood in every profile)."""
    if _PRELIMINARY.search(text or ""):
        return "preliminary"
    if _FINAL.search(text or ""):
        return "final"
    return None


@dataclass(frozen=True)
class StoredSet:
    orders: tuple[Order, ...]  # the orders of that message
    received: int  # receipt sequence (or a timestamp): larger is later
    version: str | None = None
    is_change: bool = False
    status: str | None = None  # "final" / "preliminary" as marked; None: the profile default
    unsupportable: tuple[Unit, ...] = ()  # units this set left unable to receive hold support
    contingent: tuple[str, ...] = ()  # its retreat and adjustment lines for the next minor turn (Reading.contingent)
    by_proxy: bool = False  # sent by the power's proxy holder (rules/proxies.py)


def merge_per_unit(base: Sequence[Order], newer: Sequence[Order]) -> tuple[Order, ...]:
    """000 III(4): each unit takes its order from the newer set if it has one there. Adjustment lines
    are not merged by unit: a newer set with any adjustment line replaces them all [P]. A unit
    ordered in the newer set loses its order on file whatever either order is, so that a retreat
    and a disband of one dislodged unit (a `D` counts as an adjustment line) never stand together."""
    if any(o.is_adjustment() for o in newer):
        base = [o for o in base if not o.is_adjustment()]
    newer_units = {o.unit for o in newer if o.unit is not None}
    kept = [o for o in base if o.unit is None or o.unit not in newer_units]
    return tuple(sorted(kept + list(newer), key=_canonical_key))


def _canonical_key(order: Order) -> tuple[bool, str]:
    return (order.action == "waive", order.province or "")


def ordered_sets(sets: Sequence[StoredSet], ruleset: Ruleset) -> list[StoredSet]:
    """set_ordering (000 III(4) receipt, 001 II(7) ¶1 numbers first): the sets in the order they
    take effect, earliest first."""
    by_receipt = sorted(sets, key=lambda s: s.received)
    if option(ruleset, "set_ordering") != "version_then_receipt":
        return by_receipt
    # when both sets carry markers the higher is later; otherwise receipt time decides. Insert
    # each set after every earlier-received set it does not precede by version.
    result: list[StoredSet] = []
    for stored in by_receipt:
        position = len(result)
        if stored.version:
            while position > 0 and result[position - 1].version and \
                    version_key(result[position - 1].version) > version_key(stored.version):
                position -= 1
        result.insert(position, stored)
    return result


def _merged(newer: StoredSet, ruleset: Ruleset) -> bool:
    """Whether `newer` is merged unit by unit with the set on file rather than replacing it."""
    combination = option(ruleset, "set_combination")
    return combination == "merge_per_unit" or (combination == "replace_unless_marked_change" and newer.is_change)


def combined_orders(base: Sequence[Order], newer: StoredSet, ruleset: Ruleset) -> tuple[Order, ...]:
    """The effective orders after `newer` takes effect on top of `base` (`combine_sets` without
    the reply's words, which the deadline never reads)."""
    if _merged(newer, ruleset):
        return merge_per_unit(base, newer.orders)
    return tuple(sorted(newer.orders, key=_canonical_key))


def combine_sets(base: Sequence[Order], newer: StoredSet, ruleset: Ruleset) -> tuple[tuple[Order, ...], str]:
    """The effective orders after `newer` takes effect on top of `base`, and how (for the reply)."""
    orders = combined_orders(base, newer, ruleset)
    rule = rules_in_words(clause(ruleset, "set_combination"))
    if not _merged(newer, ruleset):
        return orders, f"replaces the set on file ({rule})"
    replaced = tuple(sorted(newer.orders, key=_canonical_key))
    if not base or sorted(map(str, orders)) == sorted(map(str, replaced)):
        # nothing of the set on file survived, so say it was replaced, not merged
        return orders, f"orders every unit the set on file ordered, so it replaces it ({rule})"
    if option(ruleset, "set_combination") == "merge_per_unit":
        return orders, f"was merged unit by unit with the set on file ({rule})"
    return orders, f"is marked as a change: merged with the set on file ({rule})"


@dataclass(frozen=True)
class Filing:
    """A new set filed on top of the sets on file: the orders they now add up to, and what the
    reply says about it (empty when it is the power's first set)."""

    orders: tuple[Order, ...]
    notes: tuple[str, ...]


def file_set(on_file: Sequence[StoredSet], new: StoredSet, ruleset: Ruleset) -> Filing:
    """One arriving set (000 III(4), 001 II(7), 002 ORDERS 2): `new` is received after every set in `on_file`. Under
    `version_then_receipt` (001 II(7) ¶1, 002 ORDERS 2) a lower marker makes it count as an
    earlier set, so it may change nothing; under either ordering a marker not above one already
    received is reported."""
    if not on_file:
        return Filing(tuple(new.orders), ())
    new = dataclasses.replace(new, received=max(s.received for s in on_file) + 1)
    sets = [*on_file, new]
    orders = effective_orders(sets, ruleset)
    ordered = ordered_sets(sets, ruleset)
    if ordered[-1] is new:
        _, how = combine_sets(effective_orders(on_file, ruleset), new, ruleset)
        notes = [f"This set {how}."]
    else:
        later = ordered[-1]
        notes = [f"This set is numbered {new.version}, below the set numbered {later.version} you sent "
                 f"earlier. Under this game's rules ({rules_in_words(clause(ruleset, 'set_ordering'))}) the numbers decide "
                 f"which set counts as later, so the set numbered {later.version} still takes effect after "
                 "this one; the orders on file below are what your sets add up to."]
    if new in out_of_order_versions(sets) and ordered[-1] is new:
        highest = max((s for s in on_file if s.version), key=lambda s: version_key(s.version))
        notes.append(f"This set is numbered {new.version}, but you already sent a set numbered "
                     f"{highest.version}; under this game's rules ({rules_in_words(clause(ruleset, 'set_ordering'))}) the set "
                     "received last counts, so this one does.")
    return Filing(orders, tuple(notes))


def effective_orders(sets: Sequence[StoredSet], ruleset: Ruleset) -> tuple[Order, ...]:
    """The orders to adjudicate from every set a player sent this turn (000 III(4), 001 II(7), 002 ORDERS 2)."""
    orders: tuple[Order, ...] = ()
    for stored in ordered_sets(sets, ruleset):
        orders = combined_orders(orders, stored, ruleset)
    return orders


def effective_unsupportable(sets: Sequence[StoredSet], ruleset: Ruleset) -> tuple[Unit, ...]:
    """Units that may not be supported to hold (000 III(5), 003 [10 a, b]): those whose order in
    effect comes from a set that marked them unsupportable."""
    if not any(stored.unsupportable for stored in sets):
        return ()  # nearly every power at a deadline: no unit could come out of the walk below
    source: dict[Unit, StoredSet] = {}
    for stored in ordered_sets(sets, ruleset):
        units = {o.unit for o in stored.orders if not o.is_adjustment() and o.unit is not None}
        combination = option(ruleset, "set_combination")
        merged = combination == "merge_per_unit" or (combination == "replace_unless_marked_change"
                                                    and stored.is_change)
        if not merged:
            source = {}
        source.update({unit: stored for unit in units})
    return tuple(sorted((unit for unit, stored in source.items() if unit in stored.unsupportable), key=str))


def effective_contingent(sets: Sequence[StoredSet], ruleset: Ruleset) -> tuple[str, ...]:
    """contingent_minor_orders (000 II(5), 001 II(6)): the contingent lines that stand after
    every movement set a power sent. They are not merged line by line: as merge_per_unit does for adjustment
    lines [P], a set that replaces the one on file replaces its contingent lines too (none if it
    has none), and a set merged into it (merge_per_unit, a marked change) replaces them only if it
    has contingent lines of its own."""
    combination = option(ruleset, "set_combination")
    lines: tuple[str, ...] = ()
    for stored in ordered_sets(sets, ruleset):
        merged = combination == "merge_per_unit" or (combination == "replace_unless_marked_change"
                                                    and stored.is_change)
        if stored.contingent or not merged:
            lines = stored.contingent
    return lines


def out_of_order_versions(sets: Sequence[StoredSet]) -> list[StoredSet]:
    """Sets whose version marker is lower than or equal to that of a set received before them
    (reported to the player and the GM under either ordering)."""
    flagged = []
    highest: tuple[int, ...] | None = None
    for stored in sorted(sets, key=lambda s: s.received):
        if not stored.version:
            continue
        key = version_key(stored.version)
        if highest is not None and key <= highest:
            flagged.append(stored)
        highest = key if highest is None else max(highest, key)
    return flagged


def set_status(stored: StoredSet, ruleset: Ruleset) -> str:
    """2.4 default_set_status unless the set is marked."""
    return stored.status or option(ruleset, "default_set_status")
