"""A class attribute that its module's import-time code changes from its own value, read at import
after those changes: the class body's value, then each change in the order the module made it.

    class Op:
        made = 0
        def __init__(self):
            Op.made += 1            # each `Op()` at import
        @classmethod
        def take(cls):
            cls.n += 1              # each `Op.take()` at import

    Op()
    Op()
    kernel = KERNELS[Op.made]       # 2

Followed only where certain: every store of the attribute in the module is such a statement
(`Op.made += 1` or `= ...`), written straight in the module's body or straight in the body of
the class's `__init__` (run by the class's calls), of a classmethod or staticmethod, or of a
module-level function, each of which only statements of the module's body call; the class is
not decorated, subclassed or handed on.  Otherwise None: the heap's reading (which joins every
store, an augmented one as Unknown).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..model import Binding, Loc, ModuleModel, may_leave_early
from . import bindings, import_order, store_sites
from .domain import EMPTY_ENV, Class, Value

if TYPE_CHECKING:
    from .interpreter import Interpreter


def at_read(interp: Interpreter, cls: Class, attr: str) -> frozenset[Value] | None:
    """The class attribute as the module's statements before the read (`Interpreter.reading_at`)
    left it; None when that is not followed (see the module)."""
    at = interp.reading_at
    model = cls.model
    if at is None or at[0] is not model:
        return None
    sites = store_sites.attribute_sites(model, attr)
    if not any(isinstance(site.node, ast.AugAssign) for site in sites):
        return None  # no counter: plain stores are the heap's (replaces_class_attribute)
    events = _events(interp, cls, attr, sites, model)
    initial = _initial_binding(cls, attr)
    if events is None or initial is None:
        return None
    value = bindings.binding_value(interp, initial, cls.env, model)
    for position, stmt, where in events:
        if position >= at[1]:
            break
        operand = interp.ev(stmt.value, where, EMPTY_ENV, model)
        value = interp.binary(stmt.op, value, operand, stmt, where) if isinstance(stmt, ast.AugAssign) else operand
    return value


def _initial_binding(cls: Class, attr: str) -> Binding | None:
    """The class body's one assignment of `attr` (`made = 0`)."""
    scope = cls.model.scope_of_function.get(id(cls.node))
    found = scope.bindings.get(attr, []) if scope is not None else []
    if len(found) != 1 or found[0].kind != "assign" or not any(found[0].stmt is s for s in cls.node.body):
        return None
    return found[0]


_Event = tuple[int, ast.AugAssign | ast.Assign, Loc]


def _events(
    interp: Interpreter, cls: Class, attr: str, sites: list[store_sites.StoreSite], model: ModuleModel
) -> list[_Event] | None:
    """Each store of the attribute as the module runs, in order: (the line of the module's
    statement that makes it, the store statement, where it is evaluated); None where not followed."""
    node = cls.node
    if node.decorator_list or node.keywords or _subclassed_or_handed_on(model, node.name):
        return None
    events: list[_Event] = []
    for site in sites:
        stmt = site.node
        if not isinstance(stmt, (ast.AugAssign, ast.Assign)) or not _names_the_class(site, node):
            return None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) != 1:
            return None
        if site.function is None:
            if not any(stmt is top for top in model.tree.body):
                return None  # under an `if`, in a loop: whether it ran is not known
            events.append((stmt.lineno, stmt, Loc(model.module_scope, stmt)))
            continue
        calls = _calls_running(model, node, site.function)
        body = getattr(site.function, "body", [])
        index = next((i for i, s in enumerate(body) if s is stmt), None)
        scope = model.scope_of_function.get(id(site.function))
        if calls is None or index is None or scope is None or may_leave_early(body[: index + 1]):
            return None
        if any(isinstance(n, ast.Name) and n.id in scope.bindings for n in ast.walk(stmt.value)):
            return None  # the value reads a parameter or a local: the call's own, not followed
        where = Loc(scope, stmt)
        events += [(import_order.top_level_start(model, call), stmt, where) for call in calls]
    return sorted(events, key=lambda e: (e[0], e[1].lineno, e[1].col_offset))


def _names_the_class(site: store_sites.StoreSite, node: ast.ClassDef) -> bool:
    """`Op.made += 1` by the class's name, or `cls.n += 1` in one of its classmethods."""
    receiver = site.receiver
    if not isinstance(receiver, ast.Name):
        return False
    if receiver.id == node.name:
        return True
    return any(site.function is s for s in node.body) and store_sites.names_its_class(site.function, receiver.id)


def _calls_running(model: ModuleModel, node: ast.ClassDef, function: ast.AST) -> list[ast.Call] | None:
    """The module's statements' calls that run `function` (the class's `__init__`: its calls),
    each surely once; None when it may run otherwise."""
    if getattr(function, "name", None) == "__init__" and any(function is s for s in node.body):
        calls = model.calls_named([node.name])
        if all(import_order.runs_surely_once(c, model) and model.loc(c).scope is model.module_scope for c in calls):
            return calls
        return None
    return import_order.calls_at_import(model, function)


def _subclassed_or_handed_on(model: ModuleModel, name: str) -> bool:
    """Whether the module names the class other than to call it or to read or store its
    attributes (`class Sub(Op)`, `make(Op)`, `OPS = [Op]`): it may then be run unseen.  Kept on
    the model (asked only for classes with a counter)."""
    kept: dict[str, bool] = model.__dict__.setdefault("_pallas_ls_classes_handed_on", {})
    if name not in kept:
        kept[name] = any(
            isinstance(child, ast.Name)
            and child.id == name
            and not (isinstance(sub, ast.Call) and sub.func is child)
            and not (isinstance(sub, ast.Attribute) and sub.value is child)
            for sub in ast.walk(model.tree)
            for child in ast.iter_child_nodes(sub)
        )
    return kept[name]
