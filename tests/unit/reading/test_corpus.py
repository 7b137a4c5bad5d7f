"""The corpus in tests/data/orders: order lines and whole emails with their expected readings
under six profiles, each expected line with the clause its reading cites.

A regression snapshot, not acceptance: make_corpus.py recorded the reader's own output (reviewed),
so these tests say that reading has not changed, not that it is right. Acceptance is the seed
examples (test_seed_examples.py) and the option tables (test_options.py,
test_sets_and_adjustments.py, test_conditions.py). See tests/data/orders/README.md."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gmserver import engine
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.reading.message import extract_order_text
from gmserver.rules.reading.reader import read_orders
from tests.unit.reading.support import geography, ruleset

DATA = Path(__file__).parents[2] / "data" / "orders"
LINES = json.loads((DATA / "lines.json").read_text())
POSITIONS = {k: Position.from_json(v) for k, v in LINES["positions"].items()}
EMAILS = json.loads((DATA / "emails.json").read_text())


# The document each profile encodes; `standard` encodes none (it is the rulebook and DATC defaults).
DOCUMENTS = {"standard": None, "mhr": "000", "danivon": "001", "email_rules": "002", "scorpion": "003", "gwm": "004"}


def _check_messages(reading, profile):
    """Every correction and rejection says why and cites a clause of the game's own profile: its
    document's clause, or the DATC / the 2000 rulebook, or the option itself where the document is
    silent; never another house-rule document's clause."""
    for line in reading.lines:
        if line.status in ("rejected", "corrected"):
            assert line.message and line.rule, (profile, line)
        for cited in filter(None, (line.rule or "").split("; ")):
            own = DOCUMENTS[profile] is not None and cited.startswith(DOCUMENTS[profile] + " ")
            assert own or cited.startswith(("DATC", "RB2000")) or " = " in cited, (profile, cited, line)


def _actual(text, position, power, profile):
    reading = read_orders(text, position=position, power=power, ruleset=ruleset(profile), geography=geography())
    _check_messages(reading, profile)
    # [line, status, order] and the clause, where the reading cites one (make_corpus.expected_line)
    # the reader gives Order and Unit values; the snapshot holds their engine notation
    lines = [[r.line, r.status, None if r.order is None else str(r.order)] + ([r.rule] if r.rule else [])
             for r in reading.lines]
    actual = {"orders": [str(o) for o in reading.orders], "lines": lines}
    if reading.unsupportable:
        actual["unsupportable"] = [str(u) for u in reading.unsupportable]
    return actual


def test_corpus_size():
    assert len(LINES["cases"]) >= 300
    assert len(EMAILS) >= 20
    assert all(len(case["expected"]) >= 2 for case in LINES["cases"] + EMAILS)


@pytest.mark.parametrize("case", LINES["cases"], ids=[f"{c['position']}-{c['power']}-{c['text'][:40]}" for c in LINES["cases"]])
def test_corpus_line(case):
    position = POSITIONS[case["position"]]
    for profile, expected in case["expected"].items():
        assert _actual(case["text"], position, case["power"], profile) == expected, profile


@pytest.mark.parametrize("case", EMAILS, ids=[c["file"] for c in EMAILS])
def test_corpus_email(case):
    raw = (DATA / "emails" / case["file"]).read_bytes()
    text = extract_order_text(raw)
    position = POSITIONS[case["position"]]
    for profile, expected in case["expected"].items():
        assert _actual(text, position, case["power"], profile) == expected, profile


def _engine_form(text: str) -> str:
    """A move with a written route (000 VI(3)) reaches the engine as "by convoy", the route carried
    out by the server (rules/convoy_routes.py); every other order as it is."""
    return str(dataclasses.replace(Order.parse(text), route=()))


def test_corpus_orders_are_engine_legal():
    legal = {key: {o for v in engine.legal_orders(engine.state_from_position(p)).values() for o in v}
             for key, p in POSITIONS.items()}
    for case in LINES["cases"] + EMAILS:
        for expected in case["expected"].values():
            assert {_engine_form(o) for o in expected["orders"]} <= legal[case["position"]], case
