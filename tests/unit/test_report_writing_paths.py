"""The stored report is written by a plan made once per type (reports/codec.py: a function per
dataclass, tuples and mappings of plain values copied at once) and composed from names kept per
map (reports/words.py PlaceNames), with order lines and centre counts kept from report to report
(reports/turn.py): the payload must be byte for byte what the walk beside the type hints writes,
for reports of every kind of turn, an order's result the same whether the other orders are
searched or looked up, and a report the same whether its lines were kept or made afresh."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from gmserver import engine
from gmserver.reports import turn
from gmserver.reports.codec import CodecError, _walk_to_json, to_json
from gmserver.reports.turn import CentreCount, OrderLine
from gmserver.reports.words import orders_by_province, result_in_words
from gmserver.rules.position import Position
from gmserver.services.base.report_copies import ReportParts, payload_of
from tests.support.seeded_games import seeded_outcomes, seeded_parts, seeded_report

OUTCOMES = [*seeded_outcomes(12, 6, seed=7), *seeded_outcomes(20, 1, seed=8, helping=False)]


def test_seeded_turns_cover_every_kind_of_report() -> None:
    """The comparisons below are worth what the turns hold: retreats, adjustments, voids, defaults."""
    kinds = {outcome.phase[-1] for outcome in OUTCOMES}
    results = {result for outcome in OUTCOMES for order in outcome.orders for result in order.results}
    assert kinds == {"M", "R", "A"} and {"void", "bounce", "dislodged"} <= results
    assert any(order.defaulted for outcome in OUTCOMES for order in outcome.orders)


@pytest.mark.parametrize("number", range(len(OUTCOMES)))
def test_the_payload_is_what_the_walk_writes(number: int) -> None:
    outcome = OUTCOMES[number]
    parts = seeded_parts(outcome, seeded_report(outcome, number), number)
    walked = json.dumps({"version": 2, "report": _walk_to_json(parts, ReportParts)})
    assert payload_of(parts) == walked


def test_an_order_looked_up_by_province_gives_the_result_searching_gives() -> None:
    geography = engine.map_info()
    for outcome in OUTCOMES:
        kind, ordered = outcome.before.phase_type, orders_by_province(outcome.orders)
        for order in outcome.orders:
            searched = result_in_words(order, kind, outcome.orders, geography, outcome.before)
            assert result_in_words(order, kind, outcome.orders, geography, outcome.before, ordered=ordered) == searched


class Name(str):
    """A str of a subclass: written as the str it is, by the plan as by the walk."""


@pytest.mark.parametrize(("value", "hint"), [
    (OrderLine("FRANCE", "A PAR", "A PAR H", "A Paris holds", "holds", shown=Name("A PAR H")), OrderLine),
    (CentreCount("FRANCE", "France", 3, ["Paris", Name("Brest")], (), (), 3), CentreCount),  # a list for a tuple
    (Position("S1901M", MappingProxyType({"FRANCE": ("A PAR",)}), {Name("ITALY"): ["ROM"]}), Position),
    ({"FRANCE": 1.5, "ITALY": 2}, Mapping[str, float]),
    ((None, "x"), tuple[str | None, ...]),
])
def test_unusual_values_are_written_as_the_walk_writes_them(value: Any, hint: Any) -> None:
    assert json.dumps(to_json(value, hint)) == json.dumps(_walk_to_json(value, hint))


@pytest.mark.parametrize(("value", "hint"), [
    (CentreCount("FRANCE", "France", True, (), (), (), 3), CentreCount),  # a bool is no count
    (CentreCount("FRANCE", "France", 3, ("Paris", 1), (), (), 3), CentreCount),
    (Position("S1901M", {"FRANCE": ("A PAR", None)}), Position),
    (Position("S1901M", {1: ("A PAR",)}), Position),
    ({"FRANCE": "1"}, Mapping[str, int]),
])
def test_values_of_the_wrong_kind_are_refused_by_both(value: Any, hint: Any) -> None:
    with pytest.raises(CodecError):
        _walk_to_json(value, hint)
    with pytest.raises(CodecError):
        to_json(value, hint)


def test_the_lines_and_counts_kept_are_those_made_afresh() -> None:
    """reports/turn.py keeps order lines and centre counts for the next report that has them: a
    report made with all of them kept (a second pass) is the report made with none kept."""
    [seeded_report(outcome, number) for number, outcome in enumerate(OUTCOMES)]
    for number, outcome in enumerate(OUTCOMES):
        kept = seeded_report(outcome, number)
        turn._LINES.clear(), turn._COUNTS.clear()
        assert seeded_report(outcome, number) == kept
