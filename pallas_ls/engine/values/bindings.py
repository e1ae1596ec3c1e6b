"""What a name is bound to: reaching definitions, parameters, imports and module attributes.

Also the statements run for their effects (module-level calls and decorators that fill
registries, constructors' bodies).  Which definitions reach a read through branches and loops, and
containers changed in place before it, are `flow`'s.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from ..model import (
    Binding,
    FunctionNode,
    Loc,
    ModuleModel,
    Scope,
    positional_args,
)
from ..names import EXTERNAL_ROOTS
from . import (
    calls,
    classes,
    flow,
    global_stores,
    instance_changes,
    library,
    mutations,
    operations,
    patterns,
    registrations,
    reshaping,
    simple_loops,
    unseen_changes,
)
from .domain import (
    EMPTY_ENV,
    MAX_CALL_DEPTH,
    NONE_SET,
    UNKNOWN,
    Array,
    BoundMethod,
    Class,
    Const,
    DictV,
    Entry,
    Env,
    External,
    Func,
    Instance,
    Module,
    Param,
    Seq,
    U,
    Value,
    note_read,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter


def lookup(interp: Interpreter, name: str, loc: Loc, model: ModuleModel) -> list[Binding]:
    bindings = model.lookup(name, loc)
    if model is interp.model and (not bindings or bindings[0].scope is model.module_scope):
        note_read(interp.module_names_read, name, loc)
    if bindings and loc.scope is not model.module_scope and bindings[0].scope is model.module_scope:
        at_calls = _module_level_reaching(interp, name, loc, model)
        if at_calls is not None:
            return at_calls
    return bindings


def _module_level_reaching(interp: Interpreter, name: str, loc: Loc, model: ModuleModel) -> list[Binding] | None:
    """For a module-level name read in a function: when the function's top-level def is
    called at module level, the definitions live at those calls (notebook-style redefinitions)."""
    top = _top_level_function(name, loc, model)
    if top is None:
        return None
    if model is interp.model:
        note_read(interp.module_calls_read, top.name, loc)
    calls = module_level_calls(interp, top, model)
    if not calls:
        return None
    everything = model.module_scope.bindings.get(name, [])
    seen: dict[int, Binding] = {}
    for call in calls:
        for b in model.reaching(everything, model.loc(call).stmt):
            seen[id(b)] = b
    return list(seen.values()) or None


def _top_level_function(name: str, loc: Loc, model: ModuleModel) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The top-level def a read of module-level `name` at `loc` is in (None: not in one, or the
    function declares `name` global, so it may rebind it)."""
    if name in loc.scope.global_names:
        return None
    scope: Scope | None = loc.scope
    while scope is not None and scope.parent is not None and scope.parent is not model.module_scope:
        scope = scope.parent
    top = scope.node if scope is not None else None
    return top if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def module_level_calls(
    interp: Interpreter, function: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel
) -> list[ast.Call]:
    key = (id(function), "calls")
    cached = interp._module_calls.get(key)
    if cached is None:
        cached = []
        for call in model.calls_named([function.name]):
            call_loc = model.loc(call)
            if call_loc.scope is model.module_scope and any(
                b.node is function for b in model.lookup(function.name, call_loc)
            ):
                cached.append(call)
        interp._module_calls[key] = cached
    return cached


def unbound_name(interp: Interpreter, name: str, model: ModuleModel) -> frozenset[Value]:
    if name == "__debug__":
        return frozenset({Const(True)})  # JAX programs run without `python -O`: asserts and all
    if name == "__name__" and model is not interp.model and model not in interp.library_models.values():
        # A module another one imports: never "__main__" (its `if __name__ == "__main__":` block
        # does not run); the module analysed itself may be a script, so its name stays unknown.
        return frozenset({Const(interp.loader.module_name(model) or "<imported module>")})
    for star in star_imports(interp, model):
        target = interp.loader.module(model, _import_base(star))
        if target is None:
            if model is interp.model:
                interp.imports_not_found.add(_import_base(star))
            continue
        mod, rest = target
        if rest:
            continue
        if _exported(mod, name):
            interp.loaded[id(mod)] = mod
            found = module_attribute(interp, mod, name)
            if found != U:
                return found
    if (
        name
        in (
            "staticmethod",
            "classmethod",
            "property",
            "print",
            "list",
            "tuple",
            "dict",
            "getattr",
            "super",
            "globals",
            "locals",
        )
        or name in library.BUILTINS_VALUE
    ):
        return frozenset({External(name)})
    return U


def star_imports(interp: Interpreter, model: ModuleModel) -> list[ast.ImportFrom]:
    cached = interp._star_imports.get(id(model))
    if cached is None:
        cached = [
            node
            for node in _module_level_statements(model.tree.body)
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        ]
        interp._star_imports[id(model)] = cached
    return cached


def binding_value(
    interp: Interpreter, b: Binding, env: Env, model: ModuleModel, use: Loc | None = None
) -> frozenset[Value]:
    kind = b.kind
    if kind == "param":
        bound = env.get(b)
        if bound is not None:
            return mutations.with_changes_in_the_function(interp, b, bound, use, env, model) if use else bound
        return _unbound_param(interp, b, model)
    if kind == "def":  # a def binding's node is its def, a class binding's its class
        return classes.def_value(interp, cast(FunctionNode, b.node), model, env)
    if kind == "class":
        return classes.class_value(interp, cast(ast.ClassDef, b.node), model, env)
    if kind == "import":
        value = import_value(interp, b.qualname or "", model)
        if use is not None and any(isinstance(v, (Seq, DictV)) for v in value):
            # a registry of another module, filled by the modules imported before the read
            return registrations.filled_across_modules(interp, b, value, use, model) or value
        if use is not None and len(value) == 1 and isinstance(next(iter(value)), Instance):
            # an instance another module made and configured at import (`OP.configure("bump")`)
            return instance_changes.as_left_by_the_modules_run(interp, b, value, use, model) or value
        return value
    if kind == "other" and b.scope.kind == "comprehension":
        if use is not None and use.scope is not b.scope and use.scope.kind in ("function", "lambda"):
            # A function made in the comprehension reads the name when called: after the
            # comprehension (a lambda it collects: `[lambda: k() for k in ks]`), the last
            # iteration's value; else at any iteration (`key=lambda v: v[k]` of a call in it).
            when = "last" if _collected_by(b.scope.node, use.scope.node) else "any"
            return interp._comprehension_target(b, env, model, when)
        return interp._comprehension_target(b, env, model)
    if kind == "other" and sys.version_info >= (3, 10) and isinstance(b.stmt, ast.Match):
        return _match_capture(interp, b, env, model)
    if kind == "assign":
        bound = env.get(b) if env.items else None
        if bound is not None:  # a loop target in one iteration (`flow.per_iteration`)
            return bound
        at_calls = global_stores.at_calls(interp, b, use, model)
        if at_calls is not None:
            return at_calls
        filtered = flow.loop_target_at(interp, b, use, env, model) if use is not None else None
        if filtered is not None:
            return filtered
        value = assigned(interp, b, env, model, use)
        if use is not None and len(value) == 1 and isinstance(next(iter(value)), Instance):
            return instance_changes.as_left_before(interp, b, value, use, env, model)
        if use is not None and any(isinstance(v, (Seq, DictV)) for v in value):
            changed = _changed_before(interp, b, value, use, env, model)
            if changed == value:
                return value  # nothing changes it (most lists and dicts): no call to read it at
            reads = _reads_at(interp, b, use, model)
            if reads == [use] or len(reads) > MAX_READS_AT_CALLS:
                return changed
            return union(_changed_before(interp, b, value, at, env, model) for at in reads)
        return value
    return U


# How many module-level calls of a function a module-level list or dict it reads is read at (a
# registry's helper called a hundred times is read once, as of the end of the module).
MAX_READS_AT_CALLS = 8


def _collected_by(comprehension: ast.AST, function: ast.AST) -> bool:
    """Whether `function` (a lambda) is what the comprehension collects, or part of it outside
    any call (`[lambda: k() for k in ks]`, `{n: lambda: k() for ...}`): made, never run in it."""
    stack = [getattr(comprehension, name) for name in ("elt", "key", "value") if hasattr(comprehension, name)]
    while stack:
        node = stack.pop()
        if node is function:
            return True
        if not isinstance(node, (ast.Call, ast.Lambda, ast.comprehension)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _changed_before(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """The list or dict `b` binds, with what the straight-line code changed in it before `use`."""
    if any(isinstance(v, Seq) and v.kind == "list" for v in value):
        value = mutations.with_mutations(interp, b, value, use, env, model)
        value = mutations.with_item_stores(interp, b, value, use, env, model)
        value = reshaping.with_reshaping(interp, b, value, use, env, model)
    if any(isinstance(v, DictV) for v in value):
        changed_in: list[FunctionNode | None] = [
            site.function for site in interp.heap.stores_on(model, b.name) if site.function is not None
        ]
        registered = registrations.filled_by_registrars(interp, b, value, use, changed_in, model)
        if registered is not None:
            return registered  # `@register("k")` and `register("k")(fn)` at module level, in order
        value = mutations.with_item_stores(interp, b, value, use, env, model)
        value = mutations.with_deletions(interp, b, value, use, env, model)
    return unseen_changes.with_unseen_changes(b, value, use, model)  # `d.clear()`, `heapq.heapify(xs)`


def _reads_at(interp: Interpreter, b: Binding, use: Loc, model: ModuleModel) -> list[Loc]:
    """Where a module-level object read in a function is read: at the module-level calls of that
    function (`pick()` run at import, before a later `CHOSEN.append(fn)`), as the bindings it
    reads are (`_module_level_reaching`); at the read itself when none is written."""
    top = (
        _top_level_function(b.name, use, model) if use.scope is not b.scope and b.scope is model.module_scope else None
    )
    if top is None:
        return [use]
    calls = module_level_calls(interp, top, model)
    return [Loc(model.module_scope, model.loc(call).stmt) for call in calls] or [use]


def _unbound_param(interp: Interpreter, b: Binding, model: ModuleModel) -> frozenset[Value]:
    function = b.scope.node
    if b.param_index == 0 and isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        owner = b.scope.parent
        if owner is not None and owner.kind == "class":
            decorators = {classes.decorator_name(d) for d in function.decorator_list}
            cls = Class(cast(ast.ClassDef, owner.node), model)  # the scope of a class
            if classes.receives_the_class(function):
                return frozenset({cls})
            if "staticmethod" not in decorators:
                return frozenset({Instance(cls)})
    default = _default_of(function, b)
    values: set[Value] = {Param(b)}
    if default is not None:
        values |= interp.ev(default, model.loc(function), EMPTY_ENV, model)
        if calls.defaults_replaced(interp):
            values.add(UNKNOWN)  # `f.__defaults__ = (...)` somewhere: the def's may not stand
    return frozenset(values)


def assigned(interp: Interpreter, b: Binding, env: Env, model: ModuleModel, use: Loc | None = None) -> frozenset[Value]:
    stmt = b.stmt
    here = Loc(b.scope, stmt)
    if b.value is not None and getattr(b.node, "_pallas_ls_walrus", False):
        after_while = simple_loops.walrus_after(interp, b, use, env, model)
        if after_while is not None:
            return after_while  # `while (i := i + 1) < n: ...`, read after the loop
        # `(k := KS.get(n))` inside `kernel = [...]`: the walrus's own value, not the statement's
        return interp.ev(b.value, here, env, model)
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        after_while = simple_loops.value_after(interp, b, use, env, model)
        if after_while is not None:
            return after_while  # `while M % bm: bm //= 2`, read after the loop
    if isinstance(stmt, ast.Assign):
        iterations = flow.per_iteration(interp, b, env, model)
        return iterations if iterations is not None else assigned_by(interp, b, stmt, env, model)
    if isinstance(stmt, ast.AnnAssign):
        return interp.ev(stmt.value, here, env, model) if stmt.value is not None else U
    if isinstance(stmt, ast.AugAssign):
        after_loop = flow.accumulated(interp, b, use, env, model)
        if after_loop is not None:
            return after_loop
        before = lookup(interp, b.name, here, model)
        old = union(binding_value(interp, x, env, model) for x in before if x is not b) if before else U
        if _outer_name(b) and not any(env.get(x) is not None for x in before):
            old = old | U  # `nonlocal n; n += 1`: what earlier calls added is not known (cells.py follows some)
        new = interp.ev(stmt.value, here, env, model)
        return interp.binary(stmt.op, old, new, stmt, here)  # `i += 1` of 0 is 1
    if isinstance(stmt, ast.For) and _read_after(use, stmt, b):
        after = simple_loops.target_after(interp, stmt, b, env, model)  # `for i, f in ...: if ...: break`
        if after is not None:
            return after
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        path = path_to(stmt.target, b.node)
        if path is None:
            return U
        left = flow.remaining_elements(interp, stmt.iter, here, env, model)  # `for x in it` after `next(it)`
        iterated = frozenset({left}) if left is not None else interp.ev(stmt.iter, here, env, model)
        return destructure(operations.iterate(interp, iterated), path)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            path = path_to(item.optional_vars, b.node) if item.optional_vars is not None else None
            if path is not None:
                return destructure(operations.entered(interp, interp.ev(item.context_expr, here, env, model)), path)
        return U
    if b.value is not None:  # walrus
        return interp.ev(b.value, here, env, model)
    return U


def _read_after(use: Loc | None, loop: ast.For, b: Binding) -> bool:
    """Whether `use` reads `b` in its own scope after the loop."""
    return use is not None and use.scope is b.scope and getattr(use.stmt, "lineno", 0) > (loop.end_lineno or 0)


def _outer_name(b: Binding) -> bool:
    """A function's store of a name of an enclosing scope (`global` or `nonlocal`)."""
    return b.scope.kind != "module" and (b.name in b.scope.nonlocal_names or b.name in b.scope.global_names)


def assigned_by(interp: Interpreter, b: Binding, stmt: ast.Assign, env: Env, model: ModuleModel) -> frozenset[Value]:
    """What `stmt` (`a = b = value`, `x, y = value`) binds to `b`'s name, evaluated in `env`."""
    for target in stmt.targets:
        path = path_to(target, b.node)
        if path is not None:
            value = interp.ev(stmt.value, Loc(b.scope, stmt), env, model)
            if path and not all(isinstance(v, (Seq, Array)) for v in value):
                # `a, b = pair()`: a generator (an instance's `__iter__`) unpacked in order
                value = frozenset({seq}) if (seq := operations.unpacked(interp, value)) is not None else value
            return destructure(value, path)
    return U


def run_statement(interp: Interpreter, stmt: ast.stmt, loc: Loc, model: ModuleModel, env: Env = EMPTY_ENV) -> None:
    """Evaluate what a module-level statement does when the module is imported, for the heap:
    its imports load their modules, decorators and class statements run, calls are made (in
    `env`: one iteration of a loop around it)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            name = alias.asname or alias.name.split(".")[0]
            for b in model.module_scope.bindings.get(name, []):
                if b.stmt is stmt and b.kind == "import" and b.qualname:
                    binding_value(interp, b, EMPTY_ENV, model)
            if isinstance(stmt, ast.Import) and "." in alias.name and alias.asname is None:
                import_value(interp, alias.name, model)  # `import pkg.mod` runs pkg.mod, binds pkg
        return
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _run_decorators(interp, stmt, model)
        return
    if isinstance(stmt, ast.ClassDef):
        for inner in stmt.body:
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _run_decorators(interp, inner, model)
        classes.create_class(interp, stmt, model)
        return
    if isinstance(stmt, (ast.With, ast.AsyncWith)):  # `with using("copy"):` enters the manager, then leaves it
        for item in stmt.items:
            managers = interp.ev(item.context_expr, loc, env, model)
            operations.entered(interp, managers)
            for manager in managers:
                operations.call_method(interp, manager, "__exit__", [NONE_SET] * 3)
        return
    for node in ast.iter_child_nodes(stmt):
        if isinstance(node, ast.expr) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
            interp.ev(node, loc, env, model)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        _run_called_body(interp, stmt.value, loc, env, model)  # `setup()`: the calls it makes run too


def _run_called_body(interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> None:
    """A call statement of a project function: the calls its body makes as statements run, for
    the heap (`def setup(): register(bump)`, then `setup()` at import), as a decorator's do."""
    targets = [t for t in interp.ev(call.func, loc, env, model) if isinstance(t, Func)]
    arguments = calls.plain_arguments(interp, call, loc, env, model) if targets else None
    if arguments is None:
        return
    for target in targets:
        bound = calls.bind_arguments(interp, target, *arguments)
        if bound is not None:
            run_calls_in(interp, target, bound)


def _run_decorators(interp: Interpreter, node: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel) -> None:
    """A def's decorators run at import with the function: record each call for the heap and
    run the calls its body makes (`REG[name] = fn`, `_register(name, fn)`), without working out
    what it returns (a module of a hundred `@register_lowering_rule(...)` defs would otherwise
    summarise each wrapper)."""
    function: frozenset[Value] = frozenset({Func(node, model, EMPTY_ENV)})
    where = model.loc(node)
    for decorator in node.decorator_list:
        for d in interp.ev(decorator, where, EMPTY_ENV, model):
            target, args = (
                (d.func, [frozenset({d.receiver}), function]) if isinstance(d, BoundMethod) else (d, [function])
            )
            if not isinstance(target, Func):
                continue
            env = calls.bind_arguments(interp, target, args, [])
            if env is not None:
                interp.heap.called(target.node, env)
                run_calls_in(interp, target, env)


def run_calls_in(interp: Interpreter, func: Func, env: Env) -> None:
    """Evaluate the calls a function body makes as statements (for what they store on the heap),
    once per environment."""
    key = ("ran", id(func.node), env)
    if key in interp._memo or interp._call_depth >= MAX_CALL_DEPTH or isinstance(func.node, ast.Lambda):
        return
    interp._memo[key] = NONE_SET
    scope = func.model.function_scope(func.node)
    interp._call_depth += 1
    try:
        for stmt in own_statements(func.node.body):
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                interp.ev(stmt.value, Loc(scope, stmt), env, func.model)
                _run_called_body(interp, stmt.value, Loc(scope, stmt), env, func.model)
    finally:
        interp._call_depth -= 1


def import_value(interp: Interpreter, dotted: str, model: ModuleModel) -> frozenset[Value]:
    if not dotted:
        return U
    if not dotted.startswith("."):
        root = dotted.split(".", 1)[0]
        if root in EXTERNAL_ROOTS:
            return frozenset({library.external(dotted)})
    target = interp.loader.module(model, dotted)
    if target is None:
        if model is interp.model:
            interp.imports_not_found.add(dotted)
        return frozenset({library.external(dotted)}) if not dotted.startswith(".") else U
    mod, rest = target
    interp.loaded[id(mod)] = mod
    _load_packages_around(interp, dotted, model)
    values: frozenset[Value] = frozenset({Module(mod)})
    for attr in rest:
        values = union(operations.attribute(interp, v, attr, model) for v in values)
    return values


def _load_packages_around(interp: Interpreter, dotted: str, model: ModuleModel) -> None:
    """`from pkg.ops import pick` runs `pkg/__init__.py` first: the packages of an absolute import
    are loaded too (their import-time code may store into the objects read: `SETTINGS.fast = True`)."""
    if dotted.startswith("."):
        return  # the importer's own package ran before it
    key = ("packages around", id(model), dotted)
    if key in interp._memo:  # noqa: SLF001  (each import is read many times: resolved once)
        return
    interp._memo[key] = frozenset()  # noqa: SLF001
    parts = dotted.split(".")[:-1]
    for end in range(1, len(parts) + 1):
        package = interp.loader.module(model, ".".join(parts[:end]))
        if package is None or package[1] or interp.loader.from_environment(package[0]):
            return
        interp.loaded.setdefault(id(package[0]), package[0])


def module_attribute(interp: Interpreter, mod: ModuleModel, name: str) -> frozenset[Value]:
    key = ("modattr", id(mod), name)
    cached = interp._memo.get(key)
    if cached is not None:
        return cached
    if key in interp._active:
        return U
    interp._active.add(key)
    try:
        # What the module's code left, and what its functions' `global` stores may have put there
        # since (`def enable(): global FAST; FAST = True`, called by any importer).
        at_end = mod.reaching(mod.module_scope.bindings.get(name, []), None) + mod.global_stores(name)
        bindings = flow.live(interp, at_end, None, EMPTY_ENV, mod)
        if bindings:
            values = union(binding_value(interp, b, EMPTY_ENV, mod) for b in bindings)
            entries = frozenset(v for v in values if isinstance(v, Entry))
            result = entries or values
        else:
            result = unbound_name(interp, name, mod)
            if result == U:
                sub = interp.loader.module(mod, "." + name) if _is_package(interp.loader.path_of(mod)) else None
                if sub is not None and not sub[1]:
                    interp.loaded[id(sub[0])] = sub[0]
                    result = frozenset({Module(sub[0])})
            if result == U and "__getattr__" in mod.module_scope.bindings:
                result = _module_getattr(interp, mod, name)
    finally:
        interp._active.discard(key)
    interp._memo[key] = result
    return result


def _match_capture(interp: Interpreter, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value]:
    """A name a `match` pattern captures: the part of the subject the pattern takes it from."""
    match = cast(ast.Match, b.stmt)
    subject = interp.ev(match.subject, Loc(b.scope, match), env, model)
    found = [_captured(interp, case.pattern, subject, b.node, model) for case in match.cases]
    return union(values for values in found if values is not None) or U


def _captured(
    interp: Interpreter, pattern: ast.AST, values: frozenset[Value], target: ast.AST, model: ModuleModel
) -> frozenset[Value] | None:
    """What `target` (a capture inside `pattern`) binds when `pattern` matches one of `values`;
    None when `target` is not in `pattern`."""
    if pattern is target:
        return values if isinstance(pattern, ast.MatchAs) else U  # `*rest`, `**rest`: containers
    if not any(node is target for node in ast.walk(pattern)):
        return None
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _captured(interp, pattern.pattern, values, target, model)
    if isinstance(pattern, ast.MatchOr):
        found = [_captured(interp, p, values, target, model) for p in pattern.patterns]
        return union(f for f in found if f is not None)
    if isinstance(pattern, ast.MatchMapping):
        for key, sub in zip(pattern.keys, pattern.patterns, strict=True):
            if any(node is target for node in ast.walk(sub)):
                index = interp.ev(key, Loc(model.module_scope, None), EMPTY_ENV, model)  # a constant, `Op.ADD`
                items = union(operations.subscript(interp, v, index) for v in values)
                return _captured(interp, sub, items, target, model)
    if isinstance(pattern, ast.MatchSequence):
        star = next((i for i, p in enumerate(pattern.patterns) if isinstance(p, ast.MatchStar)), None)
        for position, sub in enumerate(pattern.patterns):
            if position == star:
                if sub is target:
                    return U  # `*rest`: a list
                continue
            if any(node is target for node in ast.walk(sub)):
                at = position if star is None or position < star else position - len(pattern.patterns)
                items = union(operations.subscript(interp, v, frozenset({Const(at)})) for v in values)
                return _captured(interp, sub, items, target, model)
    if isinstance(pattern, ast.MatchClass) and pattern.patterns and patterns.matches_itself(pattern):
        return _captured(interp, pattern.patterns[0], values, target, model)  # `case int(n):` binds the subject
    if isinstance(pattern, ast.MatchClass):
        for attr, sub in zip(pattern.kwd_attrs, pattern.kwd_patterns, strict=True):
            if any(node is target for node in ast.walk(sub)):
                attributes = union(operations.attribute(interp, v, attr, model) for v in values)
                return _captured(interp, sub, attributes, target, model)
    return U


def _module_getattr(interp: Interpreter, mod: ModuleModel, name: str) -> frozenset[Value]:
    """A name the module does not bind, read through its `__getattr__(name)` (PEP 562)."""
    hooks = union(
        binding_value(interp, b, EMPTY_ENV, mod)
        for b in mod.reaching(mod.module_scope.bindings.get("__getattr__", []), None)
    )
    found = union(
        calls.apply(interp, hook, [frozenset({Const(name)})], [], None, None, EMPTY_ENV, mod) for hook in hooks
    )
    return found or U


def destructure(values: frozenset[Value], path: list[Any]) -> frozenset[Value]:
    for step in path:
        out: set[Any] = set()
        for v in values:
            if step[0] == "star":
                out.add(_starred_part(v, step[1], step[2]) if isinstance(v, Seq) else UNKNOWN)
            elif isinstance(v, Seq):
                if v.elts is not None and step[0] == "front":
                    out |= v.elts[step[1]] if step[1] < len(v.elts) else {UNKNOWN}
                elif v.elts is not None and step[0] == "back":
                    out |= v.elts[-step[1]] if step[1] <= len(v.elts) else {UNKNOWN}
                elif v.elts is not None:
                    out |= v.elts[step[0]] if len(v.elts) == step[1] else {UNKNOWN}
                else:
                    out |= v.all_members()
            elif isinstance(v, Array):
                out.add(v)
            else:
                out.add(UNKNOWN)
        values = frozenset(out)
    return values


def _starred_part(seq: Seq, before: int, after: int) -> Value:
    """What a starred target (`first, *rest = xs`) binds: a list of the elements between the
    `before` targets and the `after` ones (from a sequence too short, the assignment fails)."""
    if seq.elts is None:
        return Seq("list", None, seq.all_members())
    if len(seq.elts) < before + after:
        return UNKNOWN
    return Seq("list", seq.elts[before : len(seq.elts) - after])


def path_to(target: ast.AST, name_node: ast.AST) -> list[Any] | None:
    """Where `name_node` sits in an assignment target: [] for the whole, [(index, length), ...];
    beside a starred target an element counts from the front or the back, and the starred one is
    ("star", targets before it, targets after it)."""
    if target is name_node:
        return []
    if isinstance(target, (ast.Tuple, ast.List)):
        starred = any(isinstance(e, ast.Starred) for e in target.elts)
        for index, element in enumerate(target.elts):
            inner = element.value if isinstance(element, ast.Starred) else element
            sub = path_to(inner, name_node)
            if sub is not None:
                if starred:  # `first, *rest = xs`: an element counted from the front or the back
                    star = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred))
                    if index == star:  # a list of what the other targets leave
                        return [("star", star, len(target.elts) - star - 1), *sub]
                    step = ("front", index) if index < star else ("back", len(target.elts) - index)
                    return [step, *sub]
                return [(index, len(target.elts)), *sub]
    return None


def position(node: ast.AST | None) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _import_base(node: ast.ImportFrom) -> str:
    return "." * (node.level or 0) + (node.module or "")


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def statements_under(stmt: ast.stmt) -> Iterator[ast.AST]:
    """`stmt` and every statement nested in it (defs and classes included), never descending into
    expressions, which hold no statements: a tenth of `ast.walk`'s nodes on a test class of a
    thousand lines, walked for its `self.x = ...` (`self_assignments`)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for name in _STATEMENT_LISTS:
            stack.extend(reversed(getattr(node, name, None) or ()))


def own_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a body and of its blocks, not of the defs and classes in it."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in _STATEMENT_LISTS:
            inner = getattr(stmt, name, None)
            if inner:
                yield from own_statements([s for s in inner if isinstance(s, ast.stmt)])
        for handler in getattr(stmt, "handlers", ()):
            yield from own_statements(handler.body)


def _module_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements that run at module level: the body, and the blocks of its if / try / with."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try, ast.With)) or (
            sys.version_info >= (3, 11) and isinstance(stmt, ast.TryStar)
        ):
            children: list[Any] = list(getattr(stmt, "body", []))
            children += list(getattr(stmt, "orelse", []))
            for handler in getattr(stmt, "handlers", []):
                children += handler.body
            children += list(getattr(stmt, "finalbody", []))
            stack.extend(reversed(children))


def _exported(mod: ModuleModel, name: str) -> bool:
    """Does `from mod import *` bring `name`?  `__all__` when the module lists it, else public names."""
    bindings = mod.module_scope.bindings.get("__all__")
    if bindings:
        value = bindings[-1].value
        if isinstance(value, (ast.List, ast.Tuple)):
            return any(isinstance(e, ast.Constant) and e.value == name for e in value.elts)
    return not name.startswith("_") and (
        name in mod.module_scope.bindings
        or bool(
            [
                s
                for s in _module_level_statements(mod.tree.body)
                if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)
            ]
        )
    )


def _is_package(path: str | None) -> bool:
    return bool(path) and path.endswith("__init__.py")  # type: ignore[union-attr]  # bool(path) ruled None out


def _default_of(function: ast.AST, b: Binding) -> ast.expr | None:
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return None
    args = function.args
    positional = positional_args(function)
    if b.param_index is not None:
        first_default = len(positional) - len(args.defaults)
        if b.param_index >= first_default:
            return args.defaults[b.param_index - first_default]
        return None
    for param, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if param.arg == b.name:
            return default
    return None


def param_binding(func: Func, name: str) -> Binding | None:
    scope = func.model.scope_of_function.get(id(func.node))
    if scope is None:
        return None
    for b in scope.bindings.get(name, []):
        if b.kind == "param":
            return b
    return None
