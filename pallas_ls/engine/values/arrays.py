"""Arrays that jax, jax.numpy, numpy and jax.random calls make: their shapes and dtypes when the call
says them (constructors, elementwise functions and reductions, array methods, arithmetic), and
`jax.eval_shape`'s ShapeDtypeStructs.  The TPU rules read the shapes; a shape the program does not
make constant stays None."""

from __future__ import annotations

import ast
import math
from typing import cast

from ..shapes import DEFAULT_FLOAT, DEFAULT_INT, Shape, reduced, reshaped
from ..shapes import broadcast as shapes_broadcast
from .domain import (
    Array,
    Const,
    DictV,
    Opaque,
    Param,
    Seq,
    ShapeStruct,
    U,
    Value,
    dtype_of,
    int_constant,
    only_value,
    shape_of,
    single_known_seq,
)
from .methods import ArrayMethod


def argument(
    args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]], index: int | None, name: str
) -> frozenset[Value] | None:
    for key, value in keywords:
        if key == name:
            return value
    return args[index] if index is not None and index < len(args) else None


def _single_array(values: frozenset[Value] | None) -> Array | None:
    value = only_value(values)
    return value if isinstance(value, Array) else None


_FILLED = frozenset({"zeros", "ones", "empty"})
_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "asarray", "array"})
_RANDOM = frozenset({"jax.random.normal", "jax.random.uniform", "jax.random.truncated_normal"})


# numpy.random draws whose `size=` is the shape of the array they make (no size: one number).
_NUMPY_DRAWS = frozenset(
    {
        "normal", "uniform", "random", "random_sample", "standard_normal", "integers", "randint",
        "exponential", "laplace", "logistic", "lognormal", "binomial", "poisson", "beta", "gamma",
        "choice", "permutation",
    }
)  # fmt: skip
NUMPY_RNG = "numpy rng"  # a numpy.random.Generator / RandomState: its methods are the draws


def numpy_random(q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]) -> Value:
    """`np.random.default_rng(0)` (a generator), `rng.normal(size=(8, 128))` /
    `np.random.rand(8, 128)` (a numpy array of that shape), a draw without a size (a number)."""
    name = q.rsplit(".", 1)[-1]
    if name in ("default_rng", "RandomState", "Generator"):
        return Opaque(NUMPY_RNG)
    if name in ("rand", "randn") and all(int_constant(a) is not None for a in args) and not keywords:
        return Array("numpy", tuple(cast(int, int_constant(a)) for a in args), "float64") if args else Opaque("float")
    if name in _NUMPY_DRAWS:
        size = argument(args, keywords, None, "size")
        if size is None:
            return Opaque("numpy")  # a number, or an array of a shape the positional arguments say
        return Array("numpy", shape_of(size))
    return Opaque("numpy")


def constructed(
    library: str, q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> Array:
    """The array a jnp / np / jax.random function makes, with its shape and dtype when the call
    says them (a NumPy array's default dtype is left unknown: JAX converts it on the way in)."""
    origin = "numpy" if library == "numpy" else "jax"
    name = q.rsplit(".", 1)[-1]
    given = dtype_of(argument(args, keywords, None, "dtype"))
    default_float = DEFAULT_FLOAT if library == "jax" else None
    if name in _FILLED and q.count(".") <= 2:
        shape = shape_of(argument(args, keywords, 0, "shape"))
        return Array(origin, shape, given or dtype_of(argument(args, keywords, 1, "dtype")) or default_float)
    if name == "full" and q.count(".") <= 2:
        return Array(
            origin,
            shape_of(argument(args, keywords, 0, "shape")),
            given or dtype_of(argument(args, keywords, 2, "dtype")),
        )
    if name in _LIKE and q.count(".") <= 2:
        base = _single_array(argument(args, keywords, 0, "a"))
        if base is not None:
            return Array(origin, base.shape, given or base.dtype)
        if name in ("array", "asarray") and args:  # `jnp.array([1, 0])`: a nested list of numbers
            return Array(origin, _literal_shape(args[0]), given or dtype_of(argument(args, keywords, 1, "dtype")))
    if name == "arange" and q.count(".") <= 2 and len(args) == 1 and all(k == "dtype" for k, _ in keywords):
        n = int_constant(args[0])
        if n is not None and n >= 0:
            return Array(origin, (n,), given or (DEFAULT_INT if library == "jax" else None))
        stop = only_value(args[0])  # `jnp.arange(128.0)`: ceil(stop) floats
        if isinstance(stop, Const) and type(stop.value) is float and 0 <= stop.value < 2**31:
            return Array(origin, (math.ceil(stop.value),), given or (DEFAULT_FLOAT if library == "jax" else None))
    if q in _RANDOM:
        shape = shape_of(argument(args, keywords, 1, "shape"))
        return Array(origin, shape, given or dtype_of(argument(args, keywords, 2, "dtype")) or DEFAULT_FLOAT)
    return Array(origin)


# Functions whose result has the shape of their (broadcast) array arguments, and reductions.
_ELEMENTWISE = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "exp",
        "log",
        "log1p",
        "expm1",
        "sqrt",
        "rsqrt",
        "abs",
        "negative",
        "tanh",
        "sin",
        "cos",
        "sign",
        "floor",
        "ceil",
        "round",
        "square",
        "reciprocal",
        "maximum",
        "minimum",
        "where",
        "add",
        "subtract",
        "multiply",
        "divide",
        "power",
        "clip",
        "exp2",
        "logaddexp",
    )
) | frozenset(f"jax.nn.{name}" for name in ("relu", "gelu", "silu", "sigmoid", "softplus", "swish", "elu", "tanh"))
_REDUCTIONS = frozenset(
    f"jax.numpy.{name}" for name in ("sum", "max", "min", "mean", "prod", "any", "all", "amax", "amin")
)


def shaped(q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]) -> Array | None:
    """The array an elementwise function or a reduction gives, with its shape, when its array
    arguments' shapes are known (`jnp.max(x, axis=0, keepdims=True)` of an (8, 128) array is
    (1, 128)); None for other functions."""
    origin = "jax"
    if q.startswith("numpy."):  # numpy's functions give numpy arrays of the same shapes
        q, origin = "jax." + q, "numpy"
    if q == "jax.numpy.pad" and len(args) == 2 and not keywords:
        base = _single_array(args[0])
        shape = _padded(base.shape, args[1]) if base is not None and base.shape is not None else None
        return Array(origin, shape, base.dtype if base is not None else None) if shape is not None else None
    if q in _ELEMENTWISE:
        shape = _broadcast_of(args) if not keywords else None
        return Array(origin, shape) if shape is not None else None
    if q in _REDUCTIONS and args:
        array = _single_array(args[0])
        axis = argument(args, keywords, 1, "axis")
        keepdims = argument(args, keywords, None, "keepdims")
        if array is None or array.shape is None:
            return None
        axis_value = only_value(axis) if axis is not None else Const(None)
        keep = only_value(keepdims) if keepdims is not None else Const(False)
        if not isinstance(keep, Const) or not isinstance(keep.value, bool):
            return None
        if isinstance(axis_value, Const) and (axis_value.value is None or isinstance(axis_value.value, int)):
            return Array(origin, reduced(array.shape, axis_value.value, keep.value))
        seq = single_known_seq(axis) if axis is not None else None
        ints = [only_value(e) for e in seq.elements()] if seq is not None else None
        if ints is not None and all(isinstance(i, Const) and isinstance(i.value, int) for i in ints):
            dims = tuple(cast(int, cast(Const, i).value) for i in ints)
            return Array(origin, reduced(array.shape, dims, keep.value))
    return None


def _padded(shape: Shape, width: frozenset[Value]) -> Shape | None:
    """`np.pad(a, n)` / `np.pad(a, ((before, after), ...))` with constant widths: the new shape."""
    n = int_constant(width)
    if n is not None:
        return tuple(d + 2 * n for d in shape)
    pairs = single_known_seq(width)
    if pairs is None or not pairs.known or len(pairs.elements()) != len(shape):
        return None
    out = []
    for dim, pair in zip(shape, pairs.elements(), strict=True):
        sides = single_known_seq(pair)
        ends = [int_constant(e) for e in sides.elements()] if sides is not None and sides.known else []
        if len(ends) != 2 or None in ends:
            return None
        out.append(dim + cast(int, ends[0]) + cast(int, ends[1]))
    return tuple(out)


def _literal_shape(values: frozenset[Value], depth: int = 0) -> Shape | None:
    """The shape of a (nested) list or tuple of numbers written out, or of one number: ()."""
    value = only_value(values)
    if isinstance(value, Const) and isinstance(value.value, (int, float)):
        return ()
    if not isinstance(value, Seq) or value.elts is None or depth > 3:
        return None
    inner = {_literal_shape(e, depth + 1) for e in value.elts}
    if len(inner) != 1 or None in inner:
        return None if value.elts else (0,)
    return (len(value.elts), *inner.pop())  # type: ignore[misc]  # None was ruled out


# Array methods that give a plain Python value (a list, a scalar, bytes), not an array: a kernel
# may close over what they return (issue 36: a method's list was taken for a jax array, PAL003).
_PYTHON_VALUE_METHODS = frozenset({"tolist", "item", "tobytes"})


def array_method_result(
    method: ArrayMethod, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> Value:
    if method.attr in _PYTHON_VALUE_METHODS:
        return Opaque("python value")
    base = method.array
    if base is None:
        return Array(method.origin)
    if method.attr == "astype":
        return Array(method.origin, base.shape, dtype_of(argument(args, keywords, 0, "dtype")))
    if method.attr == "reshape" and not keywords and args:
        new = _reshape_dims(args)
        return Array(method.origin, reshaped(base.shape, new) if new is not None else None, base.dtype)
    if f"jax.numpy.{method.attr}" in _REDUCTIONS:  # `x.mean(axis=0)`: as `jnp.mean(x, axis=0)`
        made = shaped(f"jax.numpy.{method.attr}", [frozenset({base}), *args], keywords)
        if made is not None:
            return Array(method.origin, made.shape)
    return Array(method.origin)


def _reshape_dims(args: list[frozenset[Value]]) -> tuple[int, ...] | None:
    """`x.reshape((a, b))` or `x.reshape(a, b)`: the constant dims asked for (-1 included)."""
    seq = single_known_seq(args[0]) if len(args) == 1 else None
    parts = seq.elements() if seq is not None else tuple(args)
    dims = tuple(int_constant(p) for p in parts)
    return None if None in dims else dims  # type: ignore[return-value]  # None was ruled out


def array_of(values: frozenset[Value]) -> Array:
    origins = {v.origin for v in values if isinstance(v, Array)}
    return Array("jax" if "jax" in origins or len(origins) != 1 else origins.pop())


def arithmetic_result(left: frozenset[Value], right: frozenset[Value]) -> Array:
    """`a + b` where one side is an array: its shape the operands' broadcast when each side is
    one array of known shape or one number."""
    made = array_of(left | right)
    shape = _broadcast_of([left, right])
    return Array(made.origin, shape) if shape is not None else made


def _broadcast_of(operands: list[frozenset[Value]]) -> Shape | None:
    """The broadcast shape of operands that are each one array of known shape or one number
    (None otherwise, or when there is no array among them)."""
    values = [only_value(v) for v in operands]
    if not all(isinstance(v, Array) or (isinstance(v, Const) and isinstance(v.value, (int, float))) for v in values):
        return None
    shapes = [v.shape for v in values if isinstance(v, Array)]
    if not shapes or any(s is None for s in shapes):
        return None
    return shapes_broadcast([cast(Shape, s) for s in shapes])


def shape_structs(values: frozenset[Value], depth: int = 0) -> frozenset[Value]:
    """What `jax.eval_shape(f, ...)` gives for `f`'s result `values`: the same tree (tuples, lists,
    dicts, None) with each array or number a ShapeDtypeStruct of its shape and dtype; a value of
    any other kind, or a tree whose structure is not known, is Unknown."""
    if depth > 8:
        return U
    made: set[Value] = set()
    for value in values:
        if isinstance(value, (Array, ShapeStruct)):
            made.add(ShapeStruct(value.shape, value.dtype))
        elif isinstance(value, Const) and value.value is None:
            made.add(value)
        elif isinstance(value, Const) and isinstance(value.value, (bool, int, float)):
            made.add(ShapeStruct((), None))
        elif isinstance(value, Seq) and value.kind in ("tuple", "list") and value.elts is not None:
            made.add(Seq(value.kind, tuple(shape_structs(e, depth + 1) for e in value.elts), names=value.names))
        elif isinstance(value, DictV) and value.items is not None:
            items = tuple((key, shape_structs(item, depth + 1)) for key, item in value.items)
            made.add(DictV(items, frozenset().union(*(item for _, item in items)) if items else frozenset()))
        else:
            return U
    return frozenset(made)


def indexed(value: Value, index: ast.expr) -> frozenset[Value] | None:
    """`x[None, :]`, `x[0]`, `x[..., None]` of an array of known shape, indexed with None, full
    slices, int constants and one `...`: the part with its shape; None for any other index.  A
    kernel's ref parameter whose array is known (`Param.held`) indexes as that array."""
    if isinstance(value, Param) and value.held is not None:
        value = value.held
    if not isinstance(value, Array) or value.shape is None:
        return None
    shape = _indexed_shape(value.shape, index)
    return frozenset({Array(value.origin, shape, value.dtype)}) if shape is not None else None


def _slice_length(part: ast.Slice, size: int) -> int | None:
    """How many of `size` elements a slice with constant (or no) bounds keeps."""
    bounds = [_constant_int(b) if b is not None else None for b in (part.lower, part.upper, part.step)]
    if any(
        b is not None and value is None for b, value in zip((part.lower, part.upper, part.step), bounds, strict=True)
    ):
        return None
    if bounds[2] == 0:
        return None
    return len(range(*slice(*bounds).indices(size)))


def _constant_int(node: ast.expr) -> int | None:
    """`3`, `-3`: an int written as a constant."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant_int(node.operand)
        return -inner if inner is not None else None
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _indexed_shape(shape: Shape, index: ast.expr) -> Shape | None:
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    ellipses = [p for p in parts if isinstance(p, ast.Constant) and p.value is Ellipsis]
    consumed = sum(1 for p in parts if not (isinstance(p, ast.Constant) and (p.value is None or p.value is Ellipsis)))
    if len(ellipses) > 1 or consumed > len(shape):
        return None
    out: list[int] = []
    dim = 0
    for part in parts:
        if isinstance(part, ast.Constant) and part.value is None:
            out.append(1)  # a new axis
        elif isinstance(part, ast.Constant) and part.value is Ellipsis:
            out.extend(shape[dim : dim + len(shape) - consumed])
            dim += len(shape) - consumed
        elif isinstance(part, ast.Slice) and (kept := _slice_length(part, shape[dim])) is not None:
            out.append(kept)  # `a[:, :128]`
            dim += 1
        elif isinstance(part, ast.Constant) and type(part.value) is int and -shape[dim] <= part.value < shape[dim]:
            dim += 1  # an int drops its axis
        else:
            return None
    return (*out, *shape[dim:])


def sum_of(elements: frozenset[Value]) -> Array | None:
    """`sum([x, y])` when every element is an array: `0 + x + y`, an array (traced when one is,
    else jax when one is, else numpy), of the shape and dtype they share."""
    if not elements or not all(isinstance(e, Array) for e in elements):
        return None
    parts = [cast(Array, e) for e in elements]
    origins = {a.origin for a in parts}
    origin = next(o for o in ("traced", "jax", "numpy") if o in origins or o == "numpy")
    shapes = {a.shape for a in parts}
    dtypes = {a.dtype for a in parts}
    return Array(origin, shapes.pop() if len(shapes) == 1 else None, dtypes.pop() if len(dtypes) == 1 else None)
