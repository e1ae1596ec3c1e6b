"""A `while` or `for` loop that only rebinds names, run as Python runs it.

Kernel libraries choose block sizes and implementations this way (`bm = 512; while M % bm: bm //=
2`; `chosen = default; for cls, impl in registry.items(): if isinstance(arg, cls): chosen =
impl`): read after the loop, each name the body binds holds what the rounds left it, when every
test along the way is decided (a known start, known operands, a `for` over a known sequence).
A `break` (under a decided `if`) ends the rounds there, and a `for` loop's target read after
the loop is the element of the round that broke it (`for i, f in enumerate(FNS): if i == 2:
break`).  Anything else (a test not decided, more rounds than `_MAX_ROUNDS`, a body doing more
than assigning names under `if`s, `continue` or `else:`) leaves the values to the usual reading:
every value the body may give.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from ..model import Binding, Loc, ModuleModel, Scope
from . import bindings, flow, operations
from .domain import Env, Value, single_known_seq, union

if TYPE_CHECKING:
    from .interpreter import Interpreter

# Rounds followed before giving up (halving a block size from 2**20 takes 20).
_MAX_ROUNDS = 64

Loop = ast.While | ast.For
State = dict[str, frozenset[Value]]
# How a round of the body ends: run to its end, at a `break`, or at a test not decided.
NEXT, BREAK, STUCK = "next", "break", "stuck"


def value_after(
    interp: Interpreter, b: Binding, use: Loc | None, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """What a name bound in a simple loop's body (`b`) holds when read after the loop (`use`);
    None when the loop is not followed.  (Asked of every assignment read: cheap.)"""
    if use is None or use.stmt is None or use.scope is not b.scope:
        return None
    if len(model.block_chain.get(id(b.stmt), ())) < 2:
        return None  # in its scope's own body, as most assignments are: in no loop
    loop = _simple_loops_of(model.scope_node(b.scope)).get(id(b.stmt))
    if loop is None or getattr(use.stmt, "lineno", 0) <= (loop.end_lineno or loop.lineno):
        return None
    final = _final_state(interp, loop, b.scope, env, model)
    return final.get(b.name) if final is not None else None


def target_after(
    interp: Interpreter, loop: ast.For, b: Binding, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """A `for` loop's target read after the loop, when the loop is simple: the element of the
    round a `break` ended, else the last one.  None when not followed."""
    if not _simple(loop):
        return None
    final = _final_state(interp, loop, b.scope, env, model)
    return final.get(b.name) if final is not None else None


def walrus_after(
    interp: Interpreter, b: Binding, use: Loc | None, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """`while (i := i + 1) < n: ...`, `i` read after the loop: what the last test bound; None when
    the loop is not followed."""
    loop = b.stmt
    if use is None or use.stmt is None or use.scope is not b.scope or not isinstance(loop, ast.While):
        return None
    if _test_walrus(loop) is None or not _simple(loop) or getattr(use.stmt, "lineno", 0) <= (loop.end_lineno or 0):
        return None
    final = _final_state(interp, loop, b.scope, env, model)
    return final.get(b.name) if final is not None else None


def _test_walrus(loop: Loop) -> ast.NamedExpr | None:
    """The one assignment expression a `while` test holds (`(i := i + 1) < n`), binding a name."""
    if not isinstance(loop, ast.While):
        return None
    found = [n for n in ast.walk(loop.test) if isinstance(n, ast.NamedExpr)]
    return found[0] if len(found) == 1 and isinstance(found[0].target, ast.Name) else None


def _final_state(interp: Interpreter, loop: Loop, scope: Scope, env: Env, model: ModuleModel) -> State | None:
    key = (id(loop), env)
    if key not in interp._simple_loops:
        interp._simple_loops[key] = None  # while it is being run: a read of its names inside is not followed
        interp._simple_loops[key] = _run(interp, loop, scope, env, model)
    return interp._simple_loops[key]


def _simple_loops_of(owner: ast.AST) -> dict[int, Loop]:
    """The assignments in the body of a simple loop of one scope's body, with their loop (the
    innermost); kept on the node."""
    found: dict[int, Loop] | None = getattr(owner, "_pallas_ls_simple_loop_bodies", None)
    if found is None:
        found = {}
        for stmt in bindings.own_statements(getattr(owner, "body", [])):
            if isinstance(stmt, (ast.While, ast.For)) and _simple(stmt):
                found.update((id(inner), stmt) for inner in _assignments(stmt.body))
        setattr(owner, "_pallas_ls_simple_loop_bodies", found)  # noqa: B010  (a cache kept on the node)
    return found


def _simple(loop: Loop) -> bool:
    if loop.orelse or not _simple_body(loop.body):
        return False
    if isinstance(loop, ast.For) and not _names_only(loop.target):
        return False
    walrus = _test_walrus(loop)  # the one a `while` test may hold is run by `_run`
    return not any(
        isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Continue)) and node is not walrus
        for node in ast.walk(loop)
    )


def _simple_body(body: list[ast.stmt]) -> bool:
    """Assignments to names (`n -= 2`, `a, b = b, a`), and `if`s of such bodies."""
    for inner in body:
        if isinstance(inner, ast.If):
            if not (_simple_body(inner.body) and _simple_body(inner.orelse)):
                return False
        elif not (
            (isinstance(inner, ast.AugAssign) and isinstance(inner.target, ast.Name))
            or (isinstance(inner, ast.Assign) and len(inner.targets) == 1 and _names_only(inner.targets[0]))
            or isinstance(inner, (ast.Pass, ast.Break))
        ):
            return False
    return True


def _names_only(target: ast.expr) -> bool:
    """A `for` target of names (`for k in`, `for name, fn in`)."""
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, ast.Tuple) and all(_names_only(e) for e in target.elts)


def _assignments(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for inner in body:
        if isinstance(inner, ast.If):
            yield from _assignments(inner.body)
            yield from _assignments(inner.orelse)
        elif not isinstance(inner, (ast.Pass, ast.Break)):
            yield inner


def _run(interp: Interpreter, loop: Loop, scope: Scope, env: Env, model: ModuleModel) -> State | None:
    """Each name the loop's body binds, as the rounds leave it; None when a test is not decided
    (or a `for` loop's sequence not known)."""
    at_loop = Loc(scope, loop)
    walrus = _test_walrus(loop)
    names = [name for stmt in _assignments(loop.body) for name in _targets(stmt)]
    names += [walrus.target.id] if walrus is not None else []
    state = {
        name: union(
            bindings.binding_value(interp, x, env, model, at_loop)
            for x in flow.live(interp, bindings.lookup(interp, name, at_loop, model), at_loop, env, model)
            if x.stmt is not loop  # (the test's own assignment: not before the first round)
        )
        for name in dict.fromkeys(names)
    }
    if isinstance(loop, ast.For):
        return _run_for(interp, loop, scope, env, model, state)
    for _ in range(_MAX_ROUNDS + 1):
        before = _with_state(env, scope, state)
        # the test with the names as the last round left them; its assignment expression binds after
        bound = interp.ev(walrus.value, at_loop, before, model) if walrus is not None else None
        test = operations.truth_of(interp, interp.ev(loop.test, at_loop, before, model))
        if walrus is not None and bound is not None:
            state[walrus.target.id] = bound
        if test is None:
            return None
        if not test:
            return state
        ended = _run_body(interp, loop.body, scope, env, model, state, {})
        if ended == STUCK:
            return None
        if ended == BREAK:
            return state
    return None  # more rounds than followed


def _run_for(
    interp: Interpreter, loop: ast.For, scope: Scope, env: Env, model: ModuleModel, state: State
) -> State | None:
    iterable = interp.ev(loop.iter, Loc(scope, loop), env, model)
    seq = operations.unpacked(interp, iterable)
    if seq is not None and seq.kind == "list":
        seq = interp.heap.list_contents(seq)  # a list other code appends to: its elements when known
    if seq is None or seq.elts is None or len(seq.elts) > _MAX_ROUNDS:
        return None
    targets = [x for name in _target_names(loop.target) for x in scope.bindings.get(name, []) if x.stmt is loop]
    for element in seq.elts:
        bound = _destructured(loop.target, element)
        if bound is None:
            return None
        state.update(bound)  # the target after the loop: the last round's (or the one that broke)
        round_env = {x: bound[x.name] for x in targets}
        ended = _run_body(interp, loop.body, scope, env, model, state, round_env)
        if ended == STUCK:
            return None
        if ended == BREAK:
            return state
    return state


def _run_body(
    interp: Interpreter,
    body: list[ast.stmt],
    scope: Scope,
    env: Env,
    model: ModuleModel,
    state: State,
    targets: dict[Binding, frozenset[Value]],
) -> str:
    """One round of the body, updating `state`: NEXT, BREAK, or STUCK when an `if` test is not decided."""
    for stmt in body:
        here = Loc(scope, stmt)
        inside = _with_state(env, scope, state).extended(targets.items())
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Break):
            return BREAK
        if isinstance(stmt, ast.If):
            test = operations.truth_of(interp, interp.ev(stmt.test, here, inside, model))
            if test is None:
                return STUCK
            ended = _run_body(interp, stmt.body if test else stmt.orelse, scope, env, model, state, targets)
            if ended != NEXT:
                return ended
            continue
        value = interp.ev(cast(ast.Assign | ast.AugAssign, stmt).value, here, inside, model)
        if isinstance(stmt, ast.AugAssign):
            name = cast(ast.Name, stmt.target).id
            state[name] = interp.binary(stmt.op, state[name], value, stmt, here)
            continue
        bound = _destructured(cast(ast.Assign, stmt).targets[0], value)  # `a, b = b, a`
        if bound is None:
            return STUCK
        state.update(bound)
    return NEXT


def _destructured(target: ast.expr, element: frozenset[Value]) -> dict[str, frozenset[Value]] | None:
    """The names a `for` target binds to one element (`for name, fn in pairs`); None when a tuple
    target meets an element whose parts are not known."""
    if isinstance(target, ast.Name):
        return {target.id: element}
    parts = single_known_seq(element)
    elts = cast(ast.Tuple, target).elts
    if parts is None or len(parts.elements()) != len(elts):
        return None
    out: dict[str, frozenset[Value]] = {}
    for sub, part in zip(elts, parts.elements(), strict=True):
        inner = _destructured(sub, part)
        if inner is None:
            return None
        out.update(inner)
    return out


def _target_names(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _targets(stmt: ast.stmt) -> list[str]:
    target = stmt.target if isinstance(stmt, ast.AugAssign) else cast(ast.Assign, stmt).targets[0]
    return _target_names(target)  # _simple admits names only


def _with_state(env: Env, scope: Scope, state: State) -> Env:
    """`env` with every binding of the loop's names read as its current value."""
    return env.extended((x, value) for name, value in state.items() for x in scope.bindings.get(name, []))
