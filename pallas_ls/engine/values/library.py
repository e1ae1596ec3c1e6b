"""What is not read as source: builtins, JAX, NumPy and parts of the standard library, modelled
natively.  The tables of APIs (which calls give a jax array, None, a Ref), array constructors with
their shapes and dtypes, and the methods of Refs, arrays, lists and dicts.  Standard-library
modules written as Python models are in `models/`.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import math
from typing import TYPE_CHECKING, cast

from ..model import (
    Loc,
    ModuleModel,
)
from ..names import ENTRY_POINTS, EXTERNAL_ROOTS, PARTIAL, qualname
from . import (
    arrays,
    bindings,
    calls,
    classes,
    enums,
    flow,
    folding,
    iteration,
    json_data,
    mutations,
    operations,
    ref_identity,
    typetests,
)
from .domain import (
    EMPTY_ENV,
    NONE_SET,
    SENTINEL,
    UNKNOWN,
    ApiResult,
    Array,
    Class,
    Const,
    DictV,
    DType,
    Entry,
    Env,
    External,
    Func,
    Generator,
    Instance,
    MadeClass,
    Module,
    Namespace,
    Opaque,
    Partial,
    Ref,
    Seq,
    ShapeStruct,
    SliceObject,
    U,
    Value,
    Wrapped,
    dtype_of,
    int_constant,
    key_of,
    known_length,
    only_value,
    shape_of,
    single_known_seq,
    union,
)
from .methods import TupleClass, WhenDecorator, namedtuple_fields
from .models import modelled

if TYPE_CHECKING:
    from .interpreter import Interpreter


# ------------------------------------------------------------------------ known externals

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
# Transformations that call their function on slices of their arguments' arrays.
_BATCHING = frozenset({"jax.vmap", "jax.pmap"})
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


def may_import_project_code(stmt: ast.stmt) -> bool:
    """Whether running a statement may import a module of the project (whose import-time code
    may register into, or configure, this module's objects: a plugin importing `register`):
    an import of anything but a known library, a relative import, `importlib.import_module`."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] not in EXTERNAL_ROOTS for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] not in EXTERNAL_ROOTS):
            return True
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in _IMPORTING_CALLS:
            return True
    return False


_IMPORTING_CALLS = frozenset({"import_module", "__import__"})


BUILTINS_VALUE = frozenset(
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
DICT_TYPES = frozenset({"dict", "collections.OrderedDict"})


# Library constants whose value is the same wherever the program runs.
_CONSTANTS: dict[str, Value] = {"typing.TYPE_CHECKING": Const(False), "typing_extensions.TYPE_CHECKING": Const(False)}


def external(qualname: str) -> Value:
    kind = ENTRY_POINTS.get(qualname)
    if kind is not None:
        return Entry(kind)
    constant = _CONSTANTS.get(qualname)
    return constant if constant is not None else External(qualname)


BISECTIONS = frozenset({"bisect.bisect", "bisect.bisect_right", "bisect.bisect_left"})


def _str_of(value: Value | None) -> str | None:
    """`str()` of a dtype (its name) or of a constant number, string, bool or None."""
    if isinstance(value, DType) and value.name:
        return value.name
    if isinstance(value, Const) and (value.value is None or type(value.value) in (int, float, str, bool)):
        return str(value.value)
    return None


def _bisected(q: str, sequence: frozenset[Value], x: frozenset[Value]) -> int | None:
    """Where `bisect` puts a constant number in a known list of constant numbers (sorted, as
    bisect requires: else None)."""
    numbers = [only_value(e) for e in _elements(sequence)]
    key = only_value(x)
    if not isinstance(key, Const) or not all(isinstance(n, Const) for n in numbers):
        return None
    values = [cast(Const, n).value for n in numbers]
    if not all(_is_number(v) for v in [*values, key.value]):
        return None
    numeric = cast("list[float]", values)
    if numeric != sorted(numeric):
        return None
    side = bisect.bisect_left if q.endswith("_left") else bisect.bisect_right
    return side(numeric, cast(float, key.value))


def _elements(values: frozenset[Value]) -> tuple[frozenset[Value], ...]:
    seq = single_known_seq(values)
    return seq.elements() if seq is not None and seq.known else ()


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def allocation(call: ast.Call | None, loc: Loc | None) -> tuple[int, bool]:
    """A new container's identity on the heap: the call that made it (0: made from a value, no
    call), and whether it was made at module or class level, where import-time code may fill it."""
    return (id(call) if call is not None else 0), loc is not None and loc.scope.kind in ("module", "class")


def _made_at(value: Value, call: ast.Call, loc: Loc | None) -> Value:
    """A new dict `call` made, as one object of the heap: the stores into it are its items."""
    if not isinstance(value, DictV):
        return value
    return DictV(value.items, value.members, *allocation(call, loc), value.missing)


def external_call(
    interp: Interpreter,
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
            arg_exprs, keyword_exprs, hidden = calls.partial_arguments_as_written(interp, call, loc, env, model)
        else:  # applied from a value: what it binds has no expression to read
            arg_exprs, keyword_exprs, hidden = (), (), len(args) > 1 or bool(keywords)
        return frozenset(
            calls.partial_of(inner, tuple(args[1:]), tuple(keywords), arg_exprs, keyword_exprs, hidden)
            for inner in args[0]
        )
    if q in _BATCHING and args:
        # `jax.vmap(f)(xs)` calls f once, on each argument's slice along its leading axis
        axes = dict(keywords).get("in_axes")
        kind = "vmap" if axes is None or axes == frozenset({Const(0)}) else "vmap-other-axes"
        return frozenset(Wrapped(kind, f) for f in args[0])
    if q in PASS_THROUGH:
        # named_call(f) -> f; named_scope("name") / jit(**kw) -> a decorator that hands f back
        if args and not all(isinstance(v, (Const, Opaque)) for v in args[0]):
            return args[0]
        return frozenset({External(q)})
    if q in operations.DESCRIPTORS and args:
        return frozenset({Wrapped(operations.DESCRIPTORS[q], v) for v in args[0]})
    if q in REF_CONSTRUCTORS and call is not None:
        return frozenset({Ref(call, many=loc is not None and ref_identity.runs_repeatedly(interp, loc))})
    if q in NONE_APIS:
        return NONE_SET
    if q in SHAPE_STRUCTS:
        return frozenset(
            {
                ShapeStruct(
                    shape_of(arrays.argument(args, keywords, 0, "shape")),
                    dtype_of(arrays.argument(args, keywords, 1, "dtype")),
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
        return union(calls.apply(interp, f, operands, [], None, None, EMPTY_ENV, model) for b in args[1:3] for f in b)
    if q == "jax.eval_shape" and args:  # traces `f` on the arguments: its result's tree, as shapes
        return arrays.shape_structs(
            union(
                calls.apply(interp, f, args[1:], keywords, None, None, EMPTY_ENV, model, unknown_rest, unknown_kw)
                for f in args[0]
            )
        )
    if q == "jax.lax.switch" and len(args) >= 2:
        branches = operations.iterate(interp, args[1])
        return union(calls.apply(interp, f, args[2:], [], None, None, EMPTY_ENV, model) for f in branches)
    if q == "jax.experimental.pallas.run_scoped" and args:
        return union(calls.scoped_result(interp, f, model) for f in args[0])
    if q == "jax.experimental.pallas.when":
        return frozenset({WhenDecorator(call)})
    if q == "json.loads" and len(args) == 1 and not keywords:
        parsed = json_data.loaded(args[0], *allocation(call, loc))  # a config in a constant string
        if parsed is not None:
            return parsed
    folded = folding.folded_call(q, [enums.as_plain_values(interp, a) for a in args], keywords)  # `int(Level.HIGH)`
    if folded is not None:
        return folded
    if q in VALUE_APIS:
        return frozenset({Opaque("pallas")})
    if q in folding.DTYPE_APIS and not keywords:
        return folding.dtype_api(q, args)
    if q.startswith("numpy.random."):
        return frozenset({arrays.numpy_random(q, args, keywords)})
    if q.startswith("numpy."):
        return (
            frozenset({arrays.shaped(q, args, keywords) or arrays.constructed("numpy", q, args, keywords)})
            if q.count(".") == 1
            else frozenset({Opaque("numpy")})
        )
    if q == "jax.device_get" and args and all(isinstance(v, Array) for v in args[0]):
        # an array fetched to the host is a numpy array of its shape and dtype
        return frozenset(Array("numpy", cast(Array, v).shape, cast(Array, v).dtype) for v in args[0])
    if q == "jax.device_put" and args and all(isinstance(v, Array) for v in args[0]):
        # an array placed on a device is a jax array of its shape and dtype (a pytree stays one)
        return frozenset(Array("jax", cast(Array, v).shape, cast(Array, v).dtype) for v in args[0])
    if q.startswith(ARRAY_PREFIXES) and q not in _NON_ARRAY_JNP:
        return frozenset({arrays.shaped(q, args, keywords) or arrays.constructed("jax", q, args, keywords)})
    if q in _LAX_ARRAYS:
        return frozenset({Array()})
    if q.startswith("jax.lax."):
        return frozenset({Opaque("lax")}) if q != "jax.lax.scan" else frozenset({Seq("tuple", (U, U))})
    if q == "collections.deque" and len(args) <= 1 and not keywords:
        # A deque without maxlen, as a list made at this call: the heap follows what functions
        # append to it, mutations.with_mutations its own straight-line code (its left end too).
        seq = operations.unpacked(interp, args[0]) if args else Seq("list", ())
        return frozenset(
            {Seq("list", seq.elts if seq is not None else None, U if seq is None else frozenset(), id(call))}
        )
    if q in ("list", "tuple"):
        if not args:
            return frozenset({Seq(q, ())})
        seq = operations.unpacked(interp, args[0])  # a known sequence, or a generator's straight yields
        if seq is not None:
            return frozenset({Seq(q, seq.elts)})
        return frozenset({Seq(q, None, operations.iterate(interp, args[0]))})
    if q in ("set", "frozenset") and len(args) <= 1 and not keywords:
        constant = constant_set(interp, args[0] if args else frozenset({Seq("tuple", ())}))
        if constant is not None and (
            q == "frozenset" or not mutations.set_display_may_change(model, loc.stmt if loc is not None else None)
        ):
            return frozenset({constant})  # as a display of constants is: `backend in frozenset(NAMES)`
    if q in DICT_TYPES and not args:
        site, toplevel = allocation(call, loc)
        return frozenset({DictV(tuple(keywords), union(v for _, v in keywords), site, toplevel)})
    if q == "getattr" and len(args) >= 2:
        named = next(iter(args[1])) if len(args[1]) == 1 else None
        if isinstance(named, Const) and isinstance(named.value, str):
            default = args[2] if len(args) > 2 else frozenset()
            absent = {v for v in args[0] if default and _certainly_lacks(interp, v, named.value)}
            found = union(operations.attribute(interp, v, named.value, model) for v in args[0] if v not in absent)
            if found and UNKNOWN not in found and not absent:
                return found  # the attribute is there: the default is not used
            return found | default
        names = [v.value for v in args[1] if isinstance(v, Const) and isinstance(v.value, str)]
        if len(names) == len(args[1]):  # one of a few known names
            found = union(operations.attribute(interp, v, n, model) for v in args[0] for n in names)
            return found | (args[2] if len(args) > 2 else frozenset())
        # A computed name: whatever the program stored on the object under any name (a
        # namespace filled by setattr), never its methods or class attributes.
        stored = union(interp.heap.attribute(v, None) for v in args[0])
        stored |= union(value for v in args[0] if isinstance(v, Instance) for _, value in v.fields)
        return stored | U if stored else U
    if q == "hasattr" and len(args) == 2 and len(args[1]) == 1 and isinstance(only_value(args[1]), Const):
        attr = cast(Const, only_value(args[1])).value
        has = {classes.has_attribute(interp, v, attr, model) for v in args[0]} if isinstance(attr, str) else {None}
        if len(has) == 1 and None not in has:
            return frozenset({Const(has.pop())})  # `x = f if hasattr(Cfg, "fast") else g`
    if q == "len" and len(args) == 1:
        size = known_length(args[0])
        if size is not None:  # `num_scalar_prefetch=len(scalar_prefetches)`
            return frozenset({Const(size)})
        rows = {v.shape[0] if isinstance(v, Array) and v.shape else None for v in args[0]}
        if len(rows) == 1 and None not in rows:
            return frozenset({Const(rows.pop())})  # an array's length: its leading dimension
        if args[0] and all(isinstance(v, Instance) for v in args[0]):
            counted = union(operations.dunder_result(interp, v, "__len__", []) for v in args[0])
            if counted:
                return counted  # `len(registry)` by its class's __len__
    if q == "collections.defaultdict":
        # A missing key reads what the factory makes; the items are those of `dict(*rest, **kw)`.
        made = (
            ref_identity.per_missing_key(
                union(calls.apply(interp, f, [], [], None, None, EMPTY_ENV, model) for f in args[0]), args[0]
            )
            if args
            else NONE_SET
        )
        site, toplevel = allocation(call, loc)
        mapping = only_value(args[1]) if len(args) == 2 else None
        if isinstance(mapping, DictV):
            # The mapping's items as written, not as stores fill it: those stores are read from
            # every store's receiver, and this one's may be the name being bound (a cycle).
            initial: frozenset[Value] | None = frozenset({iteration.with_items(mapping, keywords)})
        elif len(args) > 1:
            initial = iteration.iteration_builtin(interp, "dict", args[1:], keywords)
        else:  # `defaultdict(f)` starts empty; `defaultdict(f, a=k)`: the keywords are the items
            initial = frozenset({DictV(tuple(keywords), union(v for _, v in keywords))})
        base = only_value(initial) if initial else None
        if isinstance(base, DictV) and base.items is not None:
            return frozenset({DictV(base.items, base.members | made, site, toplevel, made)})
        if initial:  # items not known: any of them, or what the factory makes
            made |= base.members if isinstance(base, DictV) else U
        return frozenset({DictV(None, made, site, toplevel)})
    if q == "functools.partialmethod" and args:
        return frozenset(
            Wrapped("partialmethod", Partial(f, tuple(args[1:]), tuple(keywords), hidden=True)) for f in args[0]
        )
    if q == "map" and len(args) >= 2 and not keywords:
        for f in args[0]:  # the calls map makes, as calls written `f(x)` would be
            calls.report_call(interp, f, [operations.iterate(interp, a) for a in args[1:]], loc, env)
        known = [operations.unpacked(interp, a) for a in args[1:]]
        if all(k is not None for k in known) and len({len(cast(Seq, k).elements()) for k in known}) == 1:
            # `map(f, xs)` of known sequences: f of each element, in order
            columns = zip(*(cast(Seq, k).elements() for k in known), strict=True)
            return frozenset(
                {
                    Seq(
                        "list",
                        tuple(
                            union(
                                calls.apply_to_element(interp, f, list(column), model, ("element", call, i))
                                for f in args[0]
                            )
                            for i, column in enumerate(columns)
                        ),
                    )
                }
            )
        made = union(
            calls.apply(interp, f, [operations.iterate(interp, a) for a in args[1:]], [], None, None, EMPTY_ENV, model)
            for f in args[0]
        )
        return frozenset({Seq("list", None, made)})
    if q == "super" and not args and loc is not None:
        return classes.zero_argument_super(interp, loc, env, model)
    if q == "globals" and not args:
        return frozenset({Namespace(Module(model))})  # the module's names: `globals()[name]` reads one
    if q == "locals" and not args and loc is not None:
        return _locals(interp, loc, env, model)
    if q == "dir" and len(args) == 1 and len(args[0]) == 1 and isinstance(only_value(args[0]), Class):
        return classes.class_dir(interp, cast(Class, only_value(args[0])))
    if q == "vars" and len(args) == 1 and all(isinstance(v, Module) for v in args[0]):
        return args[0]
    if q == "vars" and len(args) == 1 and all(isinstance(v, (Instance, Class)) for v in args[0]):
        return frozenset(_namespace(interp, v) for v in args[0])
    if q == "collections.namedtuple" and len(args) >= 2:
        fields = namedtuple_fields(args[1])
        return frozenset({TupleClass(fields)}) if fields is not None else U
    if q in ("copy.copy", "copy.deepcopy") and len(args) == 1:
        deep = q == "copy.deepcopy"
        return frozenset(_copied(interp, v, call, loc, deep) for v in args[0] if not isinstance(v, Ref)) or U
    if q == "importlib.import_module" and 1 <= len(args) <= 2 and not keywords:
        names = [v.value for v in args[0] if isinstance(v, Const) and isinstance(v.value, str)]
        # `import_module(".one", __name__)` in a package's __init__: relative to this package
        own_package = len(args) == 2 and call is not None and _names_this_package(call.args[1])
        if names and len(names) == len(args[0]) and all(not n.startswith(".") or own_package for n in names):
            return union(bindings.import_value(interp, n, model) for n in names)
    if q == "dict.fromkeys" and args:
        keys = single_known_seq(args[0])
        value = args[1] if len(args) > 1 else NONE_SET
        if keys is not None and all(key_of(only_value(k))[0] for k in keys.elements()):
            items = tuple((key_of(only_value(k))[1], value) for k in keys.elements())
            return frozenset({DictV(items, value, id(call) if call is not None else 0)})
        return frozenset({DictV(None, value)})
    if q == "type.__new__" and len(args) == 4 and not keywords:
        # `type.__new__(mcs, name, bases, ns)` in a metaclass (`super().__new__(...)`): the class
        return frozenset({MadeClass(args[2], args[3], id(call))})
    if q == "type" and len(args) == 3 and not keywords:
        return frozenset({MadeClass(args[1], args[2], id(call))})
    if q == "type" and len(args) == 1 and all(isinstance(v, Instance) for v in args[0]):
        return frozenset(cast(Instance, v).cls for v in args[0])
    if q == "type" and len(args) == 1 and args[0]:
        types = [folding.builtin_type_of(v) for v in args[0]]
        if all(t is not None for t in types):
            return frozenset(cast(list[External], types))  # `type(3)` is `int`
    if q == "next" and call is not None and loc is not None:
        advanced = flow.advanced_iterator(interp, call, loc, env, model)  # `next(it)` after others
        if advanced is not None:
            return advanced
        fresh = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else None
        # dicts' order not followed: popitem, a move_to_end but of a name (mutations.with_deletions)
        reordered = model.calls_with_attribute(["popitem"]) or [
            c
            for c in model.calls_with_attribute(["move_to_end"])
            if not isinstance(c.func.value, ast.Name)  # type: ignore[attr-defined]
        ]
        first = (
            (isinstance(fresh, ast.Call) and _fresh_iterator(fresh, loc, model))
            or isinstance(fresh, ast.GeneratorExp)
            or (isinstance(fresh, ast.Call) and all(isinstance(v, Generator) for v in args[0]))  # `next(gen())`
        )
        if first and reordered:
            return U  # the first item of a dict reordered in a way not followed: not known
        if first:
            # `next(iter(xs))`, `next(map(f, xs))`, `next(f for n, f in T.items() if ...)`: the first element
            seq = operations.unpacked(interp, args[0])
            if seq is not None and seq.elements():
                return seq.elements()[0]
            if seq is not None and seq.known and len(args) == 2:
                return args[1]  # nothing to yield: the default
    iterated = iteration.iteration_builtin(interp, q, args, keywords)
    if iterated is not None and q in DICT_TYPES and call is not None:
        return frozenset(_made_at(v, call, loc) for v in iterated)  # `d = dict(BASE)`, then `d[k] = f`
    if iterated is not None:
        return iterated
    if q == "dataclasses.replace" and args:
        return classes.dataclass_replaced(args[0], keywords)
    if q == "dataclasses.fields" and len(args) == 1 and not keywords:
        return classes.dataclass_fields(interp, args[0])
    if q in ("dataclasses.asdict", "dataclasses.astuple") and len(args) == 1 and not keywords:
        return classes.dataclass_as_dict(interp, args[0], as_tuple=q.endswith("astuple"))
    if q in ("isinstance", "issubclass") and not keywords and not unknown_rest:
        decided = typetests.type_test(interp, q, args)
        if decided is not None:
            return decided
    if q == "functools.reduce" and len(args) in (2, 3) and not keywords and not unknown_rest:
        folded = iteration.folded(interp, args, model, loc, env)
        if folded is not None:
            return folded
    if q in iteration.TREE_MAPS and len(args) >= 2 and not keywords and not unknown_rest:
        return iteration.tree_mapped(interp, args[0], args[1:], model, ("element", call, ()) if call else None)
    target = modelled(q)
    outer = modelled(q.rpartition(".")[0]) if target is None and q.count(".") >= 2 else None
    if outer is not None:  # `itertools.chain.from_iterable`: an attribute of a modelled class
        interp.library_models[id(outer[0])] = outer[0]
        return union(
            calls.apply(interp, f, args, keywords, None, None, EMPTY_ENV, outer[0], unknown_rest, unknown_kw)
            for v in bindings.module_attribute(interp, outer[0], outer[1])
            for f in operations.attribute(interp, v, q.rpartition(".")[2], outer[0])
        )
    if target is not None:
        model_module, name = target
        interp.library_models[id(model_module)] = model_module
        if q == "types.SimpleNamespace" and not args and not unknown_kw:
            # Each keyword is a field of its own (a loop over kwargs in a model would blur them).
            model_classes = [v for v in bindings.module_attribute(interp, model_module, name) if isinstance(v, Class)]
            site = id(call) if call is not None else 0
            return frozenset(Instance(c, None, tuple(keywords), site) for c in model_classes) or U
        # A model class's instances are made at this call (their fields are this object's own).
        return union(
            calls.apply(
                interp,
                v,
                args,
                keywords,
                call if isinstance(v, Class) else None,
                None,
                EMPTY_ENV,
                model_module,
                unknown_rest,
                unknown_kw,
            )
            for v in bindings.module_attribute(interp, model_module, name)
        )
    if q == "str" and len(args) == 1 and not keywords:
        text = _str_of(only_value(args[0]))
        if text is not None:  # `KS[str(x.dtype)]`: "float32"
            return frozenset({Const(text)})
    if q == "sum" and len(args) == 1 and not keywords:
        summed = arrays.sum_of(operations.iterate(interp, args[0]))
        if summed is not None:  # `sum([x, y])` of arrays: an array
            return frozenset({summed})
    if q == "sum" and len(args) == 2 and not keywords:
        start = single_known_seq(args[1])
        parts = [single_known_seq(e) for e in _elements(args[0])]
        if start is not None and start.known and parts and all(p is not None and p.known for p in parts):
            # `sum([[a], [b]], [])`: the lists concatenated
            elements = start.elements() + tuple(e for p in parts for e in cast(Seq, p).elements())
            return frozenset({Seq(start.kind, elements)})
    if q == "math.prod" and len(args) == 1 and not keywords:
        factors = [int_constant(e) for e in _elements(args[0])]
        if factors and None not in factors:  # `math.prod(x.shape)`
            return frozenset({Const(math.prod(cast("list[int]", factors)))})
    if q in BISECTIONS and len(args) == 2 and not keywords:
        position = _bisected(q, args[0], args[1])
        if position is not None:  # `FNS[bisect.bisect(THRESHOLDS, n)]`
            return frozenset({Const(position)})
    if q == "object" and not args and not keywords:
        return frozenset({Opaque(SENTINEL)})  # `_MISSING = object()`: a new object, never a constant
    if q == "slice" and 1 <= len(args) <= 3 and not keywords:
        bounds = [None if a == NONE_SET else int_constant(a) for a in args]
        if all(b is not None or a == NONE_SET for b, a in zip(bounds, args, strict=True)):
            # `slice(stop)` or `slice(start, stop[, step])`; a step of 0 is left to the subscript
            lower, upper, stride = (None, bounds[0], None) if len(bounds) == 1 else (*bounds, None)[:3]
            return frozenset({SliceObject((lower, upper, stride))})  # `SEL = slice(1, None)`, then `xs[SEL]`
    if q in BUILTINS_VALUE:
        return frozenset({Opaque(q)})
    if q == "print":
        return NONE_SET
    if call is not None and loc is not None and q.startswith("jax"):
        return frozenset({ApiResult(q, call, loc, env)})
    return U


# ---------------------------------------------------------------------------- helpers
def _names_this_package(expr: ast.expr) -> bool:
    """`__name__` / `__package__`: the anchor of a relative `importlib.import_module`."""
    return isinstance(expr, ast.Name) and expr.id in ("__name__", "__package__")


def _locals(interp: Interpreter, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
    """`locals()`: at module level the module's namespace; in a function a dict of the names it
    has bound by then (`return locals()[name]`)."""
    if loc.scope.kind == "module":
        return frozenset({Namespace(Module(model))})
    if loc.scope.kind != "function":
        return U
    items = []
    for name in loc.scope.bindings:
        found = model.reaching(loc.scope.bindings[name], loc.stmt)
        if found:
            items.append((name, union(bindings.binding_value(interp, b, env, model) for b in found)))
    return frozenset({DictV(tuple(items), union(v for _, v in items))})


def _namespace(interp: Interpreter, obj: Value) -> Value:
    """`vars(obj)`: a dict of the instance's attributes when they are certain, else a namespace
    that reads them by name."""
    known = classes.instance_dict(interp, obj) if isinstance(obj, Instance) else None
    return known if known is not None else Namespace(obj)


def _certainly_lacks(interp: Interpreter, obj: Value, attr: str) -> bool:
    """A function of the project that no store gives attribute `attr` (while others get it)."""
    return isinstance(obj, Func) and not attr.startswith("__") and interp.heap.attribute_absent(obj, attr)


def _copied(interp: Interpreter, value: Value, call: ast.Call | None, loc: Loc | None, deep: bool) -> Value:
    """What `copy.copy(value)` (`deep`: `copy.deepcopy`) makes: an instance made at the call,
    holding what the original was made with and stored into it (stores into the copy are not the
    original's); a dict or list made at the call with the original's items (deep: the dicts and
    lists inside copied too, so `c["ops"]["main"] = k` changes the copy only); any other value as
    itself, the same kind of object."""
    if call is None:
        return value
    if isinstance(value, Instance) and value.site:
        return dataclasses.replace(value, site=id(call), copy_of=value.site)
    site, toplevel = allocation(call, loc)
    return _copied_container(interp, value, site, toplevel, deep)


def _copied_container(interp: Interpreter, value: Value, site: int, toplevel: bool, deep: bool) -> Value:
    def inner(values: frozenset[Value], key: object) -> frozenset[Value]:
        if not deep:
            return values
        return frozenset(
            _copied_container(interp, v, hash((site, key)) & _SITE_BITS or 1, toplevel, deep) for v in values
        )

    if isinstance(value, DictV) and value.site:
        contents = interp.dict_contents(value)
        if contents.items is None:
            return DictV(None, inner(contents.members, None), site, toplevel, value.missing)
        items = tuple((key, inner(v, key)) for key, v in contents.items)
        return DictV(items, union(v for _, v in items), site, toplevel, value.missing)
    if isinstance(value, Seq) and value.kind == "list" and value.site:
        seq = interp.heap.list_contents(value)
        if seq.elts is None:
            return Seq("list", None, inner(seq.members, None), site)
        return Seq("list", tuple(inner(e, i) for i, e in enumerate(seq.elts)), site=site)
    return value


# The sites of the containers a deep copy makes inside the copy: derived from the copy's own.
_SITE_BITS = (1 << 62) - 1


# Builtins whose call makes a new iterator over a sequence, in its order: `next` of one reads its first element.
_FRESH_ITERATORS = ("iter", "reversed", "map", "filter", "zip", "enumerate")
# itertools' functions each make a new iterator (their models give lists, in order).
_FRESH_ITERTOOLS = frozenset(
    f"itertools.{name}"
    for name in (
        "groupby",
        "islice",
        "dropwhile",
        "takewhile",
        "filterfalse",
        "compress",
        "chain",
        "starmap",
        "accumulate",
        "zip_longest",
        "pairwise",
        "product",
    )
)


def _fresh_iterator(call: ast.Call, loc: Loc, model: ModuleModel) -> bool:
    """A call that makes a new iterator, not yet advanced (`iter(xs)`, `itertools.groupby(xs)`)."""
    if isinstance(call.func, ast.Name) and call.func.id in _FRESH_ITERATORS:
        return True
    return qualname(call.func, loc, model) in _FRESH_ITERTOOLS


def constant_set(interp: Interpreter, values: frozenset[Value]) -> Const | None:
    """The set of a known sequence of strings and numbers, as a constant (None: not known)."""
    given = only_value(values)
    if isinstance(given, Const) and isinstance(given.value, frozenset):
        return given  # `frozenset({"tpu", "gpu"})`: a display of constants is one already
    if not isinstance(given, Seq):
        return None  # a generator's or comprehension's items are not followed here (costly, and rare)
    seq = operations.unpacked(interp, values)
    if seq is None or seq.elts is None:
        return None
    elements = [only_value(e) for e in seq.elts]
    if not all(isinstance(e, Const) and isinstance(e.value, (str, int, float)) for e in elements):
        return None
    return Const(frozenset(cast(Const, e).value for e in elements))
