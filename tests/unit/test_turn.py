import pytest

from gmserver.rules.order import Order, Unit
from gmserver.rules.turn import void_hold_supports, void_mismatched_coast_supports


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


# DATC 6.B.9: France's F POR supports F MAO to the north coast, F MAO moves to the south coast.
SPAIN = {"FRANCE": ["F POR S F MAO - SPA/NC", "F MAO - SPA/SC"], "ITALY": ["F LYO S F WES - SPA/SC", "F WES - SPA/SC"]}


def test_a_support_to_the_other_coast_is_void_under_coast_support_mismatch_invalid_DATC_4_B_4() -> None:
    """coast_support_mismatch = invalid (DATC 4.B.4, 003 [10 c]): DATC 6.B.9, the French support
    names the north coast, the fleet moves to the south coast: void, F POR holds."""
    result, voided = void_mismatched_coast_supports(_orders(SPAIN), "invalid")
    assert _notation(result) == {"FRANCE": ["F POR H", "F MAO - SPA/SC"], "ITALY": SPAIN["ITALY"]}
    assert [str(o) for o in voided] == ["F POR S F MAO - SPA/NC"]


@pytest.mark.parametrize("treatment", ["accept_if_unique", "ignore"])
def test_a_support_to_the_other_coast_stands_under_000_IV_7_and_001_III_9(treatment: str) -> None:
    """000 IV(7), 001 III(9) (accept_if_unique) and `ignore`: the supported fleet's own coast counts,
    the engine is given the support as written."""
    assert void_mismatched_coast_supports(_orders(SPAIN), treatment) == (_orders(SPAIN), [])


def test_matching_coasts_and_supports_without_a_coast_stand_DATC_4_B_4() -> None:
    orders = {"FRANCE": ["F POR S F MAO - SPA/SC", "F MAO - SPA/SC", "A GAS S A MAR - SPA"], "ITALY": ["A MAR - SPA"],
              "RUSSIA": ["F BOT S F FIN - STP/SC", "F FIN H"]}
    assert void_mismatched_coast_supports(_orders(orders), "invalid") == (_orders(orders), [])
