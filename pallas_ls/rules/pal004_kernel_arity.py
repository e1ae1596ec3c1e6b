"""PAL004 kernel-arity-mismatch: the kernel's parameters cannot take the refs JAX passes."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.findings import Finding, Related, Severity
from ..engine.kernels import KernelSite, KernelTarget, hands_back, kernel_name, resolve_kernel
from ..engine.layout import Layout, launch_layout
from ..engine.signatures import BindProblem, Signature, bind, def_name_range, signature
from ..engine.source import Range
from ..engine.values.domain import UNREAD_SPLAT
from .base import Example

CODE = "PAL004"
NAME = "kernel-arity-mismatch"
SEVERITY = Severity.ERROR
SUMMARY = "A kernel's parameters do not match the refs its launch passes"

DOCS = """
## What it does
Counts the refs a launch passes to its kernel — scalar-prefetch refs, one per input, one per
output, scratch — and reports the launch when the kernel's signature cannot take them:
too many or too few positional parameters, a required keyword-only parameter nothing provides, a
`scratch_shapes` dict key or `functools.partial` keyword the kernel has no parameter for, or a
parameter filled both by a ref and by a partial keyword.

## Why is this bad?
JAX calls the kernel as `kernel(*refs, **scratch)` while it traces, and a call that does not bind
is a plain Python error with no hint of which ref went where:

    TypeError: add() missing 1 required positional argument: 'o_ref'
    TypeError: add() takes 2 positional arguments but 3 were given

The counts follow pallas-facts §2: `pallas_call` passes the `num_scalar_prefetch` first call
arguments, one parameter per remaining call argument (a tuple argument is ONE parameter), one per
element of a tuple/list `out_shape` (a single `ShapeDtypeStruct` or a dict is ONE), then the
`scratch_shapes` (a dict passes them by keyword). `pl.kernel` / `mpmd_map` pass inputs, outputs
(`out_type`, default none) and `scratch_types`.

## What is not reported
Launches whose counts are not all known statically (an `out_shape` or a grid spec computed
elsewhere, a kernel never called in this file, calls with `*args`), too many refs for a kernel
with `*args` (it takes any count; a parameter before it or a keyword-only one after it still needs
a value), and decorated kernels whose signature a decorator may change. Parameters with defaults may be left
unfilled; `functools.partial` arguments are taken into account.

## How to fix
Give the kernel one parameter per ref, in order: scalar-prefetch refs, inputs, outputs, scratch.
Bind static settings with `functools.partial` as keyword-only parameters after the refs.
"""

_PRELUDE = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
out = jax.ShapeDtypeStruct(x.shape, x.dtype)
"""


def _program(kernel: str, launch: str) -> str:
    return _PRELUDE + "\n\n" + kernel.strip("\n") + "\n\n\n" + launch.strip("\n") + "\n"


EXAMPLES = [
    Example(
        "one-parameter-too-many",
        _program(
            """
def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]
""",
            "pl.pallas_call(«add», out_shape=out, interpret=True)(x)",
        ),
        valid=False,
        jax_error="add() missing 1 required positional argument: 'o_ref'",
    ),
    Example(
        "tuple-out-shape-gives-two-outputs",
        _program(
            """
def split(x_ref, o_ref):
    o_ref[...] = x_ref[...]
""",
            "pl.pallas_call(«split», out_shape=(out, out), interpret=True)(x)",
        ),
        valid=False,
        jax_error="split() takes 2 positional arguments but 3 were given",
    ),
    Example(
        "scratch-buffer-without-a-parameter",
        _program(
            """
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
""",
            """
add = pl.pallas_call(
    «add_one», out_shape=out, scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)], interpret=True
)
add(x)
""",
        ),
        valid=False,
        jax_error="add_one() takes 2 positional arguments but 3 were given",
    ),
    Example(
        "partial-keyword-fills-a-ref-parameter",
        _program(
            """
def scale(factor, x_ref, o_ref):
    o_ref[...] = x_ref[...] * factor
""",
            "pl.pallas_call(«functools.partial(scale, factor=2.0)», out_shape=out, interpret=True)(x)",
        ),
        valid=False,
        jax_error="got multiple values for argument 'factor'",
    ),
    Example(
        "required-keyword-only-parameter",
        _program(
            """
@functools.partial(pl.pallas_call, out_shape=out, interpret=True)
def «scale»(x_ref, o_ref, *, factor):
    o_ref[...] = x_ref[...] * factor
""",
            "scale(x)",
        ),
        valid=False,
        jax_error="missing 1 required keyword-only argument: 'factor'",
    ),
    Example(
        "varargs-then-a-keyword-only-output",
        _program(
            """
def add_all(*ins, o_ref):
    o_ref[...] = sum(r[...] for r in ins)
""",
            "pl.pallas_call(«add_all», out_shape=out, interpret=True)(x, x)",
        ),
        valid=False,
        jax_error="missing 1 required keyword-only argument: 'o_ref'",
    ),
    Example(
        "pl-kernel-without-outputs",
        _program(
            """
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def copy(x_hbm, o_hbm):
    pltpu.sync_copy(x_hbm, o_hbm)
""",
            "pl.kernel(«copy», mesh=mesh, interpret=pltpu.InterpretParams())(x)",
        ),
        valid=False,
        jax_error="copy() missing 1 required positional argument: 'o_hbm'",
    ),
    Example(
        "refs-in-order-with-partial-and-scratch",
        _program(
            """
def scale(factor, x_ref, o_ref, acc_ref, *, offset=0.0):
    acc_ref[...] = x_ref[...] * factor
    o_ref[...] = acc_ref[...] + offset


def copy(x_ref, o_ref, unused=None):
    o_ref[...] = x_ref[...]
""",
            """
kernel = functools.partial(scale, 2.0)
y = pl.pallas_call(kernel, out_shape=out, scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)], interpret=True)(x)
assert (y == 2 * x).all()
z = pl.pallas_call(copy, out_shape=out, interpret=True)(x)
assert (z == x).all()
""",
        ),
        valid=True,
    ),
    Example(
        "scratch-by-keyword-and-varargs",
        _program(
            """
def add_one(x_ref, o_ref, *, acc):
    acc[...] = x_ref[...] + 1
    o_ref[...] = acc[...]


def first_to_last(*refs):
    refs[-1][...] = refs[0][...]
""",
            """
y = pl.pallas_call(
    add_one, out_shape=out, scratch_shapes=dict(acc=pltpu.VMEM((8, 128), jnp.float32)), interpret=True
)(x)
assert (y == x + 1).all()
assert (pl.pallas_call(first_to_last, out_shape=out, interpret=True)(x) == x).all()
""",
        ),
        valid=True,
    ),
]


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for site in analysis.all_sites:
        if isinstance(site.function, ast.AsyncFunctionDef):
            continue
        finding = _check_site(analysis, site)
        if finding is not None:
            yield finding


def _check_site(analysis: ModuleAnalysis, site: KernelSite) -> Finding | None:
    function = site.function
    if _other_decorators(analysis, site):
        return None
    sig = signature(function)
    if UNREAD_SPLAT in site.target.bound_keywords:
        return None  # (`*refs` takes any count: bind reports no excess, still a required one missing)
    layout = launch_layout(site.launch)
    if layout.total is None:
        return None
    bound = site.target.bound_positional
    keywords = frozenset(site.target.bound_keywords) | frozenset(layout.scratch_keywords)
    problems = bind(sig, bound + layout.total, keywords)
    if not problems:
        return None
    message = _message(site, sig, layout, problems[0])
    range_, related = _place(analysis, site)
    return Finding(CODE, message, range_, analysis.path, SEVERITY, related=related)


def _other_decorators(analysis: ModuleAnalysis, site: KernelSite) -> bool:
    """A decorator other than the launch itself may change the signature JAX calls, unless the
    interpreter shows the decorators hand the function back unchanged (a registry's
    `@register("name")`)."""
    function = site.function
    if isinstance(function, ast.Lambda):
        return False
    if all(d is site.launch.node for d in function.decorator_list):
        return False
    return not hands_back(analysis.model, function, site.target.env)


def _counts(layout: Layout) -> str:
    parts = []
    for count, one, many in (
        (layout.prefetch, "scalar-prefetch ref", "scalar-prefetch refs"),
        (layout.inputs, "input", "inputs"),
        (layout.outputs, "output", "outputs"),
        (layout.scratch, "scratch ref", "scratch refs"),
    ):
        if count:
            parts.append(f"{count} {one if count == 1 else many}")
    return ", ".join(parts) or "no refs"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _message(site: KernelSite, sig: Signature, layout: Layout, problem: BindProblem) -> str:
    name = kernel_name(site.function)
    label = site.launch.label
    bound = site.target.bound_positional
    total = layout.total or 0
    available = len(sig.positional) - bound
    required = max(sig.required_positional - bound, 0)
    takes = f"{available}" if required == available else f"{required} to {available}"
    partial = f" after functools.partial binds {_plural(bound, 'argument')}" if bound else ""
    passes = f"{label} passes {total} ({_counts(layout)})"
    if problem.kind in ("too-many", "missing"):
        detail = f"kernel `{name}` takes {takes} ref{'' if takes == '1' else 's'}{partial} but {passes}"
        if problem.kind == "missing":
            detail += f", leaving {', '.join(f'`{n}`' for n in problem.names)} without a value"
        return detail + "; JAX raises TypeError when it traces the kernel. Give it one parameter per ref"
    if problem.kind == "multiple":
        names = ", ".join(f"`{n}`" for n in problem.names)
        return (
            f"{names} of kernel `{name}` gets a ref positionally ({passes}) and a value by keyword; "
            'JAX raises "got multiple values for argument". Put keyword-bound parameters after the refs '
            "(ideally keyword-only)"
        )
    if problem.kind == "unexpected":
        names = ", ".join(f"`{n}`" for n in problem.names)
        return (
            f"kernel `{name}` has no parameter {names}, but {label} passes it by keyword "
            '(functools.partial or a scratch dict); JAX raises "got an unexpected keyword argument". '
            "Add the parameter or rename the key"
        )
    names = ", ".join(f"`{n}`" for n in problem.names)
    return (
        f"keyword-only parameter {names} of kernel `{name}` gets no value: neither functools.partial nor "
        f'the scratch shapes of {label} provide it; JAX raises "missing required keyword-only argument". '
        "Bind it with functools.partial or give it a default"
    )


def _place(analysis: ModuleAnalysis, site: KernelSite) -> tuple[Range, list[Related]]:
    """The kernel expression at the launch (or the def, when the launch is in another file)."""
    source = analysis.source
    definition = def_name_range(source, site.function)
    if site.launch_path and site.launch_path != analysis.path:
        return definition, [analysis.launch_related(site)]
    expr = _kernel_expression(site)
    if expr is None or expr is site.function:
        return definition, []
    related = [Related(analysis.path, definition, f"kernel `{kernel_name(site.function)}` is defined here")]
    return source.node_range(expr), related


def _kernel_expression(site: KernelSite) -> ast.AST | None:
    launch = site.launch
    candidates = launch.kernel_exprs
    if len(candidates) == 1:
        return candidates[0][0]
    for expr, loc in candidates:
        for resolved in resolve_kernel(expr, loc, launch.model):
            if isinstance(resolved, KernelTarget) and resolved.function is site.function:
                return expr
    return None
