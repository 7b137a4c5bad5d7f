from gmserver.rules.order import Order, Unit
from gmserver.rules.turn import void_hold_supports


def _orders(by_power: dict[str, list[str]]) -> dict[str, list[Order]]:
    return {power: [Order.parse(o) for o in orders] for power, orders in by_power.items()}


def _notation(by_power: dict[str, list[Order]]) -> dict[str, list[str]]:
    return {power: [str(o) for o in orders] for power, orders in by_power.items()}


def test_hold_supports_of_unsupportable_units_become_holds_000_III_5() -> None:
    """000 III(5) ¶1 failed_move_unsupportable: hold support for the unit is void."""
    orders = _orders({"FRANCE": ["A PAR H", "F BRE S A PAR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN S A PAR"]})
    result, voided = void_hold_supports(orders, [Unit.parse("A PAR")])
    assert _notation(result) == {"FRANCE": ["A PAR H", "F BRE H", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN H"]}
    assert sorted(str(o) for o in voided) == ["A MUN S A PAR", "F BRE S A PAR"]


def test_nothing_voided_without_unsupportable_units() -> None:
    orders = _orders({"FRANCE": ["F BRE S A PAR"]})
    assert void_hold_supports(orders, []) == (orders, [])


def test_coasts_do_not_hide_the_supported_unit() -> None:
    result, voided = void_hold_supports(_orders({"RUSSIA": ["A FIN S F STP/SC"]}), [Unit.parse("F STP/SC")])
    assert _notation(result) == {"RUSSIA": ["A FIN H"]} and [str(o) for o in voided] == ["A FIN S F STP/SC"]
