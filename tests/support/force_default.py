"""A pytest plugin for scripts/option_mutation.py: every Ruleset built while the tests run holds
the catalogue default for the option named in $GMSERVER_FORCE_DEFAULT, whatever its profile,
snapshot or override says. A test that still passes did not depend on that option's value.

Used only with `-p tests.support.force_default`; without the variable it changes nothing.
Every way a Ruleset is made (a profile file, a snapshot, an override, `dataclasses.replace`)
ends in `Ruleset.__init__`, so wrapping it catches them all.
"""

from __future__ import annotations

import dataclasses
import os

from gmserver.rules.ruleset import Ruleset
from gmserver.rules.ruleset_options import OPTIONS

FORCED = os.environ.get("GMSERVER_FORCE_DEFAULT", "")


def _force(ruleset: Ruleset, name: str) -> None:
    default = OPTIONS[name].default
    if name.startswith("vote."):
        _, kind, setting = name.split(".")
        rules = dataclasses.replace(getattr(ruleset.vote, kind), **{setting: default})
        object.__setattr__(ruleset, "vote", dataclasses.replace(ruleset.vote, **{kind: rules}))
    else:
        object.__setattr__(ruleset, name, default)  # frozen: the only way in after __init__


if FORCED:
    if FORCED not in OPTIONS:
        raise SystemExit(f"GMSERVER_FORCE_DEFAULT={FORCED!r} is not an option")
    _original_init = Ruleset.__init__

    def _forced_init(self: Ruleset, *args: object, **kwargs: object) -> None:
        _original_init(self, *args, **kwargs)
        _force(self, FORCED)

    Ruleset.__init__ = _forced_init  # type: ignore[method-assign]
