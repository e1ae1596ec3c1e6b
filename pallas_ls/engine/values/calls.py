"""Calls of values: a project function's result through bounded, memoised return summaries (its
arguments bound to its parameters as Python binds them), constructors, bound methods,
`functools.partial`, and the Pallas entry points (handed to the launch finder's hooks).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, cast

from ..model import (
    Binding,
    Loc,
    ModuleModel,
    defaulted_parameters,
    is_generator,
    own_returns,
    positional_args,
)
from . import (
    arrays,
    cells,
    classes,
    construction,
    default_lists,
    enums,
    instance_changes,
    library,
    methods,
    operations,
    ref_identity,
    store_sites,
)
from .domain import (
    EMPTY_ENV,
    MAX_CALL_DEPTH,
    MAX_SUMMARIES,
    NONE_SET,
    UNKNOWN,
    UNREAD_SPLAT,
    Array,
    BoundMethod,
    Class,
    Const,
    DictV,
    Entry,
    EnumMember,
    Env,
    Evaluated,
    External,
    Factory,
    Func,
    Generator,
    Instance,
    Launched,
    Opaque,
    Param,
    Partial,
    Ref,
    Seq,
    U,
    Value,
    Wrapped,
    int_constant,
    only_value,
    single_known_seq,
    single_known_str_dict,
    union,
)
from .folding import compared
from .returns import returns_of

if TYPE_CHECKING:
    from .interpreter import Interpreter


# ---------------------------------------------------------------------------- calls
def ev_call(interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
    callee = interp.ev(call.func, loc, env, model)
    args, unknown_rest = _call_args(interp, call, loc, env, model)
    keywords, unknown_kw = _call_keywords(interp, call, loc, env, model)
    results: set[Any] = set()
    for target in callee:
        if isinstance(target, Func) and interp.reading_at is not None:
            target = cells.closure_at_import(interp, target, call, model)  # `step()` after `step()`
        results |= apply(
            interp, target, args, keywords, call, loc, env, model, unknown_rest=unknown_rest, unknown_kw=unknown_kw
        )
    return frozenset(results) if results else U


def apply_to_element(
    interp: Interpreter, target: Value, args: list[frozenset[Value]], model: ModuleModel, element: object = None
) -> frozenset[Value]:
    """`target(*args)` called by a library function once per element (`map`, `jax.tree.map`): a Ref
    constructor makes one Ref for each element, identified by `element` (a tag holding the
    library call, then the element's place); any other target as a call with no call node."""
    if element is not None and isinstance(target, External) and target.qualname in library.REF_CONSTRUCTORS:
        return frozenset({Ref(element)})
    return apply(interp, target, args, [], None, None, EMPTY_ENV, model)


def report_call(interp: Interpreter, target: Value, args: list[frozenset[Value]], loc: Loc | None, env: Env) -> None:
    """A library function calling `target` (`map(run, names)`, `reduce(f, xs)`): the launch finder
    hears of it as of a call written `target(*args)` at `loc`."""
    if isinstance(target, Func) and interp.on_function_call is not None and loc is not None:
        interp.on_function_call(target, args, [], False, False, loc, env)


def bind_statement_call(interp: Interpreter, func: Func, call: ast.Call, model: ModuleModel) -> Env | None:
    """The parameters of `func` as a module-level statement calling it binds them (`Op.use(copy)`
    of a classmethod: `cls` is what `Op` is)."""
    receiver = None
    decorators = [getattr(d, "id", None) for d in getattr(func.node, "decorator_list", ())]
    if decorators == ["classmethod"] and isinstance(call.func, ast.Attribute):
        receiver = interp.ev(call.func.value, model.loc(call), EMPTY_ENV, model)
    return bind_call(interp, func, call, model.loc(call), EMPTY_ENV, model, receiver)


def bind_call(
    interp: Interpreter,
    func: Func,
    call: ast.Call,
    loc: Loc,
    env: Env,
    model: ModuleModel,
    receiver: frozenset[Value] | None = None,
) -> Env | None:
    """`func`'s parameters bound to what `call` (written at `loc`, evaluated in `env`) passes,
    after `receiver` (a bound method's `self` or `cls`) when given."""
    args, unknown_rest = _call_args(interp, call, loc, env, model)
    if receiver is not None:
        args = [receiver, *args]
    keywords, unknown_kw = _call_keywords(interp, call, loc, env, model)
    return bind_arguments(interp, func, args, keywords, unknown_rest, unknown_kw)


def plain_arguments(
    interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
) -> tuple[list[frozenset[Value]], list[tuple[str, frozenset[Value]]]] | None:
    """A call's positional and keyword arguments, evaluated; None when it splats (`*a`, `**kw`):
    which parameters those fill is left to the callers that follow splats."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = [interp.ev(a, loc, env, model) for a in call.args]
    return args, [(str(k.arg), interp.ev(k.value, loc, env, model)) for k in call.keywords]


def _call_args(
    interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
) -> tuple[list[frozenset[Value]], bool]:
    args: list[frozenset[Value]] = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            seq = operations.unpacked(interp, interp.ev(a.value, loc, env, model))
            if seq is None:
                return args, True
            args.extend(seq.elements())
        else:
            args.append(interp.ev(a, loc, env, model))
    return args, False


def _call_keywords(
    interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
) -> tuple[list[tuple[str, frozenset[Value]]], bool]:
    keywords: list[tuple[str, frozenset[Value]]] = []
    unknown = False
    for k in call.keywords:
        if k.arg is None:
            d = single_known_str_dict(interp.ev(k.value, loc, env, model))
            if d is not None:
                keywords.extend(cast("tuple[tuple[str, frozenset[Value]], ...]", d.known_items()))  # str keys
            else:
                unknown = True
        else:
            keywords.append((k.arg, interp.ev(k.value, loc, env, model)))
    return keywords, unknown


# Decorators that memoise a function: a call with the same arguments hands back the same object.
_MEMOISING = frozenset({"cache", "lru_cache"})


def _default_refs(interp: Interpreter, target: Func) -> list[frozenset[Value]]:
    """The Refs a function's defaults hold: made once, when the def ran (`def get(buf=new_ref(x))`
    returns the same Ref at every call that leaves `buf` out)."""
    defaults = [default for _, default, _ in defaulted_parameters(target.node)]
    if not any(isinstance(n, ast.Call) for d in defaults for n in ast.walk(d)):
        return []
    where = target.model.loc(target.node)
    return [interp.ev(d, where, target.env, target.model) for d in defaults]


def _cached_call(target: Func, args: list[Any], keywords: list[Any]) -> tuple[object, ...] | None:
    """What identifies the object a memoised function returns (`@functools.cache def buffer():
    return jax.new_ref(x)`: every `buffer()` is the same Ref): the function and its constant
    arguments (or instances made once, a method's `self`).  None for a function that is not
    memoised, or other arguments."""
    node = target.node
    if isinstance(node, ast.Lambda) or not any(
        classes.decorator_name(d.func if isinstance(d, ast.Call) else d) in _MEMOISING for d in node.decorator_list
    ):
        return None
    key: list[object] = []
    for value in [only_value(a) for a in args] + [only_value(v) for _, v in keywords]:
        # a constant, or an instance that is one object (`pool.get("a")`: the method's `self`)
        made_once = ref_identity.instance_made_once(value, target.model) if value is not None else None
        if not isinstance(value, Const) and made_once is None:
            return None
        key.append(value if made_once is None else ("instance", made_once))
    names = tuple(name for name, _ in keywords)
    return ("memoised", id(node), tuple(key), names)


def apply(
    interp: Interpreter,
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
        if interp.on_function_call is not None and call is not None:
            interp.on_function_call(target, args, keywords, unknown_rest, unknown_kw, loc, env)
        result = call_function(interp, target, args, keywords, unknown_rest, unknown_kw)
        if call is None:
            return result
        if loc is not None:  # `add(bump)[-1]` of `def add(fn, acc=[])`: the calls before it appended too
            result = default_lists.as_left_by_the_calls(interp, target, call, loc, model, result) or result
        made_before: list[frozenset[Value]] = []  # Refs the call hands back but did not make
        if next(ref_identity.refs_in(result, 0), None) is not None:
            made_before = [*_default_refs(interp, target), ref_identity.made_by_the_module(result, target.model)]
        return ref_identity.fresh_refs(
            result, args + made_before, keywords, _cached_call(target, args, keywords) or call
        )
    if isinstance(target, BoundMethod):
        receiver = instance_changes.receiver_of_call(interp, target, args, keywords)
        if receiver is None:
            return U  # a method reading what it stores on an instance whose fields are followed
        result = apply(
            interp,
            target.func,
            [frozenset({receiver}), *args],
            keywords,
            call,
            loc,
            env,
            model,
            unknown_rest,
            unknown_kw,
        )
        if result == frozenset({target.receiver}) and not (unknown_rest or unknown_kw):
            # `Builder().use("copy").build()`: a method returning `self` hands on what it stored
            return instance_changes.after_method(interp, target, args, keywords) or result
        return result
    if isinstance(target, Partial):
        entry = entry_of(target)
        if entry is not None and call is not None:
            return _entry_call(interp, target, call, loc, env, model)
        if isinstance(target.target, Launched) and call is not None:
            # `functools.partial(run, r)(s)`: the kernel receives the bound arguments first.
            if interp.on_invocation is not None:
                interp.on_invocation(target.target, call, loc, env, model, target)
            return frozenset({Array()})
        merged = dict(target.keywords)
        merged.update(dict(keywords))
        return apply(
            interp,
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
        if len(args) == 1 and not keywords and not unknown_rest and not unknown_kw:
            member = enums.member_by_value(interp, target, args[0])
            if member is not None:
                return member
        rest = (call, loc, env, model, unknown_rest, unknown_kw)
        as_dict = construction.typed_dict(interp, target, args, keywords, call, loc)
        if as_dict is not None and not (unknown_rest or unknown_kw):
            return as_dict
        by_metaclass = construction.by_metaclass(interp, target, args, keywords, *rest)
        if by_metaclass is not None:
            return by_metaclass
        init = operations.class_attribute(interp, target, "__init__", None)
        made = construction.construct(
            interp, target, init, args, keywords, unknown_rest, unknown_kw, id(call) if call else 0
        )
        construction.report_init_call(interp, init, made, args, keywords, call, loc, env, unknown_rest, unknown_kw)
        return construction.made_by_new(interp, target, args, keywords, made, *rest)
    if isinstance(target, Instance):
        method = operations.class_attribute(interp, target.cls, "__call__", target)
        return (
            union(apply(interp, m, args, keywords, call, loc, env, model, unknown_rest, unknown_kw) for m in method)
            if method
            else U
        )
    if isinstance(target, Entry):
        return _entry_call(interp, target, call, loc, env, model) if call is not None else U
    if isinstance(target, Factory):
        if interp.on_factory_call is not None and call is not None and args:
            return interp.on_factory_call(target, call, loc, env, model) or U
        return U
    if isinstance(target, Launched):
        if interp.on_invocation is not None and call is not None:
            interp.on_invocation(target, call, loc, env, model)
        return frozenset({Array()})
    if isinstance(target, External):
        return library.external_call(
            interp, target.qualname, args, keywords, call, loc, env, model, unknown_rest, unknown_kw
        )
    if isinstance(target, methods.ArrayMethod):
        return frozenset({arrays.array_method_result(target, args, keywords)})
    if isinstance(target, (methods.RefMethod, methods.ParamMethod)):
        return NONE_SET if target.attr in library.NONE_METHODS else U
    if isinstance(target, methods.DictMethod):  # (a dict's methods take no keywords; an OrderedDict's do)
        if target.attr == "popitem" and len(args) + len(keywords) == 1 and not (unknown_rest or unknown_kw):
            given = args[0] if args else dict(keywords).get("last", U)  # `popitem(last=False)`
            last = only_value(given)
            return target.popped(last.value) if isinstance(last, Const) and isinstance(last.value, bool) else U
        return target.call(args) if not (keywords or unknown_kw) else U
    if isinstance(target, methods.SeqMethod):
        if target.attr in ("index", "count"):
            return _counted(interp, target, args) or frozenset({Opaque("int")})
        if target.attr in ("append", "extend", "insert", "sort", "reverse", "clear", "remove"):
            return NONE_SET
        if target.attr == "copy":
            return frozenset({target.seq})
        if target.attr == "pop":
            return _popped(interp, target.seq, args)
        if target.attr == "_replace" and target.seq.names is not None and target.seq.elts is not None:
            return frozenset({_fields_replaced(target.seq.names, target.seq.elts, dict(keywords))})
        if target.attr == "_asdict" and target.seq.names is not None and target.seq.elts is not None and not args:
            fields = tuple(zip(target.seq.names, target.seq.elts, strict=True))  # `spec._asdict()`: a new dict
            return frozenset({DictV(fields, union(v for _, v in fields))})
        return U
    if isinstance(target, methods.TupleClass):
        return target.call(args, keywords)
    if isinstance(target, methods.ConstMethod):
        return target.call(args, keywords)
    if isinstance(target, methods.PropertyMethod) and len(args) == 1:
        return target.call(args[0])
    if isinstance(target, methods.Subclasses):
        return frozenset({Seq("list", None, operations.direct_subclasses(interp, target.cls) | U)})
    if isinstance(target, methods.WhenDecorator):
        return NONE_SET
    if isinstance(target, Wrapped) and target.kind.startswith("vmap"):
        sliced = [_batch_sliced(a, target.kind == "vmap") for a in args]
        result = apply(interp, target.func, sliced, keywords, call, loc, env, model, unknown_rest, unknown_kw)
        return _batch_sliced(result, False)  # stacked again: the mapped axis is back, where out_axes says
    if isinstance(target, Wrapped):
        return apply(interp, target.func, args, keywords, call, loc, env, model, unknown_rest, unknown_kw)
    return U


def _batch_sliced(values: frozenset[Value], leading: bool) -> frozenset[Value]:
    """What a function `jax.vmap` maps sees of an argument: each array without its leading axis
    (`leading` False, `in_axes` other than 0: without a known shape); anything else as it is."""
    return frozenset(
        Array(v.origin, v.shape[1:] if leading and v.shape else None, v.dtype) if isinstance(v, Array) else v
        for v in values
    )


def _fields_replaced(
    names: tuple[str, ...], elements: tuple[frozenset[Value], ...], changes: dict[str, frozenset[Value]]
) -> Seq:
    """`spec._replace(kernel=k)` of a namedtuple."""
    return Seq("tuple", tuple(changes.get(n, e) for n, e in zip(names, elements, strict=True)), names=names)


def _counted(interp: Interpreter, method: methods.SeqMethod, args: list[Any]) -> frozenset[Value] | None:
    """`NAMES.index("tanh")`, `xs.count(v)`, `refs.index(a)` of a known sequence, when `==`
    against each element is decided (constants; Refs, functions and enum members by identity)."""
    seq = interp.heap.list_contents(method.seq)
    wanted = only_value(args[0]) if len(args) == 1 else None
    if wanted is None or seq.elts is None:
        return None
    matches = [_equal(only_value(e), wanted) for e in seq.elts]
    if method.attr == "count":
        return frozenset({Const(matches.count(True))}) if None not in matches else None
    for i, match in enumerate(matches):
        if match is None:
            return None
        if match:
            return frozenset({Const(i)})
    return None  # not there: ValueError


def _equal(element: Value | None, wanted: Value) -> bool | None:
    """Whether `element == wanted` (None: not decided here)."""
    if isinstance(element, Ref) and isinstance(wanted, Ref):
        if element.site is not wanted.site:
            return False  # made by different calls: different objects
        return None if element.many or wanted.many else True
    if element is None:
        return None
    pair = [frozenset({element}), frozenset({wanted})]
    if isinstance(element, Const) and isinstance(wanted, Const):
        return compared([ast.Eq()], pair)
    if isinstance(element, (Func, Class)) and isinstance(wanted, (Func, Class)):
        return compared([ast.Is()], pair)  # a function equals itself only
    if isinstance(element, EnumMember) and isinstance(wanted, EnumMember):
        return compared([ast.Eq()], pair)  # `list(Mode).index(Mode.B)`: members by identity
    return None


def _popped(interp: Interpreter, seq: Seq, args: list[frozenset[Value]]) -> frozenset[Value]:
    """`xs.pop()` / `xs.pop(i)`: the element at that index of a known list, else any element."""
    index = int_constant(args[0]) if args else -1
    contents = interp.heap.list_contents(seq)
    if contents.known and index is not None and -len(contents.elements()) <= index < len(contents.elements()):
        return contents.elements()[index]
    return operations.iterate(interp, frozenset({contents}))


def call_value(
    interp: Interpreter,
    target: Value,
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    call: ast.Call | None,
) -> frozenset[Value]:
    return apply(interp, target, args, keywords, call, None, EMPTY_ENV, interp.model)


def _entry_call(
    interp: Interpreter, target: Value, call: ast.Call, loc: Loc | None, env: Env, model: ModuleModel
) -> frozenset[Value]:
    if interp.on_entry_call is None or loc is None:
        return U
    result = interp.on_entry_call(target, call, loc, env, model)
    return result if result is not None else U


def bind_arguments(
    interp: Interpreter,
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
            pairs.append((binding, _default_value(interp, func, defaults[index - first_default], def_loc)))
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
            pairs.append((binding, _default_value(interp, func, default, def_loc)))
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


def _default_value(interp: Interpreter, func: Func, default: ast.expr, def_loc: Loc) -> frozenset[Value]:
    """A parameter's default: the object the def evaluated.  A list or dict named there
    (`def pick(chosen=CHOSEN)`) is the object the body would read as `CHOSEN`, with what is
    appended or stored into it later (`CHOSEN.append(fn)` after the def): read from the body, as
    long as the name still denotes that object there."""
    value = interp.ev(default, def_loc, func.env, func.model)
    if defaults_replaced(interp):
        return value | U
    sites = {v.site for v in value if isinstance(v, (Seq, DictV))}
    if not isinstance(default, ast.Name) or not sites or 0 in sites:
        return value
    scope = func.model.scope_of_function.get(id(func.node))
    if scope is None or default.id in scope.bindings:
        return value
    body = func.node.body
    # (not `ev`, whose memo is keyed by the expression: the def's own read of it is cached)
    read = interp._ev_name(default, Loc(scope, body[0] if isinstance(body, list) else None), func.env, func.model)
    return (
        read
        if {v.site for v in read if isinstance(v, (Seq, DictV))} == sites
        and all(isinstance(v, (Seq, DictV)) for v in read)
        else value
    )


def defaults_replaced(interp: Interpreter) -> bool:
    """Whether the program stores a function's `__defaults__` or `__kwdefaults__` anywhere: then
    the defaults a def wrote may have been replaced before a call (where is not followed)."""
    return any(
        site.key == attr
        for model in interp.models()
        for attr in _DEFAULTS_ATTRIBUTES
        for site in store_sites.attribute_sites(model, attr)
    )


_DEFAULTS_ATTRIBUTES = ("__defaults__", "__kwdefaults__")


def call_function(
    interp: Interpreter,
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
        env = bind_arguments(interp, func, args, keywords, unknown_rest, unknown_kw)
        if env is not None:
            interp.heap.called(node, env)
        return frozenset({Generator(func, env)}) if env is not None else frozenset({Opaque("generator")})
    if interp._call_depth >= MAX_CALL_DEPTH or len(interp._summaries) >= MAX_SUMMARIES:
        return U
    env = bind_arguments(interp, func, args, keywords, unknown_rest, unknown_kw)
    if env is None:
        return U
    interp.heap.called(node, env)
    key = (id(node), env)
    cached = interp._summaries.get(key)
    if cached is not None:
        return cached
    if key in interp._active:
        return U
    interp._active.add(key)
    interp._call_depth += 1
    try:
        result = returns_of(interp, func, env)
    finally:
        interp._call_depth -= 1
        interp._active.discard(key)
    interp._summaries[key] = result
    return result


def partial_arguments_as_written(
    interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
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
        seq = single_known_seq(interp.ev(e.value, loc, env, model))
        if seq is None:
            hidden = True
        else:
            arg_exprs += [(Evaluated(v, e), loc, env) for v in seq.elements()]
    for k in call.keywords:
        if k.arg:
            keyword_exprs.append((k.arg, k.value, loc, env))
            continue
        d = single_known_str_dict(interp.ev(k.value, loc, env, model))
        if d is None:
            hidden = True
        else:
            keyword_exprs += [(key, Evaluated(v, k.value), loc, env) for key, v in d.known_items()]
    return tuple(arg_exprs), tuple(keyword_exprs), hidden


def scoped_result(interp: Interpreter, f: Value, model: ModuleModel) -> frozenset[Value]:
    """What `pl.run_scoped(f, *shapes)` returns: `f` called on the scratch refs it allocates
    (each one of its parameters, as a kernel's refs are)."""
    if isinstance(f, Func):
        names = [a.arg for a in (positional_args(f.node) if not isinstance(f.node, ast.Lambda) else f.node.args.args)]
        scope = f.model.scope_of_function.get(id(f.node))
        params = [
            next((b for b in scope.bindings.get(name, []) if b.kind == "param"), None) if scope is not None else None
            for name in names
        ]
        refs: list[frozenset[Value]] = [frozenset({Param(b) if b is not None else UNKNOWN}) for b in params]
        return call_function(interp, f, refs, [])
    return U


# -------------------------------------------------------------------- questions
def functions_in(interp: Interpreter, values: frozenset[Value]) -> list[tuple[Func, int, frozenset[str]]]:
    """The project functions a value set can call when called, with how many leading positional
    parameters and which keywords are already bound (partial, bound methods): "may"."""
    out: list[tuple[Func, int, frozenset[str]]] = []
    for v in values:
        out.extend(_functions_of(interp, v, 0, frozenset(), 0))
    return out


def keyword_env(values: frozenset[Value], func: Func) -> Env:
    """`func`'s closure with the parameters that `functools.partial(func, a, name=v)` binds bound
    to their values, when every partial of `func` in `values` binds the same parameters (the
    kernel's branches on a flag are then decided; `impl(x_ref, o_ref)` of a bound `impl` is
    followed); a positional parameter holds what any of them binds it to.  A partial with hidden
    arguments (a splat not known, a partialmethod's instance) binds its keywords as listed (a
    splat cannot bind them again), its positional arguments not (a splat may come first).  A
    bound method binds its receiver as a partial does (`self._kernel` launched: `self.fused`
    is the instance's)."""
    partials = [_as_partial(v) for v in values if _binds_func(v, func)]
    if not partials or len(partials) != sum(1 for v in values if _calls_func(v, func)):
        return func.env
    common = dict(partials[0].keywords)
    if any(dict(p.keywords) != common for p in partials[1:]):
        return func.env
    scope = func.model.scope_of_function.get(id(func.node))
    extra = []
    for name, value in common.items():
        params = [b for b in scope.bindings.get(name, []) if b.kind == "param"] if scope is not None else []
        if len(params) == 1:
            extra.append((params[0], value))
    if scope is not None and not any(p.hidden for p in partials) and len({len(p.args) for p in partials}) == 1:
        for index, arg in enumerate(positional_args(func.node)[: len(partials[0].args)]):
            params = [b for b in scope.bindings.get(arg.arg, []) if b.kind == "param"]
            if len(params) == 1:
                extra.append((params[0], union(p.args[index] for p in partials)))
    return func.env.extended(extra) if extra else func.env


def _calls_func(v: Value, func: Func) -> bool:
    return v == func or _binds_func(v, func)


def _binds_func(v: Value, func: Func) -> bool:
    return (isinstance(v, Partial) and v.target == func) or (isinstance(v, BoundMethod) and v.func == func)


def _as_partial(v: Value) -> Partial:
    """A bound method as the partial it amounts to: its receiver is the first argument."""
    if isinstance(v, BoundMethod):
        return Partial(v.func, (frozenset({v.receiver}),), ())
    return cast(Partial, v)


def _functions_of(interp: Interpreter, v: Value, bound: int, keywords: frozenset[str], depth: int) -> list[Any]:
    if depth > 6:
        return []
    if isinstance(v, Func):
        return [(v, bound, keywords)]
    if isinstance(v, Partial):
        named = {k for k, _ in v.keywords} | ({UNREAD_SPLAT} if v.hidden else set())
        return _functions_of(interp, v.target, bound + len(v.args), keywords | named, depth + 1)
    if isinstance(v, BoundMethod):
        return _functions_of(interp, v.func, bound + 1, keywords, depth + 1)
    if isinstance(v, Wrapped) and v.kind == "static":
        return _functions_of(interp, v.func, bound, keywords, depth + 1)
    if isinstance(v, Instance):
        out = []
        for m in operations.class_attribute(interp, v.cls, "__call__", v):
            forwarded = _forwarded_to_attribute(interp, m)
            for f in forwarded if forwarded is not None else [m]:
                out += _functions_of(interp, f, bound, keywords, depth + 1)
        return out
    return []


def _forwarded_to_attribute(interp: Interpreter, method: Value) -> frozenset[Value] | None:
    """A class-based decorator's `def __call__(self, *args, **kwargs): return self.fn(*args,
    **kwargs)`: calling the instance is calling what `self.fn` holds with the very same arguments
    (its return value too), so that is what JAX runs as the kernel.  None for other methods."""
    if not (isinstance(method, BoundMethod) and isinstance(method.func, Func)):
        return None
    node = method.func.node
    if isinstance(node, ast.Lambda) or len(node.args.args) != 1 or node.args.vararg is None:
        return None
    returns = list(own_returns(node))
    call = returns[0].value if len(returns) == 1 else None
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == node.args.args[0].arg
        and [ast.unparse(a) for a in call.args] == [f"*{node.args.vararg.arg}"]
        and [ast.unparse(k) for k in call.keywords] == ([f"**{node.args.kwarg.arg}"] if node.args.kwarg else [])
    ):
        return None
    held = operations.attribute(interp, method.receiver, call.func.attr, method.func.model)
    return held if held and all(isinstance(f, (Func, Partial, BoundMethod)) for f in held) else None


def entry_of(value: Value) -> Entry | None:
    while isinstance(value, Partial):
        value = value.target
    return value if isinstance(value, Entry) else None


def partial_of(
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
