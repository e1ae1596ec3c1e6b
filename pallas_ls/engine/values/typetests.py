"""`isinstance` and `issubclass` decided, when the types involved are known: the selectors that
dispatch on a config's class (`if isinstance(cfg, Fast): return fused`) pick one branch.

A subject's type is known for an instance of a class of the program (its class), a constant, a
tuple, list or dict; a class's ancestors are known when every base is a class of the program (or
`object`).  Anything else (a base from a library, a metaclass that may define `__instancecheck__`,
`abc` registration) leaves the test undecided: None, and the caller's result stays an opaque bool.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from . import classes
from .domain import (
    Array,
    BoundMethod,
    Class,
    Const,
    DictV,
    External,
    Func,
    Instance,
    Namespace,
    Opaque,
    Seq,
    Value,
    Wrapped,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter

# Builtin types by the name the interpreter gives them (`External("int")`).
_BUILTIN_TYPES: dict[str, type] = {
    "int": int,
    "float": float,
    "bool": bool,
    "str": str,
    "tuple": tuple,
    "list": list,
    "dict": dict,
    "set": set,
    "frozenset": frozenset,
    "object": object,
    "type": type,
    "staticmethod": staticmethod,
    "classmethod": classmethod,
    "property": property,
    "types.FunctionType": types.FunctionType,
    "types.MethodType": types.MethodType,
    "types.BuiltinFunctionType": types.BuiltinFunctionType,
}
# The types of the objects the interpreter holds for functions and descriptors.
_WRAPPED_TYPES: dict[str, type] = {"static": staticmethod, "class": classmethod, "property": property}

# The array types by their qualified name, as the origin of the arrays they hold (domain.Array):
# a jax array is a `jax.Array` (`jnp.ndarray` is that type), a numpy array an `np.ndarray`.
_ARRAY_TYPES: dict[str, str] = {"jax.Array": "jax", "jax.numpy.ndarray": "jax", "numpy.ndarray": "numpy"}


@dataclass(frozen=True)
class ArrayType:
    """`jax.Array` or `np.ndarray`, by the origin of the arrays it holds."""

    origin: str


# A type: a class of the program, a builtin type, or an array type.
TypeValue = Class | type | ArrayType


def type_test(interp: Interpreter, q: str, args: list[frozenset[Value]]) -> frozenset[Value] | None:
    """`isinstance(x, T)` / `issubclass(C, T)`: the constant bools it can give, or None when a
    subject's type or a target's ancestry is not known."""
    if len(args) != 2:
        return None
    targets = _targets(args[1])
    if targets is None or not args[0]:
        return None
    results: set[Value] = set()
    for subject in args[0]:
        subject_type = _type_of(subject) if q == "isinstance" else _as_type(subject)
        if subject_type is None:
            return None
        decided = _is_subtype(interp, subject_type, targets)
        if decided is None:
            return None
        results.add(Const(decided))
    return frozenset(results)


def _targets(values: frozenset[Value]) -> list[TypeValue] | None:
    """The types of `T` (a class, a builtin type, or a tuple of them)."""
    if len(values) != 1:
        return None
    (value,) = values
    if isinstance(value, Seq) and value.kind == "tuple" and value.elts is not None:
        found: list[TypeValue] = []
        for element in value.elts:
            inner = _targets(element)
            if inner is None:
                return None
            found += inner
        return found
    if isinstance(value, Class):
        return [value]
    if isinstance(value, External) and value.qualname in _BUILTIN_TYPES:
        return [_BUILTIN_TYPES[value.qualname]]
    if isinstance(value, External) and value.qualname in _ARRAY_TYPES:
        return [ArrayType(_ARRAY_TYPES[value.qualname])]
    return None


def _as_type(subject: Value) -> TypeValue | None:
    """`issubclass`'s subject: a class of the program or a builtin type (`issubclass(int, object)`)."""
    if isinstance(subject, Class):
        return subject
    if isinstance(subject, External) and subject.qualname in _BUILTIN_TYPES:
        return _BUILTIN_TYPES[subject.qualname]
    return None


def _type_of(subject: Value) -> TypeValue | None:
    if isinstance(subject, Array) and (subject.origin == "jax" or (subject.origin == "numpy" and subject.shape)):
        # Made outside a kernel (a traced value's type is a tracer's); a numpy value of unknown or
        # empty shape may be a numpy scalar (`np.float32(1)`, `a[0]`), no `np.ndarray`.
        return ArrayType(subject.origin)
    if isinstance(subject, Instance):
        return subject.cls
    if isinstance(subject, Const):
        return type(subject.value)
    if isinstance(subject, Seq) and subject.kind in ("tuple", "list") and subject.names is None:
        return tuple if subject.kind == "tuple" else list
    if isinstance(subject, DictV):
        return dict
    if isinstance(subject, Func):
        return types.FunctionType  # a def or a lambda
    if isinstance(subject, BoundMethod):
        return types.MethodType
    if isinstance(subject, Class):
        return type if not subject.node.keywords else None  # a metaclass may be any subclass of type
    if isinstance(subject, Wrapped):
        return _WRAPPED_TYPES.get(subject.kind)
    if isinstance(subject, External) and subject.qualname.startswith("object."):
        return types.WrapperDescriptorType  # `object.__init__` and friends, read on a class
    if isinstance(subject, External) and subject.qualname in _BUILTIN_TYPES:
        return type  # `int`, `type` themselves: classes
    if isinstance(subject, Opaque) and subject.kind in _BUILTIN_TYPES:
        return _BUILTIN_TYPES[subject.kind]  # an `int` or `str` whose value is not known
    if isinstance(subject, Namespace):
        return types.MappingProxyType if isinstance(subject.obj, Class) else dict
    return None


def _is_subtype(interp: Interpreter, subject: TypeValue, targets: list[TypeValue]) -> bool | None:
    if isinstance(subject, ArrayType):
        return any(t == subject or t is object for t in targets)
    if isinstance(subject, type):  # a builtin type: no class of the program is its ancestor
        return any(isinstance(t, type) and issubclass(subject, t) for t in targets)
    ancestors = _ancestors(interp, subject)
    if ancestors is None:
        return None
    for target in targets:
        if isinstance(target, ArrayType):
            return None  # a class of the program deriving from `np.ndarray` is not followed
        if target is object or (isinstance(target, Class) and any(a.node is target.node for a in ancestors)):
            return True
    # False only when no target may claim the subject some other way (`__instancecheck__`,
    # `abc` registration: a metaclass or a base from outside the program).
    if any(isinstance(t, Class) and _ancestors(interp, t) is None for t in targets):
        return None
    return False


def _ancestors(interp: Interpreter, cls: Class) -> list[Class] | None:
    """The class and its ancestors (its MRO), when each is a class of the program (or `object`)
    made without a metaclass; None otherwise."""
    mro = classes.class_mro(interp, cls)
    if mro is None or any(not isinstance(c, Class) or c.node.keywords for c in mro):
        return None
    return cast("list[Class]", mro)
