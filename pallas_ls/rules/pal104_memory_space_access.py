"""PAL104 tpu-memory-space-access: a kernel reads or writes a ref in a way its memory space forbids."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import (
    LaunchSpecs,
    block_specs,
    launch_specs,
    rebound_names,
    ref_arrays,
    spec_block_rank,
    tpu_kernel_sites,
)
from ..engine.findings import Finding, Severity
from ..engine.kernels import KernelSite, Launch
from ..engine.layout import INPUT, OUTPUT, PREFETCH, api_argument, launch_layout, parameter_roles
from ..engine.values.domain import ApiResult, Array, External, ShapeStruct, only_value
from .base import Example

CODE = "PAL104"
NAME = "tpu-memory-space-access"
SEVERITY = Severity.ERROR
SUMMARY = "A kernel accesses a ref in a way its TPU memory space forbids (interpret mode allows it)"

DOCS = """
## What it does
Reports, in the kernel of a `pallas_call` compiled for a TPU:

- `ref[...]` on a ref in SMEM (a `pl.BlockSpec(memory_space=pltpu.SMEM)` input, or a
  scalar-prefetch ref): SMEM holds scalars, read one at a time (`ref[0]`);
- `ref[...]` on, or a store into, a ref left in `pl.ANY` (HBM): only a DMA
  (`pltpu.make_async_copy`, `pltpu.sync_copy`) reaches it;
- a store of one element into a VMEM ref (`o_ref[0, 0] = v`, every index an integer): VMEM is
  written in vectors.

## Why is this bad?
Interpret mode models every memory space as an ordinary array, so the kernel runs on a laptop; the
TPU lowering refuses it. Observed on a TPU v5e with JAX 0.10.2 (`tests/tpu_cases/pal104/`):

    ValueError: Can only load scalars from SMEM
    ValueError: Loads are only allowed on VMEM and SMEM references. ANY memory space can only be
    accessed using async_copy.
    ValueError: Cannot store scalars to VMEM

## What is not reported
Launches not certainly compiled for a TPU (see PAL101), refs whose memory space or rank the
program does not make certain, kernels that rebind the ref's name, accesses through `pl.load` /
`pl.store` or views, and kernels defined here but launched from another module.

## How to fix
Read SMEM refs one scalar at a time (`s_ref[i]`), copy ANY refs into VMEM scratch with
`pltpu.make_async_copy(src, dst, sem)` (or `pltpu.sync_copy`), and write VMEM refs a vector at a
time (`o_ref[0:1, :] = row`), or keep per-element results in SMEM.
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
"""

EXAMPLES = [
    Example(
        "vector-load-from-smem",
        _PRELUDE
        + """

def scale(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * «s_ref[...]»


s = jnp.full((8, 128), 2.0, jnp.float32)
out = pl.pallas_call(
    scale,
    in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), pl.BlockSpec(memory_space=pltpu.VMEM)],
    out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(s, x)
""",
        valid=False,
        tpu_error="Can only load scalars from SMEM",
    ),
    Example(
        "load-from-an-any-ref",
        _PRELUDE
        + """

def add_one(x_hbm, o_ref):
    o_ref[...] = «x_hbm[...]» + 1


out = pl.pallas_call(
    add_one,
    in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
    out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
""",
        valid=False,
        tpu_error="Loads are only allowed on VMEM and SMEM references",
    ),
    Example(
        "scalar-store-to-vmem",
        _PRELUDE
        + """

def mark(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    «o_ref[0, 0]» = 1.0


out = pl.pallas_call(mark, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
""",
        valid=False,
        tpu_error="Cannot store scalars to VMEM",
    ),
    Example(
        "scalar-from-smem-row-to-vmem-and-a-dma",
        _PRELUDE
        + """

def scale(s_ref, x_hbm, o_ref, buf, sem):
    copy = pltpu.make_async_copy(x_hbm, buf, sem)
    copy.start()
    copy.wait()
    o_ref[...] = buf[...] * s_ref[0]
    o_ref[0:1, :] = jnp.zeros((1, 128), jnp.float32)


s = jnp.array([2.0], jnp.float32)
out = pl.pallas_call(
    scale,
    in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), pl.BlockSpec(memory_space=pl.ANY)],
    out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32), pltpu.SemaphoreType.DMA],
)(s, x)
""",
        valid=True,
    ),
]

SMEM, ANY, VMEM = "SMEM", "ANY", "VMEM"


@dataclass(frozen=True)
class _Place:
    space: str | None  # SMEM, ANY, VMEM; None: not known
    rank: int | None  # the ref's rank, when known
    elements: int | None = None  # how many elements the ref holds, when known (an SMEM ref: its array's)


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for site in tpu_kernel_sites(analysis):
        launch = site.launch
        # Cheap looks first: a module that never says SMEM, ANY or scalar prefetch has only VMEM
        # refs, and a kernel that never writes `ref[0, 0] = ...` cannot misuse one.
        if not _MEMORY_WORDS.search(analysis.source.text) and not _may_store_a_scalar(analysis, site):
            continue
        specs = launch_specs(launch)
        if specs is None:
            continue
        places = _places(launch, specs)
        if not places:
            continue
        if not any(p.space in (SMEM, ANY) for p in places.values()) and not _may_store_a_scalar(analysis, site):
            continue
        layout = launch_layout(launch)
        accesses, assigned = _accesses(site.function)
        rebound = rebound_names(site.function)
        for number, role in enumerate(parameter_roles(site, layout)):
            place = places.get(number) if role.role in (PREFETCH, INPUT, OUTPUT) else None
            if place is None or role.name in rebound or role.name not in accesses:
                continue
            for node, message in _misuses(accesses[role.name], assigned, role.name, place):
                yield Finding(CODE, message, analysis.source.node_range(node), analysis.path, SEVERITY)


_MEMORY_WORDS = re.compile(r"\b(?:SMEM|ANY|num_scalar_prefetch|PrefetchScalarGridSpec)\b")
_SCALAR_STORE = re.compile(r"\[\s*-?\d+\s*(?:,\s*-?\d+\s*)*\]\s*=(?!=)")


def _may_store_a_scalar(analysis: ModuleAnalysis, site: KernelSite) -> bool:
    """The kernel's text has `name[0, 0] = ...` somewhere (a cheap look before a walk)."""
    function = site.function
    lines = analysis.source.lines[function.lineno - 1 : getattr(function, "end_lineno", None) or function.lineno]
    return _SCALAR_STORE.search("".join(lines)) is not None


def _places(launch: Launch, specs: LaunchSpecs) -> dict[int, _Place]:
    """Where each ref the launch passes lives, by its position among the kernel's refs."""
    layout = launch_layout(launch)
    if layout.prefetch is None or layout.inputs is None or layout.outputs is None:
        return {}
    arrays = ref_arrays(launch)
    places = {i: _Place(SMEM, None, _size(arrays.get(i))) for i in range(layout.prefetch)}
    groups = [(specs.in_specs, layout.inputs), (specs.out_specs, layout.outputs)]
    index = layout.prefetch
    for spec_values, count in groups:
        spec_list = block_specs(spec_values) if spec_values is not None else None
        for k in range(count):
            if spec_values is None:
                spec: ApiResult | None = None
            elif spec_list is not None and len(spec_list) == count:
                spec = spec_list[k]
            else:
                index += 1
                continue
            array = arrays.get(index)
            space = _space(launch, spec)
            # An SMEM or ANY spec maps the whole array: what the kernel's ref holds is the array.
            places[index] = _Place(space, _rank(launch, spec, array), _size(array) if space != VMEM else None)
            index += 1
    return places


def _space(launch: Launch, spec: ApiResult | None) -> str | None:
    if spec is None:
        return VMEM  # no spec: the whole array, in VMEM
    expr = api_argument(spec, "memory_space", None)
    if expr is None:
        return VMEM
    if launch.interp is None:
        return None
    value = only_value(launch.interp.ev(expr, spec.loc, spec.env, launch.interp_model(spec.loc)))
    if isinstance(value, (External, ApiResult)):
        for space in (SMEM, ANY, VMEM):
            if value.qualname.endswith("." + space):
                return space
    return None


def _rank(launch: Launch, spec: ApiResult | None, array: Array | ShapeStruct | None) -> int | None:
    rank = spec_block_rank(launch, spec) if spec is not None else None
    if rank is not None:
        return rank
    return len(array.shape) if array is not None and array.shape is not None else None


def _size(array: Array | ShapeStruct | None) -> int | None:
    if array is None or array.shape is None:
        return None
    size = 1
    for dim in array.shape:
        size *= dim
    return size


def _accesses(function: ast.AST) -> tuple[dict[str, list[ast.Subscript]], set[int]]:
    """In one walk of the kernel (not one per parameter): the subscripts of plain names, by
    name, and which of them a plain `=` assigns."""
    found: dict[str, list[ast.Subscript]] = {}
    assigned: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            found.setdefault(node.value.id, []).append(node)
        elif isinstance(node, ast.Assign):
            assigned.update(id(t) for t in node.targets)
    return found, assigned


def _misuses(
    subscripts: list[ast.Subscript], assigned: set[int], name: str, place: _Place
) -> Iterator[tuple[ast.AST, str]]:
    for node in subscripts:
        whole = isinstance(node.slice, ast.Constant) and node.slice.value is Ellipsis
        if isinstance(node.ctx, ast.Load) and whole and place.space == SMEM and (place.elements or 0) > 1:
            # (A one-element SMEM ref, a 0-d index or a key, loads a scalar: only a bigger one is reported.)
            yield (
                node,
                (
                    f"`{name}[...]` loads a whole SMEM ref: a TPU loads only scalars from SMEM "
                    f"(ValueError: Can only load scalars from SMEM); read `{name}[i]`. Interpret mode allows it"
                ),
            )
        elif isinstance(node.ctx, ast.Load) and whole and place.space == ANY:
            yield (
                node,
                (
                    f"`{name}[...]` loads a ref left in pl.ANY (HBM): a TPU reaches it only by DMA "
                    "(ValueError: Loads are only allowed on VMEM and SMEM references); copy it into VMEM "
                    "with pltpu.make_async_copy. Interpret mode allows it"
                ),
            )
        elif isinstance(node.ctx, ast.Store) and id(node) in assigned:
            yield from _store_misuse(node, name, place)


def _store_misuse(target: ast.Subscript, name: str, place: _Place) -> Iterator[tuple[ast.AST, str]]:
    if place.space == ANY:
        yield (
            target,
            (
                f"a store into `{name}`, a ref left in pl.ANY (HBM): a TPU reaches it only by DMA "
                "(ValueError: Loads and stores are only allowed on VMEM and SMEM references). "
                "Interpret mode allows it"
            ),
        )
        return
    index = target.slice
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    scalar = all(isinstance(p, ast.Constant) and type(p.value) is int for p in parts)
    if place.space == VMEM and scalar and place.rank is not None and len(parts) == place.rank:
        yield (
            target,
            (
                f"`{ast.unparse(target)} = ...` stores one element into a VMEM ref: a TPU writes VMEM in "
                "vectors (ValueError: Cannot store scalars to VMEM); write a row or a block, or keep "
                "scalars in SMEM. Interpret mode allows it"
            ),
        )
