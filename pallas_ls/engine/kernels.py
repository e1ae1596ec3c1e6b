"""Launches and kernel sites: which functions are Pallas kernels, and how they are launched.

A *launch* is one use of an entry point (`pallas_call`, `pl.kernel`, `mpmd_map`, `core_map`,
`warp_map`) with its effective arguments, after `functools.partial` and decorator forms are folded
in.  A *kernel site* pairs a launch with one function that JAX will trace as its kernel.

Both come out of the value interpreter (`interp`): a call whose callee can be an entry point makes
a launch, and the launch's kernel is whatever its kernel argument can be — a def, a lambda, a
partial, a static or bound method, an instance with `__call__`, an element of a container, the
result of a factory or a decorator, from this module or another one of the project.  A launch
inside a function is also explored in the context of every call of that function that the module
makes (a wrapper that forwards its kernel parameter to `pallas_call`, in this file or imported).
"""

from __future__ import annotations

import ast
import collections
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from .cancel import StopCheck, stop_if
from .launch_contexts import IMMEDIATELY_CALLING, LaunchContexts, names_calling
from .model import FunctionNode, Loc, ModelParts, ModuleModel, Scope, own_returns
from .names import ENTRY_POINTS, callee_name, has_star_positionals
from .source import SourceFile
from .values.bindings import star_imports
from .values.calls import bind_arguments, entry_of, functions_in, keyword_env
from .values.classes import def_value
from .values.domain import (
    EMPTY_ENV,
    MAX_SUMMARIES,
    BoundMethod,
    Class,
    Entry,
    Env,
    Factory,
    Func,
    Instance,
    Launched,
    Partial,
    Seq,
    U,
    Value,
    Wrapped,
    single_known_str_dict,
)
from .values.interpreter import Interpreter, Loader
from .values.operations import class_attribute, entered, iterate
from .values.returns import reaches

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
        return _model_of_loc(loc, self.model, self.interp) if self.interp is not None else self.model

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


def _kernel_functions_of(kind: str, values: frozenset[Value]) -> frozenset[Value]:
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


# ------------------------------------------------------------------------------- launches
# The last component of every entry point's name: an attribute call `x.y(...)` can only denote an
# entry point directly when `y` is one of these.
_ENTRY_ATTRIBUTES = frozenset(name.rsplit(".", 1)[1] for name in ENTRY_POINTS)


def candidate_calls(model: ModuleModel, attributes: Iterable[str]) -> list[ast.Call]:
    """The calls whose callee can denote an imported API with one of `attributes` as its last
    name: `x.attr(...)`, a name that aliases an import (`launch(...)`), or a call's result."""
    calls = model.calls_with_attribute(attributes) + model.calls_named(model.alias_names) + model.calls_of_calls
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _defined_names(model: ModuleModel) -> set[str]:
    names = {getattr(f, "name", None) for f in model.functions} - {None}
    for scope_node in model.decorated:
        names.add(scope_node.name)
    names |= {b.name for bs in model.module_scope.bindings.values() for b in bs if b.kind == "class"}
    # Class attributes bound by assignment can be methods too (`double = partialmethod(launch, k)`).
    names |= {
        b.name
        for scope in model.scope_of_function.values()
        if scope.kind == "class"
        for bs in scope.bindings.values()
        for b in bs
        if b.kind == "assign"
    }
    return names  # type: ignore[return-value]  # None was subtracted above


def _candidates_in(model: ModuleModel, parts: list[ModelParts], defined: set[str]) -> list[ast.Call]:
    """The launch candidates written in `parts` (with repeats, in no order)."""
    names = set(model.alias_names) | defined
    attributes = _ENTRY_ATTRIBUTES | defined
    modules = _imported_names(model)
    calls: list[ast.Call] = []
    for part in parts:  # one pass over each block's index (not one lookup per name)
        for attr, found in part.calls_by_attribute.items():
            if attr in attributes:
                calls += found
        for root, found in part.calls_by_root.items():
            if root in modules:  # `wrap.launch(kernel)`: a function of an imported module
                calls += found
        for name, found in part.calls_by_name.items():
            if name in names:
                calls += found
        calls += part.calls_of_calls
        calls += part.calls_of_items
    return calls


def _imported_names(model: ModuleModel) -> set[str]:
    """Module-level names bound by an import, but for the libraries that launch nothing of the
    project's (`jnp.sum(...)` is not worth evaluating)."""
    return {
        name
        for name, bindings in model.module_scope.bindings.items()
        if name not in _NOT_PROJECT and any(b.kind == "import" for b in bindings)
    }


def launch_candidates(model: ModuleModel) -> list[ast.Call]:
    """Calls that may launch (directly, through a wrapper, or by invoking a launched callable):
    entry-point attributes, names bound by imports / aliases / defs / classes, calls of calls,
    and methods named like a def of the module.  Other calls (`jnp.sum(...)`, builtins) are ruled
    out before any evaluation: this keeps a keystroke's analysis cheap."""
    cached: list[ast.Call] | None = getattr(model, "_launch_candidates", None)
    if cached is not None:
        return cached
    calls = _candidates_in(model, model._parts, _defined_names(model))
    seen: set[int] = set()
    unique = []
    for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
        if id(call) not in seen:
            seen.add(id(call))
            unique.append(call)
    model._launch_candidates = unique  # type: ignore[attr-defined]  # a cache kept on the model
    return unique


class LaunchFinder:
    """Runs the interpreter over a module's candidate calls and decorators, collecting the
    launches that calls of entry points make (in every calling context it explores)."""

    MAX_EXPLORED = 400  # function contexts explored per module (bounds pathological code)
    MAX_CONTEXTS = 6  # calling contexts explored per function (recursive helpers with many shapes)

    def __init__(self, interp: Interpreter, should_stop: StopCheck = None):
        self.interp = interp
        # Asked between candidate calls (engine/cancel.py); what a cancel leaves half made is this
        # finder's and its interpreter's own state (and a model's launch candidates, set whole).
        self.should_stop = should_stop
        self.launches: dict[tuple[int, Env], Launch] = {}
        self._explored: set[tuple[object, ...]] = set()
        self._by_scope: dict[int, dict[int, list[ast.Call]]] = {}
        self._launching: dict[int, dict[int, ast.AST]] = {}  # id(model) -> its launching functions
        self._contexts: dict[int, int] = {}
        self._decorator_launches: dict[int, bool] = {}
        self._splat_items: dict[tuple[int, str], ast.expr] = {}  # `spec["kernel"]` of `**spec`
        self._partial_invocations: dict[tuple[int, int], ast.Call] = {}  # see _through_partial
        self.calls_seen = LaunchContexts(interp.model)  # the calls of launchers seen: which contexts count
        # The module's launchers whose generic context their seen calls replaced: another file's
        # call (`run("bump")`) may pass what no call here does, so such files are checked with it.
        self.decided_by_calls: set[str] = set()
        interp.on_entry_call = self._entry_call
        interp.on_factory_call = self._factory_call
        interp.on_decorator_launch = self._decorator_launch
        interp.on_invocation = self._invocation
        interp.on_function_call = self._function_call

    # ------------------------------------------------------------------------ driving
    def run(self, model: ModuleModel) -> list[Launch]:
        """Evaluate the calls that can launch (their callee is an entry point, a factory's result,
        a launched callable, or a function that launches) and the defs decorated by one.  Other
        calls are never evaluated: a module of helpers costs a few name lookups."""
        interp = self.interp
        launching = self._launching_in(model)
        names = {getattr(model_function, "name", "") for model_function in launching.values()}
        # Calls of a def a launching decorator made into a launched callable (its invocations).
        names |= {
            node.name
            for node in model.decorated
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and self._launching_decorators(node, model)
        }
        # A launching `__init__` runs when its class is called: `Layer("copy")`.
        names |= {
            cast(ast.ClassDef, scope.parent.node).name
            for f in launching.values()
            if getattr(f, "name", "") == "__init__"
            and (scope := model.scope_of_function.get(id(f))) is not None
            and scope.parent is not None
            and scope.parent.kind == "class"
        }
        names |= _aliases_of(model, names)
        # A launching `__call__` runs when an instance is called: `op(x)`, `Op()(x)`, `REG[name]()(x)`.
        instance_calls = "__call__" in names
        for call in launch_candidates(model):
            stop_if(self.should_stop)
            if (
                _is_seed(call, model)
                or callee_name(call) in names
                or _item_root(call) in names
                or (instance_calls and isinstance(call.func, (ast.Call, ast.Name)))
            ):
                self._maybe_launch(call, model.loc(call), EMPTY_ENV, model)
        for node in model.decorated:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and self._launching_decorators(node, model):
                def_value(interp, node, model, EMPTY_ENV)
        # `list(map(run, ["copy"]))`, `reduce(lambda acc, n: run(n), names)`: the calls they make
        # of a launcher are calls seen (a generator's, once iterated).
        for call in model.calls_named(IMMEDIATELY_CALLING) + model.calls_with_attribute(IMMEDIATELY_CALLING):
            if call.args and _hands_on(call.args[0], names):
                iterate(interp, interp.ev(call, model.loc(call), EMPTY_ENV, model))
        kept = []
        for launch in self.launches.values():
            function = launch.loc.scope.function
            if self.calls_seen.counts(function, launch.env):
                kept.append(launch)
            elif not launch.env.items and launch.model is model and function is not None:
                self.decided_by_calls |= names_calling(model, function)
        return kept

    def _maybe_launch(self, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> None:
        if self._relevant(self.interp.ev(call.func, loc, env, model)):
            made = self.interp.ev(call, loc, env, model)
            if _enters(loc.stmt, call):
                # `with launcher(kernel) as run:` runs the manager's `__enter__` (a
                # `contextmanager` generator's body up to its `yield`), which may launch.
                entered(self.interp, made)

    def _launching_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel) -> bool:
        known = self._decorator_launches.get(id(node))
        if known is None:
            where = model.loc(node)
            known = any(
                _is_seed_expr(d, model)
                and self._may_make_launcher(d, where, model)
                and self._relevant(self.interp.ev(d, where, EMPTY_ENV, model))
                for d in node.decorator_list
            )
            self._decorator_launches[id(node)] = known
        return known

    def _may_make_launcher(self, decorator: ast.AST, where: Loc, model: ModuleModel) -> bool:
        """Before evaluating a decorator call (`@register(prim)`, common and costly to follow):
        can its result be an entry point?  Its callee is one, a partial, or a project function
        whose body names an entry point."""
        if not isinstance(decorator, ast.Call):
            return True
        for v in self.interp.ev(decorator.func, where, EMPTY_ENV, model):
            if isinstance(v, (Entry, Factory, Partial)) or getattr(v, "qualname", None) == "functools.partial":
                return True
            if isinstance(v, Func) and _names_an_entry(v.node):
                return True
            if not isinstance(v, (Func, Class)) and type(v).__name__ not in ("External", "Opaque", "Const"):
                return True  # something we cannot judge cheaply: evaluate
        return False

    def _relevant(self, values: frozenset[Value], depth: int = 0) -> bool:
        return any(self._relevant_value(v, depth) for v in values)

    def _relevant_value(self, v: Value, depth: int) -> bool:
        if isinstance(v, (Entry, Factory, Launched)):
            return True
        if depth > 4:
            return False
        if isinstance(v, Partial):
            return self._relevant_value(v.target, depth + 1)
        if isinstance(v, Func):
            # A closure may launch through what it closes over: the wrapper a decorator returns
            # (`contextlib.contextmanager`'s helper holding the launching generator function).
            return self._launches(v) or any(
                self._relevant_value(bound, depth + 1)
                for _, values in v.env.items
                for bound in values
                if isinstance(bound, _CALLABLE_VALUES)  # not instances or classes: their lookups cost every keystroke
            )
        if isinstance(v, (BoundMethod, Wrapped)):
            return self._relevant_value(v.func, depth + 1)
        if isinstance(v, Instance):
            return self._relevant(class_attribute(self.interp, v.cls, "__call__", v), depth + 1)
        if isinstance(v, Class):
            return self._relevant(class_attribute(self.interp, v, "__init__", None), depth + 1)
        return False

    def _launches(self, func: Func) -> bool:
        """May calling `func` launch?  (It is in its module's launching set.)"""
        return id(func.node) in self._launching_in(func.model)

    def _launching_in(self, model: ModuleModel) -> dict[int, ast.AST]:
        """The functions of a module that may launch: those holding a seed (a call or decorator
        that is an entry point, a factory, a launched callable or a launching function of another
        module), then, by name, every function calling one of those.  Names over-approximate;
        the calls are evaluated afterwards, and only theirs."""
        cached = self._launching.get(id(model))
        if cached is not None:
            return cached
        if model is not self.interp.model:
            shared = self.interp.loader.launching_summary(model)
            if shared is not None:  # an imported module, summarised once per check
                self._launching[id(model)] = shared
                return shared
        found: dict[int, ast.AST] = {}
        self._launching[id(model)] = found  # recursion (modules importing each other): partial
        work: list[ast.AST] = []

        def mark(loc: Loc) -> None:
            function = loc.scope.node if loc.scope is not model.module_scope else None
            while function is not None and isinstance(function, ast.Lambda):
                scope = model.scope_of_function.get(id(function))
                parent = scope.parent if scope is not None else None
                function = parent.node if parent is not None and parent is not model.module_scope else None
            if function is not None and id(function) not in found and hasattr(function, "name"):
                found[id(function)] = function
                work.append(function)

        for call in launch_candidates(model):
            stop_if(self.should_stop)
            if _is_seed(call, model):
                loc = model.loc(call)
                if self._relevant(self.interp.ev(call.func, loc, EMPTY_ENV, model)):
                    mark(loc)
        for node in model.decorated:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and self._launching_decorators(node, model):
                mark(model.loc(node))
                work.append(node)  # `@pl.kernel def run`: a function calling `run(...)` launches
        tables: set[str] = set()
        while work:
            while work:
                stop_if(self.should_stop)
                function = work.pop()
                name = function.name  # type: ignore[attr-defined]  # a def, not a lambda, reaches here
                for call in model.calls_named([name]) + model.calls_with_attribute([name]):
                    mark(model.loc(call))
            # A function calling an item of a table that holds a launching one launches too:
            # `_IMPLS = {Impl.PALLAS: _pallas_double}`, then `_IMPLS[config.impl](x, config)`.
            tables |= _aliases_of(model, {getattr(f, "name", "") for f in found.values()})
            for call in model.calls_of_items:
                if _item_root(call) in tables:
                    mark(model.loc(call))
        return found

    def _decorated_in(self, func: Func) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        model = func.model
        return [
            d
            for d in model.decorated
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and model.loc(d).scope.node is func.node
        ]

    def _function_call(
        self,
        func: Func,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        unknown_rest: bool,
        unknown_kw: bool,
        loc: Loc | None = None,
        caller_env: Env = EMPTY_ENV,
    ) -> None:
        """A project function called with known arguments: explore the launches in its body in
        that context (a wrapper forwarding its kernel parameter)."""
        calls = self._calls_in(func)
        # a lambda calling a launcher (`reduce(lambda acc, n: run(n), ...)`) launches in its calls' contexts
        if not calls or not (self._launches(func) or isinstance(func.node, ast.Lambda)):
            return
        env = self._context_of_call(func, args, keywords, unknown_rest, unknown_kw)
        self.calls_seen.record(func, loc.scope.function if loc is not None else None, caller_env, env)
        if env is None:
            return
        key = (id(func.node), env)
        if key in self._explored:
            return
        self._explored.add(key)
        self._contexts[id(func.node)] = self._contexts.get(id(func.node), 0) + 1
        for call in calls:
            if reaches(self.interp, func, env, call):  # not after `if kernel is bad: return`
                self._maybe_launch(call, func.model.loc(call), env, func.model)
        for node in self._decorated_in(func):
            if self._launching_decorators(node, func.model):
                def_value(self.interp, node, func.model, env)

    def _context_of_call(
        self,
        func: Func,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        unknown_rest: bool,
        unknown_kw: bool,
    ) -> Env | None:
        """The context a call of a launching function explores; None where it explores none (it
        binds nothing we know, cannot bind, or a budget is spent: the generic context stands)."""
        if len(self._explored) >= self.MAX_EXPLORED:
            return None
        env = bind_arguments(self.interp, func, args, keywords, unknown_rest, unknown_kw)
        if env is None or not env.items:
            return None
        if (id(func.node), env) not in self._explored and self._contexts.get(id(func.node), 0) >= self.MAX_CONTEXTS:
            return None
        return env

    def _calls_in(self, func: Func) -> list[ast.Call]:
        """The candidate calls written directly in a function's body (not in nested defs)."""
        return self._calls_in_node(func.model, func.node)

    def _calls_in_node(self, model: ModuleModel, node: ast.AST) -> list[ast.Call]:
        by_scope = self._by_scope.get(id(model))
        if by_scope is None:
            by_scope = {}
            for call in launch_candidates(model):
                by_scope.setdefault(id(model.loc(call).scope.node), []).append(call)
            self._by_scope[id(model)] = by_scope
        return by_scope.get(id(node), [])

    # ---------------------------------------------------------------------- callbacks
    def _entry_call(
        self, target: Value, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
    ) -> frozenset[Value] | None:
        entry_point = entry_of(target)
        if entry_point is None:
            return None
        args, keywords, places = self._partial_arguments(target, model)
        for expr in call.args:
            args.append(expr)
            places[id(expr)] = (loc, env, model)
        hidden = _hides_arguments(target)
        for k in call.keywords:
            splat = None if k.arg else self._splatted(k.value, loc, env, model)
            hidden = hidden or (splat is None and not k.arg)
            for name, expr in [(k.arg, k.value)] if k.arg else splat or []:
                keywords.append((name, expr))
                places[id(expr)] = (loc, env, model)
        entry = EntryValue(entry_point.kind, tuple(args), tuple(keywords), hidden)
        slot: list[ast.expr] | list[frozenset[Value]] | None = _kernel_slot(entry)
        if slot is None:
            return None
        if slot and isinstance(slot[0], ast.Starred):
            slot = self._starred_kernel(call, loc, env, model)
            if slot is None:
                return None
        if not slot:
            arg_places = tuple((e, *places[id(e)][:2]) for e in entry.args)
            kw_places = tuple((n, e, *places[id(e)][:2]) for n, e in entry.keywords)
            hidden = entry.hidden or has_star_positionals(call)
            return frozenset({Factory(entry_point.kind, arg_places, kw_places, call, hidden)})
        launch = self._launch(
            entry_point.kind,
            call,
            entry,
            [(e, places.get(id(e), (loc,))[0]) for e in slot if isinstance(e, ast.AST)],
            call,
            loc,
            env,
            model,
            places,
        )
        if not launch.kernel_values:
            values: frozenset[Value] = frozenset()
            for e in slot:
                if isinstance(e, frozenset):
                    values |= e
                else:
                    values |= launch.value_of(e)
            launch.kernel_values = _kernel_functions_of(entry_point.kind, values)
        return frozenset({Launched(launch)})

    def _written_arguments(
        self, arg_exprs: tuple[Any, ...], keyword_exprs: tuple[Any, ...], model: ModuleModel
    ) -> tuple[list[ast.expr], list[tuple[str, ast.expr]], dict[int, tuple[Loc, Env, ModuleModel]]]:
        """Arguments as written elsewhere (by functools.partial, or a factory call): the
        expressions, and where each is evaluated (its loc, env and model)."""
        args: list[ast.expr] = []
        keywords: list[tuple[str, ast.expr]] = []
        places: dict[int, tuple[Loc, Env, ModuleModel]] = {}
        for expr, where, env in arg_exprs:
            args.append(expr)
            places[id(expr)] = (where, env, _model_of_loc(where, model, self.interp))
        for name, expr, where, env in keyword_exprs:
            keywords.append((name, expr))
            places[id(expr)] = (where, env, _model_of_loc(where, model, self.interp))
        return args, keywords, places

    def _partial_arguments(
        self, value: Value, model: ModuleModel
    ) -> tuple[list[ast.expr], list[tuple[str, ast.expr]], dict[int, tuple[Loc, Env, ModuleModel]]]:
        """What a chain of functools.partial bound to an entry point, outermost partial first."""
        args: list[ast.expr] = []
        keywords: list[tuple[str, ast.expr]] = []
        places: dict[int, tuple[Loc, Env, ModuleModel]] = {}
        for p in _partial_chain(value):
            more_args, more_keywords, more_places = self._written_arguments(p.arg_exprs, p.keyword_exprs, model)
            args += more_args
            keywords += more_keywords
            places.update(more_places)
        return args, keywords, places

    def _splatted(self, splat: ast.expr, loc: Loc, env: Env, model: ModuleModel) -> list[tuple[str, ast.expr]] | None:
        """`pl.pallas_call(**spec)` with `spec` a dict of known string keys: each key a keyword
        whose expression is `spec["key"]`, read where the call is (the kernel included); None for
        a splat we cannot read, which hides the launch's arguments from the rules that count them."""
        d = single_known_str_dict(self.interp.ev(splat, loc, env, model))
        if d is None:
            return None
        keywords = []
        for key in (cast(str, k) for k, _ in d.known_items()):
            # Made once per splat and key: what is cached by a node's id must see the same node.
            item = self._splat_items.get((id(splat), key))
            if item is None:
                item = ast.copy_location(ast.Subscript(splat, ast.Constant(key), ast.Load()), splat)
                self._splat_items[(id(splat), key)] = item
            keywords.append((key, item))
        return keywords

    def _starred_kernel(self, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> list[frozenset[Value]] | None:
        """`pl.pallas_call(*args, **kwargs)` in a helper: the kernel is the first starred element."""
        first = call.args[0]
        if not isinstance(first, ast.Starred):
            return None
        values = self.interp.ev(first.value, loc, env, model)
        kernels: set[Value] = set()
        for v in values:
            if isinstance(v, Seq) and v.elts:
                kernels |= v.elts[0]
        return [frozenset(kernels)] if kernels else None

    def _factory_call(
        self, factory: Factory, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
    ) -> frozenset[Value] | None:
        if not call.args:
            return None
        args, keywords, places = self._written_arguments(factory.args, factory.keywords, model)
        body = call.args[0]
        places[id(body)] = (loc, env, model)
        entry = EntryValue(factory.kind, tuple(args), tuple(keywords), factory.hidden)
        launch = self._launch(factory.kind, factory.node, entry, [(body, loc)], call, loc, env, model, places)
        if not launch.kernel_values:
            launch.kernel_values = _kernel_functions_of(factory.kind, self.interp.ev(body, loc, env, model))
        return frozenset({Launched(launch)})

    def _decorator_launch(
        self,
        decorator: Value,
        values: frozenset[Value],
        deco_node: ast.expr,
        def_node: ast.FunctionDef | ast.AsyncFunctionDef,
        loc: Loc,
        env: Env,
        model: ModuleModel,
    ) -> frozenset[Value] | None:
        if isinstance(decorator, Factory):
            args, keywords, places = self._written_arguments(decorator.args, decorator.keywords, model)
            entry = EntryValue(decorator.kind, tuple(args), tuple(keywords), decorator.hidden)
            launch = self._launch(
                decorator.kind, deco_node, entry, [(def_node, loc)], def_node, loc, env, model, places
            )
            launch.kernel_values = values
            return frozenset({Launched(launch)})
        entry_point = entry_of(decorator)
        if entry_point is None:
            return None
        args, keywords, places = self._partial_arguments(decorator, model)
        name = ast.Name(id=def_node.name, ctx=ast.Load())
        entry = EntryValue(entry_point.kind, tuple([name, *args]), tuple(keywords), _hides_arguments(decorator))
        if not (entry.kind in ("pallas_call", "warp_map") or (entry.kind == "kernel" and len(entry.args) == 1)):
            return None
        launch = self._launch(entry.kind, deco_node, entry, [(def_node, loc)], def_node, loc, env, model, places)
        launch.kernel_values = values
        return frozenset({Launched(launch)})

    def _invocation(
        self, launched: Launched, call: ast.Call, loc: Loc, env: Env, model: ModuleModel, partial: Partial | None = None
    ) -> None:
        launch = cast(Launch, launched.launch)  # the interpreter holds it as an identity only
        if partial is not None:
            call = self._through_partial(launch, partial, call, loc, env, model)
        envs = launch.invocation_envs.setdefault(id(call), [])
        if env.items and env not in envs and len(envs) < MAX_INVOCATION_ENVS:
            envs.append(env)
        if all(c is not call for c in launch.invocations):
            launch.invocations.append(call)
            for argument in call.args:  # the arrays passed: their shapes are read in their context
                launch.places.setdefault(id(argument), (loc, env, model))
                if isinstance(argument, ast.Starred):  # `(*args)`: how many is read there too
                    launch.places.setdefault(id(argument.value), (loc, env, model))

    def _through_partial(
        self, launch: Launch, partial: Partial, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
    ) -> ast.Call:
        """The call the kernel's callable receives from `functools.partial(run, *bound)(*args)`:
        `run(*bound, *args)`, each bound argument read where the partial was made.  A bound `**`
        splat we cannot read leaves a keyword, so the refs are not counted."""
        key = (id(call), id(partial))
        made = self._partial_invocations.get(key)
        if made is None:
            bound = [expr for expr, _, _ in partial.arg_exprs]
            keywords = [ast.keyword(name, expr) for name, expr, _, _ in partial.keyword_exprs] + call.keywords
            if partial.hidden or len(partial.arg_exprs) != len(partial.args):
                keywords.append(ast.keyword(None, ast.Constant(None)))
            made = ast.copy_location(ast.Call(call.func, bound + call.args, keywords), call)
            self._partial_invocations[key] = made
        launch.through_partial.add(id(made))
        launch.places.setdefault(id(made), (loc, env, model))
        for expr, where, bound_env in partial.arg_exprs:
            launch.places.setdefault(id(expr), (where, bound_env, _model_of_loc(where, model, self.interp)))
        return made

    def _launch(
        self,
        kind: str,
        node: ast.AST,
        entry: EntryValue,
        kernel_exprs: list[tuple[KernelExpr, Loc]],
        callable_node: ast.AST | None,
        loc: Loc,
        env: Env,
        model: ModuleModel,
        places: dict[int, tuple[Loc, Env, ModuleModel]],
    ) -> Launch:
        key = (id(node), env)
        launch = self.launches.get(key)
        if launch is None:
            via = ""
            function = loc.scope.function if loc.scope is not None else None
            if env.items and function is not None and not isinstance(function, ast.Lambda):
                via = f"through `{function.name}`"
            launch = Launch(
                kind,
                node,
                entry,
                kernel_exprs,
                callable_node,
                loc,
                model,
                env=env,
                interp=self.interp,
                places=places,
                via=via,
            )
            self.launches[key] = launch
        return launch


# Roots of names that are never project code: a call through them cannot reach a wrapper.
_NOT_PROJECT = ("jnp", "np", "lax", "jax", "math", "functools", "itertools", "os", "sys", "re", "typing")


# What a closure's captured values are checked for (a launching function it will call).
_CALLABLE_VALUES = (Entry, Factory, Launched, Partial, Func)


def _item_root(call: ast.Call) -> str | None:
    """The name an item call's callee starts from: `_IMPLS` of `_IMPLS[impl](x)`."""
    if not isinstance(call.func, ast.Subscript):
        return None
    root = call.func.value
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    return root.id if isinstance(root, ast.Name) else None


def _enters(stmt: ast.AST | None, call: ast.Call) -> bool:
    """Is `call` the context manager of one of `stmt`'s `with` items?"""
    return isinstance(stmt, (ast.With, ast.AsyncWith)) and any(item.context_expr is call for item in stmt.items)


def _aliases_of(model: ModuleModel, names: set[str]) -> set[str]:
    """Names bound (at module or class level) to an expression that names one of `names`:
    `double = functools.partialmethod(launch, ...)`, `run = launch`, `fast = partial(run, ...)`."""
    found: set[str] = set()
    for _ in range(3):  # aliases of aliases, a few deep
        known = names | found
        more = {name for name, read in _assigned_names(model) if name not in known and read & known}
        if not more:
            break
        found |= more
    return found


def _assigned_names(model: ModuleModel) -> list[tuple[str, frozenset[str]]]:
    """(name, the names its value reads) for every module- and class-level `name = value`."""
    cached: list[tuple[str, frozenset[str]]] | None = getattr(model, "_pallas_ls_assigned_names", None)
    if cached is None:
        scopes = (model.module_scope, *(s for s in model.scope_of_function.values() if s.kind == "class"))
        cached = [
            (b.name, frozenset(n.id for n in ast.walk(b.value) if isinstance(n, ast.Name)))
            for scope in scopes
            for group in scope.bindings.values()
            for b in group
            if b.kind == "assign" and b.value is not None
        ]
        model._pallas_ls_assigned_names = cached  # type: ignore[attr-defined]  # a cache kept on the model
    return cached


def _names_an_entry(function: ast.AST) -> bool:
    cached = getattr(function, "_pallas_ls_names_entry", None)
    if cached is None:
        cached = any(
            (isinstance(n, ast.Attribute) and n.attr in _ENTRY_ATTRIBUTES)
            or (isinstance(n, ast.Name) and n.id in _ENTRY_ATTRIBUTES)
            for n in ast.walk(function)
        )
        function._pallas_ls_names_entry = cached  # type: ignore[attr-defined]  # a cache kept on the def node
    return cached


def _hands_on(function: ast.expr, names: set[str]) -> bool:
    """`run` or `lambda acc, n: run(n)` given to map / starmap / reduce, with `run` a launcher."""
    if isinstance(function, ast.Name):
        return function.id in names
    return isinstance(function, ast.Lambda) and any(
        isinstance(node, ast.Call) and callee_name(node) in names for node in ast.walk(function.body)
    )


def _is_seed(call: ast.Call, model: ModuleModel) -> bool:
    """A call whose callee could be an entry point or come from another module."""
    return _is_seed_expr(call.func, model)


def _is_seed_expr(expr: ast.AST, model: ModuleModel) -> bool:
    if isinstance(expr, ast.Call):
        return True  # `pl.kernel(mesh=m)(body)`, `partial(pl.pallas_call, ...)`
    if isinstance(expr, ast.Attribute):
        if expr.attr in _ENTRY_ATTRIBUTES:
            return True
        root: ast.expr = expr
        calls = 0
        while isinstance(root, (ast.Attribute, ast.Call)):
            if isinstance(root, ast.Call):
                # `fancy.Fancy(cfg).run`: a method of an instance made right there, from `fancy`;
                # `core.get("fast")().run`: of a class a function of `core` looked up
                calls += 1
                if calls > 2:
                    return False
            root = root.func if isinstance(root, ast.Call) else root.value
        if calls == 2 and not (isinstance(root, ast.Name) and _imported_module(model, root.id)):
            return False  # `export(f)(x).g` of a function imported by name: its own parts judge it
        return isinstance(root, ast.Name) and root.id in model.alias_names and root.id not in _NOT_PROJECT
    if isinstance(expr, ast.Name):
        return expr.id in model.alias_names
    return False


def _imported_module(model: ModuleModel, name: str) -> bool:
    """Is `name` bound at module level by `import name` (a module, not a name from one)?"""
    return any(b.kind == "import" and isinstance(b.stmt, ast.Import) for b in model.module_scope.bindings.get(name, []))


def _hides_arguments(value: Value) -> bool:
    return any(p.hidden for p in _partial_chain(value))


def _partial_chain(value: Value) -> list[Partial]:
    chain = []
    while isinstance(value, Partial):
        chain.append(value)
        value = value.target
    return list(reversed(chain))


def _model_of_loc(loc: Loc, default: ModuleModel, interp: Interpreter) -> ModuleModel:
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


def find_launches(model: ModuleModel, interp: Interpreter | None = None) -> list[Launch]:
    """Every launch the module makes: written in it, or reached through wrappers it calls."""
    interp = interp or interpreter_for(model)
    return LaunchFinder(interp).run(model)


# ------------------------------------------------------------------------ kernel resolution
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
def qualpath(model: ModuleModel, function: ast.AST) -> str | None:
    """A function's path in its module that survives edits elsewhere in the file: the names of
    the defs and classes enclosing it, `<locals>` between functions (as Python's __qualname__)."""
    parts: list[str] = []
    node: ast.AST | None = function
    scopes = model.scope_of_function
    while node is not None:
        name = getattr(node, "name", None)
        if name is None:
            return None  # a lambda: no stable name
        parts.append(name)
        scope = scopes.get(id(node))
        parent = scope.parent if scope is not None else None
        if parent is None or parent.kind == "module":
            break
        if parent.kind == "function":
            parts.append("<locals>")
        node = parent.node
    return ".".join(reversed(parts))


def function_at(model: ModuleModel, path: str) -> FunctionNode | None:
    for function in model.functions:
        if getattr(function, "name", None) == path.rsplit(".", 1)[-1] and qualpath(model, function) == path:
            return function
    return None


# ------------------------------------------------------------------- reusing an empty search
@dataclass(frozen=True, eq=False)
class NoLaunches:
    """A module version's search for launches found none (no launch, no launching function), and
    what that search read beyond the statement each evaluation started in, block by block.

    Most modules that say "pallas" launch nothing (a 5k-line lowering file), and searching one
    costs ~35 ms a keystroke.  Evaluations reach another block only through module-level names (a
    def, a class, an import, an assignment, `global`, a list's `.append`), the module-level calls
    of a top-level function (notebook-style redefinitions), star imports and the loader: each is
    recorded by the interpreter (with the block that read it) or refused here.  After an edit,
    the blocks that read a name an edited block binds are stale, and so, in turn, are the blocks
    that read a name a stale block binds; only the seeds of the edited and stale blocks are
    evaluated again (`no_launches_after`): typing in a class that a hundred functions name
    re-evaluates those functions' seeds, not the module's."""

    seeds: frozenset[ast.AST]  # the seed calls and decorators of that version (nodes, kept alive)
    aliases: frozenset[str]  # its alias names and def names, which tell calls that are seeds
    defined: frozenset[str]
    # name -> the blocks (ModelParts) whose evaluation read it; None among them: a place no block
    # holds (a change of that name means a whole search).
    names_read: dict[str, frozenset[ModelParts | None]]
    calls_read: dict[str, frozenset[ModelParts | None]]
    imports_not_found: frozenset[str]


def no_launches_found(finder: LaunchFinder, model: ModuleModel, found: list[Launch]) -> NoLaunches | None:
    """The evidence of a whole search that found nothing, or None (it found something, consulted
    another module, or stopped at a budget, after which what it read is not all it would read)."""
    interp = finder.interp
    if (
        found
        or finder.launches
        or finder._launching_in(model)
        or interp.loaded
        or star_imports(interp, model)
        or len(interp._summaries) >= MAX_SUMMARIES
        or len(finder._explored) >= LaunchFinder.MAX_EXPLORED
    ):
        return None
    blocks = _BlockOfPlace(model)
    return NoLaunches(
        frozenset(_seeds(model)),
        frozenset(model.alias_names),
        frozenset(_defined_names(model)),
        blocks.readers(interp.module_names_read),
        blocks.readers(interp.module_calls_read),
        frozenset(interp.imports_not_found),
    )


def no_launches_after(
    previous: NoLaunches, finder: LaunchFinder, model: ModuleModel, changed: list[ModelParts], dropped: list[ModelParts]
) -> NoLaunches | None:
    """The evidence that `model` launches nothing, when the previous version's search found
    nothing and `changed` (the new version's fresh ModelParts) and `dropped` (the previous
    version's parts no longer used) are all the edit touched; None when that cannot be shown
    (the whole search must run)."""
    interp = finder.interp
    stale = _stale_blocks(previous, model, changed, dropped)
    if stale is None:
        return None
    evaluated = changed + stale
    defined = _defined_names(model)
    if model.alias_names <= previous.aliases and defined <= previous.defined:
        # No name became an alias or a def: the unchanged blocks' seeds are among the previous
        # ones (seeds and candidates are told by those names), and the new ones are the edit's.
        gone = _nodes_of(dropped)
        new = _seeds_in(model, evaluated, defined)
        seeds = frozenset(node for node in previous.seeds if id(node) not in gone) | frozenset(new)
    else:
        seeds = frozenset(_seeds(model))
        fresh = _nodes_of(changed)
        if any(id(node) not in fresh for node in seeds if node not in previous.seeds):
            return None  # a call of an unchanged block became a seed (a new alias or def name)
        new = _seeds_in(model, evaluated, defined)
    if star_imports(interp, model):
        return None
    if any(interp.loader.module(model, dotted) is not None for dotted in previous.imports_not_found):
        return None
    # What is being shown: nothing launches.  Assumed while the seeds are evaluated (a call of a
    # function of the module is then not relevant), which is consistent when none is.
    finder._launching[id(model)] = {}
    candidates = {id(call) for call in _candidates_in(model, evaluated, defined)}
    decorated = {
        id(d): node
        for part in evaluated
        for node in part.decorated
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for d in node.decorator_list
    }
    for node in new:
        stop_if(finder.should_stop)
        if (
            id(node) in candidates
            and isinstance(node, ast.Call)
            and finder._relevant(interp.ev(node.func, model.loc(node), EMPTY_ENV, model))
        ):
            return None
        if id(node) in decorated and finder._launching_decorators(decorated[id(node)], model):
            return None
    if finder.launches or interp.loaded or len(interp._summaries) >= MAX_SUMMARIES:
        return None
    blocks = _BlockOfPlace(model)
    kept = set(model._parts)
    return NoLaunches(
        seeds,
        frozenset(model.alias_names),
        frozenset(defined),
        _merged_readers(previous.names_read, blocks.readers(interp.module_names_read), kept),
        _merged_readers(previous.calls_read, blocks.readers(interp.module_calls_read), kept),
        previous.imports_not_found | interp.imports_not_found,
    )


def _stale_blocks(
    previous: NoLaunches, model: ModuleModel, changed: list[ModelParts], dropped: list[ModelParts]
) -> list[ModelParts] | None:
    """The unchanged blocks whose seeds may evaluate otherwise after the edit: those that read a
    name an edited block binds, or scanned the module-level calls of a function an edited block
    calls, then those that read a name one of them binds.  None: a name read by no block (a
    whole search)."""
    kept = set(model._parts)
    edited = set(changed)
    stale: list[ModelParts] = []
    seen: set[ModelParts] = set()
    names: set[str] = set()
    calls: set[str] = set()
    for part in changed + dropped:
        bound, called = _touched_names(part)
        names |= bound
        calls |= called
    if len(changed) == 1 and len(dropped) == 1:
        # One block replaced in place (typing): a function it calls at module level as often as
        # before is called at the same places among the other blocks, so what its body saw there
        # changes only through the names the block binds (`names`), not through the calls.
        before, after = _module_level_calls_counted(dropped[0]), _module_level_calls_counted(changed[0])
        calls = {name for name in calls if before[name] != after[name]}
    while names or calls:
        readers = [previous.names_read.get(n, ()) for n in names] + [previous.calls_read.get(n, ()) for n in calls]
        names, calls = set(), set()  # an unchanged block calls what it called: only its names change
        for blocks in readers:
            if None in blocks:
                return None
            for reader in blocks:
                if reader is not None and reader in kept and reader not in edited and reader not in seen:
                    seen.add(reader)
                    stale.append(reader)
                    names |= _touched_names(reader)[0]
    return stale


class _BlockOfPlace:
    """The block (ModelParts) of the places the interpreter records reads at."""

    def __init__(self, model: ModuleModel):
        self.model = model
        self.part_of = {sid: part for part in model._parts for sid in part.block_chain}

    def readers(self, reads: dict[str, dict[int, object]]) -> dict[str, frozenset[ModelParts | None]]:
        return {name: frozenset(self._block(place) for place in places.values()) for name, places in reads.items()}

    def _block(self, place: object) -> ModelParts | None:
        part = self.part_of.get(id(place))
        if part is not None:
            return part
        scope = place if isinstance(place, Scope) else None
        while scope is not None and scope.parent is not None and scope.parent is not self.model.module_scope:
            scope = scope.parent
        if scope is None or scope.parent is None:
            return None  # the module's own end, or not a place of this model
        return self.part_of.get(id(scope.node))


def _merged_readers(
    previous: dict[str, frozenset[ModelParts | None]],
    new: dict[str, frozenset[ModelParts | None]],
    kept: set[ModelParts],
) -> dict[str, frozenset[ModelParts | None]]:
    """The readers of both searches, but for blocks the module no longer has."""
    merged = {name: frozenset(p for p in parts if p is None or p in kept) for name, parts in previous.items()}
    for name, parts in new.items():
        merged[name] = merged.get(name, frozenset()) | parts
    return merged


def _seeds(model: ModuleModel) -> list[ast.AST]:
    """The calls and decorators a search evaluates first (`LaunchFinder.run`, `_launching_in`)."""
    return _seeds_in(model, model._parts, _defined_names(model))


def _seeds_in(model: ModuleModel, parts: list[ModelParts], defined: set[str]) -> list[ast.AST]:
    seeds: list[ast.AST] = [call for call in _candidates_in(model, parts, defined) if _is_seed(call, model)]
    for part in parts:
        for node in part.decorated:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                seeds += [d for d in node.decorator_list if _is_seed_expr(d, model)]
    return seeds


def _nodes_of(parts: list[ModelParts]) -> set[int]:
    """ids of the calls and decorators written in `parts`."""
    ids: set[int] = set()
    for part in parts:
        for calls in list(part.calls_by_name.values()) + list(part.calls_by_attribute.values()):
            ids.update(id(call) for call in calls)
        ids.update(id(call) for call in part.calls_of_calls)
        ids.update(id(call) for call in part.calls_of_items)
        for node in part.decorated:
            ids.update(id(d) for d in node.decorator_list)
    return ids


def _module_level_calls_counted(part: ModelParts) -> collections.Counter[str]:
    """How many times the block calls each name at module level."""
    return collections.Counter(
        {
            name: sum(
                getattr(part.loc_of.get(id(call)), "scope", part.module_scope) is part.module_scope for call in calls
            )
            for name, calls in part.calls_by_name.items()
        }
    )


def _touched_names(part: ModelParts) -> tuple[set[str], set[str]]:
    """What one block offers other blocks' evaluations: the module-level names it binds (or
    declares global, or appends to), and the names it calls at module level."""
    bound = {b.name for b in part.module_bindings} | set(part.global_names)
    # `global name` in a function of the block: its assignments are module-level bindings too.
    bound |= {name for scope in part.scope_of_function.values() for name in scope.global_names}
    for method in ("append", "extend", "insert"):
        bound |= {
            call.func.value.id
            for call in part.calls_by_attribute.get(method, ())
            if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        }
    called = {name for name, count in _module_level_calls_counted(part).items() if count}
    return bound, called


def launching_summary(model: ModuleModel, loader: Loader) -> dict[int, ast.AST]:
    """The functions of `model` that may launch, found as its own analysis finds them (an
    interpreter rooted at it, `loader` resolving its imports): the same in whichever analysis
    asks, so a project check computes it once per module."""
    return LaunchFinder(Interpreter(model, loader))._launching_in(model)  # noqa: SLF001
