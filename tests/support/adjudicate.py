"""`engine.adjudicate` refuses incomplete orders: tests that give only some orders (the DATC
cases, report fixtures) complete them with the rules' defaults first, as services.turn.turns does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gmserver.rules.position import PhaseOutcome
from gmserver.rules.ruleset import default_ruleset
from gmserver.services.turn.adjudication import adjudicate_with_defaults


def adjudicate(state: Mapping[str, Any], orders: Mapping[str, Sequence[str]], ruleset: Any = None,
               civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome:
    return adjudicate_with_defaults(state, orders, ruleset or default_ruleset(), civil_disorder)
