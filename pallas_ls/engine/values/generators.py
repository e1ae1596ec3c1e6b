"""What a generator yields: in order, when its body is a straight run of `yield`s (through decided
`if`s and loops over known sequences), else every value its `yield`s can give; the Refs its body
makes are those of the run its call started (`Generator.made_by`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import Loc, Scope, own_yields
from . import flow, operations, ref_identity, returns
from .domain import MAX_CALL_DEPTH, NONE, Env, Generator, Seq, U, Value

if TYPE_CHECKING:
    from .interpreter import Interpreter


def straight_yields(interp: Interpreter, gen: Generator) -> Seq | None:
    """The values a generator yields, in order, when its body is made of `yield x` statements,
    `if`s whose tests are decided, and `for` loops over known sequences (`for name, fn in TABLE:
    if fn is not None: yield name, fn`), up to a `return` that surely runs; None for anything else
    (a `break`, a loop over what is not known)."""
    body = getattr(gen.func.node, "body", [])
    elements: list[frozenset[Value]] = []
    scope = gen.func.model.function_scope(gen.func.node)
    try:
        if not _yields_of(interp, gen, body, scope, gen.env, elements):
            return None
    except _Returned:
        pass  # a `return` ran: the generator stops with what it yielded
    return Seq("tuple", tuple(_made_by(gen, e) for e in elements))


def _made_by(gen: Generator, values: frozenset[Value]) -> frozenset[Value]:
    """What a generator yields, as objects of the run its call started (see Generator.made_by)."""
    return ref_identity.made_by_call(values, gen.env, gen.made_by) if gen.made_by is not None else values


_MAX_YIELDS = 32


class _Returned(Exception):
    """A `return` statement reached in a generator's straight run: no yield after it runs."""


def _yields_of(
    interp: Interpreter, gen: Generator, body: list[ast.stmt], scope: Scope, env: Env, out: list[frozenset[Value]]
) -> bool:
    model = gen.func.model
    for stmt in body:
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue  # a docstring
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Yield) and stmt.value.value is not None:
            out.append(interp.ev(stmt.value.value, Loc(scope, stmt), env, model))
        elif (yield_from := _yield_from(stmt)) is not None:
            # `yield from (r, r)`, `got = yield from inner()`: each element of a sequence known in
            # order (a generator too); `got` is read by the yields after it
            spread = operations.unpacked(interp, interp.ev(yield_from.value, Loc(scope, stmt), env, model))
            if spread is None:
                return False
            out.extend(spread.elements())
        elif isinstance(stmt, ast.If):
            truth = operations.truth_of(interp, interp.ev(stmt.test, Loc(scope, stmt), env, model))
            if truth is None or not _yields_of(interp, gen, stmt.body if truth else stmt.orelse, scope, env, out):
                return False
        elif isinstance(stmt, ast.For) and not stmt.orelse:
            iterations = flow.loop_envs(interp, stmt, scope, env, model, _MAX_YIELDS)
            if iterations is None or not all(
                _yields_of(interp, gen, stmt.body, scope, inside, out) for inside in iterations
            ):
                return False
        elif isinstance(stmt, ast.Assign) and all(_names_only(t) for t in stmt.targets):
            continue  # `r = jax.new_ref(x)`: the yields after it read it
        elif isinstance(stmt, ast.Return):
            raise _Returned  # the generator ends here (its return value is StopIteration's)
        else:
            return False  # a return, a break, another statement: not followed
        if len(out) > _MAX_YIELDS:
            return False
    return True


def _yield_from(stmt: ast.stmt) -> ast.YieldFrom | None:
    """The `yield from` a statement is (`yield from xs`), or assigns to names (`got = yield from g()`)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.YieldFrom):
        return stmt.value
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.YieldFrom) and all(map(_names_only, stmt.targets)):
        return stmt.value
    return None


def _names_only(target: ast.expr) -> bool:
    """`r`, `a, b`: a target that binds names only (no attribute or item stored)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_names_only(e) for e in target.elts)
    return isinstance(target, ast.Name)


def yielded(interp: Interpreter, gen: Generator) -> frozenset[Value]:
    """What a generator can yield: its own `yield x` values and what its `yield from`s iterate."""
    key = ("yields", id(gen.func.node), gen.env)
    cached = interp._memo.get(key)
    if cached is not None:
        return _made_by(gen, cached)
    if key in interp._active or interp._call_depth >= MAX_CALL_DEPTH:
        return U
    interp._active.add(key)
    interp._call_depth += 1
    try:
        model = gen.func.model
        out: set[Value] = set()
        for node, stmt in own_yields(gen.func.node):
            where = Loc(model.function_scope(gen.func.node), stmt)
            if isinstance(node, ast.YieldFrom):
                out |= operations.iterate(interp, interp.ev(node.value, where, gen.env, model))
            elif node.value is None:
                out.add(NONE)
            else:
                out |= interp.ev(node.value, where, gen.env, model)
        result = frozenset(out) if out else U
    finally:
        interp._call_depth -= 1
        interp._active.discard(key)
    interp._memo[key] = result
    return _made_by(gen, result)


def returned_to_yield_from(interp: Interpreter, iterated: frozenset[Value]) -> frozenset[Value]:
    """The value of a `yield from x` expression (`got = yield from inner()`): what the generator
    `x` returns (its `return` value; None when it runs off its end), None for a sequence; not
    known for anything else (an iterator of another kind may return a value of its own)."""
    out: set[Value] = set()
    for value in iterated:
        if isinstance(value, Generator):
            out |= _made_by(value, returns.returns_of(interp, value.func, value.env))
        elif isinstance(value, Seq):
            out.add(NONE)
        else:
            return U
    return frozenset(out) if out else U
