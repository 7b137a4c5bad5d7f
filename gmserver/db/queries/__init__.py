"""The queries the services share, one module per area: games, phases, order sets, players,
inbound and outgoing mail.

Services call these instead of writing the same SELECT in several places; each function takes
the caller's session, so the caller's transaction (and its row locks) still decides what is
atomic. Queries used by one use case only and bound to its locking (the outbox's claiming and
recording in services/base/outbox.py) stay next to that use case.
"""

from gmserver.db.queries import (
    absences,
    games,
    gm_actions,
    inbound,
    ordersets,
    outbox,
    phases,
    players,
    proxies,
    rows,
    signups,
    votes,
)

__all__ = [
    "absences", "games", "gm_actions", "inbound", "ordersets", "outbox", "phases", "players", "proxies", "rows",
    "signups", "votes",
]
