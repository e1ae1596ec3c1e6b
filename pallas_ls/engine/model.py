"""The module model: scopes, name bindings and the statement structure of one parsed file.

Built by a single walk over the tree (model_parts.py, block by block).  Rules and resolvers ask it
"which bindings of this name can reach this statement?" instead of re-walking the tree themselves.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# The parts' types are the model's vocabulary: importers take them from here.
from .model_parts import COMPREHENSIONS as COMPREHENSIONS
from .model_parts import MODULE_BODY as MODULE_BODY
from .model_parts import Binding as Binding
from .model_parts import FunctionNode as FunctionNode
from .model_parts import Loc as Loc
from .model_parts import ModelParts as ModelParts
from .model_parts import Scope as Scope
from .model_parts import build_parts as build_parts
from .model_parts import child_nodes as child_nodes
from .model_parts import positional_args as positional_args
from .model_parts import suppresses as suppresses


def _runs_at_most_once(loop: ast.stmt) -> bool:
    """A `for` loop over a display of at most one item or `range(0)` / `range(1)`: no next round."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    it = loop.iter
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
        return len(it.elts) <= 1 and not any(isinstance(e, ast.Starred) for e in it.elts)
    return (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
        and len(it.args) == 1
        and not it.keywords
        and isinstance(it.args[0], ast.Constant)
        and it.args[0].value in (0, 1)
    )


class ModuleModel:
    """Scopes and bindings of one module, plus lookups from nodes to their context."""

    def __init__(self, tree: ast.Module, parts: list[ModelParts] | None = None, module_scope: Scope | None = None):
        self.tree = tree
        self.module_scope = module_scope or Scope("module", tree, None)
        if parts is None:
            parts = [build_parts(tree.body, self.module_scope)]
        self._merge(parts)

    def _merge(self, parts: list[ModelParts]) -> None:
        scope = self.module_scope
        scope.bindings = {}
        scope.global_names = set()
        self.scope_of_function: dict[int, Scope] = {}
        self.loc_of: dict[int, Loc] = {}
        self.block_chain: dict[int, tuple[int, ...]] = {}
        self.loop_of_body: dict[int, ast.stmt] = {}
        self.parent_function: dict[int, FunctionNode | None] = {}
        self.functions: list[FunctionNode] = []
        self.decorated: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = []
        self.alias_names: set[str] = set()
        self._parts = parts
        self._merged_calls: dict[str, dict[str, list[ast.Call]]] = {}  # see _calls_index
        self._call_points: dict[int, list[ast.AST] | None] = {}  # see _call_points_of
        self._uses: _Uses | None = None
        self._nested_stores: dict[int, dict[str, list[Binding]]] | None = None  # see _stores_from_nested
        for part in parts:
            assert part.module_scope is scope, "parts must be built against this module's scope"
            for binding in part.module_bindings:
                scope.add(binding)
            scope.global_names |= part.global_names
            self.scope_of_function.update(part.scope_of_function)
            self.loc_of.update(part.loc_of)
            self.block_chain.update(part.block_chain)
            self.loop_of_body.update(part.loop_of_body)
            self.parent_function.update(part.parent_function)
            self.functions += part.functions
            self.decorated += part.decorated
            self.alias_names |= part.alias_names

    # ------------------------------------------------------------------------- call indexes
    def calls_with_attribute(self, attributes: Iterable[str]) -> list[ast.Call]:
        """Calls `x.a(...)` with `a` in `attributes`, in source order."""
        index = self._calls_index("calls_by_attribute")
        return sorted((c for a in attributes for c in index.get(a, ())), key=_call_position)

    def calls_named(self, names: Iterable[str]) -> list[ast.Call]:
        """Calls `n(...)` with `n` in `names`, in source order."""
        index = self._calls_index("calls_by_name")
        return sorted((c for n in set(names) for c in index.get(n, ())), key=_call_position)

    def calls_rooted_at(self, name: str) -> list[ast.Call]:
        """Attribute calls whose receiver starts from the name `name` (`d.clear()`, `name.a.b(...)`)."""
        return list(self._calls_index("calls_by_root").get(name, ()))

    def called_names(self) -> list[str]:
        """Every name called as `n(...)` somewhere in the module."""
        return list(self._calls_index("calls_by_name"))

    def _calls_index(self, kind: str) -> dict[str, list[ast.Call]]:
        """One of the parts' call indexes merged for the whole module, made on first use: the
        interpreter asks for the calls of one name at a time, hundreds of times per analysis,
        and a walk over every block's index each time cost ~10 ms an edit on a 5k-line file."""
        merged = self._merged_calls.get(kind)
        if merged is None:
            merged = self._merged_calls[kind] = {}
            for part in self._parts:
                for key, calls in getattr(part, kind).items():
                    merged.setdefault(key, []).extend(calls)
        return merged

    def delete_statements(self) -> list[ast.Delete]:
        """Every `del ...` statement of the module."""
        return [d for p in self._parts for d in p.deletes]

    @property
    def calls_of_calls(self) -> list[ast.Call]:
        """Calls whose callee is itself a call: `pl.kernel(mesh=m)(body)`, `pl.when(c)(f)`."""
        return [c for p in self._parts for c in p.calls_of_calls]

    @property
    def calls_of_items(self) -> list[ast.Call]:
        """Calls whose callee is an item: `_IMPLS[config.impl](x, config)`, a table of launchers."""
        return [c for p in self._parts for c in p.calls_of_items]

    # ------------------------------------------------------------------------------- lookups
    def lookup(self, name: str, loc: Loc) -> list[Binding]:
        """The bindings of `name` that can be its value at `loc` (empty: a builtin or unknown)."""
        scope = loc.scope
        stmt = loc.stmt
        own = self._own_store_before(scope, name, stmt)
        if own is not None:
            return own
        if name in scope.global_names:
            return self.reaching(self.module_scope.bindings.get(name, []), None) + self._stores_from_nested(
                self.module_scope, name
            )
        if name in scope.bindings and name not in scope.nonlocal_names:
            # A comprehension's targets are bound for all of it (its Loc is the enclosing statement).
            reaching = self.reaching(scope.bindings[name], None if scope.kind == "comprehension" else stmt)
            nested = self._stores_from_nested(scope, name)
            if scope is self.module_scope and nested and stmt is not None:
                reaching = self._not_overwritten_by_calls(reaching, nested, stmt)
            if reaching or nested or scope.kind != "class":
                return reaching + nested
            # A class body reads a name it binds only later from the enclosing scopes, as Python's
            # LOAD_NAME does: `bump = staticmethod(bump)` wraps the module's `bump`.
        parent = scope.parent
        while parent is not None:
            if parent.kind != "class" and name in parent.bindings and name not in parent.nonlocal_names:
                nested = self._stores_from_nested(parent, name)
                class_statement = self._running_class_statement(scope) if parent is self.module_scope else None
                if class_statement is not None:
                    # a class body runs when its class statement does: the name as it is there
                    reaching = self.reaching(parent.bindings[name], class_statement)
                    return self._not_overwritten_by_calls(reaching, nested, class_statement) + nested
                if parent is self.module_scope and len(parent.bindings[name]) > 1:
                    points = self._call_points_of(scope)
                    if points:
                        return self._reaching_any(parent.bindings[name], points) + nested
                reaching = self.reaching(parent.bindings[name], None)
                if parent is self.module_scope and nested:
                    reaching = self._not_overwritten_by_calls(reaching, nested)
                return reaching + nested
            parent = parent.parent
        return self._stores_from_nested(self.module_scope, name)  # bound only by `global` in functions

    def _running_class_statement(self, scope: Scope) -> ast.AST | None:
        """The module-level class statement whose body (or a class body nested in it) `scope` is:
        what it reads, it reads when that statement runs.  None for any other scope."""
        outermost = None
        while scope.kind == "class" and scope.parent is not None:
            outermost = scope.node
            scope = scope.parent
        return outermost if scope is self.module_scope else None

    def nested_stores(self, scope: Scope, name: str) -> list[Binding]:
        """The stores of `scope`'s name `name` by functions nested in it (`nonlocal`, `global`)."""
        return self._stores_from_nested(scope, name)

    def global_stores(self, name: str) -> list[Binding]:
        """The assignments to `name` in the module's functions that declare it `global`."""
        return self._stores_from_nested(self.module_scope, name)

    def _stores_from_nested(self, scope: Scope, name: str) -> list[Binding]:
        """The assignments to `name` in functions nested in `scope` that declare it `nonlocal`
        (or, for the module, `global`): any may have run before a read in `scope` (when the
        function was called)."""
        if self._nested_stores == {}:
            return []  # no function of the module rebinds a name of an enclosing scope
        if self._nested_stores is None:
            self._nested_stores = {}
            for inner in self.scope_of_function.values():
                for declared in inner.global_names:
                    if inner.kind != "class" and declared in inner.bindings:
                        stores = self._nested_stores.setdefault(id(self.module_scope), {}).setdefault(declared, [])
                        stores += inner.bindings[declared]
                for declared in inner.nonlocal_names:
                    target = inner.parent
                    while target is not None and (
                        target.kind == "class" or declared not in target.bindings or declared in target.nonlocal_names
                    ):
                        target = target.parent
                    if target is not None and target is not self.module_scope and _may_run_in(inner, target):
                        stores = self._nested_stores.setdefault(id(target), {}).setdefault(declared, [])
                        stores += inner.bindings.get(declared, [])
        return self._nested_stores.get(id(scope), {}).get(name, [])

    def _not_overwritten_by_calls(
        self, reaching: list[Binding], nested: list[Binding], read: ast.AST | None = None
    ) -> list[Binding]:
        """Module-level bindings of a name that no later module-level call overwrites for sure:
        `W = None` ... `init()`, where `init` is a module-level def whose own body (not under an
        `if`, a loop or a `try`) assigns `global W`, holds what `init` made after the call.
        `nested` are the name's `global` stores in functions; `read`: a module-level statement
        reading the name (only the calls before it count), else a function's read at run time."""
        writers = {
            function.name
            for store in nested
            if isinstance(store.stmt, (ast.Assign, ast.AugAssign))  # `step += 1` reads the old value: it goes
            and isinstance(function := store.scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and store.scope.parent is self.module_scope
            and any(stmt is store.stmt for stmt in function.body)
            and [b.kind for b in self.module_scope.bindings.get(function.name, [])] == ["def"]
        }
        # `Config.activate(bump)`: a classmethod or staticmethod of a module-level class
        method_writers = {
            function.name
            for store in nested
            if isinstance(store.stmt, (ast.Assign, ast.AugAssign))
            and isinstance(function := store.scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and store.scope.parent is not None
            and store.scope.parent.kind == "class"
            and store.scope.parent.parent is self.module_scope
            and any(stmt is store.stmt for stmt in function.body)
            and [getattr(d, "id", None) for d in function.decorator_list] in (["classmethod"], ["staticmethod"])
        }
        if not writers and not method_writers:
            return reaching
        body = self.tree.body
        calls = [
            i
            for i, stmt in enumerate(body)
            if isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and (
                (isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in writers)
                or (isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr in method_writers)
            )
            and (read is None or (stmt.end_lineno or stmt.lineno) < getattr(read, "lineno", 0))
        ]
        if not calls:
            return reaching
        position = {id(stmt): i for i, stmt in enumerate(body)}
        return [b for b in reaching if position.get(id(b.stmt), len(body)) > max(calls)]

    def _reaching_any(self, bindings: list[Binding], points: list[ast.AST]) -> list[Binding]:
        found: dict[int, Binding] = {}
        for point in points:
            for binding in self.reaching(bindings, point):
                found.setdefault(id(binding), binding)
        return list(found.values())

    # A function defined at module level reads a global when it runs, not at the end of the module:
    # in a notebook, `matmul` defined in cell 14 and used in cell 15 sees cell 14's `matmul_kernel`,
    # though cell 16 defines another (jax's docs/pallas/tpu/matmul.ipynb).  Where every use of a
    # module-level function is in module-level code (a call, an argument, `mm = partial(f, ...)`
    # whose `mm` is used the same way), a global it reads (one with several module-level
    # bindings) is looked up at each statement that uses it, as if it ran there.
    def _call_points_of(self, scope: Scope) -> list[ast.AST] | None:
        """The module-level statements that use the module-level function enclosing `scope`
        (None: it is used from a function or class, or stored elsewhere, or not used here)."""
        while scope.parent is not None and scope.parent is not self.module_scope:
            scope = scope.parent
        function = scope.node
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or scope.parent is None:
            return None
        if id(function) not in self._call_points:
            definition = next(
                (b for b in self.module_scope.bindings.get(function.name, []) if b.node is function), None
            )
            points = None
            if definition is not None and all(self._runs_when_called(d) for d in function.decorator_list):
                points = self._use_points(definition, depth=0)
            self._call_points[id(function)] = points or None
        return self._call_points[id(function)]

    def _use_points(self, definition: Binding, depth: int) -> list[ast.AST] | None:
        """The module-level statements where the value `definition` binds is used; None when a
        use is elsewhere or hands the value on in a way not followed."""
        name = definition.name
        uses = self._module_uses()
        if name in uses.nested or depth > 2:
            return None
        points: list[ast.AST] = []
        for statement, node in uses.top.get(name, []):
            if definition not in self.reaching(self.module_scope.bindings[name], statement):
                continue
            points.append(statement)
            if isinstance(statement, ast.Assign) and _holds(statement.value, node):
                # `mm = functools.partial(f, ...)`: where `mm` is used, `f` runs.
                if len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name):
                    return None
                alias = next(
                    (b for b in self.module_scope.bindings.get(statement.targets[0].id, []) if b.stmt is statement),
                    None,
                )
                further = self._use_points(alias, depth + 1) if alias is not None else None
                if further is None:
                    return None
                points += further
            elif not isinstance(statement, ast.Expr) and not _holds_in_a_call(statement, node):
                return None  # stored some other way (an attribute, a container...): not followed
        return points

    def _module_uses(self) -> _Uses:
        if self._uses is None:
            self._uses = _Uses.of(self.tree)
        return self._uses

    def _runs_when_called(self, decorator: ast.expr) -> bool:
        """`@jax.jit`, `@jax.jit(...)`, `@functools.partial(jax.jit, ...)`: the function still runs
        (is traced) when it is called."""
        if isinstance(decorator, ast.Call):
            callee = decorator.func
            if self._imported_as(callee, ("jax.jit",)):
                return True
            return (
                self._imported_as(callee, ("functools.partial",))
                and bool(decorator.args)
                and self._imported_as(decorator.args[0], ("jax.jit",))
            )
        return self._imported_as(decorator, ("jax.jit",))

    def _imported_as(self, expr: ast.expr, qualnames: tuple[str, ...]) -> bool:
        """`jax.jit` written as `jax.jit` (with `import jax`) or `jit` (with `from jax import jit`)."""
        parts = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return False
        bindings = self.module_scope.bindings.get(expr.id, [])
        if len(bindings) != 1 or bindings[0].kind != "import" or not bindings[0].qualname:
            return False
        return ".".join([bindings[0].qualname, *reversed(parts)]) in qualnames

    def _own_store_before(self, scope: Scope, name: str, stmt: ast.AST | None) -> list[Binding] | None:
        """A function's read of a `global` or `nonlocal` name after its own store of it on every
        path (`n += 1`, then `return n`): the function's own bindings that reach the read."""
        if stmt is None or (name not in scope.global_names and name not in scope.nonlocal_names):
            return None
        own = self.reaching(scope.bindings.get(name, []), stmt)
        return own if self._one_dominates(own, stmt) else None

    def surely_bound(self, scope: Scope, name: str, stmt: ast.AST) -> bool:
        """Whether the scope's own bindings bind `name` on every path to `stmt`, and no `del` in
        the module names it."""
        if not self._one_dominates(self.reaching(scope.bindings.get(name, []), stmt), stmt):
            return False
        return not any(isinstance(t, ast.Name) and t.id == name for d in self.delete_statements() for t in d.targets)

    def _one_dominates(self, reaching: list[Binding], stmt: ast.AST) -> bool:
        """Whether one of the bindings reaching `stmt` runs on every path to it."""
        chain = self.block_chain.get(id(stmt), ())
        return any(self._dominates(b, chain, False) for b in reaching)

    def reaching(self, bindings: list[Binding], stmt: ast.AST | None) -> list[Binding]:
        """The bindings that may reach `stmt` (or the end of their scope when `stmt` is None).

        Walks back from the latest binding before `stmt`, stopping at the first one that is
        certain to have run (its statement sits in a block that encloses `stmt`).
        """
        if not bindings:
            return []
        if stmt is not None:
            here = self._position(stmt)
            candidates = [b for b in bindings if b.position < here]
            use_chain = self.block_chain.get(id(stmt), ())
        else:
            candidates = list(bindings)
            use_chain = ()
        result: list[Binding] = []
        certain: Binding | None = None
        for binding in reversed(candidates):
            result.append(binding)
            if self._dominates(binding, use_chain, stmt is None):
                certain = binding
                break
        if stmt is not None:
            result += self._from_later_iterations(bindings, stmt, certain)
        return result

    def _from_later_iterations(self, bindings: list[Binding], stmt: ast.AST, certain: Binding | None) -> list[Binding]:
        """The bindings after `stmt` in the body of a loop around it: they reach it through the
        loop's next iteration, unless a binding that surely runs in the loop before `stmt`
        (`certain`, when it dominates) binds the name again each time.  (A loop statement itself
        stands for the point before the loop: its `while` test is read as in the first round.)"""
        chain = self.block_chain.get(id(stmt), ())
        loops = [
            loop
            for body in reversed(chain)
            if (loop := self.loop_of_body.get(body)) is not None and not _runs_at_most_once(loop)
        ]
        # The outermost loop whose next round reaches `stmt` (its body holds the inner loops').
        outermost = None
        for loop in loops:
            if certain is not None and (certain.stmt is loop or certain.position > self._position(loop)):
                break  # bound again in this loop before `stmt` (or as its target), every time round
            outermost = loop
        if outermost is None:
            return []
        here = self._position(stmt)
        body = id(outermost.body)  # type: ignore[attr-defined]  # a for or while statement
        return [
            b
            for b in bindings
            if b.position >= here and b.stmt is not None and body in self.block_chain.get(id(b.stmt), ())
        ]

    def _dominates(self, binding: Binding, use_chain: tuple[int, ...], at_end: bool) -> bool:
        if binding.stmt is None:  # parameters: bound on entry
            return True
        chain = self.block_chain.get(id(binding.stmt), ())
        if at_end:
            # At the end of the scope only a binding in the scope's own body is certain.
            return len(chain) <= 1
        return len(chain) <= len(use_chain) and use_chain[: len(chain)] == chain

    @staticmethod
    def _position(node: ast.AST) -> tuple[int, int]:
        return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))

    def loc(self, node: ast.AST) -> Loc:
        return self.loc_of.get(id(node), Loc(self.module_scope, None))

    def scope_node(self, scope: Scope) -> ast.AST:
        """The node whose body holds a scope's statements: its def, lambda or class, or the module."""
        return scope.node if scope.node is not None else self.tree

    def function_scope(self, function: FunctionNode) -> Scope:
        return self.scope_of_function[id(function)]

    def body_loc(self, function: FunctionNode) -> Loc:
        """A Loc at the end of a function's body."""
        return Loc(self.function_scope(function), None)


def _call_position(call: ast.Call) -> tuple[int, int]:
    return (call.lineno, call.col_offset)


def _may_run_in(inner: Scope, target: Scope) -> bool:
    """Whether a function nested in `target`'s function may run: its name is read there (called,
    passed, returned), or it is not a plain def (a decorated one may be run by its decorator)."""
    node = inner.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.decorator_list or target.node is None:
        return True
    return any(
        isinstance(n, ast.Name) and n.id == node.name and isinstance(n.ctx, ast.Load) for n in ast.walk(target.node)
    )


def defaulted_parameters(function: FunctionNode) -> list[tuple[ast.arg, ast.expr, int | None]]:
    """(parameter, default, positional index or None for keyword-only) of each parameter with a default."""
    args = function.args
    positional = positional_args(function)
    out: list[tuple[ast.arg, ast.expr, int | None]] = []
    first = len(positional) - len(args.defaults)
    out += [(positional[first + i], d, first + i) for i, d in enumerate(args.defaults)]
    out += [(a, d, None) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
    return out


def qualpath(model: ModuleModel, function: ast.AST) -> str | None:
    """A function's path in its module that survives edits elsewhere in the file: the names of
    the defs and classes enclosing it, `<locals>` between functions (as Python's __qualname__)."""
    parts: list[str] = []
    node: ast.AST | None = function
    scopes = model.scope_of_function
    while node is not None:
        name = getattr(node, "name", None)
        if name is None:
            return None  # a lambda: no stable name
        parts.append(name)
        scope = scopes.get(id(node))
        parent = scope.parent if scope is not None else None
        if parent is None or parent.kind == "module":
            break
        if parent.kind == "function":
            parts.append("<locals>")
        node = parent.node
    return ".".join(reversed(parts))


def may_leave_early(body: list[ast.stmt]) -> bool:
    """Whether a statement before the last of a body may return or raise (`if not fn: return`):
    then the body's later statements may not run."""
    return any(isinstance(n, (ast.Return, ast.Raise)) for stmt in body[:-1] for n in ast.walk(stmt))


def own_returns(function: FunctionNode) -> Iterator[ast.Return]:
    """The return statements of a def that belong to it (not to nested defs, lambdas, classes)."""
    if isinstance(function, ast.Lambda):
        return
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.expr):
            continue  # returns are statements; expressions cannot hold them
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def own_yields(function: FunctionNode) -> Iterator[tuple[ast.Yield | ast.YieldFrom, ast.stmt]]:
    """A def's own `yield` / `yield from` expressions (not nested defs'), each with the innermost
    statement that holds it."""
    if isinstance(function, ast.Lambda):
        return
    stack: list[tuple[ast.AST, ast.stmt | None]] = [(stmt, None) for stmt in reversed(function.body)]
    while stack:
        node, holder = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.stmt):
            holder = node
        elif isinstance(node, (ast.Yield, ast.YieldFrom)) and holder is not None:
            yield node, holder
        stack.extend((child, holder) for child in reversed(list(ast.iter_child_nodes(node))))


def is_generator(function: FunctionNode) -> bool:
    """True when a def's own body yields (which makes calling it return a generator).

    Kept on the node: the interpreter asks at every call of a function, and walking a big body
    each time was a third of the analysis of call-heavy files (jax's philox.py: 1.1 s -> 0.7 s)."""
    known = getattr(function, "_pallas_ls_is_generator", None)
    if known is None:
        known = function._pallas_ls_is_generator = _yields(function)  # type: ignore[union-attr]  # a cache kept on the def node
    return known


def _yields(function: FunctionNode) -> bool:
    if isinstance(function, ast.Lambda):
        return _contains_yield(function.body)
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _contains_yield(expr: ast.AST) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(expr))


@dataclass
class _Uses:
    """Where names are read: in module-level code, by the innermost module-level statement (and
    the Name read), and the names read inside functions, lambdas and classes."""

    top: dict[str, list[tuple[ast.AST, ast.Name]]]
    nested: set[str]

    @classmethod
    def of(cls, tree: ast.Module) -> _Uses:
        uses = cls({}, set())
        for statement in tree.body:
            uses._visit(statement, statement)
        return uses

    def _visit(self, node: ast.AST, statement: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                for inner in ast.walk(child):
                    if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
                        self.nested.add(inner.id)
                continue
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                self.top.setdefault(child.id, []).append((statement, child))
            self._visit(child, child if isinstance(child, ast.stmt) else statement)


def _holds(value: ast.AST, node: ast.Name) -> bool:
    """`node` is handed into `value` (an argument of a call in it, or `value` itself)."""
    return any(inner is node for inner in ast.walk(value))


def _holds_in_a_call(statement: ast.AST, node: ast.Name) -> bool:
    """`node` is the callee or an argument of a call in `statement` (not stored by it)."""
    for call in ast.walk(statement):
        if isinstance(call, ast.Call) and (
            call.func is node or any(a is node for a in call.args) or any(k.value is node for k in call.keywords)
        ):
            return True
    return False
