"""The value domain: the abstract values the interpreter computes, and helpers on value sets.

A value set is a frozenset of `Value`s, any of which an expression may denote at run time; `U`
(a set holding `UNKNOWN`) means "and possibly something we cannot see".  Everything here is plain
data and pure functions: no module of this package is imported at run time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model import (
    Binding,
    FunctionNode,
    Loc,
    ModuleModel,
)
from ..shapes import Shape, as_shape, canonical_dtype

if TYPE_CHECKING:
    pass

# How deep calls are followed (a summary inside a summary ...), and nested evaluations overall.
MAX_CALL_DEPTH = 4
MAX_EVAL_DEPTH = 48
# How many function summaries one interpreter computes (a module's analysis); past it calls are
# unknown.  Keeps pathological code (deep call graphs of big functions) bounded in time and memory.
MAX_SUMMARIES = 1500
# Expressions whose value may be a function, a Ref or a container of them (a comprehension's
# element is evaluated only when it is one of these).
MAY_NAME_OBJECTS = (
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
SENTINEL = "object()"  # the kind of Opaque a bare `object()` call makes (a new object: `_MISSING`)


@dataclass(frozen=True)
class SliceObject(Value):
    """`slice(1, None)` of constants: what subscripting with it keeps (`xs[SEL]` is `xs[1:]`)."""

    parts: tuple[int | None, int | None, int | None]


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
    """staticmethod / classmethod / property objects in a class body; a function `jax.vmap` maps."""

    kind: str  # "static" | "class" | "property" | "vmap" (| "vmap-other-axes": jax.vmap's function)
    func: Value


@dataclass(frozen=True)
class Generator(Value):
    """What calling a generator function gives: iterating it yields what its `yield`s can yield."""

    func: Func
    env: Env
    # The call that made it: the Refs its body makes are that run's (`next(g()), next(g())` are
    # two Refs, a generator yielding one `r` twice passes one).  None: not known.
    made_by: object = None


@dataclass(frozen=True)
class Class(Value):
    node: ast.ClassDef
    model: ModuleModel
    # The call a class statement inside a function ran in (what its body's names close over:
    # `def build(scale): class Op: ...`); empty for a module-level class.
    env: Env = EMPTY_ENV


@dataclass(frozen=True)
class Instance(Value):
    cls: Class
    init_env: Env | None = None  # __init__'s parameters, bound by the constructor call
    fields: tuple[tuple[str, frozenset[Value]], ...] = ()  # dataclass fields
    site: int = 0  # the constructor call that made it (0: any instance of the class)
    copy_of: int = 0  # `copy.copy(obj)`: the site of the instance copied (its fields are read too)
    # The fields are what straight-line code after the construction left (`instance_changes`):
    # each is the attribute's value there, not joined with the heap's other stores.
    exact: bool = False
    # Attributes that straight-line code deleted (`del op.kernel`): read from the class again.
    deleted: frozenset[str] = frozenset()


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
class EnumMember(Value):
    """A member of an `enum.Enum` class (`Op.ADD`): `.value` is what its class body assigned."""

    cls: Class
    name: str


@dataclass(frozen=True)
class FlagSet(Value):
    """Members of an `enum.Flag` class combined (`Feature.FAST | Feature.DEBUG`): their bits."""

    cls: Class
    bits: int


def _defined_once(func: Func) -> bool:
    """A def of the module's own body (not in a function, class, loop or branch): one function
    object, a dict key like a class (`{bump: 9, copy: 5}`)."""
    scope = func.model.scope_of_function.get(id(func.node))
    return (
        not isinstance(func.node, ast.Lambda)
        and scope is not None
        and scope.parent is func.model.module_scope
        and len(func.model.block_chain.get(id(func.node), (0, 0))) <= 1
    )


def key_value(key: object) -> Value:
    """A known dict key as a value: an enum member, a class, a builtin type, a function defined
    once, a constant, or a tuple of those."""
    if isinstance(key, (EnumMember, Class, Func, External)):
        return key  # an External key is a builtin type (`key_of`)
    if isinstance(key, _TupleKey):
        return Seq("tuple", tuple(frozenset({key_value(part)}) for part in key))
    return Const(key)


class _TupleKey(tuple):  # type: ignore[type-arg]  # a tuple key's parts, as known keys
    """A dict key that is a tuple of known keys (`BLOCKS[(bm, bn)]`); a tuple subclass, so it
    compares and hashes as the tuple Python would use."""


def key_of(value: Value | None, depth: int = 0) -> tuple[bool, object]:
    """(known, key): the dict key a value certainly is (a constant's value, an enum member, a
    class of the program: `{Fast: fused}[type(cfg)]`, a def of the module's body, or a tuple of
    those)."""
    if isinstance(value, Const):
        return True, value.value
    if isinstance(value, (EnumMember, Class)) or (isinstance(value, Func) and _defined_once(value)):
        return True, value
    if isinstance(value, External) and value.qualname in ("int", "float", "complex", "str", "bytes", "bool"):
        return True, value  # a builtin type: `{int: f, str: g}[type(n)]`
    if isinstance(value, DType) and value.name:
        return True, value  # `{jnp.dtype("float32"): f}[x.dtype]` (not `jnp.float32`, a type: another key)
    if isinstance(value, Seq) and value.kind == "tuple" and value.elts is not None and depth < 4:
        parts = [key_of(only_value(e), depth + 1) for e in value.elts]
        if all(known for known, _ in parts):
            return True, _TupleKey(part for _, part in parts)
    return False, None


@dataclass(frozen=True)
class MadeClass(Value):
    """A class made by `type(name, bases, namespace)`: its attributes are the namespace's items."""

    bases: frozenset[Value]  # the bases tuple's values
    namespace: frozenset[Value]  # the namespace dict's values
    site: int  # the call that made it


@dataclass(frozen=True)
class Namespace(Value):
    """`vars(obj)` of an instance or a class: its attributes read as items (`vars(plan)["kernel"]`)."""

    obj: Value


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

    kind: str  # "tuple" | "list" | "range" (constant bounds, short)
    elts: tuple[frozenset[Value], ...] | None = None
    members: frozenset[Value] = frozenset()
    site: int = 0  # a list's allocation site (id of its display), for the heap; 0: not followed
    names: tuple[str, ...] | None = None  # a namedtuple's field names (`spec.kernel` is an element)
    # The elements are the list's as a point of the module's straight-line code left them, its
    # registrars' appends replayed in order (`registrations`): the heap's join of them is not added.
    exact: bool = False

    @property
    def known(self) -> bool:
        return self.elts is not None

    def elements(self) -> tuple[frozenset[Value], ...]:
        """The elements of a sequence known to have them (`known`, or from `single_known_seq`)."""
        assert self.elts is not None, "a sequence of unknown length has no elements to list"
        return self.elts

    def all_members(self) -> frozenset[Value]:
        if self.elts is None:
            return self.members | {UNKNOWN} if not self.members else self.members
        return frozenset().union(*self.elts) if self.elts else frozenset()


def hashable(key: object) -> object:
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
    # What reading a key it lacks gives: a defaultdict's factory product (None: a KeyError).  It is
    # in `members` too, for when the keys stop being known.
    missing: frozenset[Value] | None = None
    # The items are the dict's as a point of the module's straight-line code left them, its
    # registrars' stores replayed in order (`registrations`): the heap's join of them is not added.
    exact: bool = False

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
        """The items of a dict whose keys are known (as `single_known_str_dict` gives)."""
        assert self.items is not None, "a dict of unknown keys has no items to list"
        return self.items

    def lookup(self, key: object, default: frozenset[Value]) -> frozenset[Value]:
        """The value of a constant key of a dict whose keys are known; `default` when absent."""
        index: dict[object, frozenset[Value]] | None = self.__dict__.get("_index")
        if index is None:
            index = {}
            for k, v in self.items or ():
                index.setdefault(hashable(k), v)  # the first of equal keys, as a scan finds it
            object.__setattr__(self, "_index", index)
        return index.get(hashable(key), default)

    def all_values(self) -> frozenset[Value]:
        if self.items is None:
            return self.members | {UNKNOWN}
        return frozenset().union(*(v for _, v in self.items)) if self.items else frozenset()


@dataclass(frozen=True)
class Ref(Value):
    """A Ref, identified by where it was made (a constructor call, or a kernel's parameter).

    `many`: the constructor call runs in a loop or a comprehension, so this abstract Ref stands for
    several objects (`src, dst = [jax.new_ref(x) for x in xs]`): two reads of it are not
    certainly one object."""

    site: object  # ast.Call or Binding
    many: bool = False


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
    """A parameter with no argument bound to it (the function is analysed on its own).  `held`:
    for a kernel's ref parameter, an array of the shape and dtype the launch makes its ref hold
    (`x_ref.shape`, `x_ref.dtype`, `x_ref[...]`); None when not known."""

    binding: Binding
    held: Array | None = None


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


def note_read(reads: dict[str, dict[int, Any]], name: str, loc: Loc) -> None:
    place = loc.stmt if loc.stmt is not None else loc.scope
    reads.setdefault(name, {})[id(place)] = place


def union(sets: Iterable[frozenset[Value]]) -> frozenset[Value]:
    out: set[Any] = set()
    for s in sets:
        out |= s
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


def int_constant(values: frozenset[Value]) -> int | None:
    """The int a value set certainly is (one constant, not a bool), else None."""
    if len(values) == 1:
        value = next(iter(values))
        if isinstance(value, Const) and isinstance(value.value, int) and not isinstance(value.value, bool):
            return value.value
    return None


def repeated_seq(seqs: frozenset[Value], count: frozenset[Value]) -> frozenset[Value] | None:
    """`[x] * 2`: the same element objects, repeated (so `[new_ref(x)] * 2` holds one Ref twice)."""
    seq, times = single_known_seq(seqs), int_constant(count)
    if seq is None or times is None or not 0 <= times * len(seq.elements()) <= MAX_REPEAT:
        return None
    return frozenset({Seq(seq.kind, seq.elements() * times)})


def small_constant(value: object) -> bool:
    return (
        value is None
        or value is Ellipsis
        or isinstance(value, (bool, int, float))
        or (isinstance(value, (str, bytes)) and len(value) <= 200)
    )


def constant_truth(values: frozenset[Value]) -> bool | None:
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


# How many pairs of constants an operation or comparison is decided for (each with each).
MAX_FOLDED_PAIRS = 16


def single_known_seq(values: frozenset[Value]) -> Seq | None:
    if len(values) != 1:
        return None
    v = next(iter(values))
    return v if isinstance(v, Seq) and v.elts is not None else None


def known_sequence_length(values: frozenset[Value]) -> int | None:
    """The length of the one tuple or list `values` can be, when its elements are known."""
    seq = single_known_seq(values)
    return len(seq.elements()) if seq is not None else None


def known_length(values: frozenset[Value]) -> int | None:
    """len() of the one tuple, list, dict or string `values` can be, when its elements are known."""
    d = next(iter(values)) if len(values) == 1 else None
    if isinstance(d, DictV) and d.items is not None:
        return len(d.items)
    if isinstance(d, Const) and isinstance(d.value, (str, bytes, frozenset)):
        return len(d.value)  # `max(names, key=len)`, `len(set(names))`
    return known_sequence_length(values)


def unwrapped(v: Value) -> Value:
    """The function of a classmethod / staticmethod object (hooks are called with explicit arguments)."""
    return v.func if isinstance(v, Wrapped) else v


def single_known_str_dict(values: frozenset[Value]) -> DictV | None:
    """The one dict `values` can be, when its keys are known strings (a `**` splat we can read)."""
    d = next(iter(values)) if len(values) == 1 else None
    if isinstance(d, DictV) and d.items is not None and all(isinstance(key, str) for key, _ in d.items):
        return d
    return None
