"""A `while` loop that only rebinds names, run as Python runs it.

Kernel libraries choose block sizes this way (`bm = 512; while M % bm: bm //= 2`, `while tb > 8
and need(tb) > limit: tb //= 2`): read after the loop, each name the body binds holds what the
rounds left it, when every test along the way is decided (a known start, known operands).
Anything else (a test not decided, more rounds than `_MAX_ROUNDS`, a body doing more than
assigning names) leaves the values to the usual reading: every value the body may give.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from ..model import Binding, Loc, ModuleModel, Scope
from . import bindings, flow, operations
from .domain import Env, Value, union

if TYPE_CHECKING:
    from .interpreter import Interpreter

# Rounds followed before giving up (halving a block size from 2**20 takes 20).
_MAX_ROUNDS = 64


def value_after(
    interp: Interpreter, b: Binding, use: Loc | None, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """What a name bound straight in a simple `while` loop's body (`b`) holds when read after the
    loop (`use`); None when the loop is not followed.  (Asked of every assignment read: cheap.)"""
    if use is None or use.stmt is None or use.scope is not b.scope:
        return None
    if len(model.block_chain.get(id(b.stmt), ())) < 2:
        return None  # in its scope's own body, as most assignments are: in no loop
    loop = _simple_loops_of(model.scope_node(b.scope)).get(id(b.stmt))
    if loop is None or getattr(use.stmt, "lineno", 0) <= (loop.end_lineno or loop.lineno):
        return None
    key = (id(loop), env)
    if key not in interp._while_loops:
        interp._while_loops[key] = None  # while it is being run: a read of its names inside is not followed
        interp._while_loops[key] = _run(interp, loop, b.scope, env, model)
    final = interp._while_loops[key]
    return final.get(b.name) if final is not None else None


def _simple_loops_of(owner: ast.AST) -> dict[int, ast.While]:
    """The statements directly in the body of a simple `while` loop of one scope's body (one that
    only assigns names, one per statement, with no `break`, `continue`, `else:` or walrus), with
    their loop; kept on the node."""
    found: dict[int, ast.While] | None = getattr(owner, "_pallas_ls_while_bodies", None)
    if found is None:
        found = {}
        for stmt in bindings.own_statements(getattr(owner, "body", [])):
            if isinstance(stmt, ast.While) and _simple(stmt):
                found.update((id(inner), stmt) for inner in stmt.body)
        setattr(owner, "_pallas_ls_while_bodies", found)  # noqa: B010  (a cache kept on the node)
    return found


def _simple(loop: ast.While) -> bool:
    if loop.orelse:
        return False
    for inner in loop.body:
        if not (
            (isinstance(inner, ast.AugAssign) and isinstance(inner.target, ast.Name))
            or (isinstance(inner, ast.Assign) and len(inner.targets) == 1 and isinstance(inner.targets[0], ast.Name))
        ):
            return False
    return not any(isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)) for node in ast.walk(loop))


def _run(
    interp: Interpreter, loop: ast.While, scope: Scope, env: Env, model: ModuleModel
) -> dict[str, frozenset[Value]] | None:
    """Each name the loop's body binds, as the rounds leave it; None when a test is not decided."""
    names = [_target(stmt) for stmt in loop.body]
    at_loop = Loc(scope, loop)
    state = {
        name: union(
            bindings.binding_value(interp, x, env, model, at_loop)
            for x in flow.live(interp, bindings.lookup(interp, name, at_loop, model), at_loop, env, model)
        )
        for name in dict.fromkeys(names)
    }
    for _ in range(_MAX_ROUNDS + 1):
        test = operations.truth_of(interp, interp.ev(loop.test, at_loop, _with_state(env, scope, state), model))
        if test is None:
            return None
        if not test:
            return state
        for stmt, name in zip(loop.body, names, strict=True):
            here = Loc(scope, stmt)
            inside = _with_state(env, scope, state)
            value = interp.ev(cast(ast.Assign | ast.AugAssign, stmt).value, here, inside, model)
            if isinstance(stmt, ast.AugAssign):
                value = interp.binary(stmt.op, state[name], value, stmt, here)
            state[name] = value
    return None  # more rounds than followed


def _target(stmt: ast.stmt) -> str:
    target = stmt.target if isinstance(stmt, ast.AugAssign) else cast(ast.Assign, stmt).targets[0]
    return cast(ast.Name, target).id  # _simple_loop_around admits names only


def _with_state(env: Env, scope: Scope, state: dict[str, frozenset[Value]]) -> Env:
    """`env` with every binding of the loop's names read as its current value."""
    return env.extended((x, value) for name, value in state.items() for x in scope.bindings.get(name, []))
