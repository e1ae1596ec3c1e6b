"""A module's global that the module's own functions store, read from another module.

`config.enable(False)` then `config.FAST`, in main's straight-line code, where config.py holds
`FAST = False` and `def enable(on=True): global FAST; FAST = on`: the read sees what that call
stored, not every value any call might store (the module's attribute, read elsewhere, is the join
of its last binding and every such store: bindings.module_attribute).  Within one module the same
is global_stores.at_calls.

Followed only where it is certain: the read and the calls are statements of the reading module's
body; the last call of a storing function before the read is a statement of its own, with
arguments that bind; no statement after it may import a module of the project or call another
function of that module (either might store again).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import Binding, FunctionNode, Loc, ModuleModel
from . import bindings, calls, library
from .domain import EMPTY_ENV, Func, Module, Value, union

if TYPE_CHECKING:
    from .interpreter import Interpreter


def read_after_calls(interp: Interpreter, expr: ast.Attribute, loc: Loc, model: ModuleModel) -> frozenset[Value] | None:
    """What `module.NAME` (`expr`, read at `loc` in `model`'s body) holds after the last call of
    one of that module's functions storing `global NAME` (see the module); None: not such a read."""
    if loc.scope is not model.module_scope or loc.stmt is None or not isinstance(expr.value, ast.Name):
        return None
    targets = interp.ev(expr.value, loc, EMPTY_ENV, model)
    module = next(iter(targets)) if len(targets) == 1 else None
    if not isinstance(module, Module) or module.model is model:
        return None
    stores = [b for b in module.model.global_stores(expr.attr) if _straight_in_its_function(b, module.model)]
    if not stores or len(stores) != len(module.model.global_stores(expr.attr)):
        return None
    writers = {id(b.scope.node) for b in stores}
    last = _last_writer_call(interp, model, loc.stmt, module.model, writers)
    if last is None:
        return None
    call, function = last
    env = calls.bind_call(interp, Func(function, module.model), call, model.loc(call), EMPTY_ENV, model)
    if env is None:
        return None
    return union(bindings.binding_value(interp, b, env, module.model) for b in stores if b.scope.node is function)


def _straight_in_its_function(store: Binding, module: ModuleModel) -> bool:
    """`global NAME; NAME = v` as a statement of a module-level def's own body (not under an `if`)."""
    function = store.scope.node
    return (
        isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        and store.scope.parent is module.module_scope
        and isinstance(store.stmt, ast.Assign)
        and any(stmt is store.stmt for stmt in function.body)
    )


def _last_writer_call(
    interp: Interpreter, model: ModuleModel, read: ast.AST, module: ModuleModel, writers: set[int]
) -> tuple[ast.Call, FunctionNode] | None:
    """The last statement of `model`'s body before `read` that calls a writer of `module`, and
    that writer; None when there is none, or something after it may store again."""
    last: tuple[ast.Call, FunctionNode] | None = None
    for stmt in model.tree.body:
        if stmt is read:
            return last
        called = _functions_of(interp, stmt, model, module)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and len(called) == 1:
            function = called[0][1]
            if id(function) in writers and called[0][0] is stmt.value:
                last = (stmt.value, function)
                continue
        if last is not None and (called or library.may_import_project_code(stmt)):
            return None  # another of its functions, or an import, may store again
        if any(id(function) in writers for _, function in called):
            return None  # a writer called under an `if`, in a loop, inside an expression
    return None


def _functions_of(
    interp: Interpreter, stmt: ast.stmt, model: ModuleModel, module: ModuleModel
) -> list[tuple[ast.Call, FunctionNode]]:
    """The calls in `stmt` (at any depth) of functions defined in `module`."""
    found = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call):
            for value in interp.ev(node.func, model.loc(node), EMPTY_ENV, model):
                if isinstance(value, Func) and value.model is module:
                    found.append((node, value.node))
    return found
