"""PAL003 kernel-captures-array: a Pallas kernel closes over a jax array instead of taking it as an input."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import cast

from ..engine.analysis import ModuleAnalysis
from ..engine.array_facts import (
    ArrayFact,
    Rank,
    certainly_jax_array,
    combined_rank,
    constructor_fact,
    iterated_array_rank,
    member_array_rank,
    names_array,
    partial_bound_arrays,
    rank_of,
)
from ..engine.captures import (
    FreeUse,
    called_helpers,
    free_uses,
    module_def,
    numpy_arrays_made_in,
    outer_bindings,
    parameter_uses,
)
from ..engine.findings import Finding, Related, Severity
from ..engine.kernels import KernelSite, interpreter_for, kernel_name, method_receivers
from ..engine.layout import left_to_default
from ..engine.model import Binding, FunctionNode, ModuleModel, defaulted_parameters, own_returns, positional_args
from ..engine.values.bindings import binding_value
from ..engine.values.domain import Env, Value
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
enclosing `@jax.jit` function (which jit turns into a traced array). Also a numpy array of rank
>= 1 (`np.arange(...)`, `np.ones((8, 128))`, `np.triu(...)`) where it meets a traced value
(`x_ref[...] + table`, `jnp.where(mask, ...)`, `o_ref[...] = table`), also when the kernel makes it
in its own body (`jnp.where(np.arange(128) < 64, ...)`: numpy computes it before JAX sees it, so it
is a constant as a captured one is), a parameter with an array
default that JAX never fills (`def kernel(x_ref, o_ref, bias=_BIAS)`: pallas_call passes only the
refs), a parameter that `functools.partial` binds to a jax array
(`partial(kernel, bias=jnp.ones(...))`), and a member such as `self.bias`, `PARAMS["scale"]` or
`p.weight` of the object a kernel factory was called with that is a jax array on every path
(for a method, `self.bias` of the instance one launch was made for), and a local of an enclosing
function that holds a jax array in the closure a launch made the kernel in (`w = p.weight`).
Module-level helpers the kernel calls by name (and the ones they call) are traced with it: a
global array they read is reported in the helper. A read counts when it
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
Python numbers, numpy scalars and what numpy reduces to one (`np.float32(2.0)`, `table.sum()`,
`table[0]`) and other non-array values (they become literals), Refs, static metadata of a
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

_PALLAS_CALL = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
"""

_ERROR = "captures constants"

EXAMPLES = [
    Example(
        "module-level-array",
        _PALLAS_CALL
        + """bias = jnp.ones((8, 128), jnp.float32)


def add_bias(x_ref, o_ref):
    o_ref[...] = x_ref[...] + «bias»


pl.pallas_call(add_bias, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "array-read-by-a-helper",
        _PALLAS_CALL
        + """weights = jnp.full((8, 128), 2.0, jnp.float32)


def weighted(v):
    return v * «weights»


def kernel(x_ref, o_ref):
    o_ref[...] = weighted(x_ref[...])


pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "array-returned-by-a-helper",
        _PALLAS_CALL
        + """_BIAS = jnp.ones((8, 128), jnp.float32)


def bias():
    return _BIAS


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + «bias»()


pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "zero-d-array-constant",
        _PALLAS_CALL
        + """scale = jnp.float32(3.0)


def scaled(x_ref, o_ref):
    o_ref[...] = x_ref[...] * «scale»


pl.pallas_call(scaled, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "random-draw-in-an-enclosing-function",
        _PALLAS_CALL
        + """

def add_noise(x):
    noise = jax.random.normal(jax.random.key(0), x.shape)

    def kernel(x_ref, o_ref):
        @pl.when(pl.program_id(0) == 0)
        def _():
            o_ref[...] = x_ref[...] + «noise»

    return pl.pallas_call(kernel, out_shape=out_shape, grid=(1,), interpret=True)(x)


add_noise(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "parameter-of-a-jitted-function",
        _PALLAS_CALL
        + """import functools


@functools.partial(jax.jit, static_argnames="block")
def add(x, y, block):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + «y»

    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


add(x, x, block=8)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "core-map-captures-a-non-scalar-array",
        """\
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
""",
        valid=False,
        jax_error="captures non-scalar constants",
    ),
    Example(
        "passed-as-an-input",
        _PALLAS_CALL
        + """bias = jnp.ones((8, 128), jnp.float32)


def add_bias(x_ref, bias_ref, o_ref):
    o_ref[...] = x_ref[...] + bias_ref[...]


assert (pl.pallas_call(add_bias, out_shape=out_shape, interpret=True)(x, bias) == x + 1).all()
""",
        valid=True,
    ),
    Example(
        "arrays-iterated-from-a-global-list",
        _PALLAS_CALL
        + """TERMS = [jnp.full((8, 128), i, jnp.float32) for i in range(3)]


def kernel(x_ref, o_ref):
    acc = x_ref[...]
    for t in TERMS:
        acc = acc + «t»
    o_ref[...] = acc


pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "global-list-of-arrays-iterated-for-their-shapes",
        _PALLAS_CALL
        + """TERMS = [jnp.full((8, 128), i, jnp.float32) for i in range(3)]


def kernel(x_ref, o_ref):
    acc = x_ref[...]
    for t in TERMS:
        acc = acc + t.shape[0]
    o_ref[...] = acc


assert (pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x) == x + 24).all()
""",
        valid=True,
    ),
    Example(
        "helper-returning-an-array-whose-shape-is-read",
        _PALLAS_CALL
        + """_BIAS = jnp.ones((8, 128), jnp.float32)


def bias():
    return _BIAS


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + bias().shape[0]


assert (pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x) == x + 8).all()
""",
        valid=True,
    ),
    Example(
        "python-scalars-refs-and-static-metadata",
        _PALLAS_CALL
        + """import functools

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
""",
        valid=True,
    ),
    Example(
        "numpy-array",
        _PALLAS_CALL
        + """import numpy as np

table = np.arange(128, dtype=np.float32)


def add_table(x_ref, o_ref):
    o_ref[...] = x_ref[...] + «table»


pl.pallas_call(add_table, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "numpy-array-made-in-the-kernel",
        _PALLAS_CALL
        + """import numpy as np


def first_half(x_ref, o_ref):
    o_ref[...] = jnp.where(«np.arange(128)» < 64, x_ref[...], 0.0)


pl.pallas_call(first_half, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "numpy-scalars-made-in-the-kernel",
        _PALLAS_CALL
        + """import numpy as np


def first_half(x_ref, o_ref):
    lanes = np.arange(128).size  # numpy computes it: a literal
    mask = jax.lax.broadcasted_iota(jnp.int32, (8, 128), 1) < lanes // 2
    o_ref[...] = jnp.where(mask, x_ref[...] * np.float32(2.0), 0.0)


pl.pallas_call(first_half, out_shape=out_shape, interpret=True)(x)
""",
        valid=True,
    ),
    Example(
        "numpy-name-rebound-around-the-kernel",
        _PALLAS_CALL
        + """import numpy as np


def plus_ones(x):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + np.ones((8, 128), np.float32)  # np is jax.numpy when traced

    import jax.numpy as np

    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


plus_ones(x)
""",
        valid=True,
    ),
    Example(
        "array-default-never-filled",
        _PALLAS_CALL
        + """_BIAS = jnp.ones((8, 128), jnp.float32)


def add_bias(x_ref, o_ref, bias=_BIAS):
    o_ref[...] = x_ref[...] + «bias»


pl.pallas_call(add_bias, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "array-attribute-of-self",
        _PALLAS_CALL
        + """

class BiasAdd:
    def __init__(self):
        self.bias = jnp.full((8, 128), 0.5, jnp.float32)

    def __call__(self, x):
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] + «self.bias»

        return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


BiasAdd()(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "array-bound-by-partial",
        _PALLAS_CALL
        + """import functools


def add_bias(x_ref, o_ref, *, bias, scale):
    o_ref[...] = x_ref[...] * scale + «bias»


kernel = functools.partial(add_bias, bias=jnp.ones((8, 128), jnp.float32), scale=2.0)
pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "array-field-of-a-factory-argument",
        _PALLAS_CALL
        + """import dataclasses


@dataclasses.dataclass
class Params:
    weight: object = None


def make_kernel(p):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * «p.weight»

    return kernel


params = Params(weight=jnp.full((8, 128), 2.0, jnp.float32))
pl.pallas_call(make_kernel(params), out_shape=out_shape, interpret=True)(x)
""",
        valid=False,
        jax_error=_ERROR,
    ),
    Example(
        "scalars-bound-by-partial-and-factories",
        _PALLAS_CALL
        + """import dataclasses
import functools


@dataclasses.dataclass
class Params:
    weight: float = 1.0


def make_kernel(p):
    def kernel(x_ref, o_ref, *, bias):
        o_ref[...] = x_ref[...] * p.weight + bias

    return kernel


kernel = functools.partial(make_kernel(Params(weight=2.0)), bias=0.5)
assert (pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x) == x * 2 + 0.5).all()
""",
        valid=True,
    ),
    Example(
        "numpy-scalars-and-python-attributes",
        _PALLAS_CALL
        + """import numpy as np

scale = np.float32(2.0)
table = np.arange(128, dtype=np.float32)


class Offset:
    def __init__(self):
        self.offset = 0.5

    def __call__(self, x, bias=1.0):
        def kernel(x_ref, o_ref, b=bias):
            total = (table * 2).sum()  # numpy computes it: a literal
            o_ref[...] = x_ref[...] * scale + self.offset + table[0] + total * 0 + b

        return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)


assert (Offset()(x) == x * 2 + 1.5).all()
""",
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
    known_uses: dict[int, list[FreeUse]] = {}  # a helper several kernels call is read once

    def uses_of(function: FunctionNode) -> list[FreeUse]:
        if id(function) not in known_uses:
            known_uses[id(function)] = free_uses(analysis.model, function)
        return known_uses[id(function)]

    for function, sites in grouped.values():
        kinds = {site.launch.kind for site in sites}
        if not kinds & (_ALL_ARRAYS | _NON_SCALAR):
            continue
        yield from _check_kernel(analysis, function, sites, uses_of)


def _check_kernel(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    sites: list[KernelSite],
    uses_of: Callable[[FunctionNode], list[FreeUse]],
) -> Iterator[Finding]:
    model = analysis.model
    reported: set[str] = set()
    facts_by_name: dict[str, list[ArrayFact] | None] = {}
    for use in uses_of(function):
        if use.name in reported or use.name.endswith("_ref"):
            continue  # named like a Ref: a Ref may be captured
        if not (use.traced or use.meets_jax or use.member_traced):
            continue
        if use.name not in facts_by_name:
            facts_by_name[use.name] = names_array(model, outer_bindings(model, function, use.name))
        facts = facts_by_name[use.name]
        if facts is None and use.member is not None:
            yield from _member_capture(analysis, function, sites, use, reported)  # `self.bias`, `P["w"]`
            continue
        if facts is None and use.traced:
            yield from _argument_capture(analysis, function, sites, use, reported)  # a factory's `w`
            continue
        finding = _array_capture(analysis, function, sites, use, facts) if facts is not None else None
        if finding is not None:
            reported.add(use.name)
            yield finding
    yield from _default_captures(analysis, function, sites, reported)
    yield from _partial_captures(analysis, function, sites, reported)
    yield from _receiver_captures(analysis, function, sites, reported)
    yield from _helper_captures(analysis, function, sites, reported, uses_of)
    yield from _returned_array_captures(analysis, function, sites, reported, uses_of)
    yield from _iterated_captures(analysis, function, sites, reported, uses_of)
    yield from _numpy_made_in_kernel(analysis, function, sites)


def _numpy_made_in_kernel(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite]
) -> Iterator[Finding]:
    """A numpy array of rank >= 1 made in the kernel's body that meets a traced value is a
    constant of the kernel's jaxpr, as a captured one is (`x_ref[...] * np.ones((8, 128))`)."""
    site = _rejecting_site(sites, Rank.NONSCALAR)
    if site is None:
        return
    for call in numpy_arrays_made_in(analysis.model, function)[:1]:  # the first: one fix fixes the habit
        made = f"`{analysis.source.segment(call.func)}(...)`"
        yield Finding(
            CODE,
            f"Pallas kernel `{kernel_name(function)}` makes a numpy array with {made} that meets a traced "
            f'value, so JAX makes it a constant of the kernel; {site.launch.label} rejects it ("{_rejection(site)}"). '
            "Make it with jax.numpy or lax in the kernel (`jnp.ones`, `lax.broadcasted_iota`), or pass it as an input",
            analysis.source.node_range(call),
            analysis.path,
            SEVERITY,
            related=_launch_related(analysis, site, sites),
        )


def _helper_captures(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    sites: list[KernelSite],
    reported: set[str],
    uses_of: Callable[[FunctionNode], list[FreeUse]],
) -> Iterator[Finding]:
    """A module-level helper the kernel calls (`o_ref[...] = scaled(x_ref[...])`) runs while the
    kernel is traced: a global array it reads is captured by the kernel too.  Reported in the
    helper, once per helper and name."""
    model = analysis.model
    for helper in called_helpers(model, function, uses_of):
        for use in uses_of(helper):
            key = f"{getattr(helper, 'name', '?')}:{use.name}"
            if key in reported or use.name.endswith("_ref") or not (use.traced or use.meets_jax):
                continue
            facts = names_array(model, outer_bindings(model, helper, use.name))
            finding = _array_capture(analysis, function, sites, use, facts, helper) if facts is not None else None
            if finding is not None:
                reported.add(key)
                yield finding


def _returned_array_captures(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    sites: list[KernelSite],
    reported: set[str],
    uses_of: Callable[[FunctionNode], list[FreeUse]],
) -> Iterator[Finding]:
    """`x_ref[...] + bias()` where the module-level helper `bias` returns a global jax array on
    every path (`return BIAS`): the call hands that array to a traced operation while the kernel is
    traced, so it is a constant of the kernel's jaxpr.  Reported at the call."""
    model = analysis.model
    for use in uses_of(function):
        if not (use.called and use.result_traced) or use.name in reported:
            continue
        helper = module_def(model, use.name)
        returned = _returned_global(model, helper) if helper is not None else None
        if helper is None or returned is None:
            continue
        facts = names_array(model, outer_bindings(model, helper, returned.id))
        if facts is None or any(f.numpy or f.jitted_parameter for f in facts):
            continue
        site = _rejecting_site(sites, combined_rank(facts))
        if site is None:
            continue
        reported.add(use.name)
        subject = f"calls `{use.name}()`, which returns `{returned.id}`, {_describe(analysis, facts[0])}"
        yield _finding_at(analysis, function, site, sites, use.node, subject, returned.id)


def _iterated_captures(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    sites: list[KernelSite],
    reported: set[str],
    uses_of: Callable[[FunctionNode], list[FreeUse]],
) -> Iterator[Finding]:
    """`for t in TERMS: acc = acc + t` where `TERMS` holds jax arrays: each round makes its item
    a constant of the kernel's jaxpr.  Reported at the item's first traced read."""
    envs = {site.target.env for site in sites}
    for use in uses_of(function):
        item = use.item_traced_at
        if item is None or use.name in reported:
            continue
        rank = iterated_array_rank(analysis.model, function, use.node, envs)
        site = _rejecting_site(sites, rank) if rank is not None else None
        if rank is None or site is None:
            continue
        reported.add(use.name)
        rank_text = "" if rank is Rank.UNKNOWN else f" {rank.value}"
        subject = f"captures `{item.id}`, an item of `{use.name}` (a{rank_text} jax array)"
        yield _finding_at(analysis, function, site, sites, item, subject, use.name)


def _returned_global(model: ModuleModel, helper: FunctionNode) -> ast.Name | None:
    """The one name a def returns on every path (its body ends in a return, and every return of
    it returns that name, bound outside the def)."""
    body = getattr(helper, "body", None)
    if not isinstance(body, list) or not body or not isinstance(body[-1], ast.Return):
        return None
    values = [r.value for r in own_returns(helper)]
    if not all(isinstance(v, ast.Name) for v in values) or len({cast(ast.Name, v).id for v in values}) != 1:
        return None
    returned = cast(ast.Name, values[0])
    scope = model.function_scope(helper)
    return returned if returned.id not in scope.bindings or returned.id in scope.global_names else None


def _array_capture(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    sites: list[KernelSite],
    use: FreeUse,
    facts: list[ArrayFact],
    through: FunctionNode | None = None,
) -> Finding | None:
    """The finding for a read of a name bound to arrays (`facts`) in the kernel, or in a helper it
    calls (`through`), when the read makes them constants of the kernel and a launch rejects that."""
    if not _captured_here(use, facts):
        return None
    if use.subscript and any(f.jitted_parameter for f in facts):
        return None  # `p[...]` of a jit parameter: p may be a Ref passed into jit
    site = _rejecting_site(sites, combined_rank(facts))
    if site is None:
        return None
    return _finding(analysis, function, site, use, facts, sites, through=through)


def _member_capture(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    sites: list[KernelSite],
    use: FreeUse,
    reported: set[str],
    envs: set[Env] | None = None,
) -> Iterator[Finding]:
    """`self.bias`, `PARAMS["scale"]`, `self.params["w"]` read by the kernel and certainly a
    jax array: captured (the first member of the chain that is one).  `envs`: the environments
    the kernel runs in (default: the closures its launches made it in)."""
    if use.member is None:
        return
    envs = envs if envs is not None else {site.target.env for site in sites}
    for member, traced in ((use.member, use.member_traced), *use.outer_members):
        text = analysis.source.segment(member)
        if text in reported:
            return
        rank = member_array_rank(analysis.model, function, member, envs) if traced else None
        if rank is None:
            continue
        site = _rejecting_site(sites, rank)
        if site is None:
            return
        reported.add(text)
        rank_text = "" if rank is Rank.UNKNOWN else f" {rank.value}"
        yield _finding_at(analysis, function, site, sites, member, f"captures `{text}`, a{rank_text} jax array", text)
        return


def _receiver_captures(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], reported: set[str]
) -> Iterator[Finding]:
    """A method launched bound to an instance (`pl.pallas_call(scaler.kernel, ...)`): what it reads
    from its first parameter (`self.w`) is read from that instance, set in `__init__` or anywhere.
    Proved by one launch's instance (`Op(Config(bias=jnp.ones(...)))(x)` launching `self.kernel`
    in `__call__`), whatever the instances of other launches hold."""
    params = positional_args(function)
    binding = _parameter_binding(analysis.model, function, params[0].arg) if params else None
    if binding is None:
        return
    envs = []
    for site in sites:
        receivers = method_receivers(analysis.model, function, site.launch.kernel_values)
        if not receivers:
            return  # launched as a plain function too: its first parameter is not known
        envs.append(site.target.env.extended([(binding, receivers)]))
    for use in parameter_uses(analysis.model, function, params[0].arg):
        for env in envs:
            yield from _member_capture(analysis, function, sites, use, reported, {env})


def _argument_capture(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], use: FreeUse, reported: set[str]
) -> Iterator[Finding]:
    """A parameter of an enclosing function (`def make_scaler(w): @pl.kernel(...) def scale(...):
    ... w ...`), or a local it assigns (`scale = self.scale`), that a call seen here binds to a
    jax array: the kernel that call makes captures it.  Proved for that call, whatever other
    calls pass."""
    bindings = outer_bindings(analysis.model, function, use.name)
    # parameters, or locals an enclosing function assigns (`scale = self.scale`), read in the
    # closure the kernel was made in
    if not bindings or any(b.kind not in ("param", "assign") or b.scope.kind != "function" for b in bindings):
        return
    interp = interpreter_for(analysis.model)
    for site in sites:
        bound = [
            site.target.env.get(b) if b.kind == "param" else binding_value(interp, b, site.target.env, analysis.model)
            for b in bindings
        ]
        if any(v is None or not certainly_jax_array(v) for v in bound):
            continue
        rank = rank_of(frozenset().union(*(cast("frozenset[Value]", v) for v in bound)))
        if _rejecting_site([site], rank) is None:
            continue
        owner = getattr(bindings[0].scope.node, "name", "?")
        rank_text = "" if rank is Rank.UNKNOWN else f" {rank.value}"
        subject = f"captures `{use.name}`, a{rank_text} jax array that a call of `{owner}` passes to it"
        reported.add(use.name)
        yield _finding_at(analysis, function, site, sites, use.node, subject, use.name)
        return


def _default_captures(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], reported: set[str]
) -> Iterator[Finding]:
    """A parameter that JAX never fills keeps its default: an array default is a captured constant."""
    model = analysis.model
    for arg, default, index in defaulted_parameters(function):
        unfilled = [s for s in sites if left_to_default(s, arg.arg, index)]
        if arg.arg in reported or not unfilled:
            continue
        facts = _default_facts(model, function, arg, default)
        if facts is None:
            yield from _default_member_captures(analysis, function, unfilled, arg, default, reported)
            continue
        site = _rejecting_site(unfilled, combined_rank(facts))
        use = next(
            (
                u
                for u in parameter_uses(model, function, arg.arg)
                if (u.traced or u.meets_jax) and _captured_here(u, facts)
            ),
            None,
        )
        if site is None or use is None:
            continue
        reported.add(arg.arg)
        yield _finding(analysis, function, site, use, facts, sites, default=default)


def _default_member_captures(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    unfilled: list[KernelSite],
    arg: ast.arg,
    default: ast.expr,
    reported: set[str],
) -> Iterator[Finding]:
    """A default that holds jax arrays (`ws=(W,)`), read by member (`ws[0]`): captured."""
    model = analysis.model
    binding = _parameter_binding(model, function, arg.arg)
    if binding is None:
        return
    interp = interpreter_for(model)
    where = model.loc(function)  # a default is evaluated where the def is
    envs = {s.target.env.extended([(binding, interp.ev(default, where, s.target.env, model))]) for s in unfilled}
    for use in parameter_uses(model, function, arg.arg):
        yield from _member_capture(analysis, function, unfilled, use, reported, envs)


def _parameter_binding(model: ModuleModel, function: FunctionNode, name: str) -> Binding | None:
    """The binding of the function's parameter `name`, when nothing in its body rebinds it."""
    scope = model.scope_of_function.get(id(function))
    found = scope.bindings.get(name, []) if scope is not None else []
    return found[0] if len(found) == 1 and found[0].kind == "param" else None


def _partial_captures(
    analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite], reported: set[str]
) -> Iterator[Finding]:
    """A parameter that functools.partial binds to a jax array: the array is a captured constant."""
    model = analysis.model
    for site in sites:
        for name, values in partial_bound_arrays(function, site.launch.kernel_values).items():
            rank = rank_of(values)
            if name in reported or _rejecting_site([site], rank) is None:
                continue
            use = next((u for u in parameter_uses(model, function, name) if u.traced), None)
            if use is None:
                continue
            reported.add(name)
            subject = f"reads parameter `{name}`, which functools.partial binds to a jax array, a captured constant"
            yield _finding_at(analysis, function, site, sites, use.node, subject, name)


def _finding_at(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    site: KernelSite,
    sites: list[KernelSite],
    node: ast.AST,
    subject: str,
    captured: str,
) -> Finding:
    """A capture found at `node`, with the launch that rejects it as related information."""
    return Finding(
        CODE,
        _message(function, site, subject, captured),
        analysis.source.node_range(node),
        analysis.path,
        SEVERITY,
        related=_launch_related(analysis, site, sites),
    )


def _default_facts(
    model: ModuleModel, function: FunctionNode, arg: ast.arg, default: ast.expr
) -> list[ArrayFact] | None:
    if isinstance(default, ast.Name):
        return names_array(model, model.lookup(default.id, model.loc(function)))
    if isinstance(default, ast.Call):
        fact = constructor_fact(
            model, model.function_scope(function).bindings[arg.arg][0], default, model.loc(function)
        )
        return [fact] if fact is not None else None
    return None


def _captured_here(use: FreeUse, facts: list[ArrayFact]) -> bool:
    """The use makes every array the name can hold a constant of the kernel's jaxpr: a jax array
    by any traced use, a numpy array only while of rank >= 1 and meeting a traced value."""
    numpy = [f for f in facts if f.numpy]
    if numpy and not (use.meets_jax and all(f.rank is Rank.NONSCALAR for f in numpy)):
        return False
    return len(numpy) == len(facts) or use.traced


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
    rank = "" if fact.rank is Rank.UNKNOWN or fact.numpy else f" {fact.rank.value}"
    kind = "numpy" if fact.numpy else "jax"
    line = getattr(origin, "lineno", "?")
    if isinstance(origin, ast.Call):
        return f"a{rank} {kind} array from `{analysis.source.segment(origin.func)}(...)` on line {line}"
    if fact.binding.kind == "import":
        return f"a{rank} {kind} array of another module, imported on line {line}"
    return f"a{rank} {kind} array computed on line {line}"  # `CAUSAL = rows >= cols`


def _finding(
    analysis: ModuleAnalysis,
    function: FunctionNode,
    site: KernelSite,
    use: FreeUse,
    facts: list[ArrayFact],
    sites: list[KernelSite],
    default: ast.expr | None = None,
    through: FunctionNode | None = None,
) -> Finding:
    if through is not None:
        subject = f"calls `{kernel_name(through)}`, which captures `{use.name}`, {_describe(analysis, facts[0])}"
    elif default is None:
        subject = f"captures `{use.name}`, {_describe(analysis, facts[0])}"
    else:
        subject = (
            f"reads parameter `{use.name}`, which {site.launch.label} never passes, so its default "
            f"`{analysis.source.segment(default)}` ({_describe(analysis, facts[0])}) is captured"
        )
    related = [
        Related(analysis.path, analysis.source.node_range(_binding_anchor(f)), f"`{use.name}` is bound here")
        for f in facts
    ]
    return Finding(
        CODE,
        _message(function, site, subject, use.name),
        analysis.source.node_range(use.node),
        analysis.path,
        SEVERITY,
        related=related + _launch_related(analysis, site, sites),
    )


def _message(function: FunctionNode, site: KernelSite, subject: str, captured: str) -> str:
    return (
        f"Pallas kernel `{kernel_name(function)}` {subject}; {site.launch.label} rejects it "
        f'("{_rejection(site)}"). Pass `{captured}` to the kernel as an input and read it through its ref'
    )


def _launch_related(analysis: ModuleAnalysis, site: KernelSite, sites: list[KernelSite]) -> list[Related]:
    """The first launch of the kind that rejects the capture."""
    return [analysis.launch_related(s) for s in sites if s.launch.kind == site.launch.kind][:1]


def _rejection(site: KernelSite) -> str:
    if site.launch.kind == "pallas_call":
        return "captures constants [...]. You should pass them as inputs."
    if site.launch.kind == "core_map":
        return "captures non-scalar constants [...]. You should pass them as inputs."
    return "captures non-Ref constants [...]. You should pass them as inputs."


def _binding_anchor(fact: ArrayFact) -> ast.AST:
    binding = fact.binding
    return binding.node if binding.kind == "param" else (binding.stmt or binding.node)
