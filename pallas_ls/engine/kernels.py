"""Launches and kernel sites: which functions are Pallas kernels, and how they are launched.

A *launch* is one use of an entry point (`pallas_call`, `pl.kernel`, `mpmd_map`, `core_map`,
`warp_map`) with its effective arguments, after `functools.partial` and decorator forms are folded
in.  A *kernel site* pairs a launch with one function that JAX will trace as its kernel.

Both come out of the value interpreter (`values/`).  launches.py finds the launches: a call whose
callee can be an entry point makes a launch.  This module resolves a launch's kernel: whatever its
kernel argument can be — a def, a lambda, a partial, a static or bound method, an instance with
`__call__`, an element of a container, the result of a factory or a decorator, from this module or
another one of the project.  A launch inside a function is also explored in the context of every
call of that function that the module makes (a wrapper that forwards its kernel parameter to
`pallas_call`, in this file or imported).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .model import FunctionNode, Loc, ModuleModel, own_returns, qualpath
from .source import SourceFile
from .values.calls import functions_in, keyword_env
from .values.classes import def_value
from .values.domain import (
    EMPTY_ENV,
    BoundMethod,
    Env,
    Func,
    Instance,
    Seq,
    U,
    Value,
    Wrapped,
)
from .values.interpreter import Interpreter
from .values.operations import class_attribute

KernelExpr = ast.expr | ast.FunctionDef | ast.AsyncFunctionDef

ENTRY_LABELS = {
    "pallas_call": "pallas_call",
    "kernel": "pl.kernel",
    "mpmd_map": "mpmd_map",
    "core_map": "pl.core_map",
    "warp_map": "plgpu.warp_map",
}


# Environments kept per invocation of a launched callable (each one's arguments checked apart).
MAX_INVOCATION_ENVS = 8


@dataclass(frozen=True)
class EntryValue:
    """An entry point with its arguments as written (partial-bound ones first)."""

    kind: str
    args: tuple[ast.expr, ...] = ()
    keywords: tuple[tuple[str, ast.expr], ...] = ()
    hidden: bool = False  # some arguments were bound by a splat we cannot read: refs not countable

    def applied(self, args: Iterable[ast.expr], keywords: Iterable[tuple[str, ast.expr]]) -> EntryValue:
        return EntryValue(self.kind, self.args + tuple(args), self.keywords + tuple(keywords), self.hidden)

    def keyword(self, name: str) -> ast.expr | None:
        for key, value in reversed(self.keywords):
            if key == name:
                return value
        return None


@dataclass(eq=False)
class Launch:
    """One use of an entry point (in one calling context)."""

    kind: str
    node: ast.AST  # the call or decorator that launches, used for "launched on line N"
    entry: EntryValue  # effective arguments (kernel slot included when given positionally)
    kernel_exprs: list[tuple[KernelExpr, Loc]]
    # The expression whose value is the launched callable: the launch call, or the decorated def.
    callable_node: ast.AST | None
    loc: Loc  # where the launch's own arguments are evaluated
    model: ModuleModel  # the module the launch is written in
    invocations: list[ast.Call] = field(default_factory=list)
    # Invocations through functools.partial: calls made up of the partial's arguments and the
    # call's (they are not in the source as one call: no fix edits them).
    through_partial: set[int] = field(default_factory=set)
    # The environments each invocation was evaluated in (a launcher explored with the arguments
    # of one of its calls: `def launch(src, dst=None)` called as `launch(r)`), by id(call).
    invocation_envs: dict[int, list[Env]] = field(default_factory=dict)
    env: Env = EMPTY_ENV  # the calling context (a wrapper's parameters bound by one of its calls)
    kernel_values: frozenset[Value] = frozenset()
    interp: Interpreter | None = None
    # Where each argument expression is evaluated: id(expr) -> (loc, env, model).
    places: dict[int, tuple[Loc, Env, ModuleModel]] = field(default_factory=dict)
    via: str = ""

    @property
    def label(self) -> str:
        return ENTRY_LABELS[self.kind]

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 1)

    def interp_model(self, loc: Loc) -> ModuleModel:
        """The model `loc` belongs to (this launch's, or a module it consulted)."""
        return model_of_loc(loc, self.model, self.interp) if self.interp is not None else self.model

    def value_of(self, expr: ast.AST) -> frozenset[Value]:
        """What one of the launch's argument expressions can be, in its own context."""
        if self.interp is None:
            return U
        loc, env, model = self.places.get(id(expr), (self.loc, self.env, self.model))
        return self.interp.ev(expr, loc, env, model)


@dataclass(frozen=True)
class KernelTarget:
    """A function a kernel expression resolves to, with what functools.partial bound."""

    function: FunctionNode
    bound_positional: int = 0
    bound_keywords: frozenset[str] = frozenset()
    env: Env = EMPTY_ENV  # the closure the function was made in (a decorator's wrapper)


@dataclass(eq=False)
class KernelSite:
    """One function that JAX traces as the kernel of one launch."""

    launch: Launch
    target: KernelTarget
    launch_path: str | None = None  # the file of the launch, when it differs from the kernel's
    launch_source: SourceFile | None = None  # that file's source (positions of the launch)
    via: str = ""  # how the kernel reached the launch, for messages ("through wrapper `run`")

    @property
    def function(self) -> FunctionNode:
        return self.target.function


@dataclass(frozen=True)
class ForeignKernel:
    """A launch in this module (or reached from it) of a kernel another project module defines."""

    launch: Launch
    model: ModuleModel  # the module defining the kernel
    qualpath: str  # the function's path in that module ("make.<locals>.kernel", "Ops.kernel")
    bound_positional: int
    bound_keywords: frozenset[str]
    env: Env = EMPTY_ENV


def kernel_name(function: FunctionNode) -> str:
    return "<lambda>" if isinstance(function, ast.Lambda) else function.name


# ------------------------------------------------------------------------------- kernel slots
def kernel_slot(entry: EntryValue) -> list[ast.expr] | None:
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
        if pairs is None:
            return None
        if isinstance(pairs, (ast.List, ast.Tuple)):
            return [p.elts[1] if isinstance(p, ast.Tuple) and len(p.elts) == 2 else p for p in pairs.elts]
        return [pairs]
    if entry.kind == "core_map":
        return []
    if entry.kind == "warp_map":
        return [entry.args[0]] if entry.args else None
    return None


def kernel_functions_of(kind: str, values: frozenset[Value]) -> frozenset[Value]:
    """A kernel slot's values, with MPMD containers opened (a list of bodies, (mesh, fn) pairs)."""
    if kind not in ("kernel", "mpmd_map"):
        return values
    out: set[Value] = set()
    for v in values:
        if isinstance(v, Seq):
            for member in v.all_members():
                if kind == "mpmd_map" and isinstance(member, Seq) and member.elts is not None and len(member.elts) == 2:
                    out |= member.elts[1]
                else:
                    out.add(member)
        else:
            out.add(v)
    return frozenset(out)


# ------------------------------------------------------------------------ kernel resolution
def model_of_loc(loc: Loc, default: ModuleModel, interp: Interpreter) -> ModuleModel:
    """The model a Loc belongs to (partials may be made in another module)."""
    scope = loc.scope
    while scope.parent is not None:
        scope = scope.parent
    if scope is default.module_scope:
        return default
    for model in interp.models():
        if model.module_scope is scope:
            return model
    return default


def kernel_sites(model: ModuleModel, launches: list[Launch]) -> tuple[list[KernelSite], list[ForeignKernel]]:
    """Resolve every launch's kernels.

    Returns the sites whose kernel is defined in this module (the launch may be written in another
    one: a wrapper imported from it), and the launches of kernels another module defines.
    """
    sites: list[KernelSite] = []
    foreign: list[ForeignKernel] = []
    seen: set[tuple[int, int]] = set()
    for launch in launches:
        interp = launch.interp or interpreter_for(model)
        for func, bound, keywords in _through_forwarders(interp, functions_in(interp, launch.kernel_values)):
            key = (id(launch), id(func.node))
            if key in seen:
                continue
            seen.add(key)
            target = KernelTarget(func.node, bound, frozenset(keywords), keyword_env(launch.kernel_values, func))
            if func.model is model:
                launch_path = None
                launch_source = None
                if launch.model is not model:
                    launch_path = interp.loader.path_of(launch.model)
                    launch_source = interp.loader.source_of(launch.model)
                sites.append(KernelSite(launch, target, launch_path, launch_source, via=launch.via))
            else:
                path = qualpath(func.model, func.node)
                if path is not None:
                    foreign.append(ForeignKernel(launch, func.model, path, bound, frozenset(keywords), target.env))
    sites.sort(key=lambda s: (getattr(s.function, "lineno", 0), s.launch.line))
    return sites, foreign


def _through_forwarders(interp: Interpreter, found: list[Any]) -> list[Any]:
    """A decorator's wrapper that returns what the decorated function returns (`return fn(*a)`)
    is traced by JAX, but the value it returns is the decorated kernel's: that one is the site."""
    out: list[Any] = []
    for func, bound, keywords in found:
        inner = _forwarded(interp, func)
        out += [(f, bound, keywords) for f in inner] if inner else [(func, bound, keywords)]
    return out


def _forwarded(interp: Interpreter, func: Func) -> list[Func]:
    node, model = func.node, func.model
    if not func.env.items or isinstance(node, ast.Lambda):
        return []
    if id(model) in interp.library_models:
        return _wrapped_by_a_model(interp, func)
    scope = model.scope_of_function.get(id(node))
    out: list[Func] = []
    for ret in own_returns(node):
        value = ret.value
        if value is None:
            continue
        if isinstance(value, ast.Name) and scope is not None:
            bindings = model.lookup(value.id, model.loc(ret))
            if len(bindings) != 1 or not isinstance(bindings[0].value, ast.Call):
                return []
            value = bindings[0].value
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
            return []
        # Only a function the closure was given (`fn`, the decorator's parameter) is forwarded.
        bindings = model.lookup(value.func.id, model.loc(ret))
        if len(bindings) != 1 or bindings[0].kind != "param" or func.env.get(bindings[0]) is None:
            return []
        callee = interp.ev(value.func, model.loc(ret), func.env, model)
        functions = [v for v in callee if isinstance(v, Func) and v.node is not node]
        if not functions or len(functions) != len(callee):
            return []
        out += functions
    return out


def _wrapped_by_a_model(interp: Interpreter, func: Func) -> list[Func]:
    """A library model's closure over one of the program's functions (`contextlib.contextmanager`'s
    `helper`, calling it with the arguments it gets): JAX calls the closure, the program's
    function is the site (a generator there: PAL005)."""
    wrapped = {
        v.node: v
        for _, values in func.env.items
        for v in values
        if isinstance(v, Func) and id(v.model) not in interp.library_models
    }
    return list(wrapped.values()) if len(wrapped) == 1 else []


def resolve_kernel(
    expr: KernelExpr,
    loc: Loc,
    model: ModuleModel,
    bound_positional: int = 0,
    bound_keywords: frozenset[str] = frozenset(),
    depth: int = 0,
) -> list[KernelTarget]:
    """Every function of `model` an expression passed as a kernel (or a body) can be."""
    if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return [KernelTarget(expr, bound_positional, bound_keywords)]
    interp = interpreter_for(model)
    out = []
    for func, bound, keywords in functions_in(interp, interp.ev(expr, loc, EMPTY_ENV, model)):
        if func.model is model:
            out.append(
                KernelTarget(func.node, bound_positional + bound, bound_keywords | frozenset(keywords), func.env)
            )
    return out


def interpreter_for(model: ModuleModel) -> Interpreter:
    """The interpreter an analysis attached to its model (a plain one for a bare model)."""
    interp = getattr(model, "_interpreter", None)
    if interp is None:
        interp = Interpreter(model)
        model._interpreter = interp  # type: ignore[attr-defined]  # the model's interpreter, for questions asked with a bare model
    return interp


def method_receivers(model: ModuleModel, function: FunctionNode, kernel_values: frozenset[Value]) -> frozenset[Value]:
    """The instances a launch binds the method `function` to: a bound method's receiver
    (`scaler.kernel`), or a callable instance whose `__call__` it is (`pallas_call(Scale(2), ...)`).
    Empty when any kernel value is something else (the plain function: `self` is not known)."""
    interp = interpreter_for(model)
    found: set[Value] = set()
    for value in kernel_values:
        if isinstance(value, BoundMethod) and getattr(value.func, "node", None) is function:
            found.add(value.receiver)
        elif isinstance(value, Instance) and any(
            isinstance(m, BoundMethod) and getattr(m.func, "node", None) is function
            for m in class_attribute(interp, value.cls, "__call__", value)
        ):
            found.add(value)
        else:
            return frozenset()
    return frozenset(found)


def hands_back(model: ModuleModel, function: ast.FunctionDef | ast.AsyncFunctionDef, env: Env = EMPTY_ENV) -> bool:
    """Whether a def's decorators, as the interpreter follows them, give back the function itself
    (`@register("name")` storing it in a registry) or a wrapper that calls it with every argument
    it gets (`@functools.wraps(fn)` + `return fn(*args, **kwargs)`): then JAX calls the def as
    written."""
    interp = interpreter_for(model)
    where = model.loc(function)
    for decorator in function.decorator_list:  # the project's own decorators, followed (not a library's)
        if _is_builtin_staticmethod(decorator, model):
            continue  # `self.kernel` of a staticmethod is the def itself
        if not all(isinstance(v, (Func, BoundMethod)) for v in interp.ev(decorator, where, env, model)):
            return False
    made = def_value(interp, function, model, env)
    if len(made) != 1:
        return False
    value = next(iter(made))
    if isinstance(value, Wrapped) and value.kind == "static":
        value = value.func
    if isinstance(value, Func) and value.node is function:
        return True
    # `@functools.wraps(fn) def wrapper(*args, **kwargs): return fn(*args, **kwargs)`: JAX calls
    # the wrapper, which calls the def with the very same arguments.
    return (
        isinstance(value, Func)
        and _forwards_all_arguments(value.node)
        and [f.node for f in _forwarded(interp, value)] == [function]
    )


def _is_builtin_staticmethod(decorator: ast.expr, model: ModuleModel) -> bool:
    return (
        isinstance(decorator, ast.Name)
        and decorator.id == "staticmethod"
        and not model.lookup("staticmethod", model.loc(decorator))
    )


def _forwards_all_arguments(wrapper: FunctionNode) -> bool:
    """`def wrapper(*args, **kwargs): return fn(*args, **kwargs)` (no other parameter, no other
    argument)."""
    if isinstance(wrapper, ast.Lambda):
        return False
    args = wrapper.args
    if args.posonlyargs or args.args or args.kwonlyargs or args.vararg is None:
        return False
    returns = list(own_returns(wrapper))
    if len(returns) != 1 or not isinstance(returns[0].value, ast.Call):
        return False
    call = returns[0].value
    star = [a for a in call.args if isinstance(a, ast.Starred)]
    if len(call.args) != 1 or len(star) != 1 or not isinstance(star[0].value, ast.Name):
        return False
    if star[0].value.id != args.vararg.arg:
        return False
    if args.kwarg is None:
        return not call.keywords
    return (
        len(call.keywords) == 1
        and call.keywords[0].arg is None
        and isinstance(call.keywords[0].value, ast.Name)
        and call.keywords[0].value.id == args.kwarg.arg
    )


# --------------------------------------------------------------------------- qualified paths
def function_at(model: ModuleModel, path: str) -> FunctionNode | None:
    for function in model.functions:
        if getattr(function, "name", None) == path.rsplit(".", 1)[-1] and qualpath(model, function) == path:
            return function
    return None
