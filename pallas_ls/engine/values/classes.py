"""Making functions and classes: `def` with its decorators applied, `class` with class decorators,
`__init_subclass__` and metaclass `__new__` / `__init__` run for their effects, zero-argument
`super()`, and `dataclasses.replace`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from ..model import (
    FunctionNode,
    Loc,
    ModuleModel,
    Scope,
    defaulted_parameters,
    positional_args,
)
from . import bindings, calls, instances, methods, operations
from .domain import (
    EMPTY_ENV,
    NONE_SET,
    UNKNOWN,
    BoundMethod,
    Class,
    Const,
    DictV,
    Entry,
    Env,
    External,
    Factory,
    Func,
    Instance,
    Partial,
    Ref,
    Seq,
    Super,
    U,
    Unknown,
    Value,
    Wrapped,
    only_value,
    union,
    unwrapped,
)
from .models import modelled

if TYPE_CHECKING:
    from .interpreter import Interpreter


# ----------------------------------------------------------------------------- defs
def def_value(
    interp: Interpreter, node: FunctionNode, model: ModuleModel, env: Env, undecorated: frozenset[Value] | None = None
) -> frozenset[Value]:
    """A def's (or, given its `undecorated` value, a class's) value with its decorators applied
    (innermost first)."""
    if env.items and model.parent_function.get(id(node)) is None:
        # A def outside functions closes over nothing: one object however it is read, but for the
        # names its defaults read (`def k(x_ref, o_ref, mode=mode)` in a module-level loop over
        # modes: each iteration's function keeps that iteration's mode).
        env = _read_by_defaults(node, env)
    values: frozenset[Value] = undecorated or frozenset({Func(node, model, env)})
    decorators = getattr(node, "decorator_list", [])
    if not decorators:
        return values
    key = ("def", id(node), env)
    cached = interp._memo.get(key)
    if cached is not None:
        return cached
    if key in interp._active:
        return values
    interp._active.add(key)
    try:
        where = model.loc(node)
        for decorator in reversed(decorators):
            applied = interp.ev(decorator, where, env, model)
            values = union(decorate(interp, d, values, decorator, node, where, env, model) for d in applied)
    finally:
        interp._active.discard(key)
    interp._memo[key] = values
    return values


def _read_by_defaults(node: FunctionNode, env: Env) -> Env:
    """The bindings of `env` whose names a def's default values read (a class statement's: none)."""
    if not hasattr(node, "args"):
        return EMPTY_ENV
    defaults = [default for _, default, _ in defaulted_parameters(node)]
    names = {n.id for d in defaults for n in ast.walk(d) if isinstance(n, ast.Name)}
    kept = tuple((b, v) for b, v in env.items if b.name in names) if names else ()
    return Env(kept) if kept else EMPTY_ENV


def class_value(interp: Interpreter, node: ast.ClassDef, model: ModuleModel, env: Env) -> frozenset[Value]:
    """A class statement's value with its decorators applied (`@register` may return the class
    or something else; one that cannot be followed leaves the class)."""
    scope = model.scope_of_function.get(id(node))
    in_a_function = scope is not None and scope.parent is not None and scope.parent.kind == "function"
    # a class made inside a function closes over that call's names; a module-level one is one class
    cls: frozenset[Value] = frozenset({Class(node, model, env if in_a_function else EMPTY_ENV)})
    if not node.decorator_list:
        return cls
    values = def_value(interp, cast(FunctionNode, node), model, env, cls)
    return values | cls if UNKNOWN in values else values


def create_class(interp: Interpreter, node: ast.ClassDef, model: ModuleModel) -> None:
    """What a class statement runs when it executes, for the heap: its decorators, the
    `__set_name__` of the objects its body makes, its bases' `__init_subclass__`, its
    metaclass's `__new__` and `__init__`."""
    class_value(interp, node, model, EMPTY_ENV)
    cls = Class(node, model)
    _set_names(interp, cls)
    where = model.loc(node)
    keywords = [(k.arg, interp.ev(k.value, where, EMPTY_ENV, model)) for k in node.keywords if k.arg]
    hooks = [(k, v) for k, v in keywords if k != "metaclass"]
    bases = union(interp.ev(b, where, EMPTY_ENV, model) for b in node.bases)
    for base in bases:
        if isinstance(base, Class):
            # found on the base, bound to the class being made (a classmethod, implicitly)
            for hook in operations.class_attribute(interp, base, "__init_subclass__", None, owner=cls):
                calls.apply(interp, hook, [], hooks, None, None, EMPTY_ENV, model)
    metaclasses = dict(keywords).get("metaclass") or union(metaclass_of(interp, b) for b in bases)
    if not metaclasses:
        return
    namespace = class_namespace(interp, node, model)
    name = frozenset({Const(node.name)})
    base_tuple = frozenset({Seq("tuple", tuple(frozenset({b}) for b in bases))})
    for meta in metaclasses:
        if not isinstance(meta, Class):
            continue
        for method in ("__new__", "__init__"):
            receiver = frozenset({meta}) if method == "__new__" else frozenset({cls})
            for hook in operations.class_attribute(interp, meta, method, None):
                calls.apply(
                    interp, unwrapped(hook), [receiver, name, base_tuple, namespace], [], None, None, EMPTY_ENV, model
                )


def _set_names(interp: Interpreter, cls: Class) -> None:
    """`fused = Slot(bump)` in a class body: Python calls `Slot.__set_name__(slot, cls, "fused")`
    when the class is made (descriptors registering themselves under their names)."""
    model = cls.model
    for stmt in cls.node.body:
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)):
            continue  # an object made by the class body is a call's result
        names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
        for made in interp.ev(stmt.value, model.loc(stmt), EMPTY_ENV, model):
            if not isinstance(made, Instance):
                continue
            for hook in operations.class_attribute(interp, made.cls, "__set_name__", made):
                for name in names:
                    calls.apply(
                        interp, hook, [frozenset({cls}), frozenset({Const(name)})], [], None, None, EMPTY_ENV, model
                    )


# ------------------------------------------------------------------------ the MRO
_MAX_MRO_DEPTH = 8


def class_mro(interp: Interpreter, cls: Class, depth: int = 0) -> list[Value] | None:
    """`cls.__mro__` by Python's C3 linearisation (`class Both(Left, Right)` with both deriving
    from `Base`: Both, Left, Right, Base).  A base from a library stands for itself (its own
    ancestors are no class of the program).  None when a base is not one known value, or the
    bases cannot be linearised (Python would refuse the class)."""
    if depth > _MAX_MRO_DEPTH:
        return None
    if cls in interp.mros:
        return interp.mros[cls]
    where = cls.model.loc(cls.node)
    lines: list[list[Value]] = []
    bases: list[Value] = []
    for expr in cls.node.bases:
        values = interp.ev(expr, where, EMPTY_ENV, cls.model)
        if len(values) != 1:
            interp.mros[cls] = None
            return None
        (base,) = values
        if base == External("object"):
            continue
        line = class_mro(interp, base, depth + 1) if isinstance(base, Class) else [base]
        if line is None:
            interp.mros[cls] = None
            return None
        lines.append(line)
        bases.append(base)
    merged = _c3_merge([*lines, bases])
    result = None if merged is None else [cls, *merged]
    interp.mros[cls] = result
    return result


# What `dir()` lists for any class besides its own names: `object`'s attributes and the ones
# every class gets.  Read from the Python running the analysis (a few differ across versions).
_EVERY_CLASS_DIR = frozenset(dir(object)) | {"__dict__", "__module__", "__weakref__", "__doc__"}


def class_dir(interp: Interpreter, cls: Class) -> frozenset[Value]:
    """`dir(cls)`: its names and its ancestors', sorted; Unknown when an ancestor is not a class
    of the program, or the program stores attributes on one (names not all known)."""
    mro = class_mro(interp, cls)
    if mro is None or not all(isinstance(c, Class) for c in mro):
        return U
    names = set(_EVERY_CLASS_DIR)
    for klass in cast("list[Class]", mro):
        if interp.heap.attribute(klass, None):
            return U
        scope = klass.model.scope_of_function.get(id(klass.node))
        names |= set(scope.bindings) if scope is not None else set()
    return frozenset({Seq("list", tuple(frozenset({Const(n)}) for n in sorted(names)))})


def has_attribute(interp: Interpreter, obj: Value, attr: str, model: ModuleModel) -> bool | None:
    """`hasattr(obj, attr)` where it is certain, else None.  A class of the program: True when its
    names or its ancestors' (dir) hold `attr`; False when they do not, no class of its MRO has a
    metaclass, and `attr` is no attribute of `type` itself.  Any other object: True when the
    attribute reads a known value."""
    if isinstance(obj, Class):
        listed = next(iter(class_dir(interp, obj)))
        if not isinstance(listed, Seq) or listed.elts is None:
            return None
        names = {getattr(only_value(e), "value", None) for e in listed.elts}
        if attr in names:
            return True
        mro = cast("list[Class]", class_mro(interp, obj))
        metaclass = any(k.arg == "metaclass" for klass in mro for k in klass.node.keywords)
        return None if metaclass or attr in _TYPE_DIR else False
    found = operations.attribute(interp, obj, attr, model)
    return True if found and UNKNOWN not in found else None


_TYPE_DIR = frozenset(dir(type))


def _c3_merge(lines: list[list[Value]]) -> list[Value] | None:
    lines = [list(line) for line in lines if line]
    out: list[Value] = []
    while lines:
        head = next((line[0] for line in lines if not any(line[0] in other[1:] for other in lines)), None)
        if head is None:
            return None  # no consistent order
        out.append(head)
        lines = [rest for line in lines if (rest := line[1:] if line[0] == head else line)]
    return out


def metaclass_of(interp: Interpreter, base: Value, depth: int = 0) -> frozenset[Value]:
    """The metaclass a class statement inherits from a base (`class B(metaclass=M)`)."""
    if not isinstance(base, Class) or depth > 8:
        return frozenset()
    where = base.model.loc(base.node)
    for k in base.node.keywords:
        if k.arg == "metaclass":
            return interp.ev(k.value, where, EMPTY_ENV, base.model)
    return union(
        metaclass_of(interp, b, depth + 1) for e in base.node.bases for b in interp.ev(e, where, EMPTY_ENV, base.model)
    )


def class_namespace(interp: Interpreter, node: ast.ClassDef, model: ModuleModel) -> frozenset[Value]:
    """A class body's names as the dict a metaclass receives (`ns["kernel"]`)."""
    scope = model.scope_of_function.get(id(node))
    if scope is None:
        return U
    items = tuple(
        (name, union(bindings.binding_value(interp, b, EMPTY_ENV, model) for b in model.reaching(found, None)))
        for name, found in scope.bindings.items()
    )
    return frozenset({DictV(items, union(v for _, v in items))})


def decorate(
    interp: Interpreter,
    decorator: Value,
    values: frozenset[Value],
    deco_node: ast.expr,
    def_node: ast.AST,
    loc: Loc,
    env: Env,
    model: ModuleModel,
) -> frozenset[Value]:
    if isinstance(decorator, External):
        q = decorator.qualname
        if q in operations.DESCRIPTORS:
            return frozenset({Wrapped(operations.DESCRIPTORS[q], v) for v in values})
        if modelled(q) is not None:
            return calls.call_value(interp, decorator, [values], [], None)
        return values  # an unknown decorator: assume it hands the function back
    if isinstance(decorator, (Entry, Factory)) or (isinstance(decorator, Partial) and calls.entry_of(decorator)):
        if interp.on_decorator_launch is not None:
            launched = interp.on_decorator_launch(decorator, values, deco_node, def_node, loc, env, model)
            if launched is not None:
                return launched
        return U
    if isinstance(decorator, (Func, Partial, BoundMethod, Class)):
        return calls.call_value(interp, decorator, [values], [], None)
    if isinstance(decorator, Unknown):
        return values  # unresolvable: the old, pass-through reading
    if isinstance(decorator, methods.WhenDecorator):
        return NONE_SET
    if isinstance(decorator, methods.PropertyMethod):  # `@k.setter`
        return decorator.call(values)
    return U


def zero_argument_super(interp: Interpreter, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
    """Zero-argument `super()` in a method: its class, and its first parameter's value."""
    scope: Scope | None = loc.scope
    while scope is not None and scope.kind in ("comprehension", "lambda"):
        scope = scope.parent
    function = scope.function if scope is not None else None
    owner = scope.parent if scope is not None else None
    if function is None or isinstance(function, ast.Lambda) or owner is None or owner.kind != "class":
        return U
    params = positional_args(function)
    binding = bindings.param_binding(Func(function, model, env), params[0].arg) if params else None
    if binding is None:
        return U
    cls = Class(cast(ast.ClassDef, owner.node), model)
    receivers = bindings.binding_value(interp, binding, env, model)
    return frozenset(Super(cls, r) for r in receivers if isinstance(r, (Instance, Class))) or U


# Methods Python makes classmethods without a decorator.
IMPLICIT_CLASSMETHODS = frozenset({"__init_subclass__", "__class_getitem__"})


def receives_the_class(function: FunctionNode) -> bool:
    """A method whose first parameter is its class, not an instance: a `classmethod`, and
    `__init_subclass__` / `__class_getitem__`, which Python makes classmethods implicitly."""
    if isinstance(function, ast.Lambda):
        return False
    return function.name in IMPLICIT_CLASSMETHODS or "classmethod" in {
        decorator_name(d) for d in function.decorator_list
    }


def decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return decorator_name(node.func)
    return ""


def is_dataclass(node: ast.ClassDef) -> bool:
    names = {decorator_name(d) for d in node.decorator_list}
    if names & {"dataclass", "dataclasses", "struct", "frozen"}:
        return True
    return _is_named_tuple(node)


def _is_named_tuple(node: ast.ClassDef) -> bool:
    return any(decorator_name(b) == "NamedTuple" for b in node.bases)


def named_tuple_fields(cls: Class) -> tuple[str, ...] | None:
    """The fields of a `typing.NamedTuple` class in declaration order (`spec[0]` is the first),
    or None for other classes."""
    if not _is_named_tuple(cls.node):
        return None
    return tuple(
        stmt.target.id
        for stmt in cls.node.body
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and "ClassVar" not in ast.unparse(stmt.annotation)
    )


def dataclass_replaced(instances: frozenset[Value], changes: list[tuple[str, frozenset[Value]]]) -> frozenset[Value]:
    """`dataclasses.replace(obj, **changes)`: the same dataclass with those fields changed."""
    out: set[Value] = set()
    for v in instances:
        if not isinstance(v, Instance) or not is_dataclass(v.cls.node):
            return U
        fields = dict(v.fields)
        fields.update(changes)
        out.add(Instance(v.cls, v.init_env, tuple(fields.items())))
    return frozenset(out)


def _dataclass_field_declarations(cls: Class) -> list[ast.AnnAssign] | None:
    """The field declarations of a dataclass without bases or of a `typing.NamedTuple`, in order
    (ClassVars left out); None for another class (its fields not worked out here)."""
    if not is_dataclass(cls.node) or (cls.node.bases and not _is_named_tuple(cls.node)):
        return None
    return [
        stmt
        for stmt in cls.node.body
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and "ClassVar" not in ast.unparse(stmt.annotation)
        and "InitVar" not in ast.unparse(stmt.annotation)
    ]


def dataclass_fields(interp: Interpreter, values: frozenset[Value]) -> frozenset[Value]:
    """`dataclasses.fields(obj_or_cls)`: a tuple of field objects in declaration order, each with
    its `.name` and `.default` (a plain default's value; another default is not known), for a
    dataclass without bases; else Unknown."""
    out: set[Value] = set()
    for v in values:
        cls = v.cls if isinstance(v, Instance) else v
        declarations = _dataclass_field_declarations(cls) if isinstance(cls, Class) else None
        if declarations is None or not isinstance(cls, Class):
            return U
        fields = []
        for stmt in declarations:
            name = cast(ast.Name, stmt.target).id
            default = operations.attribute(interp, cls, name, cls.model) if plain_default(stmt) else U
            fields.append(frozenset({Seq("tuple", (frozenset({Const(name)}), default), names=("name", "default"))}))
        out.add(Seq("tuple", tuple(fields)))
    return frozenset(out)


def dataclass_as_dict(
    interp: Interpreter, instances: frozenset[Value], depth: int = 0, as_tuple: bool = False
) -> frozenset[Value]:
    """`dataclasses.asdict(obj)`: a dict of the fields in declaration order (a field holding a
    dataclass instance is one in turn), for a dataclass without bases; else Unknown.  With
    `as_tuple`, `dataclasses.astuple(obj)`: a tuple of the fields' values, nested ones tuples too."""
    out: set[Value] = set()
    for v in instances:
        declarations = _dataclass_field_declarations(v.cls) if isinstance(v, Instance) else None
        if declarations is None or depth > 4:
            return U
        items = []
        for stmt in declarations:
            name = cast(ast.Name, stmt.target).id
            value = operations.attribute(interp, v, name, cast(Instance, v).cls.model)
            if any(isinstance(e, Instance) and is_dataclass(e.cls.node) for e in value):
                value = dataclass_as_dict(interp, value, depth + 1, as_tuple)
            # The values are deep copies: a Ref's copy is a new Ref (which one is not followed).
            value = frozenset(UNKNOWN if isinstance(e, Ref) else e for e in value)
            items.append((name, value))
        if as_tuple:
            out.add(Seq("tuple", tuple(value for _, value in items)))
        else:
            out.add(DictV(tuple(items), union(value for _, value in items)))
    return frozenset(out)


def ordered_dataclass_key(interp: Interpreter, value: Value | None) -> frozenset[Value] | None:
    """What `<` compares for an instance of a `@dataclass(order=True)`: the tuple of its fields
    (`min(impls)`); None for other values."""
    if not isinstance(value, Instance) or not _dataclass_keyword(value.cls.node, "order"):
        return None
    return dataclass_as_dict(interp, frozenset({value}), as_tuple=True)


def _dataclass_keyword(node: ast.ClassDef, keyword: str) -> bool:
    """The dataclass decorator is given `keyword=True` (`@dataclass(order=True)`)."""
    return any(
        isinstance(d, ast.Call)
        and decorator_name(d) in ("dataclass", "dataclasses")
        and any(k.arg == keyword and isinstance(k.value, ast.Constant) and k.value.value is True for k in d.keywords)
        for d in node.decorator_list
    )


def plain_default(declaration: ast.AnnAssign) -> bool:
    """A dataclass field declared with a plain default value (not `field(...)`, not a ClassVar)."""
    if declaration.value is None or isinstance(declaration.value, ast.Call):
        return False
    annotation = ast.unparse(declaration.annotation)
    return "ClassVar" not in annotation and "InitVar" not in annotation


def instance_dict(interp: Interpreter, inst: Instance) -> DictV | None:
    """`vars(obj)` as a dict of known keys, when the instance's attributes are certain: a plain
    class (no bases, decorators or attribute hooks) whose only `self.x = v` stores are top-level
    statements of its `__init__`, each run once in order, and no other store names an attribute
    of any object.  Otherwise None (`vars(obj)[name]` still reads the attribute)."""
    node = inst.cls.node
    if node.bases or node.keywords or node.decorator_list:
        return None
    hooks = ("__slots__", "__getattr__", "__getattribute__", "__setattr__", "__dict__")
    if any(isinstance(s, (ast.FunctionDef, ast.Assign)) and _defines(s, hooks) for s in node.body):
        return None
    stores = instances.self_assignments(interp, inst.cls)
    if _attribute_stores_in(node) != len(stores):
        return None  # `self.a, self.b = ...`, `self.n += 1`, `setattr(self, ...)`: not all listed
    init_body = next((s.body for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), [])
    if any(len(sites) != 1 or sites[0][3] not in init_body for sites in stores.values()):
        return None
    if interp.heap.attribute(inst, None):
        return None  # `setattr(obj, name, v)` somewhere: more attributes than `__init__` makes
    names = sorted(stores, key=lambda attr: init_body.index(stores[attr][0][3]))
    items = tuple((attr, operations.attribute(interp, inst, attr, inst.cls.model)) for attr in names)
    return DictV(items)


def _defines(stmt: ast.FunctionDef | ast.Assign, names: tuple[str, ...]) -> bool:
    if isinstance(stmt, ast.FunctionDef):
        return stmt.name in names
    return any(isinstance(t, ast.Name) and t.id in names for t in stmt.targets)


def _attribute_stores_in(node: ast.ClassDef) -> int:
    """How many attribute stores a class body makes, in any form; a `setattr` or `__dict__` in
    it counts as many (it can store any name)."""
    count = 0
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
            count += 1
        elif (isinstance(sub, ast.Name) and sub.id in ("setattr", "vars")) or (
            isinstance(sub, ast.Attribute) and sub.attr == "__dict__"
        ):
            return -1
    return count
