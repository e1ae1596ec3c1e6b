"""Kernel parameter layout: which parameter receives a scalar-prefetch ref, an input, an output or scratch.

From pallas-facts §2.  pallas_call passes, in order: the `num_scalar_prefetch` first call arguments,
one parameter per remaining top-level call argument, one per output (a tuple/list `out_shape` has
one per element, anything else is ONE), then scratch (`scratch_shapes`: a sequence gives trailing
positional parameters, a dict keyword parameters).  pl.kernel and mpmd_map: inputs, outputs
(`out_type(s)`, default `()` = none), scratch (`scratch_types`).  core_map bodies receive only
scratch; warp_map bodies the warp id.  Counts are known only when written literally enough.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .kernels import EntryValue, KernelSite, Launch
from .model import Loc, ModuleModel, positional_args
from .names import MAX_DEPTH, has_star_arguments, keyword_argument, qualname, single_assignment

PREFETCH = "scalar prefetch"
INPUT = "input"
OUTPUT = "output"
SCRATCH = "scratch"
BOUND = "bound by partial"
WARP_ID = "warp id"

_SHAPE_STRUCTS = frozenset({"jax.ShapeDtypeStruct", "jax.core.ShapeDtypeStruct", "jax._src.api.ShapeDtypeStruct"})
_PREFETCH_GRID_SPECS = frozenset(
    {"jax.experimental.pallas.tpu.PrefetchScalarGridSpec", "jax._src.pallas.mosaic.core.PrefetchScalarGridSpec"}
)
_GRID_SPECS = _PREFETCH_GRID_SPECS | {"jax.experimental.pallas.GridSpec", "jax._src.pallas.core.GridSpec"}
# Keywords older JAX releases used for pl.kernel / mpmd_map: we cannot tell what they carry.
_LEGACY_KEYWORDS = {"kernel": ("out_shape", "scratch_shapes"), "mpmd_map": ("out_shape", "scratch_shapes")}


@dataclass(frozen=True)
class Layout:
    """How many refs of each kind JAX passes to the kernel (None: not known statically)."""

    prefetch: int | None = 0
    inputs: int | None = None
    outputs: int | None = None
    scratch: int | None = 0
    scratch_keywords: tuple[str, ...] = ()
    # Every output is one array (not a pytree of refs), so `o_ref[...] = value` can write it.
    plain_outputs: bool = False

    @property
    def total(self) -> int | None:
        parts = (self.prefetch, self.inputs, self.outputs, self.scratch)
        return None if None in parts else sum(parts)  # type: ignore[arg-type]


_UNKNOWN = Layout(prefetch=None, inputs=None, outputs=None, scratch=None)


@dataclass(frozen=True)
class ParameterRole:
    name: str
    role: str | None  # None: not known


def launch_layout(launch: Launch) -> Layout:
    model, loc, entry = launch.model, launch.loc, launch.entry
    if not _arguments_visible(launch):
        return _UNKNOWN
    if launch.kind == "warp_map":
        return Layout(prefetch=0, inputs=1, outputs=0, scratch=0)
    if launch.kind == "core_map":
        scratch, keywords = _scratch(entry.keyword("scratch_shapes"), loc, model)
        return Layout(prefetch=0, inputs=0, outputs=0, scratch=scratch, scratch_keywords=keywords)
    if launch.kind == "pallas_call":
        return _pallas_call_layout(launch, entry, loc, model)
    out_key = "out_type" if launch.kind == "kernel" else "out_types"
    outputs_expr = entry.keyword(out_key)
    if outputs_expr is None and len(entry.args) > 1:
        outputs_expr = entry.args[1]
    outputs = 0 if outputs_expr is None else count_outputs(outputs_expr, loc, model)
    plain = outputs_expr is not None and outputs_are_plain(outputs_expr, loc, model)
    scratch, keywords = _scratch(entry.keyword("scratch_types"), loc, model)
    return Layout(0, _input_count(launch, 0), outputs, scratch, keywords, plain)


def _pallas_call_layout(launch: Launch, entry: EntryValue, loc: Loc, model: ModuleModel) -> Layout:
    out_shape = entry.args[1] if len(entry.args) > 1 else entry.keyword("out_shape")
    outputs = count_outputs(out_shape, loc, model) if out_shape is not None else None
    plain = out_shape is not None and outputs_are_plain(out_shape, loc, model)
    grid_spec = entry.keyword("grid_spec")
    grid_spec = _value_of(grid_spec, loc, model) if grid_spec is not None else None
    prefetch: int | None = 0
    scratch_expr = entry.keyword("scratch_shapes")
    in_specs = entry.keyword("in_specs")
    if isinstance(grid_spec, ast.Call) and qualname(grid_spec.func, loc, model) in _GRID_SPECS:
        prefetch = _prefetch_count(grid_spec, loc, model)
        scratch_expr = keyword_argument(grid_spec, "scratch_shapes") or scratch_expr
        in_specs = keyword_argument(grid_spec, "in_specs") or in_specs
    elif grid_spec is not None:
        prefetch, scratch_expr, in_specs = None, None, None
        return Layout(prefetch=None, inputs=None, outputs=outputs, scratch=None, plain_outputs=plain)
    scratch, keywords = _scratch(scratch_expr, loc, model)
    inputs = _input_count(launch, prefetch)
    if inputs is None and in_specs is not None:
        inputs = _sequence_length(in_specs, loc, model)
    return Layout(prefetch, inputs, outputs, scratch, keywords, plain)


def _arguments_visible(launch: Launch) -> bool:
    """Every argument of the launch is written out: no `*args` / `**kwargs` (which may carry
    scratch or a grid spec), and no keyword spelled the way an older JAX spelled it."""
    if isinstance(launch.node, ast.Call) and has_star_arguments(launch.node):
        return False
    return all(launch.entry.keyword(k) is None for k in _LEGACY_KEYWORDS.get(launch.kind, ()))


def _prefetch_count(grid_spec: ast.Call, loc: Loc, model: ModuleModel) -> int | None:
    if qualname(grid_spec.func, loc, model) not in _PREFETCH_GRID_SPECS:
        return 0
    value = keyword_argument(grid_spec, "num_scalar_prefetch")
    if value is None and grid_spec.args:
        value = grid_spec.args[0]
    return _int_literal(value, loc, model) if value is not None else None


def _input_count(launch: Launch, prefetch: int | None) -> int | None:
    """Inputs from the calls of the launched callable; None when unknown or inconsistent."""
    counts = set()
    for call in launch.invocations:
        if any(isinstance(a, ast.Starred) for a in call.args) or call.keywords:
            return None
        counts.add(len(call.args))
    if len(counts) != 1 or prefetch is None:
        return None
    return max(counts.pop() - prefetch, 0)


def count_outputs(expr: ast.expr, loc: Loc, model: ModuleModel, depth: int = 0) -> int | None:
    """Parameters the outputs occupy: a tuple/list has one per element, anything else is one."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(expr, (ast.Tuple, ast.List)):
        if any(isinstance(e, ast.Starred) for e in expr.elts):
            return None
        return len(expr.elts)
    if isinstance(expr, ast.Dict):
        return 1
    if isinstance(expr, ast.Call):
        if qualname(expr.func, loc, model) in _SHAPE_STRUCTS:
            return 1
        return None
    assigned = single_assignment(expr, loc, model)
    if assigned is not None:
        return count_outputs(assigned[0], assigned[1], model, depth + 1)
    return None


def outputs_are_plain(expr: ast.expr, loc: Loc, model: ModuleModel, depth: int = 0) -> bool:
    """True when every output is provably one array struct (so its ref takes `[...] =`)."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(expr, (ast.Tuple, ast.List)) and depth == 0:
        return all(outputs_are_plain(e, loc, model, depth + 1) for e in expr.elts)
    if isinstance(expr, ast.Call):
        return qualname(expr.func, loc, model) in _SHAPE_STRUCTS
    assigned = single_assignment(expr, loc, model)
    if assigned is not None:
        value, value_loc = assigned
        if isinstance(value, (ast.Tuple, ast.List)) and depth > 0:
            return False
        return outputs_are_plain(value, value_loc, model, depth)
    return False


def _scratch(expr: ast.expr | None, loc: Loc, model: ModuleModel) -> tuple[int | None, tuple[str, ...]]:
    if expr is None:
        return 0, ()
    value = _value_of(expr, loc, model)
    if isinstance(value, ast.Dict):
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return (0, tuple(keys)) if len(keys) == len(value.keys) else (None, ())
    return _sequence_length(value, loc, model), ()


def _sequence_length(expr: ast.expr, loc: Loc, model: ModuleModel) -> int | None:
    value = _value_of(expr, loc, model)
    if isinstance(value, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return len(value.elts)
    return None


def _value_of(expr: ast.expr, loc: Loc, model: ModuleModel) -> ast.expr:
    for _ in range(MAX_DEPTH):
        assigned = single_assignment(expr, loc, model)
        if assigned is None:
            break
        expr, loc = assigned
    return expr


def _int_literal(expr: ast.expr, loc: Loc, model: ModuleModel) -> int | None:
    value = _value_of(expr, loc, model)
    if isinstance(value, ast.Constant) and isinstance(value.value, int) and not isinstance(value.value, bool):
        return value.value
    return None


# --------------------------------------------------------------------------------- roles
def positional_parameters(site: KernelSite) -> list[str]:
    """The kernel's positional parameters that JAX fills (partial-bound ones removed)."""
    names = [a.arg for a in positional_args(site.function)][site.target.bound_positional :]
    return [n for n in names if n not in site.target.bound_keywords]


def parameter_roles(site: KernelSite, layout: Layout) -> list[ParameterRole]:
    """Each positional parameter's role; assigned from the front while the counts are known,
    and from the back (scratch, then outputs) when the inputs are not."""
    names = positional_parameters(site)
    roles: list[str | None] = [None] * len(names)
    front = [(PREFETCH, layout.prefetch), (INPUT, layout.inputs), (OUTPUT, layout.outputs), (SCRATCH, layout.scratch)]
    index = 0
    for role, count in front:
        if count is None:
            break
        for _ in range(count):
            if index < len(roles):
                roles[index] = role
            index += 1
    else:
        return [ParameterRole(n, r) for n, r in zip(names, roles)]
    back = [(SCRATCH, layout.scratch), (OUTPUT, layout.outputs)]
    index = len(names) - 1
    for role, count in back:
        if count is None:
            break
        for _ in range(count):
            if index >= 0 and roles[index] is None:
                roles[index] = role
            index -= 1
    return [ParameterRole(n, r) for n, r in zip(names, roles)]


def output_parameters(site: KernelSite) -> list[str] | None:
    """The names of the kernel's output parameters, in order, or None when not known."""
    layout = launch_layout(site.launch)
    if layout.outputs is None or not layout.plain_outputs:
        return None
    if layout.total is not None and layout.total != len(positional_parameters(site)):
        return None  # the kernel cannot take what JAX passes: roles would be guesses
    roles = parameter_roles(site, layout)
    outputs = [r.name for r in roles if r.role == OUTPUT]
    return outputs if len(outputs) == layout.outputs else None


def missing_outputs_at(site: KernelSite) -> int | None:
    """For a functional-style kernel that has no output parameters at all (`def k(x_ref): return ...`
    launched with outputs): the index among its JAX-filled positional parameters where the output
    parameters belong (after the inputs, before the scratch).  None when that is not certain."""
    layout = launch_layout(site.launch)
    if layout.total is None or not layout.outputs or not layout.plain_outputs:
        return None
    if len(positional_parameters(site)) != layout.total - layout.outputs:
        return None
    return layout.prefetch + layout.inputs  # type: ignore[operator]
