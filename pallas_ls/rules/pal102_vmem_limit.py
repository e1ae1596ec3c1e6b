"""PAL102 tpu-vmem-limit: blocks that need more VMEM than the TPU compiler's scoped limit."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import tpu_launches
from ..engine.findings import Finding, Severity
from ..engine.target import GENERATIONS, format_bytes
from ..engine.vmem import Share, VmemEstimate, assumed_limit, vmem_estimate
from .base import Example

CODE = "PAL102"
NAME = "tpu-vmem-limit"
SEVERITY = Severity.ERROR
SUMMARY = "A pallas_call's blocks need more VMEM than a TPU's scoped limit (interpret mode runs it)"

_TABLE = "\n".join(
    f"| {g.name} | {format_bytes(g.scoped_vmem)} | {format_bytes(g.physical_vmem)} | {g.evidence} |"
    for g in GENERATIONS.values()
)

DOCS = f"""
## What it does
Estimates the VMEM a `pallas_call` compiled for a TPU needs for its blocks, and reports the launch
when that is over the compiler's scoped VMEM limit. Each BlockSpec's block (its shape, the dtype of
the array it maps) is kept in VMEM by the pipeline, double-buffered, except where JAX buffers it
once: `pipeline_mode=pl.Buffered(1)`, a block that is its whole array (its index_map returns
zeros), a grid of one step. Without `in_specs`/`out_specs`, each array is one whole block.

The limit is `vmem_limit_bytes` of the launch's `pltpu.CompilerParams` when it sets one, else the
default scoped limit of the `tpu-generation` setting (`[tool.pallas-ls]`, `--tpu-generation`, the
editor's `tpuGeneration`). Without that setting, a finding must hold on every generation pallas-ls
knows: the largest default is used, and the message says so.

| generation | default scoped limit | VMEM per core | source of the scoped limit |
|---|---|---|---|
{_TABLE}

The estimate is a lower bound: blocks are counted without the padding to (8, 128) tiles, blocks
whose shape or dtype is not known are left out, scratch buffers are left out (on a TPU v5e, 4 MiB
of VMEM scratch beside 16 MiB of double-buffered blocks compiled), and so is what the compiler
needs for the kernel's own values. Hover over `pallas_call` to see it, block by block.

## Why is this bad?
Interpret mode ignores VMEM, so the kernel passes every test on a laptop and in CI, and the first
compile for a TPU fails. Observed on a TPU v5e with JAX 0.10.2 (`tests/tpu_cases/pal102/`):

    JaxRuntimeError: RESOURCE_EXHAUSTED: E1001: CompileTimeScopedVmemOom: Ran out of memory in
    memory space vmem ... Scoped allocation with size 32.00M and limit 16.00M exceeded ...

(1024, 1024) float32 blocks in and out, double-buffered, are exactly 16 MiB and compile on a v5e;
(1280, 1024) ones (20 MiB) do not.

## What is not reported
Launches that are not certainly compiled for a TPU (see PAL101), launches whose
`vmem_limit_bytes` is not a constant, and totals at or under the limit.

## How to fix
Use smaller blocks (more grid steps), `pipeline_mode=pl.Buffered(1)` on blocks that do not change
from step to step, a narrower dtype, or raise the limit with
`compiler_params=pltpu.CompilerParams(vmem_limit_bytes=...)` (up to the chip's VMEM).
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0
"""

_OOM = "CompileTimeScopedVmemOom"

EXAMPLES = [
    Example(
        "double-buffered-blocks-over-every-limit",
        _PRELUDE
        + """

x = jnp.ones((4096, 1536), jnp.float32)
y = «pl.pallas_call»(
    scale,
    grid=(2,),
    in_specs=[pl.BlockSpec((2048, 1536), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((2048, 1536), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
""",
        valid=False,
        tpu_error=_OOM,
    ),
    Example(
        "over-the-limit-it-sets",
        _PRELUDE
        + """

params = pltpu.CompilerParams(vmem_limit_bytes=8 * 1024 * 1024)
x = jnp.ones((3072, 1024), jnp.float32)
y = «pl.pallas_call»(
    scale,
    grid=(4,),
    in_specs=[pl.BlockSpec((768, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((768, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=params,
)(x)
""",
        valid=False,
        tpu_error=_OOM,
    ),
    Example(
        "fits-or-raises-the-limit",
        _PRELUDE
        + """

x = jnp.ones((4096, 1536), jnp.float32)
small = pl.BlockSpec((512, 1536), lambda i: (i, 0))
y = pl.pallas_call(
    scale, grid=(8,), in_specs=[small], out_specs=small, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype)
)(x)
big = pl.BlockSpec((2048, 1536), lambda i: (i, 0))
y = pl.pallas_call(
    scale,
    grid=(2,),
    in_specs=[big],
    out_specs=big,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(vmem_limit_bytes=64 * 1024 * 1024),
)(x)
""",
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for launch in tpu_launches(analysis):
        estimate = vmem_estimate(launch)
        assumed = assumed_limit(estimate, analysis.options) if estimate is not None else None
        if estimate is None or assumed is None:
            continue
        limit, named = assumed
        if estimate.total > limit:
            message = _message(estimate, limit, named)
            yield Finding(CODE, message, analysis.source.node_range(_callee(launch.node)), analysis.path, SEVERITY)


def _callee(node: ast.AST) -> ast.AST:
    """`pl.pallas_call` of `pl.pallas_call(...)`: the whole call would underline the whole launch."""
    return node.func if isinstance(node, ast.Call) else node


def _message(estimate: VmemEstimate, limit: int, named: str) -> str:
    biggest = sorted(estimate.shares, key=lambda s: -s.bytes)
    parts = ", ".join(_share(s) for s in biggest[:3]) + (", ..." if len(biggest) > 3 else "")
    return (
        f"The blocks of this pallas_call need at least {format_bytes(estimate.total)} of VMEM ({parts}), "
        f"over {format_bytes(limit)}, {named}: compiling for a TPU fails (CompileTimeScopedVmemOom). "
        "Interpret mode runs it. Use smaller blocks, pl.Buffered(1) for blocks that do not change, "
        "or raise vmem_limit_bytes"
    )


def _share(share: Share) -> str:
    times = f" x {share.buffers}" if share.buffers > 1 else ""
    return f"{share.role} {share.block} {share.dtype}{times} = {format_bytes(share.bytes)}"
