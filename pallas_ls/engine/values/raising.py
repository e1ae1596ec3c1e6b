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

from ..model import Loc, ModuleModel, Scope, is_generator
from . import bindings, calls, folding, returns
from .domain import Array, DictV, Env, External, Func, Param, Seq, key_of, only_value

if TYPE_CHECKING:
    from .interpreter import Interpreter


def handler_never_runs(
    interp: Interpreter, try_stmt: ast.Try, handler: ast.ExceptHandler, scope: Scope, env: Env, model: ModuleModel
) -> bool:
    """An `except KeyError` / `IndexError` / `LookupError` handler whose `try` body cannot raise
    it: assignments that call nothing, whose lookups are of keys a dict certainly holds, indexes a
    sequence certainly has, or `[...]` of a kernel's refs and arrays (`o_ref[...] = x_ref[...]`)."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    if only_lookup_errors(caught) and lookups_cannot_fail(interp, try_stmt.body, scope, env, model):
        return True
    if all(isinstance(c, ast.Name) and c.id == "ValueError" for c in caught) and calls_raise_no_value_error(
        interp, try_stmt.body, scope, env, model
    ):
        return True
    if all(isinstance(c, ast.Name) and c.id == "NameError" for c in caught) and names_surely_bound(
        try_stmt.body, scope, model
    ):
        return True
    return _only_value_errors(caught) and _nothing_can_raise(interp, try_stmt.body, scope, env, model)


# What a builtin given a wrong value raises (`int("x")`): a handler of these (or of lookup
# errors) runs when a call of the try body may fail.
_VALUE_ERRORS = frozenset({"ValueError", "TypeError", "ArithmeticError", "ZeroDivisionError", "OverflowError"})


def _only_value_errors(caught: list[ast.expr | None] | list[ast.expr]) -> bool:
    names = _VALUE_ERRORS | _LOOKUP_ERRORS
    return bool(caught) and all(isinstance(c, ast.Name) and c.id in names for c in caught)


def _nothing_can_raise(interp: Interpreter, body: list[ast.stmt], scope: Scope, env: Env, model: ModuleModel) -> bool:
    """A try body of name assignments and call statements whose only calls are builtins folded on
    constants (`int("12")`: folding ran it, it did not raise), whose only lookups cannot fail, and
    nothing else (no arithmetic, comparison or attribute, each of which may raise)."""
    for stmt in body:
        if not (
            isinstance(stmt, ast.Expr)
            or (isinstance(stmt, ast.Assign) and all(isinstance(t, (ast.Name, ast.Subscript)) for t in stmt.targets))
        ):
            return False
        where = Loc(scope, stmt)
        nodes = [*getattr(stmt, "targets", []), *ast.walk(stmt.value)]
        for node in nodes:
            if isinstance(node, ast.Call) and not _folds_without_error(interp, node, where, env, model):
                return False
            if isinstance(node, ast.Subscript) and (
                not _certainly_present(interp, node, where, env, model)
                or any(isinstance(v, (Param, Array)) for v in interp.ev(node.value, where, env, model))
            ):
                return False  # a lookup that may fail; a ref's or array's, which a wrong shape fails
            if not isinstance(node, _CANNOT_RAISE):
                return False
    return True


# Nodes that evaluate without raising once their parts did (a Name is bound: the reads reached it).
_CANNOT_RAISE = (ast.Name, ast.Constant, ast.Load, ast.Store, ast.Tuple, ast.List, ast.Call, ast.Subscript)


def _folds_without_error(interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> bool:
    callee = only_value(interp.ev(call.func, loc, env, model))
    if not isinstance(callee, External) or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    args = [interp.ev(a, loc, env, model) for a in call.args]
    return folding.folded_call(callee.qualname, args, []) is not None and callee.qualname in folding.PURE_NAMES


def only_lookup_errors(caught: list[ast.expr | None] | list[ast.expr]) -> bool:
    return bool(caught) and all(isinstance(c, ast.Name) and c.id in _LOOKUP_ERRORS for c in caught)


def lookups_cannot_fail(interp: Interpreter, body: list[ast.stmt], scope: Scope, env: Env, model: ModuleModel) -> bool:
    """Assignments that call nothing, whose lookups are of keys a dict certainly holds, indexes a
    sequence certainly has, or `[...]` of a kernel's refs and arrays: no lookup error."""
    for stmt in body:
        if not (isinstance(stmt, ast.Assign) and all(isinstance(t, (ast.Name, ast.Subscript)) for t in stmt.targets)):
            return False
        where = Loc(scope, stmt)
        for node in (*stmt.targets, *ast.walk(stmt.value)):
            if isinstance(node, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda)):
                return False
            if isinstance(node, ast.Subscript) and not _certainly_present(interp, node, where, env, model):
                return False
    return True


# The errors a failed lookup raises: a handler of only these runs when a lookup fails.
_LOOKUP_ERRORS = frozenset({"KeyError", "IndexError", "LookupError"})


def _certainly_present(interp: Interpreter, node: ast.Subscript, loc: Loc, env: Env, model: ModuleModel) -> bool:
    """`d[k]` of a known dict holding the constant key, `xs[i]` of a known sequence in range, or
    `r[...]` of a kernel's ref (a parameter) or an array."""
    if isinstance(node.slice, ast.Constant) and node.slice.value is Ellipsis:
        values = interp.ev(node.value, loc, env, model)
        if values and all(isinstance(v, (Param, Array)) for v in values):
            return True
    container = only_value(interp.ev(node.value, loc, env, model))
    known, key = key_of(only_value(interp.ev(node.slice, loc, env, model)))
    if not known:
        return False
    if isinstance(container, DictV):
        contents = interp.dict_contents(container)
        return contents.items is not None and any(k == key for k, _ in contents.items)
    if isinstance(container, Seq) and isinstance(key, int) and not isinstance(key, bool):
        seq = interp.heap.list_contents(container)
        return seq.elts is not None and -len(seq.elts) <= key < len(seq.elts)
    return False


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
    if not isinstance(callee, Func) or not isinstance(node, ast.FunctionDef) or is_generator(node):
        return False
    inner = calls.bind_call(interp, callee, call, loc, env, model)
    if inner is None or not inner.items:
        return False
    return not any(
        _may_raise_value_error(stmt) and returns.reaches_statement(interp, callee, inner, stmt)
        for stmt in bindings.own_statements(node.body)
    )


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
