from gmserver.rules.turn import void_hold_supports


def test_hold_supports_of_unsupportable_units_become_holds_000_III_5() -> None:
    """000 III(5) ¶1 failed_move_unsupportable: hold support for the unit is void."""
    orders = {"FRANCE": ["A PAR H", "F BRE S A PAR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN S A PAR"]}
    result, voided = void_hold_supports(orders, ["A PAR"])
    assert result == {"FRANCE": ["A PAR H", "F BRE H", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN H"]}
    assert sorted(voided) == ["A MUN S A PAR", "F BRE S A PAR"]


def test_nothing_voided_without_unsupportable_units() -> None:
    orders = {"FRANCE": ["F BRE S A PAR"]}
    assert void_hold_supports(orders, []) == (orders, [])


def test_coasts_do_not_hide_the_supported_unit() -> None:
    result, voided = void_hold_supports({"RUSSIA": ["A FIN S F STP/SC"]}, ["F STP/SC"])
    assert result == {"RUSSIA": ["A FIN H"]} and voided == ["A FIN S F STP/SC"]
