"""PAL007 when-body-returns-value: a `pl.when(cond)` body returns a value."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.callbacks import WHEN, CallbackBody
from ..engine.captures import certainly_traced
from ..engine.findings import Finding, Related, Severity
from ..engine.kernels import kernel_name
from ..engine.model import is_generator
from .base import Example

CODE = "PAL007"
NAME = "when-body-returns-value"
SEVERITY = Severity.ERROR
SUMMARY = "A `pl.when(cond)` body returns a value"

DOCS = """
## What it does
Reports a `return <value>` in a function run by `pl.when(cond)`: a def decorated with
`@pl.when(cond)`, or a function (def or lambda) applied as `pl.when(cond)(f)`.

## Why is this bad?
`pl.when` runs its body for its effects only. When the condition is a traced value (anything but a
Python `bool`: `pl.program_id(0) == 0`, `x_ref[0] > 0`, even `np.bool_(True)` or `1`), it becomes
`lax.cond(cond, body, lambda: None)`, and the two branches must give the same pytree:

    TypeError: cond branch outputs must have the same pytree structure, but they differ:

With a Python `bool` the body simply runs (or not) and the value is silently dropped. `return ()`
and `return 0` count as values too.

## What is not reported
A condition that may be a Python `bool`: only a condition that is certainly traced is reported
(it calls `pl.program_id` / `pl.num_programs` or a `jnp` / `lax` function, reads a ref, compares or
combines such values, calls a def of the program whose every `return` gives such a value, or is a
non-bool literal such as `1`). So `pl.when(True)`,
`pl.when(x_ref.shape[0] > 4)`, `pl.when(has_bias)` (a flag bound by `functools.partial`) and a
condition pallas-ls cannot see through (a `fori_loop` body's index, a module-level name) stay silent; the index
of a `@pl.loop(lower, upper)` body is traced. Also a bare `return`,
`return None`, returns of values that are None (`return pltpu.sync_copy(...)`, a
call of a function that returns None), returns inside functions nested in the body, and returns
whose value cannot be known statically.

## How to fix
Drop the value: write results into a ref (`o_ref[...] = ...`) and end the body with a bare
`return` or no return at all. To choose between two values, use `jax.lax.cond` or `jnp.where`.
"""

_PROGRAM = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
{body}


out = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x)
assert (out == x + 1).all()
"""

_ERROR = "cond branch outputs must have the same pytree structure"


def _example(name: str, body: str, valid: bool) -> Example:
    return Example(name, _PROGRAM.format(body=body.strip("\n")), valid, jax_error=None if valid else _ERROR)


EXAMPLES = [
    _example(
        "condition-from-a-helper",
        """
    def first_step():
        return pl.program_id(0) == 0

    @pl.when(first_step())
    def _():
        o_ref[...] += 1
        «return o_ref[...]»
""",
        valid=False,
    ),
    _example(
        "condition-a-helper-gives-as-a-python-bool",
        """
    def enabled():
        return True

    @pl.when(enabled())
    def _():
        o_ref[...] += 1
        return o_ref[...]
""",
        valid=True,
    ),
    _example(
        "decorated-body-returns-the-result",
        """
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] += 1
        «return o_ref[...]»
""",
        valid=False,
    ),
    _example(
        "applied-lambda-is-a-value",
        """
    pl.when(pl.program_id(0) == 0)(lambda: «o_ref[...] + 1»)
""",
        valid=False,
    ),
    _example(
        "named-body-returns-an-empty-tuple",
        """
    def increment():
        o_ref[...] += 1
        «return ()»

    pl.when(x_ref[0, 0] >= 0)(increment)
""",
        valid=False,
    ),
    _example(
        "condition-on-a-pl-loop-index",
        """
    @pl.loop(0, 2)
    def _(i):
        @pl.when(i == 0)
        def _():
            o_ref[...] += 1
            «return o_ref[...]»
""",
        valid=False,
    ),
    _example(
        "bare-return-and-none-values",
        """
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] += 1
        if x_ref.shape[0] == 0:
            return None
        return

    @pl.when(pl.program_id(0) == 0)
    def _():
        return jax.debug.print("first element: {}", o_ref[0, 0])
""",
        valid=True,
    ),
    _example(
        "returns-inside-a-nested-loop-body",
        """
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] += jax.lax.fori_loop(0, 4, lambda i, acc: acc + 0.25, 0.0)
""",
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for body in analysis.callbacks:
        if body.api is not WHEN:
            continue
        function = body.function
        if isinstance(function, ast.AsyncFunctionDef) or is_generator(function):
            continue
        if not _traced_condition(analysis, body):
            continue  # `pl.when(True)`, `pl.when(flag)`: maybe a plain `if`, the value only dropped
        for node in analysis.values.value_returns(function):
            yield _finding(analysis, body, node)


def _traced_condition(analysis: ModuleAnalysis, body: CallbackBody) -> bool:
    """JAX raises only for a traced condition (`pl.program_id(0) == 0`, `x_ref[0] > 0`); with a
    Python bool (`pl.when(has_bias)`, a flag bound by functools.partial) it runs a plain `if`."""
    call = body.node
    if not isinstance(call, ast.Call) or len(call.args) != 1:
        return False
    condition = call.args[0]
    if isinstance(condition, ast.Constant):
        return not isinstance(condition.value, bool)  # `pl.when(1)`: not a bool, so JAX traces it
    model = analysis.model
    return certainly_traced(condition, model, model.loc(call).scope)


def _finding(analysis: ModuleAnalysis, body: CallbackBody, node: ast.AST) -> Finding:
    name = kernel_name(body.function)
    what = "lambda" if name == "<lambda>" else f"body `{name}`"
    message = (
        f'`pl.when` {what} returns a value; with a traced condition JAX fails with "TypeError: {_ERROR}" '
        "(with a Python bool the value is dropped). Write results into a ref and return nothing"
    )
    return Finding(
        CODE,
        message,
        analysis.source.node_range(node),
        analysis.path,
        SEVERITY,
        related=[Related(analysis.path, analysis.source.node_range(body.node), "run by pl.when here")],
    )
