"""Proxies: a power's orders sent by someone else, its "holder".

`proxy_policy`: forbidden (001 II(5), DATC 4.E.5 [P]); gm_approval (000 II(3): "Orders submitted
by proxy will not be permitted EXCEPT IN EXTREME CASES. The GM has final ruling on allowing
Proxy"): a request waits for the GM; allowed_with_notice (003 [19]: "Any player may at any time
write a proxy ... Only the GM and the player concerned will be informed"): in force at once.
`proxy_precedence`: whose set counts when both the holder and the owner sent one.
`proxy_cancel_notifies_holder` (003 [19]: "may cancel the proxy at any time without notifying
the player concerned"): after a silent cancellation the holder's sets are still taken and
confirmed exactly as before, and simply not used.

Pure: the services keep the proxies (services/features/proxies.py); this module decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gmserver.rules.reading.rule_words import rule_in_words
from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome
from gmserver.rules.reading.sets import StoredSet, effective_orders
from gmserver.rules.ruleset import Ruleset


@dataclass(frozen=True)
class ProxyState:
    """The proxy that concerns a power in the current turn: its holder's address and whether
    it is in force (False: cancelled without telling the holder, 003 [19])."""

    holder: str
    in_force: bool
    units: frozenset[str] | None = None  # 003 [19]: the provinces of the proxied units; None: all


def request_status(ruleset: Ruleset, *, by_gm: bool) -> str | None:
    """The status a new proxy starts in: "active", "requested" (held for the GM), or None where
    the house rules forbid proxies. The GM's own proxy is the GM's ruling (000 II(3))."""
    policy = ruleset.proxy_policy
    if policy == "forbidden":
        return None  # 001 II(5) "Orders submitted by proxy will not be permitted"
    if policy == "gm_approval" and not by_gm:
        return "requested"  # 000 II(3): "The GM has final ruling on allowing Proxy"
    return "active"  # 003 [19] allowed_with_notice, or the GM's own ruling


def covers(until_phase: str | None, phase: str) -> bool:
    """A proxy covers the phases up to `until_phase`, the last it covers; one without lasts until
    cancelled (003 [19] "for a preset period of time or indefinitely")."""
    return until_phase is None or _key(phase) <= _key(until_phase)


def until_after(phase: str, turns: int) -> str:
    """The last phase of a proxy for `turns` game turns from `phase` (this one counted): the
    phase just before the movement turn that comes `turns` movement turns later."""
    movement = phase
    for _ in range(turns):
        movement = _next_movement(movement)
    year = int(movement[1:5])
    return f"W{year - 1}A" if movement[0] == "S" else f"S{year}R"


def _next_movement(phase: str) -> str:
    year = int(phase[1:5])
    return f"F{year}M" if phase[0] == "S" else f"S{year + 1}M"  # spring moves or retreats: the fall next


def _key(phase: str) -> tuple[int, int, int]:
    """Phases in game order: year, season (spring, fall, winter), movement before retreats."""
    return int(phase[1:5]), "SFW".index(phase[0]), "MRA".index(phase[-1])


@dataclass(frozen=True)
class ProxyWords:
    """A proxy as a player or the GM writes it after the holder: "turn" (this one only), a number
    of turns, the provinces of some units (003 [19])."""

    for_turn: bool
    turns: int | None
    units: tuple[str, ...]


def read_proxy_words(words: Sequence[str]) -> ProxyWords:
    """"turn", "3 turns", "PAR MAR" in any order, after the holder."""
    numbers = [int(word) for word in words if word.isdigit() and int(word) > 0]
    units = tuple(word for word in words if not word.isdigit() and word.lower() not in ("turn", "turns"))
    return ProxyWords(for_turn=not numbers and any(w.lower() in ("turn", "turns") for w in words),
                      turns=numbers[0] if numbers else None, units=units)


def sets_that_count(sets: Sequence[StoredSet], proxy: ProxyState | None, ruleset: Ruleset) -> list[StoredSet]:
    """The sets of one power that are read for the turn, given its proxy.

    No proxy in force: the owner's sets only (a holder's set after a silent cancellation is
    kept but not used, 003 [19]). In force, `holder_then_owner`: the holder's sets if the holder
    sent any, else the owner's; `holder_only`: the holder's alone."""
    holder = [s for s in sets if s.by_proxy]
    owner = [s for s in sets if not s.by_proxy]
    if proxy is None or not proxy.in_force:
        return owner
    if proxy.units is not None:
        return list(sets)  # some units only: both sides are read, unit by unit (orders_that_count)
    if ruleset.proxy_precedence == "holder_only":
        return holder
    return holder or owner  # holder_then_owner [P]


def orders_that_count(sets: Sequence[StoredSet], proxy: ProxyState | None, ruleset: Ruleset) -> tuple[Order, ...]:
    """The power's orders for the turn. A proxy for some units (003 [19]): the holder's orders
    for those units and the owner's for the rest; a proxied unit the holder gave no order keeps
    the owner's under `holder_then_owner`, none (it holds) under `holder_only`. The holder's
    orders for units not proxied are not used."""
    if proxy is None or not proxy.in_force or proxy.units is None:
        return effective_orders(sets_that_count(sets, proxy, ruleset), ruleset)
    owner = effective_orders([s for s in sets if not s.by_proxy], ruleset)
    holder = tuple(o for o in effective_orders([s for s in sets if s.by_proxy], ruleset)
                   if _province(o) in proxy.units)
    covered = proxy.units if ruleset.proxy_precedence == "holder_only" else {_province(o) for o in holder}
    return tuple(o for o in owner if _province(o) not in covered) + holder


def _province(order: Order) -> str | None:
    return order.unit.province if order.unit is not None else None


def units_after(units: frozenset[str], outcomes: Sequence[OrderOutcome]) -> frozenset[str]:
    """The provinces of the proxied units after a phase: a unit that moved or retreated takes
    its proxy with it (003 [19]: the proxy is for the units, wherever they go)."""
    moved = {o.order.unit.province: o.order.target_province for o in outcomes
             if o.succeeded and o.order.action in ("move", "retreat") and o.order.unit is not None
             and o.order.target_province is not None}
    return frozenset(moved.get(province, province) for province in units)


def notified_on_cancel(ruleset: Ruleset) -> bool:
    """proxy_cancel_notifies_holder: is the holder told when the proxy is cancelled?"""
    return ruleset.proxy_cancel_notifies_holder


_WORDS = {
    "forbidden": "orders may not be sent by proxy",
    "gm_approval": "orders may be sent by proxy only where the GM allows it",
    "allowed_with_notice": "a player may name a proxy to send their orders; only the GM and the proxy are told",
}


def policy_words(ruleset: Ruleset) -> str:
    """The proxy rule in words with its clause, e.g. "... (000 II(3))": players never read keys."""
    # a profile silent on proxies cites the DATC [P] for forbidding them
    cited = ruleset.cites("proxy_policy") or ("DATC 4.E.5" if ruleset.proxy_policy == "forbidden" else "")
    return _WORDS[ruleset.proxy_policy] + (f" ({rule_in_words(cited)})" if cited else "")
