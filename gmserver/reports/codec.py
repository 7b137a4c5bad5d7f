"""Frozen dataclasses as JSON values and back, driven by their fields' type hints: the stored turn
report (services/base/report_copies.py) is JSON that any later gmserver knowing its version can read, a
GM can read with a database tool, and reading it runs no code (a pickle would run any).

One pair of functions walks a value and its type hint together (`typing.get_type_hints` of each
dataclass): a dataclass is an object of its fields, a tuple an array, a Mapping an object (keys
are strings, in their order), `X | None` null or X, a datetime ISO 8601 with its UTC offset, an
Order or a Unit its engine notation (rules/order.py: `str` and `parse` are each other's inverse).
Anything else is refused with the path of the value, so that a field of a new kind fails the
writing loudly instead of being stored as something it cannot be read back as.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
import types
import typing
from collections.abc import Callable, Mapping
from datetime import datetime
from json.encoder import encode_basestring_ascii
from typing import Any

from gmserver.rules.order import Order, Unit

# values written as text: (write, read)
_TEXT: dict[type, tuple[Callable[[Any], str], Callable[[str], Any]]] = {
    datetime: (datetime.isoformat, datetime.fromisoformat),
    Unit: (str, Unit.parse),
    Order: (str, Order.parse),
}
_SCALARS = (str, int, float, bool)
_STR = frozenset((str,))
_INT = frozenset((int,))
_SEQUENCES = frozenset((tuple, list))  # what a tuple hint takes (a list is written as the tuple it reads back as)


class CodecError(ValueError):
    """A value that has no JSON form here, or JSON that is not a value of the type expected."""


def to_json(value: Any, hint: Any, at: str = "") -> Any:
    """`value`, of type `hint`, as JSON values (dict, list, str, int, float, bool, None)."""
    try:
        return _encoder(hint)(value)
    except CodecError:
        pass  # the plan checks what the walk below checks, without the paths: walk again to say where
    return _walk_to_json(value, hint, at)


def to_json_text(value: Any, hint: Any, at: str = "") -> str:
    """`json.dumps(to_json(value, hint), check_circular=False)`, the same text, written in one pass
    without the tree of dicts and lists (a report has some thousand values, and the tree's
    containers are what set off the garbage collector at the deadline): json's default
    separators (", ", ": "), ASCII (what is not ASCII escaped, `ensure_ascii`), keys in their
    order. The same checks as `to_json`, and a value that fails them is named by its path."""
    try:
        return _writer(hint)(value)
    except CodecError:
        pass  # as to_json: walk again to say where
    return _dumps(_walk_to_json(value, hint, at))


# json.dumps with its defaults, check_circular=False: what the "any" values (JSON values as they are) are written with
_dumps = json.JSONEncoder(check_circular=False).encode
Writer = Callable[[Any], str]


# The texts written of values that cannot change, by the value's identity, kept by the writer of
# each type hint (one value may be written under two hints, as itself and as its base class) with
# the value, so that its id is not another's while it is kept: an Order, a Unit, and a frozen
# dataclass of scalars (a report's order line). A deadline's reports share many of them:
# rules/order.py keeps the orders it parses, reports/turn.py the order lines it makes. Each
# writer's emptied when it holds _KEPT_MOST (some 3 MB of order lines; a daemon runs for months).
Kept = dict[int, tuple[Any, str]]
_KEPT_MOST = 10_000


def _kept(kept: Kept, value: Any, text: str) -> str:
    """`text`, kept in `kept` as what `value` is written as."""
    if len(kept) >= _KEPT_MOST:
        kept.clear()
    kept[id(value)] = (value, text)
    return text


def _float_text(value: Any) -> str:
    """A float as json writes it (NaN and the infinities as words: allow_nan), an int as an int."""
    if not isinstance(value, float):
        return int.__repr__(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _scalar_text(value: Any) -> str:
    """A JSON scalar (a Literal's value) as json writes it."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return encode_basestring_ascii(value)
    if isinstance(value, int):
        return int.__repr__(value)
    return _float_text(value)


@functools.cache
def _writer(hint: Any) -> Writer:
    """`to_json_text` for values of `hint`, planned once per hint: `_encoder`'s plan, each value
    written as the text json writes for what `_encoder` returns for it."""
    kind, arg = _shape(hint)
    if kind == "optional":
        inner = _writer(arg)
        return lambda value: "null" if value is None else inner(value)
    if kind == "text":
        write, escape, kept = _TEXT[hint][0], encode_basestring_ascii, Kept()
        # an Order or a Unit is kept; a time is written in C at once, and a report's are its own
        keep = _kept if dataclasses.is_dataclass(hint) else lambda kept, value, text: text

        def text(value: Any) -> str:
            known = kept.get(id(value))
            if known is not None and known[0] is value:
                return known[1]
            if not isinstance(value, hint):
                raise CodecError
            written = write(value)
            back = _read_back(hint, written)
            if back is value or back == value:
                return keep(kept, value, escape(written))
            return _dumps(_walk_to_json(value, hint))  # written field by field (a removal): rare
        return text
    if kind == "dataclass":
        return _dataclass_writer(hint)
    if kind == "tuple":
        if len(arg) == 2 and arg[1] is Ellipsis:
            return _sequence_writer(arg[0])
        items = [_writer(item_hint) for item_hint in arg]

        def fixed(value: Any) -> str:
            if not isinstance(value, (tuple, list)) or len(value) != len(items):
                raise CodecError
            return f"[{', '.join([write(v) for write, v in zip(items, value, strict=False)])}]"
        return fixed
    if kind == "mapping":
        return _mapping_writer(arg)
    encode = _encoder(hint)  # the checks; what it returns is the value, a scalar
    if kind == "scalar" and hint is str:
        return lambda value: encode_basestring_ascii(encode(value))
    if kind == "scalar" and hint is bool:
        return lambda value: "true" if encode(value) else "false"
    if kind == "scalar" and hint is int:
        return lambda value: int.__repr__(encode(value))
    if kind in ("scalar", "literal"):
        return lambda value: _scalar_text(encode(value))
    return lambda value: _dumps(encode(value))


def _sequence_writer(item_hint: Any) -> Writer:
    """`tuple[X, ...]` as a JSON array: a tuple of str (names) escaped at once, the others item by item."""
    item, names = _writer(item_hint), frozenset(_as_is(item_hint)) == _STR

    def sequence(value: Any) -> str:
        if not isinstance(value, (tuple, list)):
            raise CodecError
        if names and {*map(type, value)} <= _STR:
            return f"[{', '.join(map(encode_basestring_ascii, value))}]"
        return f"[{', '.join(map(item, value))}]"
    return sequence


def _mapping_writer(item_hint: Any) -> Writer:
    """`Mapping[str, X]` as a JSON object, keys in their order: a mapping of counts (power ->
    centres) or of names (power -> its units) written in one expression, the others value by
    value (as `_mapping_encoder` takes the same ways)."""
    item, escape = _writer(item_hint), encode_basestring_ascii
    counts, names = frozenset(_as_is(item_hint)) == _INT, _items_as_is(item_hint) == _STR

    def mapping(value: Any) -> str:
        # type(...) is dict: most are, and isinstance of an ABC is a call in Python
        if type(value) is not dict and not isinstance(value, Mapping):
            raise CodecError
        if not value:  # a position's dislodged units, retreats, adjustments: most often none
            return "{}"
        if not {*map(type, value)} <= _STR and not all(isinstance(key, str) for key in value):
            raise CodecError
        values = value.values()
        if counts and {*map(type, values)} <= _INT:  # an exact int formats as json writes it
            return f"{{{', '.join([f'{escape(key)}: {v}' for key, v in value.items()])}}}"
        if names and {*map(type, values)} <= _SEQUENCES and {*map(type, itertools.chain.from_iterable(values))} <= _STR:
            return f"{{{', '.join([escape(key) + ': [' + ', '.join(map(escape, v)) + ']' for key, v in value.items()])}}}"
        return f"{{{', '.join([f'{escape(key)}: {item(v)}' for key, v in value.items()])}}}"
    return mapping


def _dataclass_writer(cls: type) -> Writer:
    """`to_json_text` for a dataclass: one function written for the class once, as
    `_dataclass_encoder` writes its encoder, returning one f-string: a field of a type its hint
    writes as is (`_as_is`) is escaped or spelt in place, a tuple of names joined in place, the
    others written by the field's own writer."""
    namespace: dict[str, Any] = {"cls": cls, "CodecError": CodecError, "escape": encode_basestring_ascii,
                                 "kept": Kept(), "keep": _kept}
    reads, pieces = [], []
    # a frozen dataclass of scalars cannot change: its text is kept (`_kept`)
    keep = cls.__dataclass_params__.frozen and all(map(_scalar, _fields(cls).values()))  # type: ignore[attr-defined]
    for n, (name, field_hint) in enumerate(_fields(cls).items()):
        assert name.isidentifier()  # written into the source below
        as_is, items_as_is = _as_is(field_hint), _items_as_is(field_hint)
        namespace[f"write_{n}"] = _writer(field_hint)
        reads.append(f"    v{n} = value.{name}")
        written = f"write_{n}(v{n})"
        for kind in reversed(as_is):  # the first type tried first
            if kind is str:
                written = f"escape(v{n}) if type(v{n}) is str else {written}"
            elif kind is bool:
                written = f'("true" if v{n} else "false") if type(v{n}) is bool else {written}'
            elif kind is int:
                written = f"v{n} if type(v{n}) is int else {written}"  # an int formats as json writes it
            else:
                written = f'"null" if v{n} is None else {written}'
        if items_as_is == _STR:  # a tuple of names, as _sequence_writer writes it
            written = (f'"[" + ", ".join(map(escape, v{n})) + "]" if type(v{n}) is tuple and {{*map(type, v{n})}} <= {{str}} '
                       f"else {written}")
        literal = ("{" if n == 0 else ", ") + encode_basestring_ascii(name) + ": "
        pieces.append(literal.replace("{", "{{") + "{" + written + "}")
    body = "".join(pieces) if pieces else "{{"
    lookup = ["    known = kept.get(id(value))", "    if known is not None and known[0] is value:",
              "        return known[1]"] if keep else []
    written = f"f'{body}}}}}'"
    source = "\n".join(["def write(value):", *lookup, "    if not isinstance(value, cls):", "        raise CodecError",
                        *reads, f"    return {f'keep(kept, value, {written})' if keep else written}"])
    exec(compile(source, f"<codec writer of {cls.__name__}>", "exec"), namespace)  # named in profiles and tracebacks
    write = namespace["write"]
    write.__qualname__ = f"write_{cls.__name__}"
    return write


def _scalar(hint: Any) -> bool:
    """A hint whose values are scalars (str, int, float, bool, a Literal's), or None."""
    kind, arg = _shape(hint)
    return kind in ("scalar", "literal") or (kind == "optional" and _scalar(arg))


Encoder = Callable[[Any], Any]


@functools.cache
def _encoder(hint: Any) -> Encoder:
    """`to_json` for values of `hint`, planned once per hint: the same checks as the walk in
    `_walk_to_json`, without building each value's path (a report has some thousand values; the
    deadline writes one report per game). It raises a bare CodecError, and
    `to_json` walks the value again to say where it failed."""
    kind, arg = _shape(hint)
    if kind == "optional":
        inner = _encoder(arg)
        return lambda value: None if value is None else inner(value)
    if kind == "text":
        write = _TEXT[hint][0]

        def text(value: Any) -> Any:
            if not isinstance(value, hint):
                raise CodecError
            written = write(value)
            back = _read_back(hint, written)
            if back is value or back == value:  # `is`: no call to the dataclass's __eq__ for the same value
                return written
            return _walk_to_json(value, hint)  # written field by field (a removal): rare
        return text
    if kind == "dataclass":
        return _dataclass_encoder(hint)
    if kind == "tuple":
        if len(arg) == 2 and arg[1] is Ellipsis:
            return _sequence_encoder(arg[0])
        items = [_encoder(item_hint) for item_hint in arg]

        def fixed(value: Any) -> Any:
            if not isinstance(value, (tuple, list)) or len(value) != len(items):
                raise CodecError
            return [encode(v) for encode, v in zip(items, value, strict=False)]
        return fixed
    if kind == "mapping":
        return _mapping_encoder(arg)
    if kind == "scalar":
        if hint is float:
            def real(value: Any) -> Any:
                if not (type(value) is int or (isinstance(value, float))):
                    raise CodecError
                return value
            return real

        def scalar(value: Any) -> Any:
            if not isinstance(value, hint) or (isinstance(value, bool) and hint is not bool):
                raise CodecError
            return value
        return scalar
    if kind == "literal":
        allowed = typing.get_args(hint)

        def literal(value: Any) -> Any:
            if value not in allowed:
                raise CodecError
            return value
        return literal
    if kind == "any":
        def any_json(value: Any) -> Any:
            if not _is_json(value):
                raise CodecError
            return value
        return any_json

    def none(value: Any) -> Any:
        raise CodecError
    return none


def _as_is(hint: Any) -> tuple[type, ...]:
    """The types of the values an encoder of `hint` returns as they are, with no call: str, int,
    bool (most of a report's values), None where the hint allows it; () for every other hint."""
    kind, arg = _shape(hint)
    if kind == "optional":
        inner = _as_is(arg)
        return (*inner, type(None)) if inner else ()
    return (hint,) if hint in (str, int, bool) else ()


def _items_as_is(hint: Any) -> frozenset[type]:
    """For `tuple[X, ...]`, the types of X's values written as they are (`_as_is`); else none."""
    kind, arg = _shape(hint)
    return frozenset(_as_is(arg[0])) if kind == "tuple" and len(arg) == 2 and arg[1] is Ellipsis else frozenset()


def _all_of(values: Any, types: frozenset[type]) -> bool:
    """Every one of `values` is of exactly one of `types` (checked in C: no call a value)."""
    return {*map(type, values)} <= types


def _sequence_encoder(item_hint: Any) -> Encoder:
    """`tuple[X, ...]` as a JSON array: a tuple whose items are all written as they are (a tuple of
    names, of str) as a list at once, the others item by item."""
    item, as_is = _encoder(item_hint), frozenset(_as_is(item_hint))

    def sequence(value: Any) -> Any:
        if not isinstance(value, (tuple, list)):
            raise CodecError
        if as_is and {*map(type, value)} <= as_is:
            return list(value)
        return list(map(item, value))
    return sequence


def _mapping_encoder(item_hint: Any) -> Encoder:
    """`Mapping[str, X]` as a JSON object, keys in their order: a mapping whose values are all
    written as they are (power -> count) as a dict at once, one whose values are sequences of
    those (power -> its units) likewise, each as a list; the others value by value."""
    item, as_is, items_as_is = _encoder(item_hint), frozenset(_as_is(item_hint)), _items_as_is(item_hint)

    def mapping(value: Any) -> Any:
        if not isinstance(value, Mapping) or not (_all_of(value, _STR) or all(isinstance(key, str) for key in value)):
            raise CodecError
        values = value.values()
        if as_is and _all_of(values, as_is):
            return dict(value)
        if items_as_is and _all_of(values, _SEQUENCES) and _all_of(itertools.chain.from_iterable(values), items_as_is):
            return dict(zip(value, map(list, values), strict=True))
        return dict(zip(value, map(item, values), strict=True))
    return mapping


def _dataclass_encoder(cls: type) -> Encoder:
    """`to_json` for a dataclass: one function written for the class once, as `dataclasses` writes
    a class's __init__, that reads each field and writes it as it is when its type is one its hint
    writes as is (`_as_is`), else by the field's own encoder: no loop and no call for most of
    a report's values (a report has some thousand; the deadline writes one report per game)."""
    namespace: dict[str, Any] = {"cls": cls, "CodecError": CodecError}
    reads, items = [], []
    for n, (name, field_hint) in enumerate(_fields(cls).items()):
        as_is, items_as_is = _as_is(field_hint), _items_as_is(field_hint)
        namespace.update({f"encode_{n}": _encoder(field_hint), f"as_is_{n}": as_is[0] if len(as_is) == 1 else as_is,
                          f"items_as_is_{n}": items_as_is})
        reads.append(f"    v{n} = value.{name}")
        written = f"encode_{n}(v{n})"
        if len(as_is) == 1:
            written = f"v{n} if type(v{n}) is as_is_{n} else {written}"
        elif as_is:
            written = f"v{n} if type(v{n}) in as_is_{n} else {written}"
        elif items_as_is:  # a tuple of names: a list of them, as _sequence_encoder writes it
            written = f"list(v{n}) if type(v{n}) is tuple and {{*map(type, v{n})}} <= items_as_is_{n} else {written}"
        items.append(f"{name!r}: {written}")
    source = "\n".join(["def encode(value):", "    if not isinstance(value, cls):", "        raise CodecError",
                        *reads, f"    return {{{', '.join(items)}}}"])
    exec(source, namespace)
    encode = namespace["encode"]
    encode.__qualname__ = f"encode_{cls.__name__}"
    return encode


@functools.lru_cache(maxsize=4096)
def _read_back(hint: type, text: str) -> Any:
    """What `text` reads back as (an order's notation is parsed once, not once per report)."""
    return _TEXT[hint][1](text)


def _walk_to_json(value: Any, hint: Any, at: str = "") -> Any:
    """`to_json` walking the value beside its hint, with each value's path for the error."""
    kind, arg = _shape(hint)
    if kind == "optional":
        return None if value is None else _walk_to_json(value, arg, at)
    if kind == "text":
        return _text_to_json(value, hint, at)
    if kind == "dataclass":
        _check(isinstance(value, hint), value, hint, at)
        return {name: _walk_to_json(getattr(value, name), field_hint, f"{at}.{name}")
                for name, field_hint in _fields(hint).items()}
    if kind == "tuple":
        # a list where a tuple is declared is written as the tuple it reads back as: what the
        # templates print is the same, and a deadline is not the place to refuse it
        _check(isinstance(value, (tuple, list)), value, hint, at)
        return [_walk_to_json(item, item_hint, f"{at}[{n}]") for n, (item, item_hint) in enumerate(_items(value, arg, at))]
    if kind == "mapping":
        _check(isinstance(value, Mapping) and all(isinstance(key, str) for key in value), value, hint, at)
        return {key: _walk_to_json(item, arg, f"{at}[{key!r}]") for key, item in value.items()}
    return _plain(value, hint, at)


def from_json(data: Any, hint: Any, at: str = "") -> Any:
    """The value of type `hint` that `to_json` wrote as `data`; CodecError naming the first
    part of `data` that is not one."""
    kind, arg = _shape(hint)
    if kind == "optional":
        return None if data is None else from_json(data, arg, at)
    if kind == "text":
        return _text_from_json(data, hint, at)
    if kind == "dataclass":
        return _dataclass_from_json(data, hint, at)
    if kind == "tuple":
        _check(isinstance(data, list), data, hint, at)
        return tuple(from_json(item, item_hint, f"{at}[{n}]") for n, (item, item_hint) in enumerate(_items(data, arg, at)))
    if kind == "mapping":
        _check(isinstance(data, dict), data, hint, at)
        return {key: from_json(item, arg, f"{at}[{key!r}]") for key, item in data.items()}
    return _plain(data, hint, at)


@functools.cache
def _shape(hint: Any) -> tuple[str, Any]:
    """What kind of hint `hint` is, and the hint inside it: worked out once per hint (a report
    has some thousand values of a few dozen hints)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        return "optional", _without_none(args)
    if hint in _TEXT:
        return "text", None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return "dataclass", None
    if origin is tuple:
        return "tuple", args
    if origin in (Mapping, dict):
        return "mapping", args[1]
    if hint in _SCALARS:
        return "scalar", None
    return ("literal" if origin is typing.Literal else "any" if hint is Any else "none"), None


@functools.cache
def _fields(cls: type) -> dict[str, Any]:
    """A dataclass's fields and their type hints, in their order (ClassVars are no fields; a field
    the constructor does not take is computed from the others)."""
    hints = typing.get_type_hints(cls)
    return {field.name: hints[field.name] for field in dataclasses.fields(cls) if field.init}


def _dataclass_from_json(data: Any, cls: type, at: str) -> Any:
    _check(isinstance(data, dict), data, cls, at)
    fields = _fields(cls)
    if unknown := sorted(set(data) - set(fields)):
        raise CodecError(f"{at or 'the value'}: {cls.__name__} has no field {', '.join(unknown)}")
    values = {name: from_json(data[name], fields[name], f"{at}.{name}") for name in fields if name in data}
    try:
        return cls(**values)
    except TypeError as error:  # a field missing that has no default
        raise CodecError(f"{at or 'the value'}: not a {cls.__name__} ({error})") from None


def _text_to_json(value: Any, hint: type, at: str) -> Any:
    _check(isinstance(value, hint), value, hint, at)
    write, read = _TEXT[hint]
    text = write(value)
    if read(text) == value:
        return text
    # `A PAR D` reads as a disband: a removal (or any order its notation does not give back) is
    # written field by field instead
    _check(dataclasses.is_dataclass(hint), value, hint, at)
    return {name: _walk_to_json(getattr(value, name), field_hint, f"{at}.{name}") for name, field_hint in _fields(hint).items()}


def _text_from_json(data: Any, hint: type, at: str) -> Any:
    if isinstance(data, dict) and dataclasses.is_dataclass(hint):
        return _dataclass_from_json(data, hint, at)
    _check(isinstance(data, str), data, hint, at)
    try:
        return _TEXT[hint][1](data)
    except ValueError as error:
        raise CodecError(f"{at or 'the value'}: not a {hint.__name__} ({error})") from None


def _items(values: Any, args: tuple[Any, ...], at: str) -> list[tuple[Any, Any]]:
    """Each item of a tuple (or its JSON array) with its hint: `tuple[X, ...]` or `tuple[X, Y]`."""
    if len(args) == 2 and args[1] is Ellipsis:
        return [(item, args[0]) for item in values]
    if len(values) != len(args):
        raise CodecError(f"{at or 'the value'}: {len(values)} items where {len(args)} are expected")
    return list(zip(values, args, strict=False))


def _plain(value: Any, hint: Any, at: str) -> Any:
    """A str, int, float or bool; a Literal's value; for `Any`, JSON values only, as they are."""
    kind, _ = _shape(hint)
    if kind == "scalar":
        # bool is an int to isinstance: no bool is taken for an int here (json writes it true)
        _check((isinstance(value, hint) and not (isinstance(value, bool) and hint is not bool))
               or (hint is float and type(value) is int), value, hint, at)
    elif kind == "literal":
        _check(value in typing.get_args(hint), value, hint, at)
    elif kind == "any":
        _check(_is_json(value), value, hint, at)
    else:
        raise CodecError(f"{at or 'the value'}: no JSON form for {hint!r}")
    return value


def _is_json(value: Any) -> bool:
    if value is None or type(value) in _SCALARS:
        return True
    if type(value) is list:
        return all(_is_json(item) for item in value)
    return type(value) is dict and all(isinstance(key, str) and _is_json(item) for key, item in value.items())


def _without_none(args: tuple[Any, ...]) -> Any:
    rest = [arg for arg in args if arg is not type(None)]
    if len(rest) != 1:
        raise CodecError(f"no JSON form for a union of {rest!r}")
    return rest[0]


def _check(ok: bool, value: Any, hint: Any, at: str) -> None:
    if not ok:
        name = getattr(hint, "__name__", None) or repr(hint)
        raise CodecError(f"{at or 'the value'}: {type(value).__name__} {str(value)[:60]!r} is not a {name}")
