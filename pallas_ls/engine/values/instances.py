"""What an instance's attributes are: what its class's methods store on `self` (`__init__` first,
`__post_init__` in order, stores after construction from the heap), then its class's attributes
through the MRO (`operations.class_attribute`), then `__getattr__`."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from ..model import Binding, Loc, Scope, positional_args
from . import bindings, calls, classes, flow, operations, ref_identity
from .domain import (
    EMPTY_ENV,
    BoundMethod,
    Class,
    Const,
    DictV,
    External,
    Func,
    Instance,
    Namespace,
    Partial,
    Seq,
    U,
    Value,
    Wrapped,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter


def instance_attribute(interp: Interpreter, inst: Instance, attr: str) -> frozenset[Value]:
    hooked = _through_getattribute(interp, inst, attr)
    if hooked is not None:
        return hooked
    if attr in inst.deleted:
        return operations.class_attribute(interp, inst.cls, attr, inst)  # `del op.kernel`: the class's
    for name, value in inst.fields:
        if name == attr and inst.exact:
            return value  # as the straight-line code after the construction left it
        if name == attr:
            return _after_post_init(interp, inst, attr, value) | interp.heap.attribute(inst, attr)
    assigned = self_assignments(interp, inst.cls).get(attr, [])
    values: set[Any] = set()
    for expr, method, self_binding, stmt in assigned:
        if method.name == "__set_name__":
            continue  # run by class creation only: its stores are the heap's (`_descriptor_get`)
        env = inst.init_env if (inst.init_env is not None and method.name == "__init__") else EMPTY_ENV
        env = env.extended([(self_binding, frozenset({inst}))])
        if expr is None:
            values |= U  # an augmented store
            continue
        made = interp.ev(expr, Loc(inst.cls.model.function_scope(method), stmt), env, inst.cls.model)
        values |= ref_identity.made_for_instance(made, env, inst, method)
    if attr == "__class__":
        return frozenset({inst.cls})
    if attr == "__dict__":
        return frozenset({Namespace(inst)})
    if attr == "_replace" and not values and classes.named_tuple_fields(inst.cls) is not None:
        # `cfg._replace(kernel=k)` of a typing.NamedTuple: `dataclasses.replace` reads the same
        return frozenset({Partial(External("dataclasses.replace"), (frozenset({inst}),), ())})
    if attr == "_asdict" and not values and classes.named_tuple_fields(inst.cls) is not None:
        # `cfg._asdict()`: its fields in order, as `dataclasses.asdict` reads a dataclass's
        return frozenset({Partial(External("dataclasses.asdict"), (frozenset({inst}),), ())})
    if not (values and _init_surely_stores(interp, inst, assigned) and _shadowed_by_instance(interp, inst.cls, attr)):
        values |= operations.class_attribute(interp, inst.cls, attr, inst)
    if not operations.is_property(interp, inst.cls, attr):  # a store of a property runs its setter
        values |= interp.heap.attribute(inst, attr)  # `obj.attr = v`, `setattr(obj, name, v)`
        values |= interp.heap.self_stores(inst, attr)  # `interp.attr = v` as methods ran on it
    if not values and not attr.startswith("__"):
        # `__getattr__(self, name)`: called for an attribute found nowhere else.
        hooks = operations.class_attribute(interp, inst.cls, "__getattr__", inst)
        values |= union(
            calls.apply(interp, h, [frozenset({Const(attr)})], [], None, None, EMPTY_ENV, inst.cls.model) for h in hooks
        )
    if not values:
        # inherited interp.x from a base class body's methods
        for base in inst.cls.node.bases:
            for base_value in interp.ev(base, inst.cls.model.loc(inst.cls.node), EMPTY_ENV, inst.cls.model):
                if isinstance(base_value, Class):
                    values |= instance_attribute(interp, Instance(base_value, None, inst.fields), attr)
    return frozenset(values) if values else U


def _through_getattribute(interp: Interpreter, inst: Instance, attr: str) -> frozenset[Value] | None:
    """`obj.name` of a class whose own `__getattribute__` (the program's) answers every attribute
    read: that method called with the name.  None when no class of the program defines one."""
    if attr.startswith("__") or not any(_defines_getattribute(model) for model in interp.models()):
        return None
    hooks = operations.class_attribute(interp, inst.cls, "__getattribute__", inst)
    if not hooks or not all(isinstance(h, BoundMethod) and isinstance(h.func, Func) for h in hooks):
        return None
    return union(
        calls.apply(interp, h, [frozenset({Const(attr)})], [], None, None, EMPTY_ENV, inst.cls.model) for h in hooks
    )


def _defines_getattribute(model: Any) -> bool:
    """Whether a def named `__getattribute__` is in the module (indexed once per model)."""
    found = getattr(model, "_pallas_ls_defines_getattribute", None)
    if found is None:
        found = any(getattr(f, "name", None) == "__getattribute__" for f in model.functions)
        model._pallas_ls_defines_getattribute = found
    return bool(found)


def _init_surely_stores(interp: Interpreter, inst: Instance, assigned: list[Any]) -> bool:
    """Whether the `__init__` the instance's class runs surely stores the attribute (`self.k = v`
    in its body, or in `if`s decided its way)."""
    inits = operations.class_attribute(interp, inst.cls, "__init__", inst)
    runs = {id(v.func.node) for v in inits if isinstance(v, BoundMethod) and isinstance(v.func, Func)}
    if len(runs) != 1 or len(inits) != 1:
        return False
    for _, method, self_binding, stmt in assigned:
        if id(method) in runs:
            scope = inst.cls.model.function_scope(method)
            env = (inst.init_env or EMPTY_ENV).extended([(self_binding, frozenset({inst}))])
            if flow.statement_runs(interp, method, stmt, scope, env, inst.cls.model)[1]:
                return True
    return False


def _shadowed_by_instance(interp: Interpreter, cls: Class, attr: str) -> bool:
    """Whether a class attribute is hidden by an instance's own (it is no data descriptor: a
    function, a static or class method, a constant or container; a `property` or an object of a
    class, which may define `__set__`, wins over the instance's dict)."""
    raw = operations.class_attribute(interp, cls, attr, None)
    return all(
        isinstance(v, (Func, Const, Seq, DictV, Class)) or (isinstance(v, Wrapped) and v.kind in ("static", "class"))
        for v in raw
    )


def _after_post_init(interp: Interpreter, inst: Instance, attr: str, value: frozenset[Value]) -> frozenset[Value]:
    """A dataclass field as `__post_init__` leaves it: its stores `self.attr = v`, in order, each
    replacing the value when it surely runs (in the body, or in `if`s decided its way:
    `if self.dst is None: self.dst = self.src`) and joining it when it may.  The field read in
    `__post_init__` itself, by a test before its stores, is the constructor's value."""
    stores = [a for a in self_assignments(interp, inst.cls).get(attr, []) if a[1].name == "__post_init__"]
    key = ("post-init", inst, attr)
    if not stores or key in interp._active:
        return value
    interp._active.add(key)
    try:
        model = inst.cls.model
        for expr, method, self_binding, stmt in sorted(stores, key=lambda a: (a[3].lineno, a[3].col_offset)):
            scope = model.function_scope(method)
            env = EMPTY_ENV.extended([(self_binding, frozenset({inst})), *_init_vars(inst, method, scope)])
            may, surely = flow.statement_runs(interp, method, stmt, scope, env, model)
            if not may:
                continue
            if expr is None:
                return value | U  # `self.n += 1` in `__post_init__`: not followed
            made = ref_identity.made_for_instance(interp.ev(expr, Loc(scope, stmt), env, model), env, inst, method)
            value = made if surely else value | made
    finally:
        interp._active.discard(key)
    return value


def _init_vars(inst: Instance, method: ast.FunctionDef, scope: Scope) -> list[tuple[Binding, frozenset[Value]]]:
    """`__post_init__(self, fast)` receives the dataclass's `InitVar` fields, in order, as the
    constructor was given them (`fast: InitVar[bool]`, then `Spec(True)`)."""
    declared = [
        s.target.id
        for s in inst.cls.node.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and _is_init_var(s.annotation)
    ]
    given = dict(inst.fields)
    pairs = []
    for param, name in zip(positional_args(method)[1:], declared, strict=False):
        binding = next((b for b in scope.bindings.get(param.arg, []) if b.kind == "param"), None)
        if binding is not None and name in given:
            pairs.append((binding, given[name]))
    return pairs


def _is_init_var(annotation: ast.expr) -> bool:
    """`InitVar[bool]` or `dataclasses.InitVar[bool]`, by name."""
    target = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return (isinstance(target, ast.Name) and target.id == "InitVar") or (
        isinstance(target, ast.Attribute) and target.attr == "InitVar"
    )


def self_assignments(interp: Interpreter, cls: Class) -> dict[str, list[Any]]:
    """`self.attr = value` in the methods of a class: attr -> [(value, method, self's binding, stmt)];
    the value None for `self.attr += v`."""
    cached = interp._instance_attrs.get(id(cls.node))
    if cached is not None:
        return cached
    # Kept on the class node too, for the next versions of an edited document while its block
    # is unchanged (a test class of a thousand lines is walked once, not on every keystroke).
    # Valid for the scopes it was found with: a model built anew over the same tree has others.
    class_scope = cls.model.scope_of_function.get(id(cls.node))
    kept: tuple[Scope, dict[str, list[Any]]] | None = getattr(cls.node, "_pallas_ls_self_assignments", None)
    if kept is not None and kept[0] is class_scope and class_scope is not None:
        interp._instance_attrs[id(cls.node)] = kept[1]
        return kept[1]
    found: dict[str, list[Any]] = {}
    for stmt in cls.node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = positional_args(stmt)
        if not params:
            continue
        self_name = params[0].arg
        scope = cls.model.scope_of_function.get(id(stmt))
        if scope is None:
            continue
        self_bindings = [b for b in scope.bindings.get(self_name, []) if b.kind == "param"]
        if not self_bindings:
            continue
        for node in bindings.statements_under(stmt):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for attribute_node, part in _attribute_targets(target, node.value):
                        if isinstance(attribute_node.value, ast.Name) and attribute_node.value.id == self_name:
                            found.setdefault(attribute_node.attr, []).append((part, stmt, self_bindings[0], node))
            if isinstance(node, ast.AugAssign) and _is_self_attribute(node.target, self_name):
                # `self.n += 1`: a value computed from the old one, whenever the method runs (None:
                # not known; instance_changes follows some calls in order)
                found.setdefault(cast(ast.Attribute, node.target).attr, []).append((None, stmt, self_bindings[0], node))
            named = _set_by_name(node, self_name)
            if named is not None:  # `object.__setattr__(self, "kernel", k)` in a frozen dataclass
                found.setdefault(named[0], []).append((named[1], stmt, self_bindings[0], node))
    interp._instance_attrs[id(cls.node)] = found
    cls.node._pallas_ls_self_assignments = (class_scope, found)  # type: ignore[attr-defined]  # a cache kept on the class node
    return found


def _set_by_name(node: ast.AST, self_name: str) -> tuple[str, ast.expr] | None:
    """`setattr(self, "a", v)` / `object.__setattr__(self, "a", v)` as a statement, or
    `vars(self)["a"] = v` / `self.__dict__["a"] = v`: ("a", v)."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
        target = node.targets[0]
        key = target.slice
        if (
            _names_the_namespace_of(target.value, self_name)
            and isinstance(key, ast.Constant)
            and isinstance(key.value, str)
        ):
            return key.value, node.value
        return None
    call = node.value if isinstance(node, ast.Expr) else None
    if not isinstance(call, ast.Call) or len(call.args) != 3 or call.keywords:
        return None
    func = call.func
    by_setattr = isinstance(func, ast.Name) and func.id == "setattr"
    by_object = (
        isinstance(func, ast.Attribute)
        and func.attr == "__setattr__"
        and isinstance(func.value, ast.Name)
        and func.value.id == "object"
    )
    receiver, name, value = call.args
    if not (by_setattr or by_object) or not (isinstance(receiver, ast.Name) and receiver.id == self_name):
        return None
    if isinstance(name, ast.Constant) and isinstance(name.value, str) and not isinstance(value, ast.Starred):
        return name.value, value
    return None


def _names_the_namespace_of(expr: ast.expr, self_name: str) -> bool:
    """`vars(self)` or `self.__dict__`."""
    if isinstance(expr, ast.Attribute):
        return expr.attr == "__dict__" and isinstance(expr.value, ast.Name) and expr.value.id == self_name
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "vars"
        and len(expr.args) == 1
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id == self_name
    )


def _attribute_targets(target: ast.expr, value: ast.expr) -> Iterator[tuple[ast.Attribute, ast.expr]]:
    """The attributes an assignment target stores, each with the expression of its part of the
    value (`self.a, self.b = a, b`: `a` and `b`; of another value, `value[i]`)."""
    if isinstance(target, ast.Attribute):
        yield target, value
    elif isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in target.elts):
        parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else []
        display = len(parts) == len(target.elts) and not any(isinstance(e, ast.Starred) for e in parts)
        for index, element in enumerate(target.elts):
            if display:
                part = parts[index]
            else:  # kept with the class's stores, so the node (and what is cached by it) lasts
                part = ast.copy_location(ast.Subscript(value, ast.Constant(index), ast.Load()), value)
            yield from _attribute_targets(element, part)


def _is_self_attribute(node: ast.expr, self_name: str) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name
