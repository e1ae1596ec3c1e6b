"""What a field of an abstract object holds after the stores into it (engine/values/heap.py
finds and evaluates the stores): a `Store` evaluated, and the order rules that decide which of
them a read sees - the last of the module's own statements storing a constant key replaces the
earlier ones, a `setdefault` stores only when its key is not there yet."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from .domain import UNKNOWN, Const, DictV, Value, hashable, key_of, single_known_str_dict


@dataclass(frozen=True)
class Store:
    """A store evaluated: its kind, key (values, or an attribute's name), value."""

    kind: str
    key: frozenset[Value] | str | None
    value: frozenset[Value] | None
    partial: bool  # the store may also run in ways not seen: reads include Unknown
    # `name.append(v)` at module level: the interpreter's straight-line reading of `name` has it.
    by_name: bool = False
    # A module-level statement of its own (not in a function, branch or loop): its line, for the
    # order of such stores; None for the others, which may run at any time.
    line: int | None = None
    setdefault: bool = False  # `d.setdefault(k, v)`: stores only when `k` is not there yet
    # `d[k] op= v` as a module-level statement of its own: `value` is the operand, the item
    # becomes `old op value` (see `augmented_items`).
    augmented: ast.AugAssign | None = None


def last_straight_stores(stores: list[Store]) -> dict[object, Store]:
    """For each constant key stored only by module-level statements of their own (`REG["k"] =
    bump` then `REG["k"] = copy`, `d.update(k=v)`), the last of those stores: it replaces the
    earlier ones and what the display held.  A key a function may store too (at any time) is not
    here: its stores all join.  (A read between two such statements is taken to see the last.)"""
    last: dict[object, Store] = {}
    anytime: set[object] = set()
    for store in stores:
        if store.setdefault:
            continue
        if store.kind == "update":
            filled = single_dict(store.value) if store.value is not None else None
            keys = [hashable(k) for k, _ in filled.items] if filled is not None and filled.items is not None else None
        else:
            const = only_const(store.key)
            keys = [hashable(const)] if const is not None else None
        if keys is None:
            continue  # keys not known: the dict's items are not known either
        for key in keys:
            if store.line is None or store.partial:
                anytime.add(key)
            elif key not in last or cast(int, last[key].line) < store.line:
                last[key] = store
    return {key: store for key, store in last.items() if key not in anytime}


def surely_there(d: DictV, stores: list[Store], setdefault: Store) -> bool:
    """Whether a `setdefault`'s key is surely in the dict when it runs: one of the dict's own
    items, or stored by a module-level statement of its own on an earlier line."""
    key = only_const(setdefault.key)
    if key is None or setdefault.line is None:
        return False
    if d.items is not None and any(hashable(k) == hashable(key) for k, _ in d.items):
        return True
    return any(
        s.kind == "item"
        and not s.partial
        and s.line is not None
        and s.line < setdefault.line
        and only_const(s.key) == key
        for s in stores
    )


def item_stores(mapping: frozenset[Value] | None, partial: bool) -> Iterator[Store]:
    """`obj.__dict__.update(mapping)` evaluated: an attribute store per item of a dict of known
    string keys; else one store of any attribute, of any value."""
    d = single_known_str_dict(mapping) if mapping is not None else None
    if d is None:
        yield Store("attr", None, None, True)
        return
    for name, value in d.known_items():
        yield Store("attr", frozenset({Const(name)}), value, partial)


def only_const(values: frozenset[Value] | str | None) -> object | None:
    """The constant a key's value set certainly is (None: not one constant)."""
    known = constants(values)
    return next(iter(known)) if known is not None and len(known) == 1 else None


def single_dict(values: frozenset[Value]) -> DictV | None:
    dicts = [v for v in values if isinstance(v, DictV)]
    return dicts[0] if len(dicts) == 1 and len(values) == 1 else None


def attribute_values(stores: list[Store], attr: str | None) -> frozenset[Value]:
    """The values attribute stores give a read of `attr` (None: of any attribute)."""

    out: set[Value] = set()
    for store in stores:
        names = constants(store.key)  # `setattr(ns, name, v)` in a loop over known names: each
        if attr is not None and names is not None and attr not in names:
            continue
        out |= store.value or {UNKNOWN}
        if store.partial or names is None:
            out.add(UNKNOWN)
    return frozenset(out)


def constants(values: frozenset[Value] | str | None) -> frozenset[object] | None:
    """The keys a key's value set certainly is one of: constants, and the objects `key_of` knows
    as keys (an enum member: `TABLE[mode] = ...` in `for mode in Mode`); None when any is not."""
    if isinstance(values, str):
        return frozenset({values})
    if not values or any(isinstance(v, Const) and v.value is None for v in values):
        return None
    keys = [key_of(v) for v in values]
    if not all(known for known, _ in keys):
        return None
    return frozenset(key for _, key in keys)


# `old op operand` of an augmented store (the interpreter's binary operation).
Binary = Callable[[ast.AugAssign, frozenset[Value], frozenset[Value]], frozenset[Value]]


def straight_values(
    stores: list[Store], key: object, start: frozenset[Value] | None, binary: Binary
) -> frozenset[Value]:
    """The value of `key` after the module-level statements of their own that store it, in line
    order, from `start` (the display's): each plain store replaces it, each augmented one
    (`COUNT["n"] += 1`) combines it with its operand."""
    current = start if start is not None else frozenset({UNKNOWN})
    ordered = sorted(
        (s for s in stores if s.line is not None and not s.partial and only_const(s.key) == key),
        key=lambda s: cast(int, s.line),
    )
    for store in ordered:
        operand = store.value if store.value is not None else frozenset({UNKNOWN})
        current = binary(store.augmented, current, operand) if store.augmented is not None else operand
    return current
