"""The order value (gmserver.rules.order): engine notation in, the same notation out."""

from __future__ import annotations

import cProfile
import dataclasses
import json
import pstats
from functools import lru_cache
from pathlib import Path

import pytest

from gmserver import engine
from gmserver.rules.order import Order, Unit, order_unit
from gmserver.rules.position import Position
from tests.support.adjudicate import adjudicate

DATC_JSON = Path(__file__).parents[1] / "data" / "datc" / "datc.json"


@lru_cache(maxsize=1)
def _datc_legal_orders() -> tuple[tuple[str, str], ...]:
    """(phase type, order) for every order the engine lists in every DATC position."""
    found: set[tuple[str, str]] = set()
    for case in json.loads(DATC_JSON.read_text(encoding="utf-8")):
        if "prior_movement" in case:
            prior = case["prior_movement"]
            start = Position.from_json({"phase": prior["phase"], "units": prior["units"]})
            state = adjudicate(engine.state_from_position(start), prior["orders"]).state_after
        else:
            state = engine.state_from_position(Position.from_json(case))
        kind = engine.position_from_state(state).phase_type
        found.update((kind, order) for orders in engine.legal_orders(state).values() for order in orders)
    return tuple(sorted(found))


def test_every_legal_order_of_the_datc_positions_round_trips() -> None:
    orders = _datc_legal_orders()
    kinds = {Order.parse(text, phase).action for phase, text in orders}
    # the corpus covers every phase, so every action is exercised
    assert kinds == {"hold", "move", "support_hold", "support_move", "convoy", "retreat", "disband",
                     "build", "remove", "waive"}
    assert any(text.endswith(" VIA") for _, text in orders)
    assert any("/" in text for _, text in orders)
    wrong = [text for phase, text in orders if str(Order.parse(text, phase)) != text]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A PAR H", Order("hold", Unit("A", "PAR"))),
        ("A PAR - BUR", Order("move", Unit("A", "PAR"), "BUR")),
        ("A LON - BEL VIA", Order("move", Unit("A", "LON"), "BEL", via_convoy=True)),
        ("F STP/SC - BOT", Order("move", Unit("F", "STP/SC"), "BOT")),
        ("A MUN S A BER", Order("support_hold", Unit("A", "MUN"), other=Unit("A", "BER"))),
        ("A MUN S A BER - SIL", Order("support_move", Unit("A", "MUN"), "SIL", Unit("A", "BER"))),
        ("F NTH C A LON - NWY", Order("convoy", Unit("F", "NTH"), "NWY", Unit("A", "LON"))),
        ("A PAR R BUR", Order("retreat", Unit("A", "PAR"), "BUR")),
        ("A PAR D", Order("disband", Unit("A", "PAR"))),
        ("F STP/NC B", Order("build", Unit("F", "STP/NC"))),
        ("WAIVE", Order("waive")),
    ],
)
def test_parse_and_write_each_form(text: str, expected: Order) -> None:
    assert Order.parse(text) == expected
    assert str(expected) == text


def test_a_hold_support_with_the_h_the_engine_accepts_is_written_without_it() -> None:
    assert str(Order.parse("A MUN S A BER H")) == "A MUN S A BER"


def test_a_disband_in_adjustments_is_a_removal_written_the_same() -> None:
    order = Order.parse("A PAR D", phase_type="A")
    assert order.action == "remove"
    assert str(order) == "A PAR D"


def test_parts() -> None:
    order = Order.parse("F SPA/SC S A MAR - GAS")
    assert order.unit == Unit("F", "SPA/SC")
    assert order.province == "SPA"
    assert order.other is not None and order.other.province == "MAR"
    assert order.target_province == "GAS"
    assert order.is_support() and not Order.parse("A PAR H").is_support()
    assert Order.parse("WAIVE").province is None


@pytest.mark.parametrize(
    "text",
    ["", "A", "A PAR", "X PAR H", "A PARIS H", "A PAR -", "A PAR - BUR BY", "A PAR S A BER H H",
     "A PAR S A BER - SIL H",
     "A PAR S A BER -", "F NTH C A LON", "A PAR R", "A PAR Q", "WAIVE A", "a par h"],
)
def test_text_that_is_not_engine_notation_is_refused_with_its_reason(text: str) -> None:
    with pytest.raises(ValueError, match="not .*engine notation"):
        Order.parse(text)
    assert Order.parse_or_none(text) is None


@pytest.mark.parametrize("text", ["A PAR", "F STP/SC"])
def test_a_unit_parsed_again_is_the_same_value(text: str) -> None:
    """Unit.parse keeps the values it read (the deadline parses each unit on the board several times)."""
    assert Unit.parse(text) is Unit.parse(text)
    assert str(Unit.parse(text)) == text


@pytest.mark.parametrize("text", ["", "A", "A PAR H", "X PAR", "A PARIS", "a par"])
def test_text_that_is_not_a_unit_is_refused_every_time(text: str) -> None:
    for _ in range(2):  # an error is never kept: the second parse raises as the first did
        with pytest.raises(ValueError, match="not .*(engine notation|a unit)"):
            Unit.parse(text)


def test_order_unit() -> None:
    assert order_unit("A MAR S A PAR - BUR") == "A MAR"
    assert order_unit("F STP/NC B") == "F STP/NC"
    assert order_unit("WAIVE") is None
    assert order_unit("nonsense") is None


def test_written_with_puts_the_nationality_before_the_other_unit_003_21() -> None:
    """003 [21]: a support of a foreign unit names its nationality; the reader's "Did you mean"
    writes the order that way (Order.written_with), the notation itself stays str(order)."""
    support = Order.parse("F POR S F MAO - SPA/NC")
    assert support.written_with("FRENCH") == "F POR S FRENCH F MAO - SPA/NC"
    assert Order.parse("A MUN S A BER").written_with("GERMAN") == "A MUN S GERMAN A BER"
    assert Order.parse("F NTH C A LON - NWY").written_with("ENGLISH") == "F NTH C ENGLISH A LON - NWY"
    assert Order.parse("A PAR - BUR").written_with("FRENCH") == "A PAR - BUR"  # no other unit: unchanged
    assert str(support) == "F POR S F MAO - SPA/NC"


def test_the_notation_and_province_kept_in_an_order_are_those_of_its_fields() -> None:
    order = Order.parse("F STP/SC - BOT")
    assert (str(order), order.province, str(order.unit), order.unit.province) == ("F STP/SC - BOT", "STP", "F STP/SC",
                                                                                 "STP")
    # a value made from it by dataclasses.replace writes its own, not the one kept
    moved = dataclasses.replace(order, unit=Unit("F", "FIN"), target="SWE")
    assert (str(moved), moved.province) == ("F FIN - SWE", "FIN")
    # what is kept is no field: equality and hashing are the fields' alone
    fresh = Order("move", Unit("F", "STP/SC"), "BOT")
    assert fresh == order and hash(fresh) == hash(order) and repr(fresh) == repr(order)


def test_an_order_written_again_costs_one_call() -> None:
    order = Order.parse("A MUN S A BER - SIL")
    str(order), order.province  # written once
    profiler = cProfile.Profile()
    profiler.runcall(lambda: (str(order), order.province, order.unit.province))
    # the lambda, Order.__str__ reading what it kept, and the profiler's own `disable`: the
    # provinces are read from the values as attributes
    assert pstats.Stats(profiler).total_calls == 3
