"""Free variables of a function and how it uses them (which of them are certainly jax arrays:
array_facts.py).

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from .array_facts import STATIC_ATTRIBUTES, Member, Rank, constructor_rank, getattr_of
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
)
from .names import qualname
from .values.domain import EMPTY_ENV, constant_truth

# --------------------------------------------------------------------------------- free uses


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
    # For a callee: the call's result certainly binds a JAX operation (`x_ref[...] + bias()`).
    result_traced: bool = False
    # For the sequence of a `for` loop (`for t in TERMS:`): the loop body's first read of its
    # target that certainly binds a JAX operation (`acc + t`); None when there is none.
    item_traced_at: ast.Name | None = None


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
                helper = module_def(model, use.name) if use.called else None
                if helper is not None and helper is not function and all(helper is not h for h in found + called):
                    called.append(helper)
        found += called
        frontier = called
    return found


def module_def(model: ModuleModel, name: str) -> FunctionNode | None:
    """The module-level def `name` is bound to, when that is its only binding."""
    bindings = model.module_scope.bindings.get(name, [])
    if len(bindings) != 1 or bindings[0].kind != "def":
        return None
    return cast(FunctionNode, bindings[0].node)


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
                        _is_traced_use(node, parents, model, scope),
                        _is_subscripted(node, parents),
                        _meets_jax(node, parents, model, scope),
                        member,
                        member is not None and _is_traced_use(member, parents, model, scope),
                        _outer_members(member, parents, model),
                        _is_callee(node, parents),
                        _is_callee(node, parents) and _is_traced_use(cast(ast.expr, parents[id(node)]), parents, model),
                        _traced_loop_item(node, parents, model, scope),
                    )
                )
            continue
        stack.extend((child, scope, comp_names) for child in reversed(child_nodes(node)))
    uses.sort(key=lambda u: (u.node.lineno, u.node.col_offset))
    return uses


def _traced_loop_item(node: ast.Name, parents: dict[int, ast.AST], model: ModuleModel, scope: Scope) -> ast.Name | None:
    """`for t in TERMS:` with `TERMS` the node: the loop body's first read of `t` that certainly
    binds a JAX operation, when the loop alone binds `t` in the scope."""
    loop = parents.get(id(node))
    if not isinstance(loop, ast.For) or loop.iter is not node or not isinstance(loop.target, ast.Name):
        return None
    name = loop.target.id
    if any(b.stmt is not loop for b in scope.bindings.get(name, [])):
        return None  # bound otherwise too: a read may see another value
    reads = (
        n
        for stmt in loop.body
        for n in ast.walk(stmt)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    )
    return next((n for n in reads if _is_traced_use(n, parents, model)), None)


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


def _is_traced_use(node: ast.expr, parents: dict[int, ast.AST], model: ModuleModel, scope: Scope | None = None) -> bool:
    """The use certainly binds a JAX operation on the value (for an array: makes it a constant).

    Follows the value up through indexing, through calls that may return it untouched and (given
    the use's `scope`) through the branch of a conditional expression a constant test takes, then
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
        if isinstance(parent, ast.IfExp) and expr is not parent.test:
            if scope is None or _branch_taken(parent, parents, model, scope) is not (expr is parent.body):
                return False
            expr = parent  # `W if DEBUG else 0.0` with DEBUG = True: W lands where the expression does
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


def _branch_taken(node: ast.IfExp, parents: dict[int, ast.AST], model: ModuleModel, scope: Scope) -> bool | None:
    """Which branch of a conditional expression in `scope` runs: True (its body), False (its
    else), None when its test is not a constant."""
    statement: ast.AST = node
    while not isinstance(statement, ast.stmt) and id(statement) in parents:
        statement = parents[id(statement)]
    where = Loc(scope, statement if isinstance(statement, ast.stmt) else None)
    return constant_truth(interpreter_for(model).ev(node.test, where, EMPTY_ENV, model))


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
    return name is not None and name.startswith("numpy.") and constructor_rank(name, call) is Rank.NONSCALAR


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
