"""Finding launches: the calls of a module that use a Pallas entry point (`pallas_call`, `pl.kernel`,
`mpmd_map`, `core_map`, `warp_map`), directly or through wrappers, partials, decorators and
factories, each explored in the calling contexts the module gives it (kernels.py holds what a
launch is and resolves its kernels)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any, cast

from .cancel import StopCheck, stop_if
from .kernels import (
    MAX_INVOCATION_ENVS,
    EntryValue,
    KernelExpr,
    Launch,
    kernel_functions_of,
    kernel_slot,
    model_of_loc,
)
from .launch_contexts import IMMEDIATELY_CALLING, LaunchContexts, enclosing_function, names_calling
from .model import Loc, ModelParts, ModuleModel
from .names import ENTRY_POINTS, callee_name, has_star_positionals
from .values.calls import bind_arguments, entry_of
from .values.classes import def_value
from .values.domain import (
    EMPTY_ENV,
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
    Value,
    Wrapped,
    single_known_str_dict,
)
from .values.interpreter import Interpreter, Loader
from .values.operations import class_attribute, entered, iterate
from .values.returns import reaches

# ------------------------------------------------------------------------------- launches
# The last component of every entry point's name: an attribute call `x.y(...)` can only denote an
# entry point directly when `y` is one of these.
_ENTRY_ATTRIBUTES = frozenset(name.rsplit(".", 1)[1] for name in ENTRY_POINTS)


def candidate_calls(model: ModuleModel, attributes: Iterable[str]) -> list[ast.Call]:
    """The calls whose callee can denote an imported API with one of `attributes` as its last
    name: `x.attr(...)`, a name that aliases an import (`launch(...)`), or a call's result."""
    calls = model.calls_with_attribute(attributes) + model.calls_named(model.alias_names) + model.calls_of_calls
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def defined_names(model: ModuleModel) -> set[str]:
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


def candidates_in(model: ModuleModel, parts: list[ModelParts], defined: set[str]) -> list[ast.Call]:
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


def _calls_of_other_names(model: ModuleModel) -> list[ast.Call]:
    """Calls of a plain name that `launch_candidates` leaves out (a loop target, a name bound
    to an item: `layer = LAYERS[0]`), in source order."""
    candidates = {id(call) for call in launch_candidates(model)}
    return sorted(
        (call for call in model.calls_named(model.called_names()) if id(call) not in candidates),
        key=lambda c: (c.lineno, c.col_offset),
    )


def launch_candidates(model: ModuleModel) -> list[ast.Call]:
    """Calls that may launch (directly, through a wrapper, or by invoking a launched callable):
    entry-point attributes, names bound by imports / aliases / defs / classes, calls of calls,
    and methods named like a def of the module.  Other calls (`jnp.sum(...)`, builtins) are ruled
    out before any evaluation: this keeps a keystroke's analysis cheap."""
    cached: list[ast.Call] | None = getattr(model, "_launch_candidates", None)
    if cached is not None:
        return cached
    calls = candidates_in(model, model._parts, defined_names(model))
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
                is_seed(call, model)
                or callee_name(call) in names
                or _item_root(call) in names
                or (instance_calls and isinstance(call.func, (ast.Call, ast.Name)))
            ):
                self._maybe_launch(call, model.loc(call), EMPTY_ENV, model)
        if instance_calls:  # `for layer in LAYERS: y = layer(y)`: an instance under any name
            for call in _calls_of_other_names(model):
                stop_if(self.should_stop)
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
                # a closure's contexts are decided by the calls of the functions making it
                while (function := enclosing_function(model, function)) is not None:
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
                is_seed_expr(d, model)
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

    def _makes_launching_closures(self, func: Func) -> bool:
        """Is a function that may launch defined in `func`'s body (`def make(name): def run(x):
        ... pallas_call(KS[name]) ...; return run`)?"""
        model = func.model
        return any(
            enclosing_function(model, node) is func.node  # type: ignore[arg-type]
            for node in self._launching_in(model).values()
        )

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
            if is_seed(call, model):
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
        launching = bool(calls) and (self._launches(func) or isinstance(func.node, ast.Lambda))
        if not launching and not self._makes_launching_closures(func):  # (its calls decide its closures')
            return
        env = self._context_of_call(func, args, keywords, unknown_rest, unknown_kw)
        self.calls_seen.record(func, loc.scope.function if loc is not None else None, caller_env, env)
        if not launching or env is None:
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
        slot: list[ast.expr] | list[frozenset[Value]] | None = kernel_slot(entry)
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
            launch.kernel_values = kernel_functions_of(entry_point.kind, values)
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
            places[id(expr)] = (where, env, model_of_loc(where, model, self.interp))
        for name, expr, where, env in keyword_exprs:
            keywords.append((name, expr))
            places[id(expr)] = (where, env, model_of_loc(where, model, self.interp))
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
            launch.kernel_values = kernel_functions_of(factory.kind, self.interp.ev(body, loc, env, model))
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
            launch.places.setdefault(id(expr), (where, bound_env, model_of_loc(where, model, self.interp)))
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
    """(name, the names its value reads) for every module- and class-level `name = value` whose
    value reads a name (one that reads none aliases nothing)."""
    cached: list[tuple[str, frozenset[str]]] | None = getattr(model, "_pallas_ls_assigned_names", None)
    if cached is None:
        scopes = (model.module_scope, *(s for s in model.scope_of_function.values() if s.kind == "class"))
        cached = []
        for scope in scopes:
            for group in scope.bindings.values():
                for b in group:
                    # A constant (most of a generated table's `v1 = 1` lines) is not walked.
                    if b.kind == "assign" and b.value is not None and not isinstance(b.value, ast.Constant):
                        read = frozenset(n.id for n in ast.walk(b.value) if isinstance(n, ast.Name))
                        if read:
                            cached.append((b.name, read))
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


def is_seed(call: ast.Call, model: ModuleModel) -> bool:
    """A call whose callee could be an entry point or come from another module."""
    return is_seed_expr(call.func, model)


def is_seed_expr(expr: ast.AST, model: ModuleModel) -> bool:
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


def launching_summary(model: ModuleModel, loader: Loader) -> dict[int, ast.AST]:
    """The functions of `model` that may launch, found as its own analysis finds them (an
    interpreter rooted at it, `loader` resolving its imports): the same in whichever analysis
    asks, so a project check computes it once per module."""
    return LaunchFinder(Interpreter(model, loader))._launching_in(model)  # noqa: SLF001
