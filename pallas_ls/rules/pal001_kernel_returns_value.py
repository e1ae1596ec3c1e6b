"""PAL001 kernel-returns-value: a Pallas kernel returns something other than None."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import kernel_ref_arrays, kernel_ref_shapes
from ..engine.edits import free_name
from ..engine.findings import Applicability, Edit, Finding, Fix, Severity
from ..engine.kernels import KernelSite, interpreter_for, kernel_name, method_receivers
from ..engine.layout import (
    kernel_outputs,
    launch_layout,
    left_to_default,
    missing_outputs_at,
    positional_parameters,
    refs_in_hbm,
    written_before,
)
from ..engine.model import Binding, FunctionNode, Scope, defaulted_parameters, is_generator, positional_args
from ..engine.rewrite import drop_returned_value, insert_parameter, write_instead_of_return
from ..engine.values import calls
from ..engine.values.domain import Array, Const, DictV, Env, Opaque, Param, Seq, Value
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

The quick fix does that when it knows which parameters are the outputs: from the launch's layout
(`out_shape` / `out_type` however written: a constant, an import, a tuple of names, an array, a
list grown with `.append`, `None` elements included) or from the kernel's own signature (its
positional parameters less the scalar-prefetch, input and scratch ones); then it is safe. From the
parameter names alone (`o_ref`, `out_ref`, ...) it is unsafe. Refs of `pl.kernel` / `mpmd_map`
live in HBM, where `[...]` fails: no write is offered there. "Return None instead" is safe for a
constant, an empty container or a ref, and when every output is already written before the
`return` (a value with effects, such as a loop whose body writes, is kept as a statement);
otherwise it would throw a result away, and is only shown in the editor (display-only).
"""

_PALLAS_CALL_PROGRAM = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

{kernel}

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
# grid=(1,): a one-step grid, so kernels may ask for pl.program_id(0)
out = pl.pallas_call({launch}, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x)
assert (out == x + 1).all(), out
"""

_TPU_MESH_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
"""


def _pallas_call_example(
    name: str,
    kernel: str,
    valid: bool,
    launch: str = "add_one",
    fixed_kernel: str | None = None,
    jax_error: str = "should return None",
    **extra: Any,
) -> Example:
    """A pallas_call program; `fixed_kernel` is the kernel as the preferred fix rewrites it."""
    code = _PALLAS_CALL_PROGRAM.format(kernel=kernel.strip("\n"), launch=launch)
    fixed = None
    if fixed_kernel is not None:
        fixed = _PALLAS_CALL_PROGRAM.format(kernel=fixed_kernel.strip("\n"), launch=launch)
    return Example(name, code, valid, jax_error=None if valid else jax_error, fixed=fixed, **extra)


def _fixed(program: str, marked_line: str, replacement: str | None) -> str:
    """The clean program with the line holding `marked_line` replaced (None: deleted)."""
    lines = program.replace("\u00ab", "").replace("\u00bb", "").splitlines(keepends=True)
    target = marked_line.replace("\u00ab", "").replace("\u00bb", "")
    index = next(i for i, line in enumerate(lines) if line.rstrip("\n").strip() == target.strip())
    lines[index : index + 1] = [] if replacement is None else [replacement + "\n"]
    return "".join(lines)


_DECORATOR_PROGRAM = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)


@functools.partial(pl.pallas_call, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    «return False»


assert (add_one(x) == x + 1).all()
"""

_PL_KERNEL_PROGRAM = (
    _TPU_MESH_PRELUDE
    + """

@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
def copy(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return o_ref»


assert (copy(x) == x).all()
"""
)

_MPMD_PROGRAM = (
    _TPU_MESH_PRELUDE
    + """from jax._src.pallas.mpmd import mpmd_map


def body(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return 1»


run = mpmd_map([(mesh, body)], out_types=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=pltpu.InterpretParams())
assert (run(x) == x).all()
"""
)

_CORE_MAP_PROGRAM = (
    _TPU_MESH_PRELUDE
    + """

@jax.jit
def copy(x):
    x_ref = jax.new_ref(x)
    y_ref = jax.new_ref(jnp.zeros_like(x))

    @pl.core_map(mesh, interpret=pltpu.InterpretParams())
    def _():
        pltpu.sync_copy(x_ref, y_ref)
        «return (None,)»

    return jax.freeze(y_ref)


assert (copy(x) == x).all()
"""
)

_TWO_OUTPUTS_PROGRAM = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)


def plus_minus(x_ref, plus_ref, minus_ref):
    «return x_ref[...] + 1, x_ref[...] - 1»


plus, minus = pl.pallas_call(plus_minus, out_shape=(shape, shape), interpret=True)(x)
assert (plus == x + 1).all() and (minus == x - 1).all()
"""

_LAYOUT_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
"""

# The output layout comes from the value of `out_shape`, however it is written.
_MODULE_CONSTANT_PROGRAM = (
    _LAYOUT_PRELUDE
    + """SHAPE = jax.ShapeDtypeStruct(x.shape, x.dtype)


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


def run(x):
    return pl.pallas_call(add_one, out_shape=SHAPE, interpret=True)(x)


assert (run(x) == x + 1).all()
"""
)

_TUPLE_IN_A_VARIABLE_PROGRAM = (
    _LAYOUT_PRELUDE
    + """shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
shapes = (shape, shape)


def plus_minus(x_ref, plus_ref, minus_ref):
    «return x_ref[...] + 1, x_ref[...] - 1»


plus, minus = pl.pallas_call(plus_minus, out_shape=shapes, interpret=True)(x)
assert (plus == x + 1).all() and (minus == x - 1).all()
"""
)

_ARRAY_AS_OUT_SHAPE_PROGRAM = (
    _LAYOUT_PRELUDE
    + """

def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


# An array stands for its own shape and dtype: one output.
out = pl.pallas_call(add_one, out_shape=x, interpret=True)(x)
assert (out == x + 1).all()
"""
)

_NONE_ELEMENT_PROGRAM = (
    _LAYOUT_PRELUDE
    + """

def add_one(x_ref, o_ref, unused):
    «return x_ref[...] + 1»


# A None element still takes a parameter (which receives None).
out, nothing = pl.pallas_call(add_one, out_shape=[jax.ShapeDtypeStruct(x.shape, x.dtype), None], interpret=True)(x)
assert (out == x + 1).all() and nothing is None
"""
)

_APPENDED_LIST_PROGRAM = (
    _LAYOUT_PRELUDE
    + """shapes = []
shapes.append(jax.ShapeDtypeStruct(x.shape, x.dtype))


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


(out,) = pl.pallas_call(add_one, out_shape=shapes, interpret=True)(x)
assert (out == x + 1).all()
"""
)

# The number of outputs is known only when the program runs (read from the environment): only the
# kernel's signature tells its outputs, once the one input and the absent scratch are known from
# the launch.
_SIGNATURE_ONLY_PROGRAM = (
    _LAYOUT_PRELUDE
    + """import os

shapes = [jax.ShapeDtypeStruct(x.shape, x.dtype)] * int(os.environ.get("PLUS_MINUS_OUTPUTS", "2"))


def plus_minus(x_ref, plus_ref, minus_ref):
    «return x_ref[...] + 1, x_ref[...] - 1»


plus, minus = pl.pallas_call(plus_minus, out_shape=shapes, interpret=True)(x)
assert (plus == x + 1).all() and (minus == x - 1).all()
"""
)

# Neither the launch (an out_shape whose length is known only when the program runs, inputs passed
# with `*`) nor the signature tells the outputs: dropping both results would make the kernel run and
# return garbage, so that fix is only shown (display-only), and no fix is applied in bulk.
_LAYOUT_UNKNOWN_PROGRAM = (
    _LAYOUT_PRELUDE
    + """import os

shapes = [jax.ShapeDtypeStruct(x.shape, x.dtype)] * int(os.environ.get("PLUS_MINUS_OUTPUTS", "2"))
inputs = [x] * int(os.environ.get("PLUS_MINUS_INPUTS", "1"))


def plus_minus(x_ref, plus, minus):
    «return x_ref[...] + 1, x_ref[...] - 1»


plus, minus = pl.pallas_call(plus_minus, out_shape=shapes, interpret=True)(*inputs)
"""
)

# The returned value's shape is not the output's (a reduction keeping its axis): writing it
# into the output ref would fail too, so no write is offered (only "Return None instead", shown).
_OTHER_SHAPE_PROGRAM = (
    _LAYOUT_PRELUDE
    + """

def column_max(x_ref, o_ref):
    «return jnp.max(x_ref[...], axis=0, keepdims=True)»


out = pl.pallas_call(column_max, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
"""
)

# The returned value is no array (a list of the writes' Nones): a ref takes no list, so no write
# is offered either; dropping the value keeps the writes (shown only).
_NOT_AN_ARRAY_PROGRAM = (
    _LAYOUT_PRELUDE
    + """

def copy_rows(x_ref, o_ref):
    «return [o_ref.__setitem__(i, x_ref[i]) for i in range(8)]»


out = pl.pallas_call(copy_rows, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
"""
)

_COMMENTS_PROGRAM = (
    _LAYOUT_PRELUDE
    + """shape = jax.ShapeDtypeStruct(x.shape, x.dtype)


def plus_minus(x_ref, plus_ref, minus_ref):
    «return (
        x_ref[...] + 1,  # the sum
        x_ref[...] - 1,  # the difference
    )»


plus, minus = pl.pallas_call(plus_minus, out_shape=(shape, shape), interpret=True)(x)
assert (plus == x + 1).all() and (minus == x - 1).all()
"""
)

_COMMENTS_FIXED = _COMMENTS_PROGRAM.replace(
    """    «return (
        x_ref[...] + 1,  # the sum
        x_ref[...] - 1,  # the difference
    )»
""",
    """    plus_ref[...] = x_ref[...] + 1  # the sum
    minus_ref[...] = x_ref[...] - 1  # the difference
""",
)

# A form feed starts the line: Python's tokenizer counts the indentation after it.
_FORM_FEED_PROGRAM = (
    _LAYOUT_PRELUDE
    + """

def add_one(x_ref, o_ref):
    for _ in range(1):
\f        «return x_ref[...] + 1»


out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
assert (out == x + 1).all()
"""
)

_FORM_FEED_FIXED = _FORM_FEED_PROGRAM.replace(
    "\f        «return x_ref[...] + 1»\n", "\f        o_ref[...] = x_ref[...] + 1\n        return\n"
)

# pl.kernel refs live in HBM: `o_ref[...] = value` would fail ("Buffers with a memory space of HBM
# or ANY cannot be referenced directly"); the kernel already copied into its output, so the value
# is dropped (safe).
_HBM_PROGRAM = (
    _TPU_MESH_PRELUDE
    + """

@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
def copy(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return x_ref[...] * 2»


assert (copy(x) == x).all()
"""
)

EXAMPLES = [
    # ----------------------------------------------------------------------------- invalid
    _pallas_call_example(
        "returns-the-result",
        """
def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»
""",
        valid=False,
        fixed_kernel="""
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
""",
    ),
    _pallas_call_example(
        "returns-an-empty-tuple",
        """
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    «return ()»
""",
        valid=False,
        fixed_kernel="""
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
""",
    ),
    _pallas_call_example(
        "early-return-on-a-static-branch",
        """
def add_one(x_ref, o_ref):
    if x_ref.shape[0] == 8:
        «return x_ref[...] + 1»  # the usual case
    o_ref[...] = x_ref[...] + 1
""",
        valid=False,
        fixed_kernel="""
def add_one(x_ref, o_ref):
    if x_ref.shape[0] == 8:
        o_ref[...] = x_ref[...] + 1  # the usual case
        return
    o_ref[...] = x_ref[...] + 1
""",
    ),
    _pallas_call_example(
        "partial-bound-kernel",
        """
import functools


def add(x_ref, o_ref, *, amount):
    «return x_ref[...] + amount»
""",
        valid=False,
        launch="functools.partial(add, amount=1.0)",
        fixed_kernel="""
import functools


def add(x_ref, o_ref, *, amount):
    o_ref[...] = x_ref[...] + amount
""",
    ),
    _pallas_call_example(
        "lambda-kernel",
        """
add_one = lambda x_ref, o_ref: «x_ref[...] + 1»
""",
        valid=False,
        fixed_kernel="""
add_one = lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1)
""",
    ),
    _pallas_call_example(
        "functional-style-kernel-without-output-parameter",
        """
def add_one(x_ref):
    «return x_ref[...] + 1»
""",
        valid=False,
        # pallas_call passes the output ref too, so JAX's arity check fires before its return check.
        jax_error="add_one() takes 1 positional argument but 2 were given",
        fixed_kernel="""
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
""",
    ),
    _pallas_call_example(
        "factory-returning-the-kernel",
        """
def make_kernel(amount):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + amount
        «return 0»

    return kernel
""",
        valid=False,
        launch="make_kernel(1.0)",
        fixed_kernel="""
def make_kernel(amount):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + amount

    return kernel
""",
    ),
    _pallas_call_example(
        "returns-a-helper-value",
        """
def plus_one(ref):
    return ref[...] + 1


def add_one(x_ref, o_ref):
    «return plus_one(x_ref)»
""",
        valid=False,
        fixed_kernel="""
def plus_one(ref):
    return ref[...] + 1


def add_one(x_ref, o_ref):
    o_ref[...] = plus_one(x_ref)
""",
    ),
    Example(
        "decorator-form",
        _DECORATOR_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_DECORATOR_PROGRAM, "«return False»", None),
    ),
    Example(
        "two-outputs",
        _TWO_OUTPUTS_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(
            _TWO_OUTPUTS_PROGRAM,
            "«return x_ref[...] + 1, x_ref[...] - 1»",
            "    plus_ref[...] = x_ref[...] + 1\n    minus_ref[...] = x_ref[...] - 1",
        ),
    ),
    Example(
        "pl-kernel-returns-a-ref",
        _PL_KERNEL_PROGRAM,
        valid=False,
        jax_error="mutable array references cannot be returned",
        fixed=_fixed(_PL_KERNEL_PROGRAM, "«return o_ref»", None),
    ),
    Example(
        "mpmd-map-body",
        _MPMD_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_MPMD_PROGRAM, "«return 1»", None),
    ),
    Example(
        "core-map-body",
        _CORE_MAP_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_CORE_MAP_PROGRAM, "«return (None,)»", None),
    ),
    Example(
        "layout-from-a-module-constant",
        _MODULE_CONSTANT_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_MODULE_CONSTANT_PROGRAM, "«return x_ref[...] + 1»", "    o_ref[...] = x_ref[...] + 1"),
    ),
    Example(
        "layout-from-a-tuple-in-a-variable",
        _TUPLE_IN_A_VARIABLE_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(
            _TUPLE_IN_A_VARIABLE_PROGRAM,
            "«return x_ref[...] + 1, x_ref[...] - 1»",
            "    plus_ref[...] = x_ref[...] + 1\n    minus_ref[...] = x_ref[...] - 1",
        ),
    ),
    Example(
        "layout-from-an-array-as-out-shape",
        _ARRAY_AS_OUT_SHAPE_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_ARRAY_AS_OUT_SHAPE_PROGRAM, "«return x_ref[...] + 1»", "    o_ref[...] = x_ref[...] + 1"),
    ),
    Example(
        "layout-with-a-none-element",
        _NONE_ELEMENT_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_NONE_ELEMENT_PROGRAM, "«return x_ref[...] + 1»", "    o_ref[...] = x_ref[...] + 1"),
    ),
    Example(
        "layout-from-an-appended-list",
        _APPENDED_LIST_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_APPENDED_LIST_PROGRAM, "«return x_ref[...] + 1»", "    o_ref[...] = x_ref[...] + 1"),
    ),
    Example(
        "two-outputs-known-only-from-the-signature",
        _SIGNATURE_ONLY_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(
            _SIGNATURE_ONLY_PROGRAM,
            "«return x_ref[...] + 1, x_ref[...] - 1»",
            "    plus_ref[...] = x_ref[...] + 1\n    minus_ref[...] = x_ref[...] - 1",
        ),
    ),
    Example(
        "two-results-layout-unknown-no-bulk-fix",
        _LAYOUT_UNKNOWN_PROGRAM,
        valid=False,
        jax_error="should return None",
    ),
    Example(
        "value-of-another-shape-no-bulk-fix",
        _OTHER_SHAPE_PROGRAM,
        valid=False,
        jax_error="should return None",
    ),
    Example(
        "value-not-an-array-no-bulk-fix",
        _NOT_AN_ARRAY_PROGRAM,
        valid=False,
        jax_error="should return None",
    ),
    Example(
        "comments-in-a-multi-line-return",
        _COMMENTS_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_COMMENTS_FIXED,
    ),
    Example(
        "line-starting-with-a-form-feed",
        _FORM_FEED_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_FORM_FEED_FIXED,
    ),
    _pallas_call_example(
        "returns-a-loop-whose-body-writes-the-output",
        """
def add_one(x_ref, o_ref):
    def body(i, total):
        o_ref[pl.ds(i, 1), :] = x_ref[pl.ds(i, 1), :] + 1
        return total + 1.0

    «return jax.lax.fori_loop(0, x_ref.shape[0], body, 0.0)»
""",
        valid=False,
        # The loop writes every output: its value is dropped, the loop itself is kept.
        fixed_kernel="""
def add_one(x_ref, o_ref):
    def body(i, total):
        o_ref[pl.ds(i, 1), :] = x_ref[pl.ds(i, 1), :] + 1
        return total + 1.0

    jax.lax.fori_loop(0, x_ref.shape[0], body, 0.0)
""",
    ),
    Example(
        "hbm-refs-output-already-copied",
        _HBM_PROGRAM,
        valid=False,
        jax_error="should return None",
        fixed=_fixed(_HBM_PROGRAM, "«return x_ref[...] * 2»", None),
    ),
    # ------------------------------------------------------------------------------- valid
    _pallas_call_example(
        "writes-the-output-ref",
        """
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
""",
        valid=True,
    ),
    _pallas_call_example(
        "bare-and-none-returns",
        """
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.shape[0] == 8:
        return
    return None
""",
        valid=True,
    ),
    _pallas_call_example(
        "returns-inside-nested-functions",
        """
def add_one(x_ref, o_ref):
    def body(i, acc):
        return acc + 0.25

    o_ref[...] = x_ref[...] + jax.lax.fori_loop(0, 4, body, 0.0)

    @pl.when(pl.program_id(0) == 0)
    def _():
        return None

    scale = lambda v: v * 1
    o_ref[...] = scale(o_ref[...])
""",
        valid=True,
    ),
    _pallas_call_example(
        "callable-instance-whose-field-decides-the-branch",
        """
class Add:
    def __init__(self, amount):
        self.amount = amount

    def __call__(self, x_ref, o_ref):
        if self.amount == 1:
            o_ref[...] = x_ref[...] + 1
        else:
            return x_ref[...] + self.amount


add_one = Add(1)
""",
        valid=True,
    ),
    _pallas_call_example(
        "returns-a-helper-that-returns-none",
        """
def store(o_ref, value):
    o_ref[...] = value


def add_one(x_ref, o_ref):
    return store(o_ref, x_ref[...] + 1)
""",
        valid=True,
    ),
    _pallas_call_example(
        "returns-none-returning-apis",
        """
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.shape[0] == 8:
        return pl.debug_print("done {}", pl.program_id(0))
    return jax.lax.fori_loop(0, 2, lambda i, c: c, None)
""",
        valid=True,
    ),
    _pallas_call_example(
        "lambda-writing-its-output",
        """
add_one = lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1)
""",
        valid=True,
    ),
    _pallas_call_example(
        "index-maps-return-tuples",
        """
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


spec = pl.BlockSpec((8, 128), lambda: (0, 0))
""",
        valid=True,
    ),
    Example(
        "a-local-function-named-pallas-call",
        """\
def pallas_call(kernel, **unused):
    return kernel


def double(x):
    return x * 2


assert pallas_call(double, out_shape=None)(3) == 6
""",
        valid=True,
    ),
    Example(
        "pl-kernel-returning-sync-copy",
        _TPU_MESH_PRELUDE
        + """

@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
def copy(x_ref, o_ref):
    return pltpu.sync_copy(x_ref, o_ref)


assert (copy(x) == x).all()
""",
        valid=True,
    ),
]

# --------------------------------------------------------------------- forms of reaching a kernel
# How real code hands kernels to pallas_call (classes, containers, factories, wrappers, imports):
# each is followed by the value interpreter, and each program is run under JAX in the `jax` tier.
_FORM_PRELUDE = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
"""

_RETURN = "«return x_ref[...] + 1»"
_WRITE = "o_ref[...] = x_ref[...] + 1"


def _form(name: str, body: str, valid: bool = False) -> Example:
    """A program in which `add_one`'s `return x_ref[...] + 1` (marked) reaches pallas_call by `body`'s
    route; its preferred fix writes the value into the output ref instead."""
    program = _FORM_PRELUDE + body
    if valid:
        return Example(name, program, True)
    line = next(line for line in program.splitlines() if _RETURN in line)
    indent = line[: len(line) - len(line.lstrip())]
    return Example(
        name, program, False, jax_error="should return None", fixed=_fixed(program, _RETURN, indent + _WRITE)
    )


FORMS = [
    _form(
        "staticmethod-kernel",
        """

class Ops:
    @staticmethod
    def add_one(x_ref, o_ref):
        «return x_ref[...] + 1»


out = pl.pallas_call(Ops.add_one, out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "kernel-held-by-an-instance",
        """

def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


class Layer:
    def __init__(self, kernel):
        self._kernel = kernel

    def __call__(self, x):
        return pl.pallas_call(self._kernel, out_shape=out_shape, interpret=True)(x)


out = Layer(add_one)(x)
""",
    ),
    _form(
        "kernel-picked-from-a-dict",
        """

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


KERNELS = {"copy": copy, "add": add_one}


def run(op, x):
    return pl.pallas_call(KERNELS[op], out_shape=out_shape, interpret=True)(x)


out = run("add", x)
""",
    ),
    _form(
        "kernels-in-a-loop",
        """

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


for body in (copy, add_one):
    out = pl.pallas_call(body, out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "kernel-from-a-factory",
        """

def make_kernel(offset):
    def add_one(x_ref, o_ref):
        «return x_ref[...] + 1»

    return add_one


out = pl.pallas_call(make_kernel(1), out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "kernel-as-a-parameter-default",
        """

def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


def build(kernel=add_one):
    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)


out = build()(x)
""",
    ),
    _form(
        "kernel-through-named-call-and-partial",
        """

def add_one(offset, x_ref, o_ref):
    «return x_ref[...] + 1»


kernel = jax.named_call(functools.partial(add_one, 1.0), name="add_one")
out = pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "kernel-forwarded-by-a-wrapper",
        """

def run_elementwise(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


out = run_elementwise(add_one, x)
""",
    ),
    _form(
        "entry-point-over-an-import-fallback",
        """
try:
    from jax.experimental.pallas import pallas_call
except ImportError:  # an old jax: run the kernel body as plain Python
    def pallas_call(kernel, **unused):
        return kernel


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


out = pallas_call(add_one, out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "notebook-style-redefinition",
        """

def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


first = pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x)


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


out = pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "redefinition-before-the-launch",
        """

def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


assert (pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x) == x + 1).all()
""",
        valid=True,
    ),
    _form(
        "decorator-that-drops-the-result",
        """

def writes_only(kernel):
    @functools.wraps(kernel)
    def wrapper(*refs):
        kernel(*refs)

    return wrapper


@writes_only
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    return o_ref[...]


assert (pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x) == x + 1).all()
""",
        valid=True,
    ),
    _form(
        "return-only-for-a-dtype-the-launch-never-passes",
        """

def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    if x_ref.dtype == jnp.bfloat16 or x_ref.shape[0] != 8:
        return o_ref[...]  # not for this launch: its input is an (8, 128) float32 array


assert (pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x) == x + 1).all()
""",
        valid=True,
    ),
    _form(
        "return-for-the-dtype-the-launch-passes",
        """

def add_one(x_ref, o_ref):
    if x_ref.dtype == jnp.float32:
        «return x_ref[...] + 1»


out = pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x)
""",
    ),
    _form(
        "helper-that-returns-a-value-only-when-asked",
        """

def store(o_ref, value, *, echo=False):
    o_ref[...] = value
    if echo:
        return value


def add_one(x_ref, o_ref):
    return store(o_ref, x_ref[...] + 1)


assert (pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x) == x + 1).all()
""",
        valid=True,
    ),
    _form(
        "kernels-in-a-dict-that-write-their-outputs",
        """

KERNELS = {
    "copy": lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...]),
    "add": lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1),
}
for op, body in KERNELS.items():
    pl.pallas_call(body, out_shape=out_shape, interpret=True)(x)
""",
        valid=True,
    ),
]

EXAMPLES += FORMS


def _value_returns(analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite]) -> list[ast.AST]:
    """The returns that give a value, on their own or in the closure some launch made the kernel in
    (a factory's `activation` parameter bound to `jax.nn.relu`)."""
    envs = [_call_env(analysis, s) for s in sites]  # EMPTY_ENV for a site that binds nothing
    found: dict[int, ast.AST] = {}
    for env in dict.fromkeys(envs):
        for node in analysis.values.value_returns(function, env):
            found.setdefault(id(node), node)
    return sorted(found.values(), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def _call_env(analysis: ModuleAnalysis, site: KernelSite) -> Env:
    """The environment JAX calls the kernel of `site` in, as far as it is known: its closure,
    the keywords a partial binds, the defaults of the parameters the launch never fills, and its
    refs as arrays of their shapes and dtypes (`if x_ref.dtype == jnp.float32: return ...`)."""
    env = site.target.env
    function = site.function
    scope = analysis.model.scope_of_function.get(id(function))
    if scope is None:
        return env
    env = env.extended((b, v) for b, v in _ref_bindings(analysis, function, site) if env.get(b) is None)
    env = env.extended(_rest_of_the_refs(function, site, scope, env))
    env = env.extended(_receiver_binding(analysis, function, scope, site, env))
    scratch_known = launch_layout(site.launch).scratch is not None
    interp = analysis.values.interp
    where = analysis.model.loc(function)
    bound = []
    if calls.defaults_replaced(interp):
        return env  # `f.__defaults__ = (...)` somewhere: the defaults the def wrote may not stand
    for arg, default, index in defaulted_parameters(function):
        if not left_to_default(site, arg.arg, index) or (index is None and not scratch_known):
            continue  # filled by the launch (or, scratch keywords not known, it may be)
        params = [b for b in scope.bindings.get(arg.arg, []) if b.kind == "param"]
        if len(params) == 1 and env.get(params[0]) is None:
            # evaluated where the def ran, with what it closed over (`def k(x_ref, o_ref, mode=mode)`
            # in a loop over modes: each function keeps the mode of its iteration)
            bound.append((params[0], interp.ev(default, where, env, analysis.model)))
    return env.extended(bound) if bound else env


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for function, sites in _sites_by_function(analysis.all_sites):
        if isinstance(function, ast.AsyncFunctionDef) or is_generator(function):
            continue  # PAL005's business
        returns = _value_returns(analysis, function, sites)
        if not returns:
            continue
        for node in returns:
            plan = _output_plan(analysis, function, sites, node)
            if plan.names and _write_fails(analysis, function, sites, node, plan.names):
                plan = dataclasses.replace(plan, names=None)  # the write would fail: no write fix
            finding = _finding(analysis, function, sites, node)
            finding.fixes.extend(_fixes(analysis, function, node, plan))
            yield finding


def _sites_by_function(sites: list[KernelSite]) -> list[tuple[FunctionNode, list[KernelSite]]]:
    grouped: dict[int, tuple[FunctionNode, list[KernelSite]]] = {}
    for site in sites:
        grouped.setdefault(id(site.function), (site.function, []))[1].append(site)
    return list(grouped.values())


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


# ------------------------------------------------------------------------------------ fixes
# Output parameters by name, when the launch does not tell which ones are outputs.
_OUTPUT_NAME = re.compile(r"^(o|out|output)(_ref)?$|^\w+_out(put)?_ref$|^out(put)?_\w+_ref$")


@dataclass(frozen=True)
class _OutputPlan:
    """Where a kernel's results go: its output parameter names (None: not known), how far the
    write fix may be trusted, an edit adding the parameter if it is missing, whether every output
    is already written by the kernel, and whether its refs live in HBM (no `[...]` there)."""

    names: list[str] | None
    applicability: Applicability
    add_parameter: Edit | None = None
    all_written: bool = False
    hbm: bool = False


def _output_plan(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], node: ast.AST
) -> _OutputPlan:
    """Output parameters from the launches' layout or, where that is not known, from the kernel's
    signature (safe, when every launch agrees); from names only when neither knows (unsafe)."""
    hbm = any(refs_in_hbm(site) for site in sites)
    written = written_before(function, node) if isinstance(node, ast.stmt) else frozenset()
    known = [kernel_outputs(site)[0] for site in sites]
    if known[0] is not None and all(k == known[0] for k in known):
        return _OutputPlan(known[0], Applicability.SAFE, None, set(known[0]) <= written, hbm)
    missing_at = {missing_outputs_at(site) for site in sites}
    if len(missing_at) == 1 and None not in missing_at and {launch_layout(s.launch).outputs for s in sites} == {1}:
        at = missing_at.pop()
        plan = _plan_adding_output(analysis, function, sites[0], at) if at is not None else None
        if plan is not None:
            return dataclasses.replace(plan, hbm=hbm)
    if all(launch_layout(site.launch).outputs is None for site in sites) and all(k is None for k in known):
        by_name = [a.arg for a in positional_args(function) if _OUTPUT_NAME.match(a.arg)]
        if len(by_name) == 1:
            return _OutputPlan(by_name, Applicability.UNSAFE, None, set(by_name) <= written, hbm)
    return _OutputPlan(None, Applicability.UNSAFE, None, False, hbm)


def _write_fails(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], node: ast.AST, outputs: list[str]
) -> bool:
    """Would `o_ref[...] = value` provably fail as the return did, so that the write is not a fix
    to apply?  The value is an array of another shape than the one output it would be written to
    (`jnp.max(x_ref[...], axis=0, keepdims=True)`, (1, 128), into an (8, 128) output ref), or no
    array at all: a list, a dict, a Python constant or a builtin's bool or int (`all(...)`, a list
    of `__setitem__` results; a ref takes neither).  The value is evaluated with each ref
    parameter bound to an array of its ref's shape."""
    if len(sites) != 1 or len(outputs) != 1 or not isinstance(node, ast.Return) or node.value is None:
        return False
    site = sites[0]
    names = positional_parameters(site)
    shapes = kernel_ref_shapes(site.launch)
    output = shapes.get(names.index(outputs[0])) if outputs[0] in names else None
    if output is None:
        return False
    refs = _ref_bindings(analysis, function, site)
    interp = site.launch.interp or interpreter_for(analysis.model)
    values = interp.ev(node.value, analysis.model.loc(node), site.target.env.extended(refs), analysis.model)
    return bool(values) and all(_not_written_as(v, output) for v in values)


def _ref_bindings(
    analysis: ModuleAnalysis, function: FunctionNode, site: KernelSite
) -> list[tuple[Binding, frozenset[Value]]]:
    """The kernel's ref parameters bound to arrays of their refs' shapes and dtypes, where the
    launch makes the shapes certain (`blocks.kernel_ref_arrays`)."""
    scope = analysis.model.scope_of_function.get(id(function))
    arrays = kernel_ref_arrays(site.launch)
    if scope is None or not arrays:
        return []
    return [
        (binding, frozenset({Param(binding, arrays[position])}))
        for position, name in enumerate(positional_parameters(site))
        if position in arrays
        for binding in scope.bindings.get(name, [])
        if binding.kind == "param"
    ]


def _receiver_binding(
    analysis: ModuleAnalysis, function: FunctionNode, scope: Scope, site: KernelSite, env: Env
) -> list[tuple[Binding, frozenset[Value]]]:
    """A method launched bound to its instances (`pl.pallas_call(Scale(1), ...)` of `__call__`,
    `scaler.kernel`): its first parameter is those instances (`if self.scale == 1:` decided)."""
    params = positional_args(function)
    receivers = method_receivers(analysis.model, function, site.launch.kernel_values) if params else frozenset()
    binding = next((b for b in scope.bindings.get(params[0].arg, []) if b.kind == "param"), None) if params else None
    if not receivers or binding is None or env.get(binding) is not None:
        return []
    return [(binding, receivers)]


def _rest_of_the_refs(
    function: FunctionNode, site: KernelSite, scope: Scope, env: Env
) -> list[tuple[Binding, frozenset[Value]]]:
    """`def kernel(x_ref, *outs)`: the star parameter holds the refs past the positional ones,
    as many as the launch passes (`len(outs)` is known), each a ref parameter."""
    star = getattr(function.args, "vararg", None)
    total = launch_layout(site.launch).total
    if star is None or total is None or site.target.bound_keywords:
        return []
    rest = total - len(positional_parameters(site))
    binding = next((b for b in scope.bindings.get(star.arg, []) if b.kind == "param"), None)
    if rest < 0 or binding is None or env.get(binding) is not None:
        return []
    return [(binding, frozenset({Seq("tuple", tuple(frozenset({Param(binding)}) for _ in range(rest)))}))]


# Builtins whose result is a Python scalar, whatever they are given (a ref takes no 0-d value).
_PYTHON_SCALARS = frozenset(
    {"len", "bool", "str", "repr", "hash", "id", "isinstance", "issubclass", "callable", "hasattr", "any", "all"}
)


def _not_written_as(value: Value, output: tuple[int, ...]) -> bool:
    """A value `o_ref[...] = value` cannot take for an output ref of shape `output`."""
    if isinstance(value, Array):
        return value.shape is not None and value.shape != output
    if isinstance(value, (Seq, DictV)) or (isinstance(value, Const) and not isinstance(value.value, (int, float))):
        return True
    return isinstance(value, Opaque) and type(value) is Opaque and value.kind in _PYTHON_SCALARS | {"bool"}


def _plan_adding_output(
    analysis: ModuleAnalysis, function: FunctionNode, site: KernelSite, index: int
) -> _OutputPlan | None:
    taken = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)} | {
        a.arg for a in ast.walk(function) if isinstance(a, ast.arg)
    }
    name = free_name("o_ref", taken)
    edit = insert_parameter(analysis.source, function, site.target.bound_positional + index, name)
    return _OutputPlan([name], Applicability.SAFE, edit) if edit is not None else None


def _fixes(analysis: ModuleAnalysis, function: FunctionNode, node: ast.AST, plan: _OutputPlan) -> list[Fix]:
    """The write fix (preferred while some output is not yet written) and "Return None instead".

    Dropping the value is safe when the value is a constant, an empty container or a ref, or when
    every output is already written (it is then the write that would be a guess); otherwise it
    throws a result away, and is only shown (display-only).  Refs in HBM take no `[...]` write."""
    if isinstance(function, ast.Lambda):
        return [fix for fix in [_lambda_write_fix(analysis, function, plan)] if fix is not None]
    assert isinstance(node, ast.Return)
    trivial = _is_trivial(analysis, function, node.value)
    fixes: list[Fix] = []
    if plan.names and not plan.hbm and not trivial:
        edits = write_instead_of_return(analysis.source, node, plan.names, function)
        if edits is not None:
            edits = edits + ([plan.add_parameter] if plan.add_parameter else [])
            if plan.all_written:  # writing again would overwrite what the kernel wrote
                fixes.append(Fix(_write_title(plan), tuple(edits), Applicability.DISPLAY_ONLY))
            else:
                fixes.append(Fix(_write_title(plan), tuple(edits), plan.applicability, preferred=True))
    drop = drop_returned_value(analysis.source, node, function)
    if drop is None:
        return fixes
    if trivial:
        drop_applicability = Applicability.SAFE
    elif plan.all_written:
        drop_applicability = plan.applicability  # the outputs are known (safe) or guessed by name
    else:
        drop_applicability = Applicability.DISPLAY_ONLY
    preferred = not any(f.preferred for f in fixes)
    fixes.append(Fix("Return None instead", tuple(drop), drop_applicability, preferred=preferred))
    return fixes


def _write_title(plan: _OutputPlan) -> str:
    outputs = plan.names or []
    names = ", ".join(f"`{n}`" for n in outputs)
    if plan.add_parameter is not None:
        return f"Add output parameter {names} and write the result to it"
    return f"Write the result{'s' if len(outputs) > 1 else ''} to {names}"


def _lambda_write_fix(analysis: ModuleAnalysis, function: ast.Lambda, plan: _OutputPlan) -> Fix | None:
    """`lambda x_ref, o_ref: v` -> `lambda x_ref, o_ref: o_ref.__setitem__(..., v)` (an expression that writes)."""
    if plan.names is None or len(plan.names) != 1 or plan.hbm:
        return None
    source = analysis.source
    body = source.segment(function.body)
    edits = [Edit(source.node_range(function.body), f"{plan.names[0]}.__setitem__(..., {body})")]
    if plan.add_parameter is not None:
        edits.append(plan.add_parameter)
    return Fix(_write_title(plan), tuple(edits), plan.applicability, preferred=True)


def _is_trivial(analysis: ModuleAnalysis, function: FunctionNode, value: ast.expr | None) -> bool:
    """A value nobody meant as a result: a constant, an empty container, `(None,)`, a ref parameter."""
    if value is None or isinstance(value, ast.Constant):
        return True
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        return all(isinstance(e, ast.Constant) and e.value is None for e in value.elts)
    if isinstance(value, ast.Dict):
        return not value.keys
    if isinstance(value, ast.Name):
        return value.id in {a.arg for a in positional_args(function)}
    return False
