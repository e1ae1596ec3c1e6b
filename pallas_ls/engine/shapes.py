"""Constant shapes and dtypes of arrays, as the value interpreter carries them (issue 36's value
domain; the TPU rules read them).

A dtype is kept as NumPy's canonical name ("float32", "bfloat16", "int8", "bool").  Everything
here is plain data: the interpreter turns its values into these (interp.shape_of / dtype_of).
"""

from __future__ import annotations

Shape = tuple[int, ...]

# Bits per element, by canonical name.  An unknown name has no width: rules that need it say nothing.
_BITS = {
    "bool": 8,
    "int4": 4,
    "uint4": 4,
    "int8": 8,
    "uint8": 8,
    "float8_e4m3fn": 8,
    "float8_e5m2": 8,
    "float8_e4m3b11fnuz": 8,
    "int16": 16,
    "uint16": 16,
    "float16": 16,
    "bfloat16": 16,
    "int32": 32,
    "uint32": 32,
    "float32": 32,
    "int64": 64,
    "uint64": 64,
    "float64": 64,
    "complex64": 64,
    "complex128": 128,
}

# NumPy's one-letter codes and the builtin types, as `dtype=` accepts them.
_ALIASES = {
    "f2": "float16",
    "f4": "float32",
    "f8": "float64",
    "i1": "int8",
    "i2": "int16",
    "i4": "int32",
    "i8": "int64",
    "u1": "uint8",
    "u2": "uint16",
    "u4": "uint32",
    "u8": "uint64",
    "b1": "bool",
    "bool_": "bool",
    "float": "float32",  # jnp.float / builtins.float under JAX's default (x64 disabled)
    "int": "int32",
}

# What the dtype of an array an array constructor makes is when none is given: JAX's defaults
# with 64-bit types disabled (the default).
DEFAULT_FLOAT = "float32"
DEFAULT_INT = "int32"


def canonical_dtype(name: str) -> str | None:
    """`jnp.float32`'s last name, `"f4"`, `"bfloat16"` -> the canonical name; None if unknown."""
    name = name.rsplit(".", 1)[-1].strip("<>=|")
    name = _ALIASES.get(name, name)
    return name if name in _BITS else None


def bits(dtype: str | None) -> int | None:
    return _BITS.get(dtype) if dtype is not None else None


def itemsize(dtype: str | None) -> int | None:
    """Bytes per element, as numpy's `itemsize` says (a sub-byte type takes one)."""
    width = bits(dtype)
    return max(1, width // 8) if width else None


def as_shape(dims: object) -> Shape | None:
    """A tuple of non-negative ints (an int is a 1-D shape); None for anything else."""
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = (dims,)
    if isinstance(dims, tuple) and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
        return dims
    return None


def reshaped(shape: Shape | None, new: tuple[int, ...]) -> Shape | None:
    """`x.reshape(new)`: one -1 is inferred; None when the sizes cannot match or are unknown."""
    if shape is None or new.count(-1) > 1 or any(d < -1 for d in new):
        return None
    size = 1
    for d in shape:
        size *= d
    known = 1
    for d in new:
        if d != -1:
            known *= d
    if -1 in new:
        if known == 0 or size % known:
            return None
        new = tuple(size // known if d == -1 else d for d in new)
    elif known != size:
        return None
    return new


def broadcast(shapes: list[Shape]) -> Shape | None:
    """NumPy broadcasting of known shapes (None: they do not broadcast)."""
    rank = max((len(s) for s in shapes), default=0)
    out: list[int] = []
    for i in range(rank):
        dims = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0} - {1}
        if len(dims) > 1:
            return None
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def reduced(shape: Shape, axis: int | tuple[int, ...] | None, keepdims: bool) -> Shape | None:
    """The shape of a reduction over `axis` (None: all axes) of an array of `shape`."""
    axes = set(range(len(shape))) if axis is None else {axis} if isinstance(axis, int) else set(axis)
    normal = {a + len(shape) if a < 0 else a for a in axes}
    if any(not 0 <= a < len(shape) for a in normal):
        return None
    if keepdims:
        return tuple(1 if i in normal else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in normal)
