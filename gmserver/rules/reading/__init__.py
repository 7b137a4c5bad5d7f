"""The order reader: read orders the way a careful human GM does (the options on submission,
interpretation and order sets, and each profile's province names: see docs/architecture.md).

Pure: standard library and gmserver.rules only; no engine, no I/O. Orders in and out are
`gmserver.rules.order.Order` values (units `Unit`): the reader builds them, never notation text;
the callers write `str(order)` where the database or the engine needs text.

    read_orders(text, position=..., power=..., ruleset=..., geography=...) -> Reading
    read_mail(message, position=..., power=..., ruleset=..., geography=...) -> Reading   (a whole email, as intake reads it)
    extract_order_text(message) -> str
    reading_to_json(reading) -> dict
    effective_orders(sets, ruleset) -> tuple[Order, ...]
    file_set(on_file, new, ruleset) -> Filing   (a new set on top of those on file, and what the reply says)
    effective_contingent(sets, ruleset) -> tuple[str, ...]   (000 II(5), 001 II(6))
    read_contingent(lines, position=..., power=..., ruleset=..., geography=..., turn=...) -> Reading
    contingent_source(phase) -> str | None; turn_facts(movement_position, results) -> TurnFacts

The modules, in the order a line is read: reader (a message, line by line), line_conditions (a
line's condition), line_orders (the orders on a line), grammar (the words of one order),
interpret (one order against the position: verdict, units, moves, support, retreat_adjustment),
combine (one order per unit), sets (a set on top of those on file); conditions and condition_facts
read and test conditions. Names with a leading underscore are private to this package, not to
their module: the modules of one step import them from each other, callers outside never do.
"""

from gmserver.rules.reading.condition_facts import TurnFacts, contingent_source, turn_facts
from gmserver.rules.reading.mail import read_mail
from gmserver.rules.reading.message import extract_order_text
from gmserver.rules.reading.model import LineReading, Reading
from gmserver.rules.reading.reader import read_contingent, read_orders
from gmserver.rules.reading.sets import (
    StoredSet, combine_sets, effective_contingent, effective_orders, file_set, ordered_sets, out_of_order_versions,
    version_marker,
)
from gmserver.rules.reading.output import reading_to_json

__all__ = [
    "LineReading", "Reading", "StoredSet", "TurnFacts", "combine_sets",
    "contingent_source", "effective_contingent", "effective_orders", "extract_order_text", "file_set", "ordered_sets",
    "out_of_order_versions", "read_contingent", "read_mail", "read_orders", "reading_to_json", "turn_facts",
    "version_marker",
]
