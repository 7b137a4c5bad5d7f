"""The demo's bots order every unit they have, fleets on a coast included."""

import random

from gmserver import engine
from gmserver.demo import bot_orders


def test_bots_order_every_unit_in_the_opening() -> None:
    state = engine.initial_state()
    position, legal = engine.position_from_state(state), engine.legal_orders(state)
    for power, units in position.units.items():
        orders = bot_orders(position, legal, power, engine.map_info().home_centres(power), random.Random(1))
        assert sorted(" ".join(o.split()[:2]) for o in orders) == sorted(units), power
