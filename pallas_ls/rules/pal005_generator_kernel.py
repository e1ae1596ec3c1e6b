"""PAL005 generator-or-async-kernel: a Pallas kernel that yields, or an `async def` kernel."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.findings import Finding, Severity
from ..engine.kernels import KernelSite, kernel_name
from ..engine.model import FunctionNode, is_generator
from ..engine.signatures import def_header_range
from .base import Example

CODE = "PAL005"
NAME = "generator-or-async-kernel"
SEVERITY = Severity.ERROR
SUMMARY = "A Pallas kernel is a generator (it contains `yield`) or an `async def`"

DOCS = """
## What it does
Reports a Pallas kernel (a function passed to `pallas_call`, `pl.kernel`, `mpmd_map`,
`pl.core_map` or `plgpu.warp_map`) whose own body contains `yield` or `yield from`, and a kernel
defined with `async def`.

## Why is this bad?
JAX calls the kernel once, while it traces, and expects it to write its outputs and return None.
Calling a generator function or a coroutine function runs none of its body: it only makes a
generator or coroutine object. That object is not None, and JAX's check of the return value then
fails inside its own error path with an unhelpful message that names neither the kernel nor the
cause:

    TypeError: object of type 'NoneType' has no len()

A `yield` that never runs (`if False: yield`) still makes the def a generator function. A
generator decorated with `contextlib.contextmanager` fails the same way: calling it makes a context
manager, not None.

## What is not reported
`yield` inside functions nested in the kernel (their own business), generator expressions
(`sum(x for x in ...)` is an ordinary expression) and `async def` helpers that are not kernels.

## How to fix
Make the kernel a plain `def` without `yield`: write the results into the output refs. If the
`yield` was meant to step through blocks, use a grid, `pl.loop` or `lax.fori_loop` instead.
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
"""

_ERROR = "object of type 'NoneType' has no len()"

EXAMPLES = [
    Example(
        "generator-kernel",
        _PRELUDE
        + """

«def add_one»(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    yield


pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "yield-that-never-runs",
        _PRELUDE
        + """

«def add_one»(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.shape[0] == 0:
        yield from ()


pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "async-kernel",
        _PRELUDE
        + """

«async def add_one»(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "pl-kernel-generator",
        _PRELUDE
        + """
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
«def copy»(x_hbm, o_hbm):
    pltpu.sync_copy(x_hbm, o_hbm)
    yield


copy(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "contextmanager-kernel",
        _PRELUDE
        + """
import contextlib


@contextlib.contextmanager
«def add_one»(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    yield


pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "generator-expression-and-nested-generator",
        _PRELUDE
        + """

def add_three(x_ref, o_ref):
    def steps():
        yield from (1.0, 1.0, 1.0)

    o_ref[...] = x_ref[...] + sum(step for step in steps())


out = pl.pallas_call(add_three, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
assert (out == x + 3).all()
""",
        valid=True,
    ),
    Example(
        "async-helper-that-is-not-a-kernel",
        _PRELUDE
        + """
import asyncio


async def launch(x):
    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


assert (asyncio.run(launch(x)) == x + 1).all()
""",
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    seen: set[int] = set()
    for site in analysis.all_sites:
        function = site.function
        if id(function) in seen:
            continue
        seen.add(id(function))
        what = _what(function)
        if what is not None:
            yield _finding(analysis, site, function, what)


def _what(function: FunctionNode) -> str | None:
    if isinstance(function, ast.AsyncFunctionDef):
        return "is an `async def`, so calling it only makes a coroutine"
    if is_generator(function):
        return "contains `yield`, so calling it only makes a generator"
    return None


def _finding(analysis: ModuleAnalysis, site: KernelSite, function: FunctionNode, what: str) -> Finding:
    message = (
        f"Pallas kernel `{kernel_name(function)}` (launched by {site.launch.label}) {what} and runs none of its "
        "body; JAX then fails with \"TypeError: object of type 'NoneType' has no len()\". "
        "Make it a plain def without `yield` that writes its output refs"
    )
    sites = [s for s in analysis.all_sites if s.function is function]
    return Finding(
        CODE,
        message,
        def_header_range(analysis.source, function),
        analysis.path,
        SEVERITY,
        related=[analysis.launch_related(s) for s in sites],
    )
