"""WHATIF's orders: lines for any power, each read for the power whose unit it orders.

A player mails order lines for their own units and for any other power's they imagine. Which
power a line is for is decided by the board, not by the player: the power whose unit (in a
retreat turn its dislodged unit, in an adjustment turn its build site or unit) the line orders.
To find it the text is read once for every power that has something to order, by the same reader
and with the same tolerance as an order set (`reader.read_orders`); a line is that power's whose
reading uses it (read as written before corrected; on a tie, the power named before the line,
then the asker). A power's name before a line ("Germany: A Mun - Bur") or alone on a line above
some ("Germany:", "Orders for Germany") is not needed; where it names another power than the
board's, the line says so. Each power's orders are then read again from its own lines alone, so
that no reading of another power's line counts for it. Nothing is filed: no set on file is read.

A line no power's reading uses is shown as the asker's reading (or the named power's) says, with
what was wrong, as a confirmation lists it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position
from gmserver.rules.reading.model import LineReading, Reading
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.reading.text import tokens
from gmserver.rules.ruleset import Ruleset

# words a heading line may hold besides the power's name ("Orders for Germany:", "German orders")
_HEADING_WORDS = frozenset({"ORDERS", "ORDER", "FOR", "OF", "THE", ":", "-", ",", "UNITS", "MOVES"})
_USED = ("accepted", "corrected")


@dataclass(frozen=True)
class ImaginedLine:
    reading: LineReading  # as the reader read it for `power` (line numbers as written)
    power: str | None  # whose order the line is; None: no power's (it could not be used)
    named: str | None = None  # the power written before the line or above it, if any


@dataclass(frozen=True)
class Imagined:
    orders: Mapping[str, tuple[Order, ...]]  # per power, the orders its lines gave
    unsupportable: tuple[Unit, ...]  # units whose hold supports are void (000 III(5), 003 [10 a/b])
    lines: tuple[ImaginedLine, ...]  # every non-empty line, in the order written

    def unused(self) -> tuple[ImaginedLine, ...]:
        """The lines to show the player: not used, corrected, or read with a remark (chatter aside)."""
        return tuple(line for line in self.lines
                     if line.reading.chatter is None
                     and (line.reading.status != "accepted" or line.reading.message is not None))


def power_heading(line: str, geography: MapInfo) -> str | None:
    """The power a line names and nothing else ("Germany:", "Orders for Germany", "German orders")."""
    words = tokens(line)
    powers = {geography.power_words[word] for word in words if word in geography.power_words}
    rest = [word for word in words if word not in geography.power_words and word not in _HEADING_WORDS]
    return next(iter(powers)) if len(powers) == 1 and not rest else None


def power_before(line: str, geography: MapInfo) -> str | None:
    """The power named first on an order line ("Germany: A Mun - Bur", "German A Mun - Bur")."""
    words = tokens(line)
    return geography.power_words.get(words[0]) if words else None


def read_imagined(text: str, *, position: Position, asker: str, ruleset: Ruleset, geography: MapInfo) -> Imagined:
    """Read WHATIF's lines (`text`, the command's word taken out) for whichever power each is for."""
    lines = text.splitlines()
    named: dict[int, str | None] = {}
    kept: list[str] = []
    heading: str | None = None
    for number, raw in enumerate(lines, 1):
        if (power := power_heading(raw, geography)) is not None:
            heading = power
            kept.append("")  # a heading is no order, nor a signature that ends the orders above it
            continue
        kept.append(raw)
        if raw.strip():
            named[number] = power_before(raw, geography) or heading
    body = "\n".join(kept)
    powers = sorted(set(position.powers_to_order()) | {asker})
    whole = {power: _read(body, position, power, ruleset, geography) for power in powers}
    first = {power: _by_line(reading) for power, reading in whole.items()}
    owner = {number: _owner(number, first, named.get(number), asker) for number in named}
    second: dict[str, Reading] = {}
    for power in sorted({p for p in owner.values() if p is not None}):
        if all(owner.get(line.line) == power for line in whole[power].lines if line.status in _USED):
            second[power] = whole[power]  # it used no other power's line: read again, it reads the same
            continue
        own = "\n".join(raw if owner.get(number) == power else "" for number, raw in enumerate(kept, 1))
        second[power] = _read(own, position, power, ruleset, geography)
    shown = []
    for number in named:
        power = owner[number]
        source = _by_line(second[power]) if power is not None else first[named.get(number) or asker]
        reading = source.get(number)
        if reading is None:
            continue
        if power is not None and named.get(number) not in (None, power):
            reading = replace(reading, message="; ".join(filter(None, (
                reading.message, f"read as {power.title()}'s, whose unit it orders, not "
                                 f"{str(named[number]).title()}'s as written"))))
        shown.append(ImaginedLine(reading, power, named.get(number)))
    return Imagined(orders={power: reading.orders for power, reading in second.items() if reading.orders},
                    unsupportable=tuple(unit for reading in second.values() for unit in reading.unsupportable),
                    lines=tuple(shown))


def _read(text: str, position: Position, power: str, ruleset: Ruleset, geography: MapInfo) -> Reading:
    return read_orders(text, position=position, power=power, ruleset=ruleset, geography=geography)


def _by_line(reading: Reading) -> dict[int, LineReading]:
    """The reading of each line (a line holding several orders: its first reading that was used)."""
    found: dict[int, LineReading] = {}
    for line in reading.lines:
        if line.line not in found or (found[line.line].status not in _USED and line.status in _USED):
            found[line.line] = line
    return found


def _owner(number: int, readings: Mapping[str, Mapping[int, LineReading]], named: str | None,
           asker: str) -> str | None:
    """The power whose reading uses line `number`: read as written first, then corrected; on a tie
    the power named before the line, then the asker, then the first in alphabetical order."""
    for status in _USED:
        using: Sequence[str] = [power for power, lines in readings.items()
                                if (line := lines.get(number)) is not None and line.status == status]
        if using:
            return next((power for power in (named, asker) if power in using), using[0])
    return None
