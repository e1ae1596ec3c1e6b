"""PAL003 kernel-captures-array: a Pallas kernel closes over a jax array instead of taking it as an input."""

from __future__ import annotations

import ast
from typing import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.captures import (
    ArrayFact,
    FreeUse,
    Rank,
    combined_rank,
    free_uses,
    names_array,
    outer_bindings,
)
from ..engine.findings import Finding, Related, Severity
from ..engine.kernels import KernelSite, kernel_name
from ..engine.model import FunctionNode
from .base import Example

CODE = "PAL003"
NAME = "kernel-captures-array"
SEVERITY = Severity.ERROR
SUMMARY = "A Pallas kernel closes over a jax array instead of receiving it as an input"

DOCS = """
## What it does
Reports the first place where a Pallas kernel reads a jax array that it closes over: a name bound
at module level or in an enclosing function to a `jax.numpy` constructor (`jnp.ones(...)`,
`jnp.arange(...)`, `jnp.float32(3.0)`, ...), to a `jax.random` draw or key, or a parameter of an
enclosing `@jax.jit` function (which jit turns into a traced array). A read counts when it
certainly binds a JAX operation on the value, which is what makes the array a constant of the
kernel: arithmetic and comparisons, a store into a ref (`o_ref[...] = c`), a `jnp` / `lax`
function, a reduction method (`c.sum()`), `c.T`, `c.at[...]` — also through indexing and through
calls that may return the array untouched (`jnp.asarray(c)`, `c.astype(...)`, `c.reshape(...)`).

## Why is this bad?
JAX traces the kernel into a jaxpr; a captured array becomes a constant of that jaxpr, which a
Pallas kernel cannot have. `pallas_call` rejects every captured array, even a 0-d one:

    ValueError: The kernel function in the pallas_call kernel at ops.py:12 captures constants
    [f32[8,128]]. You should pass them as inputs.

`pl.kernel` and `mpmd_map` ("captures non-Ref constants") and `pl.core_map` ("captures non-scalar
constants") reject the arrays that are not scalars. The check runs once the whole kernel is
traced, so another trace-time error in the kernel (a shape mismatch, say) shows up first.

## What is not reported
Python numbers and other non-array values (they become literals), Refs, static metadata of a
captured array (`c.shape`, `c.dtype`, `c.ndim`, `len(c)`, `jnp.shape(c)`, `jnp.zeros_like(c)`,
`jnp.asarray(c).shape`), reads whose fate is unknown (`helper(c)`, `y = c`), 0-d arrays captured by
`pl.kernel` / `mpmd_map` / `core_map`, parameters with defaults or marked static in `jax.jit`, and
any name whose binding is not certainly an array (a parameter of a plain function may well be a
Python float).

## How to fix
Pass the array to the kernel as an input — an extra argument of the `pallas_call(...)(...)` call
and an extra ref parameter (with a `BlockSpec` if you use a grid) — and read it through the ref.
A constant that is really a Python scalar can stay captured: `scale = 3.0`.
"""

_PALLAS_CALL = '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
'''

_ERROR = "captures constants"

EXAMPLES = [
    Example(
        "module-level-array",
        _PALLAS_CALL
        + '''bias = jnp.ones((8, 128), jnp.float32)


def add_bias(x_ref, o_ref):
    o_ref[...] = x_ref[...] + «bias»


pl.pallas_call(add_bias, out_shape=out_shape, interpret=True)(x)
''',
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "zero-d-array-constant",
        _PALLAS_CALL
        + '''scale = jnp.float32(3.0)


def scaled(x_ref, o_ref):
    o_ref[...] = x_ref[...] * «scale»


pl.pallas_call(scaled, out_shape=out_shape, interpret=True)(x)
''',
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "random-draw-in-an-enclosing-function",
        _PALLAS_CALL
        + '''

def add_noise(x):
    noise = jax.random.normal(jax.random.key(0), x.shape)

    def kernel(x_ref, o_ref):
        @pl.when(pl.program_id(0) == 0)
        def _():
            o_ref[...] = x_ref[...] + «noise»

    return pl.pallas_call(kernel, out_shape=out_shape, grid=(1,), interpret=True)(x)


add_noise(x)
''',
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "parameter-of-a-jitted-function",
        _PALLAS_CALL
        + '''import functools


@functools.partial(jax.jit, static_argnames="block")
def add(x, y, block):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + «y»

    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


add(x, x, block=8)
''',
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "core-map-captures-a-non-scalar-array",
        '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
ones = jnp.ones((8, 128), jnp.float32)


@jax.jit
def add_one(x):
    x_ref = jax.new_ref(x)
    y_ref = jax.new_ref(jnp.zeros_like(x))

    @pl.core_map(mesh, interpret=pltpu.InterpretParams())
    def _():
        def body(buf):
            pltpu.sync_copy(x_ref, buf)
            buf[...] = buf[...] + «ones»
            pltpu.sync_copy(buf, y_ref)

        pl.run_scoped(body, pltpu.VMEM((8, 128), jnp.float32))

    return jax.freeze(y_ref)


add_one(jnp.zeros((8, 128), jnp.float32))
''',
        valid=False,
        jax_error="captures non-scalar constants",
    ),
    Example(
        "passed-as-an-input",
        _PALLAS_CALL
        + '''bias = jnp.ones((8, 128), jnp.float32)


def add_bias(x_ref, bias_ref, o_ref):
    o_ref[...] = x_ref[...] + bias_ref[...]


assert (pl.pallas_call(add_bias, out_shape=out_shape, interpret=True)(x, bias) == x + 1).all()
''',
        valid=True,
    ),
    Example(
        "python-scalars-refs-and-static-metadata",
        _PALLAS_CALL
        + '''import functools

bias = jnp.ones((8, 128), jnp.float32)
scale = 1.0


def op(x, eps):
    def kernel(x_ref, o_ref):
        rows = bias.shape[0] + len(bias) - bias.ndim
        o_ref[...] = jnp.zeros(bias.shape, bias.dtype) + x_ref[...] * scale + eps * rows

    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


@functools.partial(jax.jit, static_argnames="eps")
def jitted(x, eps, offset=0.0):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + eps + offset

    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


assert (op(x, 0.0) == x).all()
assert (jitted(x, eps=1.0) == x + 1).all()
''',
        valid=True,
    ),
]

# Launches that reject every captured array, and those that reject only the non-scalar ones.
_ALL_ARRAYS = frozenset({"pallas_call"})
_NON_SCALAR = frozenset({"kernel", "mpmd_map", "core_map"})


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    grouped: dict[int, tuple[FunctionNode, list[KernelSite]]] = {}
    for site in analysis.all_sites:
        grouped.setdefault(id(site.function), (site.function, []))[1].append(site)
    for function, sites in grouped.values():
        kinds = {site.launch.kind for site in sites}
        if not kinds & (_ALL_ARRAYS | _NON_SCALAR):
            continue
        yield from _check_kernel(analysis, function, sites, kinds)


def _check_kernel(analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], kinds: set[str]) -> Iterator[Finding]:
    model = analysis.model
    reported: set[str] = set()
    facts_by_name: dict[str, list[ArrayFact] | None] = {}
    for use in free_uses(model, function):
        if use.name in reported or not use.traced:
            continue
        if use.name.endswith("_ref"):
            continue  # named like a Ref: a Ref may be captured
        if use.name not in facts_by_name:
            facts_by_name[use.name] = names_array(model, outer_bindings(model, function, use.name))
        facts = facts_by_name[use.name]
        if facts is None:
            continue
        if use.subscript and any(f.jitted_parameter for f in facts):
            continue  # `p[...]` of a jit parameter: p may be a Ref passed into jit
        site = _rejecting_site(sites, combined_rank(facts))
        if site is None:
            continue
        reported.add(use.name)
        yield _finding(analysis, function, site, use, facts, sites)


def _rejecting_site(sites: list[KernelSite], rank: Rank) -> KernelSite | None:
    for site in sites:
        if site.launch.kind in _ALL_ARRAYS:
            return site
    if rank is Rank.NONSCALAR:
        for site in sites:
            if site.launch.kind in _NON_SCALAR:
                return site
    return None


def _describe(analysis: ModuleAnalysis, fact: ArrayFact) -> str:
    if fact.jitted_parameter:
        function = fact.binding.scope.node
        return f"a parameter of the jitted function `{getattr(function, 'name', '?')}`, so a traced array"
    origin = fact.origin
    callee = analysis.source.segment(origin.func) if isinstance(origin, ast.Call) else "?"
    rank = "" if fact.rank is Rank.UNKNOWN else f" {fact.rank.value}"
    return f"a{rank} jax array from `{callee}(...)` on line {getattr(origin, 'lineno', '?')}"


def _finding(analysis: ModuleAnalysis, function: FunctionNode, site: KernelSite, use: FreeUse,
             facts: list[ArrayFact], sites: list[KernelSite]) -> Finding:
    name = kernel_name(function)
    label = site.launch.label
    if site.launch.kind == "pallas_call":
        error = "captures constants [...]. You should pass them as inputs."
    elif site.launch.kind == "core_map":
        error = "captures non-scalar constants [...]. You should pass them as inputs."
    else:
        error = "captures non-Ref constants [...]. You should pass them as inputs."
    message = (
        f"Pallas kernel `{name}` captures `{use.name}`, {_describe(analysis, facts[0])}; "
        f"{label} rejects it (\"{error}\"). Pass `{use.name}` to the kernel as an input and read it through its ref"
    )
    related = [
        Related(analysis.path, analysis.source.node_range(_binding_anchor(f)), f"`{use.name}` is bound here")
        for f in facts
    ]
    related += [analysis.launch_related(s) for s in sites if s.launch.kind == site.launch.kind][:1]
    return Finding(CODE, message, analysis.source.node_range(use.node), analysis.path, SEVERITY, related=related)


def _binding_anchor(fact: ArrayFact) -> ast.AST:
    binding = fact.binding
    return binding.node if binding.kind == "param" else (binding.stmt or binding.node)
