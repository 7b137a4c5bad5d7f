"""Turning the order sets on file into the orders the engine gets: pure functions."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from gmserver.rules.order import Order, Unit


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
