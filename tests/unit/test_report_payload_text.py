"""The stored report's text is written in one pass (reports/codec.py `to_json_text`): it must be,
character for character, the text `json.dumps` writes of `to_json`'s tree, as payloads were
stored before (the MIME boundaries of every copy are derived from it, and a report stored by
either is read by both). Compared over real reports (the mid-game report, the reports of
tests/unit/test_reports.py's turns, seeded games' turns of every kind) and, with Hypothesis, over
values of every payload dataclass made from their type hints."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.codec import CodecError, to_json, to_json_text
from gmserver.reports.turn import OrderLine, build_turn_report
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import OrderOutcome, PhaseOutcome
from gmserver.services.base.report_copies import VERSION, ReportParts, parts_for, parts_of, payload_of
from tests.support.midgame import midgame_parts
from tests.support.report_scenarios import SCENARIOS
from tests.support.seeded_games import seeded_outcomes, seeded_parts, seeded_report


def dumped(parts: ReportParts) -> str:
    """The payload as it was stored before: the tree, then json.dumps."""
    return json.dumps({"version": VERSION, "report": to_json(parts, ReportParts)}, check_circular=False)


def scenario_parts(name: str) -> ReportParts:
    outcome = SCENARIOS[name]()
    deadline = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
    report = build_turn_report(outcome, geography=engine.map_info(), game_name="lepanto", next_deadline=deadline,
                               timezone="America/New_York", subject_template="standard")
    composer = Composer(TEMPLATES_DIR, gm_name="Garry Lord", gm_address="gm@lepanto.example")
    return parts_for(composer, key=f"report:1:{outcome.phase}:", game_name="lepanto", contexts=[report],
                     outcome=outcome, centre_points=[(outcome.phase, {"FRANCE": 3})], deadline=deadline,
                     now=deadline - timedelta(minutes=1), alarm_seconds=7200)


def test_the_midgame_payload_is_the_text_json_dumps_wrote() -> None:
    parts = midgame_parts()
    assert payload_of(parts) == dumped(parts)
    assert parts_of(payload_of(parts)) == parts


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_each_turns_payload_is_the_text_json_dumps_wrote(name: str) -> None:
    parts = scenario_parts(name)
    assert payload_of(parts) == dumped(parts)


def test_seeded_games_payloads_are_the_texts_json_dumps_wrote() -> None:
    """Openings with any legal order (most supports void), then eight turns of six games:
    movement, retreats, builds and removals, the rules' defaults among them. Written twice, the
    second time from the texts kept of the orders and order lines."""
    outcomes = [*seeded_outcomes(12, 1, seed=1, helping=False), *seeded_outcomes(6, 8)]
    kinds = {outcome.phase[-1] for outcome in outcomes}
    assert kinds == {"M", "R", "A"}
    for n, outcome in enumerate(outcomes):
        parts = seeded_parts(outcome, seeded_report(outcome, n), n)
        assert payload_of(parts) == dumped(parts) == payload_of(parts)


def test_a_removal_and_a_disband_are_written_as_json_dumps_wrote_them() -> None:
    """`A PAR D` reads back as a disband: a removal is written field by field, by both."""
    for action in ("remove", "disband"):
        outcome = OrderOutcome("FRANCE", Order(action, Unit("A", "PAR")), ("void",), note="é")  # type: ignore[arg-type]
        assert to_json_text(outcome, OrderOutcome) == json.dumps(to_json(outcome, OrderOutcome))


@pytest.mark.parametrize("value, hint", [
    (float("nan"), float), (float("inf"), float), (float("-inf"), float), (-0.0, float), (1e300, float),
    (3, float), (True, bool), (-7, int), (None, int | None), ("tab\there \u00e9 \ud83d\ude00 \"q\" \\", str),
    ("b", Literal["a", "b", 3]), (3, Literal["a", "b", 3]), ({"x": [1, 2.5, None, {"y": "\u00e9"}]}, Mapping[str, Any]),
    ({"TURKEY": 5, "AUSTRIA": 3}, Mapping[str, int]), ({"B": ["A PAR"], "A": ()}, Mapping[str, tuple[str, ...]]),
    (["a", "b"], tuple[str, ...]), (("a", 1), tuple[str, int]), ((), tuple[int, ...]),
    (datetime(2026, 11, 29, 5, 0, tzinfo=timezone(timedelta(hours=11))), datetime),
])
def test_scalars_and_containers_are_written_as_json_dumps_writes_them(value: Any, hint: Any) -> None:
    assert to_json_text(value, hint) == json.dumps(to_json(value, hint))


def test_a_value_of_the_wrong_kind_is_refused_and_named_by_its_path() -> None:
    wrong = OrderOutcome("FRANCE", Order("hold", Unit("A", "PAR")), defaulted="no")  # type: ignore[arg-type]
    with pytest.raises(CodecError, match=r"^\[1\]\.defaulted: str 'no' is not a bool"):
        to_json_text((OrderOutcome("ITALY", Order("hold", Unit("A", "ROM"))), wrong), tuple[OrderOutcome, ...])
    with pytest.raises(CodecError, match=r"^\.results: str 'bounce' is not a tuple"):
        to_json_text(OrderOutcome("FRANCE", Order("hold", Unit("A", "PAR")), "bounce"), OrderOutcome)  # type: ignore[arg-type]
    with pytest.raises(CodecError, match="no JSON form"):
        to_json_text({"PAR"}, set[str])


def test_an_order_line_kept_is_refused_where_another_type_is_due() -> None:
    """The texts kept are each writer's own: a value written once as an order line is not taken
    for a value of another type because its text was kept."""
    line = OrderLine("FRANCE", "A PAR", "A PAR H", "A Paris holds", "holds")
    assert to_json_text(line, OrderLine) == json.dumps(to_json(line, OrderLine))
    with pytest.raises(CodecError):
        to_json_text(line, OrderOutcome)


# Hypothesis: values of the payload dataclasses made from their type hints (the orders and units
# from the opening's legal orders, a removal among them: an arbitrary string is no order)
ORDERS = [Order.parse(text) for choices in engine.legal_orders(engine.initial_state()).values() for text in choices]
ORDERS += [Order("remove", Unit("A", "PAR")), Order("waive"), Order.parse("A LON - NTH - NWY"), Order.parse("F STP/NC B")]
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                        max_size=3), max_leaves=8)
ZONES = st.sampled_from([UTC, timezone(timedelta(hours=11)), timezone(-timedelta(hours=5, minutes=30))])


def strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Values of `hint`, a type hint of the payload's dataclasses."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Order:
        return st.sampled_from(ORDERS)
    if hint is Unit:
        return st.sampled_from([order.unit for order in ORDERS if order.unit is not None])
    if hint is datetime:
        return st.datetimes(timezones=ZONES)
    if hint is Any:
        return JSON_VALUES
    if dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return st.builds(hint, **{f.name: st.deferred(lambda h=hints[f.name]: strategy(h))
                                  for f in dataclasses.fields(hint) if f.init})
    if origin is Literal:
        return st.sampled_from(args)
    if type(None) in args:
        return st.none() | strategy(next(arg for arg in args if arg is not type(None)))
    if origin is tuple and args[-1] is Ellipsis:
        items = st.lists(strategy(args[0]), max_size=3)
        return items.map(tuple) | items  # a list where a tuple is declared is written as the tuple
    if origin is tuple:
        return st.tuples(*map(strategy, args))
    if origin is Mapping or origin is dict:
        return st.dictionaries(st.text(max_size=6), strategy(args[1]), max_size=3)
    return {str: st.text(max_size=12), int: st.integers(), bool: st.booleans(), float: st.floats()}[hint]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(strategy(ReportParts))
def test_any_report_parts_are_written_as_json_dumps_writes_them(parts: ReportParts) -> None:
    assert payload_of(parts) == dumped(parts)


@settings(max_examples=80, deadline=None)
@given(strategy(PhaseOutcome))
def test_any_outcome_is_written_as_json_dumps_writes_it(outcome: PhaseOutcome) -> None:
    assert to_json_text(outcome, PhaseOutcome) == json.dumps(to_json(outcome, PhaseOutcome))
