"""The engine adapter against the DATC corpus (`tests/data/datc/datc.json`, format in its README).

Every case is played through `gmserver.engine` the way a game would be: the position is built
with `state_from_position`, a retreat case first replays its `prior_movement` so that retreat
options account for the attacker's origin, and the case's orders (engine notation, illegal ones
included; the engine drops those silently) are adjudicated with `adjudicate`. The outcome is
checked against `expect`: the board after the phase, the dislodged units, and each listed
order's result, read both from `OrderOutcome.results` and from the board (the two must agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gmserver import engine
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position, unit_province
from tests.support.adjudicate import adjudicate
from tests.support.datc import CASES, ENGINE_DIFFERENCES, EXPECTED_CASES, MISSING, board_of, move_target, unit_named


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


def _dislodged(outcome: PhaseOutcome) -> dict[str, list[str]]:
    """Every unit the movement dislodged, including those the engine destroyed at once for lack
    of a retreat (those never reach the retreat phase, so `after.dislodged` lacks them)."""
    dislodged: dict[str, list[str]] = {}
    for o in outcome.orders:
        if "dislodged" in o.results:
            dislodged.setdefault(o.power, []).append(unit_named(str(o.order)))
    return board_of(dislodged)


def _outcome_for(outcome: PhaseOutcome, power: str, order: str) -> OrderOutcome | None:
    """The outcome of `power`'s unit that `order` names, matched by province (the engine rewrites
    a wrongly named coast, DATC 6.B.10) or, for builds, by location."""
    words = order.split()
    if words[-1] == "B":
        return next((o for o in outcome.orders_of(power) if unit_named(str(o.order)) == unit_named(order)), None)
    province = words[1].split("/")[0]
    return next((o for o in outcome.orders_of(power) if unit_province(unit_named(str(o.order))) == province), None)


def _result(outcome: PhaseOutcome, power: str, order: str) -> str:
    """What the outcome says of one listed order: it succeeds when it was carried out as written
    (not replaced by a default, same kind and destination) with no result flags."""
    found = _outcome_for(outcome, power, order)
    if found is None or found.defaulted or not found.succeeded:
        return "fails"
    words = order.split()
    if words[-1] in ("B", "D"):
        return "succeeds" if str(found.order).split()[-1] == words[-1] else "fails"
    target, got = move_target(order), move_target(str(found.order))
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
        unit, words, target = unit_named(str(o.order)), str(o.order).split(), move_target(str(o.order))
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
    return board_of(board)


def _check_order_results(outcome: PhaseOutcome, expected: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The corpus derives its results from the post-state ("a move succeeds when the unit ends in
    its destination"). Check the outcome's results against them, and the board those results
    imply against the engine's board after the phase (so results and board agree everywhere,
    also where the board alone cannot tell units apart, as in the rotations of 6.C)."""
    problems = []
    implied, actual = _board_from_outcome(outcome), board_of(outcome.after.units)
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
        reported = sorted(unit_named(str(o.order)) for o in outcome.orders_of(power))
        assert reported == sorted(units), f"{power}: outcome reports {reported}, units to order are {sorted(units)}"
    for o in outcome.orders:
        if o.defaulted:
            assert str(o.order).endswith(" H" if kind == "M" else " D"), o


def _check_dislodged_consistent(outcome: PhaseOutcome) -> None:
    """Dislodged units either wait in the retreat phase with somewhere to go, or are gone; no
    retreat option is an occupied province (the engine's own options are wrong for units
    dislodged by a convoyed army, DATC 6.F.21, 6.G.10, 6.H.11; the adapter corrects them)."""
    dislodged = _dislodged(outcome)
    waiting = board_of(outcome.after.dislodged)
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
    if board_of(outcome.after.units) != board_of(case["units"]):
        problems.append(f"prior movement reaches units {board_of(outcome.after.units)}, case has {board_of(case['units'])}")
    if _dislodged(outcome) != board_of(case.get("dislodged", {})):
        problems.append(f"prior movement dislodges {_dislodged(outcome)}, case has {board_of(case.get('dislodged', {}))}")
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
            assert board_of(prior.after.units) == board_of(expect["units_after"]), problems
            assert not problems, problems
            return
        assert prior.after.phase == case["phase"]
        state = prior.state_after
    else:
        position = Position.from_json(case)
        state = engine.state_from_position(position)
        reached = engine.position_from_state(state)
        assert reached.phase == case["phase"]
        assert board_of(reached.units) == board_of(case["units"])

    outcome = adjudicate(state, case["orders"])
    assert outcome.phase == case["phase"]
    _check_every_unit_reported(outcome)

    if board_of(outcome.after.units) != board_of(expect["units_after"]):
        problems.append(f"units after {board_of(outcome.after.units)}, expected {board_of(expect['units_after'])}")
    if outcome.before.phase_type == "M":
        _check_dislodged_consistent(outcome)
        if _dislodged(outcome) != board_of(expect.get("dislodged_after", {})):
            problems.append(f"dislodged {_dislodged(outcome)}, expected {board_of(expect.get('dislodged_after', {}))}")
    else:
        assert not board_of(outcome.after.dislodged), "dislodged units left after a retreat/adjustment phase"
    problems += _check_order_results(outcome, expect.get("order_results", {}))
    assert not problems, "\n".join(problems)


def test_datc_corpus_is_complete() -> None:
    if CASES is None:
        pytest.fail(MISSING)
    ids = [case["id"] for case in CASES]
    assert len(ids) == EXPECTED_CASES
    assert len(set(ids)) == len(ids)
    assert set(ENGINE_DIFFERENCES) <= set(ids)
