"""engine._set_orders hands a movement phase's orders to the engine without its expansion
: what the engine then holds and adjudicates must be exactly what the
plain `set_orders` gives, for every kind of order, canonical or not (coasts above all)."""

from __future__ import annotations

import functools
import random

import pytest

from gmserver import engine
from tests.support.midgame import MIDGAME

# Built when a test asks (1 s of loading the engine's map), not when the module is collected.
STATES = {"opening": functools.cache(engine.initial_state),
          "midgame": functools.cache(lambda: engine.state_from_position(MIDGAME))}


def _owner(state) -> dict[str, str]:
    position = engine.position_from_state(state)
    return {unit.split()[1].split("/")[0]: power for power, units in position.units.items() for unit in units}


def _random_sets(state, count: int, seed: int) -> list[dict[str, list[str]]]:
    """`count` order sets of one legal order per unit, drawn from the engine's own list."""
    legal, owner, rng = engine.legal_orders(state), _owner(state), random.Random(seed)
    sets = []
    for _ in range(count):
        orders: dict[str, list[str]] = {}
        for location, choices in sorted(legal.items()):
            if location.split("/")[0] in owner and choices:
                orders.setdefault(owner[location.split("/")[0]], []).append(rng.choice(sorted(choices)))
        sets.append(orders)
    return sets


def _held_and_results(state, orders, fast: bool):
    game = engine._game_from_state(state)
    for power, power_orders in orders.items():
        if fast:
            engine._set_orders(game, power, list(power_orders))
        else:
            game.set_orders(power, list(power_orders))
    held = {power: sorted(o) for power, o in game.get_orders().items()}
    phase = game.get_current_phase()
    game.process()
    return held, {str(unit): sorted(map(str, r)) for unit, r in game.result_history[phase].items()}, game.get_state()["units"]


@pytest.mark.parametrize(("name", "seed"), [("opening", 1), ("midgame", 2)], ids=["opening", "midgame"])
def test_random_legal_sets_are_held_and_adjudicated_as_set_orders_does(name, seed) -> None:
    state = STATES[name]()
    for orders in _random_sets(state, 60, seed):
        assert _held_and_results(state, orders, fast=True) == _held_and_results(state, orders, fast=False), orders


# Orders the expansion rewrites, or would drop without it: each must come out as set_orders makes it.
REWRITTEN = [
    {"RUSSIA": ["F STP - BOT"]},  # the fleet's coast missing: the engine adds STP/SC
    {"RUSSIA": ["F STP/NC - BOT"]},  # the wrong coast: the engine corrects it
    {"FRANCE": ["A SPA/NC - GAS", "F MAO - POR", "F POR S A SPA - GAS"]},  # an army with a coast
    {"FRANCE": ["F MAO - SPA/NC", "F POR S F MAO - SPA/SC"]},  # DATC 6.B.9: the support's coast rewritten
    {"FRANCE": ["A SPA - GAS", "F MAO S A SPA - GAS", "F POR - SPA"]},  # a fleet move without the coast
    {"TURKEY": ["F BLA - BUL", "A BUL - RUM"]},  # BUL has two coasts, from BLA only the east one
    {"ENGLAND": ["F NTH - BEL", "F NWG S F NTH"]},  # canonical: the short way
    {"ENGLAND": ["F NTH - XXX", "F NWG H"]},  # not an order: dropped both ways
]


@pytest.mark.parametrize("orders", REWRITTEN, ids=[" / ".join(next(iter(o.values()))) for o in REWRITTEN])
def test_orders_the_expansion_rewrites_come_out_as_set_orders_makes_them(orders) -> None:
    mid = STATES["midgame"]()
    assert _held_and_results(mid, orders, fast=True) == _held_and_results(mid, orders, fast=False)


def test_the_short_way_is_taken_for_canonical_orders() -> None:
    """The point of it: canonical movement orders are set with expand=False, once; an order the
    expansion would rewrite goes the usual way."""
    calls = []

    class Spy:  # the engine's Game does not let a test replace its methods
        def __init__(self, game) -> None:
            self.game = game

        def __getattr__(self, name):
            return getattr(self.game, name)

        def set_orders(self, power, orders, expand=True, replace=True):
            calls.append((power, expand))
            return self.game.set_orders(power, orders, expand=expand, replace=replace)

    game = Spy(engine._game_from_state(STATES["midgame"]()))
    engine._set_orders(game, "ENGLAND", ["F NTH - BEL", "F NWG S F NTH", "A YOR - LON", "F ENG H"])
    engine._set_orders(game, "RUSSIA", ["F STP - BOT"])
    # canonical, but the engine drops one order (A VEN cannot reach Moscow): counted, set again the usual way
    engine._set_orders(game, "ITALY", ["A VEN - MOS", "F ION - GRE", "A TUN H", "F NAP - ROM"])
    assert calls == [("ENGLAND", False), ("RUSSIA", True), ("ITALY", False), ("ITALY", True)]
    assert sorted(game.get_orders("ITALY")) == ["A TUN H", "F ION - GRE", "F NAP - ROM"]


def test_a_canonical_set_the_engine_drops_an_order_of_is_held_as_set_orders_holds_it() -> None:
    orders = {"ITALY": ["A VEN - MOS", "F ION - GRE", "A TUN H", "F NAP - ROM"]}
    mid = STATES["midgame"]()
    assert _held_and_results(mid, orders, fast=True) == _held_and_results(mid, orders, fast=False)
