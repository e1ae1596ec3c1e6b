"""A function's default list, as the module's calls of the function have left it.

    def add(fn, acc=[]):
        acc.append(fn)
        return acc
    add(copy)
    kernel = add(bump)[-1]      # bump: the one default list holds [copy, bump]

Python evaluates a default once, so every call that does not pass `acc` appends to one list.  The
heap knows that object, and what is appended to it, but not in which order or how often: read in
the module's straight-line code, the list is the display's elements and then, call by call, what
each call before (and the one read) appended.

Followed only where certain: the def is at module level and its body is `acc.append(param)`
statements then `return acc`; its name is bound once and read only as the callee of calls in
module-level statements (one per statement), each a statement of its own or subscripted at once
(`add(bump)[-1]`), none passing `acc`.  Anything else: the heap's answer.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Loc, ModuleModel
from .domain import EMPTY_ENV, Func, Seq, Value, single_known_seq

if TYPE_CHECKING:
    from .interpreter import Interpreter


@dataclass(frozen=True)
class _Accumulator:
    param: str  # the parameter whose default is the list (`acc`)
    position: int  # its index among the positional parameters
    display: ast.List  # the default's display
    appended: tuple[str, ...]  # the parameters appended, in order (`fn`)
    params: tuple[str, ...]  # the positional parameters


def as_left_by_the_calls(
    interp: Interpreter, func: Func, call: ast.Call, loc: Loc, model: ModuleModel, result: frozenset[Value]
) -> frozenset[Value] | None:
    """What `call` (of `func`, read at `loc`) returns when it returns the default list, as the
    module's calls up to and including it left the list; None when not followed."""
    seq = next(iter(result)) if len(result) == 1 else None
    if not isinstance(seq, Seq) or seq.kind != "list" or loc.scope is not model.module_scope:
        return None
    node = func.node
    if not isinstance(node, ast.FunctionDef) or not any(id(d) == seq.site for d in node.args.defaults):
        return None  # (most calls: cheap) not the list a default display made
    shape = _accumulator(func, model)
    if shape is None or id(shape.display) != seq.site:
        return None
    calls = _module_calls(model, node.name)
    if calls is None or not any(c is call for c in calls):
        return None
    start = single_known_seq(interp.ev(shape.display, model.loc(func.node), EMPTY_ENV, model))
    if start is None:
        return None
    elements = list(start.elements())
    for made in calls:
        appended = _appended(shape, made)
        if appended is None:
            return None
        where = model.loc(made)
        elements.extend(interp.ev(a, where, EMPTY_ENV, model) for a in appended)
        if made is call:
            return frozenset({Seq("list", tuple(elements), frozenset(), seq.site)})
    return None


def _accumulator(func: Func, model: ModuleModel) -> _Accumulator | None:
    node = func.node
    if not isinstance(node, ast.FunctionDef) or node not in model.tree.body or node.decorator_list:
        return None
    params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    defaults = dict(zip(params[len(params) - len(node.args.defaults) :], node.args.defaults, strict=True))
    *appends, last = node.body
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name)):
        return None
    param = last.value.id
    display = defaults.get(param)
    if not isinstance(display, ast.List) or not appends:
        return None
    appended = []
    for stmt in appends:
        target = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (
            isinstance(target, ast.Call)
            and isinstance(target.func, ast.Attribute)
            and target.func.attr == "append"
            and isinstance(target.func.value, ast.Name)
            and target.func.value.id == param
            and len(target.args) == 1
            and not target.keywords
            and isinstance(target.args[0], ast.Name)
            and target.args[0].id in params
            and target.args[0].id != param
        ):
            return None
        appended.append(target.args[0].id)
    return _Accumulator(param, params.index(param), display, tuple(appended), tuple(params))


def _module_calls(model: ModuleModel, name: str) -> list[ast.Call] | None:
    """The calls of `name` in the module's straight-line statements, in order, when every read of
    the name is one of them (a statement of its own, or subscripted at once) and it is bound once."""
    if len(model.module_scope.bindings.get(name, [])) != 1:
        return None
    reads = sum(
        1 for n in ast.walk(model.tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    )
    found: list[ast.Call] = []
    for stmt in model.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        here = [c for c in _direct_calls(stmt) if isinstance(c.func, ast.Name) and c.func.id == name]
        if len(here) > 1:
            return None
        found.extend(here)
    return found if len(found) == reads else None


def _direct_calls(stmt: ast.stmt) -> list[ast.Call]:
    """The call a statement makes as itself (`add(copy)`), or as the value it subscripts at once
    and assigns (`kernel = add(bump)[-1]`): a call that surely runs, once."""
    # (`lst = add(bump)` keeps the list itself: later calls change what it reads)
    if isinstance(stmt, ast.Expr):
        value: ast.expr | None = stmt.value
    elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Subscript):
        value = stmt.value.value
    else:
        value = None
    return [value] if isinstance(value, ast.Call) else []


def _appended(shape: _Accumulator, call: ast.Call) -> list[ast.expr] | None:
    """The argument expressions a call binds to the appended parameters; None when it passes the
    list's parameter (another list), or a parameter is not given plainly."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if len(call.args) > shape.position or any(k.arg == shape.param for k in call.keywords):
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    out = []
    for name in shape.appended:
        index = shape.params.index(name)
        value = call.args[index] if index < len(call.args) else keywords.get(name)
        if value is None:
            return None
        out.append(value)
    return out
