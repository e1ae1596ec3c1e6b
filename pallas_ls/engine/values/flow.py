"""Control flow as the interpreter reads it: which definitions of a name reach a read, and what
a container holds by then.

- Branches: a definition in a branch of an `if` whose test is decided against it never reaches a
  read, one in decided branches overwrites what came before, and an `except` block after a body
  that cannot raise what it catches never runs (`live`).
- Loops: an assignment in a `for` loop over a known sequence is evaluated per element
  (`per_iteration`), and the loop's target read after `if test: continue` / `break` holds the
  elements that pass (`loop_target_at`).
- An iterator advanced by `next(it)` before a read (`advanced_iterator`); containers changed in
  place before a read are `mutations.py`'s.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..model import COMPREHENSIONS, Binding, Loc, ModuleModel, Scope, suppresses
from . import bindings, operations, patterns, raising, simple_loops
from .domain import (
    EMPTY_ENV,
    Env,
    External,
    Seq,
    U,
    Value,
    single_known_seq,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter


def per_iteration(interp: Interpreter, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value] | None:
    """An assignment in a `for` loop over a known sequence, evaluated once per element with the
    loop target bound to it: the `if`s between the loop and the assignment decide which
    iterations assign, and a `break` after it ends the loop at the first that surely does
    (`for k in KERNELS: if k.__name__ == "fast": chosen = k; break`).  None when it is not in
    such a loop (or the sequence is not known)."""
    guarded = loop_guards(model, cast(ast.stmt, b.stmt), b.scope)
    if guarded is None:
        return None
    loop, tests, breaks = guarded
    if _same_in_every_iteration(loop, cast(ast.stmt, b.stmt)):
        return None  # evaluated once (whichever iterations assign it): unrolling would cost for nothing
    iterations = loop_envs(interp, loop, b.scope, env, model)
    if iterations is None:
        return None
    stmt = cast(ast.Assign, b.stmt)
    out: set[Value] = set()
    for inside in iterations:
        reached, surely = _branches_taken(interp, tests, b.scope, inside, model)
        if not reached:
            continue  # this iteration does not reach the assignment
        out |= bindings.assigned_by(interp, b, stmt, inside, model)
        if breaks and surely:
            break  # it surely assigns, then leaves the loop
    return frozenset(out)


def _same_in_every_iteration(loop: ast.For, stmt: ast.stmt) -> bool:
    """An assignment whose value reads no name the loop binds (its targets, its body's
    assignments) assigns the same in every iteration (`jitted = jax.jit(f)` in a loop over a
    dict's items: reading the dict's stores to unroll the loop cost a keystroke ~25 ms for
    nothing).  Kept on the statement."""
    same: bool | None = getattr(stmt, "_pallas_ls_same_each_iteration", None)
    if same is None:
        value = getattr(stmt, "value", None)
        bound = _names_bound_in(loop)
        same = value is not None and not any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(value))
        setattr(stmt, "_pallas_ls_same_each_iteration", same)  # noqa: B010  (a cache kept on the node)
    return same


def _names_bound_in(loop: ast.For) -> frozenset[str]:
    """The names a loop's target and body bind (assign, define), found once per loop."""
    bound: frozenset[str] | None = getattr(loop, "_pallas_ls_bound_names", None)
    if bound is None:
        bound = frozenset(
            n.id if isinstance(n, ast.Name) else cast(ast.FunctionDef, n).name
            for n in ast.walk(loop)
            if (isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
            or isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        )
        setattr(loop, "_pallas_ls_bound_names", bound)  # noqa: B010  (a cache kept on the node)
    return bound


def loop_targets(loop: ast.For, scope: Scope) -> list[tuple[Binding, list[Any]]] | None:
    """The names a `for` loop binds (`k`, or `name, fn` of `for name, fn in T.items()`), each
    with where it sits in the target; None when a name is bound elsewhere in the scope too."""
    names = [n for n in ast.walk(loop.target) if isinstance(n, ast.Name)]
    found = []
    for name in names:
        bound = [t for t in scope.bindings.get(name.id, []) if t.stmt is loop]
        path = bindings.path_to(loop.target, name)
        if len(bound) != 1 or path is None or not names:
            return None
        found.append((bound[0], path))
    return found or None


def loop_envs(
    interp: Interpreter, loop: ast.For, scope: Scope, env: Env, model: ModuleModel, limit: int | None = None
) -> list[Env] | None:
    """One environment per iteration of a `for` loop over a known sequence of at most `limit`
    elements (default: as many as are followed element by element): `env` with the loop's
    targets bound to that element.  None when the targets or the sequence are not known."""
    targets = loop_targets(loop, scope)
    seq = _unrolled(interp, loop, scope, env, model) if targets is not None else None
    if seq is None or targets is None or (limit is not None and len(seq.elements()) > limit):
        return None
    return [env.extended((t, bindings.destructure(e, path)) for t, path in targets) for e in seq.elements()]


def _unrolled(interp: Interpreter, loop: ast.For, scope: Scope, env: Env, model: ModuleModel) -> Seq | None:
    """The known sequence a `for` loop runs over, when it is short enough to follow element by element."""
    # `for c in "copy"`: a constant string's characters, as `unpacked` spreads them
    seq = operations.unpacked(interp, interp.ev(loop.iter, Loc(scope, loop), env, model))
    return seq if seq is not None and len(seq.elements()) <= _MAX_UNROLLED else None


_MAX_UNROLLED = 32
# Iterations of a loop around a statement checked one by one (`iteration_envs`).
_MAX_ITERATION_ENVS = 8


def iteration_envs(interp: Interpreter, loc: Loc, env: Env, model: ModuleModel) -> list[Env]:
    """One environment per iteration of the `for` loop around `loc`'s statement (its targets bound
    to each element of a known, short sequence): `for i in range(2): run(bufs[i], bufs[(i + 2) % 2])`
    passes one Ref twice in every iteration, which the loop target's values all at once hide."""
    if loc.stmt is None or not isinstance(loc.stmt, ast.stmt):
        return []
    guarded = loop_guards(model, loc.stmt, loc.scope)
    if guarded is None:
        return []
    return loop_envs(interp, guarded[0], loc.scope, env, model, _MAX_ITERATION_ENVS) or []


def loop_target_at(interp: Interpreter, b: Binding, use: Loc, env: Env, model: ModuleModel) -> frozenset[Value] | None:
    """A `for` loop's target read in the loop's body after `if test: continue` / `if test: break`
    statements: the elements of a known sequence that reach the read (a `continue` decided true
    skips one, a `break` decided true ends the loop); read after the loop, its last element.
    None when no such rule applies."""
    loop = b.stmt
    if not isinstance(loop, ast.For) or loop.target is not b.node:
        return None
    if use.scope is not b.scope and _collected_in(loop, use.scope.node) and len(b.scope.bindings.get(b.name, [])) == 1:
        # a function the loop's body made and appended, called after the loop: it reads the
        # target late, at its last value (`for k in ks: fns.append(lambda: k())`)
        return _after_the_loop(interp, loop, b, env, model)
    if use.scope is not b.scope or use.stmt is None:
        return None
    line = getattr(use.stmt, "lineno", 0)
    if line > (loop.end_lineno or loop.lineno):
        return _after_the_loop(interp, loop, b, env, model)
    index = next((i for i, s in enumerate(loop.body) if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
    if index is not None and any(isinstance(s, (ast.Return, ast.Break, ast.Raise)) for s in loop.body):
        # `for kernel in CANDIDATES: return run(kernel)`: the body ends the loop in its first
        # iteration, so only the first element is ever read there.
        first = _unrolled(interp, loop, b.scope, env, model)
        return first.elements()[0] if first is not None and first.elements() else None
    filters = [s for s in loop.body[: index or 0] if _loop_filter(s) is not None]
    if not filters:
        return None
    seq = _unrolled(interp, loop, b.scope, env, model)
    if seq is None:
        return None
    out: set[Value] = set()
    for element in seq.elements():
        inside = env.extended([(b, element)])
        outcomes = [
            (
                operations.truth_of(interp, interp.ev(cast(ast.If, f).test, Loc(b.scope, f), inside, model)),
                _loop_filter(f),
            )
            for f in filters
        ]
        reached = next((kind for decided, kind in outcomes if decided is True), None)
        if reached == "break":
            break  # the loop ends at this element
        if reached is None:
            out |= element
    return frozenset(out) or U


def accumulated(
    interp: Interpreter, b: Binding, use: Loc | None, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """`name += c` straight in the body of a `for` over a known non-empty sequence, read after
    the loop: the value before the loop with each iteration's operand applied in turn
    (`for c in "copy": name += c` leaves "copy"; `n += 1` over two specs, 2).  None when the
    loop may skip or repeat the statement, or the name is bound otherwise in the loop."""
    stmt = b.stmt
    if not isinstance(stmt, ast.AugAssign) or use is None or use.stmt is None or use.scope is not b.scope:
        return None
    loop = whole_loop_around(model, stmt, b.scope, use)
    if loop is None:
        return None
    inside = [x for x in b.scope.bindings.get(b.name, []) if loop.lineno <= x.position[0] <= (loop.end_lineno or 0)]
    if inside != [b]:
        return None
    iterations = loop_envs(interp, loop, b.scope, env, model)
    if not iterations:
        return None
    where = Loc(b.scope, loop)
    value = union(
        bindings.binding_value(interp, x, env, model, where) for x in bindings.lookup(interp, b.name, where, model)
    )
    for each in iterations:
        operand = interp.ev(stmt.value, Loc(b.scope, stmt), each, model)
        value = interp.binary(stmt.op, value, operand, stmt, Loc(b.scope, stmt))
    return value


def _collected_in(loop: ast.For, function: ast.AST) -> bool:
    """Whether `function` (a lambda or def) is made in the loop's body and only appended to a list
    there (`fns.append(lambda: k())`, or `def f(): ...` then `fns.append(f)`): never run in the loop."""
    appends = [
        stmt.value
        for stmt in loop.body
        if isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and isinstance(stmt.value.func.value, ast.Name)
        and stmt.value.func.attr == "append"
        and len(stmt.value.args) == 1
    ]
    lists = {cast(ast.Name, cast(ast.Attribute, call.func).value).id for call in appends}
    receivers = {id(cast(ast.Attribute, call.func).value) for call in appends}
    if any(isinstance(n, ast.Name) and n.id in lists and id(n) not in receivers for n in ast.walk(loop)):
        return False  # the list is read in the loop too (`fns[-1]()`): a closure may run there
    appended = [call.args[0] for call in appends]
    if isinstance(function, ast.Lambda):
        return any(a is function for a in appended)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not any(s is function for s in loop.body):
        return False
    uses = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == function.name]
    return bool(uses) and all(any(a is n for a in appended) for n in uses)


def _after_the_loop(
    interp: Interpreter, loop: ast.For, b: Binding, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """The target read after its loop: the last element of a known non-empty sequence, when the
    loop has no `break` (`for kernel in (copy, bump): pass` leaves bump).  None otherwise."""
    if _may_leave_early(loop):
        return simple_loops.target_after(interp, loop, b, env, model)  # the round a `break` ended
    seq = _unrolled(interp, loop, b.scope, env, model)
    elements = seq.elements() if seq is not None else ()
    return elements[-1] if elements else None


def whole_loop_around(model: ModuleModel, stmt: ast.stmt, scope: Scope, use: Loc) -> ast.For | None:
    """The `for` loop `stmt` stands straight in the body of (no `if` around it, no `break` or
    `continue` in the loop), when `use` does not read inside that loop: by the use, `stmt` ran
    once per element.  None otherwise."""
    guarded = loop_guards(model, stmt, scope)
    if guarded is None or guarded[1] or guarded[2]:
        return None
    loop = guarded[0]
    if not any(s is stmt for s in loop.body) or _may_leave_early(loop, ast.Continue):
        return None
    if use.scope is scope and use.stmt is not None and getattr(use.stmt, "lineno", 0) <= (loop.end_lineno or 0):
        return None  # read inside the loop: by then the body has run some of the times only
    return loop


def _may_leave_early(loop: ast.For, *also: type[ast.stmt]) -> bool:
    """Whether a `break` (or one of `also`: `continue`) is written anywhere in the loop's body
    (an inner loop's too: erring on the side of "may")."""
    kinds: tuple[type[ast.stmt], ...] = (ast.Break, *also)
    return any(isinstance(node, kinds) for stmt in loop.body for node in ast.walk(stmt))


def _loop_filter(stmt: ast.stmt) -> str | None:
    """ "continue" / "break" for `if test: continue` / `if test: break` (no else), else None."""
    if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1:
        if isinstance(stmt.body[0], ast.Continue):
            return "continue"
        if isinstance(stmt.body[0], ast.Break):
            return "break"
    return None


def loop_guards(
    model: ModuleModel, stmt: ast.stmt, scope: Scope
) -> tuple[ast.For, list[tuple[ast.If, bool]], bool] | None:
    """The `for` loop whose body holds `stmt` through `if` branches only, the `if`s on the way
    (each with the branch `stmt` is in), and whether a `break` follows `stmt` in its block."""
    if len(model.block_chain.get(id(stmt), ())) <= 1:
        return None  # in its scope's own body: in no loop (asked for every assignment evaluated)
    return _loop_guards_of(model.scope_node(scope)).get(id(stmt))


def _loop_guards_of(owner: ast.AST) -> dict[int, tuple[ast.For, list[tuple[ast.If, bool]], bool]]:
    """`loop_guards` of the statements of one scope's body (a def's, a class's or the module's,
    not those of the scopes nested in it), found in one walk and kept on its node."""
    found: dict[int, Any] | None = getattr(owner, "_pallas_ls_loop_guards", None)
    if found is not None:
        return found
    found = {}
    # (block, the guards of the statements in it: the loop and the ifs from it, or None)
    work: list[tuple[list[ast.stmt], tuple[ast.For, tuple[tuple[ast.If, bool], ...]] | None]] = [
        (getattr(owner, "body", []), None)
    ]
    while work:
        block, guards = work.pop()
        breaks_from = [False] * (len(block) + 1)  # a `break` at this index or after it
        for index in range(len(block) - 1, -1, -1):
            breaks_from[index] = breaks_from[index + 1] or isinstance(block[index], ast.Break)
        for index, stmt in enumerate(block):
            if guards is not None:
                found[id(stmt)] = (guards[0], list(guards[1]), breaks_from[index])
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue  # a scope of its own
            if isinstance(stmt, ast.For):
                work.append((stmt.body, (stmt, ())))
                work.append((stmt.orelse, None))
            elif isinstance(stmt, ast.If):
                for body, taken in ((stmt.body, True), (stmt.orelse, False)):
                    work.append((body, (guards[0], (*guards[1], (stmt, taken))) if guards is not None else None))
            else:
                for field in ("body", "orelse", "finalbody"):
                    inner_block = getattr(stmt, field, None)
                    if isinstance(inner_block, list) and inner_block and isinstance(inner_block[0], ast.stmt):
                        work.append((inner_block, None))
                for handler in getattr(stmt, "handlers", ()):
                    work.append((handler.body, None))
    setattr(owner, "_pallas_ls_loop_guards", found)  # noqa: B010  (a cache kept on the node)
    return found


def walrus_before(read: ast.Name, loc: Loc) -> Binding | None:
    """The `name := value` of the read's own statement that surely ran before the read (it ends
    before it, outside `and` / `or` operands after the first, conditional expressions' branches,
    lambdas and comprehensions): `run((r := jax.new_ref(x)), r)` passes one Ref twice."""
    before = [
        b
        for b in loc.scope.bindings.get(read.id, ())
        if b.stmt is loc.stmt
        and b.stmt is not None
        and b.value is not None
        and (getattr(b.value, "end_lineno", 0), getattr(b.value, "end_col_offset", 0)) <= (read.lineno, read.col_offset)
    ]
    sure = _sure_walruses(cast(ast.AST, loc.stmt)) if before else frozenset()
    surely_ran = [b for b in before if id(b.value) in sure]
    return max(surely_ran, key=lambda b: b.position) if surely_ran else None


def _sure_walruses(stmt: ast.AST) -> frozenset[int]:
    """The values (ids) of the walruses a statement surely evaluates, found once per statement."""
    found: frozenset[int] | None = getattr(stmt, "_pallas_ls_sure_walruses", None)
    if found is not None:
        return found
    out: set[int] = set()
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if node is not stmt and isinstance(node, (ast.stmt, ast.Lambda, *COMPREHENSIONS)):
            continue  # a block's statements, a nested function or comprehension: not run here
        if isinstance(node, ast.NamedExpr):
            out.add(id(node.value))
        if isinstance(node, ast.BoolOp):
            stack.append(node.values[0])  # the later operands may not run
        elif isinstance(node, ast.IfExp):
            stack.append(node.test)  # nor either branch
        else:
            stack.extend(ast.iter_child_nodes(node))
    found = frozenset(out)
    setattr(stmt, "_pallas_ls_sure_walruses", found)  # noqa: B010  (a cache on the node)
    return found


def live(interp: Interpreter, found: list[Binding], use: Loc | None, env: Env, model: ModuleModel) -> list[Binding]:
    """The bindings (latest first, as `ModuleModel.reaching` gives them) that may reach a use,
    without those in a branch of an `if` whose test is decided against it (`if FAST: k = fused`
    with FAST False), and without those a binding in decided branches surely overwrote."""
    if len(found) < 2:
        return found  # one definition: if its branch never ran, the read fails anyway
    out: list[Binding] = []
    for b in found:
        owner = _inner_block_owner(model, b)  # None: in its scope's own body, in no block
        guards = _branch_guards_of(owner).get(id(b.stmt), []) if owner is not None else []
        if owner is not None and _in_a_handler_never_run(interp, model, b, owner):
            continue
        inside = env if use is not None and b.scope is use.scope else EMPTY_ENV
        after = _closing_block(interp, model, b, owner, inside) if owner is not None else None
        if after is not None:  # `finally:`, a `for`'s or `try`'s `else:`
            statement, runs = after
            if runs is False:
                continue  # a loop that surely breaks skips its `else`
            if runs and _surely_runs_before(model, b, statement, use):
                out.append(b)
                break  # surely run after what the statement's body bound: it overwrites it
        reached, surely = _branches_taken(interp, guards, b.scope, inside, model)
        if not reached:
            continue  # its branch is not taken
        out.append(b)
        if guards and surely and _surely_runs_before(model, b, guards[0][0], use):
            break  # the taken branches assign it: what came before is overwritten
        if isinstance(b.stmt, ast.AugAssign) and accumulated(interp, b, use, env, model) is not None:
            break  # accumulated over every iteration, from what came before
        if isinstance(b.stmt, (ast.AugAssign, ast.Assign)) and simple_loops.value_after(interp, b, use, env, model):
            break  # what a `while` loop's rounds left it, from what came before
    return out


def _branches_taken(
    interp: Interpreter,
    guards: Sequence[tuple[ast.If | ast.While, bool]],
    scope: Scope,
    env: Env,
    model: ModuleModel,
) -> tuple[bool, bool]:
    """Whether the branches `guards` name (each `if` with the side a statement is in) may all be
    taken in `env`, and whether they surely all are (every test decided their way)."""
    decided = [
        operations.truth_of(interp, interp.ev(test.test, Loc(scope, getattr(test, "_pallas_ls_at", test)), env, model))
        for test, _ in guards
    ]
    sides = [side for _, side in guards]
    reached = all(d is None or d is side for d, side in zip(decided, sides, strict=True))
    # A `while` body entered may break or continue before the statement: never surely run.
    surely = all(d is side for d, side in zip(decided, sides, strict=True)) and not any(
        isinstance(test, ast.While) for test, _ in guards
    )
    return reached, surely


def statement_runs(
    interp: Interpreter, function: ast.AST, stmt: ast.stmt, scope: Scope, env: Env, model: ModuleModel
) -> tuple[bool, bool]:
    """Whether a statement of a function's body may run, and whether it surely does, in `env`:
    sure in the body itself or in `if` branches whose tests are decided its way; may in a branch
    a test does not decide, or under a loop, `try` or `with`."""
    if any(stmt is s for s in getattr(function, "body", [])):
        return True, True
    guards = _branch_guards_of(function).get(id(stmt))
    if guards is None:
        return True, False
    return _branches_taken(interp, guards, scope, env, model)


def _inner_block_owner(model: ModuleModel, b: Binding) -> ast.AST | None:
    """The node whose body holds `b`'s statement inside an inner block (an `if`, a loop, a `try`);
    None when it stands in its scope's own body (or is a parameter)."""
    if b.stmt is None or len(model.block_chain.get(id(b.stmt), ())) <= 1:
        return None
    return model.scope_node(b.scope)


def _in_a_handler_never_run(interp: Interpreter, model: ModuleModel, b: Binding, owner: ast.AST) -> bool:
    """`except KeyError: k = fallback` after a `try` body that cannot raise what the handler
    catches (see `handler_never_runs`); `owner`: the node whose body holds `b`'s block."""
    found = _handlers_of(owner).get(id(b.stmt))
    if found is None:
        return False
    try_stmt, handler = found
    return raising.handler_never_runs(interp, try_stmt, handler, b.scope, EMPTY_ENV, model)


def _closing_block(
    interp: Interpreter, model: ModuleModel, b: Binding, owner: ast.AST, env: Env
) -> tuple[ast.stmt, bool | None] | None:
    """For a binding directly in a block that runs after a statement's body, that statement and
    whether the block runs: a `finally:` surely does; a `for` loop's `else:` runs when the loop
    never breaks (decided per element of a known sequence, see `loop_breaks`); a `try`'s `else:`
    runs when its body cannot raise (`cannot_raise`); a statement in a `with suppress(KeyError):`
    body surely runs when nothing before it (and itself) can fail a lookup.  None for other
    bindings."""
    found = _closing_blocks_of(owner).get(id(b.stmt))
    if found is None:
        return None
    statement, field = found
    if field == "finalbody":
        return statement, True
    if isinstance(statement, (ast.With, ast.AsyncWith)):  # `with suppress(KeyError):` left part way?
        block = statement.body[: statement.body.index(cast(ast.stmt, b.stmt)) + 1]
        caught = [
            a for item in statement.items if isinstance(item.context_expr, ast.Call) for a in item.context_expr.args
        ]
        return statement, True if raising.only_lookup_errors(caught) and raising.lookups_cannot_fail(
            interp, block, b.scope, env, model
        ) else None
    if isinstance(statement, ast.For):
        breaks = loop_breaks(interp, statement, b.scope, env, model)
        return statement, None if breaks is None else not breaks
    try_stmt = cast(ast.Try, statement)
    return statement, True if cannot_raise(model, try_stmt.body, b.scope) else None


def _closing_blocks_of(owner: ast.AST) -> dict[int, tuple[ast.stmt, str]]:
    """The statements directly in a `finally:` block or a `for` / `try` statement's `else:` block
    of one scope's body, with that statement and the block's field; kept on the node."""
    found: dict[int, tuple[ast.stmt, str]] | None = getattr(owner, "_pallas_ls_closing_blocks", None)
    if found is not None:
        return found
    found = {}
    for stmt in bindings.own_statements(getattr(owner, "body", [])):
        if isinstance(stmt, (ast.Try, ast.For)):
            for field in ("orelse", "finalbody"):
                for inner in getattr(stmt, field, []):
                    found[id(inner)] = (stmt, field)
        if isinstance(stmt, (ast.With, ast.AsyncWith)) and any(suppresses(i.context_expr) for i in stmt.items):
            found.update((id(inner), (stmt, "body")) for inner in stmt.body)
    setattr(owner, "_pallas_ls_closing_blocks", found)  # noqa: B010  (a cache kept on the node)
    return found


def loop_breaks(interp: Interpreter, loop: ast.For, scope: Scope, env: Env, model: ModuleModel) -> bool | None:
    """Whether a `for` loop over a known sequence surely leaves by a `break` (one iteration surely
    reaches one) or surely never does (no iteration may reach one), in `env` (a calling context's
    arguments decide the tests: `if rows <= limit: break`); None when not decided."""
    breaks = [node for stmt in loop.body for node in ast.walk(stmt) if isinstance(node, ast.Break)]
    if not breaks:
        return False
    guarded = [loop_guards(model, node, scope) for node in breaks]
    if any(g is None or g[0] is not loop for g in guarded):
        return None  # a `break` of an inner loop, or under a `try` or `with`: not followed
    iterations = loop_envs(interp, loop, scope, env, model)
    if iterations is None:
        return None
    tests = [g[1] for g in guarded if g is not None]
    undecided = False
    for inside in iterations:
        for guards in tests:
            reached, surely = _branches_taken(interp, guards, scope, inside, model)
            if surely:
                return True
            undecided = undecided or reached
    return None if undecided else False


def cannot_raise(model: ModuleModel, body: list[ast.stmt], scope: Scope) -> bool:
    """Whether a block surely raises nothing: assignments to names of constants, displays of
    them, or names bound before in the scope (`try: n = 1 ... else:`)."""
    for stmt in body:
        if not (isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets)):
            return False
        for node in ast.walk(stmt.value):
            if isinstance(node, ast.Name) and not model.lookup(node.id, Loc(scope, stmt)):
                return False
            if not isinstance(node, (ast.Constant, ast.Tuple, ast.List, ast.Name, ast.Load)):
                return False
    return True


def _handlers_of(owner: ast.AST) -> dict[int, tuple[ast.Try, ast.ExceptHandler]]:
    """The statements directly in the `except` blocks of one scope's body, with their `try`."""
    found: dict[int, tuple[ast.Try, ast.ExceptHandler]] | None = getattr(owner, "_pallas_ls_handlers", None)
    if found is not None:
        return found
    found = {}
    for stmt in bindings.own_statements(getattr(owner, "body", [])):
        if isinstance(stmt, ast.Try):
            for handler in stmt.handlers:
                for inner in handler.body:
                    found[id(inner)] = (stmt, handler)
    setattr(owner, "_pallas_ls_handlers", found)  # noqa: B010  (a cache kept on the node)
    return found


def _surely_runs_before(model: ModuleModel, b: Binding, outermost: ast.stmt, use: Loc | None) -> bool:
    """Whether `b`, directly in the blocks entered from `outermost` (the bodies of `if`s, a `finally:`,
    an `else:`), runs before `use`: the use is after `outermost`, in a block that holds it."""
    if use is None or use.stmt is None or use.scope is not b.scope:
        return False
    outer_chain = model.block_chain.get(id(outermost), ())
    use_chain = model.block_chain.get(id(use.stmt), ())
    return use_chain[: len(outer_chain)] == outer_chain and (
        getattr(use.stmt, "lineno", 0) > getattr(outermost, "end_lineno", 1 << 30)
    )


def _branch_guards_of(owner: ast.AST) -> dict[int, list[tuple[ast.If | ast.While, bool]]]:
    """For each statement of one scope's body that sits in `if` branches only (no loop, `try` or
    `with` between), those `if`s, outermost first, with the branch it is in; kept on the node."""
    found: dict[int, list[tuple[ast.If | ast.While, bool]]] | None = getattr(owner, "_pallas_ls_branch_guards", None)
    if found is not None:
        return found
    found = {}
    work: list[tuple[list[ast.stmt], tuple[tuple[ast.If | ast.While, bool], ...]]] = [(getattr(owner, "body", []), ())]
    while work:
        block, guards = work.pop()
        for stmt in block:
            if guards:
                found[id(stmt)] = list(guards)
            if isinstance(stmt, ast.If):
                work.append((stmt.body, (*guards, (stmt, True))))
                work.append((stmt.orelse, (*guards, (stmt, False))))
            elif isinstance(stmt, ast.While):
                # A loop's body runs only if its test holds on entry: `while i < 0:` with i = 0 never
                # does.  (Decided true, it may still stop before a statement: see _branches_taken.)
                work.append((stmt.body, (*guards, (stmt, True))))
            elif sys.version_info >= (3, 10) and isinstance(stmt, ast.Match):
                work.extend((case.body, (*guards, *case_guards)) for case, case_guards in _match_case_guards(stmt))
    setattr(owner, "_pallas_ls_branch_guards", found)  # noqa: B010  (a cache kept on the node)
    return found


def _match_case_guards(stmt: ast.Match) -> Iterator[tuple[ast.match_case, list[tuple[ast.If | ast.While, bool]]]]:
    """Each case of a `match` with the branches that lead to its body, as `if`s: every earlier
    case's test false, its own true (`case Fast():` is `isinstance(subject, Fast)`)."""
    earlier: list[tuple[ast.If | ast.While, bool]] = []
    for case in stmt.cases:
        test = patterns.pattern_test(stmt.subject, case.pattern)
        if case.guard is not None:
            test = ast.BoolOp(op=ast.And(), values=[test, case.guard]) if test is not None else case.guard
        own = _as_if(test if test is not None else ast.Constant(True), stmt)
        yield case, [*earlier, (own, True)]
        earlier.append((own, False))


def _as_if(test: ast.expr, match: ast.Match) -> ast.If:
    """An `if` made for a case's test, evaluated where the `match` statement is."""
    made = ast.fix_missing_locations(ast.copy_location(ast.If(test=test, body=[], orelse=[]), match))
    made._pallas_ls_at = match  # type: ignore[attr-defined]  # where its test is evaluated
    return made


def advanced_iterator(
    interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """`next(it)` where `it = iter(<known sequence>)` in the same straight-line code, and every
    use of `it` between is a `next(it)` of that code: the element after the ones those took.
    None when not decided (the caller falls back to any element)."""
    arg = call.args[0] if call.args else None
    state = _iterator_state(interp, arg, call, loc, env, model) if arg is not None else None
    if state is None:
        return None
    elements, taken = state
    if taken < len(elements):
        return elements[taken]
    return interp.ev(call.args[1], loc, env, model) if len(call.args) > 1 else None


def remaining_elements(interp: Interpreter, expr: ast.expr, loc: Loc, env: Env, model: ModuleModel) -> Seq | None:
    """`for x in it` after `next(it)` calls (as `advanced_iterator` reads them): the elements
    left; None when `expr` is not such an iterator."""
    state = _iterator_state(interp, expr, expr, loc, env, model)
    return Seq("list", tuple(state[0][state[1] :])) if state is not None else None


def _iterator_state(
    interp: Interpreter, arg: ast.expr, here: ast.AST, loc: Loc, env: Env, model: ModuleModel
) -> tuple[tuple[frozenset[Value], ...], int] | None:
    """For a name bound to `iter(<known sequence>)` (or a generator expression over one) in the
    straight-line code of `loc`, whose every use before `here` is a `next(name)` of that code: the
    elements and how many those took."""
    if not isinstance(arg, ast.Name) or loc.stmt is None:
        return None
    found = bindings.lookup(interp, arg.id, loc, model)
    b = found[0] if len(found) == 1 else None
    if b is None or b.kind != "assign" or b.scope is not loc.scope or not isinstance(b.stmt, ast.Assign):
        return None
    made = b.stmt.value
    if isinstance(made, ast.GeneratorExp):  # `(f for f in FNS)`: its elements in order, when known
        seq = operations.unpacked(interp, interp.ev(made, Loc(b.scope, b.stmt), env, model))
    elif isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "iter":
        if len(made.args) != 1 or bindings.lookup(interp, "iter", loc, model):
            return None  # `iter` rebound, or the two-argument form
        seq = single_known_seq(interp.ev(made.args[0], Loc(b.scope, b.stmt), env, model))
    elif _tees_a_sequence(interp, made, b, env, model):
        # `a, b = itertools.tee([f, g])`: each name its own iterator over the display's elements
        seq = single_known_seq(interp.ev(cast(ast.Call, made).args[0], Loc(b.scope, b.stmt), env, model))
    else:
        return None
    chain = model.block_chain.get(id(b.stmt), ())
    if seq is None or model.block_chain.get(id(loc.stmt), ()) != chain:
        return None
    taken = 0
    for use in _name_loads_between(b.scope.node, arg.id, bindings.position(b.stmt), bindings.position(here)):
        step = _next_call_of(model, use)
        if step is None or model.block_chain.get(id(model.loc(step).stmt), ()) != chain:
            return None  # passed elsewhere, or advanced in a loop or a branch
        taken += 1
    return seq.elements(), taken


def _tees_a_sequence(interp: Interpreter, made: ast.expr, b: Binding, env: Env, model: ModuleModel) -> bool:
    """`a, b = itertools.tee(FNS)`: a sequence not yet iterated (an iterator passed to tee may have
    been advanced already), unpacked into names."""
    if not (isinstance(made, ast.Call) and len(made.args) == 1 and not made.keywords):
        return False
    if not _a_fresh_sequence(interp, made.args[0], Loc(b.scope, b.stmt), model):
        return False
    target = cast(ast.Assign, b.stmt).targets[0]
    if not (
        isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts) and len(target.elts) == 2
    ):
        return False
    return interp.ev(made.func, Loc(b.scope, b.stmt), env, model) == frozenset({External("itertools.tee")})


def _a_fresh_sequence(interp: Interpreter, expr: ast.expr, loc: Loc, model: ModuleModel) -> bool:
    """A list or tuple display, a name only ever bound to one, or `iter()` of either: a sequence
    whose iteration starts at its first element."""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "iter"
        and len(expr.args) == 1
    ):
        return not bindings.lookup(interp, "iter", loc, model) and _a_fresh_sequence(interp, expr.args[0], loc, model)
    if isinstance(expr, ast.Name):
        found = bindings.lookup(interp, expr.id, loc, model)
        return bool(found) and all(
            isinstance(x.stmt, ast.Assign) and isinstance(x.stmt.value, (ast.List, ast.Tuple)) for x in found
        )
    return isinstance(expr, (ast.List, ast.Tuple))


def _name_loads_between(scope_node: ast.AST, name: str, start: tuple[int, int], end: tuple[int, int]) -> list[ast.Name]:
    return [
        n
        for n in ast.walk(scope_node)
        if isinstance(n, ast.Name)
        and n.id == name
        and isinstance(n.ctx, ast.Load)
        and start < bindings.position(n) < end
    ]


def _next_call_of(model: ModuleModel, use: ast.Name) -> ast.Call | None:
    """The `next(use)` call `use` is the first argument of, if it is one."""
    for call in model.calls_named(("next",)):
        if call.args and call.args[0] is use:
            return call
    return None
