"""Values that are methods of other values (`ref.at`, `d.get`, `"_".join`, `prop.setter`), and the
classes `collections.namedtuple` makes: what calling them gives is computed here or in `calls`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, cast

from .domain import (
    NONE_SET,
    Array,
    Class,
    Const,
    DictV,
    Opaque,
    Seq,
    U,
    Value,
    Wrapped,
    key_of,
    key_value,
    only_value,
    single_known_seq,
)


@dataclass(frozen=True)
class RefMethod(Value):
    attr: str
    ref: Value


@dataclass(frozen=True)
class ParamMethod(Value):
    attr: str


@dataclass(frozen=True)
class ArrayMethod(Value):
    origin: str
    attr: str
    array: Array | None = None  # the array it is a method of (its shape and dtype)


@dataclass(frozen=True)
class ArrayAt(Value):
    origin: str


@dataclass(frozen=True)
class WhenDecorator(Value):
    """`pl.when(c)`: applied to a function it runs it and returns None."""

    call: ast.Call | None = None  # the `pl.when(c)` call that made it (its condition is read there)


STR_METHODS = frozenset(
    {
        "join",
        "format",
        "upper",
        "lower",
        "replace",
        "strip",
        "lstrip",
        "rstrip",
        "removeprefix",
        "removesuffix",
        # tests that select by name: `k.__name__.endswith("_v2")`
        "startswith",
        "endswith",
        "isidentifier",
        "isdigit",
        "isalpha",
        "title",
        "capitalize",
        "casefold",
        "index",
        "rfind",
        "count",
        "find",
        # names split out of a dotted or qualified spec: `spec.split(".")[-1]`
        "split",
        "rsplit",
        "partition",
        "rpartition",
    }
)
# Methods of a constant int (`(n - 1).bit_length()` in a power-of-two round-up).
INT_METHODS = frozenset({"bit_length", "bit_count"})


@dataclass(frozen=True)
class ConstMethod(Value):
    """A method of a constant string or int (`"_".join(parts)`, `"{}_kernel".format(mode)`,
    `n.bit_length()`): called with constants, the constant it gives (names built for `getattr`)."""

    text: str | int | bytes | frozenset[object]  # bytes: `decode` only; a set of constants: `pop` only
    attr: str

    def call(self, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]) -> frozenset[Value]:
        unknown = frozenset({Opaque(type(self.text).__name__)})
        if isinstance(self.text, frozenset):
            # `{"copy"}.pop()`: a set of one element gives it; of more, which one depends on hashing
            one = next(iter(self.text)) if len(self.text) == 1 and not args and not keywords else None
            return frozenset({Const(one)}) if one is not None else U
        if self.attr == "join" and len(args) == 1 and not keywords and isinstance(self.text, str):
            seq = single_known_seq(args[0])
            parts = [only_value(e) for e in seq.elements()] if seq is not None else None
            if parts is None or not all(isinstance(p, Const) and isinstance(p.value, str) for p in parts):
                return unknown
            return _short(self.text.join(str(cast(Const, p).value) for p in parts))
        values = [_constant_argument(a) for a in args]
        named = {name: _constant_argument(v) for name, v in keywords}  # `s.rsplit(maxsplit=1)`
        if any(v is None for v in values) or any(v is None for v in named.values()):
            return unknown
        try:
            return _short(getattr(self.text, self.attr)(*values, **named))
        except (TypeError, ValueError, IndexError, KeyError):
            return unknown


def _constant_argument(values: frozenset[Value]) -> object | None:
    """A string method's argument when known: a string or int constant, or a tuple of strings
    (`name.startswith(("tpu", "gpu"))`); None otherwise."""
    value = only_value(values)
    if isinstance(value, Const) and isinstance(value.value, (str, int)):
        return value.value
    seq = single_known_seq(values)
    parts = [only_value(e) for e in seq.elements()] if seq is not None and seq.kind == "tuple" else None
    if parts and all(isinstance(p, Const) and isinstance(p.value, str) for p in parts):
        return tuple(cast(Const, p).value for p in parts)
    return None


def _short(result: object) -> frozenset[Value]:
    """A string method's result as a constant: a short string, a bool or an int, or a list /
    tuple of short strings (`split`, `partition`)."""
    if isinstance(result, (bool, int)) or (isinstance(result, str) and len(result) <= 200):
        return frozenset({Const(result)})
    if isinstance(result, (list, tuple)) and len(result) <= 32 and all(isinstance(p, str) for p in result):
        kind = "list" if isinstance(result, list) else "tuple"
        return frozenset({Seq(kind, tuple(frozenset({Const(p)}) for p in result))})
    return frozenset({Opaque("str")})


@dataclass(frozen=True)
class TupleClass(Value):
    """A class `collections.namedtuple(name, fields)` made: called, a tuple with field names."""

    fields: tuple[str, ...]

    def call(self, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]) -> frozenset[Value]:
        given = dict(zip(self.fields, args, strict=False)) | dict(keywords)
        return frozenset({Seq("tuple", tuple(given.get(name, U) for name in self.fields), names=self.fields)})


def namedtuple_fields(values: frozenset[Value]) -> tuple[str, ...] | None:
    """`["kernel", "block"]`, `("kernel", "block")` or `"kernel block"` / `"kernel, block"`."""
    value = only_value(values)
    if isinstance(value, Const) and isinstance(value.value, str):
        return tuple(value.value.replace(",", " ").split())
    seq = single_known_seq(values)
    if seq is None:
        return None
    names = [only_value(e) for e in seq.elements()]
    if not all(isinstance(n, Const) and isinstance(n.value, str) for n in names):
        return None
    return tuple(str(cast(Const, n).value) for n in names)


@dataclass(frozen=True)
class PropertyMethod(Value):
    """`prop.setter` / `.getter` / `.deleter`: called with a function, a property again (the
    getter is the one a read calls)."""

    prop: Wrapped
    attr: str

    def call(self, functions: frozenset[Value]) -> frozenset[Value]:
        if self.attr == "getter":
            return frozenset(Wrapped("property", f) for f in functions)
        return frozenset({self.prop})


@dataclass(frozen=True)
class Subclasses(Value):
    """`cls.__subclasses__`: called, the classes of the analysed modules that name `cls` as a base."""

    cls: Class


@dataclass(frozen=True)
class SeqMethod(Value):
    seq: Seq
    attr: str


@dataclass(frozen=True)
class DictMethod(Value):
    d: DictV
    attr: str

    def popped(self, last: bool) -> frozenset[Value]:
        """`d.popitem()`'s item: the last stored, or the first (an OrderedDict's `last=False`)."""
        if not self.d.items:
            return U
        key, value = self.d.items[-1 if last else 0]
        return frozenset({Seq("tuple", (frozenset({key_value(key)}), value))})

    def call(self, args: list[Any]) -> frozenset[Value]:
        d = self.d
        if self.attr == "items":
            if d.items is not None:
                return frozenset(
                    {Seq("list", tuple(frozenset({Seq("tuple", (frozenset({key_value(k)}), v))}) for k, v in d.items))}
                )
            return frozenset({Seq("list", None, frozenset({Seq("tuple", (U, d.all_values()))}))})
        if self.attr == "values":
            if d.items is not None:
                return frozenset({Seq("list", tuple(v for _, v in d.items))})
            return frozenset({Seq("list", None, d.all_values())})
        if self.attr == "keys":
            if d.items is not None:
                return frozenset({Seq("list", tuple(frozenset({key_value(k)}) for k, _ in d.items))})
            return frozenset({Seq("list", None, U)})
        if self.attr in ("get", "pop", "setdefault") and args:
            known_key, key = key_of(next(iter(args[0])) if len(args[0]) == 1 else None)
            default = args[1] if len(args) > 1 else NONE_SET
            if d.items is not None and known_key:
                return d.lookup(key, default)
            return d.all_values() | default
        if self.attr == "__getitem__" and len(args) == 1:  # `TABLE.__getitem__(name)`: the subscript
            known_key, key = key_of(next(iter(args[0])) if len(args[0]) == 1 else None)
            return d.lookup(key, U) if d.items is not None and known_key else d.all_values()
        if self.attr == "copy":
            return frozenset({d})
        if self.attr == "popitem" and not args and d.items:  # the last item stored (LIFO since 3.7)
            return self.popped(last=True)
        return U
