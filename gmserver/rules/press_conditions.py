"""Conditional press (MATRIX 2.9 `conditional_press`; 002 PRESS 4, 003 [9] "Press submitted may be
conditional on the season's moves"): the condition of a press heading ("PRESS IF I GAIN BELGIUM")
is decided on the season's results with the same objective tests as conditional orders
(gmserver.rules.reading.conditions, `objective_only`). A condition that cannot be tested is false.
Pure."""

from __future__ import annotations

from typing import Any

from gmserver.rules.geography import MapInfo
from gmserver.rules.position import PhaseOutcome
from gmserver.rules.reading.condition_facts import TurnFacts, evaluate, facts_for
from gmserver.rules.reading.conditions import Unreadable, parse_condition
from gmserver.rules.reading.reader import reading_context
from gmserver.rules.reading.text import tokens


def condition_holds(condition: str, negated: bool, author: str, outcome: PhaseOutcome, ruleset: Any,
                    geography: MapInfo) -> tuple[bool, str | None]:
    """(holds, why it could not be tested) for `author`'s press condition on `outcome`."""
    ctx = reading_context(outcome.before, author, ruleset, geography)
    test = parse_condition(tokens(condition), table=ctx.table, policy=ctx.policy, powers=ctx.powers,
                           power=author, negated=negated)
    if isinstance(test, Unreadable):
        return False, test.reason
    dislodged: dict[str, list[str]] = {}
    for order in outcome.orders:
        if "dislodged" in order.results and order.order.unit is not None:
            dislodged.setdefault(order.power, []).append(str(order.order.unit))
    turn = TurnFacts(outcome.phase, {p: tuple(c) for p, c in outcome.before.centers.items()},
                     {p: tuple(sorted(u)) for p, u in dislodged.items()})
    return evaluate(test, facts_for(outcome.after, author, turn, None))
