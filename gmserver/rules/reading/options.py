"""Ruleset options the reader uses, with the catalogue defaults, and the clause behind each value.

The reader asks `option(ruleset, name)` rather than reading attributes directly so that a ruleset
missing an option falls back to the catalogue default (the `standard` profile).
`clause(ruleset, name)` names the document clause that decides the option in the game's profile
(its `clause.KEY` line, `Ruleset.cites`), for the confirmation ("000 III(6)"); options decided by a
proposal cite their source ("DATC 4.D.3").
"""

from __future__ import annotations

import functools
from typing import Any

from gmserver.rules.ruleset import DERIVED, Ruleset, default_ruleset
from gmserver.rules.ruleset_options import OPTIONS

_standard = functools.cache(default_ruleset)  # built once: option() is on the reading hot path


PROFILES = ("mhr", "danivon", "email_rules", "scorpion", "gwm")


def option(ruleset: Ruleset, name: str) -> Any:
    """The ruleset's value for `name`, or the catalogue default (the `standard` profile's) when
    the ruleset has none."""
    value = getattr(ruleset, name, None)
    if value is None:
        return getattr(_standard(), name)
    return value


def profile_of(ruleset: Ruleset) -> str | None:
    for attribute in ("profile", "id", "name", "profile_id"):
        value = getattr(ruleset, attribute, None)
        if isinstance(value, str) and value in PROFILES + ("standard",):
            return value
    return None


def clause(ruleset: Ruleset, name: str) -> str:
    """The clause deciding option `name` in the ruleset's profile, e.g. "000 III(6)"."""
    cited = ruleset.cites(name)
    if cited:
        return cited
    value = option(ruleset, name)
    # the rulebook or the DATC where the profile's document is silent (the catalogue's sources)
    sources = OPTIONS[name].sources if name in OPTIONS else DERIVED.get(name, {})
    proposal = sources.get(value)
    if proposal:
        return proposal
    # a value no clause of this profile gives (silent, or changed by the GM): the option itself
    return f"{name} = {value}"
