"""Where the program stores into objects, found by syntax (the heap evaluates them).

A `StoreSite` is one statement or call that may put a value into an object: `r[k] = v`,
`r.a = v`, `r.a += v`, `setattr(r, k, v)`, `r.update(m)`, `r.setdefault(k, v)`, `r.append(v)`,
`r.extend(vs)`, `vars(self)[k] = v`, `operator.setitem(r, k, v)`.  Each module's sites are found once (kept on its parts) and
indexed by attribute name; `heap.Heap` evaluates a site's receiver and value in the environments
its function ran with.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import FunctionNode, ModelParts, ModuleModel, Scope, positional_args
from ..names import EXTERNAL_ROOTS, callee_name
from . import classes

if TYPE_CHECKING:
    pass

# Methods that store into their receiver: kind of store, and where its key and value are.
_STORING_METHODS = {
    "setdefault": "item",
    "update": "update",
    "append": "append",
    "insert": "append",
    "appendleft": "append",
    "add": "append",
    "extend": "extend",
}


@dataclass(frozen=True, eq=False)
class StoreSite:
    """One place that stores into an object: `receiver[key] = value`, `receiver.key = value`, ..."""

    kind: str  # "item" | "attr" | "update" | "append" | "extend"
    receiver: ast.expr
    key: ast.expr | str | None  # an item's key expression, an attribute's name (or setattr's name expression)
    value: ast.expr | None
    node: ast.AST  # the statement or call, for its location
    function: FunctionNode | None  # the innermost function that holds it (None: module or class level)
    # The receiver is a local name of that function that only ever holds containers the function
    # makes itself (`out = {}; out[k] = v`): it cannot store into an object made elsewhere.
    fresh_local: bool = False
    # `self.x = v` in a method: an instance field the interpreter reads from the class's methods
    # with the constructor's arguments (`Interpreter.instance_attribute`), not through the heap.
    on_self: bool = False
    # `obj.__dict__.update(mapping)`: an attribute store per item of the mapping (key None).
    items: bool = False


def store_sites(model: ModuleModel) -> list[StoreSite]:
    """Every store into an object in one module, at any depth (kept on the model: built once)."""
    kept: list[StoreSite] | None = getattr(model, "_pallas_ls_store_sites", None)
    if kept is None:
        kept = [site for part in model._parts for site in _part_store_sites(part)]  # noqa: SLF001
        model._pallas_ls_store_sites = kept  # type: ignore[attr-defined]  # a cache kept on the model
    return kept


def _part_store_sites(part: ModelParts) -> list[StoreSite]:
    """The stores of one block of top-level statements, kept on the block's parts: an edit
    elsewhere in the file reuses them (parts are rebuilt only for the blocks an edit touches)."""
    kept: list[StoreSite] | None = getattr(part, "_pallas_ls_store_sites", None)
    if kept is None:
        found = (*_assignment_stores(part.statements, None), *_call_stores(part))
        kept = [_with_freshness(site, part.scope_of_function) for site in found]
        part._pallas_ls_store_sites = kept  # type: ignore[attr-defined]  # a cache kept on the parts
    return kept


def attribute_sites(model: ModuleModel, attr: str | None) -> list[StoreSite]:
    """The attribute stores that may set `attr` (those naming it, and setattr with a computed
    name; None: all), but `self.x = v` in methods.  Indexed once per model."""
    index: dict[str | None, list[StoreSite]] | None = getattr(model, "_pallas_ls_attribute_sites", None)
    if index is None:
        index = {None: []}
        computed: list[StoreSite] = []
        for site in store_sites(model):
            if site.kind != "attr" or site.on_self:
                continue
            index[None].append(site)
            if isinstance(site.key, str):
                index.setdefault(site.key, []).append(site)
            else:
                computed.append(site)
        for name in list(index):
            if name is not None:
                index[name] = index[name] + computed
        index[""] = computed  # a name no store names: only the computed ones
        model._pallas_ls_attribute_sites = index  # type: ignore[attr-defined]  # a cache kept on the model
    if attr is None:
        return index[None]
    return index.get(attr, index[""])


def self_sites(model: ModuleModel, attr: str) -> list[StoreSite]:
    """The `self.attr = v` stores in methods of one module, by attribute (indexed once)."""
    index: dict[str, list[StoreSite]] | None = getattr(model, "_pallas_ls_self_sites", None)
    if index is None:
        index = {}
        for site in store_sites(model):
            if site.on_self and isinstance(site.key, str):
                index.setdefault(site.key, []).append(site)
        model._pallas_ls_self_sites = index  # type: ignore[attr-defined]  # a cache kept on the model
    return index.get(attr, [])


def _assignment_stores(body: list[ast.stmt], function: FunctionNode | None) -> Iterator[StoreSite]:
    """`r[k] = v` and `r.a = v` statements, walking statements only (expressions hold none)."""
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                namespace = _namespace_of(target.value) if isinstance(target, ast.Subscript) else None
                if namespace is not None and isinstance(target, ast.Subscript):  # `op.__dict__["k"] = v`
                    key = target.slice
                    name = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else key
                    yield StoreSite("attr", namespace, name, stmt.value, stmt, function)
                elif isinstance(target, ast.Subscript) and not _is_array_index(target.slice):
                    yield StoreSite("item", target.value, target.slice, stmt.value, stmt, function)
                elif isinstance(target, ast.Attribute):
                    yield StoreSite("attr", target.value, target.attr, stmt.value, stmt, function)
                elif isinstance(target, (ast.Tuple, ast.List)):
                    for item, value in _unpacked_targets(target, stmt.value):
                        if isinstance(item, ast.Subscript) and not _is_array_index(item.slice):
                            yield StoreSite("item", item.value, item.slice, value, stmt, function)
                        elif isinstance(item, ast.Attribute) and value is not None:
                            yield StoreSite("attr", item.value, item.attr, value, stmt, function)
            continue
        if isinstance(stmt, ast.AugAssign):
            # `op.n += 1`, `counts[k] += 1`: a store of a value computed from the old one, not
            # evaluated here (Unknown to the heap; instance_changes follows some in order)
            target = stmt.target
            if isinstance(target, ast.Subscript) and not _is_array_index(target.slice):
                yield StoreSite("item", target.value, target.slice, None, stmt, function)
            elif isinstance(target, ast.Attribute):
                yield StoreSite("attr", target.value, target.attr, None, stmt, function)
            continue
        inner = stmt if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield from _assignment_stores(block, inner if field == "body" else function)
        for handler in getattr(stmt, "handlers", ()):
            yield from _assignment_stores(handler.body, function)
        for case in getattr(stmt, "cases", ()):
            yield from _assignment_stores(case.body, function)


def _unpacked_targets(target: ast.expr, value: ast.expr | None) -> Iterator[tuple[ast.expr, ast.expr | None]]:
    """The targets an unpacking assignment stores into, each with the expression of its value when
    the right side is a display of the same shape (`L[0], L[1] = L[1], L[0]`), else None: a
    store of a value not known, which still counts (it replaces what was there)."""
    if not isinstance(target, (ast.Tuple, ast.List)):
        yield target, value
        return
    starred = any(isinstance(e, ast.Starred) for e in target.elts)
    parts: list[ast.expr | None] = [None] * len(target.elts)
    if (
        isinstance(value, (ast.Tuple, ast.List))
        and not starred
        and len(value.elts) == len(target.elts)
        and not any(isinstance(e, ast.Starred) for e in value.elts)
    ):
        parts = list(value.elts)
    for element, part in zip(target.elts, parts, strict=True):
        yield from _unpacked_targets(element.value if isinstance(element, ast.Starred) else element, part)


def _with_freshness(site: StoreSite, scopes: dict[int, Scope]) -> StoreSite:
    receiver = site.receiver
    if site.function is None or not isinstance(receiver, ast.Name):
        return site
    scope = scopes.get(id(site.function))
    if (
        site.kind == "attr"
        and (isinstance(site.node, ast.Assign) or isinstance(site.key, str))
        and scope is not None
        and scope.parent is not None
        and scope.parent.kind == "class"
        and positional_args(site.function)[:1]
        and positional_args(site.function)[0].arg == receiver.id
        and not classes.receives_the_class(site.function)
    ):
        return dataclasses.replace(site, on_self=True)
    bindings = scope.bindings.get(receiver.id, []) if scope is not None else []
    if bindings and all(b.kind == "assign" and _makes_container(b.value) for b in bindings):
        return dataclasses.replace(site, fresh_local=True)
    return site


def names_its_class(function: FunctionNode | None, name: str) -> bool:
    """`cls` in a classmethod or `__init_subclass__`: the class, as its own name would be (a
    store through it is a store on a class like any other)."""
    if function is None or not classes.receives_the_class(function):
        return False
    first = positional_args(function)[:1]
    return bool(first) and first[0].arg == name


def _makes_container(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, (ast.Name, ast.Attribute))
        and (value.func.id if isinstance(value.func, ast.Name) else value.func.attr) in _CONTAINER_TYPES
    )


_CONTAINER_TYPES = frozenset({"dict", "list", "set", "OrderedDict", "defaultdict", "deque"})


def _is_array_index(key: ast.expr) -> bool:
    """`o_ref[...] = v`, `o_ref[:, i] = v`, `o_ref[pl.ds(...)] = v`: a Ref write, not a field."""
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    return any(
        isinstance(p, ast.Slice)
        or (isinstance(p, ast.Constant) and p.value is Ellipsis)
        or (isinstance(p, ast.Call) and callee_name(p) in _INDEX_CALLS)
        for p in parts
    )


_INDEX_CALLS = frozenset({"ds", "dslice", "Slice", "slice", "multiple_of"})


def _call_stores(part: ModelParts) -> Iterator[StoreSite]:
    """`setattr(r, k, v)` and `r.update(...)`, `r.setdefault(k, v)`, `r.append(v)`, ... calls."""
    # `setattr(obj, name, v)`, and `object.__setattr__(self, "kernel", k)` (how a frozen
    # dataclass's `__post_init__` sets a field): an attribute store, by name when it is a constant.
    setters = [*part.calls_by_name.get("setattr", ()), *part.calls_by_attribute.get("__setattr__", ())]
    for call in setters:
        args, func = call.args, call.func
        if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id == "object"):
            continue
        if len(args) == 3 and not any(isinstance(a, ast.Starred) for a in args):
            name = args[1].value if isinstance(args[1], ast.Constant) and isinstance(args[1].value, str) else args[1]
            yield StoreSite("attr", args[0], name, args[2], call, _holder(part, call))
    for call in part.calls_by_attribute.get("setitem", ()):  # `operator.setitem(r, k, v)`: `r[k] = v`
        args = call.args
        plain = len(args) == 3 and not call.keywords and not any(isinstance(a, ast.Starred) for a in args)
        if plain and is_operator_setitem(call):
            yield StoreSite("item", args[0], args[1], args[2], call, _holder(part, call))
    for method, kind in _STORING_METHODS.items():
        for call in part.calls_by_attribute.get(method, ()):
            func, args = call.func, call.args
            if not isinstance(func, ast.Attribute) or any(isinstance(a, ast.Starred) for a in args):
                continue
            namespace = _namespace_of(func.value)
            if kind == "update" and namespace is not None:
                yield from _namespace_update(part, call, namespace)
                continue
            if kind == "item" and len(args) == 2:
                yield StoreSite("item", func.value, args[0], args[1], call, _holder(part, call))
            elif kind == "append" and args:
                yield StoreSite("append", func.value, None, args[-1], call, _holder(part, call))
            elif kind == "extend" and len(args) == 1:
                yield StoreSite("extend", func.value, None, args[0], call, _holder(part, call))
            elif kind == "update" and len(args) == 1:
                yield StoreSite("update", func.value, None, args[0], call, _holder(part, call))
            if kind == "update" and len(args) <= 1:
                # `r.update(name=v)`: one item per keyword (a `**splat` is an update by a dict).
                for keyword in call.keywords:
                    key = ast.Constant(keyword.arg) if keyword.arg is not None else None
                    store = "item" if keyword.arg is not None else "update"
                    yield StoreSite(store, func.value, key, keyword.value, call, _holder(part, call))


def is_operator_setitem(call: ast.Call) -> bool:
    """`operator.setitem(...)`, written through the module's name."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "setitem"
        and isinstance(func.value, ast.Name)
        and func.value.id == "operator"
    )


def imports_for_effect(model: ModuleModel) -> bool:
    """Whether the module imports a module of its project only for what importing it does
    (`from . import impls  # registers`: a name the module never reads; `import pkg.fast`, a
    submodule named by a dotted import), a module whose import-time stores into other modules'
    objects are seen only once it is loaded.  Kept on the model."""
    found: bool | None = getattr(model, "_pallas_ls_imports_for_effect", None)
    if found is None:
        imported = {
            alias.asname or alias.name
            for stmt in model.tree.body
            if isinstance(stmt, ast.ImportFrom) and stmt.level > 0
            for alias in stmt.names
        }
        found = (bool(imported) and bool(imported - _names_read(model))) or any(
            "." in alias.name and alias.asname is None and alias.name.split(".")[0] not in EXTERNAL_ROOTS
            for stmt in model.tree.body
            if isinstance(stmt, ast.Import)
            for alias in stmt.names
        )
        model._pallas_ls_imports_for_effect = found  # type: ignore[attr-defined]  # a cache kept on the model
    return found


def _names_read(model: ModuleModel) -> set[str]:
    return {n.id for n in ast.walk(model.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _namespace_of(expr: ast.expr) -> ast.expr | None:
    """The object whose attributes `expr` holds as a dict: `obj.__dict__`, `vars(obj)`."""
    if isinstance(expr, ast.Attribute) and expr.attr == "__dict__":
        return expr.value
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "vars"
        and len(expr.args) == 1
        and not expr.keywords
    ):
        return expr.args[0]
    return None


def _namespace_update(part: ModelParts, call: ast.Call, receiver: ast.expr) -> Iterator[StoreSite]:
    """`obj.__dict__.update(options, name=v)`: attribute stores, one per item and keyword."""
    holder = _holder(part, call)
    if len(call.args) == 1:
        yield StoreSite("attr", receiver, None, call.args[0], call, holder, items=True)
    for keyword in call.keywords:
        if keyword.arg is not None:
            yield StoreSite("attr", receiver, keyword.arg, keyword.value, call, holder)
        else:
            yield StoreSite("attr", receiver, None, keyword.value, call, holder, items=True)


def _holder(part: ModelParts, call: ast.Call) -> FunctionNode | None:
    """The innermost function a call runs in (None: module or class level)."""
    loc = part.loc_of.get(id(call))
    scope: Scope | None = loc.scope if loc is not None else None
    while scope is not None and scope.kind in ("comprehension", "class"):
        scope = scope.parent
    return scope.function if scope is not None else None
