"""PAL107 tpu-narrow-int-arithmetic: vector arithmetic on 8-bit integers, which Mosaic cannot compile."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import rebound_names, ref_arrays, tpu_kernel_sites
from ..engine.findings import Finding, Severity
from ..engine.layout import INPUT, OUTPUT, launch_layout, parameter_roles
from .base import Example

CODE = "PAL107"
NAME = "tpu-narrow-int-arithmetic"
SEVERITY = Severity.ERROR
SUMMARY = "Vector arithmetic on int8 / uint8 values in a TPU kernel (interpret mode runs it)"

DOCS = """
## What it does
Reports `+`, `-` and `*` (and `+=`, `-=`, `*=` on a ref) in the kernel of a `pallas_call`
compiled for a TPU, where both operands stay 8-bit integers: a whole-block load (`x_ref[...]`) of
an int8 or uint8 ref, with another such load or a Python int.

## Why is this bad?
Interpret mode computes in int8 like NumPy; Mosaic, the TPU kernel compiler, has no 8-bit integer
vector arithmetic. Observed on a TPU v5e with JAX 0.10.2 (`tests/tpu_cases/pal107/`):

    MosaicError: INTERNAL: Mosaic failed to compile TPU kernel: Not implemented: Only vector<i16>
    and vector<i32> are supported, but got 'i8'. Please cast your input.

## What is not reported
Launches not certainly compiled for a TPU (see PAL101), refs whose dtype the program does not make
certain, operands widened first (`x_ref[...].astype(jnp.int32) + 3`), operands of another dtype
(the result is promoted), comparisons, and values reached through names or helpers.

## How to fix
Widen before the arithmetic and narrow when storing:
`o_ref[...] = (x_ref[...].astype(jnp.int32) + 3).astype(jnp.int8)`.
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((32, 128), jnp.int8)
"""

EXAMPLES = [
    Example(
        "int8-plus-a-constant",
        _PRELUDE
        + """

def add_bias(x_ref, o_ref):
    o_ref[...] = «x_ref[...] + 3»


out = pl.pallas_call(add_bias, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
""",
        valid=False,
        tpu_error="Only vector<i16> and vector<i32> are supported",
    ),
    Example(
        "product-of-two-int8-refs",
        _PRELUDE
        + """

def multiply(a_ref, b_ref, o_ref):
    o_ref[...] = «a_ref[...] * b_ref[...]»


out = pl.pallas_call(multiply, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x, x)
""",
        valid=False,
        tpu_error="Only vector<i16> and vector<i32> are supported",
    ),
    Example(
        "widened-before-the-arithmetic",
        _PRELUDE
        + """

def add_bias(x_ref, o_ref):
    o_ref[...] = (x_ref[...].astype(jnp.int32) + 3).astype(jnp.int8)


out = pl.pallas_call(add_bias, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
""",
        valid=True,
    ),
]

_NARROW = frozenset({"int8", "uint8"})
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult)


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    if "int8" not in analysis.source.text:  # (uint8 says it too) no 8-bit integers, nothing to look at
        return
    for site in tpu_kernel_sites(analysis):
        launch = site.launch
        arrays = ref_arrays(launch)
        roles = parameter_roles(site, launch_layout(launch))
        narrow = {
            role.name
            for number, role in enumerate(roles)
            if role.role in (INPUT, OUTPUT) and number in arrays and arrays[number].dtype in _NARROW
        }
        narrow -= rebound_names(site.function)
        if not narrow:
            continue
        for node in ast.walk(site.function):
            if _narrow_arithmetic(node, narrow):
                message = (
                    "Arithmetic on int8/uint8 vectors in a TPU kernel: Mosaic computes integers in 16 or 32 "
                    "bits only (Only vector<i16> and vector<i32> are supported, but got 'i8'); widen with "
                    "`.astype(jnp.int32)` first. Interpret mode runs it"
                )
                yield Finding(CODE, message, analysis.source.node_range(node), analysis.path, SEVERITY)


def _narrow_arithmetic(node: ast.AST, narrow: set[str]) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
        sides = (node.left, node.right)
        return any(_narrow_load(s, narrow) for s in sides) and all(
            _narrow_load(s, narrow) or _python_int(s) for s in sides
        )
    if isinstance(node, ast.AugAssign) and isinstance(node.op, _ARITHMETIC):
        return _narrow_load(node.target, narrow, store=True) and (
            _narrow_load(node.value, narrow) or _python_int(node.value)
        )
    return False


def _narrow_load(expr: ast.AST, narrow: set[str], store: bool = False) -> bool:
    """`ref[...]` of an 8-bit integer ref (a whole block: a vector)."""
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Name)
        and expr.value.id in narrow
        and isinstance(expr.slice, ast.Constant)
        and expr.slice.value is Ellipsis
        and isinstance(expr.ctx, ast.Store if store else ast.Load)
    )


def _python_int(expr: ast.AST) -> bool:
    """A Python int (a weak type: the 8-bit operand keeps its dtype)."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) is int
