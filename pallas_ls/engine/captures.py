"""Free variables of a function, how it uses them, and which of them are certainly jax arrays.

JAX traces a kernel with `trace_to_jaxpr_dynamic`; a jax array the kernel reads from an enclosing
scope becomes a constant of the kernel's jaxpr.  pallas_call rejects every such constant
(`captures constants [f32[8,128]]. You should pass them as inputs.`), mpmd_map, pl.kernel and
core_map reject the non-scalar ones (pallas-facts §4).  Python numbers become literals, Refs are
allowed, and static attributes (`x.shape`, `x.dtype`, `len(x)`) never touch the array's value.

Everything here answers "certainly" or stays silent: a name counts as an array only when every
binding that can reach the kernel made one, and a use counts only when it certainly hands the value
to a traced operation.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from .kernels import interpreter_for
from .model import (
    COMPREHENSIONS,
    Binding,
    FunctionNode,
    Loc,
    ModuleModel,
    Scope,
    child_nodes,
    is_generator,
    own_returns,
    positional_args,
)
from .names import qualname
from .values.bindings import binding_value
from .values.domain import EMPTY_ENV, Array, Env, Func, Partial, Value, constant_truth
from .values.operations import computed_on_read

# --------------------------------------------------------------------------------- free uses
# A member read from a name: `obj.attr`, `obj["key"]`, `getattr(obj, "attr")`.
Member = ast.Attribute | ast.Subscript | ast.Call


@dataclass(frozen=True)
class FreeUse:
    """One read of a name that the function does not bind itself (nor any function nested in it)."""

    name: str
    node: ast.Name
    traced: bool  # the use certainly binds a JAX operation on the value (`x + 1`, `o_ref[...] = x`)
    subscript: bool  # the use is `name[...]` (a read of a Ref, or indexing of an array)
    # For a numpy array: the value (still an array of rank >= 1) certainly meets a JAX operation
    # (`x_ref[...] + table`, `jnp.where(mask, ...)`, `o_ref[...] = table`); numpy arithmetic alone
    # (`table * 2`, `table.sum()`) stays numpy and is no capture.
    meets_jax: bool = False
    # `name.attr` or `name["key"]` when the read takes a member (`self.bias`, `PARAMS["scale"]`),
    # and whether that member's value certainly binds a JAX operation.
    member: Member | None = None
    member_traced: bool = False
    # Members read from that member in turn (`self.params["w"]` after `self.params`), each with
    # whether its value certainly binds a JAX operation: the first that is an array is captured.
    outer_members: tuple[tuple[Member, bool], ...] = ()
    called: bool = False  # the use is the callee of a call (`helper(x)`)


def free_uses(model: ModuleModel, function: FunctionNode) -> list[FreeUse]:
    """The function's reads of names bound outside it, in source order.

    Reads inside nested defs count when the nested def can run while the function is traced: it is
    a lambda, it is decorated (`@pl.when(...)`, `@pl.loop(...)`), or the function mentions it.
    Default values and decorators of the function itself are evaluated outside it and do not count.
    """
    return _reads(model, function, _is_free)


# How deep helpers of helpers are followed from a kernel.
_HELPER_DEPTH = 2


def called_helpers(
    model: ModuleModel, function: FunctionNode, uses_of: Callable[[FunctionNode], list[FreeUse]]
) -> list[FunctionNode]:
    """The module-level defs the function calls by name (`scaled(x)`), and the ones they call,
    two levels deep: they run while the function is traced.  A name bound more than once, or to
    anything but one module-level def, is not followed.  `uses_of`: a function's free uses."""
    found: list[FunctionNode] = []
    frontier = [function]
    for _ in range(_HELPER_DEPTH):
        called: list[FunctionNode] = []
        for caller in frontier:
            for use in uses_of(caller):
                bindings = model.module_scope.bindings.get(use.name, []) if use.called else []
                if len(bindings) != 1 or bindings[0].kind != "def":
                    continue
                helper = cast(FunctionNode, bindings[0].node)
                if helper is not function and all(helper is not h for h in found + called):
                    called.append(helper)
        found += called
        frontier = called
    return found


def parameter_uses(model: ModuleModel, function: FunctionNode, name: str) -> list[FreeUse]:
    """The function's reads of its own parameter `name` (nested functions included, as above)."""

    def is_the_parameter(read: str, scope: Scope, top: Scope) -> bool:
        return read == name and _is_parameter_of_top(read, scope, top)

    return _reads(model, function, is_the_parameter)


def _reads(model: ModuleModel, function: FunctionNode, wanted: Callable[..., bool]) -> list[FreeUse]:
    top = model.function_scope(function)
    parents: dict[int, ast.AST] = {}
    loaded: set[str] = set()
    roots: list[ast.AST] = [function.body] if isinstance(function, ast.Lambda) else list(function.body)
    for root in roots:
        for node in _walk_with_parents(root, parents):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                loaded.add(node.id)
    uses: list[FreeUse] = []
    stack: list[tuple[ast.AST, Scope, frozenset[str]]] = [(r, top, frozenset()) for r in reversed(roots)]
    while stack:
        node, scope, comp_names = stack.pop()
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # Decorators and defaults run in the enclosing scope; the body in the def's own scope.
            outer = list(node.decorator_list) + list(node.args.defaults) + [d for d in node.args.kw_defaults if d]
            if node.decorator_list or node.name in loaded:
                inner = model.scope_of_function.get(id(node))
                if inner is not None:
                    stack.extend((s, inner, comp_names) for s in reversed(node.body))
            stack.extend((e, scope, comp_names) for e in reversed(outer))
            continue
        if isinstance(node, ast.Lambda):
            inner = model.scope_of_function.get(id(node))
            outer = list(node.args.defaults) + [d for d in node.args.kw_defaults if d]
            if inner is not None:
                stack.append((node.body, inner, comp_names))
            stack.extend((e, scope, comp_names) for e in reversed(outer))
            continue
        if isinstance(node, ast.If):
            # A branch a module constant decides against is never traced (`if DEBUG:`).
            stack.extend((child, scope, comp_names) for child in reversed(_traced_parts(model, node, scope)))
            continue
        if isinstance(node, COMPREHENSIONS):
            bound = comp_names | _comprehension_targets(node)
            parts: list[tuple[ast.AST, frozenset[str]]] = []
            for index, generator in enumerate(node.generators):
                parts.append((generator.iter, comp_names if index == 0 else bound))
                parts.extend((cond, bound) for cond in generator.ifs)
            parts.extend((p, bound) for p in ([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]))
            stack.extend((p, scope, names) for p, names in reversed(parts))
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in comp_names and wanted(node.id, scope, top):
                member = _member_read(node, parents)
                uses.append(
                    FreeUse(
                        node.id,
                        node,
                        _is_traced_use(node, parents, model),
                        _is_subscripted(node, parents),
                        _meets_jax(node, parents, model, scope),
                        member,
                        member is not None and _is_traced_use(member, parents, model),
                        _outer_members(member, parents, model),
                        _is_callee(node, parents),
                    )
                )
            continue
        stack.extend((child, scope, comp_names) for child in reversed(child_nodes(node)))
    uses.sort(key=lambda u: (u.node.lineno, u.node.col_offset))
    return uses


def _is_callee(node: ast.Name, parents: dict[int, ast.AST]) -> bool:
    parent = parents.get(id(node))
    return isinstance(parent, ast.Call) and parent.func is node


def _traced_parts(model: ModuleModel, node: ast.If, scope: Scope) -> list[ast.AST]:
    """An `if` statement's test and the branches of it that may run while the kernel is traced."""
    truth = constant_truth(interpreter_for(model).ev(node.test, Loc(scope, node), EMPTY_ENV, model))
    branches = [node.body] if truth is True else [node.orelse] if truth is False else [node.body, node.orelse]
    return [node.test, *(stmt for branch in branches for stmt in branch)]


def outer_bindings(model: ModuleModel, function: FunctionNode, name: str) -> list[Binding]:
    """The bindings outside `function` that a free `name` in it can see when the function runs."""
    return model.lookup(name, Loc(model.function_scope(function), None))


def _walk_with_parents(root: ast.AST, parents: dict[int, ast.AST]) -> Iterator[ast.AST]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        for child in child_nodes(node):
            parents[id(child)] = node
            stack.append(child)


def _comprehension_targets(node: ast.AST) -> frozenset[str]:
    names: set[str] = set()
    for generator in node.generators:  # type: ignore[attr-defined]  # a comprehension node, as the caller checks
        names.update(n.id for n in ast.walk(generator.target) if isinstance(n, ast.Name))
    return frozenset(names)


def _is_free(name: str, scope: Scope, top: Scope) -> bool:
    """`name` read in `scope` (top or nested in it) is bound by none of the scopes up to `top`."""
    current: Scope | None = scope
    while current is not None:
        if name in current.global_names:
            return True
        if name in current.bindings and name not in current.nonlocal_names:
            return False
        if current is top:
            return True
        current = current.parent
    return True


def _outer_members(
    member: Member | None, parents: dict[int, ast.AST], model: ModuleModel
) -> tuple[tuple[Member, bool], ...]:
    """The members read from `member` in turn (`self.params["w"]` after `self.params`), each
    with whether it is a traced use, up to four deep."""
    found: list[tuple[Member, bool]] = []
    read = _member_read(member, parents) if member is not None else None
    while read is not None and len(found) < 4:
        found.append((read, _is_traced_use(read, parents, model)))
        read = _member_read(read, parents)
    return tuple(found)


def _member_read(node: ast.expr, parents: dict[int, ast.AST]) -> Member | None:
    """`name.attr` (not static metadata) or `name["key"]` / `name[0]` read from the name (or
    from a member read before: `self.params["w"]`), or from the name's class (`type(self).w`)."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Call) and _is_type_of(parent, node):
        node, parent = parent, parents.get(id(parent))
    if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr == "get":
        call = parents.get(id(parent))
        if isinstance(call, ast.Call) and call.func is parent and call.args and _static_key(call.args[0]):
            return call  # `PARAMS.get("w", 1.0)`
    if (
        isinstance(parent, ast.Attribute)
        and parent.value is node
        and isinstance(parent.ctx, ast.Load)
        and parent.attr not in STATIC_ATTRIBUTES
    ):
        return parent
    if (
        isinstance(parent, ast.Subscript)
        and parent.value is node
        and isinstance(parent.ctx, ast.Load)
        and _static_key(parent.slice)
    ):
        return parent
    if isinstance(parent, ast.Call) and getattr_of(parent) is not None and parent.args[0] is node:
        return parent  # `getattr(CONSTS, "w")`
    return None


def _static_key(key: ast.expr) -> bool:
    """A key that names one item: a string or int constant, or a dotted name (`TABLE[Kind.W]`)."""
    if isinstance(key, ast.Constant):
        return isinstance(key.value, (str, int))
    if not isinstance(key, ast.Attribute):
        return False
    while isinstance(key, ast.Attribute):
        key = key.value
    return isinstance(key, ast.Name)


def getattr_of(call: ast.Call) -> str | None:
    """The attribute `getattr(obj, "attr")` reads (two arguments, a constant name); None otherwise."""
    func, args = call.func, call.args
    if not (isinstance(func, ast.Name) and func.id == "getattr" and len(args) == 2 and not call.keywords):
        return None
    name = args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or name.value in STATIC_ATTRIBUTES:
        return None
    return name.value


def _is_type_of(call: ast.Call, node: ast.expr) -> bool:
    """`type(node)`: the builtin's one-argument form, the class of its argument."""
    func = call.func
    return isinstance(func, ast.Name) and func.id == "type" and call.args == [node] and not call.keywords


def _is_parameter_of_top(name: str, scope: Scope, top: Scope) -> bool:
    """`name` read in `scope` resolves to a parameter of `top` (no scope in between binds it)."""
    current: Scope | None = scope
    while current is not None and current is not top:
        if name in current.bindings or name in current.global_names:
            return False
        current = current.parent
    bindings = top.bindings.get(name, [])
    return bool(bindings) and all(b.kind == "param" for b in bindings) and name not in top.global_names


# Attributes of an array that are static metadata: reading them never traces anything.
STATIC_ATTRIBUTES = frozenset(
    {
        "shape",
        "dtype",
        "ndim",
        "size",
        "itemsize",
        "nbytes",
        "weak_type",
        "aval",
        "sharding",
        "device",
        "devices",
        "committed",
        "format",
        "layout",
        "is_fully_replicated",
        "is_fully_addressable",
    }
)
# Array methods that always bind an operation on the array (observed: even a result that is never
# used makes the array a constant of the kernel's jaxpr).
COMPUTING_METHODS = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "any",
        "all",
        "dot",
        "cumsum",
        "cumprod",
        "argmax",
        "argmin",
        "std",
        "var",
        "sort",
        "argsort",
        "take",
        "copy",
    }
)
# Methods and functions that may hand back the array itself, untouched (`c.astype(c.dtype)`,
# `jnp.asarray(c)`, a reshape to the same shape): their result carries the question further.
TRANSPARENT_METHODS = frozenset(
    {"astype", "reshape", "squeeze", "transpose", "swapaxes", "ravel", "flatten", "view", "real", "conj"}
)
_TRANSPARENT_FUNCTIONS = frozenset(
    {
        "jax.numpy." + n
        for n in (
            "asarray",
            "array",
            "astype",
            "reshape",
            "squeeze",
            "transpose",
            "matrix_transpose",
            "swapaxes",
            "moveaxis",
            "ravel",
            "real",
            "conj",
            "conjugate",
            "atleast_1d",
            "atleast_2d",
            "atleast_3d",
        )
    }
    | {"jax.lax." + n for n in ("convert_element_type", "reshape", "squeeze", "transpose", "stop_gradient")}
)
# Functions that only look at an array's metadata (shape, dtype), never at its value.
_NON_CONSUMING_FUNCTIONS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.result_type",
        "jax.numpy.dtype",
        "jax.numpy.issubdtype",
        "jax.numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.isdtype",
        "jax.numpy.isscalar",
        "jax.numpy.iterable",
        "jax.numpy.can_cast",
        "jax.numpy.promote_types",
        "jax.typeof",
        "jax.lax.broadcast_shapes",
        "jax.numpy.broadcast_shapes",
        "jax.numpy.zeros_like",
        "jax.numpy.ones_like",
        "jax.numpy.empty_like",
        "jax.numpy.full_like",
        "jax.lax.full_like",
        "jax.numpy.imag",
    }
)
_TRACING_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.")


def _binds_an_operation(name: str | None) -> bool:
    """A call of `name` binds a JAX operation on its array arguments (`jnp.where`, `lax.exp`), not
    one that only reads their metadata (`jnp.shape`, `jnp.zeros_like`)."""
    return name is not None and name.startswith(_TRACING_PREFIXES) and name not in _NON_CONSUMING_FUNCTIONS


_VALUE_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _is_subscripted(node: ast.Name, parents: dict[int, ast.AST]) -> bool:
    parent = parents.get(id(node))
    return isinstance(parent, ast.Subscript) and parent.value is node


def _is_traced_use(node: ast.expr, parents: dict[int, ast.AST], model: ModuleModel) -> bool:
    """The use certainly binds a JAX operation on the value (for an array: makes it a constant).

    Follows the value up through indexing and through calls that may return it untouched, then
    asks whether the place it lands is an operation: arithmetic, a comparison, a store into a ref, a
    `jnp` / `lax` function, a computing method.  Anything else (a call of an unknown function, an
    assignment to a name, `float(c)`, `c.shape`) is not judged.
    """
    expr: ast.AST = node
    for _ in range(32):
        parent = parents.get(id(expr))
        if isinstance(parent, ast.Attribute):
            if parent.value is not expr or parent.attr in STATIC_ATTRIBUTES:
                return False
            if parent.attr in ("T", "mT", "at"):
                return True  # a transpose always binds; `.at[...]` is always followed by an update
            call = parents.get(id(parent))
            if not (isinstance(call, ast.Call) and call.func is parent):
                return False
            if parent.attr in COMPUTING_METHODS:
                return True
            if parent.attr in TRANSPARENT_METHODS:
                expr = call
                continue
            return False
        if isinstance(parent, ast.Subscript):
            if parent.value is not expr or not isinstance(parent.ctx, ast.Load):
                return False
            expr = parent  # c[i] gathers from c; where that lands decides
            continue
        if isinstance(parent, (ast.List, ast.Tuple)) and isinstance(parents.get(id(parent)), ast.Call):
            expr = parent  # jnp.stack([c, d]), jnp.concatenate((c, d))
            continue
        if isinstance(parent, ast.BinOp):
            return True
        if isinstance(parent, ast.UnaryOp):
            return isinstance(parent.op, (ast.USub, ast.Invert))
        if isinstance(parent, ast.Compare):
            return all(isinstance(op, _VALUE_COMPARISONS) for op in parent.ops)
        if isinstance(parent, ast.AugAssign):
            return parent.value is expr
        if isinstance(parent, ast.Assign):
            return parent.value is expr and all(isinstance(t, ast.Subscript) for t in parent.targets)
        call = parents.get(id(parent)) if isinstance(parent, ast.keyword) else parent
        if not isinstance(call, ast.Call) or call.func is expr:
            return False
        name = qualname(call.func, model.loc(call), model)
        if not _binds_an_operation(name):
            return False
        if name in _TRANSPARENT_FUNCTIONS:
            if call.args and call.args[0] is expr:
                expr = call
                continue
            return False
        return True
    return False


# Numpy operations that keep an array of rank >= 1 an array of rank >= 1 (what numpy computes from a
# captured table before it reaches JAX).
_NUMPY_SHAPE_KEEPING_METHODS = frozenset(
    {"astype", "copy", "transpose", "swapaxes", "ravel", "flatten", "view", "reshape"}
)


def numpy_arrays_made_in(model: ModuleModel, function: FunctionNode) -> list[ast.Call]:
    """Calls in the function's own body that make a numpy array of rank >= 1 which certainly
    meets a traced value (`x_ref[...] * np.ones((8, 128))`): JAX makes it a constant of the
    kernel's jaxpr, as it does a captured one (pallas_call: "captures constants [f32[8,128]]").
    Observed under JAX 0.10.2; `jnp.ones(...)` made there is traced, no constant."""
    if isinstance(function, ast.Lambda) or not _imports_numpy(model):
        return []
    scope = model.function_scope(function)
    parents: dict[int, ast.AST] = {}
    found = []
    for root in function.body:
        for node in _walk_with_parents(root, parents):
            if (
                isinstance(node, ast.Call)
                and model.loc(node).scope is scope  # not in a nested def that may never run
                and _makes_a_numpy_array(node, model)
                and _meets_jax(node, parents, model, scope)
            ):
                found.append(node)
    return found


def _imports_numpy(model: ModuleModel) -> bool:
    return any(
        b.kind == "import" and (b.qualname or "").split(".")[0] == "numpy"
        for group in model.module_scope.bindings.values()
        for b in group
    )


def _makes_a_numpy_array(call: ast.Call, model: ModuleModel) -> bool:
    """A numpy constructor call whose array has rank >= 1 (`np.ones((8, 128))`, `np.arange(n)`).

    Not when the module name is bound in the kernel or a function around it: a closure reads it
    when the kernel is traced, and jax's own tests rebind `np` to jax.numpy after the kernel's def
    (`import jax.numpy as np`), which the lookup at the def does not see."""
    root = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    loc = model.loc(call)
    if isinstance(root, ast.Name) and _bound_in_a_function(loc.scope, root.id):
        return False
    name = qualname(call.func, loc, model)
    return name is not None and name.startswith("numpy.") and _constructor_rank(name, call) is Rank.NONSCALAR


def _bound_in_a_function(scope: Scope | None, name: str) -> bool:
    while scope is not None and scope.kind != "module":
        if name in scope.bindings:
            return True
        scope = scope.parent
    return False


def _meets_jax(node: ast.expr, parents: dict[int, ast.AST], model: ModuleModel, scope: Scope) -> bool:
    """A numpy array read here certainly reaches a JAX operation while still of rank >= 1.

    Observed (pallas-facts §4): numpy arrays of rank >= 1 become constants of the kernel's jaxpr
    when they meet a traced value; numpy scalars, `t[3]` and `t.sum()` become literals.
    """
    expr: ast.AST = node
    for _ in range(16):
        parent = parents.get(id(expr))
        if isinstance(parent, ast.Attribute) and parent.value is expr:
            call = parents.get(id(parent))
            if parent.attr == "T":
                expr = parent
                continue
            if parent.attr in _NUMPY_SHAPE_KEEPING_METHODS and isinstance(call, ast.Call) and call.func is parent:
                expr = call
                continue
            return False
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, (ast.USub, ast.Invert, ast.UAdd)):
            expr = parent
            continue
        if isinstance(parent, (ast.BinOp, ast.Compare)):
            operands = (
                [parent.left, parent.right] if isinstance(parent, ast.BinOp) else [parent.left, *parent.comparators]
            )
            if any(o is not expr and certainly_traced(o, model, scope) for o in operands):
                return True
            if isinstance(parent, ast.Compare) and len(operands) > 2:
                return False
            expr = parent  # numpy arithmetic: an array of rank >= 1 still
            continue
        if isinstance(parent, ast.Assign):
            return parent.value is expr and all(_is_ref_store(t, model, scope) for t in parent.targets)
        if isinstance(parent, ast.AugAssign):
            return parent.value is expr and _is_ref_store(parent.target, model, scope)
        call = parents.get(id(parent)) if isinstance(parent, ast.keyword) else parent
        if isinstance(call, ast.Call) and call.func is not expr:
            name = qualname(call.func, model.loc(call), model)
            return _binds_an_operation(name)
        return False
    return False


def _is_ref_store(target: ast.AST, model: ModuleModel, scope: Scope) -> bool:
    return isinstance(target, ast.Subscript) and _is_kernel_ref(target.value, scope)


def _is_kernel_ref(expr: ast.AST, scope: Scope) -> bool:
    """A name bound only as a parameter of the kernel or of a function enclosing the use (a Ref)."""
    if not isinstance(expr, ast.Name):
        return False
    current: Scope | None = scope
    while current is not None and current.kind != "module":
        bindings = current.bindings.get(expr.id)
        if bindings:
            return all(b.kind == "param" for b in bindings)
        current = current.parent
    return False


_PALLAS_TRACED = frozenset({"jax.experimental.pallas.program_id", "jax.experimental.pallas.num_programs"})


def certainly_traced(expr: ast.AST, model: ModuleModel, scope: Scope, depth: int = 0) -> bool:
    """The expression is certainly a traced JAX value inside the kernel: a ref read, a `jnp` / `lax`
    call, `pl.program_id(...)`, arithmetic or a comparison on one, or a local name bound only to
    such values."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Subscript):
        return isinstance(expr.ctx, ast.Load) and _is_kernel_ref(expr.value, scope)
    if isinstance(expr, ast.Compare):
        return any(certainly_traced(e, model, scope, depth + 1) for e in [expr.left, *expr.comparators])
    if isinstance(expr, ast.BoolOp):
        return any(certainly_traced(e, model, scope, depth + 1) for e in expr.values)
    if isinstance(expr, ast.Call):
        name = qualname(expr.func, model.loc(expr), model)
        if _binds_an_operation(name) or name in _PALLAS_TRACED:
            return True
        func = expr.func
        if isinstance(func, ast.Name):
            return _returns_traced(func, model, scope, depth)  # `pl.when(first_step())`
        return (
            isinstance(func, ast.Attribute)
            and func.attr in TRANSPARENT_METHODS | COMPUTING_METHODS
            and certainly_traced(func.value, model, scope, depth + 1)
        )
    if isinstance(expr, ast.BinOp):
        return certainly_traced(expr.left, model, scope, depth + 1) or certainly_traced(
            expr.right, model, scope, depth + 1
        )
    if isinstance(expr, ast.UnaryOp):
        return certainly_traced(expr.operand, model, scope, depth + 1)
    if isinstance(expr, ast.Name):
        bindings = scope.bindings.get(expr.id) or []
        if len(bindings) == 1 and _is_loop_index(bindings[0], model):
            return True
        return bool(bindings) and all(
            b.kind == "assign" and b.value is not None and certainly_traced(b.value, model, scope, depth + 1)
            for b in bindings
        )
    return False


def _returns_traced(func: ast.Name, model: ModuleModel, scope: Scope, depth: int) -> bool:
    """A call of the program's one def of that name whose body ends in a `return`, and every
    `return` of which gives a certainly traced value (`def first_step(): return pl.program_id(0)
    == 0`)."""
    found = scope.bindings.get(func.id) or model.module_scope.bindings.get(func.id) or []
    if len(found) != 1 or found[0].kind != "def" or not isinstance(found[0].node, ast.FunctionDef):
        return False
    function = found[0].node
    if is_generator(function) or not function.body or not isinstance(function.body[-1], ast.Return):
        return False
    inner = model.function_scope(function)
    returns = list(own_returns(function))
    return all(r.value is not None and certainly_traced(r.value, model, inner, depth + 1) for r in returns)


_LOOP_DECORATORS = frozenset({"jax.experimental.pallas.loop", "jax._src.pallas.helpers.loop"})


def _is_loop_index(binding: Binding, model: ModuleModel) -> bool:
    """The index parameter of a `@pl.loop(lower, upper)` body: a traced value (fori_loop's)."""
    function = binding.scope.node
    if binding.kind != "param" or binding.param_index != 0 or not isinstance(function, ast.FunctionDef):
        return False
    where = model.loc(function)
    return any(
        isinstance(d, ast.Call) and not d.keywords and qualname(d.func, where, model) in _LOOP_DECORATORS
        for d in function.decorator_list
    )


# ------------------------------------------------------------------------------- array facts
class Rank(enum.Enum):
    SCALAR = "0-d"
    NONSCALAR = "non-scalar"
    UNKNOWN = "unknown rank"


@dataclass(frozen=True)
class ArrayFact:
    """A binding that certainly holds a jax array."""

    binding: Binding
    rank: Rank
    origin: ast.AST  # the constructor call, or the parameter
    jitted_parameter: bool = False  # a parameter of a @jax.jit function (a tracer; could be a Ref)
    numpy: bool = False  # a numpy array: a constant only when of rank >= 1 and meeting a traced value


# jax.numpy functions that return one array.  `dtype` constructors (jnp.float32(3.)) included.
_DTYPE_CONSTRUCTORS = frozenset(
    {
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "bool_",
        "complex64",
        "complex128",
        "float8_e4m3fn",
        "float8_e5m2",
    }
)
_SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full"})
_RANK_AT_LEAST_ONE = frozenset(
    {
        "arange",
        "linspace",
        "logspace",
        "geomspace",
        "eye",
        "identity",
        "tri",
        "concatenate",
        "stack",
        "hstack",
        "vstack",
        "column_stack",
        "diag",
        "tril",
        "triu",
        "indices",
    }
)
_FROM_DATA = frozenset({"array", "asarray"}) | _DTYPE_CONSTRUCTORS
_OTHER_ARRAY_FUNCTIONS = frozenset(
    {
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
        "copy",
        "broadcast_to",
        "reshape",
        "transpose",
        "where",
        "exp",
        "log",
        "sqrt",
        "sin",
        "cos",
        "tanh",
        "abs",
        "maximum",
        "minimum",
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "cumsum",
        "dot",
        "matmul",
        "einsum",
        "outer",
        "clip",
        "pad",
        "roll",
        "flip",
        "repeat",
        "expand_dims",
        "squeeze",
        "astype",
        "tile",
    }
)
_JNP_ARRAY_FUNCTIONS = _SHAPE_FIRST | _RANK_AT_LEAST_ONE | _FROM_DATA | _OTHER_ARRAY_FUNCTIONS

# jax.random draws: a shape argument (keyword `shape` or this positional index); no shape: 0-d.
_RANDOM_DRAWS = {
    "normal": 1,
    "uniform": 1,
    "randint": 1,
    "bits": 1,
    "gumbel": 1,
    "exponential": 1,
    "laplace": 1,
    "logistic": 1,
    "cauchy": 1,
    "rademacher": 1,
    "truncated_normal": 3,
    "bernoulli": 2,
}
_RANDOM_DEFAULT_SCALAR = frozenset(
    {"normal", "uniform", "gumbel", "exponential", "laplace", "logistic", "cauchy", "rademacher", "bits"}
)

_JIT = frozenset({"jax.jit", "jax._src.api.jit", "jax.api.jit"})
_PARTIAL = "functools.partial"


def array_fact(model: ModuleModel, binding: Binding) -> ArrayFact | None:
    """The binding certainly makes a jax array: a jax.numpy constructor, a jax.random draw, or a
    parameter (without a default) of a `@jax.jit` function that is not static; or a numpy array
    from a numpy constructor."""
    if binding.kind == "assign" and isinstance(binding.value, ast.Call):
        made = constructor_fact(model, binding, binding.value, Loc(binding.scope, binding.stmt))
        if made is not None and made.rank is Rank.UNKNOWN:
            # `np.pad(a, ((0, 4), (0, 0)))`: the interpreter may know the shape the call gives.
            computed = _computed_array(model, binding)
            return computed if computed is not None and computed.rank is not Rank.UNKNOWN else made
        if made is not None:
            return made
        return _computed_array(model, binding)  # another call the interpreter knows (`jax.device_put(a)`)
    if binding.kind == "param" and _is_traced_parameter(model, binding):
        return ArrayFact(binding, Rank.UNKNOWN, binding.node, jitted_parameter=True)
    if binding.kind == "assign" and binding.stmt is not None:
        return _computed_array(model, binding)
    if binding.kind == "import":  # `from consts import SCALE`: what the other module assigns it
        return _computed_array(model, binding)
    return None


def constructor_fact(model: ModuleModel, binding: Binding, call: ast.Call, loc: Loc) -> ArrayFact | None:
    """The call (evaluated at `loc`) is a jax.numpy / jax.random / numpy array constructor."""
    name = qualname(call.func, loc, model)
    rank = _constructor_rank(name, call) if name else None
    if rank is None or name is None:
        return None
    return ArrayFact(binding, rank, call, numpy=name.startswith("numpy."))


def _computed_array(model: ModuleModel, binding: Binding) -> ArrayFact | None:
    """A value the interpreter proves to be a jax array on every path (`jnp.arange(n) * 0.5 + 1`,
    a tuple element, an alias).  Its rank is not known, so only pallas_call (which rejects 0-d
    arrays too) is concerned."""
    values = binding_value(interpreter_for(model), binding, EMPTY_ENV, model)
    origin = binding.value if binding.value is not None else binding.node
    if certainly_jax_array(values):
        return ArrayFact(binding, rank_of(values), origin)
    if certainly_numpy_array(values) and rank_of(values) is Rank.NONSCALAR:
        # `np.arange(128).reshape(1, 128).astype(np.float32)`: numpy's methods keep an array.
        return ArrayFact(binding, Rank.NONSCALAR, origin, numpy=True)
    return None


def rank_of(values: frozenset[Value]) -> Rank:
    """0-d or not, when every array among `values` has the same known shape (`x.sum()` is 0-d,
    `x.mean(axis=0)` is not); else unknown."""
    shapes = {v.shape for v in values if isinstance(v, Array)}
    if None in shapes or len(shapes) != 1:
        return Rank.UNKNOWN
    return Rank.SCALAR if shapes == {()} else Rank.NONSCALAR


def member_array_rank(
    model: ModuleModel,
    function: FunctionNode,
    member: Member,
    envs: Iterable[Env] = (EMPTY_ENV,),
) -> Rank | None:
    """The rank of what `obj.attr` / `obj["key"]` read in the kernel holds, when it is a jax array
    on every path the interpreter sees (`self.bias` set to a `jnp` array in `__init__` and to
    nothing else anywhere in the class; `PARAMS["scale"]` of a module-level dict of arrays), in
    each closure `envs` the kernel was made in (`p.weight` of the `p` a factory was called with);
    None when it may be something else."""
    interp = interpreter_for(model)
    loc = model.body_loc(function)
    held: set[Value] = set()
    for env in envs:
        read = (member.value, member.attr) if isinstance(member, ast.Attribute) else None
        if isinstance(member, ast.Call) and (attr := getattr_of(member)) is not None:
            read = (member.args[0], attr)
        if read is not None and computed_on_read(interp, interp.ev(read[0], loc, env, model), read[1]):
            return None  # a getter makes it while JAX traces the kernel: not a captured constant
        values = interp.ev(member, loc, env, model)
        if not certainly_jax_array(values):
            return None
        held |= values
    return rank_of(frozenset(held))


def certainly_jax_array(values: frozenset[Value]) -> bool:
    return bool(values) and all(isinstance(v, Array) and v.origin == "jax" for v in values)


def certainly_numpy_array(values: frozenset[Value]) -> bool:
    return bool(values) and all(isinstance(v, Array) and v.origin == "numpy" for v in values)


def partial_bound_arrays(function: FunctionNode, kernel_values: frozenset[Value]) -> dict[str, frozenset[Value]]:
    """The parameters of `function` that every functools.partial of it among a launch's kernel
    values binds to a jax array (`partial(kernel, bias=jnp.ones(...))`): constants of the kernel.
    Empty when the launch can also pass the bare function."""
    bound: list[dict[str, frozenset[Value]]] = []
    for value in kernel_values:
        args: list[frozenset[Value]] = []
        keywords: dict[str, frozenset[Value]] = {}
        while isinstance(value, Partial) and not value.hidden:
            args = [*value.args, *args]  # an inner partial's arguments come first
            for name, values in value.keywords:
                keywords.setdefault(name, values)  # an outer partial's keyword wins
            value = value.target
        if isinstance(value, Func) and value.node is function:
            positional = positional_args(function)
            named = dict(zip((a.arg for a in positional), args, strict=False))
            bound.append({**named, **keywords})
        elif isinstance(value, Partial):
            return {}  # a splat partial: what it binds is not known
    if not bound:
        return {}
    common = set.intersection(*(set(b) for b in bound))
    return {
        name: frozenset().union(*(b[name] for b in bound))
        for name in sorted(common)
        if all(certainly_jax_array(b[name]) for b in bound)
    }


def names_array(model: ModuleModel, bindings: list[Binding]) -> list[ArrayFact] | None:
    """Facts for every binding, or None unless all of them certainly hold arrays."""
    if not bindings:
        return None
    facts = [array_fact(model, b) for b in bindings]
    if any(f is None for f in facts):
        return None
    return facts  # type: ignore[return-value]  # None entries were ruled out just before


def combined_rank(facts: list[ArrayFact]) -> Rank:
    ranks = {f.rank for f in facts}
    return ranks.pop() if len(ranks) == 1 else Rank.UNKNOWN


def _constructor_rank(name: str, call: ast.Call) -> Rank | None:
    if name.startswith(("jax.numpy.", "numpy.")):
        func = name.split("numpy.", 1)[1]
        if "." in func or func not in _JNP_ARRAY_FUNCTIONS:
            return None
        if func in _SHAPE_FIRST:
            return _shape_rank(_argument(call, 0, "shape"))
        if func in _RANK_AT_LEAST_ONE:
            return Rank.NONSCALAR
        if func in _FROM_DATA:
            return _data_rank(_argument(call, 0, "object" if func in ("array", "asarray") else "x"))
        return Rank.UNKNOWN
    if name == "jax.lax.broadcasted_iota":
        return _shape_rank(_argument(call, 1, "shape"))
    if name == "jax.lax.iota":
        return Rank.NONSCALAR
    if name.startswith("jax.random."):
        func = name[len("jax.random.") :]
        if func in ("PRNGKey", "split"):
            return Rank.NONSCALAR  # u32[2] / a stack of keys
        if func == "key":
            return Rank.SCALAR
        if func == "fold_in":
            return Rank.UNKNOWN  # the shape of the key it folds into
        if func in _RANDOM_DRAWS:
            shape = _argument(call, _RANDOM_DRAWS[func], "shape")
            if shape is None:
                return Rank.SCALAR if func in _RANDOM_DEFAULT_SCALAR else Rank.UNKNOWN
            return _shape_rank(shape)
    return None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return None
    return call.args[index] if len(call.args) > index else None


def _shape_rank(shape: ast.expr | None) -> Rank:
    if isinstance(shape, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in shape.elts):
        return Rank.NONSCALAR if shape.elts else Rank.SCALAR
    if isinstance(shape, ast.Constant) and isinstance(shape.value, int) and not isinstance(shape.value, bool):
        return Rank.NONSCALAR
    return Rank.UNKNOWN


def _data_rank(data: ast.expr | None) -> Rank:
    if isinstance(data, ast.Constant) and isinstance(data.value, (int, float, complex)):
        return Rank.SCALAR
    if isinstance(data, (ast.List, ast.Tuple)):
        return Rank.NONSCALAR
    return Rank.UNKNOWN


# --------------------------------------------------------------------------- jit parameters
def _is_traced_parameter(model: ModuleModel, binding: Binding) -> bool:
    """A parameter of a def decorated with `jax.jit` that jit traces: not static, no default
    (an omitted argument keeps its Python default), not `*args` / `**kwargs`."""
    function = binding.scope.node
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(binding.node, ast.arg):
        return False
    if binding.scope.parent is not None and binding.scope.parent.kind == "class":
        return False  # a method: `self` and friends are not what jit traces as arrays
    args = function.args
    positional = positional_args(function)
    if binding.node in positional:
        index = positional.index(binding.node)
        if index >= len(positional) - len(args.defaults):
            return False
    elif binding.node in args.kwonlyargs:
        index = None
        if args.kw_defaults[args.kwonlyargs.index(binding.node)] is not None:
            return False
    else:
        return False  # *args / **kwargs
    loc = model.loc(function)
    for decorator in function.decorator_list:
        static = _jit_static_arguments(decorator, loc, model)
        if static is None:
            continue
        numbers, names = static
        if binding.name in names or (index is not None and (index in numbers or index - len(positional) in numbers)):
            return False
        return len(function.decorator_list) == 1  # other decorators may change what is passed
    return False


def _jit_static_arguments(decorator: ast.expr, loc: Loc, model: ModuleModel) -> tuple[set[int], set[str]] | None:
    """For a jit decorator, its static argnums and argnames (None: not jit, or not literal)."""
    if qualname(decorator, loc, model) in _JIT:
        return set(), set()
    if not isinstance(decorator, ast.Call):
        return None
    func = qualname(decorator.func, loc, model)
    if func == _PARTIAL and decorator.args and qualname(decorator.args[0], loc, model) in _JIT:
        if len(decorator.args) > 1:
            return None
        keywords = decorator.keywords
    elif func in _JIT and not decorator.args:
        keywords = decorator.keywords  # @jax.jit(static_argnames=...)
    else:
        return None
    numbers: set[int] = set()
    names: set[str] = set()
    for keyword in keywords:
        if keyword.arg is None:
            return None
        if keyword.arg == "static_argnums":
            values = _literals(keyword.value, int)
            if values is None:
                return None
            numbers.update(values)
        elif keyword.arg == "static_argnames":
            values = _literals(keyword.value, str)
            if values is None:
                return None
            names.update(values)
    return numbers, names


def _literals(expr: ast.expr, kind: type) -> list[Any] | None:
    items = expr.elts if isinstance(expr, (ast.Tuple, ast.List, ast.Set)) else [expr]
    values = []
    for item in items:
        if (
            isinstance(item, ast.UnaryOp)
            and isinstance(item.op, ast.USub)
            and isinstance(item.operand, ast.Constant)
            and isinstance(item.operand.value, (int, float))
        ):
            item = ast.Constant(-item.operand.value)
        if not isinstance(item, ast.Constant) or not isinstance(item.value, kind) or isinstance(item.value, bool):
            return None
        values.append(item.value)
    return values
