"""The order reader: read orders the way a careful human GM does (the options on submission,
interpretation and order sets, and each profile's province names: see docs/architecture.md).

Pure: standard library and gmserver.rules only; no engine, no I/O. Orders in and out are
`gmserver.rules.order.Order` values (units `Unit`): the reader builds them, never notation text;
the callers write `str(order)` where the database or the engine needs text.

    reader.read_orders(text, position=..., power=..., ruleset=..., geography=...) -> Reading
    mail.read_mail(message, position=..., power=..., ruleset=..., geography=...) -> Reading   (a whole email, as intake reads it)
    message.extract_order_text(message) -> str
    output.reading_to_json(reading) -> dict
    sets.effective_orders(sets, ruleset) -> tuple[Order, ...]
    sets.file_set(on_file, new, ruleset) -> Filing   (a new set on top of those on file, and what the reply says)
    sets.effective_contingent(sets, ruleset) -> tuple[str, ...]   (000 II(5), 001 II(6))
    reader.read_contingent(lines, position=..., power=..., ruleset=..., geography=..., turn=...) -> Reading
    condition_facts.contingent_source(phase) -> str | None; condition_facts.turn_facts(movement_position, results) -> TurnFacts

The modules, in the order a line is read: reader (a message, line by line), line_conditions (a
line's condition), line_orders (the orders on a line), grammar (the words of one order),
interpret (one order against the position: verdict, units, moves, support, retreat_adjustment),
combine (one order per unit), sets (a set on top of those on file); conditions and condition_facts
read and test conditions. Names with a leading underscore are private to this package, not to
their module: the modules of one step import them from each other, callers outside never do.

Import each name from its module (above): this package loads none of them, so that a caller that
needs one step (the order sets' rules, for `gmserver game show`) does not load the whole reader.
"""
