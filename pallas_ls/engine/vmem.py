"""How much scoped VMEM a TPU `pallas_call`'s blocks take (issue 37: PAL102 and the hover read it).

The TPU pipeline keeps each BlockSpec's block in VMEM, double-buffered (the next block is copied in
while the kernel works on this one), except where JAX buffers it once: `pipeline_mode=pl.Buffered(1)`,
or a trivial window (the block is the whole array and the index_map returns zeros; JAX's Mosaic
lowering forces single buffering there).  Without in_specs/out_specs every array is one whole block.

The estimate is a lower bound of what the compiler counts against its scoped VMEM limit: blocks
are counted unpadded, and only those whose block shape, array and dtype are certain; where the
buffering is not certain (an unknown grid, a grid of one step, a `pl.Buffered(n)` of unknown n) a
block counts once.  Scratch (`scratch_shapes`) is listed but not counted: on a TPU v5e, 16 MiB of
double-buffered blocks with a 4 MiB VMEM scratch buffer beside them compiled, as did a 20 MB
scratch buffer without a grid (tests/tpu_cases/pal102).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from .blocks import (
    BlockMapping,
    block_mappings,
    compiler_param,
    compiler_params_call,
    launch_specs,
    pipeline_buffers,
    ref_arrays,
)
from .kernels import Launch
from .layout import api_argument, launch_layout
from .names import has_star_arguments
from .shapes import Shape, bits
from .target import RuleOptions, scoped_vmem_limit
from .values.domain import ApiResult, Seq, Value, dtype_of, int_constant, only_value, shape_of

_VMEM_SCRATCH = frozenset(
    {
        "jax.experimental.pallas.tpu.VMEM",
        "jax.experimental.pallas.tpu.MemorySpace.VMEM",
        "jax._src.pallas.mosaic.core.VMEM",
    }
)


@dataclass(frozen=True)
class Share:
    """One block's share of VMEM."""

    role: str  # "input 1", "output 1"
    block: Shape
    dtype: str
    buffers: int
    why: str  # why that many buffers, as the hover says it
    node: ast.AST | None  # the block shape as written in the launch's module (None: elsewhere)

    @property
    def bytes(self) -> int:
        return math.prod(self.block) * _bits(self.dtype) // 8 * self.buffers


@dataclass(frozen=True)
class Scratch:
    shape: Shape
    dtype: str

    @property
    def bytes(self) -> int:
        return math.prod(self.shape) * _bits(self.dtype) // 8


@dataclass(frozen=True)
class VmemEstimate:
    shares: tuple[Share, ...]
    scratch: tuple[Scratch, ...]
    unknown: int  # blocks (or arrays) whose size is not known: the total leaves them out
    limit: int | None  # `vmem_limit_bytes` of the compiler params, when given as a constant
    # The compiler params may set a limit not read here (not a constant, `**kwargs`, the older
    # dict form, a helper's result): no limit can be assumed.
    limit_unknown: bool

    @property
    def total(self) -> int:
        return sum(share.bytes for share in self.shares)


def vmem_estimate(launch: Launch) -> VmemEstimate | None:
    """The launch's VMEM estimate; None when it is not a pallas_call whose specs can be read."""
    specs = launch_specs(launch)
    if specs is None:
        return None
    steps = _grid_steps(specs.grid) if specs.grid is not None else 1
    shares: list[Share] = []
    mappings = block_mappings(launch)
    for mapping in mappings:
        if _bits(mapping.dtype) == 0:
            continue
        buffers, why = _buffering(launch, mapping, steps)
        node = mapping.block_expr if mapping.model is launch.model else None
        shares.append(Share(mapping.role, mapping.block, mapping.dtype or "", buffers, why, node))
    shares += _whole_arrays(launch, specs.in_specs is None, specs.out_specs is None)
    layout = launch_layout(launch)
    refs = (layout.inputs or 0) + (layout.outputs or 0)
    limit, limit_unknown = _limit(launch)
    return VmemEstimate(tuple(shares), tuple(_scratch(launch)), max(refs - len(shares), 0), limit, limit_unknown)


def assumed_limit(estimate: VmemEstimate, options: RuleOptions) -> tuple[int, str] | None:
    """The scoped VMEM limit the blocks are compared with, and how a message names it: the one
    the launch sets, else the generation's default (target.scoped_vmem_limit); None when the
    launch may set one not read here (PAL102 and the hover ask)."""
    if estimate.limit_unknown:
        return None
    if estimate.limit is not None:
        return estimate.limit, "the vmem_limit_bytes it sets"
    return scoped_vmem_limit(options)


def _bits(dtype: str | None) -> int:
    return bits(dtype) or 0


def _buffering(launch: Launch, mapping: BlockMapping, steps: int | None) -> tuple[int, str]:
    """How many buffers the pipeline gives a block (a lower bound when not certain), and why."""
    mode = pipeline_buffers(launch, mapping.spec)
    if mode is not None:
        count = mode[1]
        if count is None or count < 1:
            return 1, "pl.Buffered(?) (counted once)"
        return count, f"pl.Buffered({count})"
    if mapping.block == mapping.array:
        return 1, "the whole array (buffered once)"
    if steps is None:
        return 1, "grid not known (counted once)"
    if steps <= 1:
        return 1, "one grid step (buffered once)"
    return 2, "double-buffered"


def _grid_steps(grid: frozenset[Value]) -> int | None:
    """The number of grid steps when the grid is a constant int or tuple of them."""
    dims = shape_of(grid)
    return math.prod(dims) if dims is not None else None


def _whole_arrays(launch: Launch, inputs: bool, outputs: bool) -> list[Share]:
    """Without in_specs (out_specs), each input (output) is one whole block, buffered once."""
    if not (inputs or outputs):
        return []
    layout = launch_layout(launch)
    if layout.prefetch is None or layout.inputs is None:
        return []
    first_input, first_output = layout.prefetch, layout.prefetch + layout.inputs
    shares = []
    for position, array in sorted(ref_arrays(launch).items()):
        if position < first_input or array.shape is None or _bits(array.dtype) == 0:
            continue
        is_input = position < first_output
        if (is_input and not inputs) or (not is_input and not outputs):
            continue
        role = f"input {position - first_input + 1}" if is_input else f"output {position - first_output + 1}"
        shares.append(Share(role, array.shape, array.dtype or "", 1, "the whole array (no BlockSpec)", None))
    return shares


def _scratch(launch: Launch) -> list[Scratch]:
    expr = launch.entry.keyword("scratch_shapes")
    if expr is None:
        return []
    value = only_value(launch.value_of(expr))
    if not isinstance(value, Seq) or value.elts is None:
        return []
    found = []
    for element in value.elts:
        buffer = only_value(element)
        if not (isinstance(buffer, ApiResult) and buffer.qualname in _VMEM_SCRATCH) or launch.interp is None:
            continue
        model = launch.interp_model(buffer.loc)
        shape_expr, dtype_expr = api_argument(buffer, "shape", 0), api_argument(buffer, "dtype", 1)
        if shape_expr is None or dtype_expr is None:
            continue
        shape = shape_of(launch.interp.ev(shape_expr, buffer.loc, buffer.env, model))
        dtype = dtype_of(launch.interp.ev(dtype_expr, buffer.loc, buffer.env, model))
        if shape is not None and dtype is not None and _bits(dtype):
            found.append(Scratch(shape, dtype))
    return found


def _limit(launch: Launch) -> tuple[int | None, bool]:
    """(the limit the launch sets, whether it may set one not read here)."""
    found = compiler_param(launch, "vmem_limit_bytes")
    if found is not None:
        limit = int_constant(found[1])
        return limit, limit is None
    if launch.entry.keyword("compiler_params") is None:
        return None, False
    params = compiler_params_call(launch)
    unreadable = params is None or has_star_arguments(params.call)
    return None, unreadable
