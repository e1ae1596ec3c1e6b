"""Which Ref objects the program makes: the identity PAL002 (the same Ref passed twice) decides on.

A Ref constructor call written once makes a new Ref each time it runs: in a function called twice,
in a loop, in a method run for each instance, in a defaultdict's factory for each missing key.  A
Ref is `Ref(site)`; each call that makes it anew wraps its site in a tag of that call (`retag`),
while what was passed in from outside stays itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..model import Loc, ModuleModel
from .domain import DictV, Env, Func, Generator, Instance, Ref, Seq, Value, union

if TYPE_CHECKING:
    from .interpreter import Interpreter


def fresh_refs(result: frozenset[Value], args: list[Any], keywords: list[Any], call: object) -> frozenset[Value]:
    """A Ref a function makes is a new object at every call: tag it with the call, so that
    `f(make(), make())` holds two Refs while `r = make(); f(r, r)` holds one.  Refs inside the
    tuples, lists and dicts it returns too (`return {"k": new_ref(x), "v": new_ref(y)}`)."""
    passed = union(args) | union(v for _, v in keywords)
    # and the Refs inside the containers passed (`pick(refs, "a")` returns a Ref of `refs`)
    passed |= frozenset(refs_in(passed, 0))
    return retag(result, passed, call, 0)


def made_by_the_module(values: frozenset[Value], model: ModuleModel) -> frozenset[Value]:
    """The Refs among `values` that a constructor call of the module's own straight code made
    (`BUF = jax.new_ref(z)`, which `def scratch(): return BUF` hands back): one object, however
    often a function returns it."""
    calls = _module_level_calls(model)
    return frozenset(r for r in refs_in(values, 0) if isinstance(r.site, ast.Call) and id(r.site) in calls)


def _module_level_calls(model: ModuleModel) -> frozenset[int]:
    """The calls (by id) that run when the module's body runs, outside every def and lambda body:
    kept on the model."""
    found: frozenset[int] | None = getattr(model, "_pallas_ls_module_level_calls", None)
    if found is None:
        ids: set[int] = set()
        stack: list[ast.AST] = list(model.tree.body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call):
                ids.add(id(node))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defaults = [d for d in node.args.kw_defaults if d is not None]
                stack.extend([*node.decorator_list, *node.args.defaults, *defaults])
            elif not isinstance(node, ast.Lambda):
                stack.extend(ast.iter_child_nodes(node))
        found = model._pallas_ls_module_level_calls = frozenset(ids)  # type: ignore[attr-defined]  # a cache kept on the model
    return found


def instance_made_once(value: Value, model: ModuleModel) -> int | None:
    """The constructor call (its id) of an instance that is one object: made by a call that runs
    once when the module runs (`pool = Pool()`, not in a loop, a comprehension or a function).
    None for any other value."""
    if not isinstance(value, Instance) or not value.site or value.site not in _calls_run_once(model):
        return None
    return value.site


def _calls_run_once(model: ModuleModel) -> frozenset[int]:
    """The calls (by id) that run exactly once when the module's body runs: kept on the model."""
    found: frozenset[int] | None = getattr(model, "_pallas_ls_calls_run_once", None)
    if found is None:
        ids: set[int] = set()
        stack: list[ast.AST] = list(model.tree.body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call):
                ids.add(id(node))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                stack.extend([*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d)])
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                stack.append(node.iter)  # its body runs once per item
            elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                stack.append(node.generators[0].iter)
            elif not isinstance(node, (ast.Lambda, ast.While)):
                stack.extend(ast.iter_child_nodes(node))
        found = model._pallas_ls_calls_run_once = frozenset(ids)  # type: ignore[attr-defined]  # a cache kept on the model
    return found


def refs_in(values: frozenset[Value], depth: int) -> Iterator[Ref]:
    for v in values:
        if isinstance(v, Ref):
            yield v
        elif depth < 4 and isinstance(v, Seq):
            for element in (v.elts or ()) + (v.members,):
                yield from refs_in(element, depth + 1)
        elif depth < 4 and isinstance(v, DictV):
            for _, element in v.items or ():
                yield from refs_in(element, depth + 1)


def ref_origin(ref: Ref) -> object:
    """The constructor call (or binding) that made a Ref, under the call tags added to it."""
    site = ref.site
    while isinstance(site, tuple):
        site = site[1]
    return site


def runs_repeatedly(interp: Interpreter, loc: Loc) -> bool:
    """Whether the statement at `loc` may run several times in one run of its scope: it is in a
    comprehension, or in the body of a `for` / `while` loop of its function or module."""
    if loc.scope.kind == "comprehension":
        return True
    if loc.stmt is None:
        return False
    in_loops = interp.loop_statements.get(id(loc.scope.node))
    if in_loops is None:
        in_loops = interp.loop_statements[id(loc.scope.node)] = _loop_statements(loc.scope.node)
    return id(loc.stmt) in in_loops


def _loop_statements(scope_node: ast.AST) -> frozenset[int]:
    """The ids of the statements inside loops of a scope (not of the functions nested in it)."""
    found: set[int] = set()
    stack = list(ast.iter_child_nodes(scope_node))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            found.update(id(inner) for stmt in node.body + node.orelse for inner in ast.walk(stmt))
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(found)


def made_by_call(values: frozenset[Value], env: Env, call: object) -> frozenset[Value]:
    """What a function run with `env` made, as objects of that one run (`call`): its Refs are
    new ones (those passed to it in `env` stay themselves), lists and dicts on the heap stay the
    objects the heap knows."""
    return retag(values, union(v for _, v in env.items), call, 0, keep_heap_objects=True)


def made_for_instance(values: frozenset[Value], env: Env, inst: Instance, method: ast.AST) -> frozenset[Value]:
    """What a method run on `inst` made and stored on it: `p.a` and `q.a` of two instances whose
    `__init__` makes a Ref are two Refs."""
    once = getattr(method, "name", "") in _RUN_ONCE_PER_INSTANCE
    # What its constructor was given (a dataclass's fields) was made outside: `self.dst = self.src`.
    passed = union(v for _, v in env.items) | union(v for _, v in inst.fields)
    return retag(values, passed, ("made for", inst.site, id(method), once), 0, keep_heap_objects=True)


# Methods that run once for each instance: a Ref they store on it is that instance's one Ref.
_RUN_ONCE_PER_INSTANCE = frozenset({"__init__", "__post_init__", "__new__"})


def _owned_by_an_instance(ref: Ref) -> bool:
    """A Ref made by a method that runs once per instance and stored on it (`self._buf` set in
    `__init__`): a method returning it later gives that same object, not a new one."""
    tag = ref.site[0] if isinstance(ref.site, tuple) else None
    return isinstance(tag, tuple) and len(tag) == 4 and tag[0] == "made for" and tag[3] is True


def retag(
    values: frozenset[Value], passed: frozenset[Value], call: object, depth: int, keep_heap_objects: bool = False
) -> frozenset[Value]:
    """The Refs in `values` (in tuples, lists and dicts too) made anew by `call`: tagged with it,
    but for those in `passed` (made outside).  `keep_heap_objects`: a list or dict with an
    allocation site stays that object (its contents are the heap's), as for a field of an object."""
    if depth > 4 or not any(isinstance(v, (Ref, Seq, DictV, Generator)) for v in values):
        return values
    out = set()
    for v in values:
        if isinstance(v, Ref) and v not in passed and not _owned_by_an_instance(v):
            v = Ref((call, v.site), v.many)
        elif isinstance(v, Generator) and v.made_by is None:
            v = Generator(v.func, v.env, call)  # what its body makes is this call's
        elif isinstance(v, (Seq, DictV)) and v.site and keep_heap_objects:
            pass
        elif isinstance(v, DictV) and v.site and v.toplevel:
            pass  # a dict made at module or class level (a default `registry={}`): one object, handed back
        elif isinstance(v, Seq) and v.known:
            v = Seq(
                v.kind,
                tuple(retag(e, passed, call, depth + 1, keep_heap_objects) for e in v.elements()),
                v.members,
                names=v.names,
            )
        elif isinstance(v, Seq):
            v = Seq(v.kind, None, retag(v.members, passed, call, depth + 1, keep_heap_objects), names=v.names)
        elif isinstance(v, DictV) and v.items is not None:
            v = DictV(tuple((k, retag(e, passed, call, depth + 1, keep_heap_objects)) for k, e in v.items), v.members)
        out.add(v)
    return frozenset(out)


def per_missing_key(made: frozenset[Value], factories: frozenset[Value]) -> frozenset[Value]:
    """A defaultdict's factory runs once for each missing key: a Ref made in its body stands for
    several (`many`: `d["a"]` and `d["b"]` are two), one it hands back from outside stays itself
    (`lambda: shared`)."""
    bodies = [f.node for f in factories if isinstance(f, Func)]
    return frozenset(Ref(v.site, many=True) if isinstance(v, Ref) and _made_in(v, bodies) else v for v in made)


def _made_in(ref: Ref, bodies: Sequence[ast.AST]) -> bool:
    site = ref.site
    while isinstance(site, tuple):
        site = site[-1]  # a call's tag wraps where the constructor was written
    if not isinstance(site, ast.Call):
        return False
    start, end = (site.lineno, site.col_offset), (site.end_lineno or 0, site.end_col_offset or 0)
    return any(
        (node.lineno, node.col_offset) <= start and end <= (node.end_lineno or 0, node.end_col_offset or 0)  # type: ignore[attr-defined]
        for node in bodies
    )
