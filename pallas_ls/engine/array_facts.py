"""Which bindings certainly hold a jax (or numpy) array, and of which rank: what PAL003 needs to
say that a kernel captures an array.  Constructors of jax.numpy, jax.random and numpy, and values
the interpreter computed; anything else is unknown and stays silent.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .kernels import interpreter_for
from .model import Binding, FunctionNode, Loc, ModuleModel, positional_args
from .names import qualname
from .values.bindings import binding_value
from .values.domain import EMPTY_ENV, Array, Env, Func, Partial, Value
from .values.operations import computed_on_read, unpacked

# A member read from a name: `obj.attr`, `obj["key"]`, `getattr(obj, "attr")`.
Member = ast.Attribute | ast.Subscript | ast.Call

# Attributes of an array that are static metadata: reading them never traces anything.
STATIC_ATTRIBUTES = frozenset(
    {
        "shape",
        "dtype",
        "ndim",
        "size",
        "itemsize",
        "nbytes",
        "weak_type",
        "aval",
        "sharding",
        "device",
        "devices",
        "committed",
        "format",
        "layout",
        "is_fully_replicated",
        "is_fully_addressable",
    }
)


def getattr_of(call: ast.Call) -> str | None:
    """The attribute `getattr(obj, "attr")` reads (two arguments, a constant name); None otherwise."""
    func, args = call.func, call.args
    if not (isinstance(func, ast.Name) and func.id == "getattr" and len(args) == 2 and not call.keywords):
        return None
    name = args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or name.value in STATIC_ATTRIBUTES:
        return None
    return name.value


class Rank(enum.Enum):
    SCALAR = "0-d"
    NONSCALAR = "non-scalar"
    UNKNOWN = "unknown rank"


@dataclass(frozen=True)
class ArrayFact:
    """A binding that certainly holds a jax array."""

    binding: Binding
    rank: Rank
    origin: ast.AST  # the constructor call, or the parameter
    jitted_parameter: bool = False  # a parameter of a @jax.jit function (a tracer; could be a Ref)
    numpy: bool = False  # a numpy array: a constant only when of rank >= 1 and meeting a traced value


# jax.numpy functions that return one array.  `dtype` constructors (jnp.float32(3.)) included.
_DTYPE_CONSTRUCTORS = frozenset(
    {
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "bool_",
        "complex64",
        "complex128",
        "float8_e4m3fn",
        "float8_e5m2",
    }
)
_SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full"})
_RANK_AT_LEAST_ONE = frozenset(
    {
        "arange",
        "linspace",
        "logspace",
        "geomspace",
        "eye",
        "identity",
        "tri",
        "concatenate",
        "stack",
        "hstack",
        "vstack",
        "column_stack",
        "diag",
        "tril",
        "triu",
        "indices",
    }
)
_FROM_DATA = frozenset({"array", "asarray"}) | _DTYPE_CONSTRUCTORS
_OTHER_ARRAY_FUNCTIONS = frozenset(
    {
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
        "copy",
        "broadcast_to",
        "reshape",
        "transpose",
        "where",
        "exp",
        "log",
        "sqrt",
        "sin",
        "cos",
        "tanh",
        "abs",
        "maximum",
        "minimum",
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "cumsum",
        "dot",
        "matmul",
        "einsum",
        "outer",
        "clip",
        "pad",
        "roll",
        "flip",
        "repeat",
        "expand_dims",
        "squeeze",
        "astype",
        "tile",
    }
)
_JNP_ARRAY_FUNCTIONS = _SHAPE_FIRST | _RANK_AT_LEAST_ONE | _FROM_DATA | _OTHER_ARRAY_FUNCTIONS

# jax.random draws: a shape argument (keyword `shape` or this positional index); no shape: 0-d.
_RANDOM_DRAWS = {
    "normal": 1,
    "uniform": 1,
    "randint": 1,
    "bits": 1,
    "gumbel": 1,
    "exponential": 1,
    "laplace": 1,
    "logistic": 1,
    "cauchy": 1,
    "rademacher": 1,
    "truncated_normal": 3,
    "bernoulli": 2,
}
_RANDOM_DEFAULT_SCALAR = frozenset(
    {"normal", "uniform", "gumbel", "exponential", "laplace", "logistic", "cauchy", "rademacher", "bits"}
)

_JIT = frozenset({"jax.jit", "jax._src.api.jit", "jax.api.jit"})
_PARTIAL = "functools.partial"


def array_fact(model: ModuleModel, binding: Binding) -> ArrayFact | None:
    """The binding certainly makes a jax array: a jax.numpy constructor, a jax.random draw, or a
    parameter (without a default) of a `@jax.jit` function that is not static; or a numpy array
    from a numpy constructor."""
    if binding.kind == "assign" and isinstance(binding.value, ast.Call):
        made = constructor_fact(model, binding, binding.value, Loc(binding.scope, binding.stmt))
        if made is not None and made.rank is Rank.UNKNOWN:
            # `np.pad(a, ((0, 4), (0, 0)))`: the interpreter may know the shape the call gives.
            computed = _computed_array(model, binding)
            return computed if computed is not None and computed.rank is not Rank.UNKNOWN else made
        if made is not None:
            return made
        return _computed_array(model, binding)  # another call the interpreter knows (`jax.device_put(a)`)
    if binding.kind == "param" and _is_traced_parameter(model, binding):
        return ArrayFact(binding, Rank.UNKNOWN, binding.node, jitted_parameter=True)
    if binding.kind == "assign" and binding.stmt is not None:
        return _computed_array(model, binding)
    if binding.kind == "import":  # `from consts import SCALE`: what the other module assigns it
        return _computed_array(model, binding)
    return None


def constructor_fact(model: ModuleModel, binding: Binding, call: ast.Call, loc: Loc) -> ArrayFact | None:
    """The call (evaluated at `loc`) is a jax.numpy / jax.random / numpy array constructor."""
    name = qualname(call.func, loc, model)
    rank = constructor_rank(name, call) if name else None
    if rank is None or name is None:
        return None
    return ArrayFact(binding, rank, call, numpy=name.startswith("numpy."))


def _computed_array(model: ModuleModel, binding: Binding) -> ArrayFact | None:
    """A value the interpreter proves to be a jax array on every path (`jnp.arange(n) * 0.5 + 1`,
    a tuple element, an alias).  Its rank is not known, so only pallas_call (which rejects 0-d
    arrays too) is concerned."""
    values = binding_value(interpreter_for(model), binding, EMPTY_ENV, model)
    origin = binding.value if binding.value is not None else binding.node
    if certainly_jax_array(values):
        return ArrayFact(binding, rank_of(values), origin)
    if certainly_numpy_array(values) and rank_of(values) is Rank.NONSCALAR:
        # `np.arange(128).reshape(1, 128).astype(np.float32)`: numpy's methods keep an array.
        return ArrayFact(binding, Rank.NONSCALAR, origin, numpy=True)
    return None


def rank_of(values: frozenset[Value]) -> Rank:
    """0-d or not, when every array among `values` has the same known shape (`x.sum()` is 0-d,
    `x.mean(axis=0)` is not); else unknown."""
    shapes = {v.shape for v in values if isinstance(v, Array)}
    if None in shapes or len(shapes) != 1:
        return Rank.UNKNOWN
    return Rank.SCALAR if shapes == {()} else Rank.NONSCALAR


def member_array_rank(
    model: ModuleModel,
    function: FunctionNode,
    member: Member,
    envs: Iterable[Env] = (EMPTY_ENV,),
) -> Rank | None:
    """The rank of what `obj.attr` / `obj["key"]` read in the kernel holds, when it is a jax array
    on every path the interpreter sees (`self.bias` set to a `jnp` array in `__init__` and to
    nothing else anywhere in the class; `PARAMS["scale"]` of a module-level dict of arrays), in
    each closure `envs` the kernel was made in (`p.weight` of the `p` a factory was called with);
    None when it may be something else."""
    interp = interpreter_for(model)
    loc = model.body_loc(function)
    held: set[Value] = set()
    for env in envs:
        read = (member.value, member.attr) if isinstance(member, ast.Attribute) else None
        if isinstance(member, ast.Call) and (attr := getattr_of(member)) is not None:
            read = (member.args[0], attr)
        if read is not None and computed_on_read(interp, interp.ev(read[0], loc, env, model), read[1]):
            return None  # a getter makes it while JAX traces the kernel: not a captured constant
        values = interp.ev(member, loc, env, model)
        if not certainly_jax_array(values):
            return None
        held |= values
    return rank_of(frozenset(held))


def iterated_array_rank(
    model: ModuleModel, function: FunctionNode, iterated: ast.expr, envs: Iterable[Env] = (EMPTY_ENV,)
) -> Rank | None:
    """The rank of the items `for t in TERMS` gives in the kernel, when `TERMS` holds at least one
    item (the loop's first round runs) and every item is certainly a jax array, in each closure
    `envs` the kernel was made in; None otherwise."""
    interp = interpreter_for(model)
    loc = model.body_loc(function)
    held: set[Value] = set()
    for env in envs:
        seq = unpacked(interp, interp.ev(iterated, loc, env, model))
        items = frozenset().union(*seq.elts) if seq is not None and seq.elts is not None else frozenset()
        if not items or not certainly_jax_array(items):
            return None
        held |= items
    return rank_of(frozenset(held))


def certainly_jax_array(values: frozenset[Value]) -> bool:
    return bool(values) and all(isinstance(v, Array) and v.origin == "jax" for v in values)


def certainly_numpy_array(values: frozenset[Value]) -> bool:
    return bool(values) and all(isinstance(v, Array) and v.origin == "numpy" for v in values)


def partial_bound_arrays(function: FunctionNode, kernel_values: frozenset[Value]) -> dict[str, frozenset[Value]]:
    """The parameters of `function` that every functools.partial of it among a launch's kernel
    values binds to a jax array (`partial(kernel, bias=jnp.ones(...))`): constants of the kernel.
    Empty when the launch can also pass the bare function."""
    bound: list[dict[str, frozenset[Value]]] = []
    for value in kernel_values:
        args: list[frozenset[Value]] = []
        keywords: dict[str, frozenset[Value]] = {}
        while isinstance(value, Partial) and not value.hidden:
            args = [*value.args, *args]  # an inner partial's arguments come first
            for name, values in value.keywords:
                keywords.setdefault(name, values)  # an outer partial's keyword wins
            value = value.target
        if isinstance(value, Func) and value.node is function:
            positional = positional_args(function)
            named = dict(zip((a.arg for a in positional), args, strict=False))
            bound.append({**named, **keywords})
        elif isinstance(value, Partial):
            return {}  # a splat partial: what it binds is not known
    if not bound:
        return {}
    common = set.intersection(*(set(b) for b in bound))
    return {
        name: frozenset().union(*(b[name] for b in bound))
        for name in sorted(common)
        if all(certainly_jax_array(b[name]) for b in bound)
    }


def names_array(model: ModuleModel, bindings: list[Binding]) -> list[ArrayFact] | None:
    """Facts for every binding, or None unless all of them certainly hold arrays."""
    if not bindings:
        return None
    facts = [array_fact(model, b) for b in bindings]
    if any(f is None for f in facts):
        return None
    return facts  # type: ignore[return-value]  # None entries were ruled out just before


def combined_rank(facts: list[ArrayFact]) -> Rank:
    ranks = {f.rank for f in facts}
    return ranks.pop() if len(ranks) == 1 else Rank.UNKNOWN


def constructor_rank(name: str, call: ast.Call) -> Rank | None:
    if name.startswith(("jax.numpy.", "numpy.")):
        func = name.split("numpy.", 1)[1]
        if "." in func or func not in _JNP_ARRAY_FUNCTIONS:
            return None
        if func in _SHAPE_FIRST:
            return _shape_rank(_argument(call, 0, "shape"))
        if func in _RANK_AT_LEAST_ONE:
            return Rank.NONSCALAR
        if func in _FROM_DATA:
            return _data_rank(_argument(call, 0, "object" if func in ("array", "asarray") else "x"))
        return Rank.UNKNOWN
    if name == "jax.lax.broadcasted_iota":
        return _shape_rank(_argument(call, 1, "shape"))
    if name == "jax.lax.iota":
        return Rank.NONSCALAR
    if name.startswith("jax.random."):
        func = name[len("jax.random.") :]
        if func in ("PRNGKey", "split"):
            return Rank.NONSCALAR  # u32[2] / a stack of keys
        if func == "key":
            return Rank.SCALAR
        if func == "fold_in":
            return Rank.UNKNOWN  # the shape of the key it folds into
        if func in _RANDOM_DRAWS:
            shape = _argument(call, _RANDOM_DRAWS[func], "shape")
            if shape is None:
                return Rank.SCALAR if func in _RANDOM_DEFAULT_SCALAR else Rank.UNKNOWN
            return _shape_rank(shape)
    return None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return None
    return call.args[index] if len(call.args) > index else None


def _shape_rank(shape: ast.expr | None) -> Rank:
    if isinstance(shape, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in shape.elts):
        return Rank.NONSCALAR if shape.elts else Rank.SCALAR
    if isinstance(shape, ast.Constant) and isinstance(shape.value, int) and not isinstance(shape.value, bool):
        return Rank.NONSCALAR
    return Rank.UNKNOWN


def _data_rank(data: ast.expr | None) -> Rank:
    if isinstance(data, ast.Constant) and isinstance(data.value, (int, float, complex)):
        return Rank.SCALAR
    if isinstance(data, (ast.List, ast.Tuple)):
        return Rank.NONSCALAR
    return Rank.UNKNOWN


# --------------------------------------------------------------------------- jit parameters
def _is_traced_parameter(model: ModuleModel, binding: Binding) -> bool:
    """A parameter of a def decorated with `jax.jit` that jit traces: not static, no default
    (an omitted argument keeps its Python default), not `*args` / `**kwargs`."""
    function = binding.scope.node
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(binding.node, ast.arg):
        return False
    if binding.scope.parent is not None and binding.scope.parent.kind == "class":
        return False  # a method: `self` and friends are not what jit traces as arrays
    args = function.args
    positional = positional_args(function)
    if binding.node in positional:
        index = positional.index(binding.node)
        if index >= len(positional) - len(args.defaults):
            return False
    elif binding.node in args.kwonlyargs:
        index = None
        if args.kw_defaults[args.kwonlyargs.index(binding.node)] is not None:
            return False
    else:
        return False  # *args / **kwargs
    loc = model.loc(function)
    for decorator in function.decorator_list:
        static = _jit_static_arguments(decorator, loc, model)
        if static is None:
            continue
        numbers, names = static
        if binding.name in names or (index is not None and (index in numbers or index - len(positional) in numbers)):
            return False
        return len(function.decorator_list) == 1  # other decorators may change what is passed
    return False


def _jit_static_arguments(decorator: ast.expr, loc: Loc, model: ModuleModel) -> tuple[set[int], set[str]] | None:
    """For a jit decorator, its static argnums and argnames (None: not jit, or not literal)."""
    if qualname(decorator, loc, model) in _JIT:
        return set(), set()
    if not isinstance(decorator, ast.Call):
        return None
    func = qualname(decorator.func, loc, model)
    if func == _PARTIAL and decorator.args and qualname(decorator.args[0], loc, model) in _JIT:
        if len(decorator.args) > 1:
            return None
        keywords = decorator.keywords
    elif func in _JIT and not decorator.args:
        keywords = decorator.keywords  # @jax.jit(static_argnames=...)
    else:
        return None
    numbers: set[int] = set()
    names: set[str] = set()
    for keyword in keywords:
        if keyword.arg is None:
            return None
        if keyword.arg == "static_argnums":
            values = _literals(keyword.value, int)
            if values is None:
                return None
            numbers.update(values)
        elif keyword.arg == "static_argnames":
            values = _literals(keyword.value, str)
            if values is None:
                return None
            names.update(values)
    return numbers, names


def _literals(expr: ast.expr, kind: type) -> list[Any] | None:
    items = expr.elts if isinstance(expr, (ast.Tuple, ast.List, ast.Set)) else [expr]
    values = []
    for item in items:
        if (
            isinstance(item, ast.UnaryOp)
            and isinstance(item.op, ast.USub)
            and isinstance(item.operand, ast.Constant)
            and isinstance(item.operand.value, (int, float))
        ):
            item = ast.Constant(-item.operand.value)
        if not isinstance(item, ast.Constant) or not isinstance(item.value, kind) or isinstance(item.value, bool):
            return None
        values.append(item.value)
    return values
