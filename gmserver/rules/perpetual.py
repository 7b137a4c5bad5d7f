"""Perpetual order sets (`perpetual_orders`; 000 II(4): "The GM will not accept
instructions designating an order set as perpetual EXCEPT IN SPECIAL CIRCUMSTANCES (i.e. a person
is sticking out a hopeless 1-unit position to keep the flow going)").

The GM marks a power's set perpetual; at each later movement deadline where the power sent
nothing, the orders of that set that still fit the board stand in for the missed set; orders
that have become impossible are dropped ("dropping orders that have become
illegal"). Pure: the services keep the set (services/features/perpetual.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.rules.reading.options import profile_of
from gmserver.rules.reading.rule_words import rule_in_words
from gmserver.rules.ruleset import Ruleset


def orders_that_still_apply(orders: Sequence[Order], position: Position, power: str) -> tuple[Order, ...]:
    """The orders whose unit is still the power's, of the same kind and where it was, and whose
    other unit (the one supported or convoyed) is still on the board. A unit that moved, was
    lost or was built since has no standing order: the house rules' default applies to it."""
    own = set(position.units.get(power, ()))
    on_board = {unit for units in position.units.values() for unit in units}
    return tuple(order for order in orders
                 if order.unit is not None and str(order.unit) in own
                 and (order.other is None or str(order.other) in on_board))


def may_mark(ruleset: Ruleset) -> bool:
    """gm_approval (000 II(4)) and allowed: the GM may mark a set perpetual; forbidden: never."""
    return ruleset.perpetual_orders != "forbidden"


def cited(ruleset: Ruleset) -> str:
    """The clause behind a kept set: 000 II(4) under mhr; elsewhere the house rule in words."""
    return "000 II(4)" if profile_of(ruleset) == "mhr" else "perpetual orders"


def note(ruleset: Ruleset) -> str:
    """What the report says of an order taken from a perpetual set: in words, with the clause."""
    return f"from the standing orders the GM kept for this power ({rule_in_words(cited(ruleset))})"


def refusal(ruleset: Ruleset) -> str:
    cited = {"danivon": "001", "email_rules": "002", "scorpion": "003"}.get(profile_of(ruleset) or "")
    where = f"the house rules ({cited}) say nothing of them, so" if cited else "under these house rules"
    return f"{where} order sets are never kept from turn to turn ({rule_in_words('DATC 4.E.4')})"
