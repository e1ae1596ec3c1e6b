"""Whether a try body can raise what a handler catches, so that the handler may run.

ValueError (`try: impl = pick("a") except ValueError: impl = fallback`, where pick raises only for
names it does not know): the body's calls are of the module's own functions that cannot raise it.
NameError (`try: kernel except NameError: kernel = fallback`): every name it reads is bound there.

A call raises no ValueError when the function called is a def whose every `raise`, every call and
every unpacking (`a, b = pair`, which raises ValueError on a wrong length) is in a branch that the
call's arguments decide against (`if mode not in MODES: raise ValueError(mode)`).  Anything else
(a lambda, a generator, a call reached, a branch not decided) may raise.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import Loc, ModuleModel, Scope
from . import bindings, calls, returns
from .domain import Env, Func, only_value

if TYPE_CHECKING:
    from .interpreter import Interpreter


def calls_raise_no_value_error(
    interp: Interpreter, body: list[ast.stmt], scope: Scope, env: Env, model: ModuleModel
) -> bool:
    """A try body of assignments to names and call statements whose calls are of the module's
    functions that cannot raise ValueError with the arguments given (values.raising)."""
    for stmt in body:
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if value is None or (isinstance(stmt, ast.Assign) and not all(isinstance(t, ast.Name) for t in stmt.targets)):
            return False
        where = Loc(scope, stmt)
        for node in ast.walk(value):
            if isinstance(node, ast.Call) and not call_raises_no_value_error(interp, node, where, env, model):
                return False
            if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda)):
                return False
    return True


def call_raises_no_value_error(interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> bool:
    callee = only_value(interp.ev(call.func, loc, env, model))
    node = getattr(callee, "node", None)
    if not isinstance(callee, Func) or not isinstance(node, ast.FunctionDef) or _is_generator(node):
        return False
    inner = calls.bind_call(interp, callee, call, loc, env, model)
    if inner is None or not inner.items:
        return False
    return not any(
        _may_raise_value_error(stmt) and returns.reaches_statement(interp, callee, inner, stmt)
        for stmt in bindings.own_statements(node.body)
    )


def _is_generator(node: ast.FunctionDef) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))


def _may_raise_value_error(stmt: ast.stmt) -> bool:
    """A `raise`, a call in the statement's own expressions, or an unpacking assignment."""
    if isinstance(stmt, ast.Raise):
        return True
    if isinstance(stmt, (ast.Assign, ast.For)) and any(
        isinstance(t, (ast.Tuple, ast.List)) for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
    ):
        return True
    return any(isinstance(n, ast.Call) for part in _own_expressions(stmt) for n in ast.walk(part))


def _own_expressions(stmt: ast.stmt) -> list[ast.AST]:
    """The expressions a statement evaluates itself (a compound statement's header, not its blocks)."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in stmt.items]
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [*stmt.decorator_list]
    if isinstance(stmt, ast.Try):
        return [h.type for h in stmt.handlers if h.type is not None]
    return [stmt]


def names_surely_bound(body: list[ast.stmt], scope: Scope, model: ModuleModel) -> bool:
    """A try body of name reads and assignments to names (no call, attribute or item), every name
    it reads bound on every path to it by its scope: no NameError."""
    for stmt in body:
        if not isinstance(stmt, (ast.Expr, ast.Assign)):
            return False
        for node in ast.walk(stmt):
            if not isinstance(node, (ast.Expr, ast.Assign, ast.Name, ast.Load, ast.Store, ast.Constant, ast.Tuple)):
                return False
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and not model.surely_bound(scope, node.id, stmt)
            ):
                return False
    return True
