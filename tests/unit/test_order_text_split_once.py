"""Order notation is split in one module: gmserver/rules/order.py.

Every other module takes an `Order` (`Order.parse(text)`) and asks it for the unit, the action,
the target. This test reads every module under gmserver/ with `ast` (importing nothing) and
fails on a string method that takes text apart -- `split`, `rsplit`, `partition`,
`rpartition`, `startswith`, `endswith` -- called on something named like order text:

- a name or attribute whose name is `order`, `orders`, `implied`, or has `order`/`orders` as
  one of its underscore-separated words (`order`, `verdict.order`, `o.order`, `first_order`,
  `verdict.implied`), subscripted or not (`orders[0]`);
- `str(...)` of such a thing, or of a subscript with the key "order" (`str(row["order"])`).

Allowed: gmserver/rules/order.py (the notation's one home) and gmserver/rules/reading/text.py
(the reader tokenises what players write, which is not notation).

Its limits, said plainly: it goes by names. Order text held in a variable called `o`, `c`,
`line` or `text` and split there is not seen, nor a substring test (`" - " in o`) or a regular
expression over order text; a reviewer still has to look for those. What it does catch is the
shape this codebase used before the Order value: `order.split()` and `words[2] == "S"`.

The other direction, writing notation: `str(order)` writes it, in gmserver/rules/order.py only.
A second check reads every f-string under gmserver/ and fails on the shapes the reader used to
write orders with (`f"{unit} H"`, `f"{unit} - {target}"`, `f"{unit} S {target} - {dest}"`,
`f"{province} VIA"`, `f"F {location} B"`):

- a literal piece that is exactly " H", " D", " B" or " VIA" and ends the f-string right after
  a `{...}` placeholder;
- a literal piece that is exactly " - ", " S ", " C " or " R " between two placeholders;
- a literal piece that is exactly "A " or "F " opening the f-string before a placeholder.

Its limits: it sees f-strings only, by their literal pieces. Notation written with `+`,
`%`, `.format()` or `" ".join(...)`, or an f-string whose pieces carry more words
(`f"read as {unit} H."`, `f"{head}{joint}{location}"`) is not seen; a message for players that
happens to have one of these shapes (`f"{a} - {b}"` for a range) is reported and must be
worded otherwise. Nothing outside gmserver/ (tests, benchmarks, scripts) is read.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gmserver"
ALLOWED = {"rules/order.py", "rules/reading/text.py"}
WRITERS_ALLOWED = {"rules/order.py"}
NOTATION_TAILS = {" H", " D", " B", " VIA"}
NOTATION_JOINTS = {" - ", " S ", " C ", " R "}
NOTATION_HEADS = {"A ", "F "}
TEXT_METHODS = {"split", "rsplit", "partition", "rpartition", "startswith", "endswith"}
ORDER_NAME = re.compile(r"^(implied|orders?)$|^orders?_|_orders?$|_orders?_")


def _names_order_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and ORDER_NAME.search(key.value):
            return True
        return _names_order_text(node.value)
    if isinstance(node, ast.Name):
        return bool(ORDER_NAME.search(node.id))
    if isinstance(node, ast.Attribute):
        return bool(ORDER_NAME.search(node.attr))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        return _names_order_text(node.args[0])
    return False


def order_text_taken_apart(source: str, filename: str = "<source>") -> Iterator[tuple[int, str]]:
    """(line, code) of every place in `source` that takes order text apart by hand."""
    for node in ast.walk(ast.parse(source, filename=filename)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in TEXT_METHODS and _names_order_text(node.func.value)):
            yield node.lineno, ast.unparse(node)


def test_the_check_sees_the_old_shapes() -> None:
    old = '''
words = order.split()
unit = " ".join(str(row["order"]).split()[:2])
moved = verdict.implied.split()[:2]
built = o.order.endswith(" B")
first = orders[0].split()
kind, _, rest = first_order.partition(" ")
'''
    assert sorted(line for line, _ in order_text_taken_apart(old)) == [2, 3, 4, 5, 6, 7]
    fine = '''
words = line.split()
subject = " ".join(subject.split())
parts = order_sets.split  # an attribute, not a call
key = border.split("/")
'''
    assert list(order_text_taken_apart(fine)) == []


def test_no_module_but_the_order_value_splits_order_text() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in ALLOWED:
            continue
        for line, code in order_text_taken_apart(path.read_text(encoding="utf-8"), str(path)):
            found.append(f"gmserver/{relative}:{line}: {code}")
    assert not found, "order text taken apart outside gmserver/rules/order.py (use Order.parse):\n" + "\n".join(found)


def _writes_notation(node: ast.JoinedStr) -> bool:
    parts = node.values
    for i, part in enumerate(parts):
        if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
            continue
        after_value = i > 0 and isinstance(parts[i - 1], ast.FormattedValue)
        before_value = i + 1 < len(parts) and isinstance(parts[i + 1], ast.FormattedValue)
        if after_value and i == len(parts) - 1 and part.value in NOTATION_TAILS:
            return True
        if after_value and before_value and part.value in NOTATION_JOINTS:
            return True
        if i == 0 and before_value and part.value in NOTATION_HEADS:
            return True
    return False


def order_notation_written(source: str, filename: str = "<source>") -> Iterator[tuple[int, str]]:
    """(line, code) of every f-string in `source` that writes engine notation by hand."""
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.JoinedStr) and _writes_notation(node):
            yield node.lineno, ast.unparse(node)


def test_the_writing_check_sees_the_old_shapes() -> None:
    old = '''
hold = f"{unit} H"
move = f"{unit} - {target}"
support = f"{unit} S {target} - {destination}"
convoy = f"{unit} C {target} - {province}"
by_convoy = f"{province} VIA"
build = f"F {location} B"
army = f"A {province} B"
disband = f"{unit} D"
retreat = f"{unit} R {choices[0]}"
'''
    assert sorted(line for line, _ in order_notation_written(old)) == list(range(2, 11))
    fine = '''
words = f"{unit} -> {target}"
said = f"'{words}' is not an order: read as {hold}."
place = f"{kind} {name}"
label = f"{name} ({location})"
hint = f" Did you mean {order}?"
'''
    assert list(order_notation_written(fine)) == []


def test_no_module_but_the_order_value_writes_order_notation() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in WRITERS_ALLOWED:
            continue
        for line, code in order_notation_written(path.read_text(encoding="utf-8"), str(path)):
            found.append(f"gmserver/{relative}:{line}: {code}")
    assert not found, "order notation written outside gmserver/rules/order.py (build an Order, use str):\n" + \
        "\n".join(found)
