"""Objects bound to a name and changed in place by the straight-line code before a read.

A list display grown by `.append` / `.extend` / `.insert`, shrunk by `.pop` / `.remove`
(`with_mutations`), a dict given items by `d[k] = v` (`with_item_stores`) or losing them to
`del d[k]` / `d.pop(k)` (`with_deletions`), an attribute stored after construction (`op.k = v`
replaces what `__init__` stored: `attribute_stored_before`).  Each is followed only where the code
says how often it runs (its block, or a loop over a known sequence); elsewhere the heap answers.
"""

from __future__ import annotations

import ast
import bisect
import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..model import Binding, Loc, ModuleModel, Scope
from ..names import mentions
from . import bindings, flow, iteration, library, operations, registrations
from .domain import (
    UNKNOWN,
    Class,
    Const,
    DictV,
    Env,
    External,
    Func,
    Instance,
    Seq,
    U,
    Unknown,
    Value,
    Wrapped,
    hashable,
    key_of,
    only_value,
    single_known_seq,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter
    from .store_sites import StoreSite


@dataclass
class Mutation:
    """A list mutated in place: `name.append(x)` / `name.extend(xs)` / `name.insert(i, x)`."""

    call: ast.Call
    method: str


def with_mutations(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A list display bound to a name, grown by `.append` / `.extend` before the use."""
    mutations = [(m, b) for m in mutations_of(interp, b, model)]
    for alias in _aliases(interp, b, model):  # `B = A`, then `B.append(k)`: A's list grows
        mutations += [(m, alias) for m in mutations_of(interp, alias, model)]
    source = _copied_from(interp, b, model)
    if source is not None:  # `snap = FNS`, then `FNS.append(k)`: snap's list grows (after `snap = FNS` only)
        mutations += [(m, source) for m in mutations_of(interp, source, model)]
        for alias in _aliases(interp, source, model):
            if alias is not b:
                mutations += [(m, alias) for m in mutations_of(interp, alias, model)]
    grown = _grown_through_an_alias(interp, b, source, use, env, model)
    if grown is not None:  # `B = A; B += [k]` extends A's list in place: in what order, not followed
        held = union(v.all_members() for v in value if isinstance(v, Seq))
        return frozenset({Seq("list", None, held | grown, next((v.site for v in value if isinstance(v, Seq)), 0))})
    if not mutations:
        return value
    changed_in = [registrations.enclosing_def(model, m.call) for m, _ in mutations]
    registered = registrations.filled_by_registrars(interp, b, value, use, changed_in, model)
    if registered is not None:
        return registered  # `@register` and `register(k)` at module level, in order
    elts = single_known_seq(value)
    members = set(v for s in value if isinstance(s, Seq) for v in s.all_members())
    known = elts is not None and len(value) == 1
    out = list(elts.elements()) if elts is not None and known else []
    calls = [m.call for m, _ in mutations]
    for m, via in sorted(mutations, key=lambda pair: bindings.position(pair[0].call)):
        where = model.loc(m.call)
        placed = placement(model, b, m.call, where, use)
        if placed is None:
            continue
        runs = [env]
        if not placed:
            runs = _runs_of_loop_body(interp, model, b, m.call, use, env, calls) or []
            if not runs:
                known = False  # in another scope, a loop or a branch: how often it runs is not known
                runs = [env]
        if not _still(interp, via, m.call, model):
            continue  # the name means another list by then
        repeats = len(runs)
        if len(set(runs)) > 1 and m.method in ("append", "extend") and len(m.call.args) == 1:
            # `for f in fns: out.append(f)`: each iteration's own value, in order
            for run in runs:
                added = interp.ev(m.call.args[0], where, run, model)
                seq = single_known_seq(added) if m.method == "extend" else Seq("list", (added,))
                known = known and seq is not None
                out.extend(seq.elements() if seq is not None else [])
                members |= added if m.method == "append" else operations.iterate(interp, added)
            continue
        arg_env = env
        if known and placed and any(mentions(a, via.name) for a in m.call.args):
            # `REFS.append(REFS[0])`: the argument reads the list as the changes before left it
            site = next((v.site for v in value if isinstance(v, Seq)), 0)
            arg_env = env.extended([(via, frozenset({Seq("list", tuple(out), frozenset(), site)}))])
        args = [interp.ev(a, where, arg_env, model) for a in m.call.args]
        method = m.method
        if method in _ORDERING_FUNCTIONS:  # `heapq.heapify(xs)`: the list is the first argument
            arranged = _ordered(method, out, args[1:]) if known and repeats == 1 else None
            members |= union(args[1:])
            known = arranged is not None
            out = arranged or []
            continue
        if method in _DEQUE_LEFT_END:  # a deque is a list here: `d.appendleft(x)` is `d.insert(0, x)`
            method, args = _DEQUE_LEFT_END[method], [frozenset({Const(0)}), *args]
        if method == "append" and len(args) == 1:
            out.extend([args[0]] * repeats)
            members |= args[0]
        elif method == "extend" and len(args) == 1:
            seq = single_known_seq(args[0])
            if seq is not None:
                out.extend(seq.elements() * repeats)
                members |= seq.all_members()
            else:
                known = False
                members |= operations.iterate(interp, args[0])
        elif method == "insert" and len(args) == 2:
            members |= args[1]
            index = only_value(args[0])
            if (
                known
                and repeats == 1
                and isinstance(index, Const)
                and isinstance(index.value, int)
                and not isinstance(index.value, bool)
            ):
                out.insert(index.value, args[1])  # `bufs.insert(0, r)`: Python clamps the index
            else:
                known = False
        elif repeats != 1:
            known = False  # a loop of pops or removes: not followed
        elif method == "pop" and known and len(args) <= 1:
            index = only_value(args[0]) if args else Const(-1)
            if isinstance(index, Const) and isinstance(index.value, int) and -len(out) <= index.value < len(out):
                out.pop(index.value)  # `kernels.pop()`: the last one is gone
            else:
                known = False
        elif method == "reverse" and not args:
            out.reverse()
        elif method == "rotate" and known and len(args) <= 1:
            steps = only_value(args[0]) if args else Const(1)
            if isinstance(steps, Const) and isinstance(steps.value, int) and out:
                turn = steps.value % len(out)  # `ring.rotate(1)`: the last element comes first
                out = out[-turn:] + out[:-turn] if turn else out
            else:
                known = False
        elif method == "sort" and known and not args:
            # `kernels.sort(key=..., reverse=...)`: in place as `sorted` orders a copy
            keywords = [(k.arg, interp.ev(k.value, where, env, model)) for k in m.call.keywords if k.arg]
            ordered = single_known_seq(
                iteration.iteration_builtin(interp, "sorted", [frozenset({Seq("list", tuple(out))})], keywords)
                or frozenset()
            )
            if ordered is not None and ordered.elts is not None and len(keywords) == len(m.call.keywords):
                out = list(ordered.elts)
            else:
                known = False
        elif method == "clear" and not args:
            out = []
        elif method == "remove" and known and len(args) == 1 and _removable(args[0], out) is not None:
            out.pop(cast(int, _removable(args[0], out)))  # `kernels.remove(bump)`: its first occurrence
        else:
            known = False  # `sort`, a `remove` of what is not surely there: what is left is not known
    if known:
        return frozenset({Seq("list", tuple(out), site=elts.site if elts is not None else 0)})
    return frozenset({Seq("list", None, frozenset(members) or U, elts.site if elts is not None else 0)})


# heapq's and bisect's functions that order the list they are handed (the first argument) in place.
_ORDERING_FUNCTIONS = ("heapify", "heappush", "insort", "insort_right", "insort_left")


def _ordered(
    function: str, elements: list[frozenset[Value]], args: list[frozenset[Value]]
) -> list[frozenset[Value]] | None:
    """The list after `heapq.heapify(xs)`, `heapq.heappush(xs, x)` or `bisect.insort(xs, x)`, run
    on the elements as `sorted` compares them (numbers, strings, tuples led by them: a kernel in
    `(priority, kernel)` compares with nothing); None when one is not such a constant or they do
    not compare."""
    items = [_Ordered(e, iteration.sort_key(e)) for e in [*elements, *args]]
    if any(item.key is None for item in items) or len(args) != (0 if function == "heapify" else 1):
        return None
    kept, new = items[: len(elements)], items[len(elements) :]
    try:
        if function == "heapify":
            heapq.heapify(kept)
        elif function == "heappush":
            heapq.heappush(kept, new[0])
        else:
            (bisect.insort_left if function == "insort_left" else bisect.insort_right)(kept, new[0])
    except TypeError:
        return None  # `(1, "a") < (1, 2)`: they do not compare
    return [item.values for item in kept]


@dataclass(frozen=True)
class _Ordered:
    """An element with the constant it compares by."""

    values: frozenset[Value]
    key: object

    def __lt__(self, other: _Ordered) -> bool:
        return bool(self.key < other.key)  # type: ignore[operator]  # constants that compare, or TypeError


def _copied_from(interp: Interpreter, b: Binding, model: ModuleModel) -> Binding | None:
    """For `b` = `alias = name`: the one binding of `name` it reads, in the same scope (the list
    both names hold); None otherwise."""
    stmt = b.stmt
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Name)):
        return None
    if not isinstance(stmt.targets[0], ast.Name):
        return None
    found = bindings.lookup(interp, stmt.value.id, Loc(b.scope, stmt), model)
    return found[0] if len(found) == 1 and found[0].scope is b.scope and found[0] is not b else None


def _aliases(interp: Interpreter, b: Binding, model: ModuleModel) -> list[Binding]:
    """The bindings `alias = name` after `b` in its scope that read `b` itself (one list, two names),
    and the other names of `b`'s own statement (`a = b = []`)."""
    found = []
    if isinstance(b.stmt, ast.Assign) and len(b.stmt.targets) > 1:
        others = {t.id for t in b.stmt.targets if isinstance(t, ast.Name) and t.id != b.name}
        found += [x for name in others for x in b.scope.bindings.get(name, []) if x.stmt is b.stmt]
    for stmt in _name_copies(model.scope_node(b.scope)).get(b.name, []):
        alias = cast(ast.Name, stmt.targets[0]).id
        if alias != b.name and bindings.lookup(interp, b.name, Loc(b.scope, stmt), model) == [b]:
            found += [x for x in b.scope.bindings.get(alias, []) if x.stmt is stmt]
    return found


def with_changes_in_the_function(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A list parameter its function changes in place before the read (`acc.append(fn)`, then
    `return acc`) no longer holds (only) the elements it was handed: a default list is one object
    for every call, which earlier calls grew too, in an order not followed.  Its elements are
    then not known (Unknown), never the ones handed in (an empty default read as empty)."""
    if use.scope is not b.scope or use.stmt is None or not any(isinstance(v, Seq) and v.kind == "list" for v in value):
        return value
    read_at = bindings.position(use.stmt)
    if not any(
        model.loc(m.call).scope is b.scope and bindings.position(m.call) < read_at
        for m in mutations_of(interp, b, model)
    ):
        return value
    return frozenset(
        Seq("list", None, v.all_members() | {UNKNOWN}, v.site) if isinstance(v, Seq) and v.kind == "list" else v
        for v in value
    )


def _grown_through_an_alias(
    interp: Interpreter, b: Binding, source: Binding | None, use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """What `alias += values` statements of `b`'s scope add to its list through an alias made
    after `b` (None: there are none): `+=` extends a list in place, for every name holding it."""
    added: list[frozenset[Value]] = []
    others = _aliases(interp, b, model)
    if source is not None:  # `snap = FNS` (`source`), then `FNS += [k]`: snap's list grows too
        others += [source, *(x for x in _aliases(interp, source, model) if x is not b)]
    for alias in others:
        for stmt in bindings.own_statements(getattr(model.scope_node(b.scope), "body", [])):
            if (
                isinstance(stmt, ast.AugAssign)
                and isinstance(stmt.op, ast.Add)
                and isinstance(stmt.target, ast.Name)
                and stmt.target.id == alias.name
                and placement(model, b, stmt, Loc(b.scope, stmt), use) is not None
                and all(x is alias for x in bindings.lookup(interp, alias.name, Loc(b.scope, stmt), model))
            ):
                added.append(operations.iterate(interp, interp.ev(stmt.value, Loc(b.scope, stmt), env, model)))
    return union(added) if added else None


def _name_copies(owner: ast.AST) -> dict[str, list[ast.Assign]]:
    """The statements `x = name` (one name target, a name's value) of one scope's body, by the
    name read; kept on the scope's node."""
    found: dict[str, list[ast.Assign]] | None = getattr(owner, "_pallas_ls_name_copies", None)
    if found is None:
        found = {}
        for stmt in bindings.own_statements(getattr(owner, "body", [])):
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Name)
            ):
                found.setdefault(stmt.value.id, []).append(stmt)
        setattr(owner, "_pallas_ls_name_copies", found)  # noqa: B010  (a cache kept on the node)
    return found


def placement(model: ModuleModel, b: Binding, node: ast.AST, where: Loc, use: Loc) -> bool | None:
    """Where a change of the object `b` binds (`xs.pop()`, `del d[k]` at `node`) stands: None
    when it is not between the binding and the use; True in the binding's own straight-line code,
    so it runs once, in order; False elsewhere (another scope, a loop, a branch)."""
    use_pos = bindings.position(use.stmt) if use.stmt is not None and use.scope is b.scope else (1 << 30, 0)
    if not bindings.position(b.stmt) < bindings.position(node) < use_pos:
        return None
    same_block = model.block_chain.get(id(where.stmt), ()) == model.block_chain.get(id(b.stmt), ())
    return where.scope is b.scope and same_block


def attribute_stored_before(
    interp: Interpreter, expr: ast.Attribute, loc: Loc, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """`op.k` read after `op = Op()` and `op.k = good` in the same straight-line code: the last
    such store replaces whatever the constructor stored (the heap alone joins them).  Only when
    `op` has the one binding there, the store stands straight in that binding's block after it,
    nothing between the store and the read mentions `op` but to read an attribute, no function
    anywhere stores that attribute on another receiver, and the class does not make `k` a
    property (its setter decides what is stored).  None otherwise: the heap answers."""
    receiver = expr.value
    if not isinstance(receiver, ast.Name) or loc.stmt is None:
        return None
    stores = interp.heap.stores_on(model, receiver.id, expr.attr)
    owner = model.scope_node(loc.scope)
    if not stores and receiver.id not in _name_copies(owner):
        return None  # the common case, answered from the heap's index of stores
    found = bindings.lookup(interp, receiver.id, loc, model)
    if len(found) != 1 or found[0].kind != "assign" or found[0].scope is not loc.scope:
        return None
    b = found[0]
    names = [receiver.id]
    for alias in _aliases(interp, b, model):  # `o2 = o; o2.k = v`: a store into the same object
        names.append(alias.name)
        stores = stores + [
            site
            for site in interp.heap.stores_on(model, alias.name, expr.attr)
            if bindings.lookup(interp, alias.name, model.loc(site.node), model) == [alias]
        ]
    if not stores:
        return None
    body = model.tree.body if b.scope is model.module_scope else getattr(b.scope.node, "body", None)
    start = next((i for i, stmt in enumerate(body or []) if stmt is b.stmt), None)
    if not isinstance(body, list) or start is None:
        return None
    if interp.heap.attribute_stored_in_a_function(model, expr.attr, besides=body):
        return None  # a function may store it too, in calls between
    straight = _straight_attribute_stores(model, stores, expr.attr)
    read_line = getattr(loc.stmt, "lineno", 0)
    last: ast.expr | None = None
    for stmt in body[start + 1 :]:
        if (getattr(stmt, "end_lineno", None) or 0) >= read_line:
            break  # the statement holding the read, or past it
        if id(stmt) in straight:
            last = straight[id(stmt)]
        elif last is not None and mentions(stmt, *names):
            return None  # `op.configure(...)`, `op = other`: not followed
        elif last is not None and library.may_import_project_code(stmt):
            return None  # a module imported here may change it too
    if last is None:
        return None
    value = interp.ev(receiver, loc, env, model)
    if not value or any(not _plain_field(interp, v, expr.attr) for v in value):
        return None
    return interp.ev(last, model.loc(last), env, model)


def _straight_attribute_stores(model: ModuleModel, stores: list[StoreSite], attr: str) -> dict[int, ast.expr]:
    """The statements that store `attr` and nothing else but other attributes of the same
    statement's targets: `op.k = v`, `op.j, op.k = w, v` (its element), `setattr(op, "k", v)`;
    by statement id, the value stored."""
    straight: dict[int, ast.expr] = {}
    for site in stores:
        if site.key != attr or site.value is None:
            continue
        if _one_target(site.node):
            straight[id(site.node)] = site.value
        elif isinstance(site.node, ast.Call):  # setattr(op, "k", v) as a statement of its own
            stmt = model.loc(site.node).stmt
            if isinstance(stmt, ast.Expr) and stmt.value is site.node:
                straight[id(stmt)] = site.value
    return straight


def _one_target(node: ast.AST) -> bool:
    """`target = value` with one target (`a.k = b.k = v` is not followed)."""
    return isinstance(node, ast.Assign) and len(node.targets) == 1


def _plain_field(interp: Interpreter, value: Value, attr: str) -> bool:
    """An instance whose class does not define `attr` as a descriptor (a property's setter, a
    `__setattr__` decide what a store does)."""
    if not isinstance(value, Instance):
        return False
    if any(not isinstance(v, External) for v in operations.class_attribute(interp, value.cls, "__setattr__", None)):
        return False  # a `__setattr__` of the program's (object's own is no hook)
    # A property, another descriptor object, or what we cannot see: the store may not land.  A
    # static or class method is no data descriptor: the instance's own attribute hides it.
    return not any(
        (isinstance(v, Wrapped) and v.kind not in ("static", "class")) or isinstance(v, (Instance, Unknown))
        for v in operations.raw_class_attribute(interp, value.cls, attr)
    )


def _runs_of_loop_body(
    interp: Interpreter, model: ModuleModel, b: Binding, call: ast.Call, use: Loc, env: Env, others: list[ast.Call]
) -> list[Env] | None:
    """The environments in which a list mutation runs that stands straight in the body of a `for`
    loop over a known sequence, the loop itself in the binding's straight-line code, with no
    `break` or `continue` in it: one per iteration, the loop's targets bound to its element (`for
    f in (copy, bump): out.append(f)` appends copy, then bump).  Where the arguments read the
    target, only when none of `others` (the list's other mutations) is in the loop: two of them
    would interleave.  None otherwise."""
    where = model.loc(call)
    stmt = where.stmt
    if not (isinstance(stmt, ast.Expr) and stmt.value is call):
        return None
    loop = flow.whole_loop_around(model, stmt, where.scope, use)
    if loop is None or model.block_chain.get(id(loop), ()) != model.block_chain.get(id(b.stmt), ()):
        return None  # the loop is not in the binding's straight-line code
    targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    # names the body binds from them, a def's defaults included (`def make(f=fn): ...`, then
    # `makers.append(make)`): each iteration's
    targets |= {name for part in loop.body for name in _names_bound(part)}
    if any(isinstance(n, ast.Name) and n.id in targets for a in call.args for n in ast.walk(a)):
        inside = {id(node) for node in ast.walk(loop)}
        alone = not any(id(other) in inside for other in others if other is not call)
        if not alone or _closes_over_loop_names(loop):
            return None  # a closure made in the loop reads its names late: at their last values
        return flow.loop_envs(interp, loop, where.scope, env, model)
    sequence = operations.unpacked(interp, interp.ev(loop.iter, model.loc(loop.iter), env, model))
    return [env] * len(sequence.elts) if sequence is not None and sequence.elts is not None else None


def _names_bound(node: ast.AST) -> Iterator[str]:
    """The names a statement binds: its assignments' and its defs' and classes'."""
    for n in ast.walk(node):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield n.name
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            yield n.id


def _closes_over_loop_names(loop: ast.For) -> bool:
    """A function or lambda made in the loop's body reads a name the loop binds (its target, or a
    name assigned in the body) other than through its own parameters: called after the loop, it
    sees that name's last value, not the iteration's (`lambda: f`; `lambda f=f: f` is safe)."""
    bound = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(loop):
        if not isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        own = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
        own |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
        body = [node.body] if isinstance(node, ast.Lambda) else node.body
        read = {n.id for part in body for n in ast.walk(part) if isinstance(n, ast.Name)}
        if (read - own) & bound:
            return True
    return False


def _removable(value: frozenset[Value], elements: list[frozenset[Value]]) -> int | None:
    """The index `xs.remove(value)` removes: the first element that is certainly `value` (one
    module-level function, class or constant), when no element before it may be equal to it."""
    wanted = only_value(value)
    if not isinstance(wanted, (Const, Func, Class)) or (isinstance(wanted, Func) and wanted.env.items):
        return None
    for index, element in enumerate(elements):
        if element == value:
            return index
        if wanted in element or any(not isinstance(e, (Const, Func, Class)) for e in element):
            return None  # may be equal to it: which one goes is not known
    return None


# The methods that change a list in place (`sort` and `remove` leave it unknown).
_DEQUE_LEFT_END = {"appendleft": "insert", "popleft": "pop"}
_LIST_MUTATIONS = (
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "clear",
    "reverse",
    "sort",
    "rotate",
    *_DEQUE_LEFT_END,
)


def with_deletions(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A dict display bound to a name, with the keys `del name[k]` / `name.pop(k)` removed in its
    own straight-line code before the use (elsewhere: the dict's keys are not known)."""
    deletions = _deletions_of(model, b)
    if not deletions:
        return value
    # A key deleted and then stored again goes to the end (`del d["a"]; d["a"] = f`): the stores
    # pass (with_item_stores) keeps a key where it was, so an order of both is not followed.
    stored_at = [bindings.position(stmt) for stmt, _, _ in item_stores_of(interp, model, b)]
    reordered = any(bindings.position(node) < at for node, _ in deletions for at in stored_at)
    out: set[Value] = set()
    for d in value:
        if not isinstance(d, DictV):
            out.add(d)
            continue
        items = list(interp.dict_contents(d).items or ()) if d.items is not None else None
        for node, key_expr in deletions:
            where = model.loc(node) if isinstance(node, ast.Call) else Loc(b.scope, node)
            placed = placement(model, b, node, where, use)
            if placed is None:
                continue
            if key_expr is None and _is_clear(node):
                items = [] if placed else None
                continue
            if key_expr is None:  # popitem(): the last item (`popitem(last=False)`: the first)
                last = popped_last(cast(ast.Call, node))
                items = (
                    (items[:-1] if last else items[1:]) if items is not None and placed and last is not None else None
                )
                continue
            known, key = key_of(only_value(interp.ev(key_expr, where, env, model)))
            if items is None or not known or not placed or reordered:
                items = None  # in a loop or a branch, a key not known, or stored again later
                continue
            moved = [(k, v) for k, v in items if k == key]
            items = [(k, v) for k, v in items if k != key]
            if isinstance(node, ast.Call) and _moves_to_end(node):  # the item goes last (`last=False`: first)
                last = _moved_last(node)
                if last is None or len(moved) != 1:
                    items = None
                    continue
                items = items + moved if last else moved + items
        out.add(
            DictV(tuple(items), union(v for _, v in items) | (d.missing or frozenset()), d.site, d.toplevel, d.missing)
            if items is not None
            else DictV(None, d.members, d.site, d.toplevel)
        )
    return frozenset(out)


def with_item_stores(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A dict (or list) display bound to a name, with the items `name[k] = v` stores in its own
    straight-line code before the use (in that scope) replacing the display's (`t = {"k": bump};
    t["k"] = copy`: the display's bump is gone; `L[0] = copy` of a list).  Other stores into the dict, anywhere, still join through the
    heap when its items are read."""
    same_scope = use.scope is b.scope
    # A function reading a module-level list or dict sees the module's straight-line stores, as
    # with_mutations counts its appends (placement puts such a use after them; a function called
    # at import is read at its module-level calls instead: bindings._reads_at).  A nested
    # function's enclosing function may call it before a store: not followed.
    if not same_scope and b.scope is not model.module_scope:
        return value
    stores = [store for store in item_stores_of(interp, model, b) if same_scope or _still(interp, b, store[0], model)]
    for alias in _aliases(interp, b, model):  # `alias = L; alias[0] = k`: L's item changes
        stores += [store for store in item_stores_of(interp, model, alias) if _still(interp, alias, store[0], model)]
    stores.sort(key=lambda store: bindings.position(store[0]))
    # The stores that run once, in order, before the use, with their constant keys; each value is
    # evaluated before its statement stores anything (`L[0], L[1] = L[1], L[0]` swaps).
    keyed: list[tuple[object, frozenset[Value] | _Augmented]] = []
    for stmt, key_expr, value_expr in stores:
        if placement(model, b, stmt, Loc(b.scope, stmt), use) is True:
            here = Loc(b.scope, stmt)
            known, key = key_of(only_value(interp.ev(key_expr, here, env, model)))
            if known and isinstance(stmt, ast.AugAssign):  # `COUNT["n"] += 1`: from the item as it stands
                keyed.append((key, _Augmented(stmt, interp.ev(stmt.value, here, env, model), here)))
            elif known:
                stored = interp.ev(value_expr, here, env, model) if value_expr is not None else U
                keyed.append((key, stored))
    if not keyed:
        return value

    def store(old: frozenset[Value], change: frozenset[Value] | _Augmented) -> frozenset[Value]:
        if isinstance(change, _Augmented):
            return interp.binary(change.stmt.op, old, change.operand, change.stmt, change.where)
        return change

    out: set[Value] = set()
    for d in value:
        if isinstance(d, Seq) and d.kind == "list" and d.elts is not None:
            elements = list(d.elts)
            for index, change in keyed:  # `L[0] = copy`, a constant index in range
                if isinstance(index, int) and not isinstance(index, bool) and -len(elements) <= index < len(elements):
                    elements[index] = store(elements[index], change)
            out.add(Seq(d.kind, tuple(elements), d.members, d.site, d.names))
            continue
        if not isinstance(d, DictV) or d.items is None:
            out.add(d)
            continue
        items = dict((hashable(k), (k, v)) for k, v in d.items)
        for key, change in keyed:
            # a dict's augmented items are the heap's (`Heap.dict_contents` computes them in order)
            if hashable(key) in items and not isinstance(change, _Augmented):
                items[hashable(key)] = (key, change)
        kept = tuple(items.values())
        out.add(DictV(kept, union(v for _, v in kept) | (d.missing or frozenset()), d.site, d.toplevel, d.missing))
    return frozenset(out)


@dataclass(frozen=True)
class _Augmented:
    """`name[k] op= operand` at `where`: a store computed from the item as it stands."""

    stmt: ast.AugAssign
    operand: frozenset[Value]
    where: Loc


def _still(interp: Interpreter, alias: Binding, node: ast.AST, model: ModuleModel) -> bool:
    """At `node`, the alias's name still means what `alias` bound (not rebound since)."""
    return all(x is alias for x in bindings.lookup(interp, alias.name, model.loc(node), model))


def item_stores_of(
    interp: Interpreter, model: ModuleModel, b: Binding
) -> list[tuple[ast.Assign | ast.AugAssign, ast.expr, ast.expr | None]]:
    """`name[k] = v` statements (one target, maybe unpacked: `name[0], name[1] = ...`) and
    `name[k] += v` of `b`'s name straight in its scope's body: (statement, key, value; None: a
    value not known, or an augmented store's)."""
    owner = model.scope_node(b.scope)
    body = getattr(owner, "body", [])
    top = {id(stmt) for stmt in body}
    # `operator.setitem(name, k, v)` as a statement of its own: a store like `name[k] = v`
    calls = {id(stmt.value): stmt for stmt in body if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)}
    return [
        (cast(ast.Assign | ast.AugAssign, calls.get(id(site.node), site.node)), cast(ast.expr, site.key), site.value)
        for site in interp.heap.stores_on(model, b.name)
        if (id(site.node) in top and (_one_target(site.node) or isinstance(site.node, ast.AugAssign)))
        or (id(site.node) in calls and not _is_setdefault(site.node))
    ]


def _is_setdefault(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault"


def _is_clear(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "clear"


def _deletions_of(model: ModuleModel, b: Binding) -> list[tuple[ast.AST, ast.expr | None]]:
    """`del name[k]` statements and `name.pop(k)` / `name.popitem()` / `name.move_to_end(k)` calls
    of `b`'s name in its scope: (node, key; None for popitem's last item)."""
    found: list[tuple[ast.AST, ast.expr | None]] = []
    for call in model.calls_with_attribute(("pop", "popitem", "move_to_end", "clear")):
        receiver = call.func.value  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
        method = call.func.attr  # type: ignore[attr-defined]
        if not isinstance(receiver, ast.Name) or receiver.id != b.name:
            continue
        if method == "clear" and not call.args:
            found.append((call, None))  # every item
        elif method == "popitem":
            found.append((call, None))  # the last item, or the first (`last=False`)
        elif call.args:
            found.append((call, call.args[0]))
    for stmt in deletes_and_slice_stores(model, b.scope):
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == b.name
                ):
                    found.append((stmt, target.slice))
    return found


def _moves_to_end(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "move_to_end"


def _moved_last(call: ast.Call) -> bool | None:
    """`move_to_end(k)` / `move_to_end(k, False)` / `last=...`: whether the item goes last (None: not
    a constant)."""
    return _last_flag(call, 1)


def popped_last(call: ast.Call) -> bool | None:
    """`popitem()` / `popitem(False)` / `popitem(last=...)`: whether the last item goes (None: not
    a constant)."""
    return _last_flag(call, 0)


def _last_flag(call: ast.Call, position: int) -> bool | None:
    """The `last` argument of a call (positional at `position`, or by keyword; True when left out)."""
    given = (
        call.args[position]
        if len(call.args) > position
        else next((k.value for k in call.keywords if k.arg == "last"), None)
    )
    if given is None:
        return True
    return bool(given.value) if isinstance(given, ast.Constant) else None


def deletes_and_slice_stores(model: ModuleModel, scope: Scope) -> list[ast.stmt]:
    """The `del ...` statements and the assignments to a subscript with a slice among the
    statements of `scope` (not of the functions in it): kept on the model, by scope, since every
    read of a list or dict bound there asks."""
    cache: dict[int, list[ast.stmt]] | None = getattr(model, "_pallas_ls_deletes", None)
    if cache is None:
        cache = model._pallas_ls_deletes = {}  # type: ignore[attr-defined]  # a cache kept on the model
    found = cache.get(id(scope))
    if found is None:
        owner = model.scope_node(scope)
        found = cache[id(scope)] = [
            stmt
            for stmt in bindings.own_statements(getattr(owner, "body", []))
            if isinstance(stmt, ast.Delete)
            or (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Subscript)
                and isinstance(stmt.targets[0].slice, ast.Slice)
            )
        ]
    return found


# The methods that change a set in place.
_SET_MUTATIONS = (
    "add",
    "discard",
    "update",
    "intersection_update",
    "difference_update",
    "symmetric_difference_update",
    "remove",
    "pop",
    "clear",
)


def set_display_may_change(model: ModuleModel, stmt: ast.AST | None) -> bool:
    """Whether the set display in `stmt` may be changed in place later (`S.add("b")` anywhere in
    the module, on a name or attribute `stmt` assigns, or on an item or call result, which may be
    it): then it is no constant (`"b" in S` after `S.add("b")` is true)."""
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign):
        targets = [stmt.target]
    names = {t.id if isinstance(t, ast.Name) else t.attr for t in targets if isinstance(t, (ast.Name, ast.Attribute))}
    for call in model.calls_with_attribute(_SET_MUTATIONS):
        receiver = call.func.value  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
        if isinstance(receiver, ast.Name):
            changed = receiver.id
        elif isinstance(receiver, ast.Attribute):
            changed = receiver.attr
        elif isinstance(receiver, (ast.BinOp, ast.Set, ast.SetComp)):
            continue  # `(a - b).pop()`: a set made right there, no display of the module
        else:
            return True  # `sets[k].add(x)`, `get_set().add(x)`: any set of the module may be it
        if changed in names or not names:
            return True
    return False


def mutations_of(interp: Interpreter, b: Binding, model: ModuleModel) -> list[Mutation]:
    by_name = interp._mutations.get(id(model))
    if by_name is None:
        by_name = {}
        for call in model.calls_with_attribute(_LIST_MUTATIONS):
            receiver = call.func.value  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
            if isinstance(receiver, ast.Name):
                by_name.setdefault(receiver.id, []).append(Mutation(call, call.func.attr))  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
        for call in [*model.calls_with_attribute(_ORDERING_FUNCTIONS), *model.calls_named(_ORDERING_FUNCTIONS)]:
            function = call.func.attr if isinstance(call.func, ast.Attribute) else cast(ast.Name, call.func).id
            if call.args and isinstance(call.args[0], ast.Name) and not call.keywords:
                by_name.setdefault(call.args[0].id, []).append(Mutation(call, function))
        interp._mutations[id(model)] = by_name
    return by_name.get(b.name, [])
