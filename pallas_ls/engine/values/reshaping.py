"""A list bound to a name, reshaped in place before a read: `del name[i]`, `del name[i:j]` and
`name[i:j] = seq` with constant indexes, followed in the list's own straight-line code (see
`with_reshaping`); the other in-place changes are `mutations.py`'s."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from ..model import Binding, Loc, ModuleModel
from . import bindings, mutations
from .domain import UNKNOWN, Env, Seq, Value, int_constant, single_known_seq

if TYPE_CHECKING:
    from .interpreter import Interpreter


def with_reshaping(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A list display bound to a name, with what `del name[i]` and `name[i:j] = seq` did to it
    before the use: followed in the list's own straight-line code, with constant indexes, when
    nothing else changes the list (its other changes are applied kind by kind, not in order);
    otherwise its elements are no longer known (they were kept as they were: a wrong value)."""
    placements = [
        (node, mutations.placement(model, b, node, Loc(b.scope, node), use)) for node in _reshapings_of(model, b)
    ]
    changes = [(node, placed) for node, placed in placements if placed is not None]
    if not changes:
        return value
    out: set[Value] = set()
    for seq in value:
        if not (isinstance(seq, Seq) and seq.kind == "list"):
            out.add(seq)
            continue
        elements = _reshaped(interp, b, seq, changes, env, model)
        out.add(Seq("list", tuple(elements), seq.members, seq.site) if elements is not None else _unknown_list(seq))
    return frozenset(out)


def _reshaped(
    interp: Interpreter,
    b: Binding,
    seq: Seq,
    changes: list[tuple[ast.stmt, bool]],
    env: Env,
    model: ModuleModel,
) -> list[frozenset[Value]] | None:
    """`changes`: the statements before the use, each with whether it runs once, in order."""
    others = mutations.mutations_of(interp, b, model) or mutations.item_stores_of(interp, model, b)
    if seq.elts is None or others or not all(placed for _, placed in changes):
        return None
    elements = list(seq.elts)
    for node, _ in sorted(changes, key=lambda change: bindings.position(change[0])):
        where = Loc(b.scope, node)
        target = cast(ast.Delete | ast.Assign, node).targets[0]
        assert isinstance(target, ast.Subscript)
        span = _constant_span(interp, target.slice, len(elements), where, env, model)
        if span is None:
            return None
        start, stop = span
        if isinstance(node, ast.Delete):
            del elements[start:stop]
            continue
        assigned = single_known_seq(interp.ev(cast(ast.Assign, node).value, where, env, model))
        if assigned is None:
            return None
        elements[start:stop] = list(assigned.elements())
    return elements


def _constant_span(
    interp: Interpreter, index: ast.expr, length: int, where: Loc, env: Env, model: ModuleModel
) -> tuple[int, int] | None:
    """The elements `name[index]` denotes, as a slice of a list of `length` (None: not known)."""
    if isinstance(index, ast.Slice):
        if index.step is not None:
            return None
        bounds = [
            0 if part is None else int_constant(interp.ev(part, where, env, model))
            for part in (index.lower, index.upper)
        ]
        if index.upper is None:
            bounds[1] = length
        if any(bound is None for bound in bounds):
            return None
        start, stop, _ = slice(bounds[0], bounds[1]).indices(length)
        return start, max(start, stop)
    position = int_constant(interp.ev(index, where, env, model))
    if position is None or not -length <= position < length:
        return None
    position %= length
    return position, position + 1


def _unknown_list(seq: Seq) -> Seq:
    return Seq("list", None, seq.all_members() | {UNKNOWN}, seq.site)


def _reshapings_of(model: ModuleModel, b: Binding) -> list[ast.stmt]:
    """`del name[...]` and `name[i:j] = ...` statements of `b`'s name in its scope's body."""
    found: list[ast.stmt] = []
    for stmt in mutations.deletes_and_slice_stores(model, b.scope):
        targets = cast(ast.Delete | ast.Assign, stmt).targets
        target = targets[0]
        if (
            len(targets) == 1
            and isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == b.name
        ):
            found.append(stmt)
    return found
