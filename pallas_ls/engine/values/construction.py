"""Instances made by calling a class: a metaclass's `__call__`, `__new__` returning another object,
`__init__` run with the arguments bound (its stores go to the new instance on the heap), and a
dataclass's generated `__init__` (fields from arguments, defaults and `field(...)`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, cast

from ..model import Loc, positional_args
from . import bindings, calls, classes, library, operations, ref_identity
from .domain import EMPTY_ENV, Class, Const, DictV, Env, External, Func, Instance, Partial, Value, union

if TYPE_CHECKING:
    from .interpreter import Interpreter


def by_metaclass(
    interp: Interpreter,
    cls: Class,
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    *rest: Any,
) -> frozenset[Value] | None:
    """`Op()` where Op's metaclass defines `__call__`: what that returns (called with the class);
    None when no metaclass of the program's defines one (`type.__call__` makes an instance)."""
    hooks = [
        h
        for meta in classes.metaclass_of(interp, cls)
        if isinstance(meta, Class)
        for h in operations.class_attribute(interp, meta, "__call__", None)
        if isinstance(h, Func)
    ]
    if not hooks:
        return None
    return union(calls.apply(interp, h, [frozenset({cls}), *args], keywords, *rest) for h in hooks)


def made_by_new(
    interp: Interpreter,
    cls: Class,
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    made: frozenset[Value],
    *rest: Any,
) -> frozenset[Value]:
    """`Op(fast)` whose `__new__` may return an instance of another class (`return FastOp()`), or
    no instance at all (`return KS[name]`): that object (Op's `__init__` does not run on it),
    beside Op's own instance when `__new__` may return that."""
    news = [n for n in operations.class_attribute(interp, cls, "__new__", None) if isinstance(n, Func)]
    if len(news) != 1:
        return made
    returned = calls.apply(interp, news[0], [frozenset({cls}), *args], keywords, *rest)
    others = frozenset(
        v
        for v in returned
        if (isinstance(v, Instance) and v.cls != cls) or isinstance(v, (Func, Partial, Const, DictV))
    )
    if not others:
        return made
    return others | made if returned - others else others


def typed_dict(
    interp: Interpreter,
    cls: Class,
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    call: ast.Call | None,
    loc: Loc | None,
) -> frozenset[Value] | None:
    """`Cfg(fn=k)` of a `class Cfg(TypedDict)` (or of a class deriving from one): a plain dict of
    the keyword arguments, made here."""
    if args or not _derives_from_typed_dict(interp, cls):
        return None
    return frozenset({DictV(tuple(keywords), union(v for _, v in keywords), *library.allocation(call, loc))})


def _derives_from_typed_dict(interp: Interpreter, cls: Class) -> bool:
    if any(classes.decorator_name(b) == "TypedDict" for b in cls.node.bases):
        return True  # (read as written: no MRO to compute for the common case)
    mro = classes.class_mro(interp, cls) or []
    return any(isinstance(c, External) and c.qualname.rpartition(".")[2] == "TypedDict" for c in mro)


def report_init_call(
    interp: Interpreter,
    inits: frozenset[Value],
    made: frozenset[Value],
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    call: ast.Call | None,
    loc: Loc | None,
    env: Env,
    unknown_rest: bool,
    unknown_kw: bool,
) -> None:
    """`Layer("copy")` is a call of `Layer.__init__` with the new instance first: the launch
    finder hears of it as of any call (a launch in `__init__` is explored in that context)."""
    if interp.on_function_call is None or call is None:
        return
    if len(inits) == 1 and isinstance(init := next(iter(inits)), Func):
        interp.on_function_call(init, [made, *args], keywords, unknown_rest, unknown_kw, loc, env)


def construct(
    interp: Interpreter,
    cls: Class,
    init: frozenset[Value],
    args: list[frozenset[Value]],
    keywords: list[tuple[str, frozenset[Value]]],
    unknown_rest: bool,
    unknown_kw: bool,
    site: int = 0,
) -> frozenset[Value]:
    """An instance of `cls` made by a call (`site`, its id): its `__init__` (`init`, what the class
    holds under that name) run with the arguments bound."""
    if classes.is_dataclass(cls.node):
        declared = [s for s in cls.node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        names = [cast(ast.Name, s.target).id for s in declared]
        fields = list(zip(names, args, strict=False))
        given = dict(keywords)
        for declaration, name in list(zip(declared, names, strict=True))[len(args) :]:
            if name in given:
                fields.append((name, given[name]))
            elif classes.plain_default(declaration) and not (unknown_rest or unknown_kw):
                # A field's default is the instance's own attribute: a function there is not
                # bound as a method would be (`cfg.kernel` with `kernel: Callable = plain`).
                fields.append(
                    (
                        name,
                        interp.ev(cast(ast.expr, declaration.value), cls.model.loc(declaration), EMPTY_ENV, cls.model),
                    )
                )
            elif not (unknown_rest or unknown_kw):
                made = _field_default(interp, declaration, cls)
                if made is not None:
                    # `field(default_factory=lambda: jax.new_ref(x))` runs at each construction:
                    # two instances hold two Refs
                    fields.append((name, ref_identity.fresh_refs(made, [], [], ("default_factory", site, name))))
        return frozenset({Instance(cls, None, tuple(fields), site)})
    inits = [v for v in init if isinstance(v, Func)]
    if len(inits) != 1 or len(init) != 1:
        return frozenset({Instance(cls, site=site)})
    func = inits[0]
    placeholder = frozenset({Instance(cls)})
    bound = calls.bind_arguments(interp, func, [placeholder, *args], keywords, unknown_rest, unknown_kw)
    if bound is None:
        return frozenset({Instance(cls, site=site)})
    params = positional_args(func.node)
    self_binding = bindings.param_binding(func, params[0].arg) if params else None
    pairs = [(b, v) for b, v in bound.items if b is not self_binding]
    instance = Instance(cls, Env(tuple(pairs)), site=site)
    if self_binding is not None:  # what __init__ stores on the heap, it stores on this instance
        init_env = bound.extended([(self_binding, frozenset({instance}))])
        interp.heap.called(func.node, init_env)
        bindings.run_calls_in(interp, func, init_env)  # `super().__init__(...)`, `interp.setup()`, `REG.add(interp)`
    return frozenset({instance})


def _field_default(interp: Interpreter, declaration: ast.AnnAssign, cls: Class) -> frozenset[Value] | None:
    """`field(default=v)` gives v; `field(default_factory=f)` what calling f gives."""
    call = declaration.value
    if not isinstance(call, ast.Call):
        return None
    loc = cls.model.loc(declaration)
    if not any(v == library.external("dataclasses.field") for v in interp.ev(call.func, loc, EMPTY_ENV, cls.model)):
        return None
    for keyword in call.keywords:
        value = interp.ev(keyword.value, loc, EMPTY_ENV, cls.model)
        if keyword.arg == "default":
            return value
        if keyword.arg == "default_factory":
            return union(calls.apply(interp, f, [], [], None, None, EMPTY_ENV, cls.model) for f in value)
    return None
