"""Functions handed to Pallas APIs that call them back: `pl.when` bodies, pipeline bodies, loop bodies.

These are not kernels (JAX does not check their return value the way it checks a kernel's), but
what they return matters: `pl.when(traced)` turns a returned value into a `lax.cond` error, and
`pltpu.emit_pipeline`, `plgpu.kernel`, `plgpu.emit_pipeline` / `plgpu.nd_loop` without a carry
drop it silently (pallas-facts §1).

Forms found: the body passed positionally or by keyword (`api(body, ...)`, `api(body=f)`), a factory
applied in place or as a decorator (`api(args)(f)`, `@api(args)`), and `functools.partial(api, ...)`
used as a decorator or applied to the body.  The body expression is resolved like a kernel
(names, rebinding, functools.partial, lambdas, factories returning an inner def).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .kernels import KernelTarget, interpreter_for, resolve_kernel
from .launches import candidate_calls
from .model import FunctionNode, Loc, ModuleModel
from .names import PARTIAL, qualname
from .values.domain import EMPTY_ENV, Func, Value
from .values.methods import WhenDecorator


@dataclass(frozen=True)
class CallbackApi:
    kind: str
    label: str  # how messages spell it
    qualnames: frozenset[str]
    body_index: int | None  # where a call takes the body positionally (None: it only makes a decorator)
    body_keyword: str | None = None
    carry_keyword: str | None = None  # a keyword that makes the body's return value the loop carry


WHEN = CallbackApi("when", "pl.when", frozenset({"jax.experimental.pallas.when", "jax._src.pallas.helpers.when"}), None)
TPU_EMIT_PIPELINE = CallbackApi(
    "tpu_emit_pipeline",
    "pltpu.emit_pipeline",
    frozenset(
        {
            "jax.experimental.pallas.tpu.emit_pipeline",
            "jax.experimental.pallas.tpu.emit_pipeline_with_allocations",
            "jax._src.pallas.mosaic.pipeline.emit_pipeline",
            "jax._src.pallas.mosaic.pipeline.emit_pipeline_with_allocations",
        }
    ),
    0,
    "body",
)
GPU_EMIT_PIPELINE = CallbackApi(
    "gpu_emit_pipeline",
    "plgpu.emit_pipeline",
    frozenset(
        {"jax.experimental.pallas.mosaic_gpu.emit_pipeline", "jax._src.pallas.mosaic_gpu.pipeline.emit_pipeline"}
    ),
    0,
    "body",
    "init_carry",
)
GPU_ND_LOOP = CallbackApi(
    "gpu_nd_loop",
    "plgpu.nd_loop",
    frozenset({"jax.experimental.pallas.mosaic_gpu.nd_loop", "jax._src.pallas.mosaic_gpu.helpers.nd_loop"}),
    None,
    None,
    "init_carry",
)
GPU_KERNEL = CallbackApi(
    "gpu_kernel",
    "plgpu.kernel",
    frozenset({"jax.experimental.pallas.mosaic_gpu.kernel", "jax._src.pallas.mosaic_gpu.core.kernel"}),
    0,
    "body",
)
APIS = (WHEN, TPU_EMIT_PIPELINE, GPU_EMIT_PIPELINE, GPU_ND_LOOP, GPU_KERNEL)
_BY_QUALNAME = {name: api for api in APIS for name in api.qualnames}
# The last name of every API (and functools.partial): an attribute call `x.y(...)` can only be
# one of them when `y` is one of these.
_CALLEE_ATTRIBUTES = frozenset(name.rsplit(".", 1)[1] for name in _BY_QUALNAME) | {"partial"}


@dataclass(frozen=True)
class CallbackBody:
    """One function that an API will call back."""

    api: CallbackApi
    function: FunctionNode
    node: ast.AST  # the call or decorator that receives the body
    has_carry: bool | None  # the carry keyword is given (None: cannot tell, e.g. `**kwargs`)


@dataclass(frozen=True)
class _Pending:
    """An API call that still waits for its body (a factory call or a partial)."""

    api: CallbackApi
    keywords: tuple[ast.keyword, ...]


def callback_bodies(model: ModuleModel, apis: tuple[CallbackApi, ...] = APIS) -> list[CallbackBody]:
    """Every function of the module handed to one of `apis`, in source order."""
    wanted = {name: api for name, api in _BY_QUALNAME.items() if api in apis}
    pending: dict[int, _Pending] = {}
    found: list[tuple[CallbackApi, ast.expr | ast.AST, Loc, ast.AST, tuple[ast.keyword, ...]]] = []
    for call in candidate_calls(model, _CALLEE_ATTRIBUTES):
        loc = model.loc(call)
        name = qualname(call.func, loc, model)
        api = wanted.get(name) if name else None
        if api is not None:
            body = _body_argument(api, call.args, call.keywords)
            if body is not None:
                found.append((api, body, loc, call, tuple(call.keywords)))
            elif api.body_index is None or not call.args:
                pending[id(call)] = _Pending(api, tuple(call.keywords))
            continue
        if name == PARTIAL and call.args:
            inner = qualname(call.args[0], loc, model)
            api = wanted.get(inner) if inner else None
            if api is not None and api.body_index is not None and len(call.args) == 1:
                pending[id(call)] = _Pending(api, tuple(call.keywords))
    for call in model.calls_of_calls:  # factories and partials applied in place: `pl.when(c)(f)`
        if id(call.func) in pending and len(call.args) == 1 and not call.keywords:
            waiting = pending[id(call.func)]
            found.append((waiting.api, call.args[0], model.loc(call), call.func, waiting.keywords))
    for node in model.decorated:  # `@pl.when(c)`, `@plgpu.nd_loop(...)`, `@functools.partial(api, ...)`
        if isinstance(node, ast.ClassDef):
            continue
        for decorator in node.decorator_list:
            if id(decorator) in pending:
                waiting = pending[id(decorator)]
                found.append((waiting.api, node, model.loc(node), decorator, waiting.keywords))
            elif WHEN in apis:
                when = _when_made_by(decorator, node, model)
                if when is not None:
                    found.append((WHEN, node, model.loc(node), when, ()))
    bodies: list[CallbackBody] = []
    seen: set[tuple[int, int]] = set()
    for api, expr, loc, site, keywords in found:
        carry = _has_carry(api, keywords)
        for resolved in resolve_kernel(expr, loc, model):  # type: ignore[arg-type]  # a body is an expression or a def, as resolve_kernel takes
            if isinstance(resolved, KernelTarget) and (id(resolved.function), id(site)) not in seen:
                seen.add((id(resolved.function), id(site)))
                bodies.append(CallbackBody(api, resolved.function, site, carry))
    bodies.sort(key=lambda b: (getattr(b.function, "lineno", 0), getattr(b.function, "col_offset", 0)))
    return bodies


def _when_made_by(decorator: ast.expr, node: ast.AST, model: ModuleModel) -> ast.Call | None:
    """The `pl.when(c)` call behind a decorator that calls a helper of this module making it
    (`first_step = lambda: pl.when(pl.program_id(0) == 0)` ... `@first_step()`), as the
    interpreter evaluates it; None for any other decorator.  Only decorators of nested defs (a
    when body lives in a kernel) whose callee mentions `when` are evaluated."""
    where = model.loc(node)
    if where.scope is model.module_scope:
        return None
    if isinstance(decorator, ast.Name):  # `first = pl.when(c)`, then `@first`
        made_by = [b.value for b in where.scope.bindings.get(decorator.id, []) if b.kind == "assign"]
        if not made_by or not all(isinstance(v, ast.Call) and _mentions_when(v) for v in made_by):
            return None
        made = interpreter_for(model).ev(decorator, where, EMPTY_ENV, model)
        return _the_when_call(made, model)
    if not isinstance(decorator, ast.Call):
        return None
    interp = interpreter_for(model)
    callees = interp.ev(decorator.func, where, EMPTY_ENV, model)
    if not callees or not all(isinstance(f, Func) and _mentions_when(f.node) for f in callees):
        return None
    return _the_when_call(interp.ev(decorator, where, EMPTY_ENV, model), model)


def _the_when_call(made: frozenset[Value], model: ModuleModel) -> ast.Call | None:
    """The one `pl.when(c)` call in this module that made a decorator's value, if it is that."""
    calls = {id(v.call): v.call for v in made if isinstance(v, WhenDecorator) and v.call is not None}
    if len(calls) != 1 or len(made) != 1:
        return None
    [call] = calls.values()
    return call if id(call) in model.loc_of else None  # its condition is read in this module


def _mentions_when(function: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Attribute) and n.attr == "when") or (isinstance(n, ast.Name) and n.id == "when")
        for n in ast.walk(function)
    )


def _body_argument(api: CallbackApi, args: list[ast.expr], keywords: list[ast.keyword]) -> ast.expr | None:
    if api.body_index is None:
        return None
    if any(isinstance(a, ast.Starred) for a in args[: api.body_index + 1]):
        return None
    if len(args) > api.body_index:
        return args[api.body_index]
    for keyword in keywords:
        if keyword.arg == api.body_keyword:
            return keyword.value
    return None


def _has_carry(api: CallbackApi, keywords: tuple[ast.keyword, ...]) -> bool | None:
    if api.carry_keyword is None:
        return False
    for keyword in keywords:
        if keyword.arg is None:
            return None  # **kwargs may hold the carry
        if keyword.arg == api.carry_keyword:
            return not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
    return False
