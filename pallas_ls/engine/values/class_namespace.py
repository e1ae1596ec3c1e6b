"""Where a class attribute is found along the MRO: the class bodies, what the program stores into
the classes (the heap), and what it deletes from them (`del Sub.k`: the next class's value).
engine/values/operations.py binds what is found (methods, descriptors)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from ..model import Loc, ModuleModel, positional_args
from . import bindings, class_counters, classes, store_sites
from .domain import EMPTY_ENV, Class, Const, Func, U, Value, union

if TYPE_CHECKING:
    from .interpreter import Interpreter


def defining_class(interp: Interpreter, cls: Class, attr: str, depth: int = 0) -> tuple[Class, frozenset[Value]] | None:
    """The class of `cls`'s MRO whose namespace holds `attr` (its body, or a store into the class:
    `setattr(cls, name, fn)`, `Cls.attr = v`), and the values held there."""
    if depth == 0 and (mro := classes.class_mro(interp, cls)) is not None:
        found: tuple[Class, frozenset[Value]] | None = None
        for klass in mro:
            if isinstance(klass, Class) and (held := own_attribute(interp, klass, attr)) is not None:
                deleted = (
                    deleted_before_the_read(interp, klass, attr) if deleted_somewhere(klass.model, attr) else False
                )
                if deleted:
                    continue  # `del Sub.k` ran before this read at import: the next class's
                found = (found[0], found[1] | held) if found is not None else (klass, held)
                if deleted is False:
                    return found
                # `del Sub.k` may have removed it there: the next class's too
        return found
    # Bases whose values are not known one by one (`class C(A if f else B)`): each base in turn.
    if depth > 8:
        return cls, U
    held = own_attribute(interp, cls, attr)
    if held is not None:
        return cls, held
    for base in cls.node.bases:
        for base_value in interp.ev(base, cls.model.loc(cls.node), EMPTY_ENV, cls.model):
            if isinstance(base_value, Class):
                found = defining_class(interp, base_value, attr, depth + 1)
                if found is not None:
                    return found
    return None


def deleted_before_the_read(interp: Interpreter, cls: Class, attr: str) -> bool | None:
    """For a read at import in the class's module (`Interpreter.reading_at`), whether `del
    Cls.attr` surely ran before it (True) or surely not (False), when the module's only changes
    of `attr` are its class bodies and such statements of its own (`del Sub.k` straight in the
    module's body, its receiver the class).  None: not known."""
    at = interp.reading_at
    model = cls.model
    if at is None or at[0] is not model or any(True for _ in store_sites.attribute_sites(model, attr)):
        return None
    deletions = _deletions_of(model, attr)
    if deletions is None:
        return None  # a deletion in a function or a branch may or may not have run
    ran = False
    for stmt, receiver_expr in deletions:
        receiver = interp.ev(receiver_expr, Loc(model.module_scope, stmt), EMPTY_ENV, model)
        if cls in receiver and len(receiver) > 1:
            return None
        if receiver == frozenset({cls}) and stmt.lineno < at[1]:
            ran = True
    return ran


def _deletions_of(model: ModuleModel, attr: str) -> list[tuple[ast.stmt, ast.expr]] | None:
    """The statements straight in the module's body that delete `attr` (`del Sub.k`, and
    `delattr(Sub, "k")` as a statement of its own), with their receivers; None when some deletion
    of it is elsewhere (a function, a branch) or names what it deletes by a computed name."""
    found: list[tuple[ast.stmt, ast.expr]] = []
    top = {id(stmt) for stmt in model.tree.body}
    for stmt in (inner for outer in model.tree.body for inner in bindings.statements_under(outer)):
        if isinstance(stmt, ast.Delete) and any(isinstance(t, ast.Attribute) and t.attr == attr for t in stmt.targets):
            if id(stmt) not in top or len(stmt.targets) != 1:
                return None
            found.append((stmt, cast(ast.Attribute, stmt.targets[0]).value))
    for call in model.calls_named(("delattr",)):
        name = call.args[1] if len(call.args) == 2 else None
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return None
        statement = model.loc(call).stmt
        if name.value != attr:
            continue
        if not (isinstance(statement, ast.Expr) and statement.value is call and id(statement) in top):
            return None
        found.append((statement, call.args[0]))
    return found


def deleted_somewhere(model: ModuleModel, attr: str) -> bool:
    """Does the module delete an attribute `attr` (`del Sub.k`, `delattr(obj, "k")`)?  Kept on the model."""
    deleted: frozenset[str] | None = getattr(model, "_pallas_ls_deleted_attributes", None)
    if deleted is None:
        names = set()
        for stmt in (inner for top in model.tree.body for inner in bindings.statements_under(top)):
            if isinstance(stmt, ast.Delete):  # (statements only: a tenth of the module's nodes)
                names |= {t.attr for t in stmt.targets if isinstance(t, ast.Attribute)}
        for call in model.calls_named(("delattr",)):
            name = call.args[1] if len(call.args) == 2 else None
            names.add(name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else "*")
        deleted = frozenset(names)
        model._pallas_ls_deleted_attributes = deleted  # type: ignore[attr-defined]  # a cache kept on the model
    return attr in deleted or "*" in deleted


def own_attribute(interp: Interpreter, cls: Class, attr: str) -> frozenset[Value] | None:
    """`attr` in the class's own namespace: its body, or a store into the class."""
    class_scope = cls.model.scope_of_function.get(id(cls.node))
    in_body = class_scope.bindings.get(attr, []) if class_scope is not None else []
    if in_body:
        counted = class_counters.at_read(interp, cls, attr)
        if counted is not None:
            return counted  # `Op.made += 1` in `__init__`, after two `Op()`
        replaced = interp.heap.replaces_class_attribute(cls, attr)
        if replaced is not None:
            return replaced  # `Op.kernel = staticmethod(copy)` after the class statement
        body_value = union(
            bindings.binding_value(interp, b, cls.env, cls.model) for b in cls.model.reaching(in_body, None)
        )
        # and what a function stores into the class (`cls.kernel = fn` in a classmethod)
        return body_value | interp.heap.attribute(cls, attr)
    if made_with_hooks(interp, cls):
        interp.heap.run_import_time()  # its bases' `__init_subclass__` may store on it (`cls.kernel = k`)
    return interp.heap.attribute(cls, attr) or None


def made_with_hooks(interp: Interpreter, cls: Class) -> bool:
    """Whether a base of the class defines an `__init_subclass__` that sets attributes on the class
    it is called for (`cls.kernel = k`): it runs when the class is made."""
    if not cls.node.bases:
        return False
    key = ("made-with-hooks", cls)
    known = interp._memo.get(key)  # noqa: SLF001  (the interpreter's memo of this analysis)
    if known is None:
        where = cls.model.loc(cls.node)
        hooks = [
            defining_class(interp, base, "__init_subclass__") if isinstance(base, Class) else None
            for expr in cls.node.bases
            for base in interp.ev(expr, where, EMPTY_ENV, cls.model)
        ]
        hooked = any(
            isinstance(hook, Func)
            and bool(first := positional_args(hook.node)[:1])
            and interp.heap.sets_attributes_through(hook.model, hook.node, first[0].arg)
            for found in hooks
            if found is not None
            for hook in found[1]
        )
        known = frozenset({Const(hooked)})
        interp._memo[key] = known  # noqa: SLF001
    return Const(True) in known
