"""The deadline's way through the engine adapter gives the outcomes it gave before it read each
phase's position once and handed the engine the orders it completed as values
(services.turn.turns.outcome_of_orders, services.turn.adjudication, gmserver.engine).

A few games are played from the opening with seeded random legal orders (some units left without
one, so the house rules' defaults are used; a power in civil disorder in one game) under four
profiles, through movements, retreats and adjustments, both by the daemon's path
(`outcome_of_orders`) and by the pure one (`adjudicate_with_defaults`). Every phase's results and
the state it leaves must equal tests/data/engine_paths.json, which was recorded with the adapter
as it was before (each step read the position from the state and parsed the orders' text again).
Do not record it again unless the engine's results are meant to change.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gmserver import engine
from gmserver.rules.order import Order
from gmserver.rules.position import PhaseOutcome, Position, unit_location
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.turn.adjudication import adjudicate_with_defaults, completed
from gmserver.services.turn.turns import outcome_of_orders
from tests.support.midgame import MIDGAME, ORDERS

RECORDED = Path(__file__).parents[1] / "data" / "engine_paths.json"
DATC = Path(__file__).parents[1] / "data" / "datc" / "datc.json"

# (seed, profile, powers in civil disorder, start): mhr settles convoy paradoxes itself (000
# VI(6)), danivon retreats units left without an order (001 V(4)), scorpion builds for the silent;
# the midgame (tests/support/midgame.py) dislodges two units at once
GAMES = [(1, "standard", (), "opening"), (2, "mhr", (), "opening"), (3, "danivon", ("ITALY",), "opening"),
         (4, "scorpion", (), "opening"), (12, "danivon", (), "midgame"), (6, "standard", ("TURKEY",), "midgame")]
PHASES = 9  # three game years: movements, the retreats that happen, adjustments


def random_orders(state: dict[str, Any], rng: random.Random) -> dict[str, tuple[Order, ...]]:
    """A legal order for most units (one in six is left to the defaults, one dislodged unit in
    two), builds and removals up to what each power is due."""
    position = engine.position_from_state(state)
    kind = position.phase_type
    owner = {unit_location(unit).split("/")[0]: power
             for power, units in (position.dislodged if kind == "R" else position.units).items() for unit in units}
    if kind == "A":
        owner.update({centre: power for power, centres in position.centers.items()
                      if position.adjustments.get(power, 0) > 0 for centre in centres})
    orders: dict[str, list[Order]] = {}
    for location, choices in sorted(engine.legal_orders(state).items()):
        power = owner.get(location.split("/")[0])
        if power is None or rng.random() < (1 / 2 if kind == "R" else 1 / 6):
            continue
        order = Order.parse(rng.choice(sorted(choices)), kind)
        due = position.adjustments.get(power, 0)
        if kind == "A" and (order.action != ("build" if due > 0 else "remove")
                            or len(orders.get(power, ())) >= abs(due)):
            continue
        orders.setdefault(power, []).append(order)
    return {power: tuple(power_orders) for power, power_orders in orders.items()}


def results(outcome: PhaseOutcome) -> list[str]:
    return [f"{o.power}: {o.order}: {', '.join(o.results) or 'ok'}{' (default)' if o.defaulted else ''}"
            f"{f' [{o.note}]' if o.note else ''}" for o in outcome.orders]


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def summary(outcome: PhaseOutcome) -> dict[str, Any]:
    """A phase's outcome in digests (the file stays small): its results, the positions before and
    after, and the state it leaves (its timestamp aside); the winners and removals as they are."""
    return {
        "phase": outcome.phase,
        "results": digest(results(outcome)),
        "before": digest(outcome.before.to_json()),
        "after": digest(outcome.after.to_json()),
        "state_after": digest({key: value for key, value in outcome.state_after.items() if key != "timestamp"}),
        "winners": list(outcome.winners),
        "engine_removals": list(outcome.engine_removals),
    }


@functools.cache  # both tests read the same games
def played(seed: int, profile: str, civil_disorder: tuple[str, ...], start: str) -> dict[str, list[PhaseOutcome]]:
    """The game's phases by each path, each path going on from the state it left."""
    ruleset = load_ruleset(profile)
    services = SimpleNamespace(geography=engine.map_info())
    game = SimpleNamespace(players=[SimpleNamespace(power=power, civil_disorder=power in civil_disorder)
                                    for power in engine.map_info().powers])
    phases: dict[str, list[PhaseOutcome]] = {}
    for path in ("daemon", "pure"):
        rng, phases[path] = random.Random(seed), []
        state = engine.initial_state() if start == "opening" else engine.state_from_position(MIDGAME)
        for number in range(PHASES):
            orders = random_orders(state, rng)
            if start == "midgame" and number == 0:  # its own orders, one in six left out
                orders = {power: tuple(Order.parse(o) for o in power_orders if rng.random() >= 1 / 6)
                          for power, power_orders in ORDERS.items()}
            if path == "daemon":
                record = SimpleNamespace(state=state, rulings=None)
                _, outcome = outcome_of_orders(services, game, record, ruleset, orders, ())  # type: ignore[arg-type]
            else:
                outcome = adjudicate_with_defaults(state, orders, ruleset, frozenset(civil_disorder))
            phases[path].append(outcome)
            state = dict(outcome.state_after)
    return phases


def record() -> None:
    """Write tests/data/engine_paths.json (done once, before the change it pins)."""
    games = {f"{seed} {profile} {start}": {path: [summary(outcome) for outcome in outcomes]
                                           for path, outcomes in played(seed, profile, cd, start).items()}
             for seed, profile, cd, start in GAMES}
    RECORDED.write_text(json.dumps(games, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@pytest.mark.parametrize(("seed", "profile", "civil_disorder", "start"), GAMES,
                         ids=[f"{seed} {profile} {start}" for seed, profile, _, start in GAMES])
def test_the_outcomes_are_those_recorded_before(seed, profile, civil_disorder, start) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))[f"{seed} {profile} {start}"]
    now = played(seed, profile, civil_disorder, start)
    for path in ("daemon", "pure"):
        assert [summary(outcome) for outcome in now[path]] == recorded[path], path


def test_the_games_go_through_every_kind_of_phase_with_defaults() -> None:
    """The games pass through retreats and adjustments, defaults used in each kind of phase."""
    outcomes = [outcome for seed, profile, cd, start in GAMES for outcome in played(seed, profile, cd, start)["daemon"]]
    for kind in "MRA":
        of_kind = [outcome for outcome in outcomes if outcome.phase.endswith(kind)]
        assert of_kind and any(o.defaulted for outcome in of_kind for o in outcome.orders), kind


def test_the_position_given_is_the_one_the_engine_holds() -> None:
    """engine.adjudicate's `before` is the position read from the state it is given, no longer
    from the engine's own state after `set_state`: the two read the same in every phase played
    and in every DATC case's position (hand-made retreats among them)."""
    datc = [engine.state_from_position(Position.from_json(case))
            for case in json.loads(DATC.read_text(encoding="utf-8")) if "prior_movement" not in case]
    states = [engine.initial_state(), engine.state_from_position(MIDGAME), *datc] + [
        dict(outcome.state_after) for seed, profile, cd, start in GAMES
        for outcome in played(seed, profile, cd, start)["daemon"]]
    for state in states:
        held = engine._game_from_state(state).get_state()
        assert engine.position_from_state(held) == engine.position_from_state(state), state["name"]


@pytest.mark.parametrize("start", ["opening", "midgame"])
def test_the_engine_takes_order_values_as_it_takes_their_text(start) -> None:
    """engine.adjudicate writes Order values in its notation itself: the outcome of the values is
    the outcome of their text, a line that is not engine notation dropped alike."""
    state = engine.initial_state() if start == "opening" else engine.state_from_position(MIDGAME)
    orders, _ = completed(state, random_orders(state, random.Random(7)), load_ruleset("standard"))
    orders = {**orders, "ENGLAND": (*orders.get("ENGLAND", ()), "F LON - NOWHERE")}
    texts = {power: tuple(str(order) for order in power_orders) for power, power_orders in orders.items()}
    assert any(not isinstance(order, str) for power_orders in orders.values() for order in power_orders)
    assert summary(engine.adjudicate(state, orders)) == summary(engine.adjudicate(state, texts))
