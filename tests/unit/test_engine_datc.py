"""The engine adapter against the DATC corpus (`tests/data/datc/datc.json`, format in its README).

Every case is played through `gmserver.engine` the way a game would be: the position is built
with `state_from_position`, a retreat case first replays its `prior_movement` so that retreat
options account for the attacker's origin, and the case's orders (engine notation, illegal ones
included; the engine drops those silently) are adjudicated with `adjudicate`. The outcome is
checked against `expect`: the board after the phase, the dislodged units, and each listed
order's result, read both from `OrderOutcome.results` and from the board (the two must agree).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

import pytest

from gmserver import engine
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position, unit_province
from tests.support.adjudicate import adjudicate

DEFAULT_DATC_JSON = Path(__file__).parents[1] / "data" / "datc" / "datc.json"
DATC_JSON = Path(os.environ.get("GMSERVER_DATC_JSON") or DEFAULT_DATC_JSON)
EXPECTED_CASES = 173

# The one case where the engine takes the other DATC option (README; docs/architecture.md, "The engine").
ENGINE_DIFFERENCES = {
    "6.B.9": (
        "coast_support_mismatch: DATC 4.B.4 prefers that a support naming another coast than the "
        "supported fleet's move fails (Italian F WES reaches SPA/SC); the engine rewrites the "
        "support's coast from the supported fleet's own order, so the support holds and the "
        "Italian fleet bounces. The house-rule layer decides this option before the engine."
    ),
}


def _load_cases() -> list[dict[str, Any]] | None:
    try:
        return json.loads(DATC_JSON.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


CASES = _load_cases()
MISSING = (
    f"DATC corpus not found at {DATC_JSON}: the engine adapter cannot be checked against the DATC. "
    f"Put datc.json there (default {DEFAULT_DATC_JSON}) or set GMSERVER_DATC_JSON to its path."
)


def _params():
    if CASES is None:  # fail loudly, never skip: an absent corpus must not pass as green
        return [pytest.param(None, id="datc.json-missing")]
    params = []
    for case in CASES:
        marks = ()
        if case["id"] in ENGINE_DIFFERENCES:
            marks = (pytest.mark.xfail(strict=True, reason=ENGINE_DIFFERENCES[case["id"]]),)
        params.append(pytest.param(case, id=case["id"], marks=marks))
    return params


# ---------------------------------------------------------------------------------------------
# Helpers: reading an outcome the way the README defines results


def _board(units: Mapping[str, Any]) -> dict[str, list[str]]:
    return {power: sorted(us) for power, us in units.items() if us}


def _unit_of(order: str) -> str:
    return " ".join(order.split()[:2])


def _dislodged(outcome: PhaseOutcome) -> dict[str, list[str]]:
    """Every unit the movement dislodged, including those the engine destroyed at once for lack
    of a retreat (those never reach the retreat phase, so `after.dislodged` lacks them)."""
    dislodged: dict[str, list[str]] = {}
    for o in outcome.orders:
        if "dislodged" in o.results:
            dislodged.setdefault(o.power, []).append(_unit_of(str(o.order)))
    return _board(dislodged)


def _outcome_for(outcome: PhaseOutcome, power: str, order: str) -> OrderOutcome | None:
    """The outcome of `power`'s unit that `order` names, matched by province (the engine rewrites
    a wrongly named coast, DATC 6.B.10) or, for builds, by location."""
    words = order.split()
    if words[-1] == "B":
        return next((o for o in outcome.orders_of(power) if _unit_of(str(o.order)) == _unit_of(order)), None)
    province = words[1].split("/")[0]
    return next((o for o in outcome.orders_of(power) if unit_province(_unit_of(str(o.order))) == province), None)


def _target(order: str) -> str | None:
    words = [w for w in order.split() if w != "VIA"]
    if len(words) >= 4 and words[2] in ("-", "R"):
        return words[3]
    return None


def _result(outcome: PhaseOutcome, power: str, order: str) -> str:
    """What the outcome says of one listed order: it succeeds when it was carried out as written
    (not replaced by a default, same kind and destination) with no result flags."""
    found = _outcome_for(outcome, power, order)
    if found is None or found.defaulted or not found.succeeded:
        return "fails"
    words = order.split()
    if words[-1] in ("B", "D"):
        return "succeeds" if str(found.order).split()[-1] == words[-1] else "fails"
    target, got = _target(order), _target(str(found.order))
    if target is None or got is None:
        return "fails"
    if words[0] == "A" or "/" not in target or "/" not in got:  # armies ignore coasts (6.B.12)
        target, got = target.split("/")[0], got.split("/")[0]
    return "succeeds" if got == target else "fails"


def _board_from_outcome(outcome: PhaseOutcome) -> dict[str, list[str]]:
    """The board the reported results imply: successful moves, retreats, builds and removals
    applied to the board before the phase, dislodged units taken off."""
    kind = outcome.before.phase_type
    board = {power: list(units) for power, units in outcome.before.units.items()}
    for o in outcome.orders:
        unit, words, target = _unit_of(str(o.order)), str(o.order).split(), _target(str(o.order))
        units = board.setdefault(o.power, [])
        if kind == "M":
            if "dislodged" in o.results:
                units.remove(unit)
            elif o.succeeded and not o.defaulted and target:
                units[units.index(unit)] = f"{words[0]} {target}"
        elif kind == "R":
            if o.succeeded and not o.defaulted and target:
                units.append(f"{words[0]} {target}")
        elif o.succeeded and words[-1] == "B":
            units.append(unit)
        elif o.succeeded and words[-1] == "D":
            units.remove(unit)
    return _board(board)


def _check_order_results(outcome: PhaseOutcome, expected: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The corpus derives its results from the post-state ("a move succeeds when the unit ends in
    its destination"). Check the outcome's results against them, and the board those results
    imply against the engine's board after the phase (so results and board agree everywhere,
    also where the board alone cannot tell units apart, as in the rotations of 6.C)."""
    problems = []
    implied, actual = _board_from_outcome(outcome), _board(outcome.after.units)
    if implied != actual:
        problems.append(f"the reported results imply the board {implied}, the engine's board is {actual}")
    for power, by_order in expected.items():
        for order, want in by_order.items():
            got = _result(outcome, power, order)
            if got != want:
                problems.append(f"{power} {order!r}: {got}, expected {want}")
    return problems


def _check_every_unit_reported(outcome: PhaseOutcome) -> None:
    """Each unit that had to be ordered appears exactly once (illegal orders: as a default)."""
    kind = outcome.before.phase_type
    if kind not in "MR":
        return
    due = outcome.before.units if kind == "M" else outcome.before.dislodged
    for power, units in due.items():
        reported = sorted(_unit_of(str(o.order)) for o in outcome.orders_of(power))
        assert reported == sorted(units), f"{power}: outcome reports {reported}, units to order are {sorted(units)}"
    for o in outcome.orders:
        if o.defaulted:
            assert str(o.order).endswith(" H" if kind == "M" else " D"), o


def _check_dislodged_consistent(outcome: PhaseOutcome) -> None:
    """Dislodged units either wait in the retreat phase with somewhere to go, or are gone; no
    retreat option is an occupied province (the engine's own options are wrong for units
    dislodged by a convoyed army, DATC 6.F.21, 6.G.10, 6.H.11; the adapter corrects them)."""
    dislodged = _dislodged(outcome)
    waiting = _board(outcome.after.dislodged)
    occupied = {unit_province(u) for units in outcome.after.units.values() for u in units}
    for power, units in waiting.items():
        assert set(units) <= set(dislodged.get(power, ())), f"{power}: {units} in retreat phase, not dislodged"
        for unit in units:
            options = outcome.after.retreats.get(unit)
            assert options, f"{unit} waits in the retreat phase without options"
            assert not {o.split("/")[0] for o in options} & occupied, f"{unit} may retreat to an occupied province: {options}"
    if outcome.after.phase_type != "R":
        assert not waiting


# ---------------------------------------------------------------------------------------------
# Playing a case


def _reach_retreat_phase(case: Mapping[str, Any]) -> tuple[PhaseOutcome, list[str]]:
    """Replay `prior_movement` and compare what it reaches with the case's retreat position."""
    prior = case["prior_movement"]
    start = Position.from_json({"phase": prior["phase"], "units": prior["units"]})
    outcome = adjudicate(engine.state_from_position(start), prior["orders"])
    problems = []
    if _board(outcome.after.units) != _board(case["units"]):
        problems.append(f"prior movement reaches units {_board(outcome.after.units)}, case has {_board(case['units'])}")
    if _dislodged(outcome) != _board(case.get("dislodged", {})):
        problems.append(f"prior movement dislodges {_dislodged(outcome)}, case has {_board(case.get('dislodged', {}))}")
    problems += [f"prior movement: {p}" for p in _check_order_results(outcome, prior.get("order_results", {}))]
    _check_every_unit_reported(outcome)
    _check_dislodged_consistent(outcome)
    return outcome, problems


@pytest.mark.parametrize("case", _params())
def test_datc_case(case: Mapping[str, Any] | None) -> None:
    if case is None:
        pytest.fail(MISSING)
    expect = case["expect"]
    problems: list[str] = []

    if "prior_movement" in case:
        prior, problems = _reach_retreat_phase(case)
        if prior.after.phase_type != "R":
            # Nobody dislodged had anywhere to go, so the engine destroyed them and skipped the
            # retreat phase (DATC 6.H.15): there is nothing to order and the board is final.
            assert prior.after.phase_type in "MA"
            assert not any(case["orders"].values()), "retreat orders given for a phase the engine skipped"
            assert _board(prior.after.units) == _board(expect["units_after"]), problems
            assert not problems, problems
            return
        assert prior.after.phase == case["phase"]
        state = prior.state_after
    else:
        position = Position.from_json(case)
        state = engine.state_from_position(position)
        reached = engine.position_from_state(state)
        assert reached.phase == case["phase"]
        assert _board(reached.units) == _board(case["units"])

    outcome = adjudicate(state, case["orders"])
    assert outcome.phase == case["phase"]
    _check_every_unit_reported(outcome)

    if _board(outcome.after.units) != _board(expect["units_after"]):
        problems.append(f"units after {_board(outcome.after.units)}, expected {_board(expect['units_after'])}")
    if outcome.before.phase_type == "M":
        _check_dislodged_consistent(outcome)
        if _dislodged(outcome) != _board(expect.get("dislodged_after", {})):
            problems.append(f"dislodged {_dislodged(outcome)}, expected {_board(expect.get('dislodged_after', {}))}")
    else:
        assert not _board(outcome.after.dislodged), "dislodged units left after a retreat/adjustment phase"
    problems += _check_order_results(outcome, expect.get("order_results", {}))
    assert not problems, "\n".join(problems)


def test_datc_corpus_is_complete() -> None:
    if CASES is None:
        pytest.fail(MISSING)
    ids = [case["id"] for case in CASES]
    assert len(ids) == EXPECTED_CASES
    assert len(set(ids)) == len(ids)
    assert set(ENGINE_DIFFERENCES) <= set(ids)
