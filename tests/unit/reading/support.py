"""Helpers for the reader's tests: profiles, positions and played-out games."""

from __future__ import annotations

import functools
import random

from gmserver import engine
from gmserver.rules.position import Position
from gmserver.rules.reading.model import Reading
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.ruleset import load_ruleset
from tests.support.adjudicate import adjudicate

PROFILES = ("standard", "mhr", "danivon", "email_rules", "scorpion", "gwm")


@functools.cache
def ruleset(name: str):
    return load_ruleset(name)


@functools.cache
def geography():
    return engine.map_info()


def position(phase: str = "S1901M", **units: tuple[str, ...] | list[str]) -> Position:
    return Position(phase=phase, units={p.upper(): tuple(u) for p, u in units.items()}, centers={})


@functools.cache
def opening() -> Position:
    return engine.position_from_state(engine.initial_state())


def read(text: str, pos: Position, power: str, profile: str = "standard", **kwargs) -> Reading:
    return read_orders(text, position=pos, power=power.upper(), ruleset=ruleset(profile),
                       geography=geography(), **kwargs)


def one(text: str, pos: Position, power: str, profile: str = "standard"):
    """The single line reading of a one-line text."""
    reading = read(text, pos, power, profile)
    assert len(reading.lines) == 1, reading.lines
    return reading.lines[0]


@functools.cache
def played_positions(games: int = 3, phases: int = 24, seed: int = 7) -> tuple[tuple[Position, dict], ...]:
    """(position, engine state) of every phase of a few games played with random legal orders."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = engine.initial_state()
        for _ in range(phases):
            position = engine.position_from_state(state)
            if position.phase_type == "-":
                break
            out.append((position, state))
            legal = engine.legal_orders(state)
            orders: dict[str, list[str]] = {}
            for power in position.powers_to_order():
                picks = []
                for loc in _locations(position, power):
                    options = legal.get(loc) or legal.get(loc.split("/")[0])
                    if options:
                        picks.append(rng.choice(options))
                orders[power] = picks
            state = adjudicate(state, orders).state_after
    return tuple(out)


def _locations(position: Position, power: str) -> list[str]:
    kind = position.phase_type
    if kind == "M":
        return [u.split(" ", 1)[1] for u in position.units.get(power, ())]
    if kind == "R":
        return [u.split(" ", 1)[1] for u in position.dislodged.get(power, ())]
    sites = []
    n = position.adjustments.get(power, 0)
    if n < 0:
        return [u.split(" ", 1)[1] for u in position.units.get(power, ())]
    geo = geography()
    occupied = {u.split(" ", 1)[1][:3] for us in position.units.values() for u in us}
    for c in geo.home_centres(power):
        if c in position.centers.get(power, ()) and c not in occupied:
            sites.append(c)
    return sites[:n]


def notation(value):
    """The engine notation of reader output, for comparing with expectations written by hand:
    an `Order` or `Unit` -> its str, None stays None, a tuple or list -> the same of strs."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return type(value)(notation(v) for v in value)
    return str(value)


def as_orders(previous):
    """`previous=("A PAR - BUR", ...)` written by hand -> the Order values the reader takes."""
    from gmserver.rules.order import Order

    return tuple(Order.parse(o) if isinstance(o, str) else o for o in previous)


def stored_set(orders, *args, **kwargs):
    """A `StoredSet` whose orders (and unsupportable units) are written by hand in engine notation."""
    from gmserver.rules.order import Unit
    from gmserver.rules.reading.sets import StoredSet

    if "unsupportable" in kwargs:
        kwargs["unsupportable"] = tuple(Unit.parse(u) for u in kwargs["unsupportable"])
    return StoredSet(as_orders(orders), *args, **kwargs)
