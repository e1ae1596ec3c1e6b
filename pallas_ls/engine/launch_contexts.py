"""Which calling contexts of a launching function count (LaunchFinder's bookkeeping).

A launch written in a function is explored in the contexts its calls give it (`run("copy")` binds
`name`) and in its generic context (parameters unknown), which stands for the calls we cannot
see.  The seen calls decide when they cover everything: each is recorded with the context it was
made in and the context it explored, and `LaunchContexts.counts` says whether a context of a
function can run.  A function that escapes (read other than as a callee: `map(run, names)`, a
string naming it) keeps its generic context whatever its seen calls pass.
"""

from __future__ import annotations

import ast
from typing import cast

from .model import FunctionNode, ModuleModel, child_nodes
from .names import callee_name
from .values.domain import Env, Func


class LaunchContexts:
    """The calls of launching functions seen while looking for launches, and what they explored."""

    def __init__(self, default_model: ModuleModel):
        # id(function node) -> (the calling function or None at module level, its context, the
        # context the call explored or None where it explored none)
        self._callers: dict[int, list[tuple[FunctionNode | None, Env, Env | None]]] = {}
        self._models: dict[int, ModuleModel] = {}  # id(function node) -> its module
        self._default_model = default_model

    def record(self, func: Func, caller: FunctionNode | None, caller_env: Env, explored: Env | None) -> None:
        """A call of `func` made in `caller` (None: module level) in context `caller_env`, which
        explored `func` in context `explored` (None: it explored none)."""
        self._callers.setdefault(id(func.node), []).append((caller, caller_env, explored))
        self._models[id(func.node)] = func.model

    def counts(self, function: FunctionNode | None, env: Env, path: frozenset[tuple[int, Env]] = frozenset()) -> bool:
        """Can `function` run in context `env`, as far as the calls recorded say?

        A launcher's generic context (parameters unknown) stands for callers we cannot see: it
        counts only while no call outside the function was seen, or one was seen that explored no
        context of its own (its arguments unknown, or a budget spent).  Once every seen call was
        explored in its own context, those contexts decide: `run(fused=False)`, the one call of a
        launcher whose `fused` branch returns a value, reports nothing.  A context another context
        explored counts when that one does; a context no seen call made counts (what we cannot
        trace is kept, never dropped)."""
        if function is None:
            return True
        records = self._callers.get(id(function))
        if not records or (id(function), env) in path:
            return not records
        path = path | {(id(function), env)}
        if not env.items:
            outside = [(caller, at, explored) for caller, at, explored in records if caller is not function]
            model = self._models.get(id(function), self._default_model)
            if getattr(function, "name", None) in escaping_names(model):
                # `map(run, names)`: a call of it we cannot see may pass anything; but a closure
                # (`def make(name): def run(x): ...; return run`) is made by a call of the function
                # around it, and holds that call's arguments: unseen calls of it pass the ones
                # of calls of `make` we cannot see.
                enclosing = enclosing_function(model, function)
                return enclosing is None or self.counts(enclosing, env, path)
            return not outside or any(
                explored is None and self.counts(caller, at, path) for caller, at, explored in outside
            )
        exploring = [(caller, at) for caller, at, explored in records if explored == env]
        return not exploring or any(self.counts(caller, at, path) for caller, at in exploring)


# Calls whose first argument stays a function the launch finder follows: their result's calls
# (`functools.partial(run, "copy")()`, `jax.jit(run)(x)`) are evaluated as calls of it.
_FOLLOWING_WRAPPERS = frozenset(
    {
        "partial",
        "jit",
        "staticmethod",
        "classmethod",
        "wraps",
        "partialmethod",
        "vmap",
        "pmap",
        "checkpoint",
        "remat",
        "named_call",
    }
)
# Calls that call their first argument at once, each call seen by the launch finder, which
# evaluates them (`list(map(run, ["copy"]))` calls run("copy")): that argument does not escape.
IMMEDIATELY_CALLING = frozenset({"map", "starmap", "reduce"})


def escaping_names(model: ModuleModel) -> frozenset[str]:
    """Names a function may be called through where no call of it is written: read other than as
    a callee, a module- or class-level alias's value, or a following wrapper's first argument
    (`map(run, names)`, `apply(run, n)`, `stack.callback(run, n)`, `return run`), or named by a
    string (`globals()["run"]`, `getattr(module, "run")`).  Such a function's generic context
    stands for the calls we cannot see, whatever the calls we see pass."""
    cached: frozenset[str] | None = getattr(model, "_pallas_ls_escaping", None)
    if cached is not None:
        return cached
    followed: set[int] = set()
    scopes = (model.module_scope, *(s for s in model.scope_of_function.values() if s.kind == "class"))
    for scope in scopes:
        for group in scope.bindings.values():
            for binding in group:
                if binding.kind == "assign" and binding.value is not None:
                    followed.update(id(node) for node in ast.walk(binding.value))
    names: set[str] = set()
    stack: list[ast.AST] = [model.tree]
    while stack:  # a parent is seen before its children: a callee is marked before it is read
        node = stack.pop()
        kind = type(node)  # compared by identity: isinstance over a whole module costs
        if kind is ast.Name:
            read = cast(ast.Name, node)
            if type(read.ctx) is ast.Load and id(read) not in followed:
                names.add(read.id)
            continue
        if kind is ast.Constant:
            value = cast(ast.Constant, node).value
            if type(value) is str and value.isidentifier():
                names.add(value)
            continue
        if kind is ast.Call:
            call = cast(ast.Call, node)
            followed.add(id(call.func))
            if call.args and callee_name(call) in _FOLLOWING_WRAPPERS | IMMEDIATELY_CALLING:
                followed.add(id(call.args[0]))
        stack.extend(child_nodes(node))
    escaping = frozenset(names)
    model._pallas_ls_escaping = escaping  # type: ignore[attr-defined]  # a cache kept on the model
    return escaping


def enclosing_function(model: ModuleModel, function: FunctionNode) -> FunctionNode | None:
    """The function (or lambda) whose body defines `function`; None for a module or class level one."""
    scope = model.scope_of_function.get(id(function))
    parent = scope.parent if scope is not None else None
    return parent.node if parent is not None and parent.kind in ("function", "lambda") else None  # type: ignore[return-value]


def names_calling(model: ModuleModel, function: FunctionNode) -> set[str]:
    """The names a call of `function` is written with in another file: its own, and for a method
    its class's too (`Op("bump")(x)` runs `Op.__call__`)."""
    names = {getattr(function, "name", "")}
    scope = model.scope_of_function.get(id(function))
    parent = scope.parent if scope is not None else None
    if parent is not None and isinstance(parent.node, ast.ClassDef):
        names.add(parent.node.name)
    return names
