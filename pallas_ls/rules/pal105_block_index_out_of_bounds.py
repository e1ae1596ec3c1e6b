"""PAL105 tpu-block-index-out-of-bounds: an index_map that points past its array."""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import BlockMapping, block_mappings, launch_specs, tpu_launches
from ..engine.findings import Finding, Severity
from ..engine.kernels import Launch, interpreter_for
from ..engine.layout import api_argument
from ..engine.values.domain import EMPTY_ENV, int_constant, shape_of
from .base import Example

CODE = "PAL105"
NAME = "tpu-block-index-out-of-bounds"
SEVERITY = Severity.ERROR
SUMMARY = "An index_map returns a block index past its array (interpret mode reads garbage, a TPU halts)"

DOCS = """
## What it does
Evaluates each `pl.BlockSpec`'s `index_map` (a lambda written in place) at the corners of a
constant grid, and reports one that returns a block index below 0 or at or past the array's number
of blocks along a dimension (`ceil(array / block)`: a partial last block is fine), on a
`pallas_call` compiled for a TPU.

## Why is this bad?
Interpret mode reads or writes past the array without a word, returning whatever lies there (NaNs,
wrong results); compiled for a TPU, the core halts at run time. Observed on a TPU v5e with JAX
0.10.2 (`tests/tpu_cases/pal105/`):

    JaxRuntimeError: FAILED_PRECONDITION: The program continuator has halted unexpectedly.

## What is not reported
Launches not certainly compiled for a TPU (see PAL101), grids or shapes the program does not make
constant, index maps that are not a lambda written at the BlockSpec, or that use anything but
`+`, `-`, `*` by a constant, `//` by a constant, integer constants and names of constant ints
(`jnp.minimum`, scalar-prefetch refs and the like are not evaluated), and scalar-prefetch grids.

## How to fix
Make the grid match the number of blocks (`pl.cdiv(n, block)` steps), or clamp the index
(`jnp.minimum(i + 1, last)`).
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((16, 128), jnp.float32)
"""

_HALT = "program continuator has halted"

EXAMPLES = [
    Example(
        "next-block-past-the-end",
        _PRELUDE
        + """
out = pl.pallas_call(
    copy,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), «lambda i: (i + 1, 0)»)],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(float(out.sum()))  # the TPU reports a halt when the result is waited for
""",
        valid=False,
        tpu_error=_HALT,
    ),
    Example(
        "grid-longer-than-the-blocks",
        _PRELUDE
        + """
out = pl.pallas_call(
    copy,
    grid=(2, 2),
    in_specs=[pl.BlockSpec((8, 128), «lambda i, j: (i, j)»)],
    out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(float(out.sum()))  # the TPU reports a halt when the result is waited for
""",
        valid=False,
        tpu_error=_HALT,
    ),
    Example(
        "reversed-and-clamped",
        _PRELUDE
        + """
out = pl.pallas_call(
    copy,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (jnp.minimum(i + 1, 1), 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (2 - 1 - i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
print(float(out.sum()))  # the TPU reports a halt when the result is waited for
""",
        valid=True,
    ),
]

_MAX_CORNERS = 64  # 2 ** 6 grid dimensions


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    reported: set[int] = set()
    for launch in tpu_launches(analysis):
        specs = launch_specs(launch)
        if specs is None or specs.prefetch != 0 or specs.grid is None:
            continue
        grid = shape_of(specs.grid)  # a grid is a shape: a tuple of ints, or one int
        if grid is None or not grid or 0 in grid:
            continue
        for mapping in block_mappings(launch):
            found = _out_of_bounds(launch, mapping, grid)
            if found is None or mapping.model is not analysis.model:
                continue
            node, message = found
            if id(node) not in reported:
                reported.add(id(node))
                yield Finding(CODE, message, analysis.source.node_range(node), analysis.path, SEVERITY)


def _out_of_bounds(launch: Launch, mapping: BlockMapping, grid: tuple[int, ...]) -> tuple[ast.AST, str] | None:
    index_map = api_argument(mapping.spec, "index_map", 1)
    if not isinstance(index_map, ast.Lambda) or len(grid) > 6:
        return None
    params = [a.arg for a in index_map.args.args]
    if len(params) != len(grid) or index_map.args.vararg or index_map.args.kwonlyargs:
        return None
    body = index_map.body
    outputs = body.elts if isinstance(body, ast.Tuple) else [body]
    if len(outputs) != len(mapping.block):
        return None
    blocks = [math.ceil(a / b) for a, b in zip(mapping.array, mapping.block, strict=True)]
    constants = _ConstantNames(launch, mapping, index_map)
    for corner in itertools.product(*[(0, g - 1) for g in grid]):
        point = dict(zip(params, corner, strict=True))
        for dim, expr in enumerate(outputs):
            value = _evaluate(expr, point, constants)
            if value is None:
                return None  # not something we evaluate: say nothing about this map
            if not 0 <= value < blocks[dim]:
                step = corner if len(corner) > 1 else corner[0]
                return index_map, (
                    f"index_map returns block {value} along dimension {dim} at grid step {step}, but the "
                    f"{mapping.role} ({mapping.array} in blocks of {mapping.block}) has {blocks[dim]} block"
                    f"{'s' * (blocks[dim] != 1)} there (0..{blocks[dim] - 1}). Interpret mode reads past "
                    "the array silently; a TPU halts (The program continuator has halted unexpectedly)"
                )
    return None


class _ConstantNames:
    """Names in an index_map that are not its parameters, read as constant ints where they are."""

    def __init__(self, launch: Launch, mapping: BlockMapping, where: ast.Lambda):
        self.launch, self.mapping, self.where = launch, mapping, where
        self.known: dict[str, int | None] = {}

    def get(self, name: str) -> int | None:
        if name not in self.known:
            spec = self.mapping.spec
            model = self.mapping.model
            interp = self.launch.interp or interpreter_for(model)
            self.known[name] = int_constant(
                interp.ev(ast.Name(name, ast.Load()), spec.loc, spec.env or EMPTY_ENV, model)
            )
        return self.known[name]


def _evaluate(expr: ast.AST, point: dict[str, int], names: _ConstantNames) -> int | None:
    """An int expression of the grid indices: +, -, * and // by constants, names of constant ints."""
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    if isinstance(expr, ast.Name):
        return point[expr.id] if expr.id in point else names.get(expr.id)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        value = _evaluate(expr.operand, point, names)
        return -value if value is not None else None
    if isinstance(expr, ast.BinOp):
        left, right = _evaluate(expr.left, point, names), _evaluate(expr.right, point, names)
        if left is None or right is None:
            return None
        if isinstance(expr.op, ast.Add):
            return left + right
        if isinstance(expr.op, ast.Sub):
            return left - right
        # Only products and quotients by a constant: monotonic in each index, so the grid's
        # corners are where the index is smallest and largest.
        constant_side = not _uses(expr.left, point) or not _uses(expr.right, point)
        if isinstance(expr.op, ast.Mult) and constant_side:
            return left * right
        if isinstance(expr.op, ast.FloorDiv) and not _uses(expr.right, point) and right > 0:
            return left // right
    return None


def _uses(expr: ast.AST, point: dict[str, int]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in point for n in ast.walk(expr))
