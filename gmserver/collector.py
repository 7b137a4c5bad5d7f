"""The garbage collector's settings for a long-running gmserver process (`gmserver run`, the demo).

CPython's cyclic collector runs a young collection every 700 container allocations, and now and
then a full one that walks every container object alive. A daemon's heap is mostly what it built
at start and keeps: the engine's maps, the SQLAlchemy mappers, the compiled templates and
statements. At a deadline, with many games due at once, the collector took about a third of the
CPU, most of it full collections walking that heap again (docs/performance.md, "The garbage
collector at the deadline"). Two settings, applied once the daemon has started:

- what is alive then is moved out of the collector's sight (`gc.freeze`, after a collection so
  that no garbage of the start-up is kept with it): later collections walk only what was made
  since. Objects frozen are still freed when their last reference goes (reference counting);
  only a cycle among them would stay, and a daemon's start-up state lives as long as it does;
- a young collection every 10,000 allocations instead of 700: a deadline's short-lived objects
  (a game's engine state, its report) die young by reference counting, and fewer of them are
  caught alive and promoted to the older generations that full collections walk.

Not applied in tests or one-shot commands (`gmserver game list`...), which start and end
before either would matter.
"""

from __future__ import annotations

import gc

# allocations between two young collections (CPython's default: 700)
YOUNG_THRESHOLD = 10_000


def settle_after_start() -> None:
    """Collect the start-up's garbage, freeze what is alive, and collect the young generation
    less often (the reasons are the module's docstring). Once per process, after the daemon
    has started; calling it again freezes what has been made since, as it would at start."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
