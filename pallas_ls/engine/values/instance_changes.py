"""An instance as the straight-line code after its construction leaves it.

`op = Op()`, then `op.k = copy`, `op.configure("copy")` (a method whose own straight-line code
stores on `self`), `op.kernel = copy` through a property's setter: read after them in the same
block, the instance's attributes are what those stores left, in order.  The heap alone joins every
store of an attribute with the constructor's (it keeps no order), which is a wrong value here: the
valid program that reconfigures its op is flagged.  The replayed instance carries the attributes
it knows as exact fields (`Instance.exact`); the others are read as before.

Followed only where it is certain: every statement between the construction and the read that
mentions the name is such a store, such a method call, or reads an attribute; no function reads the
name as a global (a call between might change the instance); a method stores on `self` only in its
own straight-line code and calls nothing on `self`.  Anything else: the instance as the heap has it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from ..model import Binding, FunctionNode, Loc, ModuleModel, may_leave_early
from ..names import mentions
from . import bindings, calls, flow, import_order, library, models, operations, ref_identity
from .domain import EMPTY_ENV, NONE_SET, BoundMethod, Class, Const, Env, External, Func, Instance, Value, Wrapped

if TYPE_CHECKING:
    from .interpreter import Interpreter

# How many statements after its construction an instance is followed through.
MAX_STATEMENTS_FOLLOWED = 64


def as_left_before(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """The instance `b` binds as the statements between `b` and `use` leave it (see the module)."""
    inst = next(iter(value)) if len(value) == 1 else None
    if not isinstance(inst, Instance) or not inst.site or use.stmt is None or use.scope is not b.scope:
        return value
    current = _as_constructed(interp, inst) or inst
    if isinstance(b.stmt, ast.With) and getattr(use.stmt, "lineno", 0) > (b.stmt.end_lineno or 0):
        exited = _after_exit(interp, current, b, env, model)  # the block was left before the read
        if exited is None:
            return value
        current = exited
    for stmt in _statements_between(model, b, use):
        after = _after(interp, current, stmt, b, env, model)
        if after is None:
            return value
        current = after
    if current is inst or _read_as_a_global(model, b.name):
        return value  # nothing changed it; or a function may change it too, in a call between
    return frozenset({current})


def as_left_by_the_modules_run(
    interp: Interpreter, imported: Binding, value: frozenset[Value], use: Loc, reader: ModuleModel
) -> frozenset[Value] | None:
    """An instance another module made at module level, imported by `imported` (`from pkg.ops
    import OP`) and read at `use` in the reader's straight-line code: as its module's statements
    after its construction left it (`OP.configure("bump")`), then the reader's own statements on
    it, when the other modules that ran before the read (import_order) only read it.  None where
    not followed: a function of its module or of the reader names it (a call may change it), or
    a module names it other than by an imported name."""
    inst = next(iter(value)) if len(value) == 1 else None
    if not isinstance(inst, Instance) or not inst.site or use.stmt is None or use.scope is not reader.module_scope:
        return None
    found = interp.loader.module(reader, imported.qualname or "") if imported.qualname else None
    if found is None or len(found[1]) != 1 or found[0] is reader or imported.scope is not reader.module_scope:
        return None
    home, (name,) = found[0], found[1]
    created = home.module_scope.bindings.get(name, [])
    if len(created) != 1 or created[0].kind != "assign" or _read_as_a_global(home, name):
        return None
    replay = _ModulesReplay(interp, inst, created[0], imported, reader)
    if not import_order.ImportOrder(interp, replay).before(reader, use.stmt) or replay.current is None:
        return None
    return None if replay.current is inst else frozenset({replay.current})


class _ModulesReplay:
    """The instance through the statements import_order hands over (see as_left_by_the_modules_run)."""

    def __init__(self, interp: Interpreter, inst: Instance, created: Binding, imported: Binding, reader: ModuleModel):
        self.interp = interp
        self.inst = inst
        self.created = created
        self.imported = imported
        self.reader = reader
        self.current: Instance | None = None  # None until its module made it
        self.names: dict[int, set[str]] = {}  # another module -> the names it imports it as

    def enter(self, model: ModuleModel) -> bool:
        if model.module_scope is self.created.scope or model is self.reader:
            return model is not self.reader or not _read_as_a_global(model, self.imported.name)
        name = self.created.name
        if any(isinstance(n, ast.Attribute) and n.attr == name for n in ast.walk(model.tree)):
            return False  # `ops.OP.configure(...)`: not followed
        names = {
            alias.asname or alias.name
            for stmt in model.tree.body
            if isinstance(stmt, ast.ImportFrom)
            for alias in stmt.names
            if alias.name in (name, "*")
        }
        if "*" in names or any(_read_as_a_global(model, n) for n in names):
            return False
        self.names[id(model)] = names
        return True

    def statement(self, model: ModuleModel, stmt: ast.stmt) -> bool:
        if model.module_scope is self.created.scope:
            if stmt is self.created.stmt:
                self.current = self.inst
                return True
            if self.current is None or self.created.name not in _names_in(model, stmt):
                return True
            self.current = _after(self.interp, self.current, stmt, self.created, EMPTY_ENV, model)
            return self.current is not None
        if model is self.reader:
            if self.current is None or self.imported.name not in _names_in(model, stmt):
                return True
            self.current = _after(self.interp, self.current, stmt, self.imported, EMPTY_ENV, model)
            return self.current is not None
        inst = self.current or self.inst
        return all(_only_reads(self.interp, inst, stmt, n) for n in self.names.get(id(model), ()))


def _as_constructed(interp: Interpreter, inst: Instance) -> Instance | None:
    """A plain class's instance as its own `__init__` left it (`self.n = 0`): its stores on `self`,
    in order, as exact fields.  None for other classes (bases, decorators, a metaclass, a dataclass's
    fields) or an `__init__` that changes `self` any other way."""
    node = inst.cls.node
    if inst.exact or inst.fields or inst.deleted or node.bases or node.keywords or node.decorator_list:
        return None
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or not init.args.args or init.decorator_list or may_leave_early(init.body):
        return None
    method = Func(init, inst.cls.model, inst.cls.env)
    self_binding = bindings.param_binding(method, init.args.args[0].arg)
    if self_binding is None:
        return None
    run = _MethodRun(interp, method, init.args.args[0].arg, self_binding)
    constructed = run.statements(init.body, inst, inst.init_env or EMPTY_ENV)
    return constructed if constructed is not None and constructed.exact else None


def _after_exit(interp: Interpreter, inst: Instance, b: Binding, env: Env, model: ModuleModel) -> Instance | None:
    """The instance `with cm as name` bound, after the block is left: `closing(inst)` calls its
    `close()`, an instance that is its own context manager runs its `__exit__`, `nullcontext`
    does nothing; None for other managers (a generator's code after its `yield` is not followed)."""
    assert isinstance(b.stmt, ast.With)
    item = next((i for i in b.stmt.items if i.optional_vars and _is_name(i.optional_vars, b.name)), None)
    if item is None:
        return None
    managers = interp.ev(item.context_expr, Loc(b.scope, b.stmt), env, model)
    manager = next(iter(managers)) if len(managers) == 1 else None
    if not isinstance(manager, Instance):
        return None
    if manager.cls.model is models.module_model("contextlib") and manager.cls.node.name in ("closing", "nullcontext"):
        method = _method(interp, inst, "close") if manager.cls.node.name == "closing" else None
        return _ran(interp, inst, method, [], []) if method is not None else inst
    if manager.cls is inst.cls and manager.site == inst.site:
        method = _method(interp, inst, "__exit__")
        return _ran(interp, inst, method, [NONE_SET] * 3, []) if method is not None else None
    return None


def _statements_between(model: ModuleModel, b: Binding, use: Loc) -> list[ast.stmt]:
    """The statements of `b`'s block after it and before the one holding `use` that mention the
    name; empty when there are none or the use is not in that block's straight-line code."""
    body = model.tree.body if b.scope is model.module_scope else getattr(b.scope.node, "body", None)
    if not isinstance(body, list):
        return []
    start = next((i for i, stmt in enumerate(body) if stmt is b.stmt), None)
    if start is None:
        return []
    read_line = getattr(use.stmt, "lineno", 0)
    found: list[ast.stmt] = []
    for stmt in body[start + 1 : start + 1 + MAX_STATEMENTS_FOLLOWED]:
        if (getattr(stmt, "end_lineno", None) or 0) >= read_line:
            return found  # the statement holding the read
        if b.name in _names_in(model, stmt):
            found.append(stmt)
        elif library.may_import_project_code(stmt):
            return []  # a module imported here may change the instance too
    return []  # the read is further on than followed


def _names_in(model: ModuleModel, stmt: ast.stmt) -> frozenset[str]:
    """The names a statement mentions (indexed once per statement: reads ask again and again)."""
    index: dict[int, frozenset[str]] | None = getattr(model, "_pallas_ls_names_in", None)
    if index is None:
        index = {}
        model._pallas_ls_names_in = index  # type: ignore[attr-defined]
    names = index.get(id(stmt))
    if names is None:
        names = frozenset(n.id for n in ast.walk(stmt) if isinstance(n, ast.Name))
        index[id(stmt)] = names
    return names


def _after(
    interp: Interpreter, inst: Instance, stmt: ast.stmt, b: Binding, env: Env, model: ModuleModel
) -> Instance | None:
    """The instance after `stmt` runs; None when what it does to the instance is not followed."""
    where = Loc(b.scope, stmt)
    name = b.name
    if isinstance(stmt, ast.For):
        return _after_loop(interp, inst, stmt, b, env, model)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_attribute_of(stmt.targets[0], name):
        if mentions(stmt.value, name) and not _only_reads(interp, inst, stmt.value, name):
            return None
        target = stmt.targets[0]
        assert isinstance(target, ast.Attribute)
        return _stored(interp, inst, target.attr, interp.ev(stmt.value, where, env, model))
    if isinstance(stmt, ast.AugAssign) and _is_attribute_of(stmt.target, name):
        if mentions(stmt.value, name) and not _only_reads(interp, inst, stmt.value, name):
            return None
        return _augmented(interp, inst, stmt, interp.ev(stmt.value, where, env, model), where)
    if isinstance(stmt, ast.Delete) and len(stmt.targets) == 1 and _is_attribute_of(stmt.targets[0], name):
        return _deleted(interp, inst, cast(ast.Attribute, stmt.targets[0]).attr)
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if isinstance(call, ast.Call) and _is_setattr_of(call, name):
        return _set_by_setattr(interp, inst, call, name, where, env, model)
    if isinstance(call, ast.Call) and _method_name(call, name) is not None and not _mentions_in_arguments(call, name):
        method = _method(interp, inst, _method_name(call, name) or "")
        if method is None:
            return None
        arguments = calls.plain_arguments(interp, call, where, env, model)
        return _ran(interp, inst, method, *arguments) if arguments is not None else None
    return inst if _only_reads(interp, inst, stmt, name) else None


def _after_loop(
    interp: Interpreter, inst: Instance, loop: ast.For, b: Binding, env: Env, model: ModuleModel
) -> Instance | None:
    """`for name in ("bump", "copy"): op.configure(name)`: each iteration's statements in order,
    when the loop runs over a known sequence, its body always runs to its end and does not
    rebind the name."""
    if loop.orelse or any(isinstance(n, (ast.Break, ast.Continue, ast.Return)) for n in ast.walk(loop)):
        return None
    if any(isinstance(n, ast.Name) and n.id == b.name and isinstance(n.ctx, ast.Store) for n in ast.walk(loop)):
        return None
    envs = flow.loop_envs(interp, loop, b.scope, env, model)
    if envs is None:
        return None
    for iteration in envs:
        for stmt in loop.body:
            if b.name not in _names_in(model, stmt):
                continue
            after = _after(interp, inst, stmt, b, iteration, model)
            if after is None:
                return None
            inst = after
    return inst


def after_method(
    interp: Interpreter, method: BoundMethod, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> frozenset[Value] | None:
    """What `inst.method(*args)` returns when the method returns `self`: the instance after the
    method's stores on it (a fluent builder's chain); None when they are not followed."""
    inst, func = method.receiver, method.func
    if not isinstance(inst, Instance) or not inst.site or not isinstance(func, Func):
        return None
    changed = _ran(interp, inst, func, args, keywords)
    return frozenset({changed}) if changed is not None and changed != inst else None


def _set_by_setattr(
    interp: Interpreter, inst: Instance, call: ast.Call, name: str, where: Loc, env: Env, model: ModuleModel
) -> Instance | None:
    """`setattr(name, key, v)` with a key known to be one string (and a value not reading `name`)."""
    key = interp.ev(call.args[1], where, env, model)
    attr = next(iter(key)) if len(key) == 1 else None
    if not isinstance(attr, Const) or not isinstance(attr.value, str) or mentions(call.args[2], name):
        return None
    return _stored(interp, inst, attr.value, interp.ev(call.args[2], where, env, model))


def _stored(interp: Interpreter, inst: Instance, attr: str, stored: frozenset[Value]) -> Instance | None:
    """`inst.attr = stored`: a plain field, or a property's setter run; None for other descriptors
    and classes with a `__setattr__` of their own."""
    if any(not isinstance(v, External) for v in operations.class_attribute(interp, inst.cls, "__setattr__", None)):
        return None
    raw = operations.raw_class_attribute(interp, inst.cls, attr)
    if not raw:
        return _with_field(inst, attr, stored)
    if operations.is_property(interp, inst.cls, attr):
        setter = _setter(interp, inst.cls, attr)
        return _ran(interp, inst, setter, [stored], []) if setter is not None else None
    if all(isinstance(v, (Func, Const)) or (isinstance(v, Wrapped) and v.kind in ("static", "class")) for v in raw):
        return _with_field(inst, attr, stored)  # no data descriptor: the instance's own hides it
    return None


def _augmented(
    interp: Interpreter, inst: Instance, stmt: ast.AugAssign, operand: frozenset[Value], where: Loc
) -> Instance | None:
    """`inst.attr op= operand`: the attribute as the instance holds it now, combined (a plain
    field only: the store must not run a property's setter or another descriptor's)."""
    attr = cast(ast.Attribute, stmt.target).attr
    if operations.raw_class_attribute(interp, inst.cls, attr) and not _plain_class_values(interp, inst.cls, attr):
        return None
    old = operations.attribute(interp, inst, attr, inst.cls.model)
    return _stored(interp, inst, attr, interp.binary(stmt.op, old, operand, stmt, where))


def _plain_class_values(interp: Interpreter, cls: Class, attr: str) -> bool:
    return all(
        isinstance(v, (Func, Const)) or (isinstance(v, Wrapped) and v.kind in ("static", "class"))
        for v in operations.raw_class_attribute(interp, cls, attr)
    )


def receiver_of_call(
    interp: Interpreter, method: BoundMethod, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> Value | None:
    """The receiver a method call sees.  An instance whose fields straight-line code left exact
    (`op.k = copy`) holds them only until a method changes them: a method that stores on `self`
    and reads what it stored (`self.n += 1; return FNS[self.n]`) sees its own stores, which the
    instance after its run (`_ran`) holds, when every read of a stored attribute follows the
    method's last store.  None: what the method reads is not known (its result is not either)."""
    inst, func = method.receiver, method.func
    if not isinstance(inst, Instance) or not inst.exact or not isinstance(func, Func) or _changes_nothing(func.node):
        return inst
    node = func.node
    if isinstance(node, ast.Lambda) or not node.args.args:
        return inst  # a lambda stores nothing on `self`
    self_name = node.args.args[0].arg
    stores = _own_stores_on(node, self_name)
    if not stores:
        return inst  # it changes `self` only through calls or nested defs: read as the fields stand
    if not _reads_follow(node, stores, self_name):
        return None
    return _ran(interp, inst, func, args, keywords)


def _own_stores_on(node: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str) -> list[ast.Assign | ast.AugAssign]:
    """The statements of the method's own body that store an attribute of `self`."""
    return [s for s in node.body if isinstance(s, (ast.Assign, ast.AugAssign)) and _stores_on(s, self_name)]


def _reads_follow(
    node: ast.FunctionDef | ast.AsyncFunctionDef, stores: list[ast.Assign | ast.AugAssign], self_name: str
) -> bool:
    """Whether the method's reads of the attributes it stores on `self` all come after its last
    such store (the stores' own reads of the old value aside: `self.n += 1`)."""
    stored = {
        t.attr for s in stores for t in _targets(s) if isinstance(t, ast.Attribute) and _is_name(t.value, self_name)
    }
    inside = {id(n) for s in stores for n in ast.walk(s)}
    last = (stores[-1].end_lineno or 0, stores[-1].end_col_offset or 0)
    return all(
        id(n) in inside or (n.lineno, n.col_offset) > last
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute) and n.attr in stored and _is_name(n.value, self_name)
    )


def _stores_on(stmt: ast.Assign | ast.AugAssign, self_name: str) -> bool:
    return any(_is_attribute_of(t, self_name) for t in _targets(stmt))


def _targets(stmt: ast.Assign | ast.AugAssign) -> list[ast.expr]:
    return list(stmt.targets) if isinstance(stmt, ast.Assign) else [stmt.target]


def _ran(
    interp: Interpreter,
    inst: Instance,
    method: Func,
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
) -> Instance | None:
    """The instance after `method` ran on it: its stores on `self` in order (`self.attr = v`,
    `setattr(self, name, v)` of a known name, also in `for` loops over known sequences), each
    evaluated with the instance as it stood; None when it changes `self` any other way."""
    node = method.node
    if isinstance(node, ast.Lambda) or not node.args.args:
        return None
    self_name = node.args.args[0].arg
    self_binding = bindings.param_binding(method, self_name)
    bound = calls.bind_arguments(interp, method, [frozenset({inst}), *args], keywords)
    if bound is None or self_binding is None or may_leave_early(node.body):
        return None
    run = _MethodRun(interp, method, self_name, self_binding)
    return run.statements(node.body, inst, bound)


class _MethodRun:
    """One method's statements run on an instance, for what they store on `self`."""

    def __init__(self, interp: Interpreter, method: Func, self_name: str, self_binding: Binding):
        self.interp, self.method, self.self_name, self.self_binding = interp, method, self_name, self_binding
        self.scope = method.model.function_scope(method.node)

    def statements(self, body: list[ast.stmt], inst: Instance, env: Env) -> Instance | None:
        for stmt in body:
            after = self.statement(stmt, inst, env)
            if after is None:
                return None
            inst = after
        return inst

    def statement(self, stmt: ast.stmt, inst: Instance, env: Env) -> Instance | None:
        name = self.self_name
        if name not in _names_in(self.method.model, stmt):
            return inst
        env = env.extended([(self.self_binding, frozenset({inst}))])  # `self` as the statements before left it
        where = Loc(self.scope, stmt)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_attribute_of(stmt.targets[0], name):
            if _changes_self_otherwise_in(stmt.value, name):
                return None
            stored = self.interp.ev(stmt.value, where, env, self.method.model)
            # a Ref the method makes is the instance's own (two instances' are two objects)
            stored = ref_identity.made_for_instance(stored, env, inst, self.method.node)
            return _stored(self.interp, inst, cast(ast.Attribute, stmt.targets[0]).attr, stored)
        if isinstance(stmt, ast.AugAssign) and _is_attribute_of(stmt.target, name):
            if _changes_self_otherwise_in(stmt.value, name):
                return None
            return _augmented(self.interp, inst, stmt, self.interp.ev(stmt.value, where, env, self.method.model), where)
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and _is_setattr_of(call, name):  # `setattr(self, k, v)`
            return _set_by_setattr(self.interp, inst, call, name, where, env, self.method.model)
        if isinstance(stmt, ast.For) and not stmt.orelse and not mentions(stmt.iter, name):
            if any(isinstance(n, (ast.Break, ast.Continue)) for n in ast.walk(stmt)):
                return None
            envs = flow.loop_envs(self.interp, stmt, self.scope, env, self.method.model)
            for iteration in envs if envs is not None else []:
                after = self.statements(stmt.body, inst, iteration)
                if after is None:
                    return None
                inst = after
            return inst if envs is not None else None
        return None if _changes_self_otherwise_in(stmt, name) else inst


def _changes_self_otherwise_in(node: ast.AST, self_name: str) -> bool:
    """Whether a statement, expression or def may change `self` (`_changes_self_otherwise`)."""
    return any(_changes_self_otherwise(sub, node, self_name) for sub in ast.walk(node))


def _changes_self_otherwise(sub: ast.AST, method: ast.AST, self_name: str) -> bool:
    """Whether the node `sub` of `method` (a def, or a statement of one) may change `self`: a store
    on it, a method called on it, `self` handed to a call, a def that may keep it."""
    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and sub is not method:
        return mentions(sub, self_name)  # a nested def or class that may keep `self`
    if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, (ast.Store, ast.Del)):
        return _is_name(sub.value, self_name)
    if isinstance(sub, ast.Call):
        handed = [*sub.args, *(k.value for k in sub.keywords)]
        return (isinstance(sub.func, ast.Attribute) and _is_name(sub.func.value, self_name)) or any(
            _is_name(a, self_name) for a in handed
        )
    return isinstance(sub, ast.Name) and sub.id == self_name and isinstance(sub.ctx, (ast.Store, ast.Del))


def _only_reads(interp: Interpreter, inst: Instance, node: ast.AST, name: str) -> bool:
    """Whether every mention of `name` in `node` reads an attribute (`op.k`, not `op.m()` of a
    method that changes it, not `f(op)`)."""
    named = reads = 0
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == name:
            named += 1
        elif isinstance(sub, ast.Attribute) and _is_name(sub.value, name) and isinstance(sub.ctx, ast.Load):
            reads += 1
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and _is_name(sub.func.value, name):
            method = _method(interp, inst, sub.func.attr)
            if method is None or not _changes_nothing(method.node):
                return False
    return named == reads


def _changes_nothing(node: FunctionNode) -> bool:
    """Whether a method leaves `self` as it is (reads it at most)."""
    if isinstance(node, ast.Lambda) or not node.args.args:
        return False
    return not _changes_self_otherwise_in(node, node.args.args[0].arg)


def _method(interp: Interpreter, inst: Instance, attr: str) -> Func | None:
    """The one plain function the class holds as `attr` (a method that binds `self`)."""
    raw = operations.raw_class_attribute(interp, inst.cls, attr)
    only = next(iter(raw)) if len(raw) == 1 else None
    return only if isinstance(only, Func) else None


def _setter(interp: Interpreter, cls: Class, attr: str) -> Func | None:
    """The def decorated `@attr.setter` in the class body defining the property `attr`."""
    for stmt in cls.node.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == attr:
            for decorator in stmt.decorator_list:
                if (
                    isinstance(decorator, ast.Attribute)
                    and decorator.attr == "setter"
                    and _is_name(decorator.value, attr)
                ):
                    return Func(stmt, cls.model, cls.env)
    return None


def _with_field(inst: Instance, attr: str, stored: frozenset[Value]) -> Instance:
    kept = tuple((k, v) for k, v in inst.fields if k != attr)
    return Instance(
        inst.cls, inst.init_env, (*kept, (attr, stored)), inst.site, inst.copy_of, True, inst.deleted - {attr}
    )


def _deleted(interp: Interpreter, inst: Instance, attr: str) -> Instance | None:
    """`del inst.attr` of an attribute the straight-line code stored on it (a plain field, no
    `__delattr__` of its class): its reads find the class's attribute again."""
    if not any(name == attr for name, _ in inst.fields) or not inst.exact:
        return None  # an attribute `__init__` or the heap stored: which one is gone is not followed
    if any(not isinstance(v, External) for v in operations.class_attribute(interp, inst.cls, "__delattr__", None)):
        return None
    if operations.raw_class_attribute(interp, inst.cls, attr) and not all(
        isinstance(v, (Func, Const)) or (isinstance(v, Wrapped) and v.kind in ("static", "class"))
        for v in operations.raw_class_attribute(interp, inst.cls, attr)
    ):
        return None  # a property's deleter, another descriptor
    kept = tuple((k, v) for k, v in inst.fields if k != attr)
    return Instance(inst.cls, inst.init_env, kept, inst.site, inst.copy_of, True, inst.deleted | {attr})


def _read_as_a_global(model: ModuleModel, name: str) -> bool:
    """Whether a function of the module mentions `name` without binding it (the module's object,
    or an enclosing function's: either may be the instance)."""
    free: frozenset[str] | None = getattr(model, "_pallas_ls_free_in_functions", None)
    if free is None:
        found: set[str] = set()
        for function in model.functions:
            own = model.function_scope(function).bindings
            found |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and n.id not in own}
        free = frozenset(found)
        model._pallas_ls_free_in_functions = free  # type: ignore[attr-defined]
    return name in free


def _method_name(call: ast.Call, name: str) -> str | None:
    """`name.method(...)` → "method"; `name(...)` → "__call__"."""
    if isinstance(call.func, ast.Attribute) and _is_name(call.func.value, name):
        return call.func.attr
    if _is_name(call.func, name):
        return "__call__"
    return None


def _mentions_in_arguments(call: ast.Call, name: str) -> bool:
    return any(mentions(a, name) for a in [*call.args, *(k.value for k in call.keywords)])


def _is_setattr_of(call: ast.Call, name: str) -> bool:
    return _is_name(call.func, "setattr") and len(call.args) == 3 and not call.keywords and _is_name(call.args[0], name)


def _is_attribute_of(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Attribute) and _is_name(node.value, name)


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
