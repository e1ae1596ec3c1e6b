"""What a name is bound to: reaching definitions, parameters, imports and module attributes.

Also the statements run for their effects (module-level calls and decorators that fill
registries, constructors' bodies) and lists mutated in place (`outs.append(x)`).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..model import (
    Binding,
    FunctionNode,
    Loc,
    ModuleModel,
    Scope,
    positional_args,
)
from . import calls, classes, library, operations
from .domain import (
    EMPTY_ENV,
    MAX_CALL_DEPTH,
    NONE_SET,
    UNKNOWN,
    Array,
    BoundMethod,
    Class,
    Const,
    DictV,
    Entry,
    Env,
    External,
    Func,
    Instance,
    Module,
    Param,
    Seq,
    U,
    Value,
    constant_truth,
    key_of,
    note_read,
    only_value,
    single_known_seq,
    union,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter


@dataclass
class Mutation:
    """A list mutated in place: `name.append(x)` / `name.extend(xs)` / `name.insert(i, x)`."""

    call: ast.Call
    method: str


def lookup(interp: Interpreter, name: str, loc: Loc, model: ModuleModel) -> list[Binding]:
    bindings = model.lookup(name, loc)
    if model is interp.model and (not bindings or bindings[0].scope is model.module_scope):
        note_read(interp.module_names_read, name, loc)
    if bindings and loc.scope is not model.module_scope and bindings[0].scope is model.module_scope:
        at_calls = _module_level_reaching(interp, name, loc, model)
        if at_calls is not None:
            return at_calls
    return bindings


def _module_level_reaching(interp: Interpreter, name: str, loc: Loc, model: ModuleModel) -> list[Binding] | None:
    """For a module-level name read in a function: when the function's top-level def is
    called at module level, the definitions live at those calls (notebook-style redefinitions)."""
    if name in loc.scope.global_names:
        return None
    scope: Scope | None = loc.scope
    while scope is not None and scope.parent is not None and scope.parent is not model.module_scope:
        scope = scope.parent
    top = scope.node if scope is not None else None
    if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if model is interp.model:
        note_read(interp.module_calls_read, top.name, loc)
    calls = _module_level_calls(interp, top, model)
    if not calls:
        return None
    everything = model.module_scope.bindings.get(name, [])
    seen: dict[int, Binding] = {}
    for call in calls:
        for b in model.reaching(everything, model.loc(call).stmt):
            seen[id(b)] = b
    return list(seen.values()) or None


def _module_level_calls(
    interp: Interpreter, function: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel
) -> list[ast.Call]:
    key = (id(function), "calls")
    cached = interp._module_calls.get(key)
    if cached is None:
        cached = []
        for call in model.calls_named([function.name]):
            call_loc = model.loc(call)
            if call_loc.scope is model.module_scope and any(
                b.node is function for b in model.lookup(function.name, call_loc)
            ):
                cached.append(call)
        interp._module_calls[key] = cached
    return cached


def unbound_name(interp: Interpreter, name: str, model: ModuleModel) -> frozenset[Value]:
    for star in star_imports(interp, model):
        target = interp.loader.module(model, _import_base(star))
        if target is None:
            if model is interp.model:
                interp.imports_not_found.add(_import_base(star))
            continue
        mod, rest = target
        if rest:
            continue
        if _exported(mod, name):
            interp.loaded[id(mod)] = mod
            found = module_attribute(interp, mod, name)
            if found != U:
                return found
    if (
        name
        in (
            "staticmethod",
            "classmethod",
            "property",
            "print",
            "list",
            "tuple",
            "dict",
            "getattr",
            "super",
            "globals",
        )
        or name in library.BUILTINS_VALUE
    ):
        return frozenset({External(name)})
    return U


def star_imports(interp: Interpreter, model: ModuleModel) -> list[ast.ImportFrom]:
    cached = interp._star_imports.get(id(model))
    if cached is None:
        cached = [
            node
            for node in _module_level_statements(model.tree.body)
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        ]
        interp._star_imports[id(model)] = cached
    return cached


def binding_value(
    interp: Interpreter, b: Binding, env: Env, model: ModuleModel, use: Loc | None = None
) -> frozenset[Value]:
    kind = b.kind
    if kind == "param":
        bound = env.get(b)
        if bound is not None:
            return bound
        return _unbound_param(interp, b, model)
    if kind == "def":  # a def binding's node is its def, a class binding's its class
        return classes.def_value(interp, cast(FunctionNode, b.node), model, env)
    if kind == "class":
        return classes.class_value(interp, cast(ast.ClassDef, b.node), model, env)
    if kind == "import":
        return import_value(interp, b.qualname or "", model)
    if kind == "other" and b.scope.kind == "comprehension":
        return interp._comprehension_target(b, env, model)
    if kind == "other" and sys.version_info >= (3, 10) and isinstance(b.stmt, ast.Match):
        return _match_capture(interp, b, env, model)
    if kind == "assign":
        bound = env.get(b) if env.items else None
        if bound is not None:  # a loop target in one iteration (`_per_iteration`)
            return bound
        filtered = _loop_target_at(interp, b, use, env, model) if use is not None else None
        if filtered is not None:
            return filtered
        value = _assigned(interp, b, env, model)
        if use is not None and any(isinstance(v, Seq) and v.kind == "list" for v in value):
            value = with_mutations(interp, b, value, use, env, model)
        if use is not None and any(isinstance(v, DictV) for v in value):
            value = with_deletions(interp, b, value, use, env, model)
        return value
    return U


def _unbound_param(interp: Interpreter, b: Binding, model: ModuleModel) -> frozenset[Value]:
    function = b.scope.node
    if b.param_index == 0 and isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        owner = b.scope.parent
        if owner is not None and owner.kind == "class":
            decorators = {classes.decorator_name(d) for d in function.decorator_list}
            cls = Class(cast(ast.ClassDef, owner.node), model)  # the scope of a class
            if "classmethod" in decorators:
                return frozenset({cls})
            if "staticmethod" not in decorators:
                return frozenset({Instance(cls)})
    default = _default_of(function, b)
    values: set[Value] = {Param(b)}
    if default is not None:
        values |= interp.ev(default, model.loc(function), EMPTY_ENV, model)
    return frozenset(values)


def _assigned(interp: Interpreter, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value]:
    stmt = b.stmt
    here = Loc(b.scope, stmt)
    if isinstance(stmt, ast.Assign):
        iterations = _per_iteration(interp, b, env, model)
        return iterations if iterations is not None else _assigned_by(interp, b, stmt, env, model)
    if isinstance(stmt, ast.AnnAssign):
        return interp.ev(stmt.value, here, env, model) if stmt.value is not None else U
    if isinstance(stmt, ast.AugAssign):
        before = lookup(interp, b.name, here, model)
        old = union(binding_value(interp, x, env, model) for x in before if x is not b) if before else U
        new = interp.ev(stmt.value, here, env, model)
        if isinstance(stmt.op, ast.Add):
            ls, rs = single_known_seq(old), single_known_seq(new)
            if ls is not None and rs is not None:
                return frozenset({Seq(ls.kind, ls.elements() + rs.elements())})
        if any(isinstance(v, Array) for v in old | new):
            return frozenset({Array()})
        return U
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        path = path_to(stmt.target, b.node)
        if path is None:
            return U
        return destructure(operations.iterate(interp, interp.ev(stmt.iter, here, env, model)), path)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            path = path_to(item.optional_vars, b.node) if item.optional_vars is not None else None
            if path is not None:
                return destructure(operations.entered(interp, interp.ev(item.context_expr, here, env, model)), path)
        return U
    if b.value is not None:  # walrus
        return interp.ev(b.value, here, env, model)
    return U


def _per_iteration(interp: Interpreter, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value] | None:
    """An assignment in a `for` loop over a known sequence, evaluated once per element with the
    loop target bound to it: the `if`s between the loop and the assignment decide which
    iterations assign, and a `break` after it ends the loop at the first that surely does
    (`for k in KERNELS: if k.__name__ == "fast": chosen = k; break`).  None when it is not in
    such a loop (or the sequence is not known)."""
    guarded = loop_guards(model, cast(ast.stmt, b.stmt), b.scope)
    if guarded is None:
        return None
    loop, tests, breaks = guarded
    if not isinstance(loop.target, ast.Name):
        return None
    seq = single_known_seq(interp.ev(loop.iter, Loc(b.scope, loop), env, model))
    targets = [t for t in b.scope.bindings.get(loop.target.id, []) if t.stmt is loop]
    if seq is None or len(targets) != 1 or len(seq.elements()) > _MAX_UNROLLED:
        return None
    stmt = cast(ast.Assign, b.stmt)
    out: set[Value] = set()
    for element in seq.elements():
        inside = env.extended([(targets[0], element)])
        decided = [constant_truth(interp.ev(t.test, Loc(b.scope, t), inside, model)) for t, _ in tests]
        if any(d is not None and d is not taken for d, (_, taken) in zip(decided, tests, strict=True)):
            continue  # this iteration does not reach the assignment
        out |= _assigned_by(interp, b, stmt, inside, model)
        if breaks and all(d is taken for d, (_, taken) in zip(decided, tests, strict=True)):
            break  # it surely assigns, then leaves the loop
    return frozenset(out)


_MAX_UNROLLED = 32


def _assigned_by(interp: Interpreter, b: Binding, stmt: ast.Assign, env: Env, model: ModuleModel) -> frozenset[Value]:
    """What `stmt` (`a = b = value`, `x, y = value`) binds to `b`'s name, evaluated in `env`."""
    for target in stmt.targets:
        path = path_to(target, b.node)
        if path is not None:
            return destructure(interp.ev(stmt.value, Loc(b.scope, stmt), env, model), path)
    return U


def _loop_target_at(interp: Interpreter, b: Binding, use: Loc, env: Env, model: ModuleModel) -> frozenset[Value] | None:
    """A `for` loop's target read in the loop's body after `if test: continue` / `if test: break`
    statements: the elements of a known sequence that reach the read (a `continue` decided true
    skips one, a `break` decided true ends the loop).  None when no such filter applies."""
    loop = b.stmt
    if not isinstance(loop, ast.For) or loop.target is not b.node or use.scope is not b.scope or use.stmt is None:
        return None
    line = getattr(use.stmt, "lineno", 0)
    index = next((i for i, s in enumerate(loop.body) if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
    filters = [s for s in loop.body[: index or 0] if _loop_filter(s) is not None]
    if not filters:
        return None
    seq = single_known_seq(interp.ev(loop.iter, Loc(b.scope, loop), env, model))
    if seq is None or len(seq.elements()) > _MAX_UNROLLED:
        return None
    out: set[Value] = set()
    for element in seq.elements():
        inside = env.extended([(b, element)])
        outcomes = [
            (constant_truth(interp.ev(cast(ast.If, f).test, Loc(b.scope, f), inside, model)), _loop_filter(f))
            for f in filters
        ]
        reached = next((kind for decided, kind in outcomes if decided is True), None)
        if reached == "break":
            break  # the loop ends at this element
        if reached is None:
            out |= element
    return frozenset(out) or U


def _loop_filter(stmt: ast.stmt) -> str | None:
    """ "continue" / "break" for `if test: continue` / `if test: break` (no else), else None."""
    if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1:
        if isinstance(stmt.body[0], ast.Continue):
            return "continue"
        if isinstance(stmt.body[0], ast.Break):
            return "break"
    return None


def loop_guards(
    model: ModuleModel, stmt: ast.stmt, scope: Scope
) -> tuple[ast.For, list[tuple[ast.If, bool]], bool] | None:
    """The `for` loop whose body holds `stmt` through `if` branches only, the `if`s on the way
    (each with the branch `stmt` is in), and whether a `break` follows `stmt` in its block."""
    if len(model.block_chain.get(id(stmt), ())) <= 1:
        return None  # in its scope's own body: in no loop (asked for every assignment evaluated)
    return _loop_guards_of(scope.node if scope.node is not None else model.tree).get(id(stmt))


def _loop_guards_of(owner: ast.AST) -> dict[int, tuple[ast.For, list[tuple[ast.If, bool]], bool]]:
    """`loop_guards` of the statements of one scope's body (a def's, a class's or the module's,
    not those of the scopes nested in it), found in one walk and kept on its node."""
    found: dict[int, Any] | None = getattr(owner, "_pallas_ls_loop_guards", None)
    if found is not None:
        return found
    found = {}
    # (block, the guards of the statements in it: the loop and the ifs from it, or None)
    work: list[tuple[list[ast.stmt], tuple[ast.For, tuple[tuple[ast.If, bool], ...]] | None]] = [
        (getattr(owner, "body", []), None)
    ]
    while work:
        block, guards = work.pop()
        breaks_from = [False] * (len(block) + 1)  # a `break` at this index or after it
        for index in range(len(block) - 1, -1, -1):
            breaks_from[index] = breaks_from[index + 1] or isinstance(block[index], ast.Break)
        for index, stmt in enumerate(block):
            if guards is not None:
                found[id(stmt)] = (guards[0], list(guards[1]), breaks_from[index])
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue  # a scope of its own
            if isinstance(stmt, ast.For):
                work.append((stmt.body, (stmt, ())))
                work.append((stmt.orelse, None))
            elif isinstance(stmt, ast.If):
                for body, taken in ((stmt.body, True), (stmt.orelse, False)):
                    work.append((body, (guards[0], (*guards[1], (stmt, taken))) if guards is not None else None))
            else:
                for field in ("body", "orelse", "finalbody"):
                    inner_block = getattr(stmt, field, None)
                    if isinstance(inner_block, list) and inner_block and isinstance(inner_block[0], ast.stmt):
                        work.append((inner_block, None))
                for handler in getattr(stmt, "handlers", ()):
                    work.append((handler.body, None))
    setattr(owner, "_pallas_ls_loop_guards", found)  # noqa: B010  (a cache kept on the node)
    return found


def live(interp: Interpreter, found: list[Binding], use: Loc | None, env: Env, model: ModuleModel) -> list[Binding]:
    """The bindings (latest first, as `ModuleModel.reaching` gives them) that may reach a use,
    without those in a branch of an `if` whose test is decided against it (`if FAST: k = fused`
    with FAST False), and without those a binding in decided branches surely overwrote."""
    if len(found) < 2:
        return found  # one definition: if its branch never ran, the read fails anyway
    out: list[Binding] = []
    for b in found:
        guards = _guards_of(model, b)
        if _in_a_handler_never_run(interp, model, b):
            continue
        inside = env if use is not None and b.scope is use.scope else EMPTY_ENV
        decided = [constant_truth(interp.ev(guard.test, Loc(b.scope, guard), inside, model)) for guard, _ in guards]
        if any(d is not None and d is not side for d, (_, side) in zip(decided, guards, strict=True)):
            continue  # its branch is not taken
        out.append(b)
        taken = guards and all(d is side for d, (_, side) in zip(decided, guards, strict=True))
        if taken and _surely_runs_before(model, b, guards[0][0], use):
            break  # the taken branches assign it: what came before is overwritten
    return out


def _guards_of(model: ModuleModel, b: Binding) -> list[tuple[ast.If, bool]]:
    if b.stmt is None or len(model.block_chain.get(id(b.stmt), ())) <= 1:
        return []
    return _branch_guards_of(b.scope.node if b.scope.node is not None else model.tree).get(id(b.stmt), [])


def _in_a_handler_never_run(interp: Interpreter, model: ModuleModel, b: Binding) -> bool:
    """`except KeyError: k = fallback` after a `try` body that cannot raise what the handler
    catches: its lookups are of keys the dict certainly holds (or indexes a sequence certainly
    has), and it calls nothing."""
    if b.stmt is None or len(model.block_chain.get(id(b.stmt), ())) <= 1:
        return False
    owner = b.scope.node if b.scope.node is not None else model.tree
    found = _handlers_of(owner).get(id(b.stmt))
    if found is None:
        return False
    try_stmt, handler = found
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    if not all(isinstance(c, ast.Name) and c.id in _LOOKUP_ERRORS for c in caught):
        return False
    for stmt in try_stmt.body:
        if not (isinstance(stmt, ast.Assign) and all(isinstance(target, ast.Name) for target in stmt.targets)):
            return False
        for node in ast.walk(stmt.value):
            if isinstance(node, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda)):
                return False
            if isinstance(node, ast.Subscript) and not _certainly_present(interp, node, Loc(b.scope, stmt), model):
                return False
    return True


# The errors a failed lookup raises: a handler of only these runs when a lookup fails.
_LOOKUP_ERRORS = frozenset({"KeyError", "IndexError", "LookupError"})


def _certainly_present(interp: Interpreter, node: ast.Subscript, loc: Loc, model: ModuleModel) -> bool:
    """`d[k]` of a known dict holding the constant key, or `xs[i]` of a known sequence in range."""
    container = only_value(interp.ev(node.value, loc, EMPTY_ENV, model))
    known, key = key_of(only_value(interp.ev(node.slice, loc, EMPTY_ENV, model)))
    if not known:
        return False
    if isinstance(container, DictV):
        contents = interp.dict_contents(container)
        return contents.items is not None and any(k == key for k, _ in contents.items)
    if isinstance(container, Seq) and isinstance(key, int) and not isinstance(key, bool):
        seq = interp.heap.list_contents(container)
        return seq.elts is not None and -len(seq.elts) <= key < len(seq.elts)
    return False


def _handlers_of(owner: ast.AST) -> dict[int, tuple[ast.Try, ast.ExceptHandler]]:
    """The statements directly in the `except` blocks of one scope's body, with their `try`."""
    found: dict[int, tuple[ast.Try, ast.ExceptHandler]] | None = getattr(owner, "_pallas_ls_handlers", None)
    if found is not None:
        return found
    found = {}
    for stmt in _own_statements(getattr(owner, "body", [])):
        if isinstance(stmt, ast.Try):
            for handler in stmt.handlers:
                for inner in handler.body:
                    found[id(inner)] = (stmt, handler)
    setattr(owner, "_pallas_ls_handlers", found)  # noqa: B010  (a cache kept on the node)
    return found


def _surely_runs_before(model: ModuleModel, b: Binding, outermost: ast.If, use: Loc | None) -> bool:
    """Whether `b`, directly in the bodies of `if`s entered from `outermost`, runs before `use`:
    the use is after `outermost`, in a block that holds it."""
    if use is None or use.stmt is None or use.scope is not b.scope:
        return False
    outer_chain = model.block_chain.get(id(outermost), ())
    use_chain = model.block_chain.get(id(use.stmt), ())
    return use_chain[: len(outer_chain)] == outer_chain and (
        getattr(use.stmt, "lineno", 0) > getattr(outermost, "end_lineno", 1 << 30)
    )


def _branch_guards_of(owner: ast.AST) -> dict[int, list[tuple[ast.If, bool]]]:
    """For each statement of one scope's body that sits in `if` branches only (no loop, `try` or
    `with` between), those `if`s, outermost first, with the branch it is in; kept on the node."""
    found: dict[int, list[tuple[ast.If, bool]]] | None = getattr(owner, "_pallas_ls_branch_guards", None)
    if found is not None:
        return found
    found = {}
    work: list[tuple[list[ast.stmt], tuple[tuple[ast.If, bool], ...]]] = [(getattr(owner, "body", []), ())]
    while work:
        block, guards = work.pop()
        for stmt in block:
            if guards:
                found[id(stmt)] = list(guards)
            if isinstance(stmt, ast.If):
                work.append((stmt.body, (*guards, (stmt, True))))
                work.append((stmt.orelse, (*guards, (stmt, False))))
    setattr(owner, "_pallas_ls_branch_guards", found)  # noqa: B010  (a cache kept on the node)
    return found


def run_statement(interp: Interpreter, stmt: ast.stmt, loc: Loc, model: ModuleModel) -> None:
    """Evaluate what a module-level statement does when the module is imported, for the heap:
    its imports load their modules, decorators and class statements run, calls are made."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            name = alias.asname or alias.name.split(".")[0]
            for b in model.module_scope.bindings.get(name, []):
                if b.stmt is stmt and b.kind == "import" and b.qualname:
                    binding_value(interp, b, EMPTY_ENV, model)
            if isinstance(stmt, ast.Import) and "." in alias.name and alias.asname is None:
                import_value(interp, alias.name, model)  # `import pkg.mod` runs pkg.mod, binds pkg
        return
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _run_decorators(interp, stmt, model)
        return
    if isinstance(stmt, ast.ClassDef):
        for inner in stmt.body:
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _run_decorators(interp, inner, model)
        classes.create_class(interp, stmt, model)
        return
    for node in ast.iter_child_nodes(stmt):
        if isinstance(node, ast.expr) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
            interp.ev(node, loc, EMPTY_ENV, model)


def _run_decorators(interp: Interpreter, node: ast.FunctionDef | ast.AsyncFunctionDef, model: ModuleModel) -> None:
    """A def's decorators run at import with the function: record each call for the heap and
    run the calls its body makes (`REG[name] = fn`, `_register(name, fn)`), without working out
    what it returns (a module of a hundred `@register_lowering_rule(...)` defs would otherwise
    summarise each wrapper)."""
    function: frozenset[Value] = frozenset({Func(node, model, EMPTY_ENV)})
    where = model.loc(node)
    for decorator in node.decorator_list:
        for d in interp.ev(decorator, where, EMPTY_ENV, model):
            target, args = (
                (d.func, [frozenset({d.receiver}), function]) if isinstance(d, BoundMethod) else (d, [function])
            )
            if not isinstance(target, Func):
                continue
            env = calls.bind_arguments(interp, target, args, [])
            if env is not None:
                interp.heap.called(target.node, env)
                run_calls_in(interp, target, env)


def run_calls_in(interp: Interpreter, func: Func, env: Env) -> None:
    """Evaluate the calls a function body makes as statements (for what they store on the heap),
    once per environment."""
    key = ("ran", id(func.node), env)
    if key in interp._memo or interp._call_depth >= MAX_CALL_DEPTH or isinstance(func.node, ast.Lambda):
        return
    interp._memo[key] = NONE_SET
    scope = func.model.function_scope(func.node)
    interp._call_depth += 1
    try:
        for stmt in _own_statements(func.node.body):
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                interp.ev(stmt.value, Loc(scope, stmt), env, func.model)
    finally:
        interp._call_depth -= 1


def with_mutations(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A list display bound to a name, grown by `.append` / `.extend` before the use."""
    mutations = _mutations_of(interp, b, model)
    if not mutations:
        return value
    use_pos = _position(use.stmt) if use.stmt is not None and use.scope is b.scope else (1 << 30, 0)
    bound_pos = _position(b.stmt)
    chain = model.block_chain.get(id(b.stmt), ())
    elts = single_known_seq(value)
    members = set(v for s in value if isinstance(s, Seq) for v in s.all_members())
    known = elts is not None and len(value) == 1
    out = list(elts.elements()) if elts is not None and known else []
    for m in mutations:
        where = model.loc(m.call)
        if not (bound_pos < _position(m.call) < use_pos):
            continue
        if where.scope is not b.scope:
            known = False
        if model.block_chain.get(id(where.stmt), ()) != chain:
            known = False  # inside a loop or a branch: how often it runs is not known
        later = [x for x in lookup(interp, b.name, where, model) if x is not b]
        if later:
            continue  # the name means another list by then
        args = [interp.ev(a, where, env, model) for a in m.call.args]
        if m.method == "append" and len(args) == 1:
            out.append(args[0])
            members |= args[0]
        elif m.method == "extend" and len(args) == 1:
            seq = single_known_seq(args[0])
            if seq is not None:
                out.extend(seq.elements())
                members |= seq.all_members()
            else:
                known = False
                members |= operations.iterate(interp, args[0])
        elif m.method == "insert" and len(args) == 2:
            known = False
            members |= args[1]
        elif m.method == "pop" and known and len(args) <= 1:
            index = only_value(args[0]) if args else Const(-1)
            if isinstance(index, Const) and isinstance(index.value, int) and -len(out) <= index.value < len(out):
                out.pop(index.value)  # `kernels.pop()`: the last one is gone
            else:
                known = False
        elif m.method == "reverse" and not args:
            out.reverse()
        elif m.method == "clear" and not args:
            out = []
        else:
            known = False  # `remove`, `sort`, ...: what is left is not known
    if known:
        return frozenset({Seq("list", tuple(out), site=elts.site if elts is not None else 0)})
    return frozenset({Seq("list", None, frozenset(members) or U, elts.site if elts is not None else 0)})


# The methods that change a list in place (`sort` and `remove` leave it unknown).
_LIST_MUTATIONS = ("append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort")


def with_deletions(
    interp: Interpreter, b: Binding, value: frozenset[Value], use: Loc, env: Env, model: ModuleModel
) -> frozenset[Value]:
    """A dict display bound to a name, with the keys `del name[k]` / `name.pop(k)` removed in its
    own straight-line code before the use (elsewhere: the dict's keys are not known)."""
    deletions = _deletions_of(model, b)
    if not deletions:
        return value
    use_pos = _position(use.stmt) if use.stmt is not None and use.scope is b.scope else (1 << 30, 0)
    bound_pos = _position(b.stmt)
    chain = model.block_chain.get(id(b.stmt), ())
    out: set[Value] = set()
    for d in value:
        if not isinstance(d, DictV):
            out.add(d)
            continue
        items = list(interp.dict_contents(d).items or ()) if d.items is not None else None
        for node, key_expr in deletions:
            where = model.loc(node) if isinstance(node, ast.Call) else Loc(b.scope, node)
            if not (bound_pos < _position(node) < use_pos):
                continue
            known, key = key_of(only_value(interp.ev(key_expr, where, env, model)))
            if (
                items is None
                or not known
                or where.scope is not b.scope
                or model.block_chain.get(id(where.stmt), ()) != chain
            ):
                items = None  # in a loop or a branch, or a key not known
                continue
            items = [(k, v) for k, v in items if k != key]
        out.add(
            DictV(tuple(items), union(v for _, v in items), d.site, d.toplevel)
            if items is not None
            else DictV(None, d.members, d.site, d.toplevel)
        )
    return frozenset(out)


def _deletions_of(model: ModuleModel, b: Binding) -> list[tuple[ast.AST, ast.expr]]:
    """`del name[k]` statements and `name.pop(k)` calls of `b`'s name in its scope: (node, key)."""
    found: list[tuple[ast.AST, ast.expr]] = []
    for call in model.calls_with_attribute(("pop",)):
        receiver = call.func.value  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
        if isinstance(receiver, ast.Name) and receiver.id == b.name and call.args:
            found.append((call, call.args[0]))
    owner = b.scope.node if b.scope.node is not None else model.tree
    for stmt in _own_statements(getattr(owner, "body", [])):
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == b.name
                ):
                    found.append((stmt, target.slice))
    return found


def _mutations_of(interp: Interpreter, b: Binding, model: ModuleModel) -> list[Mutation]:
    by_name = interp._mutations.get(id(model))
    if by_name is None:
        by_name = {}
        for call in model.calls_with_attribute(_LIST_MUTATIONS):
            receiver = call.func.value  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
            if isinstance(receiver, ast.Name):
                by_name.setdefault(receiver.id, []).append(Mutation(call, call.func.attr))  # type: ignore[attr-defined]  # calls_by_attribute holds attribute calls only
        interp._mutations[id(model)] = by_name
    return by_name.get(b.name, [])


def import_value(interp: Interpreter, dotted: str, model: ModuleModel) -> frozenset[Value]:
    if not dotted:
        return U
    if not dotted.startswith("."):
        root = dotted.split(".", 1)[0]
        if root in library.EXTERNAL_ROOTS:
            return frozenset({library.external(dotted)})
    target = interp.loader.module(model, dotted)
    if target is None:
        if model is interp.model:
            interp.imports_not_found.add(dotted)
        return frozenset({library.external(dotted)}) if not dotted.startswith(".") else U
    mod, rest = target
    interp.loaded[id(mod)] = mod
    values: frozenset[Value] = frozenset({Module(mod)})
    for attr in rest:
        values = union(operations.attribute(interp, v, attr, model) for v in values)
    return values


def module_attribute(interp: Interpreter, mod: ModuleModel, name: str) -> frozenset[Value]:
    key = ("modattr", id(mod), name)
    cached = interp._memo.get(key)
    if cached is not None:
        return cached
    if key in interp._active:
        return U
    interp._active.add(key)
    try:
        bindings = live(interp, mod.reaching(mod.module_scope.bindings.get(name, []), None), None, EMPTY_ENV, mod)
        if bindings:
            values = union(binding_value(interp, b, EMPTY_ENV, mod) for b in bindings)
            entries = frozenset(v for v in values if isinstance(v, Entry))
            result = entries or values
        else:
            result = unbound_name(interp, name, mod)
            if result == U:
                sub = interp.loader.module(mod, "." + name) if _is_package(interp.loader.path_of(mod)) else None
                if sub is not None and not sub[1]:
                    interp.loaded[id(sub[0])] = sub[0]
                    result = frozenset({Module(sub[0])})
            if result == U and "__getattr__" in mod.module_scope.bindings:
                result = _module_getattr(interp, mod, name)
    finally:
        interp._active.discard(key)
    interp._memo[key] = result
    return result


def _match_capture(interp: Interpreter, b: Binding, env: Env, model: ModuleModel) -> frozenset[Value]:
    """A name a `match` pattern captures: the part of the subject the pattern takes it from."""
    match = cast(ast.Match, b.stmt)
    subject = interp.ev(match.subject, Loc(b.scope, match), env, model)
    found = [_captured(interp, case.pattern, subject, b.node, model) for case in match.cases]
    return union(values for values in found if values is not None) or U


def _captured(
    interp: Interpreter, pattern: ast.AST, values: frozenset[Value], target: ast.AST, model: ModuleModel
) -> frozenset[Value] | None:
    """What `target` (a capture inside `pattern`) binds when `pattern` matches one of `values`;
    None when `target` is not in `pattern`."""
    if pattern is target:
        return values if isinstance(pattern, ast.MatchAs) else U  # `*rest`, `**rest`: containers
    if not any(node is target for node in ast.walk(pattern)):
        return None
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _captured(interp, pattern.pattern, values, target, model)
    if isinstance(pattern, ast.MatchOr):
        found = [_captured(interp, p, values, target, model) for p in pattern.patterns]
        return union(f for f in found if f is not None)
    if isinstance(pattern, ast.MatchMapping):
        for key, sub in zip(pattern.keys, pattern.patterns, strict=True):
            if any(node is target for node in ast.walk(sub)):
                index = interp.ev(key, Loc(model.module_scope, None), EMPTY_ENV, model)  # a constant, `Op.ADD`
                items = union(operations.subscript(interp, v, index) for v in values)
                return _captured(interp, sub, items, target, model)
    if isinstance(pattern, ast.MatchSequence):
        for position, sub in enumerate(pattern.patterns):
            if any(isinstance(p, ast.MatchStar) for p in pattern.patterns[: position + 1]):
                return U
            if any(node is target for node in ast.walk(sub)):
                items = union(operations.subscript(interp, v, frozenset({Const(position)})) for v in values)
                return _captured(interp, sub, items, target, model)
    if isinstance(pattern, ast.MatchClass):
        for attr, sub in zip(pattern.kwd_attrs, pattern.kwd_patterns, strict=True):
            if any(node is target for node in ast.walk(sub)):
                attributes = union(operations.attribute(interp, v, attr, model) for v in values)
                return _captured(interp, sub, attributes, target, model)
    return U


def _module_getattr(interp: Interpreter, mod: ModuleModel, name: str) -> frozenset[Value]:
    """A name the module does not bind, read through its `__getattr__(name)` (PEP 562)."""
    hooks = union(
        binding_value(interp, b, EMPTY_ENV, mod)
        for b in mod.reaching(mod.module_scope.bindings.get("__getattr__", []), None)
    )
    found = union(
        calls.apply(interp, hook, [frozenset({Const(name)})], [], None, None, EMPTY_ENV, mod) for hook in hooks
    )
    return found or U


def destructure(values: frozenset[Value], path: list[Any]) -> frozenset[Value]:
    for step in path:
        if step is None:
            return U  # a starred target
        out: set[Any] = set()
        for v in values:
            if isinstance(v, Seq):
                if v.elts is not None and step[0] == "front":
                    out |= v.elts[step[1]] if step[1] < len(v.elts) else {UNKNOWN}
                elif v.elts is not None and step[0] == "back":
                    out |= v.elts[-step[1]] if step[1] <= len(v.elts) else {UNKNOWN}
                elif v.elts is not None:
                    out |= v.elts[step[0]] if len(v.elts) == step[1] else {UNKNOWN}
                else:
                    out |= v.all_members()
            elif isinstance(v, Array):
                out.add(v)
            else:
                out.add(UNKNOWN)
        values = frozenset(out)
    return values


def path_to(target: ast.AST, name_node: ast.AST) -> list[Any] | None:
    """Where `name_node` sits in an assignment target: [] for the whole, [(index, length), ...]."""
    if target is name_node:
        return []
    if isinstance(target, (ast.Tuple, ast.List)):
        starred = any(isinstance(e, ast.Starred) for e in target.elts)
        for index, element in enumerate(target.elts):
            inner = element.value if isinstance(element, ast.Starred) else element
            sub = path_to(inner, name_node)
            if sub is not None:
                if starred:  # `first, *rest = xs`: an element counted from the front or the back
                    star = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred))
                    if index == star:
                        return [None]
                    step = ("front", index) if index < star else ("back", len(target.elts) - index)
                    return [step, *sub]
                return [(index, len(target.elts)), *sub]
    return None


def _position(node: ast.AST | None) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _import_base(node: ast.ImportFrom) -> str:
    return "." * (node.level or 0) + (node.module or "")


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def statements_under(stmt: ast.stmt) -> Iterator[ast.AST]:
    """`stmt` and every statement nested in it (defs and classes included), never descending into
    expressions, which hold no statements: a tenth of `ast.walk`'s nodes on a test class of a
    thousand lines, walked for its `self.x = ...` (`self_assignments`)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for name in _STATEMENT_LISTS:
            stack.extend(reversed(getattr(node, name, None) or ()))


def _own_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a body and of its blocks, not of the defs and classes in it."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in _STATEMENT_LISTS:
            inner = getattr(stmt, name, None)
            if inner:
                yield from _own_statements([s for s in inner if isinstance(s, ast.stmt)])
        for handler in getattr(stmt, "handlers", ()):
            yield from _own_statements(handler.body)


def _module_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements that run at module level: the body, and the blocks of its if / try / with."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try, ast.With)) or (
            sys.version_info >= (3, 11) and isinstance(stmt, ast.TryStar)
        ):
            children: list[Any] = list(getattr(stmt, "body", []))
            children += list(getattr(stmt, "orelse", []))
            for handler in getattr(stmt, "handlers", []):
                children += handler.body
            children += list(getattr(stmt, "finalbody", []))
            stack.extend(reversed(children))


def _exported(mod: ModuleModel, name: str) -> bool:
    """Does `from mod import *` bring `name`?  `__all__` when the module lists it, else public names."""
    bindings = mod.module_scope.bindings.get("__all__")
    if bindings:
        value = bindings[-1].value
        if isinstance(value, (ast.List, ast.Tuple)):
            return any(isinstance(e, ast.Constant) and e.value == name for e in value.elts)
    return not name.startswith("_") and (
        name in mod.module_scope.bindings
        or bool(
            [
                s
                for s in _module_level_statements(mod.tree.body)
                if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)
            ]
        )
    )


def _is_package(path: str | None) -> bool:
    return bool(path) and path.endswith("__init__.py")  # type: ignore[union-attr]  # bool(path) ruled None out


def _default_of(function: ast.AST, b: Binding) -> ast.expr | None:
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return None
    args = function.args
    positional = positional_args(function)
    if b.param_index is not None:
        first_default = len(positional) - len(args.defaults)
        if b.param_index >= first_default:
            return args.defaults[b.param_index - first_default]
        return None
    for param, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if param.arg == b.name:
            return default
    return None


def param_binding(func: Func, name: str) -> Binding | None:
    scope = func.model.scope_of_function.get(id(func.node))
    if scope is None:
        return None
    for b in scope.bindings.get(name, []):
        if b.kind == "param":
            return b
    return None


def advanced_iterator(
    interp: Interpreter, call: ast.Call, loc: Loc, env: Env, model: ModuleModel
) -> frozenset[Value] | None:
    """`next(it)` where `it = iter(<known sequence>)` in the same straight-line code, and every
    use of `it` between is a `next(it)` of that code: the element after the ones those took.
    None when not decided (the caller falls back to any element)."""
    arg = call.args[0] if call.args else None
    if not isinstance(arg, ast.Name) or loc.stmt is None:
        return None
    found = lookup(interp, arg.id, loc, model)
    b = found[0] if len(found) == 1 else None
    if b is None or b.kind != "assign" or b.scope is not loc.scope or not isinstance(b.stmt, ast.Assign):
        return None
    made = b.stmt.value
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "iter"):
        return None
    if len(made.args) != 1 or lookup(interp, "iter", loc, model):
        return None  # `iter` rebound, or the two-argument form
    seq = single_known_seq(interp.ev(made.args[0], Loc(b.scope, b.stmt), env, model))
    chain = model.block_chain.get(id(b.stmt), ())
    if seq is None or model.block_chain.get(id(loc.stmt), ()) != chain:
        return None
    taken = 0
    for use in _name_loads_between(b.scope.node, arg.id, _position(b.stmt), _position(call)):
        step = _next_call_of(model, use)
        if step is None or model.block_chain.get(id(model.loc(step).stmt), ()) != chain:
            return None  # passed elsewhere, or advanced in a loop or a branch
        taken += 1
    elements = seq.elements()
    if taken < len(elements):
        return elements[taken]
    return interp.ev(call.args[1], loc, env, model) if len(call.args) > 1 else None


def _name_loads_between(scope_node: ast.AST, name: str, start: tuple[int, int], end: tuple[int, int]) -> list[ast.Name]:
    return [
        n
        for n in ast.walk(scope_node)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and start < _position(n) < end
    ]


def _next_call_of(model: ModuleModel, use: ast.Name) -> ast.Call | None:
    """The `next(use)` call `use` is the first argument of, if it is one."""
    for call in model.calls_named(("next",)):
        if call.args and call.args[0] is use:
            return call
    return None
