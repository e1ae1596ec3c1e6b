"""Python's operations on abstract values: attribute access through the class and its bases
(methods bind; staticmethod, classmethod, property, cached_property, partialmethod; `super()`),
subscripts, iteration (lists, dicts, generators, instances with `__iter__`) and `with`.
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any, cast

from ..model import (
    Loc,
    ModuleModel,
    qualpath,
)
from ..shapes import itemsize
from . import (
    arrays,
    bindings,
    calls,
    class_namespace,
    classes,
    enums,
    generators,
    instances,
    library,
    methods,
    ref_identity,
)
from .domain import (
    EMPTY_ENV,
    NONE_SET,
    UNKNOWN,
    ApiResult,
    Array,
    BoundMethod,
    Class,
    Const,
    DictV,
    DType,
    EnumMember,
    External,
    FlagSet,
    Func,
    Generator,
    Instance,
    MadeClass,
    Module,
    Namespace,
    Opaque,
    Param,
    Partial,
    Ref,
    RefView,
    Seq,
    ShapeStruct,
    Super,
    U,
    Unknown,
    Value,
    Wrapped,
    constant_truth,
    key_of,
    key_value,
    only_value,
    single_known_seq,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter
# Decorators that make a descriptor of a function in a class body: the kind of Wrapped they make
# (a cached_property reads like a property: the function's result, computed on first access).
DESCRIPTORS = {
    "staticmethod": "static",
    "classmethod": "class",
    "property": "property",
    "functools.cached_property": "property",
}
_STATIC_ARRAY_ATTRIBUTES = frozenset(
    {"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "aval", "sharding", "weak_type"}
)


def entered(interp: Interpreter, managers: frozenset[Value]) -> frozenset[Value]:
    """What `with manager as x` binds to x: the value of the manager's `__enter__()`."""
    return union(call_method(interp, v, "__enter__", []) for v in managers)


def call_method(interp: Interpreter, receiver: Value, name: str, args: list[frozenset[Value]]) -> frozenset[Value]:
    """`receiver.name(*args)` for an instance of a class that defines it (else Unknown)."""
    return dunder_result(interp, receiver, name, args) or U


def dunder_result(interp: Interpreter, value: Value, name: str, args: list[frozenset[Value]]) -> frozenset[Value]:
    """`value.name(*args)` when `value` is an instance whose class defines `name` (the protocol
    method an operation calls: `__len__`, `__contains__`, `__index__`, `__eq__`); empty otherwise."""
    if not isinstance(value, Instance):
        return frozenset()
    methods = class_attribute(interp, value.cls, name, value)
    return union(calls.apply(interp, m, args, [], None, None, EMPTY_ENV, value.cls.model) for m in methods)


def compared_by_dunder(
    interp: Interpreter, op: ast.cmpop, left: frozenset[Value], right: frozenset[Value]
) -> bool | None:
    """`x in obj` by `obj.__contains__(x)`, `obj == y` by `obj.__eq__(y)` (and `!=`, `not in`),
    when every value on that side is an instance whose class defines the method."""
    if isinstance(op, (ast.In, ast.NotIn)):
        receivers, name, args, positive = right, "__contains__", [left], isinstance(op, ast.In)
    elif isinstance(op, (ast.Eq, ast.NotEq)):
        receivers, name, args, positive = left, "__eq__", [right], isinstance(op, ast.Eq)
    else:
        return None
    results = [dunder_result(interp, v, name, args) for v in receivers]
    if not receivers or not all(results):
        return None
    truth = truth_of(interp, union(results))
    return None if truth is None else truth is positive


def truth_of(interp: Interpreter, values: frozenset[Value]) -> bool | None:
    """`bool(value)` as Python decides it, when known: an instance by its class's `__bool__`,
    else its `__len__`, else True (a class of the program's own, every base known); any other
    value as `constant_truth` reads it."""
    return constant_truth(frozenset(_truth_value(interp, v) for v in values))


def _truth_value(interp: Interpreter, value: Value) -> Value:
    if isinstance(value, FlagSet):
        return Const(value.bits != 0)  # `if enabled & Feature.DEBUG:`
    if not isinstance(value, Instance):
        return value
    for name in ("__bool__", "__len__"):
        result = dunder_result(interp, value, name, [])
        if result:
            const = only_value(result)
            if isinstance(const, Const) and isinstance(const.value, (bool, int)):
                return Const(bool(const.value))
            return value
    mro = classes.class_mro(interp, value.cls)
    if mro is not None and all(
        isinstance(c, Class) or (isinstance(c, External) and c.qualname == "object") for c in mro
    ):
        return Const(True)  # no __bool__ or __len__ anywhere on its classes: every instance is true
    return value


# ----------------------------------------------------------------------- attributes
# The attributes every class has from `object` (`__init__`, `__eq__`, ...), for a class none of
# whose own ancestors defines them.
OBJECT_ATTRIBUTES = frozenset(dir(object)) - {"__class__", "__doc__"}


def _every_class_attribute(cls: Class, attr: str) -> frozenset[Value] | None:
    """What a class of the program holds for an attribute every class has, when neither it nor
    its ancestors define it: `__module__`, `__doc__`, `__class__`, and `object`'s methods."""
    if attr == "__module__":
        return frozenset({Opaque("str")})
    if attr == "__doc__":
        doc = ast.get_docstring(cls.node, clean=False)
        return frozenset({Const(doc)})
    if attr == "__class__" and not cls.node.keywords:
        return frozenset({External("type")})
    if attr in OBJECT_ATTRIBUTES or attr == "__weakref__":
        return frozenset({External(f"object.{attr}")})
    return None


# `globals().items()`: a module's namespace read as a dict (each name's value evaluated).
_MAPPING_VIEWS = frozenset({"items", "keys", "values", "get"})
_DICT_VIEWS = frozenset({"items", "keys", "values"})  # live: they show later stores too
# Builtins that read all of an iterable argument as they are called: a view handed to one is
# consumed at once (`names = list(TABLE.keys())` copies the keys before a later store adds one).
_CONSUMING = frozenset(
    {"list", "tuple", "sorted", "set", "frozenset", "dict", "len", "min", "max", "sum", "any", "all"}
)


def view_consumed_at_once(expr: ast.Attribute, stmt: ast.AST | None) -> bool:
    """Whether `expr` (`d.keys`, `d.values`, `d.items`) is called and its view used up where it is
    made, in `stmt` (the statement holding it): as the argument of a consuming builtin
    (`list(d.keys())`) or the iterable of a `for` or comprehension.  Only a view kept (bound to
    a name) is live.  Only the statement's own expressions are looked at, not the statements
    nested in it, and only for a view's attribute: a module's other reads cost nothing."""
    if expr.attr not in _DICT_VIEWS or stmt is None:
        return False
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        consumed: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONSUMING:
            consumed = node.args[:1]
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            consumed = [node.iter]
        if any(isinstance(e, ast.Call) and not e.args and e.func is expr for e in consumed):
            return True
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, ast.stmt))
    return False


_MAX_NAMES_LISTED = 500


def attribute(
    interp: Interpreter, value: Value, attr: str, model: ModuleModel, consumed_at_once: bool = False
) -> frozenset[Value]:
    """`value.attr`; `consumed_at_once`: a dict view used up where it is made (see
    view_consumed_at_once), which shows the dict as it is then, not as later stores leave it."""
    if isinstance(value, External):
        return frozenset({library.external(f"{value.qualname}.{attr}")})
    if isinstance(value, Module):
        # What the module's code left, and what other modules store on it (`config.FAST = True`)
        return bindings.module_attribute(interp, value.model, attr) | interp.heap.attribute(value, attr)
    if isinstance(value, Namespace) and isinstance(value.obj, Module) and attr in _MAPPING_VIEWS:
        names = list(value.obj.model.module_scope.bindings)  # in the order they are first bound
        if len(names) > _MAX_NAMES_LISTED:
            return U
        items = tuple((n, bindings.module_attribute(interp, value.obj.model, n)) for n in names)
        return frozenset({methods.DictMethod(DictV(items, union(v for _, v in items)), attr)})
    if isinstance(value, Namespace) and isinstance(value.obj, Class) and attr in _MAPPING_VIEWS:
        return _class_dict_view(interp, value.obj, attr)
    if isinstance(value, Super):
        return _super_attribute(interp, value, attr)
    if isinstance(value, Instance):
        return instances.instance_attribute(interp, value, attr)
    if isinstance(value, (Class, methods.TupleClass)) and attr == "_fields":
        fields = value.fields if isinstance(value, methods.TupleClass) else classes.named_tuple_fields(value)
        if fields is not None:  # `Impl._fields` of a namedtuple class: its field names, in order
            return frozenset({Seq("tuple", tuple(frozenset({Const(f)}) for f in fields))})
    if isinstance(value, Class):
        return class_attribute(interp, value, attr, None)
    if isinstance(value, MadeClass):
        return _made_class_attribute(interp, value, attr)
    if isinstance(value, EnumMember):
        return enums.member_attribute(interp, value, attr)
    if isinstance(value, FlagSet) and attr == "value":
        return frozenset({Const(value.bits)})
    if isinstance(value, Partial) and attr in ("func", "args", "keywords"):
        return _partial_attribute(value, attr)
    if isinstance(value, (Ref, RefView)) and attr in _STATIC_ARRAY_ATTRIBUTES:
        return frozenset({Opaque("static")})  # `y_ref.shape`: a tuple, never None
    if isinstance(value, Ref):
        return frozenset({RefView(value)}) if attr == "at" else frozenset({methods.RefMethod(attr, value)})
    if isinstance(value, RefView):
        return frozenset({methods.RefMethod(attr, value.ref)})
    if isinstance(value, Opaque) and value.kind == arrays.NUMPY_RNG:
        return frozenset({External("numpy.random." + attr)})  # `rng.normal(...)` draws as np.random.normal
    if isinstance(value, DType) and attr == "name" and value.name:
        return frozenset({Const(value.name)})  # `x.dtype.name`: "bfloat16"
    if isinstance(value, DType) and attr == "itemsize" and itemsize(value.name):
        return frozenset({Const(cast(int, itemsize(value.name)))})  # `x.dtype.itemsize`: 4
    if isinstance(value, ShapeStruct) and attr in ("shape", "dtype", "ndim", "size"):
        # `out.dtype` of a ShapeDtypeStruct: what an array of its shape and dtype says
        return _static_array_attribute(Array("jax", value.shape, value.dtype), attr)
    if isinstance(value, Array):
        if attr in _STATIC_ARRAY_ATTRIBUTES:
            return _static_array_attribute(value, attr)
        if attr == "T" and value.shape is not None:
            return frozenset({Array(value.origin, value.shape[::-1], value.dtype)})
        if attr in ("T", "mT", "real", "imag"):
            return frozenset({value})
        if attr == "at":
            return frozenset({methods.ArrayAt(value.origin)})
        return frozenset({methods.ArrayMethod(value.origin, attr, value)})
    if isinstance(value, methods.ArrayAt):
        return frozenset({methods.ArrayMethod(value.origin, "at-update")})
    if isinstance(value, DictV):
        live = attr in _DICT_VIEWS and not consumed_at_once
        return frozenset({methods.DictMethod(interp.dict_contents(value, view=live), attr)})
    if isinstance(value, Seq) and value.names is not None and attr in value.names and value.elts is not None:
        return value.elts[value.names.index(attr)]  # a namedtuple's field
    if isinstance(value, Seq):
        return frozenset({methods.SeqMethod(value, attr)})
    if isinstance(value, Const) and isinstance(value.value, str) and attr in methods.STR_METHODS:
        return frozenset({methods.ConstMethod(value.value, attr)})
    if isinstance(value, Const) and isinstance(value.value, frozenset) and attr == "pop":
        return frozenset({methods.ConstMethod(value.value, attr)})  # `(KS.keys() - {"bump"}).pop()`
    if isinstance(value, Const) and isinstance(value.value, bytes) and attr == "decode":
        return frozenset({methods.ConstMethod(value.value, attr)})  # `b"bump".decode()`
    if isinstance(value, Const) and type(value.value) is int and attr in methods.INT_METHODS:
        return frozenset({methods.ConstMethod(value.value, attr)})
    if isinstance(value, Func) and attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        wrapped = _wrapped_by_decorator(interp, value)
        if wrapped is not None:  # `functools.wraps(fn)` copied them from fn
            return union(attribute(interp, w, attr, model) for w in wrapped)
    if isinstance(value, Func) and attr == "__name__" and not isinstance(value.node, ast.Lambda):
        return frozenset({Const(value.node.name)})  # `{f.__name__: f for f in kernels}`
    if isinstance(value, Func) and attr == "__qualname__" and (path := qualpath(value.model, value.node)):
        return frozenset({Const(path)})  # `f.__qualname__.endswith("fused")`
    if isinstance(value, Func) and attr == "__wrapped__":
        wrapped = _wrapped_by_decorator(interp, value)
        if wrapped is not None:
            return wrapped
    if isinstance(value, Func) and attr == "__annotations__" and not isinstance(value.node, ast.Lambda):
        return frozenset({_annotations(interp, value)})  # `@dispatch.register` reads the first one
    if isinstance(value, Func):  # a function's attributes: what the program stored (`op.kernel = k`)
        return interp.heap.attribute(value, attr) or U
    if isinstance(value, Wrapped) and value.kind == "property" and attr in ("setter", "getter", "deleter"):
        return frozenset({methods.PropertyMethod(value, attr)})
    if isinstance(value, Wrapped) and value.kind in ("static", "class") and attr == "__func__":
        return frozenset({value.func})  # `vars(Ops)["k"].__func__`
    if isinstance(value, Wrapped):
        return U
    if isinstance(value, Param) and value.held is not None and attr in _STATIC_ARRAY_ATTRIBUTES:
        return _static_array_attribute(value.held, attr)  # `x_ref.dtype` of the ref the launch passes
    if isinstance(value, Param):
        return frozenset({methods.ParamMethod(attr)}) if attr in library.NONE_METHODS else U
    return U


def _wrapped_by_decorator(interp: Interpreter, func: Func) -> frozenset[Value] | None:
    """`wrapper.__wrapped__` of a def decorated `@functools.wraps(fn)`: the function `fn`."""
    where = func.model.loc(func.node)
    for decorator in getattr(func.node, "decorator_list", []):
        if isinstance(decorator, ast.Call) and decorator.args:
            made_by = interp.ev(decorator.func, where, func.env, func.model)
            if made_by == frozenset({External("functools.wraps")}):
                return interp.ev(decorator.args[0], where, func.env, func.model)
    return None


def _annotations(interp: Interpreter, func: Func) -> DictV:
    """`func.__annotations__`: each annotated parameter's annotation, in order, then "return";
    evaluated where the def is, as Python does (a string annotation is the type it names, as
    `typing.get_type_hints` reads it for `functools.singledispatch`)."""
    where = func.model.loc(func.node)
    arguments = func.node.args
    parameters = [*arguments.posonlyargs, *arguments.args, arguments.vararg, *arguments.kwonlyargs, arguments.kwarg]
    items = [(p.arg, p.annotation) for p in parameters if p is not None and p.annotation is not None]
    if not isinstance(func.node, ast.Lambda) and func.node.returns is not None:
        items.append(("return", func.node.returns))
    evaluated = tuple((name, _annotation_value(interp, node, where, func)) for name, node in items)
    return DictV(evaluated, union(v for _, v in evaluated))


def _annotation_value(interp: Interpreter, node: ast.expr, where: Loc, func: Func) -> frozenset[Value]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return U
    return interp.ev(node, where, func.env, func.model)


def _made_in(function: ast.AST, ref: Ref) -> bool:
    """Whether a Ref's constructor call is written in `function`'s body."""
    origin = ref_identity.ref_origin(ref)
    return isinstance(origin, ast.Call) and any(node is origin for node in ast.walk(function))


def _class_dict_view(interp: Interpreter, cls: Class, attr: str) -> frozenset[Value]:
    """`vars(Ops).items()`: the class body's names in order, as the objects the body made (a
    staticmethod object, not its function), after the `__module__` (and `__doc__`) Python puts
    first; the dunders it adds after them vary by version and are never functions.  Unknown when
    the program stores attributes on the class elsewhere too."""
    if interp.heap.attribute(cls, None):
        return U
    body = only_value(classes.class_namespace(interp, cls.node, cls.model))
    if not isinstance(body, DictV) or body.items is None:
        return U
    head: list[tuple[object, frozenset[Value]]] = [("__module__", frozenset({Opaque("str")}))]
    if ast.get_docstring(cls.node, clean=False) is not None:
        head.append(("__doc__", frozenset({Opaque("str")})))
    items = (*head, *body.items)
    return frozenset({methods.DictMethod(DictV(items, union(v for _, v in items)), attr)})


def _class_keys(interp: Interpreter, cls: Class) -> Seq | None:
    """The names of a class's namespace, as `vars(Ops).keys()` gives them (see `_class_dict_view`)."""
    view = only_value(_class_dict_view(interp, cls, "keys"))
    keys = only_value(view.call([])) if isinstance(view, methods.DictMethod) else None
    return keys if isinstance(keys, Seq) else None


def _partial_attribute(p: Partial, attr: str) -> frozenset[Value]:
    """`p.func`, `p.args`, `p.keywords` of a `functools.partial` (an unknown splat hides the rest)."""
    if attr == "func":
        return frozenset({p.target})
    if p.hidden:
        return U
    if attr == "args":
        return frozenset({Seq("tuple", p.args)})
    return frozenset({DictV(tuple(p.keywords), union(v for _, v in p.keywords))})


def _made_class_attribute(interp: Interpreter, cls: MadeClass, attr: str) -> frozenset[Value]:
    """An attribute of a `type(name, bases, namespace)` class read on the class: its namespace's
    item (staticmethod and classmethod unwrapped), else its bases'."""
    found: set[Value] = set()
    for namespace in cls.namespace:
        if not isinstance(namespace, DictV):
            return U
        for v in interp.dict_contents(namespace).lookup(attr, frozenset()):
            if isinstance(v, Wrapped) and v.kind == "static":
                found.add(v.func)
            elif isinstance(v, Wrapped) and v.kind == "class":
                found.add(BoundMethod(v.func, cls))
            else:
                found.add(v)
    if found:
        return frozenset(found)
    for bases in cls.bases:
        if not isinstance(bases, Seq) or bases.elts is None:
            return U
        for base in union(bases.elts):
            inherited = attribute(interp, base, attr, interp.model)
            if inherited:
                return inherited
    return U


def _super_attribute(interp: Interpreter, sup: Super, attr: str) -> frozenset[Value]:
    """`super().attr`: looked up on the classes after the one `super()` was written in, in the MRO
    of the receiver's class (in a diamond, a sibling before the shared base); when that MRO is
    not known, on the bases of the class `super()` was written in."""
    instance = sup.receiver if isinstance(sup.receiver, Instance) else None
    receiver_class = instance.cls if instance is not None else sup.receiver
    mro = classes.class_mro(interp, receiver_class) if isinstance(receiver_class, Class) else None
    after = next((mro[i + 1 :] for i, c in enumerate(mro) if c == sup.cls), None) if mro is not None else None
    if after is not None:
        for klass in after:
            if isinstance(klass, External) and klass.qualname == "type":  # a metaclass's `super().__new__`
                return frozenset({External(f"type.{attr}")})
            if not isinstance(klass, Class) or class_namespace.own_attribute(interp, klass, attr) is None:
                continue
            found = class_attribute(interp, klass, attr, instance, owner=cast(Class, receiver_class))
            if isinstance(sup.receiver, Class):  # in a classmethod: bound to the class
                return frozenset(BoundMethod(v.func, sup.receiver) if isinstance(v, BoundMethod) else v for v in found)
            return found
        return U
    where = sup.cls.model.loc(sup.cls.node)
    for base_expr in sup.cls.node.bases:
        for base in interp.ev(base_expr, where, EMPTY_ENV, sup.cls.model):
            if isinstance(base, Class):
                found = class_attribute(interp, base, attr, instance)
                if found:
                    if isinstance(sup.receiver, Class):  # in a classmethod: bound to the class
                        return frozenset(
                            BoundMethod(v.func, sup.receiver) if isinstance(v, BoundMethod) else v for v in found
                        )
                    return found
            elif isinstance(base, External) and base.qualname == "type":  # a metaclass's `super().__new__`
                return frozenset({External(f"type.{attr}")})
    return U


def class_attribute(
    interp: Interpreter,
    cls: Class,
    attr: str,
    instance: Instance | EnumMember | None,
    depth: int = 0,
    owner: Class | None = None,
) -> frozenset[Value]:
    """`attr` looked up on a class (and its bases), bound to `instance` when given; `owner` is
    the class the lookup started from (a classmethod found on a base binds to it)."""
    owner = owner or cls
    found = class_namespace.defining_class(interp, cls, attr, depth)
    if found is None:
        if attr == "__subclasses__" and instance is None:
            return frozenset({methods.Subclasses(cls)})
        if attr == "__name__" and instance is None:
            return frozenset({Const(cls.node.name)})
        if attr == "__dict__" and instance is None:
            return frozenset({Namespace(cls)})
        if attr == "__mro__" and instance is None:  # `type(obj).__mro__[1]`: the class, then its bases
            mro = classes.class_mro(interp, cls)
            if mro is not None:
                return frozenset({Seq("tuple", (*(frozenset({c}) for c in mro), frozenset({External("object")})))})
        if instance is None and classes.class_mro(interp, cls) is not None:
            every = _every_class_attribute(cls, attr)  # `getattr(Ops, "__init__")`: object's
            if every is not None:
                return every
        if attr == "__members__" and instance is None and enums.is_enum(interp, cls):
            members = enums.members_by_name(interp, cls)  # `Mode.__members__.items()`
            return frozenset({DictV(members, union(v for _, v in members))})
        return frozenset()
    holder, values = found
    if enums.makes_members(values, attr) and enums.is_enum(interp, holder):
        return frozenset({EnumMember(holder, attr)})
    return union(bind_attribute(interp, v, instance, owner, attr) for v in values)


def is_property(interp: Interpreter, cls: Class, attr: str) -> bool:
    """Whether the class makes `attr` a property (`obj.attr = v` calls its setter, or fails: no
    store of `attr` lands on the instance)."""
    raw = raw_class_attribute(interp, cls, attr)
    return bool(raw) and all(isinstance(v, Wrapped) and v.kind == "property" for v in raw)


def raw_class_attribute(interp: Interpreter, cls: Class, attr: str) -> frozenset[Value]:
    """`attr` as the class (or the base it comes from) holds it, before any descriptor binds it."""
    found = class_namespace.defining_class(interp, cls, attr)
    return found[1] if found is not None else frozenset()


def computed_on_read(interp: Interpreter, objects: frozenset[Value], attr: str) -> bool:
    """Does reading `obj.attr` run a getter that computes the value (a property, a
    cached_property, a descriptor's `__get__` that does more than return a stored value)?  Then
    what the read gives is made at the read: inside a kernel, while JAX traces it."""
    for obj in objects:
        if isinstance(obj, Instance) and any(name == attr for name, _ in obj.fields):
            continue
        cls = obj.cls if isinstance(obj, Instance) else obj if isinstance(obj, Class) else None
        if cls is None:
            continue
        for held in raw_class_attribute(interp, cls, attr):
            if isinstance(held, Wrapped) and held.kind == "property" and isinstance(held.func, Func):
                getters: frozenset[Value] = frozenset({held.func})
            elif isinstance(held, Instance):
                getters = raw_class_attribute(interp, held.cls, "__get__")
            else:
                continue
            if any(not (isinstance(g, Func) and _returns_stored(g.node)) for g in getters):
                return True
    return False


def _returns_stored(function: ast.AST) -> bool:
    """Every `return` of the function gives a name, attribute or item read as it is stored."""
    returns = [n.value for n in ast.walk(function) if isinstance(n, ast.Return)]
    if isinstance(function, ast.Lambda):
        returns = [function.body]
    loads = (ast.Name, ast.Attribute, ast.Subscript, ast.Constant)
    return all(
        r is None or all(isinstance(n, (*loads, ast.expr_context, ast.Slice)) for n in ast.walk(r)) for r in returns
    )


def direct_subclasses(interp: Interpreter, cls: Class) -> frozenset[Value]:
    """The classes of the analysed modules that list `cls` among their bases (a subclass in a
    module not analysed is not seen: callers add Unknown)."""
    found: set[Value] = set()
    for model in interp.models():
        for scope in model.scope_of_function.values():
            node = scope.node
            if scope.kind != "class" or not isinstance(node, ast.ClassDef) or not node.bases:
                continue
            where = model.loc(node)
            if any(cls in interp.ev(base, where, EMPTY_ENV, model) for base in node.bases):
                found.add(Class(node, model))
    return frozenset(found)


def _descriptor_get(
    interp: Interpreter,
    descriptor: Instance,
    getters: frozenset[Value],
    instance: Instance | EnumMember | None,
    cls: Class,
    attr: str,
) -> frozenset[Value]:
    """`descriptor.__get__(instance, cls)`, after the `__set_name__(cls, attr)` that creating the
    class ran (called here, when the attribute is first read, so that its stores are seen)."""
    owner = frozenset({cls})
    for set_name in class_attribute(interp, descriptor.cls, "__set_name__", descriptor):
        calls.apply(interp, set_name, [owner, frozenset({Const(attr)})], [], None, None, EMPTY_ENV, cls.model)
    receiver = frozenset({instance}) if instance is not None else NONE_SET
    return union(
        calls.apply(interp, getter, [receiver, owner], [], None, None, EMPTY_ENV, cls.model) for getter in getters
    )


# ----------------------------------------------------------------------- subscripts
# A subscript whose key may be one of this many known keys reads each (more: every item).
_MAX_KEYS_READ_APART = 8


def subscript(interp: Interpreter, value: Value, index: frozenset[Value]) -> frozenset[Value]:
    if 1 < len(index) <= _MAX_KEYS_READ_APART and isinstance(value, (Seq, DictV)) and all(key_of(v)[0] for v in index):
        # `STAGES[stage]` in a loop over ("load", "store"): the items of those keys, not every item
        return union(subscript(interp, value, frozenset({v})) for v in index)
    const = next(iter(index)) if len(index) == 1 else None
    if isinstance(value, Seq) and isinstance(const, EnumMember) and enums.is_int_enum(const.cls):
        const = only_value(enums.member_attribute(interp, const, "value"))  # `KS[Mode.BUMP]` of an IntEnum
    if isinstance(value, Seq) and isinstance(const, Instance):
        const = only_value(dunder_result(interp, const, "__index__", [])) or const  # `FNS[Idx()]`
    known_key, key = key_of(const)
    if isinstance(value, Seq):
        value = interp.heap.list_contents(value)
        if value.elts is not None and isinstance(key, int):  # a bool is an int: (plain, fused)[flag]
            if -len(value.elts) <= key < len(value.elts):
                return value.elts[int(key)]
            return U
        return value.all_members() | U if value.elts is None else value.all_members()
    if isinstance(value, DictV):
        value = interp.dict_contents(value)
        if value.items is not None and known_key:
            return value.lookup(key, U if value.missing is None else value.missing)
        return value.all_values()
    if isinstance(value, RefView):
        return frozenset({value.ref})
    if isinstance(value, Ref):
        return frozenset({Array()})
    if isinstance(value, Array):
        if const == Const(Ellipsis) or value.shape is None:
            return frozenset({value})  # `x[...]`: the whole array
        return frozenset({Array(value.origin, None, value.dtype)})  # a part, of a shape not worked out
    if isinstance(value, methods.ArrayAt):
        return frozenset({methods.ArrayAt(value.origin)})
    if isinstance(value, Class):
        # `Ops["relu"]`: the metaclass's `__getitem__`, bound to the class; else `__class_getitem__`;
        # else a generic, Foo[int]
        hooks = union(
            class_attribute(interp, meta, "__getitem__", None)
            for meta in classes.metaclass_of(interp, value)
            if isinstance(meta, Class)
        )
        if hooks:
            return union(
                calls.apply(interp, h, [frozenset({value}), index], [], None, None, EMPTY_ENV, value.model)
                for h in hooks
            )
        if enums.is_enum(interp, value):  # `Mode["BUMP"]`: the member of that name (EnumMeta.__getitem__)
            members = dict(enums.members_by_name(interp, value))
            keys = [v.value for v in index if isinstance(v, Const)]
            if keys and len(keys) == len(index):
                return union(members.get(k, frozenset()) for k in keys) or U
            return union(members.values()) or U
        # else the class's own `__class_getitem__` (a classmethod implicitly: bound to the class)
        class_getitem = class_attribute(interp, value, "__class_getitem__", None)
        if class_getitem:
            return union(calls.apply(interp, h, [index], [], None, None, EMPTY_ENV, value.model) for h in class_getitem)
        return frozenset({value})
    if isinstance(value, Instance):
        fields = classes.named_tuple_fields(value.cls)
        if fields is not None:  # a typing.NamedTuple is a tuple of its fields
            if isinstance(key, int) and -len(fields) <= key < len(fields):
                return attribute(interp, value, fields[int(key)], interp.model)
            return union(attribute(interp, value, name, interp.model) for name in fields) | U
        getitem = class_attribute(interp, value.cls, "__getitem__", value)
        if getitem:
            return union(calls.apply(interp, m, [index], [], None, None, EMPTY_ENV, value.cls.model) for m in getitem)
        # A dict subclass: an item it holds (not followed: Unknown), or `__missing__`'s value.
        return call_method(interp, value, "__missing__", [index]) | U
    if isinstance(value, Namespace):  # `vars(obj)[name]`
        names = [v.value for v in index if isinstance(v, Const) and isinstance(v.value, str)]
        if names and len(names) == len(index) and isinstance(value.obj, Class):
            # the class's own namespace, as its body made it (a staticmethod object, not its function)
            return union(class_namespace.own_attribute(interp, value.obj, n) or U for n in names)
        if names and len(names) == len(index):
            return union(attribute(interp, value.obj, n, interp.model) for n in names)
        return U
    if isinstance(value, Module):  # `globals()[name]`
        names = [v.value for v in index if isinstance(v, Const) and isinstance(v.value, str)]
        if names and len(names) == len(index):
            return union(bindings.module_attribute(interp, value.model, n) for n in names)
        return U
    if isinstance(value, Param) and value.held is not None and const == Const(Ellipsis):
        return frozenset({value.held})  # `x_ref[...]`: the whole block
    if isinstance(value, Param):
        return frozenset({Array("traced", None, value.held.dtype if value.held is not None else None)})
    if isinstance(value, (Unknown, ApiResult, External, Opaque, Const)):
        return frozenset({Opaque("item")})  # indexing gives a value, of a kind we cannot tell
    return U


def iterate(interp: Interpreter, values: frozenset[Value]) -> frozenset[Value]:
    """What iterating over a value can give (the elements of a known container)."""
    out: set[Any] = set()
    for v in values:
        if isinstance(v, Seq):
            out |= interp.heap.list_contents(v).all_members()
        elif isinstance(v, DictV):
            v = interp.dict_contents(v)
            out |= {key_value(k) for k, _ in v.items} if v.items is not None else {UNKNOWN}
        elif isinstance(v, Array):
            out.add(v)
        elif isinstance(v, Namespace) and isinstance(v.obj, Class) and (keys := _class_keys(interp, v.obj)):
            out |= keys.all_members()
        elif isinstance(v, Generator):
            out |= generators.yielded(interp, v)
        elif isinstance(v, Instance) and (fields := classes.named_tuple_fields(v.cls)) is not None:
            out |= union(attribute(interp, v, name, interp.model) for name in fields)
        elif isinstance(v, Instance):
            out |= iterate(interp, call_method(interp, v, "__iter__", []))
        elif isinstance(v, Class) and enums.is_enum(interp, v):
            out |= enums.members(interp, v)
        elif (chars := _characters(v)) is not None:
            out |= {only for c in chars for only in c} or {UNKNOWN}
        elif isinstance(v, Const) and isinstance(v.value, frozenset):
            out |= {Const(e) for e in v.value} or {UNKNOWN}  # a set's elements, in an order not known
        else:
            out.add(UNKNOWN)
    return frozenset(out) if out else U


def _characters(value: Value) -> tuple[frozenset[Value], ...] | None:
    """A constant string's characters, as iterating it gives them (`for c in "ab"`), or a constant
    set's one element (`next(iter({"fast"}))`; a larger set's order is the hash's: not known);
    None for other values and long strings."""
    if isinstance(value, Const) and isinstance(value.value, str) and len(value.value) <= _MAX_ITERATED_STRING:
        return tuple(frozenset({Const(c)}) for c in value.value)
    if isinstance(value, Const) and isinstance(value.value, frozenset) and len(value.value) <= 1:
        return tuple(frozenset({Const(e)}) for e in value.value)
    return None


_MAX_ITERATED_STRING = 64


def unpacked(interp: Interpreter, values: frozenset[Value], depth: int = 0) -> Seq | None:
    """What `*x` spreads, in order, when it is known: a tuple or list of known elements, or a
    generator (an instance's `__iter__` included) whose body is a straight run of `yield`s."""
    seq = single_known_seq(values)
    if seq is not None or len(values) != 1 or depth > 4:
        return seq
    value = next(iter(values))
    if isinstance(value, Namespace) and isinstance(value.obj, Class):  # `for name in vars(Ops)`
        return _class_keys(interp, value.obj)
    if isinstance(value, DictV):  # `*d`, `sorted(d)`: its keys, in order
        filled = interp.dict_contents(value)
        return (
            Seq("list", tuple(frozenset({key_value(k)}) for k, _ in filled.items)) if filled.items is not None else None
        )
    fields = classes.named_tuple_fields(value.cls) if isinstance(value, Instance) else None
    if isinstance(value, Instance) and fields is not None:  # a typing.NamedTuple: its fields in order
        return Seq("tuple", tuple(attribute(interp, value, name, interp.model) for name in fields))
    if isinstance(value, Instance):
        return unpacked(interp, call_method(interp, value, "__iter__", []), depth + 1)
    if isinstance(value, Generator):
        return generators.straight_yields(interp, value)
    if isinstance(value, Class) and enums.is_enum(interp, value):  # `for mode in Mode`: its members in order
        return enums.members_in_order(interp, value)
    chars = _characters(value)
    return Seq("tuple", chars) if chars is not None else None


def _static_array_attribute(array: Array, attr: str) -> frozenset[Value]:
    """`x.shape`, `x.dtype`, `x.ndim` of an array: constants when known, else a static object."""
    if attr == "shape" and array.shape is not None:
        return frozenset({Seq("tuple", tuple(frozenset({Const(d)}) for d in array.shape))})
    if attr == "ndim" and array.shape is not None:
        return frozenset({Const(len(array.shape))})
    if attr == "dtype" and array.dtype is not None:
        return frozenset({DType("dtype", array.dtype)})
    if attr == "size" and array.shape is not None:
        return frozenset({Const(math.prod(array.shape))})
    size = itemsize(array.dtype)
    if attr == "itemsize" and size:
        return frozenset({Const(size)})
    if attr == "nbytes" and size and array.shape is not None:
        return frozenset({Const(math.prod(array.shape) * size)})
    return frozenset({Opaque("static")})


def bind_attribute(
    interp: Interpreter, v: Value, instance: Instance | EnumMember | None, cls: Class, attr: str
) -> frozenset[Value]:
    """Class attribute `attr` read through an instance or the class (Python's descriptor rules:
    functions bind, the built-in descriptors, and an object whose class defines `__get__`)."""
    if isinstance(v, Instance):
        getters = class_attribute(interp, v.cls, "__get__", v)
        if getters:
            return _descriptor_get(interp, v, getters, instance, cls, attr)
    if isinstance(v, Wrapped):
        if v.kind == "static":
            return frozenset({v.func})
        if v.kind == "class":
            return frozenset({BoundMethod(v.func, cls)})
        if v.kind == "partialmethod" and isinstance(v.func, Partial):
            if instance is None:
                return frozenset({v.func})
            p = v.func
            return frozenset({Partial(p.target, (frozenset({instance}), *p.args), p.keywords, hidden=True)})
        if v.kind == "property" and instance is not None:
            made = calls.apply(interp, v.func, [frozenset({instance})], [], None, None, EMPTY_ENV, cls.model)
            if isinstance(instance, Instance) and isinstance(v.func, Func):
                # a Ref the getter makes is the instance's: `Buf().ref` and `Buf().ref` are two
                # (a Ref it reads from the instance, `return self._ref`, stays what it was)
                getter = v.func.node
                read = frozenset(r for r in ref_identity.refs_in(made, 0) if not _made_in(getter, r))
                return ref_identity.retag(made, read, ("property of", instance.site, id(getter)), 0, True)
            return made
        return U
    if isinstance(v, Func) and attr in classes.IMPLICIT_CLASSMETHODS:
        return frozenset({BoundMethod(v, cls)})
    if isinstance(v, Func) and instance is not None:
        return frozenset({BoundMethod(v, instance)})
    return frozenset({v})
