"""Changes to a list or dict that the interpreter does not follow, found by syntax.

mutations.py follows the changes it models (`append`, `pop`, `d[k] = v`, `del d[k]`, ...) and
keeps the display's elements otherwise; a change it does not model (`xs.frobnicate()`,
`random.shuffle(fns)`, `operator.delitem(d, k)`) would leave them as
they were: a wrong value, where a finding may be a false one.  A name bound to a display that
such a call may change before a read holds unknown contents there instead.
"""

from __future__ import annotations

import ast

from ..model import Binding, Loc, ModuleModel
from . import store_sites
from .domain import UNKNOWN, DictV, Seq, Value

# Methods of a list (or deque) and of a dict that mutations.py follows, and those that only read.
_LIST_METHODS_FOLLOWED = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort", "rotate", "appendleft", "popleft"}
)
_DICT_METHODS_FOLLOWED = frozenset({"setdefault", "update", "pop", "popitem", "move_to_end", "clear"})
_READING_METHODS = frozenset(
    {"get", "keys", "values", "items", "copy", "index", "count", "__getitem__", "__contains__", "__len__", "__iter__"}
)
# Functions of the standard library that change a container they are handed (the first argument)
# and that mutations.py does not follow (it orders a list with heapify, heappush and insort).
_CHANGING_FUNCTIONS = frozenset(
    {
        "heappop",
        "heappushpop",
        "heapreplace",
        "shuffle",
        "setitem",
        "delitem",
        "iadd",
        "iconcat",
        "imul",
        "ior",
    }
)


def with_unseen_changes(b: Binding, value: frozenset[Value], use: Loc, model: ModuleModel) -> frozenset[Value]:
    """`value` (what `b` binds, its followed changes applied), its lists' and dicts' contents
    unknown when a change not followed may have run on them before `use`."""
    kinds = {"any"} | {"list" for v in value if isinstance(v, Seq) and v.kind == "list"}
    kinds |= {"dict" for v in value if isinstance(v, DictV)}
    calls = [call for call, kind in _changing_calls(model, b.name) if kind in kinds]
    if not any(_may_change_unseen(call, b, use, model) for call in calls):
        return value
    out: set[Value] = set()
    for v in value:
        if isinstance(v, Seq) and v.kind == "list":
            out.add(Seq("list", None, v.all_members() | {UNKNOWN}, v.site))
        elif isinstance(v, DictV):
            out.add(DictV(None, v.all_values() | {UNKNOWN}, v.site, v.toplevel))
        else:
            out.add(v)
    return frozenset(out)


def _may_change_unseen(call: ast.Call, b: Binding, use: Loc, model: ModuleModel) -> bool:
    """Whether `call` (a change not followed) may run on `b`'s object before `use`."""
    where = model.loc(call)
    if b not in model.lookup(b.name, where):
        return False  # another object of that name (a local, a later binding)
    if where.scope is not use.scope:
        return True  # in a function (or the module, read in a function): it may have run
    call_line = (call.lineno, call.col_offset)
    return (getattr(b.node, "lineno", 0), getattr(b.node, "col_offset", 0)) < call_line < _position(use)


def _position(use: Loc) -> tuple[int, int]:
    stmt = use.stmt
    return (getattr(stmt, "lineno", 1 << 30), getattr(stmt, "col_offset", 0))


def _changing_calls(model: ModuleModel, name: str) -> list[tuple[ast.Call, str]]:
    """The calls that may change what `name` names without mutations.py following them, each
    with the kind of object it changes unseen ("list", "dict" or "any")."""
    found: list[tuple[ast.Call, str]] = []
    for call in model.calls_rooted_at(name):
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or func.attr in _READING_METHODS:
            continue  # `name.a.b()`: not a method of the object itself; or one that only reads
        if func.attr not in _LIST_METHODS_FOLLOWED:
            found.append((call, "list"))  # `xs.frobnicate()`
        if func.attr not in _DICT_METHODS_FOLLOWED:
            found.append((call, "dict"))  # `d.clear()`
    for call in [*model.calls_with_attribute(_CHANGING_FUNCTIONS), *model.calls_named(_CHANGING_FUNCTIONS)]:
        if store_sites.is_operator_setitem(call):
            continue  # `operator.setitem(d, k, v)`: a store the heap and mutations.py follow
        if call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == name:
            found.append((call, "any"))  # `random.shuffle(fns)`, `setitem(d, k, v)` imported by name
    return found
