"""Which expressions are provably Refs, and when two of them are the same Ref object.

Two expressions denote the same Ref when they reach the same binding that made a Ref: a call of a
Ref constructor (`jax.new_ref(x)`, ...) or a ref parameter of a kernel.  Aliases (`v = r`) and
`.at[...]` views lead back to their base.  Re-assigning a name makes a new object, which the
reaching-binding lookup of the model already tells apart.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from .model import Binding, Loc, ModuleModel
from .names import MAX_DEPTH, qualname

REF_CONSTRUCTORS = frozenset(
    {
        "jax.new_ref",
        "jax.ref.new_ref",
        "jax.empty_ref",
        "jax.ref.empty_ref",
        "jax.experimental.pallas.empty_ref_like",
        "jax._src.pallas.helpers.empty_ref_like",
    }
)


@dataclass(frozen=True)
class RefArgument:
    """One leaf of a call's arguments that is provably a Ref."""

    expr: ast.expr  # the expression as written at the call (for the range)
    origin: Binding  # the binding that made the Ref: its identity


def flatten_arguments(call: ast.Call) -> Iterator[ast.expr]:
    """The leaves of a call's positional arguments as written: tuple, list and dict displays and
    `*[...]` are opened.  Keyword arguments are left out: a kernel made by pl.kernel / mpmd_map
    takes none (JAX fails on them before it looks for duplicate refs)."""
    stack: list[ast.expr] = list(reversed(call.args))
    while stack:
        expr = stack.pop()
        if isinstance(expr, ast.Starred):
            if isinstance(expr.value, (ast.Tuple, ast.List)):
                stack.extend(reversed(expr.value.elts))
        elif isinstance(expr, (ast.Tuple, ast.List)):
            stack.extend(reversed(expr.elts))
        elif isinstance(expr, ast.Dict):
            stack.extend(v for v in reversed(expr.values) if v is not None)
        else:
            yield expr


def ref_origin(expr: ast.expr, loc: Loc, model: ModuleModel, kernel_functions: dict[int, int], depth: int = 0) -> Binding | None:
    """The binding that made the Ref `expr` denotes, or None when it is not provably a Ref."""
    if depth > MAX_DEPTH:
        return None
    if _is_at_view(expr):
        return ref_origin(expr.value.value, loc, model, kernel_functions, depth + 1)  # type: ignore[attr-defined]
    if not isinstance(expr, ast.Name):
        return None
    bindings = model.lookup(expr.id, loc)
    if len(bindings) != 1:
        return None  # several reaching bindings: not provably one object
    binding = bindings[0]
    if binding.kind == "param":
        return binding if _is_kernel_ref_parameter(binding, kernel_functions) else None
    if binding.kind != "assign" or binding.value is None:
        return None
    value = binding.value
    here = Loc(binding.scope, binding.stmt)
    if isinstance(value, ast.Call) and qualname(value.func, here, model) in REF_CONSTRUCTORS:
        return binding
    if isinstance(value, ast.Name) or _is_at_view(value):
        return ref_origin(value, here, model, kernel_functions, depth + 1)
    return None


def _is_at_view(expr: ast.expr) -> bool:
    """`r.at[...]`: a view of the same ref."""
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "at"
    )


def _is_kernel_ref_parameter(binding: Binding, kernel_functions: dict[int, int]) -> bool:
    """A positional parameter of a kernel is a Ref (JAX passes one for each), unless partial bound it.

    `kernel_functions` maps id(kernel function) to how many leading positional parameters
    functools.partial binds.
    """
    bound = kernel_functions.get(id(binding.scope.node))
    return bound is not None and binding.param_index is not None and binding.param_index >= bound


def duplicate_refs(call: ast.Call, loc: Loc, model: ModuleModel, kernel_functions: dict[int, int]) -> Iterator[tuple[RefArgument, RefArgument]]:
    """(first, repeated) pairs of arguments of one call that are the same Ref."""
    first_by_origin: dict[int, RefArgument] = {}
    for expr in flatten_arguments(call):
        origin = ref_origin(expr, loc, model, kernel_functions)
        if origin is None:
            continue
        argument = RefArgument(expr, origin)
        first = first_by_origin.get(id(origin))
        if first is None:
            first_by_origin[id(origin)] = argument
        else:
            yield first, argument
