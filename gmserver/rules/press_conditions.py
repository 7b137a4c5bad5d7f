"""Conditional press (`conditional_press`; 002 PRESS 4, 003 [9] "Press submitted may be
conditional on the season's moves"): the condition of a press heading ("PRESS IF I GAIN BELGIUM")
is decided on the season's results with the same objective tests as conditional orders
(gmserver.rules.reading.conditions, `objective_only`). A condition that cannot be tested is false.
Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from gmserver.rules.geography import MapInfo
from gmserver.rules.position import PhaseOutcome
from gmserver.rules.press import power_named
from gmserver.rules.reading.condition_facts import TurnFacts, evaluate, facts_for
from gmserver.rules.reading.conditions import Unreadable, parse_condition
from gmserver.rules.reading.reader import reading_context
from gmserver.rules.reading.text import tokens
from gmserver.rules.ruleset import Ruleset


def condition_holds(condition: str, negated: bool, author: str, outcome: PhaseOutcome, ruleset: Ruleset,
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


# --- conditions on other press (conditional_press = moves_and_press, 002 PRESS 4 "Press can be
# conditional on moves and other press") ---------------------------------------------------------
#
# Two forms only, both decided by what the same report publishes, nothing a person must judge:
#     PRESS IF PRESS ITEM 12 IS PUBLISHED       the item numbered 12 (its author's confirmation
#                                               gives the number) is published with this report
#     PRESS IF ENGLAND'S PRESS IS PUBLISHED     some press shown as from England (white press by
#     PRESS IF PRESS FROM ENGLAND IS PUBLISHED  England, black press signed England) is
# and the same with UNLESS. A condition that mentions press in any other way is refused at once.

_ITEM = re.compile(r"^press\s+(?:item\s+)?(?:no\.?\s*|number\s+|#\s*)?(?P<item>\d{1,9})\s+(?:is\s+)?published$")
_POWER = re.compile(r"^(?:(?P<owner>[a-z-]+?)(?:'s|’s|s')?\s+press|press\s+(?:from|by)\s+(?P<from>[a-z-]+))"
                    r"\s+(?:is\s+)?published$")
PRESS_CONDITION_FORMS = "\"if press item 12 is published\" or \"if England's press is published\""


@dataclass(frozen=True)
class PressCondition:
    """A condition on other press: `item` (a press item's number) or `power` (press shown as from it)."""

    item: int | None = None
    power: str | None = None


def read_press_condition(condition: str) -> PressCondition | str | None:
    """The press condition `condition` states; None when it does not speak of press (a condition
    on the season's moves); a sentence saying why, when it speaks of press in another way."""
    words = " ".join(condition.casefold().replace("’", "'").split()).strip(" .!")
    if not re.search(r"\bpress\b", words):
        return None
    if found := _ITEM.match(words):
        return PressCondition(item=int(found["item"]))
    if (found := _POWER.match(words)) and (power := power_named(found["owner"] or found["from"])):
        return PressCondition(power=power)
    return (f"the condition \"{condition}\" speaks of press but is not one the server can decide: write "
            f"{PRESS_CONDITION_FORMS}")


@dataclass(frozen=True)
class Candidate:
    """A press item waiting for the report: `shown` the power it is shown as from (None for grey and
    dark grey press), its press condition if it has one, and `negated` for UNLESS."""

    id: int
    shown: str | None
    condition: PressCondition | None = None
    negated: bool = False


def published(candidates: Sequence[Candidate]) -> set[int]:
    """The items the report publishes (002 PRESS 4), whose move conditions have held already.

    Positive conditions are settled by repetition until nothing changes, so a chain (13 if 12, 12
    if England's) is followed and a circle (12 if 13, 13 if 12) publishes neither. An UNLESS
    condition is decided on what the positive ones publish, where it counts as not published
    itself; the positive conditions are then settled again with the UNLESS items added."""
    plain = {c.id for c in candidates if c.condition is None}
    first = _settle(candidates, plain)
    unless = {c.id for c in candidates if c.condition is not None and c.negated and not _holds(c, candidates, first)}
    return _settle(candidates, first | unless)


def _settle(candidates: Sequence[Candidate], shown: set[int]) -> set[int]:
    shown = set(shown)
    while added := {c.id for c in candidates if c.condition is not None and not c.negated
                    and c.id not in shown and _holds(c, candidates, shown)}:
        shown |= added
    return shown


def _holds(candidate: Candidate, candidates: Sequence[Candidate], shown: set[int]) -> bool:
    condition = candidate.condition
    assert condition is not None
    if condition.item is not None:
        return condition.item in shown
    return any(other.id in shown and other.id != candidate.id and other.shown == condition.power
               for other in candidates)
