"""The abstract heap: what the program stores into objects, wherever it stores it.

Names are flow-sensitive (the definitions that reach a use); the fields of objects are not.  A dict
made at `_OPS = {}` is one abstract object, identified by its allocation site, and every store the
program can make into it - `_OPS[name] = fn` inside the decorator a `@op("sq")` returns,
`setattr(ns, name, fn)` in a module-level loop, `registry.update(...)` in a helper - is one of its
fields, whichever function performs it and whenever it runs.

A store is found by syntax (`store_sites.StoreSite`: `r[k] = v`, `r.a = v`, `setattr(r, k, v)`, `r.update(m)`,
`r.setdefault(k, v)`, `r.append(v)`, `r.extend(vs)`) and evaluated by the interpreter in the
environments its function ran with.  Those are recorded as the interpreter calls functions, and
code that runs at import time - decorators, class statements, module-level calls and loops of every
module the analysis loaded, and the modules they import - is evaluated once before the first read
of an object made at module level (`Heap.run_import_time`), so that a registry filled by decorators
in another module is full when a launch reads it.

Precision: a read of a field gives what the object was made with plus every store that may target
it - by the time of the read, for a read the module's import-time code makes (a module-level
statement, a class body): the module's statements after it, and its functions that nothing run so
far calls, have not stored anything yet (import_order.NotRunYet).  A store inside a function may also run in calls not seen here: its reads then include
Unknown, so a rule asserting what the field must be stays silent, while the functions it may hold
are still candidate kernels ("may") - unless the stored value does not depend on the function's
parameters (`POOL[name] = jax.new_ref(z)`): any call stores that kind of value.  An object of unknown allocation site may be any object of its
kind (an instance with no site, `self` inside a method, may be any instance of its class).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from ..model import FunctionNode, Loc, ModuleModel, defaulted_parameters, may_leave_early
from . import bindings, calls, classes, fields, flow, import_order, operations, ref_identity, returns, store_sites
from .domain import (
    EMPTY_ENV,
    UNKNOWN,
    Const,
    DictV,
    Env,
    Func,
    Instance,
    Seq,
    U,
    Value,
    hashable,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter

# How many modules' import-time code one analysis runs (a registry is filled by the modules that
# define its entries; a project of hundreds of modules is not run whole).
MAX_IMPORT_TIME_MODULES = 16
# The interpreter's callbacks into the launch finder, silenced while import-time code runs.
_HOOKS = ("on_entry_call", "on_factory_call", "on_decorator_launch", "on_invocation", "on_function_call")
# How many environments of one function its stores are evaluated in.
MAX_ENVS_PER_FUNCTION = 16


class Heap:
    """The fields of one analysis's objects, read through its interpreter."""

    def __init__(self, interp: Interpreter):
        self.interp = interp
        self._envs: dict[int, list[Env]] = {}  # id(function node) -> the environments it was called with
        self._ran: set[int] = set()  # models whose import-time code ran
        self._running = False

    # ----------------------------------------------------------------------- recording
    def called(self, function: FunctionNode, env: Env) -> None:
        """The interpreter called `function` with `env` (its parameters bound, its closure's too)."""
        envs = self._envs.setdefault(id(function), [])
        if len(envs) < MAX_ENVS_PER_FUNCTION and env not in envs:
            envs.append(env)

    # --------------------------------------------------------------------------- reads
    def stores_into(
        self,
        matches: Callable[[Value], bool],
        kinds: tuple[str, ...],
        module_level: bool,
        attr: str | None = None,
        run: bool = True,
        cut: import_order.NotRunYet | None = None,
    ) -> list[fields.Store]:
        """The evaluated stores of these kinds whose receiver may be the object `matches` names
        (of attribute `attr` only, or with a computed name, when given).  `module_level`: the
        object was made at module or class level, so a function's stores into a container it made
        itself are not its.  When a store in a function names the object without the function's
        arguments, the code that runs at import is evaluated first (it may call that function).
        `cut`: a read at import time (`_cut`), which the module's statements from there on have
        not reached yet: their stores are left out."""
        candidates = self._candidates(kinds, module_level, attr, cut)
        if run and (
            any(site.function is not None and self._may_target(site, model, matches) for site, model in candidates)
            or (module_level and self._some_module_imports_for_effect())
        ):
            loaded = len(self.interp.models())
            self.run_import_time()  # functions that store into it may run at import
            if len(self.interp.models()) != loaded:  # and modules it imported may store too
                candidates = self._candidates(kinds, module_level, attr, cut)
        out: list[fields.Store] = []
        for site, model in candidates:
            out.extend(self._evaluated(site, model, matches, cut))
        return out

    def _may_target(self, site: store_sites.StoreSite, model: ModuleModel, matches: Callable[[Value], bool]) -> bool:
        """Whether the calls that run at import may fill the object through this store in a
        function: one that names it without the function's arguments (a global or a closure's
        name), or through a parameter (`self.registry[cls] = func` in a method called at import)."""

        root = site.receiver
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            if isinstance(root, ast.Call):
                if not _is_type_of(root):
                    break
                root = root.args[0]  # `type(self).fn = f`: the class of self
            else:
                root = root.value
        scope = model.scope_of_function.get(id(site.function)) if site.function is not None else None
        if not isinstance(root, ast.Name):
            return False
        if scope is not None and root.id in scope.bindings and not store_sites.names_its_class(site.function, root.id):
            # a parameter or a local: the object comes from the function's arguments, or from a
            # parameter's default (`def register(fn, registry=REGISTRY)`), one object for every call
            function = cast(FunctionNode, site.function)
            default = next((d for arg, d, _ in defaulted_parameters(function) if arg.arg == root.id), None)
            if default is None:  # a call at import may hand it the object (`reg.add("k", f)`)
                name = getattr(function, "name", None)
                return any(name in _names_called_at_import(m) for m in self.interp.models())
            where = model.loc(function)
            return any(matches(v) for v in self.interp.ev(default, where, EMPTY_ENV, model))
        return any(matches(v) for v in self.interp.ev(site.receiver, _loc(site, model), EMPTY_ENV, model))

    def _candidates(
        self, kinds: tuple[str, ...], module_level: bool, attr: str | None, cut: import_order.NotRunYet | None = None
    ) -> list[tuple[store_sites.StoreSite, ModuleModel]]:
        if kinds == ("attr",):
            return [
                (site, model)
                for model in (*self.interp.models(), *self.interp.library_models.values())
                for site in store_sites.attribute_sites(model, attr)
                if not (module_level and site.fresh_local) and not import_order.not_run_yet(site, model, cut)
            ]
        return [
            (site, model)
            for model in (*self.interp.models(), *self.interp.library_models.values())
            for site in store_sites.store_sites(model)
            if site.kind in kinds
            and not (module_level and site.fresh_local)
            and not import_order.not_run_yet(site, model, cut)
        ]

    def _cut(self) -> import_order.NotRunYet | None:
        """For a read made by a module's import-time code (`Interpreter.reading_at`): the stores
        of that module that have not run when the read does (reads that leave out the same ones
        share their answers).  None: a read in a function, which any store may have run before."""
        at = self.interp.reading_at
        if at is None:
            return None
        model, line = at
        later = [start for start in import_order.module_level_store_starts(model) if start > line]
        storing = import_order.functions_storing(model)  # most modules' functions store into nothing
        if storing:
            storing &= import_order.functions_not_run_before(model, line) or frozenset()
        return import_order.NotRunYet(id(model), min(later) if later else None, storing)

    def self_stores(self, inst: Instance, attr: str) -> frozenset[Value]:
        """`self.attr = v` in methods (its class's or any other) as they ran with `inst` as `self`:
        an `__init__` reached through `super().__init__(kernel=...)`, a setter called on it."""
        if not any(store_sites.self_sites(model, attr) for model in self._models_and_library_models()):
            return frozenset()  # no method stores `self.<attr>`: the common case, answered at once
        return self._once(("heap-self", inst, attr), lambda: self._self_stores(inst, attr), frozenset())

    def _self_stores(self, inst: Instance, attr: str) -> frozenset[Value]:
        out: set[Value] = set()
        matches = _same_object(inst)
        if any(
            id(site.function) not in self._envs and self._used_as_decorator(model, site)
            for model in self._models_and_library_models()
            for site in store_sites.self_sites(model, attr)
        ):
            self.run_import_time()  # a method not called yet may be, by a decorator (`@reg.add`)
        for model in self._models_and_library_models():
            for site in store_sites.self_sites(model, attr):
                loc = _loc(site, model)
                for env in self._envs.get(id(site.function), []):
                    if any(matches(v) for v in self.interp.ev(site.receiver, loc, env, model)):
                        made = self.interp.ev(site.value, loc, env, model) if site.value is not None else U
                        out |= ref_identity.made_for_instance(made, env, inst, cast(ast.AST, site.function))
        return frozenset(out)

    def _used_as_decorator(self, model: ModuleModel, site: store_sites.StoreSite) -> bool:
        """Whether the class of the method holding `site` has a method that some decorator of the
        analysed modules names (`@registry.add`, `@dispatch.register(int)`)."""
        scope = model.scope_of_function.get(id(site.function)) if site.function is not None else None
        cls = scope.parent.node if scope is not None and scope.parent is not None else None
        if not isinstance(cls, ast.ClassDef):
            return False
        methods = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        return any(methods & _decorator_attributes(m) for m in self.interp.models())

    def _models_and_library_models(self) -> tuple[ModuleModel, ...]:
        return (*self.interp.models(), *self.interp.library_models.values())

    def attribute(self, obj: Value, attr: str | None) -> frozenset[Value]:
        """What the program stores as attribute `attr` of `obj` (any attribute: None) outside
        `self.x = v` in its class's methods; empty when nothing does."""
        self._load_modules_imported_for_effect()
        models = self._models_and_library_models()
        if not any(store_sites.attribute_sites(model, attr) for model in models):
            return frozenset()  # nothing stores such an attribute: the common case, answered at once

        # Attribute stores in functions are read as far as calls already seen ran them: running
        # import-time code for every attribute read cost a fifth of checking the jax package.
        # But a function that import-time code calls (`Op.use(bump)` storing `cls.k`) runs first.
        def stored() -> frozenset[Value]:
            run = any(
                site.function is not None
                and id(site.function) not in self._envs
                and _called_at_import(model, site.function)
                for model in models
                for site in store_sites.attribute_sites(model, attr)
            )
            stores = self.stores_into(_same_object(obj), ("attr",), True, attr, run=run, cut=cut)
            return fields.attribute_values(stores, attr)

        cut = self._cut()
        return self._once(("heap-attr", obj, attr, cut), stored, frozenset())

    def _load_modules_imported_for_effect(self) -> None:
        """A module imported for what importing it does (`import pkg.fast`, which patches
        `Op.kernel`) stores into other modules' objects: it is loaded, its import-time code run,
        before a read asks what stores an attribute.  Nothing runs when no module does so."""
        if self._some_module_imports_for_effect():
            self.run_import_time()

    def _some_module_imports_for_effect(self) -> bool:
        return any(store_sites.imports_for_effect(m) for m in self.interp.models())

    def replaces_class_attribute(self, cls: Value, attr: str) -> frozenset[Value] | None:
        """What module-level statements of their own store as `attr` of a class, when only such
        statements do (`Op.kernel = staticmethod(copy)` after the class): the last one replaces
        the class body's value.  None when nothing stores it, or a function may (at any time)."""
        self._load_modules_imported_for_effect()
        if not any(store_sites.attribute_sites(model, attr) for model in self._models_and_library_models()):
            return None  # nothing stores such an attribute: the common case, answered at once
        cut = self._cut()
        replaced = self._once(
            ("class-attr-replaced", cls, attr, cut), lambda: self._last_own_store(cls, attr, cut), frozenset()
        )
        return replaced or None

    def _last_own_store(self, cls: Value, attr: str, cut: import_order.NotRunYet | None) -> frozenset[Value]:
        """The value of the last module-level statement storing `attr` on `cls` (before `cut`);
        empty when another kind of store (in a function, with a computed name) may store it too."""
        stores = self.stores_into(_same_object(cls), ("attr",), True, attr, run=False, cut=cut)
        if not stores or any(
            s.line is None or s.partial or fields.constants(s.key) != frozenset({attr}) for s in stores
        ):
            return frozenset()
        return max(stores, key=lambda s: cast(int, s.line)).value or frozenset()

    @staticmethod
    def stores_on(model: ModuleModel, name: str, attr: str | None = None) -> list[store_sites.StoreSite]:
        """The stores `name.attr = v` (`attr` given) or `name[k] = v` (None) written anywhere in
        `model`, with `name` the receiver as written."""
        sites = store_sites.attribute_sites(model, attr) if attr is not None else store_sites.store_sites(model)
        kind = "attr" if attr is not None else "item"
        return [
            site
            for site in sites
            if site.kind == kind and isinstance(site.receiver, ast.Name) and site.receiver.id == name
        ]

    @staticmethod
    def attribute_stored_in_a_function(model: ModuleModel, attr: str, besides: list[ast.stmt]) -> bool:
        """Does a function of `model` store attribute `attr` on something (`obj.attr = v`,
        `setattr(obj, name, v)`; not `self.attr = v` in methods), but in the statements
        `besides` (the straight-line code the caller reads itself)?"""
        seen = {id(stmt) for stmt in besides}
        return any(
            site.function is not None and id(site.node) not in seen for site in store_sites.attribute_sites(model, attr)
        )

    def attribute_absent(self, obj: Value, attr: str) -> bool:
        """Whether the program certainly never stores attribute `attr` on `obj` (a function
        flagged on others: `plain.fast = True`, then `getattr(fused, "fast", False)`): the
        analysed modules name it in stores, all at module level with known receivers, none `obj`.
        A name no store names stays undecided (another module may set it)."""
        sites = [(s, m) for m in self.interp.models() for s in store_sites.attribute_sites(m, attr)]
        if not sites:
            return False
        for site, model in sites:
            if site.function is not None or not isinstance(site.key, str):
                return False  # a decorator or helper storing it on what it is given: not all seen
            receivers = self.interp.ev(site.receiver, _loc(site, model), EMPTY_ENV, model)
            if not receivers or UNKNOWN in receivers or obj in receivers:
                return False
        return True

    @staticmethod
    def sets_attributes_through(model: ModuleModel, function: FunctionNode, name: str) -> bool:
        """Whether `function` stores an attribute on what its name `name` holds (`cls.kernel = k`,
        `setattr(cls, n, v)`), as the module's store sites say."""
        return any(
            site.kind == "attr"
            and site.function is function
            and isinstance(site.receiver, ast.Name)
            and site.receiver.id == name
            for site in store_sites.store_sites(model)
        )

    def _once(
        self, key: tuple[object, ...], compute: Callable[[], frozenset[Value]], in_progress: frozenset[Value]
    ) -> frozenset[Value]:
        """`compute()` once per analysis, kept in the interpreter's memo (so an import-time run
        forgets what it computed half-way); a read that reaches itself gets `in_progress`."""
        interp = self.interp
        cached = interp._memo.get(key)  # noqa: SLF001  (the interpreter's memo of this analysis)
        if cached is not None:
            return cached
        if key in interp._active:  # noqa: SLF001
            return in_progress
        interp._active.add(key)  # noqa: SLF001
        try:
            result = compute()
        finally:
            interp._active.discard(key)  # noqa: SLF001
        interp._memo[key] = result  # noqa: SLF001
        return result

    def _evaluated(
        self,
        site: store_sites.StoreSite,
        model: ModuleModel,
        matches: Callable[[Value], bool],
        cut: import_order.NotRunYet | None = None,
    ) -> Iterator[fields.Store]:
        interp = self.interp
        loc = _loc(site, model)
        if site.function is None and import_order.in_a_branch_not_taken(interp, site.node, loc, model):
            return  # `if config.FAST: IMPLS["main"] = bump` with FAST false: the store never runs
        at_calls = self._stored_at_calls(site, model, matches, loc, cut) if cut is not None else None
        if at_calls is not None:
            yield from at_calls
            return
        for outer, partial in self._environments(site, model):
            if site.function is not None and not returns.reaches_statement(
                interp, Func(site.function, model), outer, loc.stmt
            ):
                continue  # this call does not get to the store (`if "key" in ns:` of a class without one)
            for env in _iterations(interp, loc, outer, model):
                yield from self._evaluated_in(site, model, matches, loc, env, partial)

    def _stored_at_calls(
        self,
        site: store_sites.StoreSite,
        model: ModuleModel,
        matches: Callable[[Value], bool],
        loc: Loc,
        cut: import_order.NotRunYet,
    ) -> list[fields.Store] | None:
        """For a read at import: a store straight in the body of a def that only the module's
        call statements name (`def use_plain(): Cfg.fn = copy`, then `use_plain()`; a
        classmethod: `Op.use(copy)`) is made at each of those calls run before the read, with
        its arguments, as a statement of the module's own at the call's line would be: the last
        one replaces what came before.  None: not such a store."""
        function = site.function
        if id(model) != cut.model or function is None:
            return None
        body = cast(list[ast.stmt], getattr(function, "body", []))
        index = next((i for i, stmt in enumerate(body) if stmt is loc.stmt), None)
        calls_made = import_order.calls_at_import(model, function) if index is not None else None
        if index is None or calls_made is None or may_leave_early(body[: index + 1]):
            return None
        out: list[fields.Store] = []
        for call in calls_made:
            line = import_order.top_level_start(model, call)
            if cut.from_line is not None and line >= cut.from_line:
                continue  # not made yet
            env = calls.bind_statement_call(self.interp, Func(function, model), call, model)
            if env is None:
                return None
            out += [replace(store, line=line) for store in self._evaluated_in(site, model, matches, loc, env, False)]
        return out

    def _evaluated_in(
        self,
        site: store_sites.StoreSite,
        model: ModuleModel,
        matches: Callable[[Value], bool],
        loc: Loc,
        env: Env,
        partial: bool,
    ) -> Iterator[fields.Store]:
        interp = self.interp
        if not any(matches(v) for v in interp.ev(site.receiver, loc, env, model)):
            return
        key = site.key if isinstance(site.key, str) or site.key is None else interp.ev(site.key, loc, env, model)
        value = interp.ev(site.value, loc, env, model) if site.value is not None else None
        augmented = site.node if isinstance(site.node, ast.AugAssign) and site.function is None else None
        if augmented is not None:  # `COUNT["n"] += 1` at module level: its operand (see fields.straight_values)
            value = interp.ev(augmented.value, loc, env, model)
        if value is not None and site.function is not None:
            # A Ref the function makes is a new one at each call (`allocate("x")`, `allocate("y")`).
            value = ref_identity.made_by_call(value, env, ("stored by", id(site.function), env))
        # By a name the module binds itself: its straight-line reading has the store.  A name it
        # imports (`from .registry import REG; REG.append(f)`) is another module's object.
        by_name = (
            site.function is None
            and isinstance(site.receiver, ast.Name)
            and any(b.kind != "import" for b in model.module_scope.bindings.get(site.receiver.id, []))
        )
        if partial and value is not None and self._stores_the_same_in_any_call(site, loc, model):
            partial = False  # an unseen call stores the same kind of value (`POOL[name] = jax.new_ref(z)`)
        if site.items:
            yield from fields.item_stores(value, partial or interp.depends_on_unknown(value))
            return
        yield fields.Store(
            site.kind,
            key,
            value,
            partial or interp.depends_on_unknown(value),
            by_name,
            _top_level_line(site, model, loc),
            isinstance(site.node, ast.Call) and getattr(site.node.func, "attr", None) == "setdefault",
            augmented,
        )

    def _stores_the_same_in_any_call(self, site: store_sites.StoreSite, loc: Loc, model: ModuleModel) -> bool:
        """Does the stored value not depend on the function's parameters (or anything else not
        known)?  Then a call of the function not seen here stores what the seen calls do, perhaps
        under another key, and a read of the field holds that value, not Unknown."""
        assert site.value is not None
        return not self.interp.depends_on_unknown(self.interp.ev(site.value, loc, EMPTY_ENV, model))

    def _environments(self, site: store_sites.StoreSite, model: ModuleModel) -> Iterator[tuple[Env, bool]]:
        """The environments a store is evaluated in, each with whether more may exist (calls of
        its function not seen here)."""

        if site.function is None:
            yield EMPTY_ENV, False
            return
        envs = self._envs.get(id(site.function), [])
        for env in envs:
            yield env, True
        if not envs and not self._closure_never_made(site.function, model):
            yield EMPTY_ENV, True

    def _closure_never_made(self, function: FunctionNode, model: ModuleModel) -> bool:
        """A def nested in a function whose runs seen here all end before reaching it (a
        singledispatch `register`'s `def add` under `if isinstance(cls, type):`, when every call
        handed it a function): no closure of it exists to store anything."""
        scope = model.scope_of_function.get(id(function))
        maker = scope.parent.node if scope is not None and scope.parent is not None else None
        if not isinstance(maker, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        runs = self._envs.get(id(maker), [])
        made_by = Func(maker, model)
        return bool(runs) and not any(returns.reaches_statement(self.interp, made_by, env, function) for env in runs)

    def list_contents(self, seq: Seq) -> Seq:
        """A list as functions fill it: `STAGES.append(fn)` in the decorator `@stage` returns.
        (Appends in the list's own straight-line code are `Interpreter.with_mutations`'.)"""
        if not seq.site or seq.exact:
            return seq
        cut = self._cut()
        filled = self._once(
            ("list-contents", seq, cut), lambda: frozenset({self._list_contents(seq, cut)}), frozenset({seq})
        )
        return cast("Seq", next(iter(filled)))

    def _list_contents(self, seq: Seq, cut: import_order.NotRunYet | None) -> Seq:

        stores = [
            s
            for s in self.stores_into(
                lambda v: isinstance(v, Seq) and v.site == seq.site, ("append", "extend", "item"), True, cut=cut
            )
            # in a function, or into a list no name holds (`d.setdefault(k, [])`); an item store
            # (`L[i] = v`, `operator.setitem(L, i, v)`) also under an `if` or in a loop: the list's
            # straight-line code (mutations.with_item_stores) follows only its own statements
            if not s.by_name or (s.line is None if s.kind == "item" else s.partial)
        ]
        if not stores:
            return seq
        members = set(seq.all_members()) | {UNKNOWN}
        for store in stores:
            value = store.value if store.value is not None else frozenset({UNKNOWN})
            members |= operations.iterate(self.interp, value) if store.kind == "extend" else value
        return Seq(seq.kind, None, frozenset(members), seq.site)

    def dict_contents(self, d: DictV, view: bool = False) -> DictV:
        """A dict as the program fills it: what it was made with and every store into it (for a
        read at import time, those made before it).  `view`: for `d.keys()`, `.values()` and
        `.items()`, live views that show the stores made after them too."""
        if not d.site or d.exact:
            return d
        # A store that reads the dict it fills sees it as it was made.
        cut = None if view else self._cut()
        filled = self._once(("dict-contents", d, cut), lambda: frozenset({self._dict_contents(d, cut)}), frozenset({d}))
        return cast("DictV", next(iter(filled)))

    def _dict_contents(self, d: DictV, cut: import_order.NotRunYet | None) -> DictV:
        stores = self.stores_into(
            lambda v: isinstance(v, DictV) and v.site == d.site, ("item", "update"), d.toplevel, cut=cut
        )
        items: dict[object, tuple[object, frozenset[Value]]] | None = (
            {hashable(k): (k, v) for k, v in d.items} if d.items is not None else None
        )
        if stores and self.removes_items(d):
            items = None  # stores and removals interleave: which keys remain is not followed
        members = set(d.members)
        last = fields.last_straight_stores(stores) if d.toplevel else {}
        displayed = dict(items) if items is not None else {}
        for store in stores:
            if store.setdefault and items is not None and fields.surely_there(d, stores, store):
                continue  # `d.setdefault(k, v)` after `k` was surely stored: stores nothing
            value = store.value if store.value is not None else U
            if store.partial:
                value = value | {UNKNOWN}
            if store.kind == "update":
                filled = fields.single_dict(value)
                if filled is None or filled.items is None:
                    items = None
                    members |= union(v.all_values() if isinstance(v, DictV) else U for v in value)
                    continue
                pairs = list(filled.items)
            else:
                const = fields.only_const(store.key)
                if const is None:
                    items = None
                    members |= value
                    continue
                pairs = [(const, value)]
            for k, v in pairs:
                members |= v
                if items is None:
                    continue
                if hashable(k) in last:
                    if last[hashable(k)] is store:  # the last of the module's own stores of `k`
                        if store.augmented is not None:  # `COUNT["n"] += 1`: from the ones before it
                            made = displayed.get(hashable(k))
                            v = fields.straight_values(stores, k, made[1] if made else None, self._augment)
                        items[hashable(k)] = (k, v)
                    continue  # an earlier one: replaced, statement after statement
                old = items.get(hashable(k))
                items[hashable(k)] = (k, v | old[1] if old is not None else v)
        known = tuple(items.values()) if items is not None else None
        return DictV(known, frozenset(members), d.site, d.toplevel, d.missing)

    def _augment(self, stmt: ast.AugAssign, old: frozenset[Value], operand: frozenset[Value]) -> frozenset[Value]:
        return self.interp.binary(stmt.op, old, operand, stmt, Loc(self.interp.model.module_scope, stmt))

    def removes_items(self, d: DictV) -> bool:
        """Whether the program may remove items of the dict made at `d.site` (`d.pop(k)`,
        `popitem`, `clear`, `del d[k]`): then its items are not known from its stores alone."""
        # Kept as the heap keeps its reads (a set, not empty when it does), so that a removal whose
        # receiver reads the dict itself sees "no" instead of asking again.
        return bool(self._once(("removes-items", d.site), lambda: self._removes_items(d.site), frozenset()))

    def _removes_items(self, site: int) -> frozenset[Value]:
        interp = self.interp

        def is_it(values: frozenset[Value]) -> bool:
            return any(isinstance(v, DictV) and v.site == site for v in values)

        for model in interp.models():
            for call in model.calls_with_attribute(["pop", "popitem", "clear"]):
                receiver = call.func.value  # type: ignore[attr-defined]  # attribute calls only
                if is_it(interp.ev(receiver, model.loc(call), EMPTY_ENV, model)):
                    return frozenset({Const(True)})
            for name in _deleted_from(model):  # `del NAME[k]`, NAME read as the module's
                if is_it(interp.ev(name, Loc(model.module_scope, None), EMPTY_ENV, model)):
                    return frozenset({Const(True)})
        return frozenset()

    # --------------------------------------------------------------- import-time code
    def run_import_time(self) -> None:
        """Evaluate what runs when the loaded modules are imported (decorators, class statements,
        module-level calls and loops, the imports themselves), once per module, until no new
        module is loaded."""
        interp = self.interp
        if self._running or all(id(m) in self._ran for m in interp.models()):
            return  # asked again with nothing new loaded (each class with hooks asks): nothing to run
        # The run starts in the middle of a read (the one that asked for it): what it evaluates
        # may see that read's object half-filled.  So it only records calls for the heap, and
        # forgets the values it computed; nor does it report launches to the launch finder.
        hooks = {name: getattr(interp, name) for name in _HOOKS}
        memo_before, summaries_before = set(interp._memo), set(interp._summaries)  # noqa: SLF001
        loops_before = set(interp._simple_loops)  # noqa: SLF001
        for name in _HOOKS:
            setattr(interp, name, None)
        self._running = True
        try:
            while len(self._ran) < MAX_IMPORT_TIME_MODULES:
                pending = [m for m in interp.models() if id(m) not in self._ran]
                if not pending:
                    return
                for model in pending[: MAX_IMPORT_TIME_MODULES - len(self._ran)]:
                    self._ran.add(id(model))
                    self._run_module(model)
        finally:
            self._running = False
            for name, hook in hooks.items():
                setattr(interp, name, hook)
            for key in set(interp._memo) - memo_before:  # noqa: SLF001
                del interp._memo[key]  # noqa: SLF001
            for key in set(interp._summaries) - summaries_before:  # noqa: SLF001
                del interp._summaries[key]  # noqa: SLF001
            for key in set(interp._simple_loops) - loops_before:  # noqa: SLF001
                del interp._simple_loops[key]  # noqa: SLF001

    def _run_module(self, model: ModuleModel) -> None:
        for stmt in _import_time_statements(model.tree.body):
            loc = Loc(model.module_scope, stmt)
            # `for name, fn in PAIRS: register(name)(fn)`: each iteration's call with its own values.
            for env in _iterations(self.interp, loc, EMPTY_ENV, model):
                bindings.run_statement(self.interp, stmt, loc, model, env)


def _deleted_from(model: ModuleModel) -> list[ast.Name]:
    """The names of `del NAME[k]` statements anywhere in the module."""
    return [
        target.value
        for node in model.delete_statements()
        for target in node.targets
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
    ]


def _decorator_attributes(model: ModuleModel) -> frozenset[str]:
    """The attribute names decorators of the module end in (`@reg.add`, `@f.register(int)`),
    kept on the model."""
    found: frozenset[str] | None = getattr(model, "_pallas_ls_decorator_attributes", None)
    if found is None:
        names = set()
        for node in model.decorated:
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(target, ast.Attribute):
                    names.add(target.attr)
        found = frozenset(names)
        model._pallas_ls_decorator_attributes = found  # type: ignore[attr-defined]  # a cache kept on the model
    return found


def _called_at_import(model: ModuleModel, function: FunctionNode) -> bool:
    """Does import-time code call `function` by its name (`use(...)`, `Op.use(...)`)?"""
    name = getattr(function, "name", None)
    return name is not None and any(
        called == name or called.endswith("." + name) for called in _names_called_at_import(model)
    )


def _names_called_at_import(model: ModuleModel) -> frozenset[str]:
    """The names (`f`, `obj.f`) the module's import-time code calls, its decorators included, and
    the functions it hands to calls (`partial(_register, table=T)`, `map(add, names)`): kept on
    the model."""
    found: frozenset[str] | None = getattr(model, "_pallas_ls_called_at_import", None)
    if found is None:
        names: set[str] = set()
        for stmt in _import_time_statements(model.tree.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                parts: list[ast.AST] = list(stmt.decorator_list)
                names |= {classes.decorator_name(d) for d in stmt.decorator_list}  # `@register` calls register
            else:
                parts = [stmt]
            for node in (n for part in parts for n in ast.walk(part)):
                if isinstance(node, ast.Call):
                    names.add(classes.decorator_name(node.func))
                    names |= {classes.decorator_name(a) for a in node.args if isinstance(a, (ast.Name, ast.Attribute))}
        found = frozenset(names)
        model._pallas_ls_called_at_import = found  # type: ignore[attr-defined]  # a cache kept on the model
    return found


def _import_time_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module-level statements that run at import, through `if` / `try` / `with` / `for`
    blocks (not into function bodies)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _import_time_statements(inner)
        for handler in getattr(stmt, "handlers", ()):
            yield from _import_time_statements(handler.body)


def _iterations(interp: Interpreter, loc: Loc, env: Env, model: ModuleModel) -> list[Env]:
    """A store straight in the body of a `for` loop over a known, short sequence (no `if` or
    `break` around it) runs once per element: `for name in ("scale", "shift"): PARAMS[name] = ...`
    stores both keys, each with its own value; elsewhere, the one environment `env`."""
    guarded = flow.loop_guards(model, loc.stmt, loc.scope) if isinstance(loc.stmt, ast.stmt) else None
    if guarded is None or guarded[1] or guarded[2]:
        return [env]
    return flow.iteration_envs(interp, loc, env, model) or [env]


def _is_type_of(node: ast.expr) -> bool:
    """`type(x)`: x's class."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and len(node.args) == 1
        and not node.keywords
    )


def _top_level_line(site: store_sites.StoreSite, model: ModuleModel, loc: Loc) -> int | None:
    """The line of a store that is a module-level statement of its own (or the call of one)."""
    if site.function is not None or not any(stmt is loc.stmt for stmt in model.tree.body):
        return None
    return getattr(loc.stmt, "lineno", None)


def _loc(site: store_sites.StoreSite, model: ModuleModel) -> Loc:
    """Where a store is evaluated (a call knows its Loc; an assignment is its own statement)."""
    if isinstance(site.node, ast.Call):
        return model.loc(site.node)
    scope = model.function_scope(site.function) if site.function is not None else model.module_scope
    return Loc(scope, site.node)


def _same_object(obj: Value) -> Callable[[Value], bool]:
    """Whether a receiver value may be `obj`: the same object, or for instances any instance of
    its class made at the same site (an instance of unknown site may be any of them).  A copy
    (`copy.copy(cfg)`) also holds what was stored into the instance it copies."""

    if isinstance(obj, Instance):
        sites = {obj.site, obj.copy_of} - {0}
        return lambda v: (
            isinstance(v, Instance) and v.cls == obj.cls and (not v.site or not obj.site or v.site in sites)
        )
    return lambda v: v == obj
