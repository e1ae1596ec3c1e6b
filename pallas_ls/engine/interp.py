"""The value interpreter: what can an expression be, statically?

Every rule asks this one question through `Interpreter.ev(expr, loc, env)`, which answers with a
*value set*: a frozenset of abstract values, any of which the expression may denote at run time.
`UNKNOWN` in a set means "and possibly something we cannot see".

What is followed
- Names, by the definitions that reach the point of use (the module model's flow-sensitive
  lookup).  A module-level name read inside a top-level function that the module itself calls
  takes the definitions live at those calls (notebook style: `kernel` redefined cell after cell).
- Bindings of every statement form: `a = b = v`, tuple unpacking, `for x in (a, b)` (each element),
  annotated and augmented assignment (`outs += [...]`), walrus, imports (project modules, then
  installed and editable packages of the user's Python environment, read as source through a
  loader, never imported: see `project._ProjectLoader` and `environment`; jax, numpy and the other
  EXTERNAL_ROOTS are modelled, not read; star imports honour `__all__`), `def` with its
  decorators applied, `class`.
- Calls through bounded, memoised return summaries of project functions: arguments are bound to
  parameters (positional, keyword, defaults, `*args` / `**kwargs` when they resolve), a branch
  whose test is a constant in that binding is pruned, and a function's result is the union of its
  returns and, when its body can run off the end, `None`.  Classes make instances; attributes come
  from the class body (methods bind, `staticmethod` / `classmethod` / `property` are honoured) and
  from `self.x = ...` in its methods, evaluated with the constructor's arguments; dataclass
  fields take their constructor arguments; `__call__` makes an instance callable.
- Containers: tuple / list / dict displays, `+`, `.append` / `.extend` on a list in straight-line
  code, constant subscripts (an unknown key gives every element), `.items()` / `.values()`.
- Objects on the heap (`heap.py`): dicts, lists and instances are identified by their allocation
  site, and stores into them anywhere in the program (in functions, decorators, class creation
  hooks, module-level loops; `setattr`, `update`, `setdefault`, `append`) are fields their reads
  see; code run at import is evaluated for them.
- Class machinery: class decorators, `__init_subclass__`, metaclass `__new__` / `__init__`,
  zero-argument `super()`, constructors' bodies (`super().__init__(...)`), `cached_property`,
  `partialmethod`.  Iteration: generators (`yield`, `yield from`), `iter` / `next`, `zip`,
  `enumerate`, `map`, comprehensions and their targets, `a, *rest = xs`, `with x as y`.
- The standard library as Python models (`models/`: operator, collections, contextlib, types,
  itertools), evaluated like the user's code; f-strings of a few constant parts; `globals()`.
- Refs by allocation site (`jax.new_ref(x)` is one object however many names it has), `.at[...]`
  views of them, arrays (jnp / np constructors and anything computed from an array), the Pallas
  entry points, `functools.partial`, and the launches that calling an entry point makes.

Where it gives up (UNKNOWN): calls past `MAX_CALL_DEPTH`, recursion, values from modules it
cannot read (not found, compiled only, stubs only) that are not known APIs, attributes of unknown
objects.

Precision policy: "may" for which functions are kernels (any function in the set), "must" for what
a finding asserts (a set without UNKNOWN whose every member has the property).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from .heap import Heap
from .model import (
    Binding,
    FunctionNode,
    Loc,
    ModuleModel,
    Scope,
    is_generator,
    own_returns,
    own_yields,
    positional_args,
)
from .models import modelled
from .names import ENTRY_POINTS, PARTIAL
from .shapes import DEFAULT_FLOAT, DEFAULT_INT, Shape, as_shape, canonical_dtype, reshaped
from .source import SourceFile

# How deep calls are followed (a summary inside a summary ...), and nested evaluations overall.
MAX_CALL_DEPTH = 4
MAX_EVAL_DEPTH = 48
# How many function summaries one interpreter computes (a module's analysis); past it calls are
# unknown.  Keeps pathological code (deep call graphs of big functions) bounded in time and memory.
MAX_SUMMARIES = 1500
# Expressions whose value may be a function, a Ref or a container of them (a comprehension's
# element is evaluated only when it is one of these).
_MAY_NAME_OBJECTS = (
    ast.Name,
    ast.Attribute,
    ast.Subscript,
    ast.Call,
    ast.Tuple,
    ast.List,
    ast.Lambda,
    ast.IfExp,
    ast.Dict,
)
# Among a kernel's bound keywords: functools.partial also bound a `*args` / `**kwargs` splat that
# could not be read, so which parameters it binds is unknown (an arity check says nothing).
UNREAD_SPLAT = "**"
# How many constant strings an f-string may be before it is just "a string".
MAX_FSTRING_CHOICES = 16


# --------------------------------------------------------------------------------- values
class Value:
    """An abstract value.  Subclasses are frozen dataclasses: equal values merge in a set."""

    __slots__ = ()


@dataclass(frozen=True)
class Unknown(Value):
    pass


UNKNOWN = Unknown()


@dataclass(frozen=True)
class Const(Value):
    value: object  # None, bool, int, float, str, bytes, Ellipsis


NONE = Const(None)


@dataclass(frozen=True)
class Opaque(Value):
    """A certain, non-None object of a kind we do not model further (a string, a number, ...)."""

    kind: str = "object"


@dataclass(frozen=True)
class Env:
    """Parameter bindings of a call (and of the calls enclosing a closure): Binding -> value set."""

    items: tuple[tuple[Binding, frozenset[Value]], ...] = ()  # sorted by id(binding)
    # Every evaluation is memoised by (expression, env): the hash is taken once, here, instead of
    # by the generated `__hash__` (a Python call walking `items`) on each of a lookup's five uses.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(self.items))

    def __hash__(self) -> int:
        return self._hash

    def get(self, binding: Binding) -> frozenset[Value] | None:
        for key, value in self.items:
            if key is binding:
                return value
        return None

    def extended(self, pairs: Iterable[tuple[Binding, frozenset[Value]]]) -> Env:
        merged = {id(b): (b, v) for b, v in self.items}
        for b, v in pairs:
            merged[id(b)] = (b, v)
        return Env(tuple(merged[k] for k in sorted(merged)))


EMPTY_ENV = Env()


@dataclass(frozen=True)
class Func(Value):
    node: FunctionNode
    model: ModuleModel
    env: Env = EMPTY_ENV  # the bindings its free variables see (closures)


@dataclass(frozen=True)
class Partial(Value):
    """functools.partial(target, *args, **keywords)."""

    target: Value
    args: tuple[frozenset[Value], ...]
    keywords: tuple[tuple[str, frozenset[Value]], ...]
    arg_exprs: tuple[Any, ...] = ()  # ((expr, loc, env), ...) as written, for the launch's layout
    keyword_exprs: tuple[Any, ...] = ()  # ((name, expr, loc, env), ...)
    # Some bound arguments are not in arg_exprs / keyword_exprs (an unknown `*args` / `**kwargs`
    # splat): a launch through this partial cannot count its refs.
    hidden: bool = False


class Evaluated(ast.expr):
    """An argument known by its values only, standing in for the expression a launch's layout reads:
    one entry of a known `**kwargs` (or `*args`) splat into functools.partial, whose expression was
    written at another call (`def kernel(self, **kw): return partial(pl.kernel, **kw)`)."""

    _fields = ()

    def __init__(self, values: frozenset[Value], splat: ast.expr):
        super().__init__()
        self.values = values
        ast.copy_location(self, splat)  # a finding that points at it points at the splat


@dataclass(frozen=True)
class BoundMethod(Value):
    func: Value  # a Func
    receiver: Value  # the instance (or class, for a classmethod)


@dataclass(frozen=True)
class Wrapped(Value):
    """staticmethod / classmethod / property objects in a class body."""

    kind: str  # "static" | "class" | "property"
    func: Value


@dataclass(frozen=True)
class Generator(Value):
    """What calling a generator function gives: iterating it yields what its `yield`s can yield."""

    func: Func
    env: Env


@dataclass(frozen=True)
class Class(Value):
    node: ast.ClassDef
    model: ModuleModel


@dataclass(frozen=True)
class Instance(Value):
    cls: Class
    init_env: Env | None = None  # __init__'s parameters, bound by the constructor call
    fields: tuple[tuple[str, frozenset[Value]], ...] = ()  # dataclass fields
    site: int = 0  # the constructor call that made it (0: any instance of the class)


@dataclass(frozen=True)
class Super(Value):
    """`super()` in a method of `cls`: attributes come from the classes after `cls`, bound to
    `receiver` (the method's instance, or class in a classmethod)."""

    cls: Class
    receiver: Value


@dataclass(frozen=True)
class Module(Value):
    model: ModuleModel


@dataclass(frozen=True)
class External(Value):
    """Something outside the project, known by its dotted name (`jax.numpy.sum`)."""

    qualname: str


@dataclass(frozen=True)
class Entry(Value):
    """A Pallas entry point (pallas_call, kernel, mpmd_map, core_map, warp_map)."""

    kind: str


@dataclass(frozen=True)
class ApiResult(Value):
    """What calling an external API returned (a BlockSpec, a GridSpec, a mesh...): the call is
    kept so that layout questions can read its arguments."""

    qualname: str
    call: ast.Call
    loc: Loc
    env: Env


@dataclass(frozen=True)
class Seq(Value):
    """A tuple or list.  `elts` is every element in order when the length is known; otherwise
    `elts` is None and `members` holds what the elements can be."""

    kind: str  # "tuple" | "list"
    elts: tuple[frozenset[Value], ...] | None = None
    members: frozenset[Value] = frozenset()
    site: int = 0  # a list's allocation site (id of its display), for the heap; 0: not followed

    @property
    def known(self) -> bool:
        return self.elts is not None

    def elements(self) -> tuple[frozenset[Value], ...]:
        """The elements of a sequence known to have them (`known`, or from `_single_known_seq`)."""
        assert self.elts is not None, "a sequence of unknown length has no elements to list"
        return self.elts

    def all_members(self) -> frozenset[Value]:
        if self.elts is None:
            return self.members | {UNKNOWN} if not self.members else self.members
        return frozenset().union(*self.elts) if self.elts else frozenset()


def _hashable(key: object) -> object:
    """A dict key as an index key: an unhashable one (never a constant) stands for itself."""
    try:
        hash(key)
    except TypeError:
        return ("unhashable", id(key))
    return key


@dataclass(frozen=True)
class DictV(Value):
    items: tuple[tuple[Any, frozenset[Value]], ...] | None = None  # None: keys not known
    members: frozenset[Value] = frozenset()
    # The allocation site (id of the display or call that made it; 0: not one object we follow)
    # and whether it was made at module or class level, where import-time code may fill it.
    site: int = 0
    toplevel: bool = False

    # Issue 35: a 40k-entry dict literal whose item is launched took 47 s.  A lookup reads an index
    # made once per dict (not a scan of its items), and the hash is taken once.
    def __hash__(self) -> int:
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.items, self.members, self.site))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[Any, Any]:
        # The caches stay behind: a hash is only valid in the process that took it.
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_index")}

    def known_items(self) -> tuple[tuple[object, frozenset[Value]], ...]:
        """The items of a dict whose keys are known (as `_single_known_str_dict` gives)."""
        assert self.items is not None, "a dict of unknown keys has no items to list"
        return self.items

    def lookup(self, key: object, default: frozenset[Value]) -> frozenset[Value]:
        """The value of a constant key of a dict whose keys are known; `default` when absent."""
        index: dict[object, frozenset[Value]] | None = self.__dict__.get("_index")
        if index is None:
            index = {}
            for k, v in self.items or ():
                index.setdefault(_hashable(k), v)  # the first of equal keys, as a scan finds it
            object.__setattr__(self, "_index", index)
        return index.get(_hashable(key), default)

    def all_values(self) -> frozenset[Value]:
        if self.items is None:
            return self.members | {UNKNOWN}
        return frozenset().union(*(v for _, v in self.items)) if self.items else frozenset()


@dataclass(frozen=True)
class Ref(Value):
    """A Ref, identified by where it was made (a constructor call, or a kernel's parameter)."""

    site: object  # ast.Call or Binding


@dataclass(frozen=True)
class RefView(Value):
    """`ref.at` (then `[...]`): a view of the same Ref."""

    ref: Ref


@dataclass(frozen=True)
class Array(Value):
    """A jax or numpy array (or a value computed from one)."""

    origin: str = "jax"  # "jax" | "numpy" | "traced" (read from, or computed with, a parameter)
    shape: Shape | None = None  # when the program makes it constant (engine/shapes.py)
    dtype: str | None = None  # canonical name ("float32"), when known


@dataclass(frozen=True)
class ShapeStruct(Value):
    """jax.ShapeDtypeStruct(...): one array's shape and dtype (one output parameter)."""

    shape: Shape | None = None
    dtype: str | None = None


@dataclass(frozen=True)
class DType(Opaque):
    """A dtype the program names (`jnp.float32` is an External; `x.dtype` of a known array is this)."""

    name: str = ""


@dataclass(frozen=True)
class Param(Value):
    """A parameter with no argument bound to it (the function is analysed on its own)."""

    binding: Binding


@dataclass(frozen=True)
class Launched(Value):
    """The callable a launch returns (`pl.pallas_call(kernel, ...)`, a decorated kernel)."""

    launch: object  # kernels.Launch (identity)


@dataclass(frozen=True)
class Factory(Value):
    """`pl.kernel(mesh=...)` or `pl.core_map(mesh)` without a body: applied to a body, it launches."""

    kind: str
    args: tuple[Any, ...]  # ((expr, loc, env), ...)
    keywords: tuple[Any, ...]  # ((name, expr, loc, env), ...)
    node: ast.AST
    hidden: bool = False  # some arguments came through a splat we cannot read (see Partial)


ValueSet = frozenset
U = frozenset({UNKNOWN})
NONE_SET = frozenset({NONE})


def _note_read(reads: dict[str, dict[int, Any]], name: str, loc: Loc) -> None:
    place = loc.stmt if loc.stmt is not None else loc.scope
    reads.setdefault(name, {})[id(place)] = place


def union(sets: Iterable[frozenset[Value]]) -> frozenset[Value]:
    out: set[Any] = set()
    for s in sets:
        out |= s
    return frozenset(out)


# ------------------------------------------------------------------------ known externals
# Namespaces never read as project source (they are not the user's code).
EXTERNAL_ROOTS = frozenset(
    {
        "jax",
        "jaxlib",
        "numpy",
        "np",
        "functools",
        "math",
        "typing",
        "dataclasses",
        "collections",
        "itertools",
        "os",
        "sys",
        "re",
        "abc",
        "enum",
        "contextlib",
        "operator",
        "types",
        "absl",
        "flax",
        "optax",
        "chex",
        "ml_dtypes",
        "einops",
        "__future__",
        "warnings",
        "logging",
        "time",
        "json",
        "pathlib",
        "inspect",
        "weakref",
        "copy",
        "string",
        "textwrap",
        "pytest",
        "unittest",
        "typing_extensions",
        "builtins",
    }
)

REF_CONSTRUCTORS = frozenset(
    {
        "jax.new_ref",
        "jax.ref.new_ref",
        "jax.empty_ref",
        "jax.ref.empty_ref",
        "jax.experimental.pallas.empty_ref_like",
        "jax._src.pallas.helpers.empty_ref_like",
    }
)
SHAPE_STRUCTS = frozenset({"jax.ShapeDtypeStruct", "jax.core.ShapeDtypeStruct", "jax._src.api.ShapeDtypeStruct"})
# Wrappers that hand back (a function behaving as) their first argument.
PASS_THROUGH = frozenset(
    {
        "jax.named_call",
        "jax.jit",
        "jax.checkpoint",
        "jax.remat",
        "jax.named_scope",
        "functools.lru_cache",
        "functools.cache",
        "typing.final",
        "typing.no_type_check",
        "jax.experimental.pallas.named_call",
    }
)
# JAX / Pallas APIs that return None (observed: see pallas-facts §1).
NONE_APIS = frozenset(
    {
        "jax.debug.print",
        "jax.debug.callback",
        "jax.experimental.pallas.debug_print",
        "jax.experimental.pallas.semaphore_signal",
        "jax.experimental.pallas.semaphore_wait",
        "jax.experimental.pallas.tpu.semaphore_signal",
        "jax.experimental.pallas.tpu.semaphore_wait",
        "jax.experimental.pallas.tpu.sync_copy",
        "jax.experimental.pallas.mosaic_gpu.copy_gmem_to_smem",
        "jax.experimental.pallas.mosaic_gpu.copy_smem_to_gmem",
        "jax.experimental.pallas.mosaic_gpu.barrier_wait",
        "jax.experimental.pallas.mosaic_gpu.barrier_arrive",
        "jax.experimental.pallas.mosaic_gpu.commit_smem",
        "jax.experimental.pallas.mosaic_gpu.wait_smem_to_gmem",
        "print",
    }
)
# Methods that return None whatever their receiver (DMA descriptors, semaphores, refs).
NONE_METHODS = frozenset({"wait", "start", "wait_recv", "wait_send", "__setitem__", "signal"})
# Pallas APIs that certainly return a value.
VALUE_APIS = frozenset(
    {
        "jax.experimental.pallas." + n
        for n in (
            "program_id",
            "num_programs",
            "load",
            "dot",
            "ds",
            "dslice",
            "cdiv",
            "multiple_of",
            "reciprocal",
            "semaphore_read",
            "broadcast_to",
            "empty",
            "empty_like",
        )
    }
    | {
        "jax.experimental.pallas.tpu." + n
        for n in (
            "async_copy",
            "make_async_copy",
            "async_remote_copy",
            "make_async_remote_copy",
            "repeat",
            "roll",
            "bitcast",
            "prng_random_bits",
        )
    }
)
_LAX_ARRAYS = frozenset(
    {"jax.lax.broadcasted_iota", "jax.lax.iota", "jax.lax.full", "jax.lax.broadcast", "jax.lax.broadcast_in_dim"}
)
ARRAY_PREFIXES = ("jax.numpy.", "jax.random.", "jax.nn.", "jax.scipy.")
_NON_ARRAY_JNP = frozenset(
    {
        "jax.numpy.float32",
        "jax.numpy.dtype",
        "jax.numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.result_type",
        "jax.numpy.issubdtype",
        "jax.numpy.promote_types",
    }
)
# Control flow whose result is the carry: the index of the init argument.
_LOOPS_WITH_INIT = {"jax.lax.fori_loop": (3, "init_val"), "jax.lax.while_loop": (2, "init_val")}
_BUILTINS_VALUE = frozenset(
    {
        "len",
        "int",
        "float",
        "bool",
        "str",
        "set",
        "range",
        "sum",
        "max",
        "min",
        "abs",
        "zip",
        "map",
        "enumerate",
        "sorted",
        "reversed",
        "isinstance",
        "type",
        "repr",
        "round",
        "hash",
        "id",
        "object",
        "frozenset",
        "iter",
        "next",
        "divmod",
        "pow",
        "any",
        "all",
        "callable",
        "hasattr",
        "format",
        "slice",
        "issubclass",
        "bytes",
        "complex",
        "chr",
        "ord",
        "vars",
        "dir",
        "filter",
    }
)
# Constructors of plain dicts (an OrderedDict is a dict whose order we do not need).
_DICT_TYPES = frozenset({"dict", "collections.OrderedDict"})
# Decorators that make a descriptor of a function in a class body: the kind of Wrapped they make
# (a cached_property reads like a property: the function's result, computed on first access).
_DESCRIPTORS = {
    "staticmethod": "static",
    "classmethod": "class",
    "property": "property",
    "functools.cached_property": "property",
}
_STATIC_ARRAY_ATTRIBUTES = frozenset(
    {"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "aval", "sharding", "weak_type"}
)


def external(qualname: str) -> Value:
    kind = ENTRY_POINTS.get(qualname)
    return Entry(kind) if kind is not None else External(qualname)


# ------------------------------------------------------------------------------- loader
class Loader:
    """Finds the project modules an import names (the project implements it; single-file analysis
    uses this one, which finds none)."""

    def module(self, from_model: ModuleModel, dotted: str) -> tuple[ModuleModel, list[str]] | None:
        """The module that `dotted` (as written in an import of `from_model`'s file; relative when
        it starts with '.') names, and the attribute names left after it."""
        return None

    def path_of(self, model: ModuleModel) -> str | None:
        return None

    def source_of(self, model: ModuleModel) -> SourceFile | None:
        return None

    def from_environment(self, model: ModuleModel) -> bool:
        """Whether the module was read from the Python environment (followed, never checked)."""
        return False


NO_LOADER = Loader()


@dataclass
class _Mutation:
    """A list mutated in place: `name.append(x)` / `name.extend(xs)` / `name.insert(i, x)`."""

    call: ast.Call
    method: str


# --------------------------------------------------------------------------- interpreter
class Interpreter:
    """Evaluates expressions of one module (and the project modules it imports) to value sets.

    One interpreter per analysis of a module version: its caches are valid for that version only.
    """

    def __init__(self, model: ModuleModel, loader: Loader = NO_LOADER):
        self.model = model
        self.loader = loader
        self._memo: dict[tuple[Any, ...], frozenset[Value]] = {}
        self._active: set[tuple[Any, ...]] = set()
        self._summaries: dict[tuple[Any, ...], frozenset[Value]] = {}
        self._eval_depth = 0
        self._call_depth = 0
        self._instance_attrs: dict[int, dict[str, list[Any]]] = {}
        self._star_imports: dict[int, list[ast.ImportFrom]] = {}
        self._module_calls: dict[tuple[int, str], list[Any]] = {}
        self._mutations: dict[int, dict[str, list[_Mutation]]] = {}
        # Launch registry (filled by kernels.LaunchMaker as calls of entry points are evaluated).
        self.on_entry_call: Callable[..., frozenset[Value] | None] | None = None
        self.on_factory_call: Callable[..., frozenset[Value] | None] | None = None
        self.on_decorator_launch: Callable[..., frozenset[Value] | None] | None = None
        self.on_invocation: Callable[..., None] | None = None
        self.on_function_call: Callable[..., None] | None = None
        self.loaded: dict[int, ModuleModel] = {}  # other modules' models consulted, by id
        self.heap = Heap(self)
        self.library_models: dict[int, ModuleModel] = {}  # the models (engine/models) evaluated
        # What the evaluations read of this module beyond the statement they started in (see
        # kernels.NoLaunches, which reuses a search for launches that found none): the names
        # looked up at module level (bound there or not) and the top-level functions whose
        # module-level calls were scanned, each with the places that read it (by id: the
        # statement, or the scope at whose end it was read), and the imports the loader could
        # not find.
        self.module_names_read: dict[str, dict[int, Any]] = {}
        self.module_calls_read: dict[str, dict[int, Any]] = {}
        self.imports_not_found: set[str] = set()

    def models(self) -> list[ModuleModel]:
        return [self.model, *list(self.loaded.values())]

    # ------------------------------------------------------------------------ evaluation
    def ev(self, expr: ast.AST, loc: Loc, env: Env = EMPTY_ENV, model: ModuleModel | None = None) -> frozenset[Value]:
        """What `expr`, evaluated at `loc` (in `model`, default the interpreter's) with `env`, can be."""
        model = model or self.model
        key = (id(expr), env)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._active or self._eval_depth > MAX_EVAL_DEPTH:
            return U
        self._active.add(key)
        self._eval_depth += 1
        try:
            result = self._ev(expr, loc, env, model)
        except RecursionError:
            result = U
        finally:
            self._eval_depth -= 1
            self._active.discard(key)
        self._memo[key] = result
        return result

    def _ev(self, expr: ast.AST, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        if isinstance(expr, ast.Constant):
            return frozenset({Const(expr.value)}) if _small_constant(expr.value) else frozenset({Opaque("str")})
        if isinstance(expr, ast.Name):
            return self._ev_name(expr, loc, env, model)
        if isinstance(expr, ast.Attribute):
            return union(self.attribute(v, expr.attr, model) for v in self.ev(expr.value, loc, env, model))
        if isinstance(expr, ast.Call):
            return self._ev_call(expr, loc, env, model)
        if isinstance(expr, ast.Subscript):
            index = self.ev(expr.slice, loc, env, model)
            return union(self.subscript(v, index) for v in self.ev(expr.value, loc, env, model))
        if isinstance(expr, (ast.Tuple, ast.List)):
            elts = self._elements(expr.elts, loc, env, model)
            kind = "tuple" if isinstance(expr, ast.Tuple) else "list"
            site = id(expr) if kind == "list" else 0
            if elts is None:
                members = union(
                    self.ev(e.value if isinstance(e, ast.Starred) else e, loc, env, model) for e in expr.elts
                )
                return frozenset({Seq(kind, None, members, site)})
            return frozenset({Seq(kind, elts, site=site)})
        if isinstance(expr, ast.Dict):
            return frozenset({self._dict_display(expr, loc, env, model)})
        if isinstance(expr, ast.Lambda):
            return frozenset({Func(expr, model, env)})
        if isinstance(expr, ast.IfExp):
            test = self.ev(expr.test, loc, env, model)
            truth = _truth(test)
            if truth is True:
                return self.ev(expr.body, loc, env, model)
            if truth is False:
                return self.ev(expr.orelse, loc, env, model)
            return self.ev(expr.body, loc, env, model) | self.ev(expr.orelse, loc, env, model)
        if isinstance(expr, ast.BinOp):
            return self._binop(expr, loc, env, model)
        if isinstance(expr, ast.UnaryOp):
            operand = self.ev(expr.operand, loc, env, model)
            if any(isinstance(v, Array) for v in operand):
                return frozenset({_array_of(operand)})
            if isinstance(expr.op, ast.Not):
                truth = _truth(operand)
                return frozenset({Const(not truth)}) if truth is not None else frozenset({Opaque("bool")})
            only = next(iter(operand)) if len(operand) == 1 else None
            if isinstance(only, Const):
                value = only.value
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    return frozenset({Const(-value if isinstance(expr.op, ast.USub) else value)})
            return frozenset({Opaque("number")})
        if isinstance(expr, ast.BoolOp):
            values = [self.ev(v, loc, env, model) for v in expr.values]
            return union(values)
        if isinstance(expr, ast.Compare):
            parts = [self.ev(expr.left, loc, env, model)] + [self.ev(c, loc, env, model) for c in expr.comparators]
            if any(isinstance(v, Array) for p in parts for v in p):
                return frozenset({Array()})
            return frozenset({Opaque("bool")})
        if isinstance(expr, ast.NamedExpr):
            return self.ev(expr.value, loc, env, model)
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            return self._comprehension(expr, loc, env, model)
        if isinstance(expr, (ast.SetComp, ast.Set)):
            return frozenset({Opaque("set")})
        if isinstance(expr, ast.DictComp):  # keys not known; its values are what the value part gives
            comprehension = model.scope_of_function.get(id(expr))
            made = self.ev(expr.value, Loc(comprehension, None), env, model) if comprehension is not None else U
            return frozenset({DictV(None, made)})
        if isinstance(expr, ast.JoinedStr):
            return self._fstring(expr, loc, env, model)
        if isinstance(expr, ast.Starred):
            return self.ev(expr.value, loc, env, model)
        if isinstance(expr, Evaluated):
            return expr.values
        return U  # await, yield, slices, ...

    def _fstring(self, expr: ast.JoinedStr, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        """An f-string whose parts are each one of a few constants is one of a few constant strings
        (`f"_{mode}_kernel"` with mode "sum" or "max"); otherwise some string."""
        texts = [""]
        for part in expr.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                choices = [part.value]
            elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
                values = self.ev(part.value, loc, env, model)
                if not all(isinstance(v, Const) and isinstance(v.value, (str, int)) for v in values):
                    return frozenset({Opaque("str")})
                choices = [str(cast(Const, v).value) for v in values]
            else:
                return frozenset({Opaque("str")})
            texts = [t + c for t in texts for c in choices]
            if not texts or len(texts) > MAX_FSTRING_CHOICES:
                return frozenset({Opaque("str")})
        return frozenset(Const(t) for t in texts)

    def _elements(self, elts: list[ast.expr], loc: Loc, env: Env, model: ModuleModel) -> tuple[Any, ...] | None:
        out: list[frozenset[Value]] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                inner = self.ev(e.value, loc, env, model)
                seq = _single_known_seq(inner)
                if seq is None:
                    return None
                out.extend(seq.elements())
            else:
                out.append(self.ev(e, loc, env, model))
        return tuple(out)

    def _dict_display(self, expr: ast.Dict, loc: Loc, env: Env, model: ModuleModel) -> DictV:
        # Constant key -> (key, value) in order.  A repeated key moves to the end and its last value
        # wins; each key is one dict operation (issue 35: rebuilding the items per key was
        # quadratic in the literal's size).
        ordered: dict[object, tuple[Any, frozenset[Value]]] = {}

        def put(key: Any, value: frozenset[Value]) -> None:
            ordered.pop(_hashable(key), None)
            ordered[_hashable(key)] = (key, value)

        known = True
        members: set[Value] = set()
        for k, v in zip(expr.keys, expr.values, strict=True):
            value = self.ev(v, loc, env, model)
            if k is None:  # `**spread`
                d = next(iter(value)) if len(value) == 1 else None
                if isinstance(d, DictV) and d.items is not None:
                    for spread_key, spread_value in d.items:
                        put(spread_key, spread_value)
                    members |= d.all_values()
                    continue
                for spread in value:  # keys unknown: its values may be any of the result's
                    members |= spread.all_values() if isinstance(spread, DictV) else U
                known = False
                continue
            members |= value
            key = self.ev(k, loc, env, model)
            const = next(iter(key)) if len(key) == 1 else None
            if isinstance(const, Const):
                put(const.value, value)
            else:
                known = False
        return DictV(
            tuple(ordered.values()) if known else None,
            frozenset(members),
            site=id(expr),
            toplevel=loc.scope.kind in ("module", "class"),
        )

    def _comprehension(
        self, expr: ast.ListComp | ast.GeneratorExp, loc: Loc, env: Env, model: ModuleModel
    ) -> frozenset[Value]:
        """`[S for _ in range(3)]`: three elements when the count is constant and the element does
        not depend on the loop variable (then it is evaluated once); else elements unknown."""
        [*generators] = expr.generators
        if len(generators) == 1 and not generators[0].ifs and not generators[0].is_async:
            count = self._range_length(generators[0].iter, loc, env, model)
            targets = {n.id for n in ast.walk(generators[0].target) if isinstance(n, ast.Name)}
            uses_target = any(isinstance(n, ast.Name) and n.id in targets for n in ast.walk(expr.elt))
            if count is not None and count <= MAX_REPEAT and not uses_target:
                element = self.ev(expr.elt, loc, env, model)
                # Each iteration evaluates the element again: a Ref it makes is a new one each time
                # (a Ref made outside, `[r for _ in range(2)]`, stays the same one).
                inside = {id(node) for node in ast.walk(expr.elt)}
                outside = frozenset(r for r in _refs_in(element, 0) if id(_ref_origin(r)) not in inside)
                return frozenset({Seq("list", tuple(_retag(element, outside, (expr, i), 0) for i in range(count)))})
        scope = model.scope_of_function.get(id(expr))
        if scope is None or not isinstance(expr.elt, _MAY_NAME_OBJECTS):
            return frozenset({Seq("list", None, U)})  # arithmetic, strings: nothing a rule follows
        members = self.ev(expr.elt, Loc(scope, None), env, model)
        return frozenset({Seq("list", None, members)})

    def _comprehension_target(self, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value]:
        """A name a comprehension's `for` binds: what iterating its iterable gives."""
        node = b.scope.node
        generators = getattr(node, "generators", [])
        for index, generator in enumerate(generators):
            path = _path_to(generator.target, b.node)
            if path is None:
                continue
            # The first iterable is evaluated in the enclosing scope, the others inside.
            scope = b.scope.parent if index == 0 and b.scope.parent is not None else b.scope
            iterable = self.ev(generator.iter, Loc(scope, b.stmt), env, model)
            return _destructure(self.iterate(iterable), path)
        return U

    def _range_length(self, expr: ast.expr, loc: Loc, env: Env, model: ModuleModel) -> int | None:
        if not (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "range"
            and not expr.keywords
            and 1 <= len(expr.args) <= 3
        ):
            return None
        bounds = [int_constant(self.ev(a, loc, env, model)) for a in expr.args]
        if None in bounds or (len(bounds) == 3 and bounds[2] == 0):
            return None
        return len(range(*bounds))  # type: ignore[arg-type]  # None was ruled out just before

    def _binop(self, expr: ast.BinOp, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        left = self.ev(expr.left, loc, env, model)
        right = self.ev(expr.right, loc, env, model)
        if any(isinstance(v, Array) for v in left | right):
            return frozenset({_array_of(left | right)})
        if isinstance(expr.op, ast.Mult):
            repeated = _repeated(left, right) or _repeated(right, left)
            if repeated is not None:
                return repeated
        if isinstance(expr.op, ast.Add):
            ls, rs = _single_known_seq(left), _single_known_seq(right)
            if ls is not None and rs is not None and ls.kind == rs.kind:
                return frozenset({Seq(ls.kind, ls.elements() + rs.elements())})
            if any(isinstance(v, Seq) for v in left | right):
                seqs = [v for v in left | right if isinstance(v, Seq)]
                return frozenset({Seq(seqs[0].kind, None, union(s.all_members() for s in seqs))})
        if len(left) == 1 and len(right) == 1:
            a, b = next(iter(left)), next(iter(right))
            if isinstance(a, Const) and isinstance(b, Const):
                folded = _fold(expr.op, a.value, b.value)
                if folded is not None:
                    return frozenset({folded})
        if any(isinstance(v, Param) for v in left | right):
            return frozenset({Array("traced")})  # in a kernel, parameters are refs (or arrays read from them)
        return frozenset({Opaque("number")})  # arithmetic never gives None

    # -------------------------------------------------------------------------- names
    def _ev_name(self, expr: ast.Name, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        bindings = self.lookup(expr.id, loc, model)
        if not bindings:
            return self._unbound_name(expr.id, model)
        values = union(self.binding_value(b, env, model, loc) for b in bindings)
        # The real entry point wins over a fallback defined beside it (`try: import ... except: def`).
        entries = frozenset(v for v in values if isinstance(v, Entry))
        return entries or values

    def lookup(self, name: str, loc: Loc, model: ModuleModel) -> list[Binding]:
        bindings = model.lookup(name, loc)
        if model is self.model and (not bindings or bindings[0].scope is model.module_scope):
            _note_read(self.module_names_read, name, loc)
        if bindings and loc.scope is not model.module_scope and bindings[0].scope is model.module_scope:
            at_calls = self._module_level_reaching(name, loc, model)
            if at_calls is not None:
                return at_calls
        return bindings

    def _module_level_reaching(self, name: str, loc: Loc, model: ModuleModel) -> list[Binding] | None:
        """For a module-level name read in a function: when the function's top-level def is
        called at module level, the definitions live at those calls (notebook-style redefinitions)."""
        if name in loc.scope.global_names:
            return None
        scope: Scope | None = loc.scope
        while scope is not None and scope.parent is not None and scope.parent is not model.module_scope:
            scope = scope.parent
        top = scope.node if scope is not None else None
        if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if model is self.model:
            _note_read(self.module_calls_read, top.name, loc)
        calls = self._module_level_calls(top, model)
        if not calls:
            return None
        everything = model.module_scope.bindings.get(name, [])
        seen: dict[int, Binding] = {}
        for call in calls:
            for b in model.reaching(everything, model.loc(call).stmt):
                seen[id(b)] = b
        return list(seen.values()) or None

    def _module_level_calls(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel
    ) -> list[ast.Call]:
        key = (id(function), "calls")
        cached = self._module_calls.get(key)
        if cached is None:
            cached = []
            for call in model.calls_named([function.name]):
                call_loc = model.loc(call)
                if call_loc.scope is model.module_scope and any(
                    b.node is function for b in model.lookup(function.name, call_loc)
                ):
                    cached.append(call)
            self._module_calls[key] = cached
        return cached

    def _unbound_name(self, name: str, model: ModuleModel) -> frozenset[Value]:
        for star in self._stars(model):
            target = self.loader.module(model, _import_base(star))
            if target is None:
                if model is self.model:
                    self.imports_not_found.add(_import_base(star))
                continue
            mod, rest = target
            if rest:
                continue
            if _exported(mod, name):
                self.loaded[id(mod)] = mod
                found = self.module_attribute(mod, name)
                if found != U:
                    return found
        if (
            name
            in (
                "staticmethod",
                "classmethod",
                "property",
                "print",
                "list",
                "tuple",
                "dict",
                "getattr",
                "super",
                "globals",
            )
            or name in _BUILTINS_VALUE
        ):
            return frozenset({External(name)})
        return U

    def _stars(self, model: ModuleModel) -> list[ast.ImportFrom]:
        cached = self._star_imports.get(id(model))
        if cached is None:
            cached = [
                node
                for node in _module_level_statements(model.tree.body)
                if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
            ]
            self._star_imports[id(model)] = cached
        return cached

    def binding_value(self, b: Binding, env: Env, model: ModuleModel, use: Loc | None = None) -> frozenset[Value]:
        kind = b.kind
        if kind == "param":
            bound = env.get(b)
            if bound is not None:
                return bound
            return self._unbound_param(b, model)
        if kind == "def":  # a def binding's node is its def, a class binding's its class
            return self.def_value(cast(FunctionNode, b.node), model, env)
        if kind == "class":
            return self.class_value(cast(ast.ClassDef, b.node), model, env)
        if kind == "import":
            return self.import_value(b.qualname or "", model)
        if kind == "other" and b.scope.kind == "comprehension":
            return self._comprehension_target(b, env, model)
        if kind == "assign":
            value = self._assigned(b, env, model)
            if use is not None and any(isinstance(v, Seq) and v.kind == "list" for v in value):
                value = self._with_mutations(b, value, use, env, model)
            return value
        return U

    def _unbound_param(self, b: Binding, model: ModuleModel) -> frozenset[Value]:
        function = b.scope.node
        if b.param_index == 0 and isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            owner = b.scope.parent
            if owner is not None and owner.kind == "class":
                decorators = {_decorator_name(d) for d in function.decorator_list}
                cls = Class(cast(ast.ClassDef, owner.node), model)  # the scope of a class
                if "classmethod" in decorators:
                    return frozenset({cls})
                if "staticmethod" not in decorators:
                    return frozenset({Instance(cls)})
        default = _default_of(function, b)
        values: set[Value] = {Param(b)}
        if default is not None:
            values |= self.ev(default, model.loc(function), EMPTY_ENV, model)
        return frozenset(values)

    def _assigned(self, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value]:
        stmt = b.stmt
        here = Loc(b.scope, stmt)
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                path = _path_to(target, b.node)
                if path is not None:
                    return _destructure(self.ev(stmt.value, here, env, model), path)
            return U
        if isinstance(stmt, ast.AnnAssign):
            return self.ev(stmt.value, here, env, model) if stmt.value is not None else U
        if isinstance(stmt, ast.AugAssign):
            before = self.lookup(b.name, here, model)
            old = union(self.binding_value(x, env, model) for x in before if x is not b) if before else U
            new = self.ev(stmt.value, here, env, model)
            if isinstance(stmt.op, ast.Add):
                ls, rs = _single_known_seq(old), _single_known_seq(new)
                if ls is not None and rs is not None:
                    return frozenset({Seq(ls.kind, ls.elements() + rs.elements())})
            if any(isinstance(v, Array) for v in old | new):
                return frozenset({Array()})
            return U
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            path = _path_to(stmt.target, b.node)
            if path is None:
                return U
            return _destructure(self.iterate(self.ev(stmt.iter, here, env, model)), path)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                path = _path_to(item.optional_vars, b.node) if item.optional_vars is not None else None
                if path is not None:
                    return _destructure(self.entered(self.ev(item.context_expr, here, env, model)), path)
            return U
        if b.value is not None:  # walrus
            return self.ev(b.value, here, env, model)
        return U

    def dict_contents(self, d: DictV) -> DictV:
        return self.heap.dict_contents(d)

    def depends_on_unknown(self, values: frozenset[Value] | None) -> bool:
        """Whether a value set holds something not known here (Unknown, an unbound parameter)."""
        return values is None or any(isinstance(v, (Unknown, Param)) for v in values)

    def run_statement(self, stmt: ast.stmt, loc: Loc, model: ModuleModel) -> None:
        """Evaluate what a module-level statement does when the module is imported, for the heap:
        its imports load their modules, decorators and class statements run, calls are made."""
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = alias.asname or alias.name.split(".")[0]
                for b in model.module_scope.bindings.get(name, []):
                    if b.stmt is stmt and b.kind == "import" and b.qualname and b.qualname.startswith("."):
                        self.binding_value(b, EMPTY_ENV, model)
            return
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._run_decorators(stmt, model)
            return
        if isinstance(stmt, ast.ClassDef):
            for inner in stmt.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._run_decorators(inner, model)
            self.create_class(stmt, model)
            return
        for node in ast.iter_child_nodes(stmt):
            if isinstance(node, ast.expr) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
                self.ev(node, loc, EMPTY_ENV, model)

    def _run_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel) -> None:
        """A def's decorators run at import with the function: record each call for the heap and
        run the calls its body makes (`REG[name] = fn`, `_register(name, fn)`), without working out
        what it returns (a module of a hundred `@register_lowering_rule(...)` defs would otherwise
        summarise each wrapper)."""
        function: frozenset[Value] = frozenset({Func(node, model, EMPTY_ENV)})
        where = model.loc(node)
        for decorator in node.decorator_list:
            for d in self.ev(decorator, where, EMPTY_ENV, model):
                target, args = (
                    (d.func, [frozenset({d.receiver}), function]) if isinstance(d, BoundMethod) else (d, [function])
                )
                if not isinstance(target, Func):
                    continue
                env = self.bind_arguments(target, args, [])
                if env is not None:
                    self.heap.called(target.node, env)
                    self.run_calls_in(target, env)

    def run_calls_in(self, func: Func, env: Env) -> None:
        """Evaluate the calls a function body makes as statements (for what they store on the heap),
        once per environment."""
        key = ("ran", id(func.node), env)
        if key in self._memo or self._call_depth >= MAX_CALL_DEPTH or isinstance(func.node, ast.Lambda):
            return
        self._memo[key] = NONE_SET
        scope = func.model.function_scope(func.node)
        self._call_depth += 1
        try:
            for stmt in _own_statements(func.node.body):
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                    self.ev(stmt.value, Loc(scope, stmt), env, func.model)
        finally:
            self._call_depth -= 1

    def entered(self, managers: frozenset[Value]) -> frozenset[Value]:
        """What `with manager as x` binds to x: the value of the manager's `__enter__()`."""
        return union(self.call_method(v, "__enter__", []) for v in managers)

    def call_method(self, receiver: Value, name: str, args: list[frozenset[Value]]) -> frozenset[Value]:
        """`receiver.name(*args)` for an instance of a class that defines it (else Unknown)."""
        if not isinstance(receiver, Instance):
            return U
        methods = self.class_attribute(receiver.cls, name, receiver)
        if not methods:
            return U
        return union(self.apply(m, args, [], None, None, EMPTY_ENV, receiver.cls.model) for m in methods)

    def _with_mutations(
        self, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
    ) -> frozenset[Value]:
        """A list display bound to a name, grown by `.append` / `.extend` before the use."""
        mutations = self._mutations_of(b, model)
        if not mutations:
            return value
        use_pos = _position(use.stmt) if use.stmt is not None and use.scope is b.scope else (1 << 30, 0)
        bound_pos = _position(b.stmt)
        chain = model.block_chain.get(id(b.stmt), ())
        elts = _single_known_seq(value)
        members = set(v for s in value if isinstance(s, Seq) for v in s.all_members())
        known = elts is not None and len(value) == 1
        out = list(elts.elements()) if elts is not None and known else []
        for m in mutations:
            where = model.loc(m.call)
            if not (bound_pos < _position(m.call) < use_pos):
                continue
            if where.scope is not b.scope:
                known = False
            if model.block_chain.get(id(where.stmt), ()) != chain:
                known = False  # inside a loop or a branch: how often it runs is not known
            later = [x for x in self.lookup(b.name, where, model) if x is not b]
            if later:
                continue  # the name means another list by then
            args = [self.ev(a, where, env, model) for a in m.call.args]
            if m.method == "append" and len(args) == 1:
                out.append(args[0])
                members |= args[0]
            elif m.method == "extend" and len(args) == 1:
                seq = _single_known_seq(args[0])
                if seq is not None:
                    out.extend(seq.elements())
                    members |= seq.all_members()
                else:
                    known = False
                    members |= self.iterate(args[0])
            elif m.method == "insert" and len(args) == 2:
                known = False
                members |= args[1]
            else:
                known = False
        if known:
            return frozenset({Seq("list", tuple(out), site=elts.site if elts is not None else 0)})
        return frozenset({Seq("list", None, frozenset(members) or U, elts.site if elts is not None else 0)})

    def _mutations_of(self, b: Binding, model: ModuleModel) -> list[_Mutation]:
        by_name = self._mutations.get(id(model))
        if by_name is None:
            by_name = {}
            for call in model.calls_with_attribute(("append", "extend", "insert")):
                receiver = call.func.value  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
                if isinstance(receiver, ast.Name):
                    by_name.setdefault(receiver.id, []).append(_Mutation(call, call.func.attr))  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
            self._mutations[id(model)] = by_name
        return by_name.get(b.name, [])

    # ----------------------------------------------------------------- defs and imports
    def def_value(
        self, node: FunctionNode, model: ModuleModel, env: Env, undecorated: frozenset[Value] | None = None
    ) -> frozenset[Value]:
        """A def's (or, given its `undecorated` value, a class's) value with its decorators applied
        (innermost first)."""
        values: frozenset[Value] = undecorated or frozenset({Func(node, model, env)})
        decorators = getattr(node, "decorator_list", [])
        if not decorators:
            return values
        key = ("def", id(node), env)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._active:
            return values
        self._active.add(key)
        try:
            where = model.loc(node)
            for decorator in reversed(decorators):
                applied = self.ev(decorator, where, env, model)
                values = union(self.decorate(d, values, decorator, node, where, env, model) for d in applied)
        finally:
            self._active.discard(key)
        self._memo[key] = values
        return values

    def class_value(self, node: ast.ClassDef, model: ModuleModel, env: Env) -> frozenset[Value]:
        """A class statement's value with its decorators applied (`@register` may return the class
        or something else; one that cannot be followed leaves the class)."""
        cls: frozenset[Value] = frozenset({Class(node, model)})
        if not node.decorator_list:
            return cls
        values = self.def_value(cast(FunctionNode, node), model, env, cls)
        return values | cls if UNKNOWN in values else values

    def create_class(self, node: ast.ClassDef, model: ModuleModel) -> None:
        """What a class statement runs when it executes, for the heap: its decorators, its bases'
        `__init_subclass__`, its metaclass's `__new__` and `__init__`."""
        self.class_value(node, model, EMPTY_ENV)
        cls = Class(node, model)
        where = model.loc(node)
        keywords = [(k.arg, self.ev(k.value, where, EMPTY_ENV, model)) for k in node.keywords if k.arg]
        hooks = [(k, v) for k, v in keywords if k != "metaclass"]
        bases = union(self.ev(b, where, EMPTY_ENV, model) for b in node.bases)
        for base in bases:
            if isinstance(base, Class):
                for hook in self.class_attribute(base, "__init_subclass__", None):
                    self.apply(_unwrapped(hook), [frozenset({cls})], hooks, None, None, EMPTY_ENV, model)
        metaclasses = dict(keywords).get("metaclass") or union(self._metaclass_of(b) for b in bases)
        if not metaclasses:
            return
        namespace = self._class_namespace(node, model)
        name = frozenset({Const(node.name)})
        base_tuple = frozenset({Seq("tuple", tuple(frozenset({b}) for b in bases))})
        for meta in metaclasses:
            if not isinstance(meta, Class):
                continue
            for method in ("__new__", "__init__"):
                receiver = frozenset({meta}) if method == "__new__" else frozenset({cls})
                for hook in self.class_attribute(meta, method, None):
                    self.apply(
                        _unwrapped(hook), [receiver, name, base_tuple, namespace], [], None, None, EMPTY_ENV, model
                    )

    def _metaclass_of(self, base: Value, depth: int = 0) -> frozenset[Value]:
        """The metaclass a class statement inherits from a base (`class B(metaclass=M)`)."""
        if not isinstance(base, Class) or depth > 8:
            return frozenset()
        where = base.model.loc(base.node)
        for k in base.node.keywords:
            if k.arg == "metaclass":
                return self.ev(k.value, where, EMPTY_ENV, base.model)
        return union(
            self._metaclass_of(b, depth + 1) for e in base.node.bases for b in self.ev(e, where, EMPTY_ENV, base.model)
        )

    def _class_namespace(self, node: ast.ClassDef, model: ModuleModel) -> frozenset[Value]:
        """A class body's names as the dict a metaclass receives (`ns["kernel"]`)."""
        scope = model.scope_of_function.get(id(node))
        if scope is None:
            return U
        items = tuple(
            (name, union(self.binding_value(b, EMPTY_ENV, model) for b in model.reaching(bindings, None)))
            for name, bindings in scope.bindings.items()
        )
        return frozenset({DictV(items, union(v for _, v in items))})

    def decorate(
        self,
        decorator: Value,
        values: frozenset[Value],
        deco_node: ast.expr,
        def_node: ast.AST,
        loc: Loc,
        env: Env,
        model: ModuleModel,
    ) -> frozenset[Value]:
        if isinstance(decorator, External):
            q = decorator.qualname
            if q in _DESCRIPTORS:
                return frozenset({Wrapped(_DESCRIPTORS[q], v) for v in values})
            if modelled(q) is not None:
                return self.call_value(decorator, [values], [], None)
            return values  # an unknown decorator: assume it hands the function back
        if isinstance(decorator, (Entry, Factory)) or (isinstance(decorator, Partial) and _entry_of(decorator)):
            if self.on_decorator_launch is not None:
                launched = self.on_decorator_launch(decorator, values, deco_node, def_node, loc, env, model)
                if launched is not None:
                    return launched
            return U
        if isinstance(decorator, (Func, Partial, BoundMethod, Class)):
            return self.call_value(decorator, [values], [], None)
        if isinstance(decorator, Unknown):
            return values  # unresolvable: the old, pass-through reading
        if isinstance(decorator, _WhenDecorator):
            return NONE_SET
        return U

    def import_value(self, dotted: str, model: ModuleModel) -> frozenset[Value]:
        if not dotted:
            return U
        if not dotted.startswith("."):
            root = dotted.split(".", 1)[0]
            if root in EXTERNAL_ROOTS:
                return frozenset({external(dotted)})
        target = self.loader.module(model, dotted)
        if target is None:
            if model is self.model:
                self.imports_not_found.add(dotted)
            return frozenset({external(dotted)}) if not dotted.startswith(".") else U
        mod, rest = target
        self.loaded[id(mod)] = mod
        values: frozenset[Value] = frozenset({Module(mod)})
        for attr in rest:
            values = union(self.attribute(v, attr, model) for v in values)
        return values

    def module_attribute(self, mod: ModuleModel, name: str) -> frozenset[Value]:
        key = ("modattr", id(mod), name)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._active:
            return U
        self._active.add(key)
        try:
            bindings = mod.reaching(mod.module_scope.bindings.get(name, []), None)
            if bindings:
                values = union(self.binding_value(b, EMPTY_ENV, mod) for b in bindings)
                entries = frozenset(v for v in values if isinstance(v, Entry))
                result = entries or values
            else:
                result = self._unbound_name(name, mod)
                if result == U:
                    sub = self.loader.module(mod, "." + name) if _is_package(self.loader.path_of(mod)) else None
                    if sub is not None and not sub[1]:
                        self.loaded[id(sub[0])] = sub[0]
                        result = frozenset({Module(sub[0])})
        finally:
            self._active.discard(key)
        self._memo[key] = result
        return result

    # ----------------------------------------------------------------------- attributes
    def attribute(self, value: Value, attr: str, model: ModuleModel) -> frozenset[Value]:
        if isinstance(value, External):
            return frozenset({external(f"{value.qualname}.{attr}")})
        if isinstance(value, Module):
            return self.module_attribute(value.model, attr)
        if isinstance(value, Super):
            return self._super_attribute(value, attr)
        if isinstance(value, Instance):
            return self.instance_attribute(value, attr)
        if isinstance(value, Class):
            return self.class_attribute(value, attr, None)
        if isinstance(value, (Ref, RefView)) and attr in _STATIC_ARRAY_ATTRIBUTES:
            return frozenset({Opaque("static")})  # `y_ref.shape`: a tuple, never None
        if isinstance(value, Ref):
            return frozenset({RefView(value)}) if attr == "at" else frozenset({_RefMethod(attr, value)})
        if isinstance(value, RefView):
            return frozenset({_RefMethod(attr, value.ref)})
        if isinstance(value, Array):
            if attr in _STATIC_ARRAY_ATTRIBUTES:
                return _static_array_attribute(value, attr)
            if attr == "T" and value.shape is not None:
                return frozenset({Array(value.origin, value.shape[::-1], value.dtype)})
            if attr in ("T", "mT", "real", "imag"):
                return frozenset({value})
            if attr == "at":
                return frozenset({_ArrayAt(value.origin)})
            return frozenset({_ArrayMethod(value.origin, attr, value)})
        if isinstance(value, _ArrayAt):
            return frozenset({_ArrayMethod(value.origin, "at-update")})
        if isinstance(value, DictV):
            return frozenset({_DictMethod(self.dict_contents(value), attr)})
        if isinstance(value, Seq):
            return frozenset({_SeqMethod(value, attr)})
        if isinstance(value, Wrapped):
            return U
        if isinstance(value, Param):
            return frozenset({_ParamMethod(attr)}) if attr in NONE_METHODS else U
        return U

    def _super_attribute(self, sup: Super, attr: str) -> frozenset[Value]:
        """`super().attr`: looked up on the bases of the class `super()` was written in."""
        where = sup.cls.model.loc(sup.cls.node)
        instance = sup.receiver if isinstance(sup.receiver, Instance) else None
        for base_expr in sup.cls.node.bases:
            for base in self.ev(base_expr, where, EMPTY_ENV, sup.cls.model):
                if isinstance(base, Class):
                    found = self.class_attribute(base, attr, instance)
                    if found:
                        if isinstance(sup.receiver, Class):  # in a classmethod: bound to the class
                            return frozenset(
                                BoundMethod(v.func, sup.receiver) if isinstance(v, BoundMethod) else v for v in found
                            )
                        return found
        return U

    def class_attribute(self, cls: Class, attr: str, instance: Instance | None, depth: int = 0) -> frozenset[Value]:
        """`attr` looked up on a class (and its bases), bound to `instance` when given."""
        if depth > 8:
            return U
        class_scope = cls.model.scope_of_function.get(id(cls.node))
        bindings = class_scope.bindings.get(attr, []) if class_scope is not None else []
        if bindings:
            values = union(self.binding_value(b, EMPTY_ENV, cls.model) for b in cls.model.reaching(bindings, None))
            return union(_bind_attribute(v, instance, cls, self) for v in values)
        for base in cls.node.bases:
            for base_value in self.ev(base, cls.model.loc(cls.node), EMPTY_ENV, cls.model):
                if isinstance(base_value, Class):
                    found = self.class_attribute(base_value, attr, instance, depth + 1)
                    if found:
                        return found
        stored = self.heap.attribute(cls, attr)  # `setattr(cls, name, fn)`, `Cls.attr = v`
        return union(_bind_attribute(v, instance, cls, self) for v in stored) if stored else frozenset()

    def instance_attribute(self, inst: Instance, attr: str) -> frozenset[Value]:
        for name, value in inst.fields:
            if name == attr:
                return value | self.heap.attribute(inst, attr)
        assigned = self._self_assignments(inst.cls).get(attr, [])
        values: set[Any] = set()
        for expr, method, self_binding, stmt in assigned:
            env = inst.init_env if (inst.init_env is not None and method.name == "__init__") else EMPTY_ENV
            env = env.extended([(self_binding, frozenset({inst}))])
            values |= self.ev(expr, Loc(inst.cls.model.function_scope(method), stmt), env, inst.cls.model)
        from_class = self.class_attribute(inst.cls, attr, inst)
        values |= from_class
        values |= self.heap.attribute(inst, attr)  # `obj.attr = v`, `setattr(obj, name, v)`
        values |= self.heap.self_stores(inst, attr)  # `self.attr = v` as methods ran on it
        if not values:
            # inherited self.x from a base class body's methods
            for base in inst.cls.node.bases:
                for base_value in self.ev(base, inst.cls.model.loc(inst.cls.node), EMPTY_ENV, inst.cls.model):
                    if isinstance(base_value, Class):
                        values |= self.instance_attribute(Instance(base_value, None, inst.fields), attr)
        return frozenset(values) if values else U

    def _self_assignments(self, cls: Class) -> dict[str, list[Any]]:
        """`self.attr = value` in the methods of a class: attr -> [(value, method, self binding, stmt)]."""
        cached = self._instance_attrs.get(id(cls.node))
        if cached is not None:
            return cached
        # Kept on the class node too, for the next versions of an edited document while its block
        # is unchanged (a test class of a thousand lines is walked once, not on every keystroke).
        # Valid for the scopes it was found with: a model built anew over the same tree has others.
        class_scope = cls.model.scope_of_function.get(id(cls.node))
        kept: tuple[Scope, dict[str, list[Any]]] | None = getattr(cls.node, "_pallas_ls_self_assignments", None)
        if kept is not None and kept[0] is class_scope and class_scope is not None:
            self._instance_attrs[id(cls.node)] = kept[1]
            return kept[1]
        found: dict[str, list[Any]] = {}
        for stmt in cls.node.body:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = positional_args(stmt)
            if not params:
                continue
            self_name = params[0].arg
            scope = cls.model.scope_of_function.get(id(stmt))
            if scope is None:
                continue
            self_bindings = [b for b in scope.bindings.get(self_name, []) if b.kind == "param"]
            if not self_bindings:
                continue
            for node in _statements_under(stmt):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if (
                            isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Name)
                            and target.value.id == self_name
                        ):
                            found.setdefault(target.attr, []).append((node.value, stmt, self_bindings[0], node))
        self._instance_attrs[id(cls.node)] = found
        cls.node._pallas_ls_self_assignments = (class_scope, found)  # type: ignore[attr-defined]  # a cache kept on the class node
        return found

    # ----------------------------------------------------------------------- subscripts
    def subscript(self, value: Value, index: frozenset[Value]) -> frozenset[Value]:
        const = next(iter(index)) if len(index) == 1 else None
        key = const.value if isinstance(const, Const) else None
        if isinstance(value, Seq):
            value = self.heap.list_contents(value)
            if value.elts is not None and isinstance(key, int) and not isinstance(key, bool):
                if -len(value.elts) <= key < len(value.elts):
                    return value.elts[key]
                return U
            return value.all_members() | U if value.elts is None else value.all_members()
        if isinstance(value, DictV):
            value = self.dict_contents(value)
            if value.items is not None and isinstance(const, Const):
                return value.lookup(key, U)
            return value.all_values()
        if isinstance(value, RefView):
            return frozenset({value.ref})
        if isinstance(value, Ref):
            return frozenset({Array()})
        if isinstance(value, Array):
            return frozenset({value})
        if isinstance(value, _ArrayAt):
            return frozenset({_ArrayAt(value.origin)})
        if isinstance(value, Class):
            return frozenset({value})  # generics: Foo[int]
        if isinstance(value, Instance):
            return self.call_method(value, "__getitem__", [index])
        if isinstance(value, Module):  # `globals()[name]`
            names = [v.value for v in index if isinstance(v, Const) and isinstance(v.value, str)]
            if names and len(names) == len(index):
                return union(self.module_attribute(value.model, n) for n in names)
            return U
        if isinstance(value, Param):
            return frozenset({Array("traced")})  # a kernel's ref read
        if isinstance(value, (Unknown, ApiResult, External, Opaque, Const)):
            return frozenset({Opaque("item")})  # indexing gives a value, of a kind we cannot tell
        return U

    def iterate(self, values: frozenset[Value]) -> frozenset[Value]:
        """What iterating over a value can give (the elements of a known container)."""
        out: set[Any] = set()
        for v in values:
            if isinstance(v, Seq):
                out |= self.heap.list_contents(v).all_members()
            elif isinstance(v, DictV):
                v = self.dict_contents(v)
                out |= {Const(k) for k, _ in v.items} if v.items is not None else {UNKNOWN}
            elif isinstance(v, Array):
                out.add(v)
            elif isinstance(v, Generator):
                out |= self._yielded(v)
            elif isinstance(v, Instance):
                out |= self.iterate(self.call_method(v, "__iter__", []))
            else:
                out.add(UNKNOWN)
        return frozenset(out) if out else U

    def _yielded(self, gen: Generator) -> frozenset[Value]:
        """What a generator can yield: its own `yield x` values and what its `yield from`s iterate."""
        key = ("yields", id(gen.func.node), gen.env)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._active or self._call_depth >= MAX_CALL_DEPTH:
            return U
        self._active.add(key)
        self._call_depth += 1
        try:
            model = gen.func.model
            out: set[Value] = set()
            for node, stmt in own_yields(gen.func.node):
                where = Loc(model.function_scope(gen.func.node), stmt)
                if isinstance(node, ast.YieldFrom):
                    out |= self.iterate(self.ev(node.value, where, gen.env, model))
                elif node.value is None:
                    out.add(NONE)
                else:
                    out |= self.ev(node.value, where, gen.env, model)
            result = frozenset(out) if out else U
        finally:
            self._call_depth -= 1
            self._active.discard(key)
        self._memo[key] = result
        return result

    # ---------------------------------------------------------------------------- calls
    def _ev_call(self, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        callee = self.ev(call.func, loc, env, model)
        args, unknown_rest = self._call_args(call, loc, env, model)
        keywords, unknown_kw = self._call_keywords(call, loc, env, model)
        results: set[Any] = set()
        for target in callee:
            results |= self.apply(
                target, args, keywords, call, loc, env, model, unknown_rest=unknown_rest, unknown_kw=unknown_kw
            )
        return frozenset(results) if results else U

    def _call_args(self, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> tuple[list[frozenset[Value]], bool]:
        args: list[frozenset[Value]] = []
        for a in call.args:
            if isinstance(a, ast.Starred):
                seq = _single_known_seq(self.ev(a.value, loc, env, model))
                if seq is None:
                    return args, True
                args.extend(seq.elements())
            else:
                args.append(self.ev(a, loc, env, model))
        return args, False

    def _call_keywords(
        self, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
    ) -> tuple[list[tuple[str, frozenset[Value]]], bool]:
        keywords: list[tuple[str, frozenset[Value]]] = []
        unknown = False
        for k in call.keywords:
            if k.arg is None:
                d = _single_known_str_dict(self.ev(k.value, loc, env, model))
                if d is not None:
                    keywords.extend(cast("tuple[tuple[str, frozenset[Value]], ...]", d.known_items()))  # str keys
                else:
                    unknown = True
            else:
                keywords.append((k.arg, self.ev(k.value, loc, env, model)))
        return keywords, unknown

    def apply(
        self,
        target: Value,
        args: list[Any],
        keywords: list[Any],
        call: ast.Call | None,
        loc: Loc | None,
        env: Env,
        model: ModuleModel,
        unknown_rest: bool = False,
        unknown_kw: bool = False,
    ) -> frozenset[Value]:
        """What calling `target` with these argument value sets gives."""
        if isinstance(target, Func):
            if self.on_function_call is not None and call is not None:
                self.on_function_call(target, args, keywords, unknown_rest, unknown_kw)
            result = self.call_function(target, args, keywords, unknown_rest, unknown_kw)
            return _fresh_refs(result, args, keywords, call) if call is not None else result
        if isinstance(target, BoundMethod):
            return self.apply(
                target.func,
                [frozenset({target.receiver}), *args],
                keywords,
                call,
                loc,
                env,
                model,
                unknown_rest,
                unknown_kw,
            )
        if isinstance(target, Partial):
            entry = _entry_of(target)
            if entry is not None and call is not None:
                return self._entry_call(target, call, loc, env, model)
            merged = dict(target.keywords)
            merged.update(dict(keywords))
            return self.apply(
                target.target,
                list(target.args) + args,
                list(merged.items()),
                call,
                loc,
                env,
                model,
                unknown_rest,
                unknown_kw,
            )
        if isinstance(target, Class):
            return self._construct(target, args, keywords, unknown_rest, unknown_kw, id(call) if call else 0)
        if isinstance(target, Instance):
            method = self.class_attribute(target.cls, "__call__", target)
            return (
                union(self.apply(m, args, keywords, call, loc, env, model, unknown_rest, unknown_kw) for m in method)
                if method
                else U
            )
        if isinstance(target, Entry):
            return self._entry_call(target, call, loc, env, model) if call is not None else U
        if isinstance(target, Factory):
            if self.on_factory_call is not None and call is not None and args:
                return self.on_factory_call(target, call, loc, env, model) or U
            return U
        if isinstance(target, Launched):
            if self.on_invocation is not None and call is not None:
                self.on_invocation(target, call, loc, env, model)
            return frozenset({Array()})
        if isinstance(target, External):
            return self._external_call(target.qualname, args, keywords, call, loc, env, model, unknown_rest, unknown_kw)
        if isinstance(target, _ArrayMethod):
            return frozenset({_array_method_result(target, args, keywords)})
        if isinstance(target, (_RefMethod, _ParamMethod)):
            return NONE_SET if target.attr in NONE_METHODS else U
        if isinstance(target, _DictMethod):
            return target.call(args)
        if isinstance(target, _SeqMethod):
            if target.attr in ("index", "count"):
                return frozenset({Opaque("int")})
            if target.attr in ("append", "extend", "insert", "sort", "reverse", "clear", "remove"):
                return NONE_SET
            if target.attr == "copy":
                return frozenset({target.seq})
            return U
        if isinstance(target, _WhenDecorator):
            return NONE_SET
        if isinstance(target, Wrapped):
            return self.apply(target.func, args, keywords, call, loc, env, model, unknown_rest, unknown_kw)
        return U

    def call_value(
        self,
        target: Value,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        call: ast.Call | None,
    ) -> frozenset[Value]:
        return self.apply(target, args, keywords, call, None, EMPTY_ENV, self.model)

    def _entry_call(
        self, target: Value, call: ast.Call, loc: Loc | None, env: Env, model: ModuleModel
    ) -> frozenset[Value]:
        if self.on_entry_call is None or loc is None:
            return U
        result = self.on_entry_call(target, call, loc, env, model)
        return result if result is not None else U

    def _construct(
        self,
        cls: Class,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        unknown_rest: bool,
        unknown_kw: bool,
        site: int = 0,
    ) -> frozenset[Value]:
        """An instance of `cls` made by a call (`site`, its id): its `__init__`'s arguments bound."""
        if _is_dataclass(cls.node):
            declared = [s for s in cls.node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
            names = [cast(ast.Name, s.target).id for s in declared]
            fields = list(zip(names, args, strict=False))
            given = dict(keywords)
            for declaration, name in list(zip(declared, names, strict=True))[len(args) :]:
                if name in given:
                    fields.append((name, given[name]))
                elif _plain_default(declaration) and not (unknown_rest or unknown_kw):
                    # A field's default is the instance's own attribute: a function there is not
                    # bound as a method would be (`cfg.kernel` with `kernel: Callable = plain`).
                    fields.append(
                        (
                            name,
                            self.ev(
                                cast(ast.expr, declaration.value), cls.model.loc(declaration), EMPTY_ENV, cls.model
                            ),
                        )
                    )
            return frozenset({Instance(cls, None, tuple(fields), site)})
        init = self.class_attribute(cls, "__init__", None)
        inits = [v for v in init if isinstance(v, Func)]
        if len(inits) != 1 or len(init) != 1:
            return frozenset({Instance(cls, site=site)})
        func = inits[0]
        placeholder = frozenset({Instance(cls)})
        bound = self.bind_arguments(func, [placeholder, *args], keywords, unknown_rest, unknown_kw)
        if bound is None:
            return frozenset({Instance(cls, site=site)})
        params = positional_args(func.node)
        self_binding = _param_binding(func, params[0].arg) if params else None
        pairs = [(b, v) for b, v in bound.items if b is not self_binding]
        instance = Instance(cls, Env(tuple(pairs)), site=site)
        if self_binding is not None:  # what __init__ stores on the heap, it stores on this instance
            init_env = bound.extended([(self_binding, frozenset({instance}))])
            self.heap.called(func.node, init_env)
            self.run_calls_in(func, init_env)  # `super().__init__(...)`, `self.setup()`, `REG.add(self)`
        return frozenset({instance})

    def bind_arguments(
        self,
        func: Func,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        unknown_rest: bool = False,
        unknown_kw: bool = False,
    ) -> Env | None:
        """The function's parameters bound to a call's arguments (None: the call cannot bind)."""
        node = func.node
        a = node.args
        scope = func.model.scope_of_function.get(id(node))
        if scope is None:
            return None
        by_name = {name: bs[0] for name, bs in scope.bindings.items() for _ in [0] if bs and bs[0].kind == "param"}
        positional = positional_args(node)
        pairs: list[tuple[Binding, frozenset[Value]]] = []
        given = dict(keywords)
        defaults = list(a.defaults)
        first_default = len(positional) - len(defaults)
        def_loc = func.model.loc(node)
        for index, param in enumerate(positional):
            binding = by_name.get(param.arg)
            if binding is None:
                continue
            if index < len(args):
                pairs.append((binding, args[index]))
            elif param.arg in given:
                pairs.append((binding, given.pop(param.arg)))
            elif unknown_rest or unknown_kw:
                pairs.append((binding, U))
            elif index >= first_default:
                pairs.append((binding, self.ev(defaults[index - first_default], def_loc, func.env, func.model)))
            else:
                pairs.append((binding, U))  # missing: a TypeError at run time, not our business here
        extra = args[len(positional) :]
        if a.vararg is not None and a.vararg.arg in by_name:
            pairs.append(
                (
                    by_name[a.vararg.arg],
                    frozenset({Seq("tuple", None, U)}) if unknown_rest else frozenset({Seq("tuple", tuple(extra))}),
                )
            )
        for param, default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
            binding = by_name.get(param.arg)
            if binding is None:
                continue
            if param.arg in given:
                pairs.append((binding, given.pop(param.arg)))
            elif unknown_kw:
                pairs.append((binding, U))
            elif default is not None:
                pairs.append((binding, self.ev(default, def_loc, func.env, func.model)))
            else:
                pairs.append((binding, U))
        if a.kwarg is not None and a.kwarg.arg in by_name:
            pairs.append(
                (
                    by_name[a.kwarg.arg],
                    frozenset({DictV(None, U)})
                    if unknown_kw
                    else frozenset({DictV(tuple(given.items()), union(given.values()))}),
                )
            )
        return func.env.extended(pairs)

    def call_function(
        self,
        func: Func,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        unknown_rest: bool = False,
        unknown_kw: bool = False,
    ) -> frozenset[Value]:
        """A project function's result for these arguments: its return summary."""
        node = func.node
        if isinstance(node, ast.AsyncFunctionDef):
            return frozenset({Opaque("coroutine")})
        if is_generator(node):
            env = self.bind_arguments(func, args, keywords, unknown_rest, unknown_kw)
            if env is not None:
                self.heap.called(node, env)
            return frozenset({Generator(func, env)}) if env is not None else frozenset({Opaque("generator")})
        if self._call_depth >= MAX_CALL_DEPTH or len(self._summaries) >= MAX_SUMMARIES:
            return U
        env = self.bind_arguments(func, args, keywords, unknown_rest, unknown_kw)
        if env is None:
            return U
        self.heap.called(node, env)
        key = (id(node), env)
        cached = self._summaries.get(key)
        if cached is not None:
            return cached
        if key in self._active:
            return U
        self._active.add(key)
        self._call_depth += 1
        try:
            result = self.returns_of(func, env)
        finally:
            self._call_depth -= 1
            self._active.discard(key)
        self._summaries[key] = result
        return result

    def returns_of(self, func: Func, env: Env) -> frozenset[Value]:
        """The union of what a function's reachable returns give (None when it can run off the end)."""
        node = func.node
        model = func.model
        if isinstance(node, ast.Lambda):
            return self.ev(node.body, Loc(model.function_scope(node), None), env, model)
        values: set[Any] = set()
        for ret in self.reachable_returns(func, env):
            if ret.value is None:
                values.add(NONE)
            else:
                values |= self.ev(ret.value, model.loc(ret), env, model)
        if _may_fall_through(node.body, lambda test, stmt: self._static_truth(test, stmt, func, env)):
            values.add(NONE)
        return frozenset(values) if values else NONE_SET

    def reachable_returns(self, func: Func, env: Env) -> Iterator[ast.Return]:
        """The function's own returns, but for those in a branch whose test is constant for `env`."""
        node = func.node
        if not env.items or isinstance(node, ast.Lambda):  # a lambda has no return statement
            yield from own_returns(node)
            return
        stack: list[ast.AST] = list(reversed(node.body))
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, ast.Return):
                yield stmt
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or not isinstance(
                stmt, ast.stmt
            ):
                continue
            if isinstance(stmt, ast.If):
                truth = self._static_truth(stmt.test, stmt, func, env)
                branches = (
                    [stmt.body] if truth is True else [stmt.orelse] if truth is False else [stmt.body, stmt.orelse]
                )
                for branch in reversed(branches):
                    stack.extend(reversed(branch))
                continue
            for name in ("body", "orelse", "finalbody", "handlers", "cases"):
                children = getattr(stmt, name, None)
                if children:
                    stack.extend(reversed([c for c in children]))
            if isinstance(stmt, ast.ExceptHandler) or (
                sys.version_info >= (3, 10) and isinstance(stmt, ast.match_case)
            ):
                stack.extend(reversed(stmt.body))

    def _static_truth(self, test: ast.expr, stmt: ast.stmt, func: Func, env: Env) -> bool | None:
        model = func.model
        return _truth(self.ev(test, Loc(model.function_scope(func.node), stmt), env, model))

    def _partial_arguments_as_written(
        self, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
    ) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
        """functools.partial(target, ...)'s bound arguments as the launch's layout reads them: the
        expressions written, a known splat's entries as `Evaluated` values, and whether some splat
        is unknown (then the arguments are hidden)."""
        arg_exprs: list[Any] = []
        keyword_exprs: list[Any] = []
        hidden = False
        for e in call.args[1:]:
            if not isinstance(e, ast.Starred):
                arg_exprs.append((e, loc, env))
                continue
            seq = _single_known_seq(self.ev(e.value, loc, env, model))
            if seq is None:
                hidden = True
            else:
                arg_exprs += [(Evaluated(v, e), loc, env) for v in seq.elements()]
        for k in call.keywords:
            if k.arg:
                keyword_exprs.append((k.arg, k.value, loc, env))
                continue
            d = _single_known_str_dict(self.ev(k.value, loc, env, model))
            if d is None:
                hidden = True
            else:
                keyword_exprs += [(key, Evaluated(v, k.value), loc, env) for key, v in d.known_items()]
        return tuple(arg_exprs), tuple(keyword_exprs), hidden

    def _external_call(
        self,
        q: str,
        args: list[frozenset[Value]],
        keywords: list[tuple[str, frozenset[Value]]],
        call: ast.Call | None,
        loc: Loc | None,
        env: Env,
        model: ModuleModel,
        unknown_rest: bool = False,
        unknown_kw: bool = False,
    ) -> frozenset[Value]:
        if q == PARTIAL:
            if not args:
                return U
            if call is not None and loc is not None:
                arg_exprs, keyword_exprs, hidden = self._partial_arguments_as_written(call, loc, env, model)
            else:  # applied from a value: what it binds has no expression to read
                arg_exprs, keyword_exprs, hidden = (), (), len(args) > 1 or bool(keywords)
            return frozenset(
                _partial_of(inner, tuple(args[1:]), tuple(keywords), arg_exprs, keyword_exprs, hidden)
                for inner in args[0]
            )
        if q in PASS_THROUGH:
            # named_call(f) -> f; named_scope("name") / jit(**kw) -> a decorator that hands f back
            if args and not all(isinstance(v, (Const, Opaque)) for v in args[0]):
                return args[0]
            return frozenset({External(q)})
        if q in _DESCRIPTORS and args:
            return frozenset({Wrapped(_DESCRIPTORS[q], v) for v in args[0]})
        if q in REF_CONSTRUCTORS and call is not None:
            return frozenset({Ref(call)})
        if q in NONE_APIS:
            return NONE_SET
        if q in SHAPE_STRUCTS:
            return frozenset(
                {
                    ShapeStruct(
                        shape_of(_argument(args, keywords, 0, "shape")), dtype_of(_argument(args, keywords, 1, "dtype"))
                    )
                }
            )
        if q in _LOOPS_WITH_INIT:
            index, name = _LOOPS_WITH_INIT[q]
            if len(args) > index:
                return args[index]
            return dict(keywords).get(name, U)
        if q == "jax.lax.cond" and len(args) >= 3:
            operands = args[3:]
            return union(self.apply(f, operands, [], None, None, EMPTY_ENV, model) for b in args[1:3] for f in b)
        if q == "jax.lax.switch" and len(args) >= 2:
            branches = self.iterate(args[1])
            return union(self.apply(f, args[2:], [], None, None, EMPTY_ENV, model) for f in branches)
        if q == "jax.experimental.pallas.run_scoped" and args:
            return union(self._scoped_result(f, model) for f in args[0])
        if q == "jax.experimental.pallas.when":
            return frozenset({_WhenDecorator()})
        if q in VALUE_APIS:
            return frozenset({Opaque("pallas")})
        if q.startswith("numpy."):
            return (
                frozenset({_constructed("numpy", q, args, keywords)})
                if q.count(".") == 1
                else frozenset({Opaque("numpy")})
            )
        if q.startswith(ARRAY_PREFIXES) and q not in _NON_ARRAY_JNP:
            return frozenset({_constructed("jax", q, args, keywords)})
        if q in _LAX_ARRAYS:
            return frozenset({Array()})
        if q.startswith("jax.lax."):
            return frozenset({Opaque("lax")}) if q != "jax.lax.scan" else frozenset({Seq("tuple", (U, U))})
        if q in ("list", "tuple"):
            if not args:
                return frozenset({Seq(q, ())})
            seq = _single_known_seq(args[0])
            if seq is not None:
                return frozenset({Seq(q, seq.elts)})
            return frozenset({Seq(q, None, self.iterate(args[0]))})
        if q in _DICT_TYPES and not args:
            toplevel = loc is not None and loc.scope.kind in ("module", "class")
            site = id(call) if call is not None else 0
            return frozenset({DictV(tuple(keywords), union(v for _, v in keywords), site, toplevel)})
        if q == "getattr" and len(args) >= 2:
            named = next(iter(args[1])) if len(args[1]) == 1 else None
            if isinstance(named, Const) and isinstance(named.value, str):
                found = union(self.attribute(v, named.value, model) for v in args[0])
                return found | (args[2] if len(args) > 2 else frozenset())
            names = [v.value for v in args[1] if isinstance(v, Const) and isinstance(v.value, str)]
            if len(names) == len(args[1]):  # one of a few known names
                found = union(self.attribute(v, n, model) for v in args[0] for n in names)
                return found | (args[2] if len(args) > 2 else frozenset())
            # A computed name: whatever the program stored on the object under any name (a
            # namespace filled by setattr), never its methods or class attributes.
            stored = union(self.heap.attribute(v, None) for v in args[0])
            stored |= union(value for v in args[0] if isinstance(v, Instance) for _, value in v.fields)
            return stored | U if stored else U
        if q == "len" and len(args) == 1:
            size = _known_length(args[0])
            if size is not None:  # `num_scalar_prefetch=len(scalar_prefetches)`
                return frozenset({Const(size)})
        if q == "collections.defaultdict":
            # Keys unknown; a missing key reads what the factory makes.
            made = union(self.apply(f, [], [], None, None, EMPTY_ENV, model) for f in args[0]) if args else NONE_SET
            toplevel = loc is not None and loc.scope.kind in ("module", "class")
            return frozenset({DictV(None, made, id(call) if call is not None else 0, toplevel)})
        if q == "functools.partialmethod" and args:
            return frozenset(
                Wrapped("partialmethod", Partial(f, tuple(args[1:]), tuple(keywords), hidden=True)) for f in args[0]
            )
        if q == "map" and len(args) >= 2 and not keywords:
            made = union(
                self.apply(f, [self.iterate(a) for a in args[1:]], [], None, None, EMPTY_ENV, model) for f in args[0]
            )
            return frozenset({Seq("list", None, made)})
        if q == "super" and not args and loc is not None:
            return self._super(loc, env, model)
        if q == "globals" and not args:
            return frozenset({Module(model)})  # the module's namespace: `globals()[name]` reads it
        if q == "vars" and len(args) == 1 and all(isinstance(v, Module) for v in args[0]):
            return args[0]
        iterated = self._iteration_builtin(q, args, keywords)
        if iterated is not None:
            return iterated
        if q == "dataclasses.replace" and args:
            return _replaced(args[0], keywords)
        target = modelled(q)
        if target is not None:
            model_module, name = target
            self.library_models[id(model_module)] = model_module
            if q == "types.SimpleNamespace" and not args and not unknown_kw:
                # Each keyword is a field of its own (a loop over kwargs in a model would blur them).
                classes = [v for v in self.module_attribute(model_module, name) if isinstance(v, Class)]
                site = id(call) if call is not None else 0
                return frozenset(Instance(c, None, tuple(keywords), site) for c in classes) or U
            return union(
                self.apply(v, args, keywords, None, None, EMPTY_ENV, model_module, unknown_rest, unknown_kw)
                for v in self.module_attribute(model_module, name)
            )
        if q in _BUILTINS_VALUE:
            return frozenset({Opaque(q)})
        if q == "print":
            return NONE_SET
        if call is not None and loc is not None and q.startswith("jax"):
            return frozenset({ApiResult(q, call, loc, env)})
        return U

    def _super(self, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        """Zero-argument `super()` in a method: its class, and its first parameter's value."""
        scope: Scope | None = loc.scope
        while scope is not None and scope.kind in ("comprehension", "lambda"):
            scope = scope.parent
        function = scope.function if scope is not None else None
        owner = scope.parent if scope is not None else None
        if function is None or isinstance(function, ast.Lambda) or owner is None or owner.kind != "class":
            return U
        params = positional_args(function)
        binding = _param_binding(Func(function, model, env), params[0].arg) if params else None
        if binding is None:
            return U
        cls = Class(cast(ast.ClassDef, owner.node), model)
        receivers = self.binding_value(binding, env, model)
        return frozenset(Super(cls, r) for r in receivers if isinstance(r, (Instance, Class))) or U

    def _iteration_builtin(
        self, q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
    ) -> frozenset[Value] | None:
        """`iter`, `next`, `zip`, `enumerate` and `dict(pairs)` by what iterating gives: known
        sequences stay known (`dict(zip(names, kernels))` pairs each name with its kernel)."""
        if q == "iter" and len(args) == 1:
            return frozenset(v for v in args[0] if isinstance(v, (Seq, Generator))) or frozenset(
                {Seq("list", None, self.iterate(args[0]))}
            )
        if q == "next" and args:
            return self.iterate(args[0]) | (args[1] if len(args) > 1 else frozenset())
        if q == "zip" and args and not keywords:
            seqs = [_single_known_seq(a) for a in args]
            if all(seq is not None for seq in seqs):
                length = min(len(cast(Seq, seq).elements()) for seq in seqs)
                return frozenset(
                    {
                        Seq(
                            "list",
                            tuple(
                                frozenset({Seq("tuple", tuple(cast(Seq, seq).elements()[i] for seq in seqs))})
                                for i in range(length)
                            ),
                        )
                    }
                )
            return frozenset({Seq("list", None, frozenset({Seq("tuple", tuple(self.iterate(a) for a in args))}))})
        if q == "enumerate" and args:
            seq = _single_known_seq(args[0])
            if seq is not None and not keywords and len(args) == 1:
                return frozenset(
                    {
                        Seq(
                            "list",
                            tuple(
                                frozenset({Seq("tuple", (frozenset({Const(i)}), e))})
                                for i, e in enumerate(seq.elements())
                            ),
                        )
                    }
                )
            return frozenset(
                {Seq("list", None, frozenset({Seq("tuple", (frozenset({Opaque("int")}), self.iterate(args[0])))}))}
            )
        if q in _DICT_TYPES and len(args) == 1 and not keywords:
            return frozenset({_dict_of_pairs(self.iterate(args[0]), _single_known_seq(args[0]))})
        if q in _DICT_TYPES:
            return frozenset({DictV(None, U)})
        return None

    def _scoped_result(self, f: Value, model: ModuleModel) -> frozenset[Value]:
        if isinstance(f, Func):
            n = len(positional_args(f.node)) if not isinstance(f.node, ast.Lambda) else len(f.node.args.args)
            return self.call_function(f, [frozenset({UNKNOWN})] * n, [])
        return U

    # -------------------------------------------------------------------- questions
    def functions_in(self, values: frozenset[Value]) -> list[tuple[Func, int, frozenset[str]]]:
        """The project functions a value set can call when called, with how many leading positional
        parameters and which keywords are already bound (partial, bound methods): "may"."""
        out: list[tuple[Func, int, frozenset[str]]] = []
        for v in values:
            out.extend(self._functions_of(v, 0, frozenset(), 0))
        return out

    def _functions_of(self, v: Value, bound: int, keywords: frozenset[str], depth: int) -> list[Any]:
        if depth > 6:
            return []
        if isinstance(v, Func):
            return [(v, bound, keywords)]
        if isinstance(v, Partial):
            named = {k for k, _ in v.keywords} | ({UNREAD_SPLAT} if v.hidden else set())
            return self._functions_of(v.target, bound + len(v.args), keywords | named, depth + 1)
        if isinstance(v, BoundMethod):
            return self._functions_of(v.func, bound + 1, keywords, depth + 1)
        if isinstance(v, Wrapped) and v.kind == "static":
            return self._functions_of(v.func, bound, keywords, depth + 1)
        if isinstance(v, Instance):
            out = []
            for m in self.class_attribute(v.cls, "__call__", v):
                out += self._functions_of(m, bound, keywords, depth + 1)
            return out
        return []


# ----------------------------------------------------------------- helper value kinds
@dataclass(frozen=True)
class _RefMethod(Value):
    attr: str
    ref: Value


@dataclass(frozen=True)
class _ParamMethod(Value):
    attr: str


@dataclass(frozen=True)
class _ArrayMethod(Value):
    origin: str
    attr: str
    array: Array | None = None  # the array it is a method of (its shape and dtype)


@dataclass(frozen=True)
class _ArrayAt(Value):
    origin: str


@dataclass(frozen=True)
class _WhenDecorator(Value):
    """`pl.when(c)`: applied to a function it runs it and returns None."""


@dataclass(frozen=True)
class _SeqMethod(Value):
    seq: Seq
    attr: str


@dataclass(frozen=True)
class _DictMethod(Value):
    d: DictV
    attr: str

    def call(self, args: list[Any]) -> frozenset[Value]:
        d = self.d
        if self.attr == "items":
            if d.items is not None:
                return frozenset(
                    {Seq("list", tuple(frozenset({Seq("tuple", (frozenset({Const(k)}), v))}) for k, v in d.items))}
                )
            return frozenset({Seq("list", None, frozenset({Seq("tuple", (U, d.all_values()))}))})
        if self.attr == "values":
            if d.items is not None:
                return frozenset({Seq("list", tuple(v for _, v in d.items))})
            return frozenset({Seq("list", None, d.all_values())})
        if self.attr == "keys":
            if d.items is not None:
                return frozenset({Seq("list", tuple(frozenset({Const(k)}) for k, _ in d.items))})
            return frozenset({Seq("list", None, U)})
        if self.attr in ("get", "pop", "setdefault") and args:
            key = next(iter(args[0])) if len(args[0]) == 1 else None
            default = args[1] if len(args) > 1 else NONE_SET
            if d.items is not None and isinstance(key, Const):
                return d.lookup(key.value, default)
            return d.all_values() | default
        if self.attr == "copy":
            return frozenset({d})
        return U


# ---------------------------------------------------------------------------- helpers
def _fresh_refs(result: frozenset[Value], args: list[Any], keywords: list[Any], call: ast.Call) -> frozenset[Value]:
    """A Ref a function makes is a new object at every call: tag it with the call, so that
    `f(make(), make())` holds two Refs while `r = make(); f(r, r)` holds one.  Refs inside the
    tuples, lists and dicts it returns too (`return {"k": new_ref(x), "v": new_ref(y)}`)."""
    passed = union(args) | union(v for _, v in keywords)
    return _retag(result, passed, call, 0)


def _refs_in(values: frozenset[Value], depth: int) -> Iterator[Ref]:
    for v in values:
        if isinstance(v, Ref):
            yield v
        elif depth < 4 and isinstance(v, Seq):
            for element in (v.elts or ()) + (v.members,):
                yield from _refs_in(element, depth + 1)
        elif depth < 4 and isinstance(v, DictV):
            for _, element in v.items or ():
                yield from _refs_in(element, depth + 1)


def _ref_origin(ref: Ref) -> object:
    """The constructor call (or binding) that made a Ref, under the call tags added to it."""
    site = ref.site
    while isinstance(site, tuple):
        site = site[1]
    return site


def _retag(values: frozenset[Value], passed: frozenset[Value], call: object, depth: int) -> frozenset[Value]:
    if depth > 4 or not any(isinstance(v, (Ref, Seq, DictV)) for v in values):
        return values
    out = set()
    for v in values:
        if isinstance(v, Ref) and v not in passed:
            v = Ref((call, v.site))
        elif isinstance(v, Seq) and v.known:
            v = Seq(v.kind, tuple(_retag(e, passed, call, depth + 1) for e in v.elements()), v.members)
        elif isinstance(v, Seq):
            v = Seq(v.kind, None, _retag(v.members, passed, call, depth + 1))
        elif isinstance(v, DictV) and v.items is not None:
            v = DictV(tuple((k, _retag(e, passed, call, depth + 1)) for k, e in v.items), v.members)
        out.add(v)
    return frozenset(out)


MAX_REPEAT = 64  # `[ref] * n`, `[S for _ in range(n)]`: elements kept one by one up to this many


def only_value(values: frozenset[Value] | None) -> Value | None:
    """The one value a set certainly is (None when it may be several, or none)."""
    return next(iter(values)) if values is not None and len(values) == 1 else None


# ------------------------------------------------------------------ shapes and dtypes (engine/shapes.py)
def shape_of(values: frozenset[Value] | None) -> Shape | None:
    """The constant shape a value set certainly is: a tuple or list of ints, or one int."""
    value = only_value(values)
    if isinstance(value, Const):
        return as_shape(value.value)
    if isinstance(value, Seq) and value.elts is not None:
        dims = tuple(int_constant(e) for e in value.elts)
        return as_shape(dims) if None not in dims else None
    return None


def dtype_of(values: frozenset[Value] | None) -> str | None:
    """The dtype a value set certainly names: `jnp.float32`, `np.int8`, `"bfloat16"`, `x.dtype`."""
    value = only_value(values)
    if isinstance(value, DType):
        return value.name
    if isinstance(value, External) and value.qualname.startswith(("jax.numpy.", "numpy.")):
        return canonical_dtype(value.qualname)
    if isinstance(value, External) and value.qualname in ("float", "int", "bool"):
        return canonical_dtype(value.qualname)
    if isinstance(value, Const) and isinstance(value.value, str):
        return canonical_dtype(value.value)
    return None


def _argument(
    args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]], index: int | None, name: str
) -> frozenset[Value] | None:
    for key, value in keywords:
        if key == name:
            return value
    return args[index] if index is not None and index < len(args) else None


def _single_array(values: frozenset[Value] | None) -> Array | None:
    value = only_value(values)
    return value if isinstance(value, Array) else None


_FILLED = frozenset({"zeros", "ones", "empty"})
_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "asarray", "array"})
_RANDOM = frozenset({"jax.random.normal", "jax.random.uniform", "jax.random.truncated_normal"})


def _constructed(
    library: str, q: str, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> Array:
    """The array a jnp / np / jax.random function makes, with its shape and dtype when the call
    says them (a NumPy array's default dtype is left unknown: JAX converts it on the way in)."""
    origin = "numpy" if library == "numpy" else "jax"
    name = q.rsplit(".", 1)[-1]
    given = dtype_of(_argument(args, keywords, None, "dtype"))
    default_float = DEFAULT_FLOAT if library == "jax" else None
    if name in _FILLED and q.count(".") <= 2:
        shape = shape_of(_argument(args, keywords, 0, "shape"))
        return Array(origin, shape, given or dtype_of(_argument(args, keywords, 1, "dtype")) or default_float)
    if name == "full" and q.count(".") <= 2:
        return Array(
            origin,
            shape_of(_argument(args, keywords, 0, "shape")),
            given or dtype_of(_argument(args, keywords, 2, "dtype")),
        )
    if name in _LIKE and q.count(".") <= 2:
        base = _single_array(_argument(args, keywords, 0, "a"))
        if base is not None:
            return Array(origin, base.shape, given or base.dtype)
        if name in ("array", "asarray") and args:  # `jnp.array([1, 0])`: a nested list of numbers
            return Array(origin, _literal_shape(args[0]), given or dtype_of(_argument(args, keywords, 1, "dtype")))
    if name == "arange" and q.count(".") <= 2 and len(args) == 1 and all(k == "dtype" for k, _ in keywords):
        n = int_constant(args[0])
        if n is not None and n >= 0:
            return Array(origin, (n,), given or (DEFAULT_INT if library == "jax" else None))
    if q in _RANDOM:
        shape = shape_of(_argument(args, keywords, 1, "shape"))
        return Array(origin, shape, given or dtype_of(_argument(args, keywords, 2, "dtype")) or DEFAULT_FLOAT)
    return Array(origin)


def _literal_shape(values: frozenset[Value], depth: int = 0) -> Shape | None:
    """The shape of a (nested) list or tuple of numbers written out, or of one number: ()."""
    value = only_value(values)
    if isinstance(value, Const) and isinstance(value.value, (int, float)):
        return ()
    if not isinstance(value, Seq) or value.elts is None or depth > 3:
        return None
    inner = {_literal_shape(e, depth + 1) for e in value.elts}
    if len(inner) != 1 or None in inner:
        return None if value.elts else (0,)
    return (len(value.elts), *inner.pop())  # type: ignore[misc]  # None was ruled out


# Array methods that give a plain Python value (a list, a scalar, bytes), not an array: a kernel
# may close over what they return (issue 36: a method's list was taken for a jax array, PAL003).
_PYTHON_VALUE_METHODS = frozenset({"tolist", "item", "tobytes"})


def _array_method_result(
    method: _ArrayMethod, args: list[frozenset[Value]], keywords: list[tuple[str, frozenset[Value]]]
) -> Value:
    if method.attr in _PYTHON_VALUE_METHODS:
        return Opaque("python value")
    base = method.array
    if base is None:
        return Array(method.origin)
    if method.attr == "astype":
        return Array(method.origin, base.shape, dtype_of(_argument(args, keywords, 0, "dtype")))
    if method.attr == "reshape" and not keywords and args:
        new = _reshape_dims(args)
        return Array(method.origin, reshaped(base.shape, new) if new is not None else None, base.dtype)
    return Array(method.origin)


def _reshape_dims(args: list[frozenset[Value]]) -> tuple[int, ...] | None:
    """`x.reshape((a, b))` or `x.reshape(a, b)`: the constant dims asked for (-1 included)."""
    seq = _single_known_seq(args[0]) if len(args) == 1 else None
    parts = seq.elements() if seq is not None else tuple(args)
    dims = tuple(int_constant(p) for p in parts)
    return None if None in dims else dims  # type: ignore[return-value]  # None was ruled out


def _static_array_attribute(array: Array, attr: str) -> frozenset[Value]:
    """`x.shape`, `x.dtype`, `x.ndim` of an array: constants when known, else a static object."""
    if attr == "shape" and array.shape is not None:
        return frozenset({Seq("tuple", tuple(frozenset({Const(d)}) for d in array.shape))})
    if attr == "ndim" and array.shape is not None:
        return frozenset({Const(len(array.shape))})
    if attr == "dtype" and array.dtype is not None:
        return frozenset({DType("dtype", array.dtype)})
    return frozenset({Opaque("static")})


def int_constant(values: frozenset[Value]) -> int | None:
    """The int a value set certainly is (one constant, not a bool), else None."""
    if len(values) == 1:
        value = next(iter(values))
        if isinstance(value, Const) and isinstance(value.value, int) and not isinstance(value.value, bool):
            return value.value
    return None


def _repeated(seqs: frozenset[Value], count: frozenset[Value]) -> frozenset[Value] | None:
    """`[x] * 2`: the same element objects, repeated (so `[new_ref(x)] * 2` holds one Ref twice)."""
    seq, times = _single_known_seq(seqs), int_constant(count)
    if seq is None or times is None or not 0 <= times * len(seq.elements()) <= MAX_REPEAT:
        return None
    return frozenset({Seq(seq.kind, seq.elements() * times)})


def _small_constant(value: object) -> bool:
    return (
        value is None
        or value is Ellipsis
        or isinstance(value, (bool, int, float))
        or (isinstance(value, (str, bytes)) and len(value) <= 200)
    )


def _truth(values: frozenset[Value]) -> bool | None:
    """The truth of a value set when every member agrees and is known."""
    truths = set()
    for v in values:
        if isinstance(v, Const):
            truths.add(bool(v.value))
        elif isinstance(v, (Func, Class, Module, Entry, Ref, Partial, BoundMethod, Launched)):
            truths.add(True)
        elif isinstance(v, Seq) and v.elts is not None:
            truths.add(bool(v.elts))
        else:
            return None
    return truths.pop() if len(truths) == 1 else None


def _fold(op: ast.operator, a: object, b: object) -> Value | None:
    numbers = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return None
    try:
        if isinstance(a, numbers) and isinstance(b, numbers):
            if isinstance(op, ast.Add):
                return Const(a + b)
            if isinstance(op, ast.Sub):
                return Const(a - b)
            if isinstance(op, ast.Mult) and abs(a) < 1e12 and abs(b) < 1e12:
                return Const(a * b)
            if isinstance(op, ast.FloorDiv) and b:
                return Const(a // b)
            # `2**20` in `vmem_limit_bytes=64 * 2**20`; small exponents only (no huge numbers).
            if (
                isinstance(op, ast.Pow)
                and isinstance(a, int)
                and isinstance(b, int)
                and 0 <= b <= 64
                and abs(a) <= 1024
            ):
                return Const(a**b)
        if isinstance(a, str) and isinstance(b, str) and isinstance(op, ast.Add) and len(a) + len(b) <= 200:
            return Const(a + b)
    except (OverflowError, ValueError, TypeError):
        return None
    return None


def _array_of(values: frozenset[Value]) -> Array:
    origins = {v.origin for v in values if isinstance(v, Array)}
    return Array("jax" if "jax" in origins or len(origins) != 1 else origins.pop())


def _single_known_seq(values: frozenset[Value]) -> Seq | None:
    if len(values) != 1:
        return None
    v = next(iter(values))
    return v if isinstance(v, Seq) and v.elts is not None else None


def _destructure(values: frozenset[Value], path: list[Any]) -> frozenset[Value]:
    for step in path:
        if step is None:
            return U  # a starred target
        out: set[Any] = set()
        for v in values:
            if isinstance(v, Seq):
                if v.elts is not None and step[0] == "front":
                    out |= v.elts[step[1]] if step[1] < len(v.elts) else {UNKNOWN}
                elif v.elts is not None and step[0] == "back":
                    out |= v.elts[-step[1]] if step[1] <= len(v.elts) else {UNKNOWN}
                elif v.elts is not None:
                    out |= v.elts[step[0]] if len(v.elts) == step[1] else {UNKNOWN}
                else:
                    out |= v.all_members()
            elif isinstance(v, Array):
                out.add(v)
            else:
                out.add(UNKNOWN)
        values = frozenset(out)
    return values


def _path_to(target: ast.AST, name_node: ast.AST) -> list[Any] | None:
    """Where `name_node` sits in an assignment target: [] for the whole, [(index, length), ...]."""
    if target is name_node:
        return []
    if isinstance(target, (ast.Tuple, ast.List)):
        starred = any(isinstance(e, ast.Starred) for e in target.elts)
        for index, element in enumerate(target.elts):
            inner = element.value if isinstance(element, ast.Starred) else element
            sub = _path_to(inner, name_node)
            if sub is not None:
                if starred:  # `first, *rest = xs`: an element counted from the front or the back
                    star = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred))
                    if index == star:
                        return [None]
                    step = ("front", index) if index < star else ("back", len(target.elts) - index)
                    return [step, *sub]
                return [(index, len(target.elts)), *sub]
    return None


def _position(node: ast.AST | None) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _import_base(node: ast.ImportFrom) -> str:
    return "." * (node.level or 0) + (node.module or "")


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements_under(stmt: ast.stmt) -> Iterator[ast.AST]:
    """`stmt` and every statement nested in it (defs and classes included), never descending into
    expressions, which hold no statements: a tenth of `ast.walk`'s nodes on a test class of a
    thousand lines, walked for its `self.x = ...` (`_self_assignments`)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for name in _STATEMENT_LISTS:
            stack.extend(reversed(getattr(node, name, None) or ()))


def _own_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a body and of its blocks, not of the defs and classes in it."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in _STATEMENT_LISTS:
            inner = getattr(stmt, name, None)
            if inner:
                yield from _own_statements([s for s in inner if isinstance(s, ast.stmt)])
        for handler in getattr(stmt, "handlers", ()):
            yield from _own_statements(handler.body)


def _module_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements that run at module level: the body, and the blocks of its if / try / with."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try, ast.With)) or (
            sys.version_info >= (3, 11) and isinstance(stmt, ast.TryStar)
        ):
            children: list[Any] = list(getattr(stmt, "body", []))
            children += list(getattr(stmt, "orelse", []))
            for handler in getattr(stmt, "handlers", []):
                children += handler.body
            children += list(getattr(stmt, "finalbody", []))
            stack.extend(reversed(children))


def _exported(mod: ModuleModel, name: str) -> bool:
    """Does `from mod import *` bring `name`?  `__all__` when the module lists it, else public names."""
    bindings = mod.module_scope.bindings.get("__all__")
    if bindings:
        value = bindings[-1].value
        if isinstance(value, (ast.List, ast.Tuple)):
            return any(isinstance(e, ast.Constant) and e.value == name for e in value.elts)
    return not name.startswith("_") and (
        name in mod.module_scope.bindings
        or bool(
            [
                s
                for s in _module_level_statements(mod.tree.body)
                if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)
            ]
        )
    )


def _is_package(path: str | None) -> bool:
    return bool(path) and path.endswith("__init__.py")  # type: ignore[union-attr]  # bool(path) ruled None out


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _decorator_name(node.func)
    return ""


def _is_dataclass(node: ast.ClassDef) -> bool:
    names = {_decorator_name(d) for d in node.decorator_list}
    if names & {"dataclass", "dataclasses", "struct", "frozen"}:
        return True
    return any(_decorator_name(b) in ("NamedTuple",) for b in node.bases)


def _default_of(function: ast.AST, b: Binding) -> ast.expr | None:
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return None
    args = function.args
    positional = positional_args(function)
    if b.param_index is not None:
        first_default = len(positional) - len(args.defaults)
        if b.param_index >= first_default:
            return args.defaults[b.param_index - first_default]
        return None
    for param, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if param.arg == b.name:
            return default
    return None


def _param_binding(func: Func, name: str) -> Binding | None:
    scope = func.model.scope_of_function.get(id(func.node))
    if scope is None:
        return None
    for b in scope.bindings.get(name, []):
        if b.kind == "param":
            return b
    return None


def _entry_of(value: Value) -> Entry | None:
    while isinstance(value, Partial):
        value = value.target
    return value if isinstance(value, Entry) else None


def _partial_of(
    inner: Value,
    args: tuple[Any, ...],
    keywords: tuple[Any, ...],
    arg_exprs: tuple[Any, ...],
    keyword_exprs: tuple[Any, ...],
    hidden: bool = False,
) -> Value:
    """functools.partial(inner, ...): partials of partials flatten, as functools does."""
    if isinstance(inner, Partial):
        merged = dict(inner.keywords)
        merged.update(dict(keywords))
        return Partial(
            inner.target,
            inner.args + args,
            tuple(merged.items()),
            inner.arg_exprs + arg_exprs,
            inner.keyword_exprs + keyword_exprs,
            inner.hidden or hidden,
        )
    return Partial(inner, args, keywords, arg_exprs, keyword_exprs, hidden)


def known_sequence_length(values: frozenset[Value]) -> int | None:
    """The length of the one tuple or list `values` can be, when its elements are known."""
    seq = _single_known_seq(values)
    return len(seq.elements()) if seq is not None else None


def _known_length(values: frozenset[Value]) -> int | None:
    """len() of the one tuple, list or dict `values` can be, when its elements are known."""
    d = next(iter(values)) if len(values) == 1 else None
    if isinstance(d, DictV) and d.items is not None:
        return len(d.items)
    return known_sequence_length(values)


def _unwrapped(v: Value) -> Value:
    """The function of a classmethod / staticmethod object (hooks are called with explicit arguments)."""
    return v.func if isinstance(v, Wrapped) else v


def _dict_of_pairs(pairs: frozenset[Value], known: Seq | None) -> DictV:
    """`dict(iterable)` of (key, value) pairs: known keys when every pair is a known 2-tuple."""
    if known is not None:
        items: list[tuple[object, frozenset[Value]]] = []
        for element in known.elements():
            pair = _single_known_seq(element)
            key = only_value(pair.elements()[0]) if pair is not None and len(pair.elements()) == 2 else None
            if pair is None or not isinstance(key, Const):
                break
            items.append((key.value, pair.elements()[1]))
        else:
            return DictV(tuple(items), union(v for _, v in items))
    values = union(
        seq.elements()[1] if seq.elts is not None and len(seq.elements()) == 2 else U
        for seq in (v for v in pairs if isinstance(v, Seq))
    )
    return DictV(None, values or U)


def _replaced(instances: frozenset[Value], changes: list[tuple[str, frozenset[Value]]]) -> frozenset[Value]:
    """`dataclasses.replace(obj, **changes)`: the same dataclass with those fields changed."""
    out: set[Value] = set()
    for v in instances:
        if not isinstance(v, Instance) or not _is_dataclass(v.cls.node):
            return U
        fields = dict(v.fields)
        fields.update(changes)
        out.add(Instance(v.cls, v.init_env, tuple(fields.items())))
    return frozenset(out)


def _plain_default(declaration: ast.AnnAssign) -> bool:
    """A dataclass field declared with a plain default value (not `field(...)`, not a ClassVar)."""
    if declaration.value is None or isinstance(declaration.value, ast.Call):
        return False
    annotation = ast.unparse(declaration.annotation)
    return "ClassVar" not in annotation and "InitVar" not in annotation


def _single_known_str_dict(values: frozenset[Value]) -> DictV | None:
    """The one dict `values` can be, when its keys are known strings (a `**` splat we can read)."""
    d = next(iter(values)) if len(values) == 1 else None
    if isinstance(d, DictV) and d.items is not None and all(isinstance(key, str) for key, _ in d.items):
        return d
    return None


def _bind_attribute(v: Value, instance: Instance | None, cls: Class, interp: Interpreter) -> frozenset[Value]:
    """A class attribute read through an instance or the class (Python's descriptor rules, for the
    kinds we model)."""
    if isinstance(v, Wrapped):
        if v.kind == "static":
            return frozenset({v.func})
        if v.kind == "class":
            return frozenset({BoundMethod(v.func, cls)})
        if v.kind == "partialmethod" and isinstance(v.func, Partial):
            if instance is None:
                return frozenset({v.func})
            p = v.func
            return frozenset({Partial(p.target, (frozenset({instance}), *p.args), p.keywords, hidden=True)})
        if v.kind == "property" and instance is not None:
            return interp.apply(v.func, [frozenset({instance})], [], None, None, EMPTY_ENV, cls.model)
        return U
    if isinstance(v, Func) and instance is not None:
        return frozenset({BoundMethod(v, instance)})
    return frozenset({v})


def _may_fall_through(body: list[ast.stmt], truth: Callable[..., Any]) -> bool:
    """Can running `body` reach its end (and so return None)?  Conservative: True unless sure."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        t = truth(last.test, last)
        if t is True:
            return _may_fall_through(last.body, truth)
        if t is False:
            return _may_fall_through(last.orelse, truth)
        return _may_fall_through(last.body, truth) or _may_fall_through(last.orelse, truth)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _may_fall_through(last.body, truth)
    if isinstance(last, ast.While) and isinstance(last.test, ast.Constant) and last.test.value is True:
        return any(isinstance(n, ast.Break) for n in ast.walk(last))
    if isinstance(last, ast.Try):
        if last.finalbody and not _may_fall_through(last.finalbody, truth):
            return False
        body_falls = _may_fall_through(last.orelse or last.body, truth)
        return body_falls or any(_may_fall_through(h.body, truth) for h in last.handlers)
    return True
