"""Which expressions are provably Refs, and when two of them are the same Ref object.

Two leaves of a call's arguments are the same Ref when the interpreter gives each exactly
one Ref with the same allocation site: a call of a Ref constructor (`jax.new_ref(x)`, ...; a helper's
Ref is new at each call of the helper) or a ref parameter of a kernel.  Aliases (`v = r`,
`a = b = ...`), containers and `.at[...]` views lead back to it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .kernels import interpreter_for
from .model import Binding, Loc, ModuleModel
from .values.domain import EMPTY_ENV, DictV, Env, Param, Ref, RefView, Seq, Value
from .values.operations import unpacked


@dataclass(frozen=True)
class RefArgument:
    """One leaf of a call's arguments that is provably a Ref."""

    expr: ast.expr  # the expression as written at the call (for the range)
    origin: object  # what made the Ref (its constructor call, or a kernel parameter): its identity


def duplicate_refs(
    call: ast.Call,
    loc: Loc,
    model: ModuleModel,
    kernel_functions: dict[int, int],
    env: Env = EMPTY_ENV,
    places: Mapping[int, tuple[Loc, Env, ModuleModel]] | None = None,
) -> Iterator[tuple[RefArgument, RefArgument]]:
    """(first, repeated) pairs of arguments of one call that are certainly the same Ref.

    The call's positional arguments are flattened as JAX flattens them (tuples, lists, dicts,
    `*args` of a known tuple) through the interpreter, so a tuple of refs held in a variable,
    `bufs[0], bufs[0]` and `a = b = jax.new_ref(x)` are seen.  Keyword arguments are left out: a
    kernel made by pl.kernel / mpmd_map takes none (JAX fails on them first).  `places`: where
    an argument is read when not at `loc` (one bound by functools.partial elsewhere)."""
    interp = interpreter_for(model)
    first_by_origin: dict[object, RefArgument] = {}
    rebinds = any(isinstance(n, _MAY_REBIND) for arg in [*call.args, *call.keywords] for n in ast.walk(arg))
    for expr, starred, (where, where_env, where_model) in (
        (expr, starred, (places or {}).get(id(arg), (loc, env, model)))
        for arg in call.args
        for expr, starred in _written_leaves([arg])
    ):
        values = interp.ev(expr, where, where_env, where_model)
        leaves = _starred_leaves(unpacked(interp, values)) if starred else _leaves(values)
        # An expression that is itself one Ref (not a container of them) may be named by its
        # access path: `bufs.a` read twice is one object even where `bufs.a` may be several.
        path = None if starred or rebinds or not _is_one_ref(values) else _access_path(expr)
        for origin in leaves:
            identity = _identity(origin, kernel_functions, path)
            if identity is None:
                continue
            argument = RefArgument(expr, identity)
            first = first_by_origin.get(identity)
            if first is None:
                first_by_origin[identity] = argument
            else:
                yield first, argument


def _written_leaves(args: list[ast.expr]) -> Iterator[tuple[ast.expr, bool]]:
    """The arguments as written, tuple / list / dict displays and `*[...]` opened (so a finding
    points at the element), with whether each is starred."""
    stack: list[tuple[ast.expr, bool]] = [(a, False) for a in reversed(args)]
    while stack:
        expr, starred = stack.pop()
        if isinstance(expr, ast.Starred):
            stack.append((expr.value, True))
        elif isinstance(expr, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in expr.elts):
            stack.extend((e, False) for e in reversed(expr.elts))
        elif isinstance(expr, ast.Dict) and None not in expr.keys and not starred:
            stack.extend((v, False) for v in reversed(expr.values))
        else:
            yield expr, starred


def _leaves(values: frozenset[Value], depth: int = 0) -> Iterator[Value]:
    """The pytree leaves a value set certainly has (nothing when it is not one known thing)."""
    if len(values) != 1 or depth > 8:
        return
    value = next(iter(values))
    if isinstance(value, Seq) and value.elts is not None:
        for element in value.elts:
            yield from _leaves(element, depth + 1)
    elif isinstance(value, DictV) and value.items is not None:
        for _, element in value.items:
            yield from _leaves(element, depth + 1)
    elif isinstance(value, RefView):
        yield value.ref
    else:
        yield value


def _starred_leaves(spread: Seq | None) -> Iterator[Value]:
    for element in spread.elements() if spread is not None else ():
        yield from _leaves(element)


def _identity(value: Value, kernel_functions: dict[int, int], path: object | None) -> object | None:
    """The object a leaf is, when it is certainly a Ref: its allocation site or kernel parameter;
    for a Ref made in a loop (one site, several objects), the access path it was read by."""
    if isinstance(value, Ref):
        if value.many:
            return ("read by", path) if path is not None else None
        return value.site
    if isinstance(value, Param) and _is_kernel_ref_parameter(value.binding, kernel_functions):
        return value.binding
    return None


# What may rebind a name or an attribute between two reads in one call's arguments.
_MAY_REBIND = (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda)


def _is_one_ref(values: frozenset[Value]) -> bool:
    return len(values) == 1 and isinstance(next(iter(values)), (Ref, RefView))


def _access_path(expr: ast.expr) -> object | None:
    """`name`, `name.attr...` or `name[constant]...` as a hashable path (None: another expression)."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        inner = _access_path(expr.value)
        return (inner, "attr", expr.attr) if inner is not None else None
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
        inner = _access_path(expr.value)
        return (inner, "item", expr.slice.value) if inner is not None else None
    return None


def _is_kernel_ref_parameter(binding: Binding, kernel_functions: dict[int, int]) -> bool:
    """A positional parameter of a kernel is a Ref (JAX passes one for each), unless partial bound it.

    `kernel_functions` maps id(kernel function) to how many leading positional parameters
    functools.partial binds.
    """
    bound = kernel_functions.get(id(binding.scope.node))
    return bound is not None and binding.param_index is not None and binding.param_index >= bound
