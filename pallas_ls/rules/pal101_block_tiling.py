"""PAL101 tpu-block-tiling: a BlockSpec whose block shape a TPU cannot tile."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import BlockMapping, block_mappings, tpu_launches
from ..engine.findings import Finding, Severity
from ..engine.shapes import bits
from .base import Example

CODE = "PAL101"
NAME = "tpu-block-tiling"
SEVERITY = Severity.ERROR
SUMMARY = "A block shape that a TPU cannot tile (interpret mode accepts it)"

DOCS = """
## What it does
Reports a `pl.BlockSpec` of a `pallas_call` compiled for a TPU whose block shape the TPU cannot
tile, given the shape and dtype of the array it maps (an input the launched callable is called
with, or an element of `out_shape`):

- rank >= 2: each of the last two block dimensions must be a multiple of 8 (second-to-last) and
  128 (last), or equal the array's dimension;
- 8-bit dtypes (int8, uint8, float8): the second-to-last block dimension must be a multiple of 32
  (or equal the array's), 4-bit ones 64: the TPU tiles them (32, 128) and (64, 128), on every
  generation (jax/_src/tpu_info.py `get_sublane_tiling`);
- rank 1: the block must equal the array's length, be a multiple of 1024, or be a power of two of
  at least 128 x (32 / the dtype's bit width).

## Why is this bad?
Interpret mode (what a laptop and CI run) accepts any block shape, so the kernel passes every test,
and the first compile for a TPU fails. Observed on a TPU v5e with JAX 0.10.2
(`tests/tpu_cases/pal101/`, `tests/tpu_cases/observed_tpu_v5e.json`):

    ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your
    block shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions
    of the overall array.

    JaxRuntimeError: INVALID_ARGUMENT: Mosaic failed to compile TPU kernel: ... E2002:
    CompileTimeMosaicMisalignedBlockAndTiling: Operand of shape (..., 64, 256) has tiling (32, 128),
    but its block shape (..., 16, 128) is not divisible ...

    ValueError: The Pallas TPU lowering currently requires that rank 1 block shapes, either 1) ...

## What is not reported
Launches that are not certainly compiled for a TPU: `interpret=` anything but `False`, a
`backend=`, a module that imports Pallas's GPU APIs (Triton, Mosaic GPU) or not its TPU API and
whose launch names no TPU compiler parameters, grid spec or memory space (with `tpu-generation`
set, a module that imports neither API counts as a TPU module). Blocks whose shape, or
whose array's shape, the program does not make constant, arrays passed through `*args`, a
launched callable called more than once, BlockSpecs with a `memory_space` (SMEM and ANY blocks
follow other rules), and 16-bit dtypes' generation-specific tiling.

## How to fix
Choose block dimensions that are multiples of (8, 128) — of (32, 128) for 8-bit types — or the
array's whole dimension, and adjust the grid to match (`pl.cdiv(n, block)` steps).
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def copy(x_ref, o_ref):  # int8 arithmetic does not compile on a TPU (another rule's business)
    o_ref[...] = x_ref[...]
"""

_LANES = "last two dimensions of your block shape are divisible by 8 and 128"

EXAMPLES = [
    Example(
        "lanes-not-a-multiple-of-128",
        _PRELUDE
        + """

x = jnp.ones((8, 256), jnp.float32)
out = pl.pallas_call(
    add_one,
    grid=(4,),
    in_specs=[pl.BlockSpec(«(8, 64)», lambda j: (0, j))],
    out_specs=pl.BlockSpec(«(8, 64)», lambda j: (0, j)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
)(x)
""",
        valid=False,
        tpu_error=_LANES,
    ),
    Example(
        "rows-computed-from-the-array",
        _PRELUDE
        + """

x = jnp.ones((16, 128), jnp.float32)
block = (x.shape[0] // 4, x.shape[1])
out = pl.pallas_call(
    add_one,
    grid=(4,),
    in_specs=[pl.BlockSpec(«block», lambda i: (i, 0))],
    out_specs=pl.BlockSpec(«block», lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
""",
        valid=False,
        tpu_error=_LANES,
    ),
    Example(
        "int8-rows-not-a-multiple-of-32",
        _PRELUDE
        + """

x = jnp.ones((64, 256), jnp.int8)
spec = pl.BlockSpec(«(16, 128)», lambda i, j: (i, j))
out = pl.pallas_call(
    copy, grid=(4, 2), in_specs=[spec], out_specs=spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype)
)(x)
""",
        valid=False,
        tpu_error="CompileTimeMosaicMisalignedBlockAndTiling",
    ),
    Example(
        "rank-1-block-of-100",
        _PRELUDE
        + """

x = jnp.zeros((1000,), jnp.float32)
out = pl.pallas_call(
    add_one,
    grid=(10,),
    in_specs=[pl.BlockSpec(«(100,)», lambda i: (i,))],
    out_specs=pl.BlockSpec(«(100,)», lambda i: (i,)),
    out_shape=jax.ShapeDtypeStruct((1000,), jnp.float32),
)(x)
""",
        valid=False,
        tpu_error="rank 1 block shapes",
    ),
    Example(
        "tiles-of-8-by-128-and-whole-dimensions",
        _PRELUDE
        + """

x = jnp.ones((3, 24, 384), jnp.float32)
out = pl.pallas_call(
    add_one,
    grid=(3, 3),
    in_specs=[pl.BlockSpec((None, 24, 128), lambda b, j: (b, 0, j))],
    out_specs=pl.BlockSpec((None, 24, 128), lambda b, j: (b, 0, j)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
small = jnp.ones((5, 100), jnp.float32)
whole = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(small.shape, small.dtype))(small)
""",
        valid=True,
    ),
    Example(
        "int8-rows-of-32-and-rank-1-power-of-two",
        _PRELUDE
        + """

x = jnp.ones((64, 256), jnp.int8)
spec = pl.BlockSpec((32, 128), lambda i, j: (i, j))
out = pl.pallas_call(
    copy, grid=(2, 2), in_specs=[spec], out_specs=spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype)
)(x)
v = jnp.zeros((1024,), jnp.float32)
line = pl.BlockSpec((128,), lambda i: (i,))
out = pl.pallas_call(add_one, grid=(8,), in_specs=[line], out_specs=line, out_shape=jax.ShapeDtypeStruct(v.shape, v.dtype))(v)
""",
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    # One finding per block shape written (a spec shared by inputs and outputs names them all).
    found: dict[tuple[int, str], tuple[ast.AST, list[BlockMapping]]] = {}
    for launch in tpu_launches(analysis):
        for mapping in block_mappings(launch):
            problem = tiling_problem(mapping.block, mapping.array, mapping.dtype)
            if problem is not None:
                node = mapping.block_expr if mapping.model is analysis.model else launch.node
                found.setdefault((id(node), problem), (node, []))[1].append(mapping)
    for (_, problem), (node, mappings) in found.items():
        message = _message(mappings, problem)
        yield Finding(CODE, message, analysis.source.node_range(node), analysis.path, SEVERITY)


def tiling_problem(block: tuple[int, ...], array: tuple[int, ...], dtype: str | None) -> str | None:
    """Why a TPU cannot tile `block` over an array of this shape and dtype; None when it can, or
    when whether it can depends on what is not known (a dtype, a generation)."""
    if len(block) >= 2:
        rows, lanes, array_rows, array_lanes = block[-2], block[-1], array[-2], array[-1]
        if lanes != array_lanes and lanes % 128:
            return f"its last dimension, {lanes}, is neither a multiple of 128 nor the array's {array_lanes}"
        if rows != array_rows and rows % 8:
            return f"its second-to-last dimension, {rows}, is neither a multiple of 8 nor the array's {array_rows}"
        width = bits(dtype) if dtype != "bool" else None
        if width is not None and width < 16 and rows != array_rows and rows % (8 * 32 // width):
            tile = 8 * 32 // width
            return (
                f"{dtype} is tiled ({tile}, 128) on every TPU generation, and its second-to-last "
                f"dimension, {rows}, is neither a multiple of {tile} nor the array's {array_rows}"
            )
        return None
    if len(block) == 1:
        size, length = block[0], array[0]
        if size == length or size % 1024 == 0:
            return None
        power_of_two = size & (size - 1) == 0
        width = bits(dtype) if dtype != "bool" else None
        smallest = 128 * (32 // width) if width is not None and width <= 32 else None
        if power_of_two and (smallest is None or size >= smallest):
            return None  # a power of two large enough for its dtype (or for some dtype)
        if power_of_two and size < 128:
            return f"a 1-D block must equal the array's length ({length}), be a multiple of 1024, or be a power of two of at least 128; {size} is none of these"
        if power_of_two:
            return f"a 1-D {dtype} block must equal the array's length ({length}), be a multiple of 1024, or be a power of two of at least {smallest}; {size} is none of these"
        return f"a 1-D block must equal the array's length ({length}), be a multiple of 1024, or be a power of two; {size} is none of these"
    return None


def _message(mappings: list[BlockMapping], problem: str) -> str:
    first = mappings[0]
    roles = list(dict.fromkeys(m.role for m in mappings if (m.array, m.dtype) == (first.array, first.dtype)))
    named = roles[0] if len(roles) == 1 else ", ".join(roles[:-1]) + " and " + roles[-1]
    array = f"array {first.array}" + (f", {first.dtype}" if first.dtype else "")
    return (
        f"Block shape {first.block} of {named} ({array}) cannot be tiled on a TPU: {problem}. "
        "Interpret mode runs it; compiling for a TPU fails"
    )
