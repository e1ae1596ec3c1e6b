"""PAL103 tpu-op-not-lowerable: a kernel calls an operation the TPU (TensorCore) cannot lower."""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import re
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import tpu_kernel_sites
from ..engine.findings import Finding, Severity
from ..engine.kernels import interpreter_for
from ..engine.model import ModuleModel
from ..engine.values.domain import EMPTY_ENV, External, Func
from .base import Example

CODE = "PAL103"
NAME = "tpu-op-not-lowerable"
SEVERITY = Severity.ERROR
SUMMARY = "A kernel calls an operation with no TPU (TensorCore) lowering (interpret mode runs it)"

DOCS = """
## What it does
Reports a call, in the kernel of a `pallas_call` compiled for a TPU (or in a function of the same
module that the kernel calls), of a `jax.numpy` / `jax.lax` function whose primitive the TPU's
Pallas lowering has no rule for: `jnp.cumsum`, `jnp.cumprod`, `jnp.sort`, `jnp.argsort`,
`jnp.flip` (and `fliplr`, `flipud`), `lax.rev`, `lax.cumsum`, `lax.cummax`, `lax.sort`...

Which primitives have a rule is read from the installed JAX's own source
(`jax/_src/pallas/mosaic/lowering.py`, never imported): a primitive it names anywhere is taken as
lowerable, so the rule follows JAX versions. Without JAX installed, the primitives observed to
fail in JAX 0.10.2 are used.

## Why is this bad?
Interpret mode runs any JAX operation, so the kernel passes its tests on a laptop; the TPU lowering
fails on the first compile. Observed on a TPU v5e with JAX 0.10.2 (`tests/tpu_cases/pal103/`):

    NotImplementedError: Unimplemented primitive in Pallas TPU lowering for tc: cumsum.

## What is not reported
Launches not certainly compiled for a TPU (see PAL101), calls outside the kernel (on the host,
before the launch), calls reached through other modules or through values the program does not
make certain, and primitives the installed JAX's TPU lowering names.

## How to fix
Compute it outside the kernel, or write it with what lowers: a prefix sum as a loop of adds or a
matmul with a triangular matrix, a reversal as an index computation, a sort as a bitonic network
of `jnp.minimum` / `jnp.maximum`.
"""

_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
"""

EXAMPLES = [
    Example(
        "cumsum-in-the-kernel",
        _PRELUDE
        + """

def prefix_sum(x_ref, o_ref):
    o_ref[...] = «jnp.cumsum»(x_ref[...], axis=1)


out = pl.pallas_call(prefix_sum, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
""",
        valid=False,
        tpu_error="Unimplemented primitive in Pallas TPU lowering",
    ),
    Example(
        "sort-in-a-helper-the-kernel-calls",
        _PRELUDE
        + """

def sorted_rows(v):
    return «jnp.sort»(v, axis=-1)


def sort_kernel(x_ref, o_ref):
    o_ref[...] = sorted_rows(x_ref[...])


out = pl.pallas_call(sort_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
""",
        valid=False,
        tpu_error="Unimplemented primitive in Pallas TPU lowering",
    ),
    Example(
        "cumsum-on-the-host-and-elementwise-math-in-the-kernel",
        _PRELUDE
        + """

def softplus(x_ref, o_ref):
    v = x_ref[...]
    o_ref[...] = jnp.log1p(jnp.exp(v - jnp.max(v, axis=1, keepdims=True)))


prefix = jnp.cumsum(x, axis=1)
out = pl.pallas_call(softplus, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(prefix)
""",
        valid=True,
    ),
]

# What a jax.numpy / jax.lax function binds, for the functions whose primitive may lack a TPU rule.
_PRIMITIVES = {
    "jax.numpy.cumsum": "cumsum_p",
    "jax.numpy.cumprod": "cumprod_p",
    "jax.numpy.cumulative_sum": "cumsum_p",
    "jax.numpy.cumulative_prod": "cumprod_p",
    "jax.numpy.sort": "sort_p",
    "jax.numpy.argsort": "sort_p",
    "jax.numpy.flip": "rev_p",
    "jax.numpy.fliplr": "rev_p",
    "jax.numpy.flipud": "rev_p",
    "jax.lax.rev": "rev_p",
    "jax.lax.sort": "sort_p",
    "jax.lax.cumsum": "cumsum_p",
    "jax.lax.cumprod": "cumprod_p",
    "jax.lax.cummax": "cummax_p",
    "jax.lax.cummin": "cummin_p",
}
# Observed to fail on a TPU v5e with JAX 0.10.2 (cumsum, sort, rev), or absent from its lowering.
_UNLOWERABLE_IN_0_10_2 = frozenset({"cumsum_p", "cumprod_p", "cummax_p", "cummin_p", "sort_p", "rev_p"})
_MAX_HELPER_DEPTH = 3


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    reported: set[int] = set()
    for site in tpu_kernel_sites(analysis):
        for call, qualname in _calls_in(site.function, analysis.model, depth=0, seen=set()):
            primitive = _PRIMITIVES[qualname]
            if id(call) in reported or not _unlowerable(primitive):
                continue
            reported.add(id(call))
            short = qualname.replace("jax.numpy.", "jnp.").replace("jax.lax.", "lax.")
            message = (
                f"`{short}` in a TPU kernel: the TPU (TensorCore) lowering has no rule for its primitive "
                f"`{primitive.removesuffix('_p')}` (NotImplementedError: Unimplemented primitive in Pallas "
                "TPU lowering). Interpret mode runs it"
            )
            yield Finding(CODE, message, analysis.source.node_range(call.func), analysis.path, SEVERITY)


def _calls_in(function: ast.AST, model: ModuleModel, depth: int, seen: set[int]) -> Iterator[tuple[ast.Call, str]]:
    """Calls of the table's functions in `function`, and in this module's functions it calls.

    Candidates come from the module's call index (by the name called), kept when they lie
    inside `function`: a kernel makes hundreds of calls (`jnp.dot`, `pl.ds`...), none of them
    worth evaluating here, and walking every kernel's tree cost more than the rest of the rule."""
    if id(function) in seen:
        return
    seen.add(id(function))
    interp = interpreter_for(model)
    helpers = {n for n, bindings in model.module_scope.bindings.items() if any(b.kind == "def" for b in bindings)}
    candidates = model.calls_with_attribute(_SHORT_NAMES) + model.calls_named(_SHORT_NAMES | helpers)
    for node in candidates:
        if not _inside(node, function):
            continue
        for value in interp.ev(node.func, model.loc(node.func), EMPTY_ENV, model):
            if isinstance(value, External) and value.qualname in _PRIMITIVES:
                yield node, value.qualname
            elif isinstance(value, Func) and value.model is model and depth < _MAX_HELPER_DEPTH:
                yield from _calls_in(value.node, model, depth + 1, seen)


def _inside(node: ast.AST, function: ast.AST) -> bool:
    start = (getattr(function, "lineno", 0), getattr(function, "col_offset", 0))
    end = (getattr(function, "end_lineno", 0), getattr(function, "end_col_offset", 0))
    return start <= (getattr(node, "lineno", -1), getattr(node, "col_offset", -1)) < end


_SHORT_NAMES = frozenset(q.rsplit(".", 1)[1] for q in _PRIMITIVES)


def _unlowerable(primitive: str) -> bool:
    registry = _tpu_lowering_source()
    if registry is None:
        return primitive in _UNLOWERABLE_IN_0_10_2
    return re.search(rf"\b{re.escape(primitive)}\b", registry) is None


@functools.lru_cache(maxsize=1)
def _tpu_lowering_source() -> str | None:
    """The installed JAX's TPU lowering, read as text (never imported); None without JAX."""
    try:
        spec = importlib.util.find_spec("jax")
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in locations:
        path = os.path.join(root, "_src", "pallas", "mosaic", "lowering.py")
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except OSError:
            continue
    return None
