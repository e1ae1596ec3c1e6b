"""Builtins over sequences, evaluated by what iterating gives: `iter`, `next`, `zip`, `enumerate`,
`map`, `sorted`, `reversed`, `min` / `max` (in Python's order when the sort keys are constants),
`dict(pairs)` and `dict(mapping, **kw)`, `functools.reduce` folded in order, and `jax.tree.map`
over a tree of known structure.  Known sequences stay known (`dict(zip(names, kernels))` pairs each
name with its kernel); anything else is one of the elements, or Unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..model import Loc, ModuleModel
from . import calls, classes, library, models, operations
from .domain import (
    EMPTY_ENV,
    NONE_SET,
    Array,
    Const,
    DictV,
    Env,
    Generator,
    Instance,
    Opaque,
    Ref,
    RefView,
    Seq,
    ShapeStruct,
    U,
    Value,
    int_constant,
    key_of,
    only_value,
    single_known_seq,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter


# `jax.tree.map(f, tree)`: the tree's structure with `f` applied to each leaf.
TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map"})


# `jax.tree.leaves(tree)`: its leaves in order (a dict's by sorted key).
TREE_LEAVES = frozenset({"jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree_leaves"})


def tree_leaves(values: frozenset[Value], depth: int = 0) -> list[frozenset[Value]] | None:
    """The leaves of a tree of known structure (tuples, lists, dicts with sortable keys, None):
    each leaf a Ref, an array, a shape or a constant; None for any other value (an instance may
    be a registered pytree) or a structure not known."""
    value = only_value(values)
    if value is None or depth > 8:
        return None
    if isinstance(value, Const) and value.value is None:
        return []
    if isinstance(value, Seq) and value.kind in ("tuple", "list") and value.elts is not None:
        parts = [tree_leaves(e, depth + 1) for e in value.elts]
    elif isinstance(value, DictV) and value.items is not None:
        try:
            items = sorted(value.items, key=lambda item: item[0])  # as jax flattens a dict
        except TypeError:
            return None
        parts = [tree_leaves(v, depth + 1) for _, v in items]
    elif isinstance(value, (Ref, RefView, Array, ShapeStruct, Const)):
        return [values]
    else:
        return None
    if any(p is None for p in parts):
        return None
    return [leaf for p in parts for leaf in cast("list[frozenset[Value]]", p)]


def iteration_builtin(
    interp: Interpreter, q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> frozenset[Value] | None:
    """`iter`, `next`, `zip`, `enumerate` and `dict(pairs)` by what iterating gives: known
    sequences stay known (`dict(zip(names, kernels))` pairs each name with its kernel)."""
    if q == "itertools.groupby" and args and len(args) + len(keywords) <= 2:
        return _grouped(interp, args, keywords)
    if q == "iter" and len(args) == 1:
        kept = frozenset(v for v in args[0] if isinstance(v, (Seq, Generator)))
        in_order = operations.unpacked(interp, args[0]) if not kept else None  # an instance's __iter__
        return kept or frozenset({in_order or Seq("list", None, operations.iterate(interp, args[0]))})
    if q == "next" and args:
        return operations.iterate(interp, args[0]) | (args[1] if len(args) > 1 else frozenset())
    if q in TREE_LEAVES and len(args) == 1 and not keywords:
        leaves = tree_leaves(args[0])
        return frozenset({Seq("list", tuple(leaves))}) if leaves is not None else None
    if q == "range" and 1 <= len(args) <= 3 and not keywords:
        made = _short_range([int_constant(a) for a in args])
        if made is not None:
            return made
    if q == "itertools.zip_longest" and args and all(name == "fillvalue" for name, _ in keywords):
        seqs = [single_known_seq(a) for a in args]
        if all(seq is not None for seq in seqs):  # the shorter ones padded with `fillvalue`
            fill = dict(keywords).get("fillvalue", NONE_SET)
            columns = [cast(Seq, seq).elements() for seq in seqs]
            length = max(len(column) for column in columns)
            rows = (tuple(c[i] if i < len(c) else fill for c in columns) for i in range(length))
            return frozenset({Seq("list", tuple(frozenset({Seq("tuple", row)}) for row in rows))})
    if q == "zip" and args and all(name == "strict" for name, _ in keywords):
        seqs = _with_counts_numbered(interp, [single_known_seq(a) for a in args], args)
        if all(seq is not None for seq in seqs):
            length = min(len(cast(Seq, seq).elements()) for seq in seqs)
            return frozenset(
                {
                    Seq(
                        "list",
                        tuple(
                            frozenset({Seq("tuple", tuple(cast(Seq, seq).elements()[i] for seq in seqs))})
                            for i in range(length)
                        ),
                    )
                }
            )
        return frozenset(
            {Seq("list", None, frozenset({Seq("tuple", tuple(operations.iterate(interp, a) for a in args))}))}
        )
    if q == "enumerate" and args:
        seq = single_known_seq(args[0])
        given = args[1] if len(args) > 1 else dict(keywords).get("start", frozenset({Const(0)}))
        start = int_constant(given) if len(args) + len(keywords) <= 2 else None
        if seq is not None and start is not None:  # `enumerate(xs, start=1)`
            return frozenset(
                {
                    Seq(
                        "list",
                        tuple(
                            frozenset({Seq("tuple", (frozenset({Const(i)}), e))})
                            for i, e in enumerate(seq.elements(), start)
                        ),
                    )
                }
            )
        return frozenset(
            {
                Seq(
                    "list",
                    None,
                    frozenset({Seq("tuple", (frozenset({Opaque("int")}), operations.iterate(interp, args[0])))}),
                )
            }
        )
    if q in ("sorted", "reversed") and len(args) == 1:
        # `sorted(d)`: a dict's keys (their order does not matter); `reversed` of sequences and
        # constant strings only (`"".join(reversed("pmub"))`)
        text = only_value(args[0])
        spread = q == "sorted" or (isinstance(text, Const) and isinstance(text.value, str))
        seq = operations.unpacked(interp, args[0]) if spread else single_known_seq(args[0])
        if q == "reversed" and seq is not None:
            return frozenset({Seq("list", tuple(reversed(seq.elements())))})
        reverse = _constant_flag(dict(keywords).get("reverse", frozenset({Const(False)})))
        keyed = _keyed(interp, seq, [(name, v) for name, v in keywords if name != "reverse"])
        if keyed is not None and reverse is not None:  # `sorted(TABLE.items())`: as Python sorts
            try:
                ordered = sorted(keyed, key=lambda pair: pair[0], reverse=reverse)  # type: ignore[arg-type,return-value]
            except TypeError:  # keys that do not compare
                ordered = None
            if ordered is not None:
                return frozenset({Seq("list", tuple(element for _, element in ordered))})
        return frozenset({Seq("list", None, operations.iterate(interp, args[0]))})
    default = next((value for key, value in keywords if key == "default"), None)
    if q in ("min", "max") and len(args) == 1 and default is not None:
        # `max(kernels, default=fallback)`: the fallback for an empty iterable only
        candidates = operations.unpacked(interp, args[0])
        if candidates is not None and candidates.elts is not None and not candidates.elts:
            return default
        chosen_one = iteration_builtin(interp, q, args, [(k, v) for k, v in keywords if k != "default"])
        return chosen_one if candidates is not None and candidates.elts else (chosen_one or U) | default
    if q in ("min", "max") and args and default is None:
        # `max(kernels, key=...)` of one iterable; `min(BLOCK, rows)` of the arguments themselves
        candidates = operations.unpacked(interp, args[0]) if len(args) == 1 else Seq("tuple", tuple(args))
        keyed = _keyed(interp, candidates, keywords)
        try:  # `max(kernels, key=lambda k: k.priority)`: the first with the largest key
            chosen = (min if q == "min" else max)(keyed, key=lambda pair: pair[0]) if keyed else None  # type: ignore[arg-type,return-value]
        except TypeError:  # keys that do not compare
            chosen = None
        if chosen is not None:
            return chosen[1]
        # One of the elements (one iterable) or of the arguments (several).
        return operations.iterate(interp, args[0]) if len(args) == 1 else union(args)
    if q in library.DICT_TYPES and len(args) == 1 and isinstance(only_value(args[0]), DictV):
        copied = interp.dict_contents(
            cast(DictV, only_value(args[0]))
        )  # `dict(BASE, fast=k)`: a copy, then the keywords
        return frozenset({with_items(copied, keywords)})
    if q in library.DICT_TYPES and len(args) == 1 and not keywords:
        return frozenset({dict_of_pairs(operations.iterate(interp, args[0]), operations.unpacked(interp, args[0]))})
    if q in library.DICT_TYPES:
        return frozenset({DictV(None, U)})
    return None


def _grouped(
    interp: Interpreter, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> frozenset[Value] | None:
    """`itertools.groupby(xs, key=f)` of a known sequence whose keys are constants: its runs of
    equal keys in order, each `(key, [elements])` (a list where Python gives an iterator)."""
    key = args[1] if len(args) > 1 else dict(keywords).get("key")
    keyed = _keyed(interp, operations.unpacked(interp, args[0]), [("key", key)] if key is not None else [])
    if keyed is None or not all(isinstance(k, (str, int, float)) for k, _ in keyed):
        return None
    runs: list[tuple[object, list[frozenset[Value]]]] = []
    for k, element in keyed:
        if runs and runs[-1][0] == k:
            runs[-1][1].append(element)
        else:
            runs.append((k, [element]))
    groups = (Seq("tuple", (frozenset({Const(k)}), frozenset({Seq("list", tuple(run))}))) for k, run in runs)
    return frozenset({Seq("list", tuple(frozenset({g}) for g in groups))})


def _keyed(
    interp: Interpreter, seq: Seq | None, keywords: list[tuple[str, frozenset[Value]]]
) -> list[tuple[object, frozenset[Value]]] | None:
    """Each element of a known sequence with its sort key, when every key is a constant (the
    element itself, a tuple of constants, or what the `key=` function gives for it); None when
    any is not known, or another keyword (`reverse=`) is given."""
    if seq is None or any(name != "key" for name, _ in keywords):
        return None
    key_functions = dict(keywords).get("key")
    keyed: list[tuple[object, frozenset[Value]]] = []
    for element in seq.elements():
        if key_functions is not None:
            element_key = union(
                calls.apply(interp, f, [element], [], None, None, EMPTY_ENV, interp.model) for f in key_functions
            )
        else:  # the element itself, or the fields of an ordered dataclass (`min(impls)`)
            element_key = classes.ordered_dataclass_key(interp, only_value(element)) or element
        key = sort_key(element_key)
        if key is None and key_functions is None:
            key = _ByDunder.of(interp, element)  # `min(entries)` of instances with their own `__lt__`
        if key is None:
            return None
        keyed.append((key, element))
    return keyed


def folded(
    interp: Interpreter, args: list[frozenset[Value]], model: ModuleModel, loc: Loc | None = None, env: Env = EMPTY_ENV
) -> frozenset[Value] | None:
    """`functools.reduce(f, xs[, initial])` over a known sequence, folded in order (each step
    sees the value of the one before: `reduce(operator.or_, layers)` lets the last layer win);
    None when the sequence is not known (the model in models/functools.py takes it)."""
    seq = single_known_seq(args[1])
    if seq is None or len(seq.elements()) > _MAX_FOLDED:
        return None
    items = list(seq.elements())
    if len(args) == 3:
        value = args[2]
    elif items:
        value = items.pop(0)
    else:
        return U  # TypeError: an empty sequence and no initial value
    for item in items:
        for f in args[0]:  # each step a call the launch finder hears of (`reduce(lambda acc, n: run(n), ...)`)
            calls.report_call(interp, f, [value, item], loc, env)
        value = union(calls.apply(interp, f, [value, item], [], None, None, EMPTY_ENV, model) for f in args[0])
    return value


_MAX_FOLDED = 32


def tree_mapped(
    interp: Interpreter,
    functions: frozenset[Value],
    trees: list[frozenset[Value]],
    model: ModuleModel,
    element: tuple[str, object, tuple[object, ...]] | None = None,
    depth: int = 0,
) -> frozenset[Value]:
    """`jax.tree.map(f, tree, *rest)`: a dict, tuple or list of known items maps item by item,
    None stays None (an empty tree), and a leaf (an array or a number) is `f` of the trees'
    leaves; any other structure (a registered class, one not known) is Unknown."""
    first = only_value(trees[0]) if depth < 8 else None
    if isinstance(first, Const) and first.value is None:
        return NONE_SET
    if len(trees) == 1 and isinstance(first, DictV) and first.items is not None:
        items = tuple(
            (key, tree_mapped(interp, functions, [value], model, _at(element, key), depth + 1))
            for key, value in first.items
        )
        return frozenset({DictV(items, union(value for _, value in items))})
    if (
        len(trees) == 1
        and isinstance(first, Seq)
        and first.kind in ("list", "tuple")
        and first.elts is not None
        and first.names is None
    ):
        return frozenset(
            {
                Seq(
                    first.kind,
                    tuple(
                        tree_mapped(interp, functions, [e], model, _at(element, i), depth + 1)
                        for i, e in enumerate(first.elts)
                    ),
                )
            }
        )
    if first is not None and all(_is_tree_leaf(tree) for tree in trees):
        return union(calls.apply_to_element(interp, f, list(trees), model, element) for f in functions)
    return U


def _at(
    element: tuple[str, object, tuple[object, ...]] | None, place: object
) -> tuple[str, object, tuple[object, ...]] | None:
    """The tag of the leaf one level down a tree, at `place` (a key or an index)."""
    return (element[0], element[1], (*element[2], place)) if element is not None else None


def _is_tree_leaf(values: frozenset[Value]) -> bool:
    return bool(values) and all(
        isinstance(v, (Array, Opaque)) or (isinstance(v, Const) and isinstance(v.value, (int, float, complex)))
        for v in values
    )


# A range longer than this stays an opaque `range` (its elements are ints, its length unknown).
_MAX_RANGE = 32


def constant_range(bounds: list[int | None]) -> range | None:
    """The range of `range(*bounds)` when every bound is a constant int (and the step is not 0)."""
    if None in bounds or (len(bounds) == 3 and bounds[2] == 0):
        return None
    return range(*cast(list[int], bounds))


def _short_range(bounds: list[int | None]) -> frozenset[Value] | None:
    """`range(2)` with constant bounds: its ints, in order (`map(lambda _: r, range(2))`)."""
    ints = constant_range(bounds)
    if ints is None or len(ints) > _MAX_RANGE:
        return None
    return frozenset({Seq("range", tuple(frozenset({Const(i)}) for i in ints))})


def _constant_flag(values: frozenset[Value]) -> bool | None:
    value = only_value(values)
    return value.value if isinstance(value, Const) and isinstance(value.value, bool) else None


def sort_key(values: frozenset[Value], depth: int = 0) -> object | None:
    """A constant as Python compares it; a tuple's elements that are not constants compare with
    nothing (`sorted(d.items())` orders by the keys and never compares the values)."""
    value = only_value(values)
    if isinstance(value, Const) and isinstance(value.value, (str, int, float)):
        return value.value
    if isinstance(value, Seq) and value.kind == "tuple" and value.elts is not None and depth < 3:
        parts = [sort_key(e, depth + 1) for e in value.elts]
        return tuple(_Incomparable() if part is None else part for part in parts)
    return None


class _Incomparable:
    """A part of a sort key that is not known: comparing it (which Python does only when the
    parts before it are equal) raises TypeError, and the order is then not known."""

    def __lt__(self, other: object) -> bool:
        raise TypeError("not known")

    __gt__ = __le__ = __ge__ = __lt__


def _with_counts_numbered(
    interp: Interpreter, seqs: list[Seq | None], args: list[frozenset[Value]]
) -> list[Seq | None]:
    """`zip(itertools.count(start, step), FNS)`: each count with constant start and step as the
    numbers that many known sequences beside it take (the shortest ends the zip)."""
    known = [len(seq.elements()) for seq in seqs if seq is not None]
    if not known or all(seq is not None for seq in seqs):
        return seqs
    out = list(seqs)
    for i, (seq, arg) in enumerate(zip(seqs, args, strict=True)):
        counter = only_value(arg)
        if seq is not None or not isinstance(counter, Instance) or counter.cls.node.name != "count":
            continue
        if counter.cls.model is not models.module_model("itertools"):
            continue
        start, step = (int_constant(operations.attribute(interp, counter, f, interp.model)) for f in ("start", "step"))
        if start is not None and step is not None:
            out[i] = Seq("list", tuple(frozenset({Const(start + step * n)}) for n in range(min(known))))
    return out


class _ByDunder:
    """An instance as `min`, `max` and `sorted` compare it: by its class's own `__lt__` (and
    `__gt__`, else the other's `__lt__` reflected), evaluated by the interpreter.  A comparison
    whose result is not a known bool raises TypeError: the order is then not known."""

    def __init__(self, interp: Interpreter, inst: Instance):
        self.interp, self.inst = interp, inst

    @staticmethod
    def of(interp: Interpreter, element: frozenset[Value]) -> _ByDunder | None:
        inst = only_value(element)
        if not isinstance(inst, Instance) or not operations.raw_class_attribute(interp, inst.cls, "__lt__"):
            return None
        return _ByDunder(interp, inst)

    def _less(self, a: Instance, b: Instance, name: str = "__lt__") -> bool:
        result = only_value(operations.dunder_result(self.interp, a, name, [frozenset({b})]))
        if isinstance(result, Const) and isinstance(result.value, bool):
            return result.value
        raise TypeError("not known")

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _ByDunder):
            raise TypeError("not known")
        return self._less(self.inst, other.inst)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, _ByDunder):
            raise TypeError("not known")
        if operations.raw_class_attribute(self.interp, self.inst.cls, "__gt__"):
            return self._less(self.inst, other.inst, "__gt__")
        return self._less(other.inst, self.inst)


def with_items(d: DictV, items: list[tuple[str, frozenset[Value]]]) -> DictV:
    """A new dict: `d`'s items, then `items` over them (a key already there keeps its place)."""
    if d.items is None:
        return DictV(None, d.members | union(v for _, v in items))
    merged = dict(d.items)
    merged.update(items)
    return DictV(tuple(merged.items()), union(merged.values()))


def dict_of_pairs(pairs: frozenset[Value], known: Seq | None) -> DictV:
    """`dict(iterable)` of (key, value) pairs: known keys when every pair is a known 2-tuple whose
    key is known (a constant, a def, a class, an enum member: `dict(zip(KS.values(), KS))`)."""
    if known is not None:
        items: list[tuple[object, frozenset[Value]]] = []
        for element in known.elements():
            pair = single_known_seq(element)
            if pair is None or len(pair.elements()) != 2:
                break
            known_key, key = key_of(only_value(pair.elements()[0]))
            if not known_key:
                break
            items.append((key, pair.elements()[1]))
        else:
            return DictV(tuple(items), union(v for _, v in items))
    values = union(
        seq.elements()[1] if seq.elts is not None and len(seq.elements()) == 2 else U
        for seq in (v for v in pairs if isinstance(v, Seq))
    )
    return DictV(None, values or U)
