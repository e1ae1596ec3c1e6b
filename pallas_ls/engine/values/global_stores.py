"""A module-level global that its module's own functions rebind (`def configure(name): global
KERNEL; KERNEL = KS[name]`), read at import after the module's calls of them: what the calls before
the read stored, in their contexts and in order (`step += 1` and `FAST = not FAST` compute from what
the previous call left).  engine/values/bindings.py asks it for a read of such a store.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from ..model import Binding, Loc, ModuleModel, may_leave_early
from ..names import mentions
from . import bindings, calls, import_order
from .domain import EMPTY_ENV, Func, U, Value, union

if TYPE_CHECKING:
    from .interpreter import Interpreter


def at_calls(interp: Interpreter, b: Binding, use: Loc | None, model: ModuleModel) -> frozenset[Value] | None:
    """`configure("copy")` at module level, then `KERNEL` read there: a `global KERNEL` store in
    configure's own body (`KERNEL = KS[name]`) holds what it stored in that call's context, not in
    configure's generic one.  The last unconditional call before the read decides (the model
    drops the module's own bindings before it: ModuleModel._not_overwritten_by_calls); calls
    after it under an `if` or in a loop may have stored too.  None: not such a read."""
    function = b.scope.node
    if (
        use is None
        or use.scope is not model.module_scope
        or use.stmt is None
        or b.name not in b.scope.global_names
        or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        or not any(stmt is b.stmt for stmt in function.body)
    ):
        return None
    if b.scope.parent is model.module_scope:
        made = bindings.module_level_calls(interp, function, model)
    else:  # a classmethod or staticmethod only the module's call statements name (`Config.activate(bump)`)
        made = import_order.calls_at_import(model, function) or []
    read_at = bindings.position(use.stmt)
    before = [
        c
        for c in made
        if bindings.position(c) < read_at and not import_order.in_a_branch_not_taken(interp, c, model.loc(c), model)
    ]
    if not before and _only_called_at_import(model, function, made):
        return frozenset()  # every call of it comes later or under `if DEBUG:` that is never taken: not stored yet
    unconditional = [i for i, c in enumerate(before) if import_order.is_a_statement_of_the_module(c, model)]
    if not unconditional:
        return None
    func = Func(function, model, EMPTY_ENV)
    if isinstance(b.stmt, ast.AugAssign) or (isinstance(b.stmt, ast.Assign) and mentions(b.stmt.value, b.name)):
        # `step += 1`, `FAST = not FAST`: each call from what the one before left, or nothing is known
        return _accumulated(interp, b, b.stmt, func, before, model) or U
    values: list[frozenset[Value]] = []
    for call in before[unconditional[-1] :]:
        env = calls.bind_statement_call(interp, func, call, model)
        if env is None:
            return None
        values.append(bindings.assigned(interp, b, env, model))
    return union(values)


def _only_called_at_import(
    model: ModuleModel, function: ast.FunctionDef | ast.AsyncFunctionDef, made: list[ast.Call]
) -> bool:
    """Whether the module's calls `made` are all that names the undecorated def (no `globals()`
    either): it runs there and nowhere else while the module is imported."""
    return (
        bool(made)
        and not function.decorator_list
        and not import_order.reflective(model)
        and import_order.mentions_of(model, function.name) == len(made)
    )


def _accumulated(
    interp: Interpreter,
    b: Binding,
    stmt: ast.AugAssign | ast.Assign,
    func: Func,
    before: list[ast.Call],
    model: ModuleModel,
) -> frozenset[Value] | None:
    """`def advance(): global step; step += 1` (or `FAST = not FAST`), called by statements of the
    module before the read: each call computes from what the one before left (or from what a
    module-level statement bound in between: `step = 0`), in order; a call under an `if` may or
    may not have.  None: the function may run otherwise than by those calls, or leave before the
    store."""
    function = cast(ast.FunctionDef, func.node)
    index = next(i for i, s in enumerate(function.body) if s is stmt)
    if may_leave_early(function.body[: index + 1]) or import_order.calls_at_import(model, function) is None:
        return None
    own = [x for x in model.module_scope.bindings.get(b.name, []) if x.scope is model.module_scope]
    here = Loc(b.scope, stmt)
    value: frozenset[Value] | None = None
    previous: tuple[int, int] = (0, 0)
    for call in before:
        statement = model.loc(call).stmt
        between = [x for x in own if previous < bindings.position(x.stmt) < bindings.position(call)]
        if between or value is None:
            reaching = (
                model.reaching(own, statement)
                if not between
                else [max(between, key=lambda x: bindings.position(x.stmt))]
            )
            value = union(bindings.binding_value(interp, x, EMPTY_ENV, model) for x in reaching) if reaching else U
        env = calls.bind_statement_call(interp, func, call, model)
        if env is None:
            return None
        if isinstance(stmt, ast.AugAssign):
            added = interp.binary(stmt.op, value, interp.ev(stmt.value, here, env, model), stmt, here)
        else:  # the name read as the previous call left it
            reads = [*own, *model.global_stores(b.name)]
            added = interp.ev(stmt.value, here, env.extended((x, value) for x in reads), model)
        value = added if import_order.is_a_statement_of_the_module(call, model) else value | added
        previous = bindings.position(call)
    return value
