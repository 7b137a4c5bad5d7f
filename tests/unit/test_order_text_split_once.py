"""Order notation is split in one module: gmserver/rules/order.py (issue 7 item 2).

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
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gmserver"
ALLOWED = {"rules/order.py", "rules/reading/text.py"}
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
