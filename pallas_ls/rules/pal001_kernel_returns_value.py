"""PAL001 kernel-returns-value: a Pallas kernel returns something other than None."""

from __future__ import annotations

import ast
import os
from typing import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.findings import Finding, Severity
from ..engine.kernels import KernelSite, kernel_name
from ..engine.model import FunctionNode, is_generator, own_returns
from ..engine.values import Ret
from .base import Example

CODE = "PAL001"
NAME = "kernel-returns-value"
SEVERITY = Severity.ERROR
SUMMARY = "A kernel given to pallas_call, pl.kernel, mpmd_map, core_map or warp_map returns a value"

DOCS = """
## What it does
Reports a `return <value>` at the top level of a Pallas kernel (a function passed to
`pallas_call`, `pl.kernel`, `mpmd_map`, `pl.core_map` or `plgpu.warp_map`), and a lambda kernel
whose body is a value.

## Why is this bad?
Kernels do not return their results: they write them into their output refs. JAX checks, when it
traces the kernel, that the returned pytree is exactly `None`, and fails otherwise:

    ValueError: The kernel function in the pallas_call add_one at kernel.py:5 should return None.
    It returns a PyTree: PyTreeDef(*).

`pl.kernel`, `mpmd_map` and `core_map` fail the same way ("The kernel function in mpmd_map ...");
returning a ref fails with "mutable array references cannot be returned". Empty containers and
falsy constants are values too: `return ()`, `return []`, `return 0`, `return (None,)` all fail.

## What is not reported
No return, a bare `return`, `return None`; returns inside nested functions and lambdas (loop bodies,
`pl.when` bodies, `run_scoped` bodies, index maps); `return f(...)` when `f` returns None (a
function of the module whose every return is bare or None, or a None-returning API such as
`pltpu.sync_copy`, `pl.debug_print`, `jax.debug.print`, semaphore signal and wait, `.wait()`,
`o_ref.__setitem__(...)`, `pl.when(c)(f)`, `lax.fori_loop(..., None)`). Calls whose result cannot be
known statically are given the benefit of the doubt. Generator and `async def` kernels are left to
their own rule.

## How to fix
Write the result into the output ref and drop the value: `o_ref[...] = x_ref[...] + 1`.
"""

_PALLAS_CALL_PROGRAM = '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

{kernel}

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
# grid=(1,): a one-step grid, so kernels may ask for pl.program_id(0)
out = pl.pallas_call({launch}, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x)
assert (out == x + 1).all(), out
'''

_TPU_MESH_PRELUDE = '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
'''


def _pallas_call_example(name: str, kernel: str, valid: bool, launch: str = "add_one", **extra) -> Example:
    code = _PALLAS_CALL_PROGRAM.format(kernel=kernel.strip("\n"), launch=launch)
    return Example(name, code, valid, jax_error=None if valid else "should return None", **extra)


EXAMPLES = [
    # ----------------------------------------------------------------------------- invalid
    _pallas_call_example(
        "returns-the-result",
        '''
def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»
''',
        valid=False,
    ),
    _pallas_call_example(
        "returns-an-empty-tuple",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    «return ()»
''',
        valid=False,
    ),
    _pallas_call_example(
        "returns-program-id-on-a-static-branch",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.shape[0] == 8:
        «return pl.program_id(0)»
''',
        valid=False,
    ),
    _pallas_call_example(
        "partial-bound-kernel",
        '''
import functools


def add(x_ref, o_ref, *, amount):
    o_ref[...] = x_ref[...] + amount
    «return o_ref[...]»
''',
        valid=False,
        launch="functools.partial(add, amount=1.0)",
    ),
    _pallas_call_example(
        "lambda-kernel",
        '''
add_one = lambda x_ref, o_ref: «x_ref[...] + 1»
''',
        valid=False,
    ),
    _pallas_call_example(
        "factory-returning-the-kernel",
        '''
def make_kernel(amount):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + amount
        «return 0»

    return kernel
''',
        valid=False,
        launch="make_kernel(1.0)",
    ),
    _pallas_call_example(
        "returns-a-helper-value",
        '''
def plus_one(ref):
    return ref[...] + 1


def add_one(x_ref, o_ref):
    o_ref[...] = plus_one(x_ref)
    «return plus_one(x_ref)»
''',
        valid=False,
    ),
    Example(
        "decorator-form",
        '''\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)


@functools.partial(pl.pallas_call, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    «return False»


add_one(x)
''',
        valid=False,
        jax_error="should return None",
    ),
    Example(
        "pl-kernel-returns-a-ref",
        _TPU_MESH_PRELUDE
        + '''

@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
def copy(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return o_ref»


copy(x)
''',
        valid=False,
        jax_error="mutable array references cannot be returned",
    ),
    Example(
        "mpmd-map-body",
        _TPU_MESH_PRELUDE
        + '''from jax._src.pallas.mpmd import mpmd_map


def body(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return 1»


run = mpmd_map([(mesh, body)], out_types=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=pltpu.InterpretParams())
run(x)
''',
        valid=False,
        jax_error="should return None",
    ),
    Example(
        "core-map-body",
        _TPU_MESH_PRELUDE
        + '''

@jax.jit
def copy(x):
    x_ref = jax.new_ref(x)
    y_ref = jax.new_ref(jnp.zeros_like(x))

    @pl.core_map(mesh, interpret=pltpu.InterpretParams())
    def _():
        pltpu.sync_copy(x_ref, y_ref)
        «return (None,)»

    return jax.freeze(y_ref)


copy(x)
''',
        valid=False,
        jax_error="should return None",
    ),
    # ------------------------------------------------------------------------------- valid
    _pallas_call_example(
        "writes-the-output-ref",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
''',
        valid=True,
    ),
    _pallas_call_example(
        "bare-and-none-returns",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.shape[0] == 8:
        return
    return None
''',
        valid=True,
    ),
    _pallas_call_example(
        "returns-inside-nested-functions",
        '''
def add_one(x_ref, o_ref):
    def body(i, acc):
        return acc + 0.25

    o_ref[...] = x_ref[...] + jax.lax.fori_loop(0, 4, body, 0.0)

    @pl.when(pl.program_id(0) == 0)
    def _():
        return None

    scale = lambda v: v * 1
    o_ref[...] = scale(o_ref[...])
''',
        valid=True,
    ),
    _pallas_call_example(
        "returns-a-helper-that-returns-none",
        '''
def store(o_ref, value):
    o_ref[...] = value


def add_one(x_ref, o_ref):
    return store(o_ref, x_ref[...] + 1)
''',
        valid=True,
    ),
    _pallas_call_example(
        "returns-none-returning-apis",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.shape[0] == 8:
        return pl.debug_print("done {}", pl.program_id(0))
    return jax.lax.fori_loop(0, 2, lambda i, c: c, None)
''',
        valid=True,
    ),
    _pallas_call_example(
        "lambda-writing-its-output",
        '''
add_one = lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1)
''',
        valid=True,
    ),
    _pallas_call_example(
        "index-maps-return-tuples",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


spec = pl.BlockSpec((8, 128), lambda: (0, 0))
''',
        valid=True,
    ),
    Example(
        "a-local-function-named-pallas-call",
        '''\
def pallas_call(kernel, **unused):
    return kernel


def double(x):
    return x * 2


assert pallas_call(double, out_shape=None)(3) == 6
''',
        valid=True,
    ),
    Example(
        "pl-kernel-returning-sync-copy",
        _TPU_MESH_PRELUDE
        + '''

@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
def copy(x_ref, o_ref):
    return pltpu.sync_copy(x_ref, o_ref)


assert (copy(x) == x).all()
''',
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for function, sites in _sites_by_function(analysis.all_sites):
        if isinstance(function, ast.AsyncFunctionDef) or is_generator(function):
            continue  # PAL005's business
        for node in _value_returns(analysis, function):
            yield _finding(analysis, function, sites, node)


def _sites_by_function(sites: list[KernelSite]) -> list[tuple[FunctionNode, list[KernelSite]]]:
    grouped: dict[int, tuple[FunctionNode, list[KernelSite]]] = {}
    for site in sites:
        grouped.setdefault(id(site.function), (site.function, []))[1].append(site)
    return list(grouped.values())


def _value_returns(analysis: ModuleAnalysis, function: FunctionNode) -> Iterator[ast.AST]:
    """The kernel-level returns (or the lambda body) whose value is certainly not None."""
    values = analysis.values
    if isinstance(function, ast.Lambda):
        if values.evaluate(function.body, analysis.model.body_loc(function)) is Ret.VALUE:
            yield function.body
        return
    for ret in own_returns(function):
        if ret.value is not None and values.evaluate(ret.value, analysis.model.loc(ret)) is Ret.VALUE:
            yield ret


def _finding(analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], node: ast.AST) -> Finding:
    first = sites[0]
    where = _launch_place(analysis, first)
    message = (
        f"Pallas kernel `{kernel_name(function)}` (launched by {first.launch.label} {where}) returns a value; "
        "kernels must return None and write results into their output refs (`o_ref[...] = ...`)"
    )
    return Finding(
        CODE,
        message,
        analysis.source.node_range(node),
        analysis.path,
        SEVERITY,
        related=[analysis.launch_related(site) for site in sites],
    )


def _launch_place(analysis: ModuleAnalysis, site: KernelSite) -> str:
    if site.launch_path and site.launch_path != analysis.path:
        return f"in {os.path.basename(site.launch_path)}:{site.launch.line}"
    via = f" {site.via}" if site.via else ""
    return f"on line {site.launch.line}{via}"
