"""A module-level list or dict filled by a registrar, read in the module's straight-line code.

    REG = []
    def register(fn):
        REG.append(fn)
        return fn
    @register
    def first(...): ...
    register(bump)
    kernel = REG[-1]

The registrar's append runs once per call, in the order the module's statements make the calls
(a decorator is a call with the function it decorates).  The heap alone joins a function's appends
without their order or count, which is a wrong value where the program reads `REG[-1]` or
`REG[0]`: a valid program is flagged.  Here the list is the display's elements and then, call by
call, what each registrar call appends, as exact as the module's own appends are.

A registrar may also be made by a factory (`def register(priority): def add(fn): REG.append(...);
return fn; return add`), called `register(2)(copy)` or as the decorator `@register(2)`.

Followed only where certain: the list is bound once at module level and read there; every
function that mentions the list is a registrar (a module-level def whose only mentions of it are
`NAME.append(value)` statements straight in its body); registrars are named only by module-level
statements of their own (a call statement, or the innermost decorator of a module-level def or
class), never inside a function or passed on; nothing else in the module changes the list.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from ..model import Binding, FunctionNode, Loc, ModuleModel, Scope, may_leave_early
from ..names import mentions
from . import bindings, calls, classes, flow, import_order, library, operations, ref_identity
from .domain import EMPTY_ENV, Class, DictV, Env, Func, Seq, Value, hashable, key_of, only_value, union

# What one registrar call does to the registry: (None, value) appends; ((key,), value) stores.
Event = tuple[tuple[object] | None, frozenset[Value]]

if TYPE_CHECKING:
    from .interpreter import Interpreter


@dataclass(frozen=True)
class Registrar:
    """A module-level def whose calls append to the list: itself (`register(fn)`), or, for a
    factory, the def it returns (`register(priority)(fn)`); or a caller, a def whose own code
    calls registrars in straight-line statements (`def setup(): register(bump)`)."""

    outer: FunctionNode
    appender: FunctionNode
    caller: bool = False
    # The module defining it, when the calls are another module's (None: the module read).
    home: ModuleModel | None = None
    # For an `__init_subclass__` that appends (`REG.append(cls)`): the module-level class it is
    # defined in; its "calls" are the class statements of the module making subclasses of it.
    hook_of: ast.ClassDef | None = None

    @property
    def is_factory(self) -> bool:
        return self.outer is not self.appender


def filled_by_registrars(
    interp: Interpreter,
    b: Binding,
    value: frozenset[Value],
    use: Loc,
    changed_in: list[FunctionNode | None],
    model: ModuleModel,
) -> frozenset[Value] | None:
    """The list or dict `b` binds as registrar calls before `use` filled it (`changed_in`: the
    functions holding each change of it, None for module level); None where not followed."""
    made = next(iter(value)) if len(value) == 1 else None
    is_list = isinstance(made, Seq) and made.kind == "list" and made.known and bool(made.site)
    is_dict = isinstance(made, DictV) and made.items is not None and made.toplevel and made.missing is None
    if not (is_list or is_dict) or not changed_in:
        return None
    if b.scope is not model.module_scope or use.scope is not model.module_scope or use.stmt is None:
        return None
    registrars = _registrars(model, b.name)
    appenders = [r.appender for r in (registrars or {}).values() if not r.caller]
    if not registrars or any(function not in appenders for function in changed_in):
        return None
    events: list[Event] = []
    for stmt in _top_level_between(model, b, use):
        if library.may_import_project_code(stmt):
            return None  # a plugin module may register too, when it is imported
        made_by = _appended_by(interp, stmt, registrars, b.name, model, EMPTY_ENV)
        if made_by is None:
            return None
        events += made_by
    return _filled(cast(Value, made), events)


def filled_across_modules(
    interp: Interpreter, imported: Binding, value: frozenset[Value], use: Loc, reader: ModuleModel
) -> frozenset[Value] | None:
    """A registry list or dict of another module, imported by `imported` and read at `use` in the
    reader's straight-line code: what it holds once the modules the reader imported before the read
    ran, in the order Python runs them (`import pkg.impls`, whose decorators register), and the
    reader's own registrar calls, ran.  None where not followed (see _ImportRun)."""
    if imported.scope is not reader.module_scope:
        return None
    found = interp.loader.module(reader, imported.qualname or "") if imported.qualname else None
    if found is None or len(found[1]) != 1:
        return None
    return read_through_the_module(interp, found[0], found[1][0], value, use, reader)


def read_through_the_module(
    interp: Interpreter, home: ModuleModel, name: str, value: frozenset[Value], use: Loc, reader: ModuleModel
) -> frozenset[Value] | None:
    """`home`'s registry `name` read at `use` in the reader's straight-line code, imported by name
    (filled_across_modules) or read as an attribute of its module (`registry.IMPLS["main"]` after
    `from pkg import registry`): as filled_across_modules says; None where not followed."""
    made = next(iter(value)) if len(value) == 1 else None
    if not (isinstance(made, Seq) and made.kind == "list" and made.known and made.site) and not (
        isinstance(made, DictV) and made.items is not None and made.toplevel and made.missing is None
    ):
        return None
    if use.scope is not reader.module_scope or use.stmt is None or home is reader:
        return None
    created = home.module_scope.bindings.get(name, [])
    registrars = _registrars(home, name)
    if len(created) != 1 or created[0].scope is not home.module_scope or not registrars:
        return None
    events = _ImportRun(interp, home, created[0], registrars, made).events_before(reader, use.stmt)
    if events is None:
        return None
    return _filled(made, events)


def _filled(made: Value, events: list[Event]) -> frozenset[Value] | None:
    """The list or dict as made, then changed by `events` in order."""
    if isinstance(made, Seq):
        if any(key is not None for key, _ in events):
            return None
        return frozenset({Seq("list", (*made.elements(), *(v for _, v in events)), site=made.site, exact=True)})
    assert isinstance(made, DictV) and made.items is not None
    if any(key is None for key, _ in events):
        return None
    items = {hashable(k): (k, v) for k, v in made.items}
    for key, stored in events:
        k = cast("tuple[object]", key)[0]
        items[hashable(k)] = (k, stored)  # a later store of a key replaces the earlier
    kept = tuple(items.values())
    return frozenset({DictV(kept, union(v for _, v in kept), made.site, made.toplevel, None, exact=True)})


class _ImportRun:
    """What the modules that ran before a read (import_order.ImportOrder) registered into
    `home`'s registry through its registrars, in order.  Gives up (None) where the calls are not
    certain: a registrar named but not called (`reg.register(fn)`, a star import, passed on,
    called in a function), the registry itself named outside its module but by a def reading
    its items."""

    def __init__(
        self, interp: Interpreter, home: ModuleModel, created: Binding, registrars: dict[str, Registrar], made: Value
    ):
        self.interp = interp
        self.home = home
        self.created = created
        self.registrars = registrars
        self.registry_site = getattr(made, "site", 0)
        self.registry_names: dict[int, set[str]] = {}  # module -> the names it imports the registry as
        self.aliases: dict[int, dict[str, Registrar]] = {}  # module -> the names it calls registrars by
        self.events: list[Event] = []
        self.made = False  # whether `home` ran its binding of the registry yet

    def events_before(self, reader: ModuleModel, read: ast.AST) -> list[Event] | None:
        ran = import_order.ImportOrder(self.interp, self).before(reader, read)
        return self.events if ran and self.made else None

    def enter(self, model: ModuleModel) -> bool:
        if model is self.home:
            return True
        if _names_it_as_an_attribute(model, self.created.name):
            return False  # `registry.IMPLS["k"] = f`, `registry.IMPLS.update(...)`: not followed
        aliases = self._aliases(model)
        if aliases is None:
            return False
        self.aliases[id(model)] = aliases
        return True

    def statement(self, model: ModuleModel, stmt: ast.stmt) -> bool:
        if model is self.home:
            if stmt is self.created.stmt:
                self.made = True
                return True
            if not self.made:
                return not mentions(stmt, *self.registrars)
            events = _appended_by(self.interp, stmt, self.registrars, self.created.name, model, EMPTY_ENV)
        else:
            aliases = self.aliases[id(model)]
            if self._changes_registry(model, stmt):
                return False  # the registry named outside its module: `REG.append(f)`, `other = REG`
            if mentions(stmt, self.created.name, *self.registry_names.get(id(model), ())):
                return not mentions(stmt, *aliases)  # a def reading its items, defined: nothing runs
            events = _appended_by(self.interp, stmt, aliases, self.created.name, model, EMPTY_ENV)
        if events is None:
            return False
        self.events += events
        return True

    def _changes_registry(self, model: ModuleModel, stmt: ast.stmt) -> bool:
        """Whether a statement of another module names the registry, but in a def that only
        reads items of it (`def default(): return REG[0]`, which changes nothing when defined)."""
        names = {self.created.name, *self.registry_names.get(id(model), ())}
        mentioned = [n for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id in names]
        if not mentioned:
            return False
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.decorator_list:
            return True
        read = {
            id(n.value)
            for n in ast.walk(stmt)
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
        }
        return any(id(n) not in read for n in mentioned) or mentions(stmt.args, *names)

    def _aliases(self, model: ModuleModel) -> dict[str, Registrar] | None:
        """The names `model` imports the home module's registrars under (`from .registry import
        register`, or from a package re-exporting it), each a registrar with its home; None where
        a registrar is named another way (`registry.register(fn)`), or inside a function."""
        if any(isinstance(node, ast.Attribute) and node.attr in self.registrars for node in ast.walk(model.tree)):
            return None
        wanted = {id(r.outer): r for r in self.registrars.values()}
        aliases: dict[str, Registrar] = {}
        for stmt in model.tree.body:
            if not isinstance(stmt, ast.ImportFrom):
                continue
            found = self.interp.loader.module(model, "." * stmt.level + (stmt.module or ""))
            if found is None or found[1]:
                continue
            for alias in stmt.names:
                if alias.name == "*":
                    return None  # names not listed: a registrar may be among them
                values = bindings.module_attribute(self.interp, found[0], alias.name)
                if any(getattr(v, "site", None) == self.registry_site for v in values):
                    self.registry_names.setdefault(id(model), set()).add(alias.asname or alias.name)
                named = [wanted[id(v.node)] for v in values if isinstance(v, Func) and id(v.node) in wanted]
                if named and len(values) != 1:
                    return None
                if named:
                    aliases[alias.asname or alias.name] = replace(named[0], home=self.home)
        if any(_inside_mentions(function, set(aliases)) for function in model.functions):
            return None
        return aliases


def _names_it_as_an_attribute(model: ModuleModel, name: str) -> bool:
    """Whether `model` names `.name` (the registry, through its module) but to read an item of it
    (`registry.IMPLS["main"]`, which changes nothing)."""
    read = {
        id(node.value)
        for node in ast.walk(model.tree)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
    }
    return any(
        isinstance(node, ast.Attribute) and node.attr == name and id(node) not in read for node in ast.walk(model.tree)
    )


def _appended_by(
    interp: Interpreter,
    stmt: ast.stmt,
    registrars: dict[str, Registrar],
    name: str,
    model: ModuleModel,
    env: Env,
    scope: Scope | None = None,
    running: tuple[FunctionNode, ...] = (),
) -> list[Event] | None:
    """What a module-level statement (or one of a caller's, in its `scope`) appends through
    registrars (empty: none it calls); None when it names a registrar other than by calling it,
    or names the list itself.  `env`: the iteration of a loop around it, or the caller's call;
    `running`: the callers whose bodies are being run (one calling another that calls it back is
    not followed)."""
    if any(stmt is r.outer or stmt is r.hook_of for r in registrars.values()):
        return []  # the registrar's def (or the class defining the hook): it appends when called
    hooks = [r for r in registrars.values() if r.hook_of is not None]
    if isinstance(stmt, ast.ClassDef) and hooks:
        hooked = _hooks_run_by(interp, stmt, hooks, model)
        if hooked is None:
            return None  # bases not known: a hook may run
        if hooked:
            return _subclass_made(interp, stmt, hooked, name, model, env)
    if (
        isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not stmt.decorator_list
        and _only_reads_items(stmt, name)
    ):
        return []  # a reader's def (`def get(name): return _IMPLS[name]`): defining it runs nothing
    mentioned = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    if name in mentioned:
        return None  # the module's own use of the list (`REG.sort()`, `other = REG`): not here
    used = mentioned & set(registrars)
    if not used:
        return []
    if isinstance(stmt, ast.For) and scope is None:
        return _appended_by_loop(interp, stmt, registrars, name, model, env)
    if len(used) > 1 or sum(1 for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id in used) != 1:
        return None  # one registrar, named once
    where = Loc(scope or model.module_scope, stmt)
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in registrars:
        if registrars[call.func.id].caller:
            return _run_caller(interp, call, registrars, name, model, where, env, running)
    elif isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in _CONSUMERS:
        return _mapped(interp, call, registrars, name, where, model, env)  # `list(map(register, fns))`
    if isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords:
        made = call.args[0]
        if not isinstance(made, ast.Starred):  # `register(fn)`, `register(2)(fn)`
            registered = interp.ev(made, where, env, model)
            return _registered(interp, call.func, registered, registrars, name, where, model, env)
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.decorator_list:
        innermost = stmt.decorator_list[-1]
        if not mentions(innermost, *used):
            return None  # an outer decorator: what it is handed is not followed here
        made_here: Value = Class(stmt, model) if isinstance(stmt, ast.ClassDef) else Func(stmt, model, EMPTY_ENV)
        return _registered(interp, innermost, frozenset({made_here}), registrars, name, where, model, env)
    return None


def _hooks_run_by(
    interp: Interpreter, stmt: ast.ClassDef, hooks: list[Registrar], model: ModuleModel
) -> list[Registrar] | None:
    """The registering `__init_subclass__` hooks a class statement runs (those of the classes
    its new class derives from); None when its bases are not known."""
    if not stmt.bases:
        return []
    mro = classes.class_mro(interp, Class(stmt, model))
    if mro is None:
        return None
    return [h for h in hooks if any(isinstance(k, Class) and k.node is h.hook_of for k in mro[1:])]


def _subclass_made(
    interp: Interpreter, stmt: ast.ClassDef, running: list[Registrar], name: str, model: ModuleModel, env: Env
) -> list[Event] | None:
    """A class statement making a subclass of a class whose `__init_subclass__` registers: the
    hook runs with the new class (and the statement's keywords: `class Fast(Op, name="fast")`)."""
    if stmt.decorator_list or len(running) > 1 or any(k.arg is None for k in stmt.keywords):
        return None  # a decorator, two hooks, `**kw`: not followed
    where = Loc(model.module_scope, stmt)
    keywords = [(str(k.arg), interp.ev(k.value, where, env, model)) for k in stmt.keywords if k.arg != "metaclass"]
    hook = Func(running[0].appender, model, EMPTY_ENV)
    return _run(interp, hook, [frozenset({Class(stmt, model)})], keywords, name, (stmt, env))


def _registered(
    interp: Interpreter,
    callee: ast.expr,
    registered: frozenset[Value],
    registrars: dict[str, Registrar],
    name: str,
    where: Loc,
    model: ModuleModel,
    env: Env,
) -> list[Event] | None:
    """What handing `registered` to `callee` appends: `register` or `register(args)`."""
    if isinstance(callee, ast.Name) and callee.id in registrars and not registrars[callee.id].is_factory:
        plain = registrars[callee.id]
        appender = Func(plain.appender, plain.home or model, EMPTY_ENV)
        return _run(interp, appender, [registered], [], name, (where.stmt, env))
    factory_call = callee if isinstance(callee, ast.Call) else None
    if factory_call is None or not isinstance(factory_call.func, ast.Name):
        return None
    registrar = registrars.get(factory_call.func.id)
    if registrar is None or not registrar.is_factory:
        return None
    arguments = calls.plain_arguments(interp, factory_call, where, env, model)
    if arguments is None:
        return None
    home = registrar.home or model
    closure = calls.bind_arguments(interp, Func(registrar.outer, home, EMPTY_ENV), *arguments)
    if closure is None:
        return None
    return _run(interp, Func(registrar.appender, home, closure), [registered], [], name, (where.stmt, env))


# The builtins that consume an iterator at once: `list(map(register, fns))` calls `register` on
# each, in order (a bare `map(...)` is lazy and calls nothing).
_CONSUMERS = frozenset({"list", "tuple", "set", "frozenset", "sorted"})


def _mapped(
    interp: Interpreter,
    call: ast.Call,
    registrars: dict[str, Registrar],
    name: str,
    where: Loc,
    model: ModuleModel,
    env: Env,
) -> list[Event] | None:
    """What `list(map(register, fns))` appends: `register(f)` for each `f` of a known sequence, in
    order; None for any other call naming a registrar."""
    inner = call.args[0] if len(call.args) == 1 and not call.keywords else None
    if not isinstance(call.func, ast.Name) or not isinstance(inner, ast.Call):
        return None
    if not (isinstance(inner.func, ast.Name) and inner.func.id == "map" and len(inner.args) == 2):
        return None
    if inner.keywords or model.lookup("map", where) or model.lookup(call.func.id, where):
        return None  # the builtins shadowed
    handed = operations.unpacked(interp, interp.ev(inner.args[1], where, env, model))
    if handed is None or handed.elts is None:
        return None
    events: list[Event] = []
    for element in handed.elts:
        made_by = _registered(interp, inner.args[0], element, registrars, name, where, model, env)
        if made_by is None:
            return None
        events += made_by
    return events


def _run_caller(
    interp: Interpreter,
    call: ast.Call,
    registrars: dict[str, Registrar],
    name: str,
    model: ModuleModel,
    where: Loc,
    env: Env,
    running: tuple[FunctionNode, ...],
) -> list[Event] | None:
    """`setup()`: the registrar calls of the caller's body, in order, with its arguments bound."""
    registrar = registrars[cast(ast.Name, call.func).id]
    caller = registrar.outer
    if caller in running:
        return None  # callers calling each other: how often each runs is not followed
    arguments = calls.plain_arguments(interp, call, where, env, model)
    if arguments is None:
        return None
    if registrar.home is not None:  # a setup function of the registry's module, called from another
        model, registrars = registrar.home, _registrars(registrar.home, name) or {}
    bound = calls.bind_arguments(interp, Func(caller, model, EMPTY_ENV), *arguments)
    if bound is None:
        return None
    scope = model.function_scope(caller)
    events: list[Event] = []
    if may_leave_early(getattr(caller, "body", [])):
        return None
    for stmt in getattr(caller, "body", []):
        made_by = _appended_by(interp, stmt, registrars, name, model, bound, scope, (*running, caller))
        if made_by is None:
            return None
        events += made_by
    return events


def _appended_by_loop(
    interp: Interpreter, loop: ast.For, registrars: dict[str, Registrar], name: str, model: ModuleModel, env: Env
) -> list[Event] | None:
    """`for f in (copy, bump): register(f)`: each iteration's appends, in order, when the loop
    runs over a known sequence and its body always runs to its end."""
    if loop.orelse or any(isinstance(n, (ast.Break, ast.Continue, ast.Return)) for n in ast.walk(loop)):
        return None
    envs = flow.loop_envs(interp, loop, model.module_scope, env, model)
    if envs is None:
        return None
    out: list[Event] = []
    for iteration in envs:
        for stmt in loop.body:
            appended = _appended_by(interp, stmt, registrars, name, model, iteration)
            if appended is None:
                return None
            out += appended
    return out


def _run(
    interp: Interpreter,
    func: Func,
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    name: str,
    made_at: object,
) -> list[Event] | None:
    """What one call of the registering def appends or stores, in order; a Ref it makes is a new
    one at each call (`made_at`: the statement, and the loop iteration, that made the call)."""
    model = func.model
    env: Env | None = calls.bind_arguments(interp, func, args, keywords)
    if env is None:
        return None

    def made(expr: ast.expr, where: Loc) -> frozenset[Value]:
        return ref_identity.fresh_refs(interp.ev(expr, where, env, model), args, keywords, made_at)

    scope = model.function_scope(func.node)
    out: list[Event] = []
    if may_leave_early(getattr(func.node, "body", [])):
        return None
    for stmt in getattr(func.node, "body", []):
        where = Loc(scope, stmt)
        if _appends_to(stmt, name):
            call = cast(ast.Call, cast(ast.Expr, stmt).value)
            out.append((None, made(call.args[0], where)))
        elif _stores_item_of(stmt, name):
            target = cast(ast.Subscript, cast(ast.Assign, stmt).targets[0])
            known, key = key_of(only_value(interp.ev(target.slice, where, env, model)))
            if not known:
                return None  # a key not known: which items the dict has is not followed
            out.append(((key,), made(cast(ast.Assign, stmt).value, where)))
    return out


def _registrars(model: ModuleModel, name: str) -> dict[str, Registrar] | None:
    """The module-level defs whose calls append to the module's list `name`, by name, when
    every function mentioning the list is one (or the def a factory returns) and each is named
    only by module-level statements; None otherwise."""
    index: dict[str, dict[str, Registrar] | None] | None = getattr(model, "_pallas_ls_registrars", None)
    if index is None:
        index = {}
        model._pallas_ls_registrars = index  # type: ignore[attr-defined]
    if name not in index:
        index[name] = _find_registrars(model, name)
    return index[name]


def _find_registrars(model: ModuleModel, name: str) -> dict[str, Registrar] | None:
    top_level = {id(stmt): stmt for stmt in model.tree.body}
    found: dict[str, Registrar] = {}
    for function in model.functions:
        if not _directly_mentions(function, name) or name in model.function_scope(function).bindings:
            continue
        if _only_reads_items(function, name):
            continue  # a reader (`def get(name): return _IMPLS[name]`): the order is not its
        if not _only_appends(function, name):
            return None
        owner = _subclass_hook_owner(model, function)
        if owner is not None:  # `def __init_subclass__(cls): REG.append(cls)`, run by each subclass
            found[f"{owner.name}.__init_subclass__"] = Registrar(function, function, hook_of=owner)
            continue
        if id(function) in top_level:
            found[function.name] = Registrar(function, function)  # type: ignore[union-attr]  # a def
            continue
        outer = model.parent_function.get(id(function))
        if outer is None or id(outer) not in top_level or not _returns_only(outer, function):
            return None
        found[outer.name] = Registrar(outer, function)  # type: ignore[union-attr]  # a def
    if not found:
        return None
    _add_callers(model, found, top_level)
    callers = [r.outer for r in found.values() if r.caller]
    if any(_inside_mentions(function, set(found)) for function in model.functions if function not in callers):
        return None  # a registrar called from another function: when, and how often, is not followed
    hooks = [r.hook_of for r in found.values() if r.hook_of is not None]
    for stmt in model.tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt not in hooks and mentions(stmt, *found, name):
            return None  # a class body's own statements: not followed here
    return found


def _subclass_hook_owner(model: ModuleModel, function: FunctionNode) -> ast.ClassDef | None:
    """The module-level class whose body defines `function` as its `__init_subclass__`."""
    if getattr(function, "name", None) != "__init_subclass__":
        return None
    return next((s for s in model.tree.body if isinstance(s, ast.ClassDef) and function in s.body), None)


def _add_callers(model: ModuleModel, found: dict[str, Registrar], top_level: dict[int, ast.stmt]) -> None:
    """Add the module-level defs whose own code names registrars (or callers) only as the callee
    of a call statement straight in its body (`def setup(): register(bump)`), until none is new."""
    while True:
        new = [
            function
            for function in model.functions
            if id(function) in top_level
            and getattr(function, "name", None) not in found
            and _inside_mentions(function, set(found))
            and _only_calls(function, set(found))
        ]
        if not new:
            return
        for function in new:
            found[function.name] = Registrar(function, function, caller=True)  # type: ignore[union-attr]  # a def


def _only_calls(function: FunctionNode, names: set[str]) -> bool:
    """Whether a def names `names` only as the callee of call statements straight in its body
    (or the factory called there: `register(2)(fn)`), none of them its own parameter."""
    body = getattr(function, "body", None)
    if not isinstance(body, list) or mentions(function.args, *names):
        return False
    for stmt in body:
        if not mentions(stmt, *names):
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        callee = call.func.func if isinstance(call, ast.Call) and isinstance(call.func, ast.Call) else None
        callee = callee or (call.func if isinstance(call, ast.Call) else None)
        named = sum(1 for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id in names)
        if not (isinstance(callee, ast.Name) and callee.id in names and named == 1):
            return False
    return True


def _returns_only(outer: FunctionNode, inner: FunctionNode) -> bool:
    """A factory's shape: its body is the undecorated def and `return` of it (a docstring aside)."""
    body = [
        s for s in getattr(outer, "body", []) if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    return (
        len(body) == 2
        and body[0] is inner
        and not getattr(inner, "decorator_list", None)
        and isinstance(body[1], ast.Return)
        and isinstance(body[1].value, ast.Name)
        and body[1].value.id == getattr(inner, "name", None)
    )


def _only_appends(function: FunctionNode, name: str) -> bool:
    """Whether a def mentions `name` only in `name.append(value)` statements straight in its
    body, the value not mentioning it."""
    body = getattr(function, "body", None)
    if not isinstance(body, list):
        return False
    for stmt in body:
        if _appends_to(stmt, name) or _stores_item_of(stmt, name):
            continue
        if mentions(stmt, name):
            return False
    return not any(isinstance(a, ast.arg) and a.arg == name for a in ast.walk(function.args))


def _only_reads_items(function: FunctionNode, name: str) -> bool:
    """Whether a def (and all it holds) mentions `name` only to read items of it or look into it
    (`name[k]`, `name.get(k)`, `.keys()` / `.values()` / `.items()`, `k in name`, `len(name)`): it
    can neither change the list or dict nor hand it on."""
    allowed: set[int] = set()
    for node in ast.walk(function):
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)) or (
            isinstance(node, ast.Attribute) and node.attr in _READ_METHODS and isinstance(node.ctx, ast.Load)
        ):
            allowed.add(id(node.value))
        elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            allowed.update(id(c) for c in node.comparators)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
            allowed.update(id(a) for a in node.args)
    return all(id(n) in allowed for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name) and not any(
        isinstance(a, ast.arg) and a.arg == name for a in ast.walk(function.args)
    )


# A dict's or list's methods that only read it.
_READ_METHODS = frozenset({"get", "keys", "values", "items", "index", "count", "copy"})


def _appends_to(stmt: ast.stmt, name: str) -> bool:
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == name
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
        and not mentions(call.args[0], name)
    )


def _stores_item_of(stmt: ast.stmt, name: str) -> bool:
    """`name[key] = value` with one target, neither key nor value mentioning `name`."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript)):
        return False
    target = stmt.targets[0]
    return (
        isinstance(target.value, ast.Name)
        and target.value.id == name
        and not isinstance(target.slice, ast.Slice)
        and not mentions(target.slice, name)
        and not mentions(stmt.value, name)
    )


def _top_level_between(model: ModuleModel, b: Binding, use: Loc) -> list[ast.stmt]:
    start, end = bindings.position(b.stmt), bindings.position(use.stmt)
    return [stmt for stmt in model.tree.body if start < bindings.position(stmt) < end]


def enclosing_def(model: ModuleModel, call: ast.Call) -> FunctionNode | None:
    """The function a call stands in (None: module or class level)."""
    scope = model.loc(call).scope
    return scope.function if scope is not None else None


def _inside_mentions(function: FunctionNode, names: set[str]) -> bool:
    """Whether a function's parameters or body mention one of `names` (its decorators, which
    run where the def stands, are not inside it)."""
    body = function.body if isinstance(function.body, list) else [function.body]
    return mentions(function.args, *names) or any(mentions(stmt, *names) for stmt in body)


def _directly_mentions(function: FunctionNode, name: str) -> bool:
    """Whether a function's own code (not a def, lambda or class inside it) mentions `name`."""
    stack: list[ast.AST] = [function.args, *(function.body if isinstance(function.body, list) else [function.body])]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.id == name:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(getattr(node, "decorator_list", []))  # they run where the def stands
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False
