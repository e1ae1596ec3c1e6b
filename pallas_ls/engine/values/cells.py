"""Closure cells at import: a maker's local that its closures rebind (`nonlocal n`), as the calls
the module's statements made before a read left it.

    def counter():
        n = 0
        def step():
            nonlocal n
            n += 1
            return n
        return step

    step = counter()
    step()
    kernel = FNS[step() - 1]      # n was 1 before this call: step() returns 2

A call of such a closure at import runs with the cell's value as the earlier calls left it: the
maker's own assignment, then each earlier call's stores, in order.  Followed only where certain:
the maker is called once in the module, by a module-level statement binding its closures to names
(`step = counter()`, `set_k, get_k = make()`); those names are called only by module-level
statements, never handed on; a closure's stores of the cell stand straight in its body.  Otherwise
the call is evaluated as any other (what earlier calls stored is not known: Unknown).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import Binding, Loc, ModuleModel, Scope, may_leave_early
from . import bindings, calls, import_order
from .domain import EMPTY_ENV, Func, Value

if TYPE_CHECKING:
    from .interpreter import Interpreter


def closure_at_import(interp: Interpreter, func: Func, call: ast.Call, model: ModuleModel) -> Func:
    """`func` (called by `call`, a read at import) with its cells as the earlier calls left them."""
    at = interp.reading_at
    if at is None or at[0] is not model or func.model is not model or not isinstance(func.node, ast.FunctionDef):
        return func
    maker_scope = _maker_scope(model, func.node)
    if maker_scope is None:
        return func
    cells = _cells(model, maker_scope)
    if not cells:
        return func
    names = _closure_names(model, maker_scope)
    if names is None:
        return func
    earlier = _earlier_calls(model, names, call)
    if earlier is None:
        return func
    values = _initial_values(interp, model, maker_scope, cells, func)
    if values is None:
        return func
    for event in earlier:
        values = _after_call(interp, model, event, cells, maker_scope, values)
        if values is None:
            return func
    own = model.scope_of_function[id(func.node)]
    if _reads_follow_stores(func.node, cells, own):
        # `fast = not fast; return bad if fast else good`: every read after the call's own stores
        # sees what they stored, which this call's run computes from the earlier calls' values
        after = _after_call(interp, model, call, cells, maker_scope, values)
        if after is not None:
            return Func(func.node, model, func.env.extended(_bound(model, maker_scope, cells, after, besides=None)))
    return Func(func.node, model, func.env.extended(_bound(model, maker_scope, cells, values, besides=own)))


def _reads_follow_stores(node: ast.FunctionDef, cells: list[str], scope: Scope) -> bool:
    """Whether the closure stores a cell in its body's own statements, and reads its cells only
    in those stores or after the last of them."""
    stores = [s for s in node.body if _stores_a_cell(s, cells, scope)]
    if not stores:
        return False
    inside = {id(n) for s in stores for n in ast.walk(s)}
    last = bindings.position(stores[-1])
    return all(
        id(n) in inside or bindings.position(n) > last
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and n.id in cells and isinstance(n.ctx, ast.Load)
    )


def _maker_scope(model: ModuleModel, node: ast.FunctionDef) -> Scope | None:
    """The scope of the module-level def `node` is made in (None: not directly in one)."""
    scope = model.scope_of_function.get(id(node))
    maker = scope.parent if scope is not None else None
    if maker is None or maker.kind != "function" or maker.parent is not model.module_scope:
        return None
    return maker


def _cells(model: ModuleModel, maker: Scope) -> list[str]:
    """The maker's names that a def made in it rebinds (`nonlocal n`, then a store)."""
    return sorted(
        {
            name
            for scope in model.scope_of_function.values()
            if scope.parent is maker
            for name in scope.nonlocal_names
            if name in scope.bindings and name in maker.bindings
        }
    )


def _closure_names(model: ModuleModel, maker: Scope) -> set[str] | None:
    """The module-level names the maker's one call binds (`step = counter()`), when the maker is
    named only there and each name is named only by that assignment and by calls in module-level
    statements (the maker's own body aside: `return step` names its local).  None otherwise."""
    name = getattr(maker.node, "name", "")
    statement = next((s for s in model.tree.body if isinstance(s, ast.Assign) and _calls(s.value, name)), None)
    if import_order.mentions_of(model, name) != 1 or statement is None or len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    parts = target.elts if isinstance(target, ast.Tuple) else [target]
    if not all(isinstance(p, ast.Name) for p in parts):
        return None
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    inside = [n.id for n in ast.walk(maker.node) if isinstance(n, ast.Name) and n.id in names]
    for bound in names:
        if len(model.module_scope.bindings.get(bound, [])) != 1:
            return None
        called = len(_module_level_calls(model, {bound}))
        if import_order.mentions_of(model, bound) != 1 + called + inside.count(bound):
            return None  # handed on, or called inside a function: when it runs is not known
    return names


def _module_level_calls(model: ModuleModel, names: set[str]) -> list[ast.Call]:
    """The calls of these names in the module's own statements (not in functions or classes)."""
    return [c for c in model.calls_named(sorted(names)) if model.loc(c).scope is model.module_scope]


def _surely_once(calls: list[ast.Call], model: ModuleModel) -> bool:
    return all(import_order.runs_surely_once(c, model) for c in calls)


def _calls(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == name


def _earlier_calls(model: ModuleModel, names: set[str], call: ast.Call) -> list[ast.Call] | None:
    """The calls of the closures' names the module's statements make before `call`, in order
    (None: the statement of `call` makes another, whose order is not followed)."""
    found = _module_level_calls(model, names)
    if call not in found or not _surely_once(found, model):
        return None  # a call under an `if`, in a loop: whether (and how often) it ran is not known
    line = model.loc(call).stmt
    if sum(1 for c in found if model.loc(c).stmt is line) != 1:
        return None
    return sorted((c for c in found if bindings.position(c) < bindings.position(call)), key=bindings.position)


def _initial_values(
    interp: Interpreter, model: ModuleModel, maker: Scope, cells: list[str], func: Func
) -> dict[str, frozenset[Value]] | None:
    """Each cell as the maker's one straight assignment of it made it (in the maker's call)."""
    body = getattr(maker.node, "body", [])
    values: dict[str, frozenset[Value]] = {}
    for name in cells:
        bindings = maker.bindings.get(name, [])
        if len(bindings) != 1 or not isinstance(bindings[0].stmt, ast.Assign) or bindings[0].stmt not in body:
            return None
        values[name] = interp.ev(bindings[0].stmt.value, Loc(maker, bindings[0].stmt), func.env, model)
    return values


def _after_call(
    interp: Interpreter,
    model: ModuleModel,
    call: ast.Call,
    cells: list[str],
    maker: Scope,
    values: dict[str, frozenset[Value]],
) -> dict[str, frozenset[Value]] | None:
    """The cells after an earlier call of a closure: its straight stores, in order."""
    where = model.loc(call)
    closures = interp.ev(call.func, where, EMPTY_ENV, model)
    closure = next(iter(closures)) if len(closures) == 1 else None
    if not isinstance(closure, Func) or not isinstance(closure.node, ast.FunctionDef):
        return None
    scope = model.scope_of_function.get(id(closure.node))
    if scope is None or scope.parent is not maker:
        return None
    body = closure.node.body
    stored = [s for s in body if _stores_a_cell(s, cells, scope)]
    everywhere = [s for s in ast.walk(closure.node) if _stores_a_cell(s, cells, scope)]
    if len(everywhere) != len(stored) or (stored and may_leave_early(body[: body.index(stored[-1]) + 1])):
        return None  # a store under an `if` or in a loop, or after an early return: not followed
    values = dict(values)
    for stmt in stored:
        # the cells as the stores before this one left them, wherever it reads them from
        func = Func(closure.node, model, closure.env.extended(_bound(model, maker, cells, values, besides=None)))
        env = calls.bind_call(interp, func, call, where, EMPTY_ENV, model)
        if env is None:
            return None
        here = Loc(scope, stmt)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            values[name] = interp.binary(stmt.op, values[name], interp.ev(stmt.value, here, env, model), stmt, here)
        elif isinstance(stmt, ast.Assign):
            value = interp.ev(stmt.value, here, env, model)
            values.update((t.id, value) for t in stmt.targets if isinstance(t, ast.Name))
    return values


def _stores_a_cell(node: ast.AST, cells: list[str], scope: Scope) -> bool:
    targets: list[ast.expr]
    if isinstance(node, ast.AugAssign):
        targets = [node.target]
    elif isinstance(node, ast.Assign):
        targets = list(node.targets)
    else:
        return False
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    return bool(names) and len(names) == len(targets) and all(n in cells and n in scope.nonlocal_names for n in names)


def _bound(
    model: ModuleModel, maker: Scope, cells: list[str], values: dict[str, frozenset[Value]], besides: Scope | None
) -> list[tuple[Binding, frozenset[Value]]]:
    """Every binding a read of a cell may reach (the maker's and the closures' stores) bound to
    the cell's value; `besides`'s own stores (the closure being run) are left to its code."""
    pairs: list[tuple[Binding, frozenset[Value]]] = []
    for name in cells:
        for b in (*maker.bindings.get(name, []), *model.nested_stores(maker, name)):
            if b.scope is not besides:
                pairs.append((b, values[name]))
    return pairs
