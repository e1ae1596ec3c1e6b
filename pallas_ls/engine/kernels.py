"""Launches and kernel sites: which functions are Pallas kernels, and how they are launched.

A *launch* is one use of an entry point (`pallas_call`, `pl.kernel`, `mpmd_map`, `core_map`,
`warp_map`) with its effective arguments, after `functools.partial` and decorator forms are folded
in.  A *kernel site* pairs a launch with one function that JAX will trace as its kernel.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Iterator, Union

from .source import SourceFile
from .model import Binding, FunctionNode, Loc, ModuleModel, own_returns
from .names import ENTRY_POINTS, MAX_DEPTH, PARTIAL, has_star_arguments, keyword_argument, qualname

KernelExpr = Union[ast.expr, ast.FunctionDef, ast.AsyncFunctionDef]

# Kinds whose call without a body returns a decorator that takes the kernel.
_FACTORY_KINDS = ("kernel", "core_map")

ENTRY_LABELS = {
    "pallas_call": "pallas_call",
    "kernel": "pl.kernel",
    "mpmd_map": "mpmd_map",
    "core_map": "pl.core_map",
    "warp_map": "plgpu.warp_map",
}


@dataclass(frozen=True)
class EntryValue:
    """An entry point with the arguments bound so far (by functools.partial)."""

    kind: str
    args: tuple[ast.expr, ...] = ()
    keywords: tuple[tuple[str, ast.expr], ...] = ()

    def applied(self, args, keywords) -> "EntryValue":
        return EntryValue(self.kind, self.args + tuple(args), self.keywords + tuple(keywords))

    def keyword(self, name: str) -> ast.expr | None:
        for key, value in reversed(self.keywords):
            if key == name:
                return value
        return None


@dataclass(eq=False)
class Launch:
    """One use of an entry point in a module."""

    kind: str
    node: ast.AST  # the call or decorator that launches, used for "launched on line N"
    entry: EntryValue  # effective arguments (kernel slot included when given positionally)
    kernel_exprs: list[tuple[KernelExpr, Loc]]
    # The expression whose value is the launched callable: the launch call, or the decorated def.
    callable_node: ast.AST | None
    loc: Loc  # where the launch's arguments are evaluated
    model: ModuleModel  # the module the launch is written in
    invocations: list[ast.Call] = field(default_factory=list)

    @property
    def label(self) -> str:
        return ENTRY_LABELS[self.kind]

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 1)


@dataclass(frozen=True)
class KernelTarget:
    """A function a kernel expression resolves to, with what functools.partial bound."""

    function: FunctionNode
    bound_positional: int = 0
    bound_keywords: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ForwardedParameter:
    """The kernel expression is a parameter of a function (a wrapper that forwards its kernel)."""

    binding: Binding
    bound_positional: int = 0
    bound_keywords: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ImportedKernel:
    """The kernel expression names something imported from another module (resolved by project)."""

    qualname: str  # possibly relative (".kernels.k")
    bound_positional: int = 0
    bound_keywords: frozenset[str] = frozenset()
    node: ast.AST | None = None


Resolved = Union[KernelTarget, ForwardedParameter, ImportedKernel]


@dataclass(eq=False)
class KernelSite:
    """One function that JAX traces as the kernel of one launch."""

    launch: Launch
    target: KernelTarget
    launch_path: str | None = None  # the file of the launch, when it differs from the kernel's
    launch_source: "SourceFile | None" = None  # that file's source (positions of the launch)
    via: str = ""  # how the kernel reached the launch, for messages ("through wrapper `run`")

    @property
    def function(self) -> FunctionNode:
        return self.target.function


def kernel_name(function: FunctionNode) -> str:
    return "<lambda>" if isinstance(function, ast.Lambda) else function.name


# ------------------------------------------------------------------------------ entry values
def entry_value(expr: ast.AST, loc: Loc, model: ModuleModel, depth: int = 0) -> EntryValue | None:
    """What entry point (with partial-bound arguments) an expression denotes, if any."""
    if depth > MAX_DEPTH:
        return None
    name = qualname(expr, loc, model)
    if name in ENTRY_POINTS:
        return EntryValue(ENTRY_POINTS[name])
    if isinstance(expr, ast.Call) and expr.args and qualname(expr.func, loc, model) == PARTIAL:
        inner = entry_value(expr.args[0], loc, model, depth + 1)
        if inner is not None and not has_star_arguments(expr):
            return inner.applied(expr.args[1:], [(k.arg, k.value) for k in expr.keywords])
        return None
    if isinstance(expr, ast.Name):
        for binding in model.lookup(expr.id, loc)[:1]:
            if binding.kind == "assign" and binding.value is not None:
                return entry_value(binding.value, Loc(binding.scope, binding.stmt), model, depth + 1)
    return None


def _kernel_slot(entry: EntryValue) -> list[ast.expr] | None:
    """The kernel expressions an application supplies, [] for a factory call, None if invalid."""
    if entry.kind == "pallas_call":
        given = entry.args[0] if entry.args else entry.keyword("kernel")
        return [given] if given is not None else None
    if entry.kind == "kernel":
        body = entry.args[0] if entry.args else entry.keyword("body")
        if body is None:
            return []
        if isinstance(body, (ast.List, ast.Tuple)):
            return list(body.elts)  # MPMD: every body is a kernel
        return [body]
    if entry.kind == "mpmd_map":
        pairs = entry.args[0] if entry.args else entry.keyword("meshes_and_fns")
        if isinstance(pairs, (ast.List, ast.Tuple)):
            return [p.elts[1] for p in pairs.elts if isinstance(p, ast.Tuple) and len(p.elts) == 2]
        return None
    if entry.kind == "core_map":
        return []
    if entry.kind == "warp_map":
        return [entry.args[0]] if entry.args else None
    return None


# ------------------------------------------------------------------------------- launches
# The last component of every entry point's name: an attribute call `x.y(...)` can only denote an
# entry point when `y` is one of these (modules keep the real names; only imports can rename).
_ENTRY_ATTRIBUTES = frozenset(name.rsplit(".", 1)[1] for name in ENTRY_POINTS)


def candidate_calls(model: ModuleModel, attributes) -> list[ast.Call]:
    """The calls whose callee can denote an imported API with one of `attributes` as its last
    name: `x.attr(...)`, a name that aliases an import (`launch(...)`), or a call's result.
    Most calls (`jnp.sum(...)`, a local function) are ruled out before any name resolution."""
    calls = model.calls_with_attribute(attributes) + model.calls_named(model.alias_names) + model.calls_of_calls
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def find_launches(model: ModuleModel) -> list[Launch]:
    launches: list[Launch] = []
    factories: dict[int, EntryValue] = {}  # id(factory call) -> its entry value
    for call in candidate_calls(model, _ENTRY_ATTRIBUTES):
        loc = model.loc(call)
        entry = entry_value(call.func, loc, model)
        if entry is None:
            continue
        if has_star_arguments(call) and entry.kind != "pallas_call":
            continue
        entry = entry.applied(call.args, [(k.arg, k.value) for k in call.keywords if k.arg])
        slot = _kernel_slot(entry)
        if slot is None:
            continue
        if not slot:
            factories[id(call)] = entry
            continue
        launches.append(Launch(entry.kind, call, entry, [(e, loc) for e in slot], call, loc, model))
    # Factories applied in place: `pl.kernel(mesh=m)(body)`, `pl.core_map(mesh)(body)`.
    for call in model.calls_of_calls:
        if id(call.func) in factories and call.args:
            entry = factories[id(call.func)]
            loc = model.loc(call)
            launches.append(Launch(entry.kind, call.func, entry, [(call.args[0], loc)], call, loc, model))
    launches.extend(_decorator_launches(model, factories))
    _attach_invocations(model, launches)
    return launches


def _decorator_launches(model: ModuleModel, factories: dict[int, EntryValue]) -> Iterator[Launch]:
    for node in model.decorated:
        if isinstance(node, ast.ClassDef):
            continue
        loc = model.loc(node)
        for deco in node.decorator_list:
            if id(deco) in factories:  # @pl.kernel(mesh=...), @pl.core_map(mesh)
                yield Launch(factories[id(deco)].kind, deco, factories[id(deco)], [(node, loc)], node, loc, model)
                continue
            entry = entry_value(deco, loc, model)  # @partial(pl.pallas_call, ...), @plgpu.warp_map
            if entry is None:
                continue
            entry = entry.applied([ast.Name(id=node.name, ctx=ast.Load())], [])
            if entry.kind in ("pallas_call", "warp_map") or (entry.kind == "kernel" and len(entry.args) == 1):
                yield Launch(entry.kind, deco, entry, [(node, loc)], node, loc, model)


def _attach_invocations(model: ModuleModel, launches: list[Launch]) -> None:
    """Find the calls of each launched callable: `launch(...)(x)`, `f = launch(...); f(x)`."""
    by_node = {id(launch.callable_node): launch for launch in launches if launch.callable_node is not None}
    if not by_node:
        return
    decorated = {l.callable_node.name for l in launches if isinstance(l.callable_node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for call in model.calls_of_calls + model.calls_named(model.alias_names | decorated):
        launch = by_node.get(id(call.func))
        if launch is None and isinstance(call.func, ast.Name):
            for binding in model.lookup(call.func.id, model.loc(call))[:1]:
                source = binding.value if binding.kind == "assign" else binding.node
                launch = by_node.get(id(source))
        if launch is not None:
            launch.invocations.append(call)


# ------------------------------------------------------------------------ kernel resolution
def resolve_kernel(
    expr: KernelExpr,
    loc: Loc,
    model: ModuleModel,
    bound_positional: int = 0,
    bound_keywords: frozenset[str] = frozenset(),
    depth: int = 0,
) -> list[Resolved]:
    """Every function an expression passed as a kernel can be (both branches of `a if c else b`)."""
    if depth > MAX_DEPTH:
        return []
    recurse = lambda e, l, bp=bound_positional, bk=bound_keywords: resolve_kernel(  # noqa: E731
        e, l, model, bp, bk, depth + 1
    )
    if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return [KernelTarget(expr, bound_positional, bound_keywords)]
    if isinstance(expr, ast.IfExp):
        return recurse(expr.body, loc) + recurse(expr.orelse, loc)
    if isinstance(expr, ast.Name):
        return _resolve_name(expr, loc, model, bound_positional, bound_keywords, depth)
    if isinstance(expr, ast.Attribute):
        name = qualname(expr, loc, model)
        if name and not name.startswith("jax"):
            return [ImportedKernel(name, bound_positional, bound_keywords, expr)]
        return []
    if isinstance(expr, ast.Call):
        if expr.args and qualname(expr.func, loc, model) == PARTIAL:
            if has_star_arguments(expr):
                return []
            keywords = bound_keywords | {k.arg for k in expr.keywords if k.arg}
            return recurse(expr.args[0], loc, bound_positional + len(expr.args) - 1, keywords)
        return _resolve_factory_call(expr, loc, model, bound_positional, bound_keywords, depth)
    return []


def _resolve_name(expr: ast.Name, loc: Loc, model, bound_positional, bound_keywords, depth) -> list[Resolved]:
    results: list[Resolved] = []
    for binding in model.lookup(expr.id, loc):
        if binding.kind == "def":
            results.append(KernelTarget(binding.node, bound_positional, bound_keywords))  # type: ignore[arg-type]
        elif binding.kind == "assign" and binding.value is not None:
            results += resolve_kernel(
                binding.value, Loc(binding.scope, binding.stmt), model, bound_positional, bound_keywords, depth + 1
            )
        elif binding.kind == "param":
            results.append(ForwardedParameter(binding, bound_positional, bound_keywords))
        elif binding.kind == "import" and binding.qualname and not binding.qualname.startswith("jax"):
            results.append(ImportedKernel(binding.qualname, bound_positional, bound_keywords, expr))
    return results


def _resolve_factory_call(call: ast.Call, loc: Loc, model, bound_positional, bound_keywords, depth) -> list[Resolved]:
    """`make_kernel(...)` where make_kernel is a local def returning an inner function."""
    if not isinstance(call.func, ast.Name):
        return []
    results: list[Resolved] = []
    for binding in model.lookup(call.func.id, loc):
        if binding.kind != "def":
            continue
        factory = binding.node
        for ret in own_returns(factory):  # type: ignore[arg-type]
            if ret.value is not None:
                for resolved in resolve_kernel(
                    ret.value, model.loc(ret), model, bound_positional, bound_keywords, depth + 1
                ):
                    # A parameter of the factory is not a kernel we can see from here.
                    if not isinstance(resolved, ForwardedParameter):
                        results.append(resolved)
    return results


def kernel_sites(model: ModuleModel, launches: list[Launch]) -> tuple[list[KernelSite], list[tuple[Launch, ImportedKernel]]]:
    """Resolve every launch's kernels in this module.

    Returns the sites whose kernel is defined here, and the launches whose kernel is imported
    (for the project to resolve in the defining module).
    """
    sites: list[KernelSite] = []
    imported: list[tuple[Launch, ImportedKernel]] = []
    pending: list[tuple[Launch, KernelExpr, Loc, int, frozenset[str], str, int]] = [
        (launch, expr, loc, 0, frozenset(), "", 0) for launch in launches for expr, loc in launch.kernel_exprs
    ]
    seen: set[tuple[int, int]] = set()
    while pending:
        launch, expr, loc, bp, bk, via, hops = pending.pop()
        for resolved in resolve_kernel(expr, loc, model, bp, bk):
            if isinstance(resolved, KernelTarget):
                key = (id(launch), id(resolved.function))
                if key not in seen:
                    seen.add(key)
                    sites.append(KernelSite(launch, resolved, via=via))
            elif isinstance(resolved, ImportedKernel):
                imported.append((launch, resolved))
            elif hops < MAX_DEPTH:
                for arg, arg_loc, wrapper in _wrapper_arguments(model, resolved.binding):
                    pending.append(
                        (launch, arg, arg_loc, resolved.bound_positional, resolved.bound_keywords,
                         f"through `{wrapper}`", hops + 1)
                    )
    sites.sort(key=lambda s: (getattr(s.function, "lineno", 0), s.launch.line))
    return sites, imported


def _wrapper_arguments(model: ModuleModel, param: Binding) -> Iterator[tuple[ast.expr, Loc, str]]:
    """For a parameter of a def, the argument every call of that def passes for it."""
    function = param.scope.node
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    for call in model.calls_named([function.name]):
        loc = model.loc(call)
        if not any(b.node is function for b in model.lookup(call.func.id, loc)):
            continue
        arg = _argument_for(call, param)
        if arg is not None:
            yield arg, loc, function.name


def _argument_for(call: ast.Call, param: Binding) -> ast.expr | None:
    given = keyword_argument(call, param.name)
    if given is not None:
        return given
    index = param.param_index
    if index is None:
        return None
    for position, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None
        if position == index:
            return arg
    return None
