"""PAL106 tpu-compiler-params-mismatch: TPU compiler parameters that do not fit the launch."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import LaunchSpecs, block_specs, compiler_param, launch_specs, pipeline_buffers, tpu_launches
from ..engine.findings import Finding, Severity
from ..engine.kernels import Launch
from ..engine.values.domain import Const, Seq, int_constant, only_value
from .base import Example

CODE = "PAL106"
NAME = "tpu-compiler-params-mismatch"
SEVERITY = Severity.ERROR
SUMMARY = "TPU compiler parameters that do not fit the launch (interpret mode ignores them)"

DOCS = """
## What it does
Reports, on a `pallas_call` compiled for a TPU:

- `pltpu.CompilerParams(dimension_semantics=...)` with another number of entries than the grid has
  dimensions (no grid counts as zero);
- a dimension semantics name other than `"parallel"`, `"arbitrary"`, `"core_parallel"` and
  `"subcore_parallel"`;
- `pipeline_mode=pl.Buffered(n)` with `n` other than 1 or 2 on a BlockSpec of the `pallas_call`
  itself (deeper buffering is for `pltpu.emit_pipeline`).

## Why is this bad?
Interpret mode drops `compiler_params` and ignores the buffering, so the launch passes every test
on a laptop; compiling it for a TPU fails. Observed on a TPU v5e with JAX 0.10.2
(`tests/tpu_cases/pal106/`):

    ValueError: Length of grid does not match length of dimension semantics. len(grid)=1, len(dimension_semantics)=2
    MLIRError: Unable to parse attribute: ... expected ::mlir::tpu::DimensionSemantics to be one of:
    parallel, arbitrary, core_parallel, subcore_parallel
    LoweringException: Only single (1) and double (2) buffering are supported. Got 3.

## What is not reported
Launches not certainly compiled for a TPU (see PAL101), a grid or semantics whose length the
program does not make constant, semantics given as JAX's enum values, and compiler parameters
passed as a dict.

## How to fix
Give one semantics entry per grid dimension (`"parallel"` where iterations are independent,
`"arbitrary"` where they accumulate), and `pl.Buffered(1)` or `pl.Buffered(2)`.
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

x = jnp.ones((16, 256), jnp.float32)
"""

EXAMPLES = [
    Example(
        "semantics-longer-than-grid",
        _PRELUDE
        + """
spec = pl.BlockSpec((8, 256), lambda i: (i, 0))
out = pl.pallas_call(
    double,
    grid=(2,),
    in_specs=[spec],
    out_specs=spec,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(dimension_semantics=«("parallel", "arbitrary")»),
)(x)
""",
        valid=False,
        tpu_error="Length of grid does not match length of dimension semantics",
    ),
    Example(
        "semantics-without-a-grid",
        _PRELUDE
        + """
params = pltpu.CompilerParams(dimension_semantics=«("parallel",)»)
out = pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=params)(x)
""",
        valid=False,
        tpu_error="Length of grid does not match length of dimension semantics",
    ),
    Example(
        "misspelt-semantics",
        _PRELUDE
        + """
spec = pl.BlockSpec((8, 256), lambda i: (i, 0))
out = pl.pallas_call(
    double,
    grid=(2,),
    in_specs=[spec],
    out_specs=spec,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(dimension_semantics=(«"paralel"»,)),
)(x)
""",
        valid=False,
        tpu_error="expected ::mlir::tpu::DimensionSemantics to be one of",
    ),
    Example(
        "triple-buffering",
        _PRELUDE
        + """
out = pl.pallas_call(
    double,
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 256), lambda i: (i, 0), pipeline_mode=«pl.Buffered(3)»)],
    out_specs=pl.BlockSpec((8, 256), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
""",
        valid=False,
        tpu_error="Only single (1) and double (2) buffering are supported",
    ),
    Example(
        "semantics-per-grid-dimension-and-single-buffering",
        _PRELUDE
        + """
spec = pl.BlockSpec((8, 128), lambda i, j: (i, j), pipeline_mode=pl.Buffered(1))
out = pl.pallas_call(
    double,
    grid=(2, 2),
    in_specs=[spec],
    out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")),
)(x)
""",
        valid=True,
    ),
]

_SEMANTICS = frozenset({"parallel", "arbitrary", "core_parallel", "subcore_parallel"})


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    seen: set[tuple[int, str]] = set()
    for launch in tpu_launches(analysis):
        specs = launch_specs(launch)
        if specs is None:
            continue
        for node, message in [*_semantics_problems(launch, specs), *_buffering_problems(launch, specs)]:
            if (id(node), message) not in seen:
                seen.add((id(node), message))
                yield Finding(CODE, message, analysis.source.node_range(node), analysis.path, SEVERITY)


def _semantics_problems(launch: Launch, specs: LaunchSpecs) -> Iterator[tuple[ast.AST, str]]:
    found = compiler_param(launch, "dimension_semantics")
    if found is None:
        return
    semantics_expr, values, model = found
    here = model is launch.model
    semantics = only_value(values)
    if not isinstance(semantics, Seq) or semantics.elts is None:
        return
    grid_rank = _grid_rank(specs)
    if grid_rank is not None and grid_rank != len(semantics.elts):
        grid = f"a grid of {grid_rank} dimension{'s' * (grid_rank != 1)}" if grid_rank else "no grid"
        yield (
            semantics_expr if here else launch.node,
            f"{len(semantics.elts)} dimension semantics for {grid}: a TPU needs one per grid dimension "
            f"(ValueError: Length of grid does not match length of dimension semantics). "
            "Interpret mode ignores compiler_params",
        )
    for element, written in zip(semantics.elts, _written_elements(semantics_expr), strict=False):
        name = only_value(element)
        if isinstance(name, Const) and isinstance(name.value, str) and name.value not in _SEMANTICS:
            yield (
                written if here and written is not None else launch.node,
                f"Unknown dimension semantics {name.value!r}: a TPU accepts "
                f"{', '.join(repr(s) for s in sorted(_SEMANTICS))}. Interpret mode ignores compiler_params",
            )


def _grid_rank(specs: LaunchSpecs) -> int | None:
    if specs.grid is None:
        return 0
    grid = only_value(specs.grid)
    if isinstance(grid, Seq):
        return len(grid.elts) if grid.elts is not None else None
    return 1 if int_constant(specs.grid) is not None else None


def _written_elements(expr: ast.expr) -> list[ast.expr | None]:
    """The elements of a tuple/list written in place (where each semantics name is)."""
    if isinstance(expr, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return list(expr.elts)
    return [None] * 64


def _buffering_problems(launch: Launch, specs: LaunchSpecs) -> Iterator[tuple[ast.AST, str]]:
    for spec in block_specs(specs.in_specs) + block_specs(specs.out_specs):
        found = pipeline_buffers(launch, spec)
        if found is None:
            continue
        mode_expr, count = found
        if count is not None and count not in (1, 2):
            yield (
                mode_expr if launch.interp_model(spec.loc) is launch.model else launch.node,
                f"pl.Buffered({count}) on a BlockSpec of the pallas_call: a TPU supports single (1) and "
                "double (2) buffering there (deeper pipelines are pltpu.emit_pipeline's). "
                "Interpret mode ignores the buffering",
            )
