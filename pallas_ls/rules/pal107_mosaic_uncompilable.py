"""PAL107 tpu-mosaic-uncompilable: values Mosaic cannot compile: vector arithmetic on 8-bit
integers, and a lane (last-dimension) offset not provably a multiple of 128."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.blocks import kernel_ref_ranks, rebound_names, ref_arrays, tpu_kernel_sites
from ..engine.findings import Finding, Severity
from ..engine.layout import INPUT, OUTPUT, launch_layout, parameter_roles
from ..engine.model import Loc, ModuleModel, Scope
from ..engine.names import qualname, single_assignment
from .base import Example

CODE = "PAL107"
NAME = "tpu-mosaic-uncompilable"
SEVERITY = Severity.ERROR
SUMMARY = "int8 vector arithmetic or an unaligned dynamic lane offset in a TPU kernel (interpret mode runs it)"

DOCS = """
## What it does
In the kernel of a `pallas_call` compiled for a TPU, reports two things Mosaic, the TPU kernel
compiler, refuses:

- `+`, `-` and `*` (and `+=`, `-=`, `*=` on a ref) where both operands stay 8-bit integers: a
  whole-block load (`x_ref[...]`) of an int8 or uint8 ref, with another such load or a Python int;
- a load or store of a ref at a dynamic offset on its last (lane) dimension that Mosaic cannot
  prove a multiple of 128: `pl.ds(i * c, n)` (or `i * c:`) with a constant `c` that is not a
  multiple of 128, where `i` is `pl.program_id(...)` or the index of a `lax.fori_loop`.

## Why is this bad?
Interpret mode computes in int8 like NumPy, and indexes anywhere; the TPU compiler does neither.
Observed on a TPU v5e with JAX 0.10.2 (`tests/tpu_cases/pal107/`):

    MosaicError: INTERNAL: Mosaic failed to compile TPU kernel: Not implemented: Only vector<i16>
    and vector<i32> are supported, but got 'i8'. Please cast your input.

    MosaicError: INTERNAL: Mosaic failed to compile TPU kernel: E2003:
    CompileTimeMosaicUnprovenMemoryAccessAlignment: cannot statically prove that index in
    dimension 1 is a multiple of 128

`pl.ds(i * 128, 128)` and `pl.ds(pl.multiple_of(i * 128, 128), 128)` compile, and so does a
constant lane offset.

## What is not reported
Launches not certainly compiled for a TPU (see PAL101), refs whose dtype or rank the program does
not make certain, operands widened first (`x_ref[...].astype(jnp.int32) + 3`), operands of another
dtype (the result is promoted), comparisons, values reached through helpers, offsets of any other
form (a sum, a product by a name, a `fori_loop(..., unroll=...)` index), refs indexed with
fewer indices than their rank, and dynamic row offsets: `x_ref[pl.ds(i * 3, 8), :]` compiled on a
(32, 128) ref and failed on a (32, 1024) one (E2003, "index in dimension 0 is a multiple of 8"), a
rule not yet pinned down.

## How to fix
Widen before the arithmetic and narrow when storing:
`o_ref[...] = (x_ref[...].astype(jnp.int32) + 3).astype(jnp.int8)`. Step lane windows by multiples
of 128, telling Mosaic so where it cannot see it (`pl.multiple_of(start, 128)`), or put the dynamic
offset on a row dimension.
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
        "lane-window-at-an-unaligned-offset",
        _PRELUDE
        + """

def window(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = x_ref[:, «pl.ds(i * 3, 128)»]


v = jnp.ones((8, 1024), jnp.float32)
out = pl.pallas_call(
    window,
    grid=(4,),
    in_specs=[pl.BlockSpec((8, 1024), lambda i: (0, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (0, i)),
    out_shape=jax.ShapeDtypeStruct((8, 512), jnp.float32),
)(v)
""",
        valid=False,
        tpu_error="CompileTimeMosaicUnprovenMemoryAccessAlignment",
    ),
    Example(
        "lane-windows-in-a-loop",
        _PRELUDE
        + """

def sum_windows(x_ref, o_ref):
    def body(j, acc):
        return acc + x_ref[:, «pl.ds(j * 64, 128)»]

    o_ref[...] = jax.lax.fori_loop(0, 4, body, jnp.zeros((8, 128), jnp.float32))


v = jnp.ones((8, 512), jnp.float32)
out = pl.pallas_call(sum_windows, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))(v)
""",
        valid=False,
        tpu_error="CompileTimeMosaicUnprovenMemoryAccessAlignment",
    ),
    Example(
        "aligned-lane-offsets-and-row-offsets",
        _PRELUDE
        + """

def windows(x_ref, o_ref):
    i = pl.program_id(0)
    start = pl.multiple_of(i * 128, 128)
    o_ref[...] = x_ref[pl.ds(i * 8, 8), pl.ds(start, 128)] + x_ref[pl.ds(i * 8, 8), pl.ds(i * 128, 128)]


v = jnp.ones((32, 1024), jnp.float32)
out = pl.pallas_call(
    windows,
    grid=(4,),
    in_specs=[pl.BlockSpec((32, 1024), lambda i: (0, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (0, i)),
    out_shape=jax.ShapeDtypeStruct((8, 512), jnp.float32),
)(v)
""",
        valid=True,
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
    yield from _narrow_int_findings(analysis)
    yield from _lane_offset_findings(analysis)


def _narrow_int_findings(analysis: ModuleAnalysis) -> Iterator[Finding]:
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


# ------------------------------------------------------------------ unaligned dynamic lane offsets
_DS = frozenset({"jax.experimental.pallas.ds", "jax.experimental.pallas.dslice"})
_PROGRAM_ID = "jax.experimental.pallas.program_id"
_FORI_LOOP = "jax.lax.fori_loop"
_LANES = 128


def _lane_offset_findings(analysis: ModuleAnalysis) -> Iterator[Finding]:
    if "program_id" not in analysis.source.text and "fori_loop" not in analysis.source.text:
        return  # no dynamic index to offset a window by
    for site in tpu_kernel_sites(analysis):
        # Cheap looks first: windows on a last index (`[..., pl.ds(...)]`, `[:, a:b]`) at all.
        windows = [
            node for node in ast.walk(site.function) if isinstance(node, ast.Subscript) and _may_index_lanes(node)
        ]
        if not windows:
            continue
        ranks = kernel_ref_ranks(site.launch)
        roles = parameter_roles(site, launch_layout(site.launch))
        ref_ranks = {role.name: ranks[n] for n, role in enumerate(roles) if role.role in (INPUT, OUTPUT) and n in ranks}
        for name in rebound_names(site.function):
            ref_ranks.pop(name, None)
        if not ref_ranks:
            continue
        kernel = _Kernel(analysis.model, site.function)
        for node in windows:
            assert isinstance(node.value, ast.Name)  # _may_index_lanes
            rank = ref_ranks.get(node.value.id)
            lane = _lane_index(node.slice, rank) if rank is not None and rank >= 2 else None
            start = kernel.window_start(lane) if lane is not None else None
            stride = kernel.unaligned_stride(start) if start is not None else None
            if stride is not None and lane is not None:
                message = (
                    f"A dynamic offset on the lane (last) dimension of `{node.value.id}`, a multiple of {stride} "
                    f"but not provably of {_LANES}: Mosaic cannot compile the access "
                    "(CompileTimeMosaicUnprovenMemoryAccessAlignment); step by multiples of 128 "
                    "(`pl.multiple_of(start, 128)` where Mosaic cannot see it). Interpret mode runs it"
                )
                yield Finding(CODE, message, analysis.source.node_range(lane), analysis.path, SEVERITY)


def _may_index_lanes(node: ast.Subscript) -> bool:
    """`name[..., <a call or a slice with a start>]`: the only shape a lane window takes here."""
    if not (isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Tuple)):
        return False
    elements = node.slice.elts
    last = elements[-1] if len(elements) >= 2 else None
    return isinstance(last, ast.Call) or (isinstance(last, ast.Slice) and last.lower is not None)


def _lane_index(index: ast.expr, rank: int) -> ast.expr | None:
    """The index on the ref's last dimension: the last of `rank` indices, or the one after `...`."""
    if not isinstance(index, ast.Tuple) or any(isinstance(e, ast.Starred) for e in index.elts):
        return None
    elements = index.elts
    ellipsis = [isinstance(e, ast.Constant) and e.value is Ellipsis for e in elements]
    if len(elements) >= 2 and ellipsis[0] and not any(ellipsis[1:]):
        return elements[-1]
    return elements[-1] if len(elements) == rank and not any(ellipsis) else None


class _Kernel:
    """Names and calls inside one kernel, resolved where they are written."""

    def __init__(self, model: ModuleModel, function: ast.AST):
        self.model = model
        # The model locates calls; a name is evaluated where its innermost statement is.
        self._locs: dict[int, Loc] = {}
        scope = model.function_scope(function)  # type: ignore[arg-type]  # a kernel is a function
        self._locate(function, scope, Loc(scope, None))
        self.loop_indexes = self._fori_loop_indexes(function)

    def _locate(self, node: ast.AST, scope: Scope, loc: Loc) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = self.model.function_scope(child)
                self._locate(child, inner, Loc(inner, None))
            elif isinstance(child, ast.stmt):
                self._locs[id(child)] = Loc(scope, child)
                self._locate(child, scope, Loc(scope, child))
            else:
                self._locs[id(child)] = loc
                self._locate(child, scope, loc)

    def loc(self, node: ast.AST) -> Loc:
        return self._locs.get(id(node)) or self.model.loc(node)

    def qualname(self, expr: ast.expr) -> str | None:
        return qualname(expr, self.loc(expr), self.model)

    def window_start(self, lane: ast.expr) -> ast.expr | None:
        """The start of `pl.ds(start, size)` or of a slice `start:stop`."""
        if isinstance(lane, ast.Slice):
            return lane.lower
        if isinstance(lane, ast.Call) and self.qualname(lane.func) in _DS:
            if lane.args:
                return lane.args[0]
            return next((k.value for k in lane.keywords if k.arg == "start"), None)
        return None

    def unaligned_stride(self, expr: ast.expr, depth: int = 0) -> int | None:
        """c, for `index * c` (or `c * index`) where the index is a grid or fori_loop index and c
        is a constant int that is not a multiple of 128: an offset Mosaic cannot prove aligned."""
        if depth > 4:
            return None
        if isinstance(expr, ast.Name):
            assigned = single_assignment(expr, self.loc(expr), self.model)
            return self.unaligned_stride(assigned[0], depth + 1) if assigned is not None else None
        if not (isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult)):
            return None
        for factor, index in ((expr.right, expr.left), (expr.left, expr.right)):
            constant = factor.value if isinstance(factor, ast.Constant) and type(factor.value) is int else None
            if constant is not None and constant % _LANES and self.dynamic_index(index):
                return constant
        return None

    def dynamic_index(self, expr: ast.expr, depth: int = 0) -> bool:
        """`pl.program_id(n)`, a name bound only to one, or the index parameter of a fori_loop body."""
        if isinstance(expr, ast.Call):
            return self.qualname(expr.func) == _PROGRAM_ID
        if not isinstance(expr, ast.Name) or depth > 4:
            return False
        bindings = self.model.lookup(expr.id, self.loc(expr))
        if len(bindings) != 1:
            return False
        if bindings[0].kind == "param":
            return id(bindings[0].node) in self.loop_indexes
        assigned = single_assignment(expr, self.loc(expr), self.model)
        return assigned is not None and self.dynamic_index(assigned[0], depth + 1)

    def _fori_loop_indexes(self, kernel: ast.AST) -> set[int]:
        """The index parameters (ast.arg ids) of functions nested in the kernel that a `fori_loop`
        without `unroll=` runs as its body (an unrolled loop's index may be a constant to Mosaic)."""
        bodies = {
            node.name: node for node in ast.walk(kernel) if isinstance(node, ast.FunctionDef) and node is not kernel
        }
        indexes: set[int] = set()
        for node in ast.walk(kernel):
            if not (isinstance(node, ast.Call) and 3 <= len(node.args) <= 4 and isinstance(node.args[2], ast.Name)):
                continue
            body = bodies.get(node.args[2].id)
            if body is None or any(k.arg == "unroll" for k in node.keywords) or self.qualname(node.func) != _FORI_LOOP:
                continue
            parameters = [*body.args.posonlyargs, *body.args.args]
            if parameters:
                indexes.add(id(parameters[0]))
        return indexes
