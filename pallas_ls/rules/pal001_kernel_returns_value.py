"""PAL001 kernel-returns-value: a Pallas kernel returns something other than None."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from typing import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.edits import free_name
from ..engine.findings import Applicability, Edit, Finding, Fix, Severity
from ..engine.interp import EMPTY_ENV
from ..engine.kernels import KernelSite, kernel_name
from ..engine.layout import launch_layout, missing_outputs_at, output_parameters
from ..engine.model import FunctionNode, is_generator, positional_args
from ..engine.rewrite import drop_returned_value, insert_parameter, write_instead_of_return
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


def _pallas_call_example(
    name: str,
    kernel: str,
    valid: bool,
    launch: str = "add_one",
    fixed_kernel: str | None = None,
    jax_error: str = "should return None",
    **extra,
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


_DECORATOR_PROGRAM = '''\
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
'''

_PL_KERNEL_PROGRAM = _TPU_MESH_PRELUDE + '''

@pl.kernel(out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
def copy(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return o_ref»


assert (copy(x) == x).all()
'''

_MPMD_PROGRAM = _TPU_MESH_PRELUDE + '''from jax._src.pallas.mpmd import mpmd_map


def body(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)
    «return 1»


run = mpmd_map([(mesh, body)], out_types=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=pltpu.InterpretParams())
assert (run(x) == x).all()
'''

_CORE_MAP_PROGRAM = _TPU_MESH_PRELUDE + '''

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
'''

_TWO_OUTPUTS_PROGRAM = '''\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)


def plus_minus(x_ref, plus_ref, minus_ref):
    «return x_ref[...] + 1, x_ref[...] - 1»


plus, minus = pl.pallas_call(plus_minus, out_shape=(shape, shape), interpret=True)(x)
assert (plus == x + 1).all() and (minus == x - 1).all()
'''

EXAMPLES = [
    # ----------------------------------------------------------------------------- invalid
    _pallas_call_example(
        "returns-the-result",
        '''
def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»
''',
        valid=False,
        fixed_kernel='''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
''',
    ),
    _pallas_call_example(
        "returns-an-empty-tuple",
        '''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    «return ()»
''',
        valid=False,
        fixed_kernel='''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
''',
    ),
    _pallas_call_example(
        "early-return-on-a-static-branch",
        '''
def add_one(x_ref, o_ref):
    if x_ref.shape[0] == 8:
        «return x_ref[...] + 1»  # the usual case
    o_ref[...] = x_ref[...] + 1
''',
        valid=False,
        fixed_kernel='''
def add_one(x_ref, o_ref):
    if x_ref.shape[0] == 8:
        o_ref[...] = x_ref[...] + 1  # the usual case
        return
    o_ref[...] = x_ref[...] + 1
''',
    ),

    _pallas_call_example(
        "partial-bound-kernel",
        '''
import functools


def add(x_ref, o_ref, *, amount):
    «return x_ref[...] + amount»
''',
        valid=False,
        launch="functools.partial(add, amount=1.0)",
        fixed_kernel='''
import functools


def add(x_ref, o_ref, *, amount):
    o_ref[...] = x_ref[...] + amount
''',
    ),
    _pallas_call_example(
        "lambda-kernel",
        '''
add_one = lambda x_ref, o_ref: «x_ref[...] + 1»
''',
        valid=False,
        fixed_kernel='''
add_one = lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1)
''',
    ),
    _pallas_call_example(
        "functional-style-kernel-without-output-parameter",
        '''
def add_one(x_ref):
    «return x_ref[...] + 1»
''',
        valid=False,
        # pallas_call passes the output ref too, so JAX's arity check fires before its return check.
        jax_error="add_one() takes 1 positional argument but 2 were given",
        fixed_kernel='''
def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
''',
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
        fixed_kernel='''
def make_kernel(amount):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + amount

    return kernel
''',
    ),
    _pallas_call_example(
        "returns-a-helper-value",
        '''
def plus_one(ref):
    return ref[...] + 1


def add_one(x_ref, o_ref):
    «return plus_one(x_ref)»
''',
        valid=False,
        fixed_kernel='''
def plus_one(ref):
    return ref[...] + 1


def add_one(x_ref, o_ref):
    o_ref[...] = plus_one(x_ref)
''',
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

# --------------------------------------------------------------------- forms of reaching a kernel
# How real code hands kernels to pallas_call (classes, containers, factories, wrappers, imports):
# each is followed by the value interpreter, and each program is run under JAX in the `jax` tier.
_FORM_PRELUDE = '''\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)
out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
'''

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
    return Example(name, program, False, jax_error="should return None",
                   fixed=_fixed(program, _RETURN, indent + _WRITE))


FORMS = [
    _form("staticmethod-kernel", '''

class Ops:
    @staticmethod
    def add_one(x_ref, o_ref):
        «return x_ref[...] + 1»


out = pl.pallas_call(Ops.add_one, out_shape=out_shape, interpret=True)(x)
'''),
    _form("kernel-held-by-an-instance", '''

def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


class Layer:
    def __init__(self, kernel):
        self._kernel = kernel

    def __call__(self, x):
        return pl.pallas_call(self._kernel, out_shape=out_shape, interpret=True)(x)


out = Layer(add_one)(x)
'''),
    _form("kernel-picked-from-a-dict", '''

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


KERNELS = {"copy": copy, "add": add_one}


def run(op, x):
    return pl.pallas_call(KERNELS[op], out_shape=out_shape, interpret=True)(x)


out = run("add", x)
'''),
    _form("kernels-in-a-loop", '''

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


for body in (copy, add_one):
    out = pl.pallas_call(body, out_shape=out_shape, interpret=True)(x)
'''),
    _form("kernel-from-a-factory", '''

def make_kernel(offset):
    def add_one(x_ref, o_ref):
        «return x_ref[...] + 1»

    return add_one


out = pl.pallas_call(make_kernel(1), out_shape=out_shape, interpret=True)(x)
'''),
    _form("kernel-as-a-parameter-default", '''

def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


def build(kernel=add_one):
    return pl.pallas_call(kernel, out_shape=out_shape, interpret=True)


out = build()(x)
'''),
    _form("kernel-through-named-call-and-partial", '''

def add_one(offset, x_ref, o_ref):
    «return x_ref[...] + 1»


kernel = jax.named_call(functools.partial(add_one, 1.0), name="add_one")
out = pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
'''),
    _form("kernel-forwarded-by-a-wrapper", '''

def run_elementwise(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


out = run_elementwise(add_one, x)
'''),
    _form("entry-point-over-an-import-fallback", '''
try:
    from jax.experimental.pallas import pallas_call
except ImportError:  # an old jax: run the kernel body as plain Python
    def pallas_call(kernel, **unused):
        return kernel


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


out = pallas_call(add_one, out_shape=out_shape, interpret=True)(x)
'''),
    _form("notebook-style-redefinition", '''

def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


first = pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x)


def add_one(x_ref, o_ref):
    «return x_ref[...] + 1»


out = pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x)
'''),
    _form("redefinition-before-the-launch", '''

def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


assert (pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x) == x + 1).all()
''', valid=True),
    _form("decorator-that-drops-the-result", '''

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
''', valid=True),
    _form("helper-that-returns-a-value-only-when-asked", '''

def store(o_ref, value, *, echo=False):
    o_ref[...] = value
    if echo:
        return value


def add_one(x_ref, o_ref):
    return store(o_ref, x_ref[...] + 1)


assert (pl.pallas_call(add_one, out_shape=out_shape, interpret=True)(x) == x + 1).all()
''', valid=True),
    _form("kernels-in-a-dict-that-write-their-outputs", '''

KERNELS = {
    "copy": lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...]),
    "add": lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...] + 1),
}
for op, body in KERNELS.items():
    pl.pallas_call(body, out_shape=out_shape, interpret=True)(x)
''', valid=True),
]

EXAMPLES += FORMS


def _value_returns(analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite]) -> list[ast.AST]:
    """The returns that give a value, on their own or in the closure some launch made the kernel in
    (a factory's `activation` parameter bound to `jax.nn.relu`)."""
    envs = [EMPTY_ENV] + [s.target.env for s in sites if s.target.env.items]
    found: dict[int, ast.AST] = {}
    for env in dict.fromkeys(envs):
        for node in analysis.values.value_returns(function, env):
            found.setdefault(id(node), node)
    return sorted(found.values(), key=lambda n: (n.lineno, n.col_offset))


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    for function, sites in _sites_by_function(analysis.all_sites):
        if isinstance(function, ast.AsyncFunctionDef) or is_generator(function):
            continue  # PAL005's business
        returns = _value_returns(analysis, function, sites)
        if not returns:
            continue
        plan = _output_plan(analysis, function, sites)
        for node in returns:
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
    """Where a kernel's results go: its output parameter names, and an edit adding them if missing."""

    names: list[str]
    applicability: Applicability
    add_parameter: Edit | None = None


def _output_plan(analysis: ModuleAnalysis, function: FunctionNode, sites: list[KernelSite]) -> _OutputPlan | None:
    """Output parameters from the launches' layout (safe), or from names when no layout is known (unsafe)."""
    known = [output_parameters(site) for site in sites]
    if known[0] is not None and all(k == known[0] for k in known):
        return _OutputPlan(known[0], Applicability.SAFE)
    missing_at = {missing_outputs_at(site) for site in sites}
    if len(missing_at) == 1 and None not in missing_at and {launch_layout(s.launch).outputs for s in sites} == {1}:
        return _plan_adding_output(analysis, function, sites[0], missing_at.pop())
    if all(launch_layout(site.launch).outputs is None for site in sites):
        by_name = [a.arg for a in positional_args(function) if _OUTPUT_NAME.match(a.arg)]
        if len(by_name) == 1:
            return _OutputPlan(by_name, Applicability.UNSAFE)
    return None


def _plan_adding_output(analysis: ModuleAnalysis, function: FunctionNode, site: KernelSite, index: int) -> _OutputPlan | None:
    taken = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)} | {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)}
    name = free_name("o_ref", taken)
    edit = insert_parameter(analysis.source, function, site.target.bound_positional + index, name)
    return _OutputPlan([name], Applicability.SAFE, edit) if edit is not None else None


def _fixes(analysis: ModuleAnalysis, function: FunctionNode, node: ast.AST, plan: _OutputPlan | None) -> list[Fix]:
    if isinstance(function, ast.Lambda):
        return [fix for fix in [_lambda_write_fix(analysis, function, plan)] if fix is not None]
    assert isinstance(node, ast.Return)
    trivial = _is_trivial(analysis, function, node.value)
    fixes: list[Fix] = []
    if plan is not None and not trivial:
        edits = write_instead_of_return(analysis.source, node, plan.names, function)
        if edits is not None:
            edits = edits + ([plan.add_parameter] if plan.add_parameter else [])
            fixes.append(Fix(_write_title(plan), tuple(edits), plan.applicability, preferred=True))
    drop = drop_returned_value(analysis.source, node, function)
    fixes.append(Fix("Return None instead", (drop,),
                     Applicability.SAFE if trivial else Applicability.UNSAFE, preferred=not fixes))
    return fixes


def _write_title(plan: _OutputPlan) -> str:
    names = ", ".join(f"`{n}`" for n in plan.names)
    if plan.add_parameter is not None:
        return f"Add output parameter {names} and write the result to it"
    return f"Write the result{'s' if len(plan.names) > 1 else ''} to {names}"


def _lambda_write_fix(analysis: ModuleAnalysis, function: ast.Lambda, plan: _OutputPlan | None) -> Fix | None:
    """`lambda x_ref, o_ref: v` -> `lambda x_ref, o_ref: o_ref.__setitem__(..., v)` (an expression that writes)."""
    if plan is None or len(plan.names) != 1:
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
