"""The blocks of a `pallas_call`: each BlockSpec with the array it maps, and whether the launch is
compiled for a TPU (issue 37: the TPU rules read these).

What is known is read through the interpreter, in each expression's own context: the block shape
written in `pl.BlockSpec(...)`, the arrays the launched callable is called with, `out_shape`'s
ShapeDtypeStructs, `grid_spec`'s specs.  A mapping is returned only when the block shape, the array's
shape and their pairing are all certain; anything less leaves it out (the rules then say nothing).
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from .kernels import KernelSite, Launch
from .layout import GRID_SPECS, api_argument, arguments_visible, launch_layout, prefetch_count
from .model import ModuleModel
from .names import has_star_arguments, imported_modules
from .shapes import Shape
from .values.domain import ApiResult, Array, Const, External, Seq, ShapeStruct, Value, int_constant, only_value

if TYPE_CHECKING:  # analysis imports the rules' engine, not the other way round
    from .analysis import ModuleAnalysis

BLOCK_SPECS = frozenset({"jax.experimental.pallas.BlockSpec", "jax._src.pallas.core.BlockSpec"})
COMPILER_PARAMS = frozenset(
    {
        "jax.experimental.pallas.tpu.CompilerParams",
        "jax.experimental.pallas.tpu.TPUCompilerParams",
        "jax._src.pallas.mosaic.core.CompilerParams",
    }
)
BUFFERED = frozenset({"jax.experimental.pallas.Buffered", "jax._src.pallas.core.Buffered"})
_SQUEEZED = frozenset(
    {
        "jax.experimental.pallas.Squeezed",
        "jax.experimental.pallas.squeezed",
        "jax._src.pallas.core.Squeezed",
        "jax._src.pallas.core.squeezed",
    }
)
# What only a TPU launch says: Mosaic's compiler parameters, its grid spec, its memory spaces.
_TPU_PREFIXES = ("jax.experimental.pallas.tpu.", "jax._src.pallas.mosaic.")
# Modules whose import says the file targets a GPU (Triton, Mosaic GPU).
_GPU_MODULES = ("jax.experimental.pallas.triton", "jax.experimental.pallas.mosaic_gpu", "jax.experimental.pallas.gpu")
_TPU_MODULES = ("jax.experimental.pallas.tpu",)


@dataclass(frozen=True)
class BlockMapping:
    """One BlockSpec applied to one array of the launch."""

    spec: ApiResult  # the `pl.BlockSpec(...)` call, in its context
    block: Shape  # the block shape, a squeezed (None) dimension counted as 1
    array: Shape  # the shape of the array it maps
    dtype: str | None  # the array's dtype (engine/shapes.py), when known
    role: str  # "input 1", "output 1": as a message names it
    model: ModuleModel  # the module the BlockSpec call is written in

    @property
    def block_expr(self) -> ast.expr:
        """The block shape as written (or the whole BlockSpec call when it is not an argument)."""
        return api_argument(self.spec, "block_shape", 0) or self.spec.call


def block_mappings(launch: Launch) -> list[BlockMapping]:
    """Every BlockSpec of a pallas_call whose block and array shapes are certain, inputs first."""
    specs = launch_specs(launch)
    if specs is None:
        return []
    in_specs, out_specs, prefetch = specs.in_specs, specs.out_specs, specs.prefetch
    entry = launch.entry
    out_shape_expr = entry.args[1] if len(entry.args) > 1 else entry.keyword("out_shape")
    out_shapes = launch.value_of(out_shape_expr) if out_shape_expr is not None else None
    found: list[BlockMapping] = []
    if in_specs is not None and prefetch is not None:
        found += _pairs(launch, in_specs, _input_arrays(launch, prefetch), "input")
    if out_specs is not None and out_shapes is not None:
        found += _pairs(launch, out_specs, _elements(out_shapes), "output")
    return found


@dataclass(frozen=True)
class LaunchSpecs:
    """What a pallas_call's specs and grid are, as far as they are certain."""

    in_specs: frozenset[Value] | None
    out_specs: frozenset[Value] | None
    grid: frozenset[Value] | None  # None: no grid at all (`grid=` absent, or absent from grid_spec)
    grid_expr: ast.expr | None
    prefetch: int | None


def launch_specs(launch: Launch) -> LaunchSpecs | None:
    """The in/out specs and grid of a pallas_call, read from its keywords or its grid_spec; None
    when the launch's arguments are not all visible or its grid_spec is not one we can read.
    Read once per launch: every TPU rule asks."""
    if not hasattr(launch, "_specs"):
        launch._specs = _launch_specs(launch)  # type: ignore[attr-defined]  # a cache kept on the launch
    return launch._specs  # type: ignore[attr-defined, no-any-return]  # set just above


def _launch_specs(launch: Launch) -> LaunchSpecs | None:
    if launch.kind != "pallas_call" or launch.interp is None or not arguments_visible(launch):
        return None
    entry = launch.entry
    grid_spec_expr = entry.keyword("grid_spec")
    if grid_spec_expr is None:
        grid_expr = entry.keyword("grid")
        return LaunchSpecs(
            _keyword_value(launch, "in_specs"),
            _keyword_value(launch, "out_specs"),
            launch.value_of(grid_expr) if grid_expr is not None else None,
            grid_expr,
            0,
        )
    grid_spec = only_value(launch.value_of(grid_spec_expr))
    if not (isinstance(grid_spec, ApiResult) and grid_spec.qualname in GRID_SPECS):
        return None
    if has_star_arguments(grid_spec.call):
        return None
    grid_expr = api_argument(grid_spec, "grid", None)
    return LaunchSpecs(
        _spec_argument(launch, grid_spec, "in_specs"),
        _spec_argument(launch, grid_spec, "out_specs"),
        _spec_argument(launch, grid_spec, "grid"),
        grid_expr,
        prefetch_count(launch, grid_spec),
    )


def block_specs(values: frozenset[Value] | None) -> list[ApiResult]:
    """The BlockSpec calls among a known spec (one, or a tuple/list of them)."""
    if values is None:
        return []
    elements = _elements(values)
    groups = elements if isinstance(elements, list) else [elements]
    return [v for group in groups for v in group if isinstance(v, ApiResult) and v.qualname in BLOCK_SPECS]


def ref_arrays(launch: Launch) -> dict[int, Array | ShapeStruct]:
    """The array behind each ref a pallas_call passes its kernel, by the ref's position (scalar
    prefetch, inputs, outputs), where the launched callable's one call and `out_shape` make it
    certain.  Its dtype is the ref's; its shape the ref's when no BlockSpec cuts it."""
    layout = launch_layout(launch)
    if launch.kind != "pallas_call" or None in (layout.prefetch, layout.inputs, layout.outputs):
        return {}
    prefetch, inputs = cast(int, layout.prefetch), cast(int, layout.inputs)
    found: dict[int, Array | ShapeStruct] = {}
    if len(launch.invocations) == 1:
        args = launch.invocations[0].args
        if len(args) == prefetch + inputs and not any(isinstance(a, ast.Starred) for a in args):
            for index, arg in enumerate(args):
                array = only_value(launch.value_of(arg))
                if isinstance(array, (Array, ShapeStruct)):
                    found[index] = array
    out_expr = launch.entry.args[1] if len(launch.entry.args) > 1 else launch.entry.keyword("out_shape")
    if out_expr is not None:
        outputs = _elements(launch.value_of(out_expr))
        for offset, values in enumerate(outputs if isinstance(outputs, list) else [outputs]):
            array = only_value(values)
            if isinstance(array, (Array, ShapeStruct)):
                found[prefetch + inputs + offset] = array
    return found


def compiler_params_call(launch: Launch) -> ApiResult | None:
    """The launch's `compiler_params=`, when it is certainly a `pltpu.CompilerParams(...)` call."""
    params_expr = launch.entry.keyword("compiler_params")
    params = only_value(launch.value_of(params_expr)) if params_expr is not None else None
    return params if isinstance(params, ApiResult) and params.qualname in COMPILER_PARAMS else None


def compiler_param(launch: Launch, name: str) -> tuple[ast.expr, frozenset[Value], ModuleModel] | None:
    """A field of the launch's `pltpu.CompilerParams(...)`: its expression, its value and the
    module it is written in, when the compiler params are certainly that call and it passes the field."""
    params = compiler_params_call(launch)
    if params is None or launch.interp is None:
        return None
    expr = api_argument(params, name, None)
    if expr is None:
        return None
    model = launch.interp_model(params.loc)
    return expr, launch.interp.ev(expr, params.loc, params.env, model), model


def pipeline_buffers(launch: Launch, spec: ApiResult) -> tuple[ast.expr, int | None] | None:
    """A BlockSpec's `pipeline_mode=pl.Buffered(n)`: where it is written and n (None: not a
    constant); None when the spec has no pipeline mode, or one that is not `pl.Buffered`."""
    mode_expr = api_argument(spec, "pipeline_mode", None)
    if mode_expr is None or launch.interp is None:
        return None
    mode = only_value(launch.interp.ev(mode_expr, spec.loc, spec.env, launch.interp_model(spec.loc)))
    if not (isinstance(mode, ApiResult) and mode.qualname in BUFFERED):
        return None
    count_expr = api_argument(mode, "buffer_count", 0)
    if count_expr is None:
        return mode_expr, None
    return mode_expr, int_constant(launch.interp.ev(count_expr, mode.loc, mode.env, launch.interp_model(mode.loc)))


def kernel_ref_ranks(launch: Launch) -> dict[int, int]:
    """The rank of each input and output ref in VMEM as the kernel sees it, by its position among
    the kernel's refs: its BlockSpec's block without squeezed (None) dimensions, or its whole
    array where no spec is given; only where certain (a spec with a memory_space is left out)."""
    return {position: len(shape) for position, shape in kernel_ref_shapes(launch).items()}


def kernel_ref_shapes(launch: Launch) -> dict[int, Shape]:
    """The shape of each input and output ref as the kernel sees it, by its position among the
    kernel's refs, where certain: the whole array where no BlockSpec is given, or a spec's block
    of constant dimensions (squeezed ones left out)."""
    specs = launch_specs(launch)
    layout = launch_layout(launch)
    if specs is None or layout.prefetch is None or layout.inputs is None or layout.outputs is None:
        return {}
    arrays = ref_arrays(launch)
    shapes: dict[int, Shape] = {}
    position = layout.prefetch
    for spec_values, count in ((specs.in_specs, layout.inputs), (specs.out_specs, layout.outputs)):
        specs_here = block_specs(spec_values) if spec_values is not None else None
        for k in range(count):
            shape: Shape | None = None
            if specs_here is None:
                array = arrays.get(position + k)
                shape = array.shape if array is not None else None
            elif len(specs_here) == count:
                shape = _unsqueezed_block(launch, specs_here[k])
            if shape is not None:
                shapes[position + k] = shape
        position += count
    return shapes


def kernel_ref_arrays(launch: Launch) -> dict[int, Array]:
    """Each ref the kernel takes, by its position among the kernel's refs, as an array of the
    shape the kernel sees (and the dtype, where known), where the shape is certain: what
    `x_ref.shape`, `x_ref.dtype` and `x_ref[...]` give in the kernel's body."""
    arrays = ref_arrays(launch)
    found: dict[int, Array] = {}
    for position, shape in kernel_ref_shapes(launch).items():
        array = arrays.get(position)
        found[position] = Array("traced", shape, array.dtype if array is not None else None)
    return found


def _unsqueezed_block(launch: Launch, spec: ApiResult) -> Shape | None:
    expr = api_argument(spec, "block_shape", 0)
    if expr is None or launch.interp is None or api_argument(spec, "memory_space", None) is not None:
        return None
    seq = only_value(launch.interp.ev(expr, spec.loc, spec.env, launch.interp_model(spec.loc)))
    if not isinstance(seq, Seq) or seq.elts is None:
        return None
    dims: list[int] = []
    for element in seq.elts:
        value = only_value(element)
        if isinstance(value, (External, ApiResult)) and value.qualname in _SQUEEZED:
            continue
        if isinstance(value, Const) and value.value is None:
            continue
        dim = int_constant(element)
        if dim is None:
            return None
        dims.append(dim)
    return tuple(dims)


def spec_block_rank(launch: Launch, spec: ApiResult) -> int | None:
    """The rank of a BlockSpec's block, when its block shape is written (a constant length)."""
    expr = api_argument(spec, "block_shape", 0)
    if expr is None or launch.interp is None:
        return None
    seq = only_value(launch.interp.ev(expr, spec.loc, spec.env, launch.interp_model(spec.loc)))
    return len(seq.elts) if isinstance(seq, Seq) and seq.elts is not None else None


def tpu_launches(analysis: ModuleAnalysis) -> list[Launch]:
    """The module's launches certainly compiled for a TPU (what the TPU rules look at)."""
    configured = analysis.options.tpu_generation is not None
    return [
        launch
        for launch in analysis.launches
        if compiled_for_tpu(launch, analysis.model, analysis.source.text, configured)
    ]


def tpu_kernel_sites(analysis: ModuleAnalysis) -> list[KernelSite]:
    """The kernels this module defines and launches with a pallas_call compiled for a TPU (a
    kernel launched from another module is left out: its launch's module is not read here)."""
    configured = analysis.options.tpu_generation is not None
    return [
        site
        for site in analysis.sites
        if site.launch.model is analysis.model
        and site.launch.kind == "pallas_call"
        and compiled_for_tpu(site.launch, analysis.model, analysis.source.text, configured)
    ]


def rebound_names(function: ast.AST) -> frozenset[str]:
    """Names a kernel (or a function nested in it, as a parameter) binds again: the TPU rules
    follow a ref by its parameter's name only where that name cannot mean something else.
    Walked once per function (three TPU rules ask), kept on the node."""
    known: frozenset[str] | None = getattr(function, "_rebound_names", None)
    if known is not None:
        return known
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not function:
            names |= {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    function._rebound_names = frozenset(names)  # type: ignore[attr-defined]  # a cache kept on the node
    return function._rebound_names  # type: ignore[attr-defined, no-any-return]  # set just above


# What a launch and its module say about the compiler it meets (_target).
_NOT_TPU, _SAYS_TPU, _IMPORTS_TPU, _IMPORTS_NEITHER = "not a TPU", "says TPU", "imports TPU", "imports neither"


def compiled_for_tpu(launch: Launch, model: ModuleModel, module_text: str, configured: bool = False) -> bool:
    """Whether the launch certainly meets a TPU's compiler: it is not run in interpret mode (no
    `interpret=`, or `interpret=False`), and it says TPU (Mosaic compiler params, a TPU grid spec,
    TPU memory spaces), or its module imports Pallas's TPU API and none of its GPU APIs, or (when
    the configuration names a TPU generation: `configured`) its module imports neither."""
    target: str | None = getattr(launch, "_target", None)  # every TPU rule asks
    if target is None:
        target = _target(launch, model, module_text)
        launch._target = target  # type: ignore[attr-defined]  # a cache kept on the launch
    return target in (_SAYS_TPU, _IMPORTS_TPU) or (configured and target == _IMPORTS_NEITHER)


def _target(launch: Launch, model: ModuleModel, module_text: str) -> str:
    if launch.kind != "pallas_call" or launch.interp is None:
        return _NOT_TPU
    interpret = launch.entry.keyword("interpret")
    if interpret is not None and not _is_false(launch.value_of(interpret)):
        return _NOT_TPU
    if launch.entry.keyword("backend") is not None:
        return _NOT_TPU  # a backend named explicitly: Triton or Mosaic GPU, or one we cannot read
    for name in ("compiler_params", "grid_spec", "scratch_shapes"):
        expr = launch.entry.keyword(name)
        if expr is not None and _says_tpu(launch.value_of(expr)):
            return _SAYS_TPU
    modules = _modules_imported_by(module_text) + [
        b.qualname
        for bindings in model.module_scope.bindings.values()
        for b in bindings
        if b.kind == "import" and b.qualname
    ]
    if _imports(modules, _GPU_MODULES):
        return _NOT_TPU
    return _IMPORTS_TPU if _imports(modules, _TPU_MODULES) else _IMPORTS_NEITHER


# ----------------------------------------------------------------------------- helpers
@functools.lru_cache(maxsize=4)
def _modules_imported_by(text: str) -> list[str]:
    """imported_modules, once per text (every launch of a module asks; a str keeps its hash)."""
    return imported_modules(text)


def _imports(modules: list[str], prefixes: tuple[str, ...]) -> bool:
    return any(m == p or m.startswith(p + ".") for m in modules for p in prefixes)


def _keyword_value(launch: Launch, name: str) -> frozenset[Value] | None:
    expr = launch.entry.keyword(name)
    return launch.value_of(expr) if expr is not None else None


def _spec_argument(launch: Launch, grid_spec: ApiResult, name: str) -> frozenset[Value] | None:
    expr = api_argument(grid_spec, name, None)
    if expr is None or launch.interp is None:
        return None
    return launch.interp.ev(expr, grid_spec.loc, grid_spec.env, launch.interp_model(grid_spec.loc))


def _elements(values: frozenset[Value]) -> list[frozenset[Value]] | frozenset[Value]:
    """A known tuple/list's elements, else the value itself (one spec for one array)."""
    value = only_value(values)
    if isinstance(value, Seq) and value.elts is not None:
        return list(value.elts)
    return values


def _input_arrays(launch: Launch, prefetch: int) -> list[frozenset[Value]] | None:
    """The arrays the launched callable is called with (after the scalar-prefetch ones), when it
    is called exactly once with plain positional arguments."""
    if len(launch.invocations) != 1:
        return None
    call = launch.invocations[0]
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return [launch.value_of(a) for a in call.args[prefetch:]]


def _pairs(
    launch: Launch,
    specs: frozenset[Value],
    arrays: list[frozenset[Value]] | frozenset[Value] | None,
    kind: str,
) -> list[BlockMapping]:
    if arrays is None:
        return []
    spec_list = _elements(specs)
    if isinstance(spec_list, frozenset) and isinstance(arrays, frozenset):
        pairs = [(spec_list, arrays)]
    elif isinstance(spec_list, list) and isinstance(arrays, list) and len(spec_list) == len(arrays):
        pairs = list(zip(spec_list, arrays, strict=True))
    elif isinstance(spec_list, frozenset) and isinstance(arrays, list) and len(arrays) == 1:
        pairs = [(spec_list, arrays[0])]
    else:
        return []
    found = []
    for number, (spec_values, array_values) in enumerate(pairs, start=1):
        mapping = _mapping(launch, spec_values, array_values, f"{kind} {number}")
        if mapping is not None:
            found.append(mapping)
    return found


def _mapping(
    launch: Launch, spec_values: frozenset[Value], array_values: frozenset[Value], role: str
) -> BlockMapping | None:
    spec = only_value(spec_values)
    array = only_value(array_values)
    if not (isinstance(spec, ApiResult) and spec.qualname in BLOCK_SPECS) or launch.interp is None:
        return None
    if not isinstance(array, (Array, ShapeStruct)) or array.shape is None:
        return None
    call = spec.call
    if has_star_arguments(call):
        return None
    if api_argument(spec, "memory_space", None) is not None:
        return None  # SMEM, ANY, HBM blocks follow other rules (and a VMEM one is rare to spell)
    model = launch.interp_model(spec.loc)
    block_expr = api_argument(spec, "block_shape", 0)
    if block_expr is None:
        return None
    block = _block_shape(launch.interp.ev(block_expr, spec.loc, spec.env, model))
    if block is None or len(block) != len(array.shape):
        return None
    return BlockMapping(spec, block, array.shape, array.dtype, role, model)


def _block_shape(values: frozenset[Value]) -> Shape | None:
    """A block shape of constant dims; `None` and `pl.squeezed` dims count as 1 (as JAX does)."""
    seq = only_value(values)
    if not isinstance(seq, Seq) or seq.elts is None:
        return None
    dims = []
    for element in seq.elts:
        value = only_value(element)
        squeezed = isinstance(value, (External, ApiResult)) and value.qualname in _SQUEEZED
        if squeezed or (isinstance(value, Const) and value.value is None):
            dims.append(1)
        else:
            dim = int_constant(element)
            if dim is None or dim <= 0:
                return None
            dims.append(dim)
    return tuple(dims)


def _is_false(values: frozenset[Value]) -> bool:
    value = only_value(values)
    return isinstance(value, Const) and value.value is False


def _says_tpu(values: frozenset[Value], depth: int = 0) -> bool:
    """A value made by Pallas's TPU API: pltpu.CompilerParams, PrefetchScalarGridSpec, pltpu.SMEM..."""
    for value in values:
        if isinstance(value, (ApiResult, External)) and value.qualname.startswith(_TPU_PREFIXES):
            return True
        if isinstance(value, Seq) and depth < 2 and _says_tpu(value.all_members(), depth + 1):
            return True
    return False
