"""Turning the order sets on file into the orders the engine gets: pure functions."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from gmserver.rules.order import Order
from gmserver.rules.position import unit_province


def void_hold_supports(orders: Mapping[str, Sequence[str]], unsupportable: Iterable[str]
                       ) -> tuple[dict[str, list[str]], list[str]]:
    """`impossible_move_treatment = failed_move_unsupportable` (000 III(5) ¶1, 003 [10 b]) and
    003 [10 a]: hold supports given to these units are void. The engine cannot express a
    unit that stands but may not be supported, so the supporting units hold instead; the voided
    supports are returned for the report."""
    provinces = {unit_province(unit) for unit in unsupportable}
    if not provinces:
        return {power: list(power_orders) for power, power_orders in orders.items()}, []
    result: dict[str, list[str]] = {}
    voided: list[str] = []
    for power, power_orders in orders.items():
        result[power] = []
        for order in power_orders:
            parsed = Order.parse_or_none(order)
            if parsed and parsed.action == "support_hold" and parsed.other and parsed.other.province in provinces:
                voided.append(order)
                result[power].append(str(Order("hold", parsed.unit)))
            else:
                result[power].append(order)
    return result, voided


def void_mismatched_coast_supports(orders: Mapping[str, Sequence[str]], treatment: str
                                   ) -> tuple[dict[str, list[str]], list[str]]:
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
    moves = {}
    for power_orders in orders.values():
        for order in power_orders:
            parsed = Order.parse_or_none(order)
            if parsed and parsed.action == "move" and parsed.unit and parsed.unit.is_fleet:
                moves[str(parsed.unit)] = parsed.target
    voided: list[str] = []
    for power, power_orders in result.items():
        for index, order in enumerate(power_orders):
            parsed = Order.parse_or_none(order)
            if not parsed or parsed.action != "support_move" or not parsed.other or "/" not in (parsed.target or ""):
                continue
            moving_to = moves.get(str(parsed.other)) or ""
            if "/" in moving_to and moving_to.split("/")[0] == parsed.target_province and moving_to != parsed.target:
                voided.append(order)
                power_orders[index] = str(Order("hold", parsed.unit))
    return result, voided
