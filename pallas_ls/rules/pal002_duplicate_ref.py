"""PAL002 duplicate-ref-argument: one Ref object passed twice to one kernel call."""

from __future__ import annotations

import ast
from typing import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.findings import Finding, Related, Severity
from ..engine.refs import duplicate_refs
from .base import Example

CODE = "PAL002"
NAME = "duplicate-ref-argument"
SEVERITY = Severity.ERROR
SUMMARY = "The same Ref is passed more than once to one call of a Pallas kernel"

DOCS = """
## What it does
Reports a Ref passed more than once to a single call of a callable made by `pl.kernel(...)`,
`mpmd_map(...)` or `pallas_call(...)`, counting tuples, lists and dicts written in the call,
aliases (`v = r`) and `.at[...]` views of the same ref.

## Why is this bad?
`pl.kernel` and `mpmd_map` flatten their arguments and refuse to alias one Ref with itself:

    NotImplementedError: Cannot pass the same ref into a mpmd map multiple times

`pallas_call` has no such check of its own, but the `jax.jit` it runs under rejects it:

    ValueError: only one reference to a mutable array may be passed as an argument to a function

## What is not reported
Only values that are provably Refs count: made by `jax.new_ref`, `jax.ref.new_ref`,
`jax.empty_ref` or `pl.empty_ref_like`, or a ref parameter of an enclosing kernel. The same *array*
twice is fine; two refs made from one array are distinct objects; a name assigned again is a new
object; the same ref in two separate calls is fine.

## How to fix
Pass the ref once and use the one kernel parameter for both roles, or make a second ref
(`jax.new_ref(x)` again) when two buffers are really meant.
"""

_MESH_PRELUDE = '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def add(a_ref, b_ref):
    pltpu.sync_copy(a_ref, b_ref)


x = jnp.ones((8, 128), jnp.float32)
'''

_MPMD_ERROR = "Cannot pass the same ref into a mpmd map multiple times"

EXAMPLES = [
    Example(
        "same-ref-twice",
        _MESH_PRELUDE + "r = jax.new_ref(x)\nadd(r, «r»)\n",
        valid=False,
        jax_error=_MPMD_ERROR,
    ),
    Example(
        "through-an-alias",
        _MESH_PRELUDE + "r = jax.new_ref(x)\nv = r\nadd(r, «v»)\n",
        valid=False,
        jax_error=_MPMD_ERROR,
    ),
    Example(
        "nested-in-a-pytree",
        _MESH_PRELUDE.replace("def add(a_ref, b_ref):\n    pltpu.sync_copy(a_ref, b_ref)",
                              "def add(refs, more):\n    pltpu.sync_copy(refs[0], more[\"b\"])")
        # jax.empty_ref has no eager evaluation rule ("Evaluation rule for 'empty_ref' not
        # implemented"): it makes a Ref only under a trace, so this example runs under jit.
        + "\n\n@jax.jit\ndef run(x):\n    r = jax.empty_ref(jax.typeof(x))\n"
        "    add((r,), {\"b\": «r»})\n    return jax.freeze(r)\n\n\nrun(x)\n",
        valid=False,
        jax_error=_MPMD_ERROR,
    ),
    Example(
        "pallas-call-under-jit",
        '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


r = jax.new_ref(jnp.ones((8, 128), jnp.float32))
pl.pallas_call(add, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), interpret=True)(r, «r»)
''',
        valid=False,
        jax_error="only one reference to a mutable array may be passed",
    ),
    Example(
        "same-array-twice",
        _MESH_PRELUDE + "add(x, x)\n",
        valid=True,
    ),
    Example(
        "two-refs-from-one-array",
        _MESH_PRELUDE + "add(jax.new_ref(x), jax.new_ref(x))\nr = jax.new_ref(x)\ns = jax.new_ref(x)\nadd(r, s)\n",
        valid=True,
    ),
    Example(
        "name-assigned-again",
        _MESH_PRELUDE + "r = jax.new_ref(x)\nfirst = r\nr = jax.new_ref(x)\nadd(first, r)\n",
        valid=True,
    ),
    Example(
        "same-ref-in-separate-calls",
        _MESH_PRELUDE + "r = jax.new_ref(x)\ns = jax.new_ref(x)\nadd(r, s)\nadd(s, r)\n",
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    kernel_functions = analysis.kernel_functions
    model = analysis.model
    for launch in analysis.launches:
        if launch.kind not in ("kernel", "mpmd_map", "pallas_call"):
            continue
        for call in launch.invocations:
            for first, repeated in duplicate_refs(call, model.loc(call), model, kernel_functions):
                yield _finding(analysis, launch.kind, launch.label, first.expr, repeated.expr)


def _finding(analysis: ModuleAnalysis, kind: str, label: str, first: ast.expr, repeated: ast.expr) -> Finding:
    name = analysis.source.segment(repeated)
    original = analysis.source.segment(first)
    same = f"`{name}` is the same Ref as `{original}`" if name != original else f"Ref `{name}` is passed twice"
    if kind == "pallas_call":
        why = ("the jit that pallas_call runs under rejects it (\"only one reference to a mutable array "
               "may be passed as an argument\")")
    else:
        why = f"{label} raises NotImplementedError (\"{_MPMD_ERROR}\")"
    message = f"{same} in one call of a kernel made by {label}; {why}"
    first_range = analysis.source.node_range(first)
    return Finding(
        CODE,
        message,
        analysis.source.node_range(repeated),
        analysis.path,
        SEVERITY,
        related=[Related(analysis.path, first_range, "first passed here")],
    )
