"""Turning the order sets on file into the orders the engine gets: pure functions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gmserver.rules.order import Order, Unit
from gmserver.rules.reading.options import clause
from gmserver.rules.reading.rule_words import rules_in_words
from gmserver.rules.ruleset import Ruleset


def void_hold_supports(orders: Mapping[str, Sequence[Order]], unsupportable: Iterable[Unit]
                       ) -> tuple[dict[str, list[Order]], list[Order]]:
    """`impossible_move_treatment = failed_move_unsupportable` (000 III(5) ¶1, 003 [10 b]) and
    003 [10 a]: hold supports given to these units are void. The engine cannot express a
    unit that stands but may not be supported, so the supporting units hold instead; the voided
    supports are returned for the report."""
    provinces = {unit.province for unit in unsupportable}
    if not provinces:
        return {power: list(power_orders) for power, power_orders in orders.items()}, []
    result: dict[str, list[Order]] = {}
    voided: list[Order] = []
    for power, power_orders in orders.items():
        result[power] = []
        for order in power_orders:
            if order.action == "support_hold" and order.other and order.other.province in provinces:
                voided.append(order)
                result[power].append(Order("hold", order.unit))
            else:
                result[power].append(order)
    return result, voided


def unsupportable_note(ruleset: Ruleset) -> str:
    """Why a hold support `void_hold_supports` voided is void, for the report: the bare "void"
    told the player nothing, and the supported unit's line shows only that it held."""
    return ("the supported unit was ordered to make a move it could not make: it stands, but may not "
            f"be supported to hold ({rules_in_words(clause(ruleset, 'impossible_move_treatment'))})")


def void_mismatched_coast_supports(orders: Mapping[str, Sequence[Order]], treatment: str
                                   ) -> tuple[dict[str, list[Order]], list[Order]]:
    """coast_support_mismatch = invalid (DATC 4.B.4, 003 [10 c]): a support naming another coast
    than the one the supported fleet moves to is void (DATC 6.B.9). Only the whole set of orders
    shows it (the fleet is often another power's), so it is decided here, before the engine,
    which would rewrite the support's coast from the fleet's own order and count it. The
    supporting unit holds instead; the voided supports are returned for the report. Under the
    other treatments (000 IV(7), 001 III(9): the fleet's coast is what counts) the orders pass
    unchanged."""
    result = {power: list(power_orders) for power, power_orders in orders.items()}
    if treatment != "invalid":
        return result, []
    # the coast each fleet moves to, where its move names one
    moves = {order.unit: order for power_orders in orders.values() for order in power_orders
             if order.action == "move" and order.unit is not None and order.unit.is_fleet}
    voided: list[Order] = []
    for power_orders in result.values():
        for index, order in enumerate(power_orders):
            if order.action != "support_move" or order.other is None or order.target == order.target_province:
                continue  # not a support of a move to a coast
            move = moves.get(order.other)
            if (move is not None and move.target != move.target_province
                    and move.target_province == order.target_province and move.target != order.target):
                voided.append(order)
                power_orders[index] = Order("hold", order.unit)
    return result, voided
