"""PAL006 dropped-return-value: a pipeline, plgpu.kernel or nd_loop body returns a value JAX drops."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.callbacks import (
    GPU_EMIT_PIPELINE,
    GPU_KERNEL,
    GPU_ND_LOOP,
    TPU_EMIT_PIPELINE,
    CallbackBody,
)
from ..engine.findings import Finding, Related, Severity
from ..engine.kernels import kernel_name
from ..engine.model import is_generator
from .base import Example

CODE = "PAL006"
NAME = "dropped-return-value"
SEVERITY = Severity.WARNING
SUMMARY = "A pipeline, plgpu.kernel or plgpu.nd_loop body returns a value that JAX silently drops"

DOCS = """
## What it does
Reports a `return <value>` in a function that JAX calls back and whose result it throws away:
- the body of `pltpu.emit_pipeline` (and `pltpu.emit_pipeline_with_allocations`);
- the body of `plgpu.kernel`;
- the body of `plgpu.emit_pipeline` or `plgpu.nd_loop` given no `init_carry`.

## Why is this bad?
These bodies work through their refs; JAX ignores what they return, so a returned result is lost
without a word. Usually the author meant to store it (`o_ref[...] = ...`) or to carry it from step
to step (`init_carry=` of `plgpu.emit_pipeline` / `plgpu.nd_loop`, which hands the returned value
to the next step). `pltpu.emit_pipeline` only checks when the experimental flag
`jax_use_emit_pipeline_primitive` is on (it is off by default), and then it fails:

    ValueError: The emit_pipeline body function must return None.

## What is not reported
Bodies given a carry (`init_carry=...` other than `None`), whose return value is the carry; a bare
`return`, `return None`, returns of values that are None; an empty `()` / `[]` / `{}` (no array is
lost); returns inside nested functions; kernels (PAL001) and `pl.when` bodies (PAL007).

## How to fix
Store the value into an output or scratch ref and return nothing. To thread a value through the
steps of a GPU pipeline or `nd_loop`, pass `init_carry=` and take the carry as a parameter.
"""

_PROGRAM = """\
import jax
import jax.numpy as jnp
from jax._src import config
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

{body}


def kernel(x_hbm, o_hbm):
    block = pl.BlockSpec((8, 128), lambda i: (i, 0))
    pltpu.emit_pipeline(double, grid=(2,), in_specs=[block], out_specs=[block])(x_hbm, o_hbm)


run = pl.pallas_call(
    kernel,
    out_shape=jax.ShapeDtypeStruct((16, 128), jnp.float32),
    in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
    out_specs=pl.BlockSpec(memory_space=pl.ANY),
    interpret=True,
)
x = jnp.ones((16, 128), jnp.float32)
# By default JAX drops the body's return value without a word; pipelines need a TPU to run, so the
# program only traces them, with the flag under which JAX checks the body.
with config.use_emit_pipeline_primitive(True):
    jax.eval_shape(run, x)
"""


def _example(name: str, body: str, valid: bool) -> Example:
    return Example(
        name,
        _PROGRAM.format(body=body.strip("\n")),
        valid,
        jax_error=None if valid else "The emit_pipeline body function must return None.",
    )


EXAMPLES = [
    _example(
        "pipeline-body-returns-its-result",
        """
def double(x_ref, o_ref):
    y = x_ref[...] * 2
    o_ref[...] = y
    «return y»
""",
        valid=False,
    ),
    _example(
        "pipeline-body-returns-a-helper-value",
        """
def scaled(x_ref):
    return x_ref[...] * 2


def double(x_ref, o_ref):
    o_ref[...] = scaled(x_ref)
    if x_ref.shape[0] == 8:
        «return scaled(x_ref)»
""",
        valid=False,
    ),
    _example(
        "pipeline-body-stores-its-result",
        """
def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2
""",
        valid=True,
    ),
    _example(
        "pipeline-body-returns-none-or-nothing",
        """
def double(x_ref, o_ref):
    def twice(v):
        return v * 2

    o_ref[...] = twice(x_ref[...])
    if x_ref.shape[0] == 0:
        return ()
    return None
""",
        valid=True,
    ),
]

_APIS = (TPU_EMIT_PIPELINE, GPU_KERNEL, GPU_EMIT_PIPELINE, GPU_ND_LOOP)


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    kernels = {id(site.function) for site in analysis.all_sites}
    seen: set[int] = set()
    for body in analysis.callbacks:
        if body.api not in _APIS:
            continue
        function = body.function
        if body.has_carry is not False or id(function) in kernels:
            continue  # the value is the carry; or a kernel too (PAL001 reports it)
        if isinstance(function, ast.AsyncFunctionDef) or is_generator(function):
            continue
        for node in analysis.values.value_returns(function):
            if id(node) in seen or _is_empty_display(node):
                continue
            seen.add(id(node))
            yield _finding(analysis, body, node)


def _is_empty_display(node: ast.AST) -> bool:
    value = node.value if isinstance(node, ast.Return) else node
    return isinstance(value, (ast.Tuple, ast.List, ast.Dict)) and not (
        value.keys if isinstance(value, ast.Dict) else value.elts
    )


def _finding(analysis: ModuleAnalysis, body: CallbackBody, node: ast.AST) -> Finding:
    name = kernel_name(body.function)
    label = body.api.label
    what = "The lambda body" if name == "<lambda>" else f"The body `{name}`"
    if body.api in (GPU_EMIT_PIPELINE, GPU_ND_LOOP):
        fix = "store it into a ref, or pass `init_carry=` to make it the carry of the next step"
        where = f"{label} without `init_carry`"
    else:
        fix = "store it into a ref (`o_ref[...] = ...`) and return nothing"
        where = label
    message = f"{what} of {where} returns a value that JAX silently drops; {fix}"
    return Finding(
        CODE,
        message,
        analysis.source.node_range(node),
        analysis.path,
        SEVERITY,
        related=[Related(analysis.path, analysis.source.node_range(body.node), f"run by {label} here")],
    )
