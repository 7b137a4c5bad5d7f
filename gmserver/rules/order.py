"""An order as a value: parsed from and written to the engine's notation here and nowhere else.

The engine's notation (`gmserver.engine.legal_orders` lists it):

    A PAR H                 hold
    A PAR - BUR             move;  A LON - BEL VIA: a move that insists on a convoy
    A LON - NTH - NWY       a convoyed move with its route (DATC 4.A.6; the engine reads it as VIA)
    A MUN S A BER           support to hold (`A MUN S A BER H` is read too, written without H)
    A MUN S A BER - SIL     support to move
    F NTH C A LON - NWY     convoy
    A PAR R BUR             retreat
    A PAR D                 disband (retreats) or remove (adjustments: same notation)
    F STP/NC B              build
    WAIVE                   waive a build

Locations keep their coast (`STP/NC`); `province` drops it. `str(order)` gives the canonical
notation back, so `str(Order.parse(text)) == text` for every order the engine lists. Stored
orders (database JSON) and the engine's interface stay strings: convert at those edges only.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

UnitKind = Literal["A", "F"]
Action = Literal["hold", "move", "support_hold", "support_move", "convoy", "retreat", "disband",
                 "build", "remove", "waive"]

_LOCATION = re.compile(r"[A-Z]{3}(?:/[A-Z]{2})?\Z")


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def _location(word: str, text: str) -> str:
    if not _LOCATION.match(word):
        raise ValueError(f"not engine notation: {text!r} ({word!r} is not a location like PAR or STP/NC)")
    return word


@dataclass(frozen=True)
class Unit:
    """`A PAR`, `F STP/SC`: a unit type and the location it stands in, coast included."""

    kind: UnitKind
    location: str

    @classmethod
    def parse(cls, text: str) -> Unit:
        """`A PAR` -> Unit; ValueError for anything else. Units are immutable values and one
        adjudication parses each unit on the board several times (the defaults, their check), so
        the values are kept, as orders' are (an error is never kept: it is raised anew)."""
        return _unit_parsed(text)

    @classmethod
    def _parse(cls, text: str) -> Unit:
        words = text.split()
        if len(words) != 2:
            raise ValueError(f"not a unit in engine notation: {text!r} (expected e.g. 'A PAR' or 'F STP/SC')")
        return cls.from_words(words[0], words[1], text)

    @classmethod
    def from_words(cls, kind: str, location: str, text: str) -> Unit:
        if kind not in ("A", "F"):
            raise ValueError(f"not engine notation: {text!r} ({kind!r} is not a unit type, A or F)")
        return cls(kind, _location(location, text))  # type: ignore[arg-type]

    @functools.cached_property
    def province(self) -> str:
        """`STP/SC` -> `STP` (kept in the value, as its notation is)."""
        return _province(self.location)

    @property
    def is_army(self) -> bool:
        return self.kind == "A"

    @property
    def is_fleet(self) -> bool:
        return self.kind == "F"

    def __str__(self) -> str:
        return self._text

    @functools.cached_property
    def _text(self) -> str:
        # kept in the value: units are written out many times a deadline (their orders, results, reports)
        return f"{self.kind} {self.location}"


_SIMPLE = {"H": "hold", "D": "disband", "B": "build"}
_LETTER = {"hold": "H", "disband": "D", "remove": "D", "build": "B"}


@dataclass(frozen=True)
class Order:
    """One order. `unit` is None only for `waive`; `other` is the supported or convoyed unit;
    `target` the destination (of the move, retreat, or the supported or convoyed move)."""

    action: Action
    unit: Unit | None = None
    target: str | None = None
    other: Unit | None = None
    via_convoy: bool = False
    # the sea provinces of a route written with a convoyed move, kept where the profile's datc_4a6
    # makes it count (000 VI(3)); a move with a route is always via convoy
    route: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str, phase_type: str | None = None) -> Order:
        """Engine notation -> Order; ValueError naming what is wrong for anything else.

        `phase_type` "A" (adjustments) reads `A PAR D` as a removal; otherwise it is a disband.
        Orders are immutable values and one adjudication parses each of them a few hundred times
       , so the values are kept (an error is never kept: it is raised anew)."""
        return _parsed(text, phase_type)

    @classmethod
    def _parse(cls, text: str, phase_type: str | None) -> Order:
        words = text.split()
        if words == ["WAIVE"]:
            return cls("waive")
        if len(words) < 3:
            raise ValueError(f"not engine notation: {text!r} (expected e.g. 'A PAR - BUR', 'A PAR H' or 'WAIVE')")
        unit = Unit.from_words(words[0], words[1], text)
        verb, rest = words[2], words[3:]
        if verb in _SIMPLE and not rest:
            action = _SIMPLE[verb]
            if action == "disband" and phase_type == "A":
                action = "remove"
            return cls(action, unit)  # type: ignore[arg-type]
        if verb == "-" and (len(rest) == 1 or rest[1:] == ["VIA"]):
            return cls("move", unit, _location(rest[0], text), via_convoy=len(rest) == 2)
        if verb == "-" and len(rest) >= 3 and rest[1::2] == ["-"] * (len(rest) // 2):
            places = [_location(word, text) for word in rest[0::2]]
            return cls("move", unit, places[-1], via_convoy=True, route=tuple(places[:-1]))
        if verb == "R" and len(rest) == 1:
            return cls("retreat", unit, _location(rest[0], text))
        if verb == "S" and (len(rest) == 2 or rest[2:] == ["H"]):  # the engine takes a trailing H, never writes it
            return cls("support_hold", unit, other=Unit.from_words(rest[0], rest[1], text))
        if verb in ("S", "C") and len(rest) == 4 and rest[2] == "-":
            other = Unit.from_words(rest[0], rest[1], text)
            return cls("support_move" if verb == "S" else "convoy", unit, _location(rest[3], text), other)
        raise ValueError(f"not engine notation: {text!r} (expected e.g. 'A PAR - BUR', 'A MUN S A BER - SIL', "
                         "'F NTH C A LON - NWY', 'A PAR R BUR', 'A PAR D', 'F STP/NC B' or 'WAIVE')")

    @classmethod
    def parse_or_none(cls, text: str, phase_type: str | None = None) -> Order | None:
        """For text that may not be an order at all (a stored row written by hand, a test line)."""
        try:
            return cls.parse(text, phase_type)
        except ValueError:
            return None

    @functools.cached_property
    def province(self) -> str | None:
        """The ordered unit's province without coast; None for WAIVE (kept in the value)."""
        return self.unit.province if self.unit else None

    @property
    def target_province(self) -> str | None:
        return _province(self.target) if self.target else None

    def is_support(self) -> bool:
        return self.action in ("support_hold", "support_move")

    def is_adjustment(self) -> bool:
        """A build, removal or waive (a `D` read without its phase counts: the notation is one)."""
        return self.action in ("build", "remove", "disband", "waive")

    def __str__(self) -> str:
        return self._text

    @functools.cached_property
    def _text(self) -> str:
        # kept in the value (not a field: equality, hashing and dataclasses.replace ignore it): a
        # deadline writes each order out several times (the engine, the phase record, the defaults' keys)
        return self._notation(None)

    def for_players(self) -> str:
        """The notation as players read it in a report or a confirmation: `A LON - BEL via convoy`
        where the engine's text is `A LON - BEL VIA` (a player's word, not the engine's)."""
        return self._notation(None, via="via convoy")

    def written_with(self, nationality: str) -> str:
        """The notation with a word before the supported or convoyed unit, as a player writes a
        foreign unit (003 [21]): `F POR S FRENCH F MAO - SPA/NC`. Same as `str` without one."""
        return self._notation(nationality)

    def _notation(self, nationality: str | None, via: str = "VIA") -> str:
        if self.action == "waive" or self.unit is None:
            return "WAIVE"
        head = str(self.unit)
        if self.action in _LETTER:
            return f"{head} {_LETTER[self.action]}"
        if self.action == "move" and self.route:
            return " - ".join((head, *self.route, str(self.target)))
        if self.action == "move":
            return f"{head} - {self.target}" + (f" {via}" if self.via_convoy else "")
        if self.action == "retreat":
            return f"{head} R {self.target}"
        other = f"{nationality} {self.other}" if nationality else str(self.other)
        if self.action == "support_hold":
            return f"{head} S {other}"
        verb = "S" if self.action == "support_move" else "C"
        return f"{head} {verb} {other} - {self.target}"


def order_unit(text: str) -> str | None:
    """The unit an engine order concerns, as unit notation (`A MAR S A PAR - BUR` -> `A MAR`);
    None for WAIVE and for text that is not engine notation."""
    order = Order.parse_or_none(text)
    return str(order.unit) if order and order.unit else None


@functools.lru_cache(maxsize=8192)
def _parsed(text: str, phase_type: str | None) -> Order:
    return Order._parse(text, phase_type)  # noqa: SLF001


@functools.lru_cache(maxsize=1024)
def _unit_parsed(text: str) -> Unit:
    return Unit._parse(text)  # noqa: SLF001
