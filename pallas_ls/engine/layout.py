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

from .kernels import EntryValue, KernelSite, Launch, interpreter_for
from .model import Loc, ModuleModel, positional_args
from .names import has_star_arguments, has_star_positionals, keyword_argument
from .values.classes import named_tuple_fields
from .values.domain import (
    EMPTY_ENV,
    ApiResult,
    Array,
    Const,
    DictV,
    Instance,
    Seq,
    ShapeStruct,
    Value,
    int_constant,
    known_sequence_length,
    single_known_seq,
)
from .values.interpreter import Interpreter
from .values.operations import unpacked

PREFETCH = "scalar prefetch"
INPUT = "input"
OUTPUT = "output"
SCRATCH = "scratch"
BOUND = "bound by partial"
WARP_ID = "warp id"

_SHAPE_STRUCTS = frozenset({"jax.ShapeDtypeStruct", "jax.core.ShapeDtypeStruct", "jax._src.api.ShapeDtypeStruct"})
_PREFETCHGRID_SPECS = frozenset(
    {"jax.experimental.pallas.tpu.PrefetchScalarGridSpec", "jax._src.pallas.mosaic.core.PrefetchScalarGridSpec"}
)
GRID_SPECS = _PREFETCHGRID_SPECS | {"jax.experimental.pallas.GridSpec", "jax._src.pallas.core.GridSpec"}
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
    # The outputs that are `None` elements of the out_shape list: their parameters receive None.
    none_outputs: tuple[int, ...] = ()

    @property
    def total(self) -> int | None:
        parts = (self.prefetch, self.inputs, self.outputs, self.scratch)
        return None if None in parts else sum(parts)  # type: ignore[arg-type]  # None was ruled out just before


_UNKNOWN = Layout(prefetch=None, inputs=None, outputs=None, scratch=None)


@dataclass(frozen=True)
class ParameterRole:
    name: str
    role: str | None  # None: not known


def launch_layout(launch: Launch) -> Layout:
    """The layout of a launch, its arguments read through the interpreter in their own context
    (a module constant, an import, a tuple of names, a list grown with `.append`)."""
    cached = getattr(launch, "_layout", None)
    if cached is None:
        cached = _launch_layout(launch)
        launch._layout = cached  # type: ignore[attr-defined]  # a cache kept on the launch
    return cached


def _launch_layout(launch: Launch) -> Layout:
    entry = launch.entry
    if not arguments_visible(launch):
        return _UNKNOWN
    if launch.kind == "warp_map":
        return Layout(prefetch=0, inputs=1, outputs=0, scratch=0)
    if launch.kind == "core_map":
        scratch, keywords = _scratch(launch, entry.keyword("scratch_shapes"))
        return Layout(prefetch=0, inputs=0, outputs=0, scratch=scratch, scratch_keywords=keywords)
    if launch.kind == "pallas_call":
        return _pallas_call_layout(launch, entry)
    out_key = "out_type" if launch.kind == "kernel" else "out_types"
    outputs_expr = entry.keyword(out_key)
    if outputs_expr is None and len(entry.args) > 1:
        outputs_expr = entry.args[1]
    outputs: int | None
    if outputs_expr is None:
        outputs, plain = 0, False
    else:
        outputs, plain = _outputs(_output_tree(launch, outputs_expr))
    scratch, keywords = _scratch(launch, entry.keyword("scratch_types"))
    nones = _none_outputs(_output_tree(launch, outputs_expr)) if outputs_expr is not None else ()
    return Layout(0, _input_count(launch, 0), outputs, scratch, keywords, plain, nones)


def _pallas_call_layout(launch: Launch, entry: EntryValue) -> Layout:
    out_shape = entry.args[1] if len(entry.args) > 1 else entry.keyword("out_shape")
    out_values = _output_tree(launch, out_shape) if out_shape is not None else None
    outputs, plain = _outputs(out_values) if out_values is not None else (None, False)
    nones = _none_outputs(out_values) if out_values is not None else ()
    grid_spec_expr = entry.keyword("grid_spec")
    prefetch: int | None = 0
    in_specs_expr, scratch_expr = entry.keyword("in_specs"), entry.keyword("scratch_shapes")
    in_specs_values = launch.value_of(in_specs_expr) if in_specs_expr is not None else None
    scratch_values = launch.value_of(scratch_expr) if scratch_expr is not None else frozenset({Seq("tuple", ())})
    if grid_spec_expr is not None:
        specs = launch.value_of(grid_spec_expr)
        spec = next(iter(specs)) if len(specs) == 1 else None
        if not (isinstance(spec, ApiResult) and spec.qualname in GRID_SPECS):
            return Layout(prefetch=None, inputs=None, outputs=outputs, scratch=None, plain_outputs=plain)
        interp = launch.interp
        assert interp is not None  # it evaluated the grid spec
        prefetch = prefetch_count(launch, spec)
        given = api_argument(spec, "scratch_shapes", None)
        if given is not None:
            scratch_values = interp.ev(given, spec.loc, spec.env, launch.interp_model(spec.loc))
        given = api_argument(spec, "in_specs", None)
        if given is not None:
            in_specs_values = interp.ev(given, spec.loc, spec.env, launch.interp_model(spec.loc))
    scratch_count, keywords = _scratch_of(scratch_values)
    inputs = _input_count(launch, prefetch)
    if inputs is None and in_specs_values is not None:
        inputs = known_sequence_length(in_specs_values)
    return Layout(prefetch, inputs, outputs, scratch_count, keywords, plain, nones)


def arguments_visible(launch: Launch) -> bool:
    """Every argument of the launch is written out: no `*args`, no `**kwargs` that cannot be read
    as keywords (they may carry scratch or a grid spec: EntryValue.hidden says when one cannot),
    and no keyword spelled the way an older JAX spelled it."""
    if launch.entry.hidden or (isinstance(launch.node, ast.Call) and has_star_positionals(launch.node)):
        return False
    return all(launch.entry.keyword(k) is None for k in _LEGACY_KEYWORDS.get(launch.kind, ()))


def api_argument(spec: ApiResult, name: str, index: int | None) -> ast.expr | None:
    value = keyword_argument(spec.call, name)
    if value is None and index is not None and len(spec.call.args) > index:
        value = spec.call.args[index]
    return value


def prefetch_count(launch: Launch, spec: ApiResult) -> int | None:
    if spec.qualname not in _PREFETCHGRID_SPECS:
        return 0
    if has_star_arguments(spec.call):
        return None
    value = api_argument(spec, "num_scalar_prefetch", 0)
    if value is None or launch.interp is None:
        return None
    return int_constant(launch.interp.ev(value, spec.loc, spec.env, launch.interp_model(spec.loc)))


def _input_count(launch: Launch, prefetch: int | None) -> int | None:
    """Inputs from the calls of the launched callable; None when unknown or inconsistent."""
    counts = set()
    for call in launch.invocations:
        count = _positional_count(launch, call)
        if count is None or call.keywords:
            return None
        counts.add(count)
    if len(counts) != 1 or prefetch is None:
        return None
    return max(counts.pop() - prefetch, 0)


def _positional_count(launch: Launch, call: ast.Call) -> int | None:
    """How many positional arguments a call passes: a `*args` of a known tuple or list counts
    its elements (`args = (x, y)` ... `f(*args)`); of anything else, unknown."""
    count = 0
    for argument in call.args:
        if not isinstance(argument, ast.Starred):
            count += 1
            continue
        seq = single_known_seq(launch.value_of(argument.value))
        if seq is None:
            return None
        count += len(seq.elements())
    return count


def _output_tree(launch: Launch, expr: ast.expr) -> frozenset[Value]:
    """The value of a launch's outputs argument (out_shape, out_type)."""
    return _as_tuple(launch.interp, launch.value_of(expr))


def _as_tuple(interp: Interpreter | None, values: frozenset[Value]) -> frozenset[Value]:
    """A `typing.NamedTuple` instance as the tuple of its fields: JAX flattens it as a tuple
    (`out_shape=Outs(a=s, b=s)` is two outputs)."""
    value = next(iter(values)) if len(values) == 1 else None
    if interp is not None and isinstance(value, Instance) and named_tuple_fields(value.cls) is not None:
        fields = unpacked(interp, values)
        if fields is not None:
            return frozenset({fields})
    return values


def _outputs(values: frozenset[Value]) -> tuple[int | None, bool]:
    """(parameters the outputs occupy, whether each is provably one array struct).

    A tuple/list gives one parameter per element (a `None` element too, pallas-facts §2), a dict,
    a ShapeDtypeStruct or an array gives one.  Unknown when the possibilities disagree."""
    if len(values) != 1:
        return None, False
    value = next(iter(values))
    if isinstance(value, Seq):
        if value.elts is None:
            return None, False
        plain = all(_is_plain(e) or _is_none(e) for e in value.elts) and not all(map(_is_none, value.elts))
        return len(value.elts), plain
    if isinstance(value, (DictV, ShapeStruct, Array)):
        return 1, _is_plain(values)
    return None, False


def _is_none(values: frozenset[Value]) -> bool:
    only = next(iter(values)) if len(values) == 1 else None
    return isinstance(only, Const) and only.value is None


def _none_outputs(values: frozenset[Value]) -> tuple[int, ...]:
    value = next(iter(values)) if len(values) == 1 else None
    if isinstance(value, Seq) and value.elts is not None:
        return tuple(i for i, e in enumerate(value.elts) if _is_none(e))
    return ()


def _is_plain(values: frozenset[Value]) -> bool:
    return len(values) == 1 and isinstance(next(iter(values)), (ShapeStruct, Array))


def count_outputs(expr: ast.expr, loc: Loc, model: ModuleModel, depth: int = 0) -> int | None:
    """Parameters the outputs occupy (see `_outputs`), for an expression of `model`."""
    interp = interpreter_for(model)
    return _outputs(_as_tuple(interp, interp.ev(expr, loc, EMPTY_ENV, model)))[0]


def _scratch(launch: Launch, expr: ast.expr | None) -> tuple[int | None, tuple[str, ...]]:
    if expr is None:
        return 0, ()
    return _scratch_of(launch.value_of(expr))


def _scratch_of(values: frozenset[Value]) -> tuple[int | None, tuple[str, ...]]:
    if len(values) != 1:
        return None, ()
    value = next(iter(values))
    if isinstance(value, DictV):
        if value.items is None or not all(isinstance(k, str) for k, _ in value.items):
            return None, ()
        return 0, tuple(k for k, _ in value.items)
    return known_sequence_length(values), ()


# --------------------------------------------------------------------------------- roles
def positional_parameters(site: KernelSite) -> list[str]:
    """The kernel's positional parameters that JAX fills (partial-bound ones removed)."""
    names = [a.arg for a in positional_args(site.function)][site.target.bound_positional :]
    return [n for n in names if n not in site.target.bound_keywords]


def left_to_default(site: KernelSite, name: str, index: int | None) -> bool:
    """JAX's call of the kernel at this launch certainly leaves the parameter `name` (at
    positional `index`, None for keyword-only) to its default: no partial binds it, no scratch
    keyword fills it, and it is past the refs the launch passes positionally."""
    layout = launch_layout(site.launch)
    if name in site.target.bound_keywords or name in layout.scratch_keywords:
        return False
    if index is None:
        return True
    return layout.total is not None and index >= site.target.bound_positional + layout.total


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
        return [ParameterRole(n, r) for n, r in zip(names, roles, strict=False)]
    back = [(SCRATCH, layout.scratch), (OUTPUT, layout.outputs)]
    index = len(names) - 1
    for role, count in back:
        if count is None:
            break
        for _ in range(count):
            if index >= 0 and roles[index] is None:
                roles[index] = role
            index -= 1
    return [ParameterRole(n, r) for n, r in zip(names, roles, strict=False)]


def output_parameters(site: KernelSite) -> list[str] | None:
    """The names of the kernel's output parameters, in order, or None when not known."""
    layout = launch_layout(site.launch)
    if layout.outputs is None or not layout.plain_outputs:
        return None
    if layout.total is not None and layout.total != len(positional_parameters(site)):
        return None  # the kernel cannot take what JAX passes: roles would be guesses
    roles = parameter_roles(site, layout)
    outputs = [r.name for r in roles if r.role == OUTPUT]
    if len(outputs) != layout.outputs:
        return None
    return [name for i, name in enumerate(outputs) if i not in layout.none_outputs]


def missing_outputs_at(site: KernelSite) -> int | None:
    """For a functional-style kernel that has no output parameters at all (`def k(x_ref): return ...`
    launched with outputs): the index among its JAX-filled positional parameters where the output
    parameters belong (after the inputs, before the scratch).  None when that is not certain."""
    layout = launch_layout(site.launch)
    if layout.total is None or not layout.outputs or not layout.plain_outputs:
        return None
    if len(positional_parameters(site)) != layout.total - layout.outputs:
        return None
    return layout.prefetch + layout.inputs  # type: ignore[operator]  # callers check that both counts are known


# ------------------------------------------------------------------- outputs, two sources
# Entry points whose refs live in HBM / ANY by default (pallas-facts §2): `[...]` reads and writes
# of them fail when the kernel runs, so no fix may write `o_ref[...] = ...` there.
HBM_KINDS = frozenset({"kernel", "mpmd_map"})


def refs_in_hbm(site: KernelSite) -> bool:
    return site.launch.kind in HBM_KINDS


def outputs_from_signature(site: KernelSite, layout: Layout) -> list[str] | None:
    """The output parameters as the kernel's own signature tells them: its JAX-filled positional
    parameters less the prefetch, input and scratch ones (partial-bound ones are already out).

    Only when those three counts are known, the kernel takes no `*args`, at least one parameter
    is left, and what the launch says of its outputs does not contradict it (a known count must
    match; a known pytree output is not one array)."""
    if site.function.args.vararg is not None or None in (layout.prefetch, layout.inputs, layout.scratch):
        return None
    names = positional_parameters(site)
    first = layout.prefetch + layout.inputs  # type: ignore[operator]  # callers check that the counts are known
    count = len(names) - first - layout.scratch  # type: ignore[operator]  # callers check that the counts are known
    if count < 1 or (layout.outputs is not None and (layout.outputs != count or not layout.plain_outputs)):
        return None
    if layout.outputs is None and not _may_be_plain(site):
        return None
    return names[first : first + count]


def _may_be_plain(site: KernelSite) -> bool:
    """False when the launch's outputs are known to be something other than array structs."""
    entry = site.launch.entry
    if site.launch.kind == "pallas_call":
        expr = entry.args[1] if len(entry.args) > 1 else entry.keyword("out_shape")
    else:
        expr = entry.keyword("out_type" if site.launch.kind == "kernel" else "out_types")
        if expr is None and len(entry.args) > 1:
            expr = entry.args[1]
    if expr is None:
        return site.launch.kind == "pallas_call"
    values = site.launch.value_of(expr)
    return not any(isinstance(v, DictV) for v in values)


def kernel_outputs(site: KernelSite) -> tuple[list[str] | None, str]:
    """(the kernel's output parameters, where that came from: "launch" or "signature"), or
    (None, "") when neither the launch's layout nor the kernel's signature tells them."""
    layout = launch_layout(site.launch)
    if layout.outputs == 0 and layout.total is not None and layout.total == len(positional_parameters(site)):
        return [], "launch"
    from_launch = output_parameters(site)
    if from_launch is not None:
        return from_launch, "launch"
    from_signature = outputs_from_signature(site, layout)
    if from_signature is not None:
        return from_signature, "signature"
    return None, ""


# ------------------------------------------------------------------ what the kernel writes
_COPY_CALLS = frozenset({"sync_copy", "async_copy", "make_async_copy", "make_async_remote_copy", "async_remote_copy"})


def written_before(function: ast.AST, stmt: ast.stmt) -> frozenset[str]:
    """Names the kernel certainly writes before `stmt` runs: in the statements that precede it
    on its way from the function's body (not inside an `if`, a loop or a `try` there, which may
    not run; `with` bodies do, and nested defs count: they are `pl.when` / loop bodies).

    A write is `name[...] = v`, `name[...] += v`, `name.at[...][...] = v`, `name.__setitem__(...)`,
    or `name` (or a view of it) as the destination of `pltpu.sync_copy` / `async_copy` / a copy
    descriptor."""
    body = function.body if isinstance(function.body, list) else []  # type: ignore[attr-defined]  # a lambda's body is an expression: no statements
    used = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    out: set[str] = set()
    while body:
        holder = next((s for s in body if any(n is stmt for n in ast.walk(s))), None)
        if holder is None:
            break
        for earlier in body[: body.index(holder)]:
            _writes_in(earlier, out, used)
        if holder is stmt:
            break
        body = next((b for b in _bodies(holder) if any(any(n is stmt for n in ast.walk(s)) for s in b)), [])
    return frozenset(out)


def _bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    out = []
    for name in ("body", "orelse", "finalbody"):
        value = getattr(stmt, name, None)
        if isinstance(value, list):
            out.append(value)
    out += [h.body for h in getattr(stmt, "handlers", [])]
    out += [c.body for c in getattr(stmt, "cases", [])]
    return out


def _writes_in(stmt: ast.stmt, out: set[str], used: set[str]) -> None:
    if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try)) or type(stmt).__name__ in (
        "Match",
        "TryStar",
    ):
        return  # may not run
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        for inner in stmt.body:
            _writes_in(inner, out, used)
        return
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.decorator_list and stmt.name not in used:
        return  # a nested def nothing calls or passes on
    for node in ast.walk(stmt):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for element in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                name = _ref_name(element.value) if isinstance(element, ast.Subscript) else None
                if name:
                    out.add(name)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            dst: ast.AST | None = None
            if node.func.attr == "__setitem__":
                dst = node.func.value
            elif node.func.attr in _COPY_CALLS:
                dst = keyword_argument(node, "dst_ref")
                if dst is None and len(node.args) > 1:
                    dst = node.args[1]
            name = _ref_name(dst) if dst is not None else None
            if name:
                out.add(name)


def _ref_name(expr: ast.AST) -> str | None:
    """`o_ref`, `o_ref.at[...]` (any depth), `o_ref[...]` (a slice of the ref) -> "o_ref"."""
    while True:
        if isinstance(expr, ast.Name):
            return expr.id
        if isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Attribute) and expr.attr == "at"):
            expr = expr.value
        else:
            return None
