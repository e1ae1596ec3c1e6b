"""Which of a function's returns can run, and what they give: branches decided for a calling
context (`if fused:` with `fused=False` bound), statements after one that surely returns or
raises, loop blocks that never run (`while False:`), `match` cases decided for a known subject,
and first-match loops (`for m in maps: if key in m: return m[key]`) decided element by element.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ..model import Loc, own_returns
from . import operations, patterns, raising
from .domain import NONE, NONE_SET, Env, Func, Value

if TYPE_CHECKING:
    from .interpreter import Interpreter


def returns_of(interp: Interpreter, func: Func, env: Env) -> frozenset[Value]:
    """The union of what a function's reachable returns give (None when it can run off the end)."""
    node = func.node
    model = func.model
    if isinstance(node, ast.Lambda):
        return interp.ev(node.body, Loc(model.function_scope(node), None), env, model)
    first = _first_match(interp, func, env)
    if first is not None:
        return first
    values: set[Any] = set()
    for ret in reachable_returns(interp, func, env):
        if ret.value is None:
            values.add(NONE)
        else:
            values |= interp.ev(ret.value, model.loc(ret), env, model)
    if _may_fall_through(node.body, lambda test, stmt: _static_truth(interp, test, stmt, func, env)):
        values.add(NONE)
    return frozenset(values) if values else NONE_SET


def _first_match(interp: Interpreter, func: Func, env: Env) -> frozenset[Value] | None:
    """What a "first match" loop returns when its match is decided: `for m in maps: if key in
    m: return m[key]` over a known sequence, its test evaluated per element with the target bound
    to it, returns at the first element whose test is surely true (the later ones never run).
    None when the function is not one such loop (after statements that cannot exit), the
    sequence is not known, or no element surely matches (then every return is joined)."""
    node = cast(ast.FunctionDef, func.node)
    model = func.model
    for stmt in node.body:
        found = _first_match_loop(stmt)
        if found is None:
            if _may_exit(stmt):
                return None
            continue
        scope = model.function_scope(node)
        sequence = operations.unpacked(interp, interp.ev(found.loop.iter, Loc(scope, found.loop), env, model))
        target = next((b for b in scope.bindings.get(found.target.id, []) if b.node is found.target), None)
        if sequence is None or sequence.elts is None or target is None:
            return None
        values: set[Value] = set()
        for element in sequence.elts:
            bound = env.extended([(target, element)])
            taken = operations.truth_of(interp, interp.ev(found.test, Loc(scope, found.loop.body[0]), bound, model))
            if taken is False:
                continue
            values |= interp.ev(found.value, Loc(scope, found.ret), bound, model)
            if taken is True:
                return frozenset(values)
        return None
    return None


class _FirstMatchLoop(NamedTuple):
    """`for target in loop.iter: if test: return value` (`ret` the return statement)."""

    loop: ast.For
    target: ast.Name
    test: ast.expr
    ret: ast.Return
    value: ast.expr


def _first_match_loop(stmt: ast.stmt) -> _FirstMatchLoop | None:
    """The parts of `for name in seq: if test: return value` (nothing else in the loop)."""
    if not isinstance(stmt, ast.For) or not isinstance(stmt.target, ast.Name) or stmt.orelse or len(stmt.body) != 1:
        return None
    check = stmt.body[0]
    if not isinstance(check, ast.If) or check.orelse or len(check.body) != 1:
        return None
    ret = check.body[0]
    if not isinstance(ret, ast.Return) or ret.value is None:
        return None
    return _FirstMatchLoop(stmt, stmt.target, check.test, ret, ret.value)


def reachable_returns(interp: Interpreter, func: Func, env: Env) -> Iterator[ast.Return]:
    """The function's own returns, but for those in a branch whose test is constant for `env`
    (or without it: `if DEBUG:` with a module's `DEBUG = False`) and those after a statement that
    certainly returns or raises."""
    node = func.node
    if isinstance(node, ast.Lambda):  # a lambda has no return statement
        yield from own_returns(node)
        return
    scope = func.model.function_scope(node)

    def never_runs(try_stmt: ast.Try, handler: ast.ExceptHandler) -> bool:
        return raising.handler_never_runs(interp, try_stmt, handler, scope, env, func.model)

    yield from _returns_in(node.body, lambda test, stmt: _static_truth(interp, test, stmt, func, env), never_runs)


def reaches(interp: Interpreter, func: Func, env: Env, node: ast.AST) -> bool:
    """Whether running `func` with `env` can get to `node` (written in its own body): not when a
    statement before it certainly returns or raises, or an `if` on its way is decided against it
    (`if kernel is bump: return None` before the launch, explored with `bump`)."""
    return reaches_statement(interp, func, env, func.model.loc(node).stmt)


def reaches_statement(interp: Interpreter, func: Func, env: Env, where: ast.AST | None) -> bool:
    """`reaches` for a statement of `func`'s body (None: its end)."""
    if isinstance(func.node, ast.Lambda) or not env.items or where is None:
        return True
    enclosing = set(func.model.block_chain.get(id(where), ()))  # the blocks holding its statement
    return _reaches(func.node.body, where, enclosing, lambda test, stmt: _static_truth(interp, test, stmt, func, env))


def _reaches(body: list[ast.stmt], target: ast.AST, enclosing: set[int], truth: Callable[..., Any]) -> bool:
    for stmt in body:
        if stmt is target:
            return True
        blocks = [getattr(stmt, name, None) for name in ("body", "orelse", "finalbody")]
        inner = next((b for b in blocks if isinstance(b, list) and id(b) in enclosing), None)
        if inner is not None:
            if isinstance(stmt, ast.If) and truth(stmt.test, stmt) is (inner is not stmt.body):
                return False  # the branch holding it is decided against
            return _reaches(inner, target, enclosing, truth)
        if any(id(h.body) in enclosing for h in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or []):
            return True  # in an except handler or a match case: not followed
        if _may_exit(stmt) and not _may_fall_through([stmt], truth):
            return False
    return True


def _returns_in(
    body: list[ast.stmt], truth: Callable[..., Any], never_runs: Callable[[ast.Try, ast.ExceptHandler], bool]
) -> Iterator[ast.Return]:
    """The returns of `body` that may run: in branches and cases not decided against, in loop
    blocks that may run, in `except` handlers that may run (`never_runs` says which never do)."""
    for stmt in body:
        if isinstance(stmt, ast.Return):
            yield stmt
            return
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or not _may_exit(stmt):
            continue  # nothing in it returns, and what follows it runs
        if isinstance(stmt, ast.If):
            taken = truth(stmt.test, stmt)
            branches = [stmt.body] if taken is True else [stmt.orelse] if taken is False else [stmt.body, stmt.orelse]
            for branch in branches:
                yield from _returns_in(branch, truth, never_runs)
        elif isinstance(stmt, ast.Match):
            for case in _cases_taken(stmt, truth)[0]:
                yield from _returns_in(case.body, truth, never_runs)
        else:
            for block in _blocks_that_may_run(stmt, truth):
                yield from _returns_in(block, truth, never_runs)
            for inner in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or []:
                if not (isinstance(stmt, ast.Try) and never_runs(stmt, inner)):
                    yield from _returns_in(inner.body, truth, never_runs)
        if not _may_fall_through([stmt], truth):
            return  # what follows never runs


def _blocks_that_may_run(stmt: ast.stmt, truth: Callable[..., Any]) -> list[list[ast.stmt]]:
    """A compound statement's body, else and finally blocks, but for those that never run: the
    body of `while False:`, the else of `while True:` (its test never turns false), and the else
    of a loop over a non-empty sequence whose body breaks unconditionally (`for ...: ...; break`),
    the body of a loop over an empty one."""
    body: list[ast.stmt] = getattr(stmt, "body", None) or []
    orelse: list[ast.stmt] = getattr(stmt, "orelse", None) or []
    if isinstance(stmt, ast.While):
        test = truth(stmt.test, stmt)
        if test is False:
            body = []  # false on entry: the body never runs
        elif test is True and not _assigned_in(body) & {n.id for n in ast.walk(stmt.test) if isinstance(n, ast.Name)}:
            orelse = []  # true on entry and nothing in the loop changes it
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        nonempty = truth(stmt.iter, stmt)
        if nonempty is False:
            body = []  # over an empty sequence (`range(0)`): the body never runs
        elif nonempty is True and _always_breaks(body):
            orelse = []  # the first iteration runs and breaks
    return [body, orelse, getattr(stmt, "finalbody", None) or []]


def _assigned_in(body: list[ast.stmt]) -> set[str]:
    return {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _always_breaks(body: list[ast.stmt]) -> bool:
    """A loop body with a `break` of its own straight in it and no `continue` anywhere (which
    could skip the break)."""
    return any(isinstance(s, ast.Break) for s in body) and not any(
        isinstance(node, ast.Continue) for s in body for node in ast.walk(s)
    )


def _may_exit(stmt: ast.stmt) -> bool:
    """Does the statement hold a `return` or `raise` (not in a nested def), or a `while True`
    loop?  Only those decide which returns are reachable (kept on each statement asked about:
    asked per call).  Only statements are looked into: an expression holds none of them."""
    known: bool | None = getattr(stmt, "_pallas_ls_may_exit", None)
    if known is None:
        if isinstance(stmt, (ast.Return, ast.Raise)) or (
            isinstance(stmt, ast.While) and isinstance(stmt.test, ast.Constant) and stmt.test.value
        ):
            known = True
        else:
            known = any(
                _may_exit(inner)
                for inner in _inner_statements(stmt)
                if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            )
        setattr(stmt, "_pallas_ls_may_exit", known)  # noqa: B010  (a cache kept on the node)
    return known


def _inner_statements(stmt: ast.stmt) -> Iterator[ast.stmt]:
    """The statements of a compound statement's blocks (its handlers' and match cases' too)."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list):
            yield from (s for s in block if isinstance(s, ast.stmt))
    for inner in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or []:
        yield from inner.body


def _static_truth(interp: Interpreter, test: ast.expr, stmt: ast.stmt, func: Func, env: Env) -> bool | None:
    model = func.model
    return operations.truth_of(interp, interp.ev(test, Loc(model.function_scope(func.node), stmt), env, model))


def _may_fall_through(body: list[ast.stmt], truth: Callable[..., Any]) -> bool:
    """Can running `body` reach its end (and so return None)?  Conservative: True unless sure."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        t = truth(last.test, last)
        if t is True:
            return _may_fall_through(last.body, truth)
        if t is False:
            return _may_fall_through(last.orelse, truth)
        return _may_fall_through(last.body, truth) or _may_fall_through(last.orelse, truth)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _may_fall_through(last.body, truth)
    if isinstance(last, ast.Match):
        cases, exhaustive = _cases_taken(last, truth)
        return not exhaustive or any(_may_fall_through(case.body, truth) for case in cases)
    if isinstance(last, ast.While) and isinstance(last.test, ast.Constant) and last.test.value is True:
        return any(isinstance(n, ast.Break) for n in ast.walk(last))
    if isinstance(last, ast.Try):
        if last.finalbody and not _may_fall_through(last.finalbody, truth):
            return False
        body_falls = _may_fall_through(last.orelse or last.body, truth)
        return body_falls or any(_may_fall_through(h.body, truth) for h in last.handlers)
    return True


def _cases_taken(stmt: ast.Match, truth: Callable[..., Any]) -> tuple[list[ast.match_case], bool]:
    """The cases of a `match` that may run, in order, and whether one of them surely does: a case
    whose pattern is decided not to match is skipped, and none after one that surely matches."""
    taken: list[ast.match_case] = []
    for case in stmt.cases:
        test = patterns.pattern_test(stmt.subject, case.pattern)
        matches: bool | None = True if test is None else truth(test, stmt)
        if matches is False:
            continue
        # `case int(n) if n > 3:`, read where the case's captures are bound (its body)
        guarded: bool | None = True if case.guard is None else truth(case.guard, case.body[0])
        if guarded is False:
            continue
        taken.append(case)
        if matches is True and guarded is True:
            return taken, True
    return taken, False
