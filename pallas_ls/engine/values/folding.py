"""Constant folding: what Python computes from known values, decided as Python decides it.

Arithmetic and comparisons of constants (`fold`, `compared`: `n % 128 == 0`, `VERSION >= (3, 0)`,
`x.dtype == jnp.float32`, enum members by identity), and calls of pure functions on constants
(`folded_call`: `divmod`, `math.log2`, `pl.cdiv`, `any` / `all` / `sum` of known sequences) and the
dtype questions numpy answers (`dtype_api`: `np.dtype("bfloat16")`, `jnp.issubdtype`).  A value
not known, or an operation Python would raise on, folds to nothing: the caller keeps what it had.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any, cast

from . import methods
from .domain import (
    MAX_FOLDED_PAIRS,
    NONE,
    SENTINEL,
    Array,
    BoundMethod,
    Class,
    Const,
    DictV,
    DType,
    Entry,
    EnumMember,
    External,
    Func,
    Module,
    Opaque,
    Partial,
    Ref,
    Seq,
    Value,
    constant_truth,
    dtype_of,
    only_value,
    single_known_seq,
)


def fold(op: ast.operator, a: object, b: object) -> Value | None:
    numbers = (int, float)
    if isinstance(a, bool) and isinstance(b, bool) and type(op) in _BIT_OPERATIONS:
        return Const(bool(_BIT_OPERATIONS[type(op)](a, b)))  # `fast & debug` is a bool
    # Otherwise a bool is the int it is (`FAST + DEBUG`, `n * flag`).
    a = int(a) if isinstance(a, bool) else a
    b = int(b) if isinstance(b, bool) else b
    try:
        if isinstance(a, numbers) and isinstance(b, numbers):
            if isinstance(op, ast.Add):
                return Const(a + b)
            if isinstance(op, ast.Sub):
                return Const(a - b)
            if isinstance(op, ast.Mult) and abs(a) < 1e12 and abs(b) < 1e12:
                return Const(a * b)
            if isinstance(op, ast.FloorDiv) and b:
                return Const(a // b)
            if isinstance(op, ast.Mod) and b:
                return Const(a % b)  # `refs[i % 2]`
            if isinstance(op, ast.Div) and b:
                return Const(a / b)
            # `2**20` in `vmem_limit_bytes=64 * 2**20`; small exponents only (no huge numbers).
            if (
                isinstance(op, ast.Pow)
                and isinstance(a, int)
                and isinstance(b, int)
                and 0 <= b <= 64
                and abs(a) <= 1024
            ):
                return Const(a**b)
        if isinstance(a, int) and isinstance(b, int) and type(op) in _BIT_OPERATIONS:
            if isinstance(op, ast.LShift) and not 0 <= b <= 64:
                return None  # no huge numbers
            return Const(_BIT_OPERATIONS[type(op)](a, b))  # `1 << 10`, `n & (n - 1)`
        if isinstance(a, str) and isinstance(b, str) and isinstance(op, ast.Add) and len(a) + len(b) <= 200:
            return Const(a + b)
        if isinstance(a, str) and isinstance(b, int) and isinstance(op, ast.Mult) and len(a) * b <= 200:
            return Const(a * b)
        if isinstance(a, str) and isinstance(op, ast.Mod) and isinstance(b, (str, int, tuple)) and len(a) <= 200:
            return Const(a % b)  # `"%s_kernel" % mode`, `"%s_%d" % (mode, n)`
        if isinstance(a, frozenset) and isinstance(b, frozenset) and type(op) in _SET_OPERATIONS:
            return Const(frozenset(_SET_OPERATIONS[type(op)](a, b)))  # `{"a"} | {"x"}`: sets of constants
    except (OverflowError, ValueError, TypeError, KeyError):
        return None
    return None


_BIT_OPERATIONS: dict[type, Callable[[int, int], int]] = {
    ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
}

_SET_OPERATIONS: dict[type, Callable[[frozenset[object], frozenset[object]], frozenset[object]]] = {
    ast.BitOr: lambda a, b: a | b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitXor: lambda a, b: a ^ b,
    ast.Sub: lambda a, b: a - b,
}

_COMPARISONS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
# Values that are certainly objects, never None (`k is None` is False for a function).
_NEVER_NONE = (Func, Class, Module, Entry, Ref, Partial, BoundMethod, Seq, DictV, Array)
# Objects that are never a sentinel `object()` made elsewhere.
_DEFINED = (Const, Func, Class, Module, EnumMember)


def _bool_constant(v: Value) -> bool:
    return isinstance(v, Const) and type(v.value) is bool


def _sentinel(v: Value) -> bool:
    return isinstance(v, Opaque) and v.kind == SENTINEL


def _never_none(v: Value) -> bool:
    return isinstance(v, _NEVER_NONE) or (isinstance(v, Const) and v.value is not None)


def compared(ops: list[ast.cmpop], parts: list[frozenset[Value]]) -> bool | None:
    """A chain of comparisons folded when every operand is known: constants (`mode == "fast"`,
    `n >= 8`), a known tuple or list of constants on the right of `in`, `x is None`."""
    result = True
    for op, left, right in zip(ops, parts, parts[1:], strict=False):
        outcome = _compared(op, left, right)
        if outcome is None:
            return None
        result = result and outcome
    return result


def _compared(op: ast.cmpop, left: frozenset[Value], right: frozenset[Value]) -> bool | None:
    if (len(left) > 1 or len(right) > 1) and len(left) * len(right) <= MAX_FOLDED_PAIRS:
        # A few values on a side (`n == 0` for n in 2 or 4): decided when every pair agrees.
        outcomes = {_compared(op, frozenset({a}), frozenset({b})) for a in left for b in right}
        return outcomes.pop() if len(outcomes) == 1 else None
    a, b = only_value(left), only_value(right)
    if (
        isinstance(a, EnumMember)
        and isinstance(b, EnumMember)
        and isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
    ):
        same_member = _same_member(a, b)  # `self is Mode.FAST`
        if same_member is None:
            return None
        return same_member if isinstance(op, (ast.Is, ast.Eq)) else not same_member
    if isinstance(op, (ast.Is, ast.IsNot)):
        if a is None or b is None:
            return None
        if a == NONE and b == NONE:
            same = True
        elif (a == NONE and _never_none(b)) or (b == NONE and _never_none(a)):
            same = False
        elif is_builtin_type(a) and is_builtin_type(b):
            same = a == b  # `type(n) is int`: one object per builtin type
        elif (_sentinel(a) and isinstance(b, _DEFINED)) or (_sentinel(b) and isinstance(a, _DEFINED)):
            same = False  # `name is _MISSING` of a constant, a def or a class: never that new object
        elif _bool_constant(a) or _bool_constant(b):
            # `flag is True`: True and False are one object each (`1 is True` is False); a bool
            # the interpreter does not know (`flag = x > 0`) may be either
            other = b if _bool_constant(a) else a
            if _bool_constant(other):
                same = a == b
            elif isinstance(other, _NEVER_NONE + _DEFINED):
                same = False
            else:
                return None
        elif isinstance(a, (Func, Class)) and isinstance(b, (Func, Class)):
            if a.node is not b.node:
                same = False  # two defs (or classes) are two objects
            elif a == b and (isinstance(a, Class) or _module_level_def(a)):
                same = True  # one module-level def read twice
            else:
                return None
        else:
            return None
        return same if isinstance(op, ast.Is) else not same
    if isinstance(op, (ast.Eq, ast.NotEq)) and is_builtin_type(a) and is_builtin_type(b):
        return (a == b) is isinstance(op, ast.Eq)  # `type(n) == int`
    version = _version_compared(op, a, b)
    if version is not None:
        return version
    if isinstance(a, Seq) and isinstance(b, Seq) and type(op) in _ORDERINGS:
        left_items, right_items = _constants_of(a), _constants_of(b)  # `VERSION >= (3, 0)`
        if left_items is None or right_items is None or a.kind != b.kind:
            return None
        try:
            return bool(_COMPARISONS[type(op)](left_items, right_items))
        except TypeError:
            return None
    dtypes = _dtype_compared(op, a, b)
    if dtypes is not None:
        return dtypes
    if not isinstance(a, Const):
        return None
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(b, Seq) and b.elts is not None:
        elements = [only_value(e) for e in b.elts]
        if not all(isinstance(e, Const) for e in elements):
            return None
        container: object = [cast(Const, e).value for e in elements]
    elif isinstance(b, Const):
        container = b.value
    else:
        return None
    compare = _COMPARISONS.get(type(op))
    try:
        return bool(compare(a.value, container)) if compare is not None else None
    except TypeError:
        return None


_ORDERINGS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _generic_type(value: Value | None) -> bool:
    """`float`, `"int"`: names numpy reads as its 64-bit types, not JAX's default ones."""
    if isinstance(value, External):
        return value.qualname.rpartition(".")[2] in ("float", "int")
    return isinstance(value, Const) and value.value in ("float", "int")


def _dtype_compared(op: ast.cmpop, a: Value | None, b: Value | None) -> bool | None:
    """`x.dtype == jnp.float32`, `x.dtype in (jnp.bfloat16, jnp.float16)`: a dtype object equals
    whatever names the same dtype (a scalar type, a string, another dtype), as numpy compares them.
    Only a dtype object on the left decides (`jnp.float32 == np.float32` are two classes)."""
    if not isinstance(a, DType) or not a.name:
        return None
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(b, Seq) and b.elts is not None:
        if any(_generic_type(only_value(e)) for e in b.elts):
            return None
        names = [dtype_of(e) for e in b.elts]
        if None in names:
            return None
        return (a.name in names) is isinstance(op, ast.In)
    if isinstance(op, (ast.Eq, ast.NotEq)) and b is not None and not _generic_type(b):
        name = dtype_of(frozenset({b}))
        if name is None:
            return None
        return (a.name == name) is isinstance(op, ast.Eq)
    return None


def _constants_of(seq: Seq) -> tuple[object, ...] | None:
    """The values of a known tuple or list of constants."""
    if seq.elts is None:
        return None
    items = [only_value(e) for e in seq.elts]
    if not all(isinstance(i, Const) for i in items):
        return None
    return tuple(cast(Const, i).value for i in items)


def _same_member(a: EnumMember, b: EnumMember) -> bool | None:
    """Whether two enum members are one object: the same name of one class; different names
    whose values are different constants written in the class body (not aliases); else None."""
    if a.cls != b.cls:
        return None
    if a.name == b.name:
        return True
    written = {
        target.id: stmt.value
        for stmt in a.cls.node.body
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    }
    left, right = written.get(a.name), written.get(b.name)
    if isinstance(left, ast.Constant) and isinstance(right, ast.Constant) and left.value != right.value:
        return False
    return None


# JAX runs on Python 3.10 or later: `sys.version_info >= (3, 8)` is true wherever a kernel runs.
_OLDEST_PYTHON = (3, 10)
_FLIPPED: dict[type, type] = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}


def _version_compared(op: ast.cmpop, a: Value | None, b: Value | None) -> bool | None:
    """`sys.version_info` compared with a tuple of ints, when every Python JAX runs on agrees."""
    if isinstance(b, External) and b.qualname == "sys.version_info" and type(op) in _FLIPPED:
        a, b, op = b, a, _FLIPPED[type(op)]()
    if not (isinstance(a, External) and a.qualname == "sys.version_info" and isinstance(b, Seq) and b.elts):
        return None
    parts = [only_value(e) for e in b.elts]
    if not all(isinstance(p, Const) and type(p.value) is int for p in parts):
        return None
    bound = tuple(cast(Const, p).value for p in parts)
    oldest = _OLDEST_PYTHON
    if isinstance(op, ast.GtE) and oldest >= bound:
        return True
    if isinstance(op, ast.Gt) and oldest > bound:
        return True
    if isinstance(op, ast.Lt) and oldest >= bound:
        return False
    if isinstance(op, ast.LtE) and oldest > bound:
        return False
    return None


def _module_level_def(value: Value) -> bool:
    """A function defined once, at the top of its module (a def run twice makes two objects)."""
    return isinstance(value, Func) and not value.env.items and value.model.parent_function.get(id(value.node)) is None


DTYPE_APIS = frozenset(
    {"numpy.dtype", "jax.numpy.dtype", "numpy.issubdtype", "jax.numpy.issubdtype", "jax.numpy.promote_types"}
)
# JAX's promotion of the float types kernels use (jnp.promote_types; the others are not decided).
_FLOAT_WIDTHS = {"bfloat16": 16, "float16": 16, "float32": 32}
# The abstract scalar types `issubdtype` tests against, by the dtypes' names they hold.
_DTYPE_KINDS: dict[str, tuple[str, ...]] = {
    "floating": ("float", "bfloat"),
    "inexact": ("float", "bfloat", "complex"),
    "complexfloating": ("complex",),
    "integer": ("int", "uint"),
    "signedinteger": ("int",),
    "unsignedinteger": ("uint",),
    "number": ("float", "bfloat", "complex", "int", "uint"),
    "bool_": ("bool",),
}


def dtype_api(q: str, args: list[frozenset[Value]]) -> frozenset[Value]:
    """`np.dtype("bfloat16")` is the dtype it names; `jnp.issubdtype(x.dtype, jnp.floating)` is
    decided when the dtype is known (numpy's own issubdtype does not count bfloat16 a float: left
    undecided for the types numpy does not define)."""
    if q == "jax.numpy.promote_types":
        names = [dtype_of(a) for a in args] if len(args) == 2 else []
        if len(names) != 2 or not all(n in _FLOAT_WIDTHS for n in names):
            return frozenset({Opaque("dtype")})
        a, b = cast("list[str]", names)
        wider = a if a == b else "float32"  # bfloat16 with float16 meet at float32, as does either with it
        return frozenset({DType("dtype", wider)})
    if q.endswith(".dtype"):
        name = dtype_of(args[0]) if len(args) == 1 else None
        return frozenset({DType("dtype", name)}) if name is not None else frozenset({Opaque("dtype")})
    name = dtype_of(args[0]) if len(args) == 2 else None
    kind = only_value(args[1]) if len(args) == 2 else None
    if name is None or not isinstance(kind, External):
        return frozenset({Opaque("bool")})
    category = kind.qualname.rpartition(".")[2]
    if category not in _DTYPE_KINDS:
        other = dtype_of(args[1])
        return frozenset({Const(name == other)}) if other is not None else frozenset({Opaque("bool")})
    if q.startswith("numpy.") and name.startswith(("bfloat", "float8")):
        return frozenset({Opaque("bool")})
    family = name[: len(name) - len(name.lstrip("abcdefghijklmnopqrstuvwxyz"))]  # "float8_e4m3fn" -> "float"
    return frozenset({Const(family in _DTYPE_KINDS[category])})


# Pure functions computed on constant arguments, as Python computes them (`divmod(n, 128)`,
# `pl.cdiv(n, 128)`, `math.log2(block)`).
_PURE_FUNCTIONS: dict[str, Any] = {
    "abs": abs,
    "int": int,
    "float": float,
    "round": round,
    "divmod": divmod,
    "pow": lambda a, b, m=None: pow(a, b, m) if abs(a) <= 1024 and 0 <= b <= 64 else None,
    "chr": chr,
    "ord": ord,
    "math.ceil": math.ceil,
    "math.floor": math.floor,
    "math.trunc": math.trunc,
    "math.log2": math.log2,
    "math.sqrt": math.sqrt,
    "math.isqrt": math.isqrt,
    "math.gcd": math.gcd,
    "math.lcm": math.lcm,
    "jax.experimental.pallas.cdiv": lambda a, b: -(-a // b) if isinstance(a, int) and isinstance(b, int) else None,
    # as jax defines it: `1 if x == 0 else 2 ** (x - 1).bit_length()` (negative: a ValueError)
    "jax.experimental.pallas.next_power_of_2": lambda n: (
        (1 if n == 0 else 2 ** (n - 1).bit_length()) if isinstance(n, int) and 0 <= n < 1 << 62 else None
    ),
}


# Reductions of a tuple or list of numbers: the builtin `sum`, and numpy's, whose numpy scalar
# acts as the number (`np.prod(x.shape)`; a kernel may capture it: numpy scalars are not arrays
# JAX rejects).
_REDUCTIONS: dict[str, Any] = {
    "sum": sum,
    "numpy.prod": math.prod,
    "numpy.sum": sum,
    "numpy.max": max,
    "numpy.amax": max,
    "numpy.min": min,
    "numpy.amin": min,
}


def _reduced(q: str, values: frozenset[Value]) -> frozenset[Value] | None:
    seq = single_known_seq(values)
    numbers = [only_value(e) for e in seq.elements()] if seq is not None and seq.known else []
    if not numbers or not all(isinstance(n, Const) and type(n.value) in (int, float, bool) for n in numbers):
        return None  # an array, or numbers not all known: nothing decided here
    return frozenset({Const(_REDUCTIONS[q]([cast(Const, n).value for n in numbers]))})


def folded_call(
    q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> frozenset[Value] | None:
    """A call's result when its arguments are known: a pure function of constants, a reduction of
    known numbers, or `any` / `all` / `bool` of values whose truths are known (each element read as
    `if` reads it)."""
    if keywords:
        return None
    if q in _REDUCTIONS and len(args) == 1:  # `sum(x.shape)`, `np.prod(x.shape)`
        return _reduced(q, args[0])
    if q == "bool" and len(args) == 1:  # `bool(xs)`: the truth `if xs:` reads
        truth = constant_truth(args[0])
        return frozenset({Const(truth)}) if truth is not None else None
    if q in ("any", "all") and len(args) == 1:
        seq = single_known_seq(args[0])
        if seq is None or not seq.known:
            return None
        truths = [constant_truth(e) for e in seq.elements()]
        decisive = q == "any"  # `any` stops at a true element, `all` at a false one
        if decisive in truths:
            return frozenset({Const(decisive)})
        return frozenset({Const(not decisive)}) if None not in truths else None
    if q.startswith("str.") and q[4:] in methods.STR_METHODS and args:  # `map(str.lower, names)`
        text = only_value(args[0])
        if isinstance(text, Const) and isinstance(text.value, str):
            return methods.ConstMethod(text.value, q[4:]).call(args[1:], keywords)
        return None
    if q not in _PURE_FUNCTIONS:
        return None  # `bool()`, `sum(xs, start)`, ...: not folded here
    constants = [only_value(a) for a in args]
    if not all(isinstance(c, Const) and isinstance(c.value, (int, float, str)) for c in constants):
        return None
    try:
        result = _PURE_FUNCTIONS[q](*(cast(Const, c).value for c in constants))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None  # what Python raises: nothing known
    if result is None:
        return None
    if isinstance(result, tuple):
        return frozenset({Seq("tuple", tuple(frozenset({Const(r)}) for r in result))})
    return frozenset({Const(result)})


# The pure functions folded above, by name: a call of one that folds ran without raising.
PURE_NAMES = frozenset(_PURE_FUNCTIONS)


# Builtin types by name: `type(3)` is `int`, a key a dict may hold (`{int: f, str: g}[type(n)]`).
BUILTIN_TYPE_NAMES = frozenset({"int", "float", "complex", "str", "bytes", "bool", "tuple", "list", "dict"})


def is_builtin_type(value: Value | None) -> bool:
    return isinstance(value, External) and value.qualname in BUILTIN_TYPE_NAMES


def builtin_type_of(value: Value) -> External | None:
    """The builtin type of a constant, tuple, list or dict (`type(3)` is `int`); None for others."""
    if isinstance(value, Const) and type(value.value).__name__ in BUILTIN_TYPE_NAMES:
        return External(type(value.value).__name__)
    if isinstance(value, Seq) and value.kind in ("tuple", "list") and value.names is None:
        return External(value.kind)
    if isinstance(value, DictV):
        return External("dict")
    return None
