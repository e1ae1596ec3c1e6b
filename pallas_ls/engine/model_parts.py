"""What one block of top-level statements contributes to a module model (`ModelParts`): its scopes,
name bindings and statement chains, recorded by one walk over its statements (`build_parts`).

`model.ModuleModel` concatenates the parts of a module's blocks and answers questions about them;
the incremental analysis rebuilds only the parts of the blocks that changed.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from typing import cast

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# `try` and, from 3.11, `try` / `except*`: the same fields.
_TRY_STATEMENTS: tuple[type[ast.Try], ...] = (ast.Try, getattr(ast, "TryStar", ast.Try))
# The expressions that run in a scope of their own.
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# The block-chain id of the module's own body.  A constant, not id(tree.body): the module may be
# assembled from separately parsed blocks (incremental analysis) that must share one root.
MODULE_BODY = 0


@dataclass(eq=False)
class Binding:
    """One place where a name gets a value."""

    name: str
    kind: str  # "def" | "class" | "import" | "assign" | "param" | "other"
    node: ast.AST  # the def, the alias, the Name target, the arg, ...
    stmt: ast.AST | None  # the statement that binds (None for parameters)
    scope: Scope
    value: ast.expr | None = None  # for `name = value` (a plain, single-target assignment)
    qualname: str | None = None  # for imports: "jax.experimental.pallas" / ".kernels.k" (relative)
    param_index: int | None = None  # for positional parameters: their index

    @property
    def position(self) -> tuple[int, int]:
        """(line, col) of the binding, for ordering (read from the node: blocks may move)."""
        return (getattr(self.node, "lineno", 0), getattr(self.node, "col_offset", 0))


@dataclass(eq=False)
class Scope:
    kind: str  # "module" | "function" | "class" | "lambda" | "comprehension"
    node: ast.AST
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)

    def add(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.name, []).append(binding)

    @property
    def function(self) -> FunctionNode | None:
        return self.node if isinstance(self.node, _FUNCTIONS) else None


@dataclass(frozen=True)
class Loc:
    """Where an expression is evaluated: its scope and its statement (None: the end of the scope)."""

    scope: Scope
    stmt: ast.AST | None


@dataclass(eq=False)
class ModelParts:
    """What one run of top-level statements contributes to a module model.

    Parts are built once per block of text and reused while that block is unchanged; the module
    model is their concatenation (see `ModuleModel.from_parts`).
    """

    module_scope: Scope
    module_bindings: list[Binding] = field(default_factory=list)
    # id(function, class or comprehension node) -> its scope
    scope_of_function: dict[int, Scope] = field(default_factory=dict)
    loc_of: dict[int, Loc] = field(default_factory=dict)  # id(Call / Lambda / Return / function) -> Loc
    block_chain: dict[int, tuple[int, ...]] = field(default_factory=dict)  # id(stmt) -> enclosing bodies
    loop_of_body: dict[int, ast.stmt] = field(default_factory=dict)  # id(a for / while body) -> the loop
    parent_function: dict[int, FunctionNode | None] = field(default_factory=dict)
    functions: list[FunctionNode] = field(default_factory=list)
    decorated: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = field(default_factory=list)
    global_names: set[str] = field(default_factory=set)
    # Names bound (anywhere) by an import or by `name = <name | attribute | call>`: the only names
    # that can stand for an imported function such as an entry point (`launch = pl.pallas_call`).
    alias_names: set[str] = field(default_factory=set)
    # The calls, indexed by the shape of their callee, so that finders look only at calls that
    # can matter to them: `x.attr(...)`, `name(...)`, `f(...)(...)`.
    calls_by_attribute: dict[str, list[ast.Call]] = field(default_factory=dict)
    calls_by_name: dict[str, list[ast.Call]] = field(default_factory=dict)
    calls_of_calls: list[ast.Call] = field(default_factory=list)
    calls_of_items: list[ast.Call] = field(default_factory=list)  # `TABLE[mode](x)`, `ops[0](x)`
    # Attribute calls again, by the name their callee starts from: `wrap.launch(...)` under
    # "wrap" (a function of an imported module, whatever its name).
    calls_by_root: dict[str, list[ast.Call]] = field(default_factory=dict)
    statements: list[ast.stmt] = field(default_factory=list)  # the top-level statements it was built from
    deletes: list[ast.Delete] = field(default_factory=list)  # `del ...` statements, anywhere

    def index_call(self, call: ast.Call) -> None:
        func = call.func
        if isinstance(func, ast.Attribute):
            self.calls_by_attribute.setdefault(func.attr, []).append(call)
            # The name the receiver starts from, through attributes and calls:
            # `fancy.Fancy().run(x)` is rooted at `fancy`.
            root = func.value
            while isinstance(root, (ast.Attribute, ast.Call)):
                root = root.value if isinstance(root, ast.Attribute) else root.func
            if isinstance(root, ast.Name):
                self.calls_by_root.setdefault(root.id, []).append(call)
        elif isinstance(func, ast.Name):
            self.calls_by_name.setdefault(func.id, []).append(call)
        elif isinstance(func, ast.Call):
            self.calls_of_calls.append(call)
        elif isinstance(func, ast.Subscript):
            self.calls_of_items.append(call)


def build_parts(stmts: list[ast.stmt], module_scope: Scope) -> ModelParts:
    parts = ModelParts(module_scope, statements=list(stmts))
    _Builder(parts).build(stmts)
    return parts


class _Builder:
    """Walks statements once, recording scopes, bindings and statement chains into ModelParts."""

    def __init__(self, parts: ModelParts):
        self.model = parts

    def build(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self._stmt(stmt, self.model.module_scope, (MODULE_BODY,), None)

    # Statements -------------------------------------------------------------------------
    def _body(self, stmts: list[ast.stmt], scope: Scope, chain: tuple[int, ...], function: FunctionNode | None) -> None:
        chain = (*chain, id(stmts))
        for stmt in stmts:
            self._stmt(stmt, scope, chain, function)

    def _stmt(self, stmt: ast.stmt, scope: Scope, chain: tuple[int, ...], function: FunctionNode | None) -> None:
        model = self.model
        model.block_chain[id(stmt)] = chain
        loc = Loc(scope, stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in stmt.decorator_list:
                self._expr(deco, loc, function)
            if stmt.decorator_list:
                model.decorated.append(stmt)
            self._arguments_defaults(stmt.args, loc, function)
            self._annotations(stmt, loc, function)
            self._bind(scope, stmt.name, "def", stmt, stmt)
            self._function(stmt, loc, function)
            return
        if isinstance(stmt, ast.ClassDef):
            for deco in stmt.decorator_list:
                self._expr(deco, loc, function)
            if stmt.decorator_list:
                model.decorated.append(stmt)
            for base in stmt.bases:
                self._expr(base, loc, function)
            for kw in stmt.keywords:
                self._expr(kw.value, loc, function)
            class_scope = Scope("class", stmt, scope)
            model.scope_of_function[id(stmt)] = class_scope
            self._body(stmt.body, class_scope, (), function)
            self._bind(scope, stmt.name, "class", stmt, stmt)
            return
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self._bind(scope, alias.asname, "import", alias, stmt, qualname=alias.name)
                else:
                    top = alias.name.split(".")[0]
                    self._bind(scope, top, "import", alias, stmt, qualname=top)
            return
        if isinstance(stmt, ast.ImportFrom):
            package = "." * (stmt.level or 0) + (stmt.module or "")
            for imported in stmt.names:
                if imported.name == "*":
                    continue
                qual = (
                    f"{package}.{imported.name}" if package and not package.endswith(".") else package + imported.name
                )
                self._bind(scope, imported.asname or imported.name, "import", imported, stmt, qualname=qual)
            return
        if isinstance(stmt, ast.Global):
            if scope is self.model.module_scope:
                self.model.global_names.update(stmt.names)
            else:
                scope.global_names.update(stmt.names)
            return
        if isinstance(stmt, ast.Nonlocal):
            scope.nonlocal_names.update(stmt.names)
            return
        if isinstance(stmt, ast.Assign):
            self._expr(stmt.value, loc, function)
            single = len(stmt.targets) == 1
            for target in stmt.targets:
                self._target(target, scope, stmt, loc, function, stmt.value if single else None)
            return
        if isinstance(stmt, ast.Expr) and scope.kind == "module" and _updates_globals(stmt.value):
            # `globals().update(KERNEL=k)` at module level binds KERNEL, as `KERNEL = k` would
            self._expr(stmt.value, loc, function)
            for keyword in cast(ast.Call, stmt.value).keywords:
                self._bind(scope, cast(str, keyword.arg), "assign", keyword, stmt, value=keyword.value)
                keyword._pallas_ls_walrus = True  # type: ignore[attr-defined]  # bindings.assigned reads its value
            return
        if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            if stmt.value is not None:
                self._expr(stmt.value, loc, function)
            if isinstance(stmt, ast.AnnAssign):
                self._expr(stmt.annotation, loc, function)
                if stmt.value is None:
                    return  # a bare annotation binds nothing
            value = stmt.value if isinstance(stmt, ast.AnnAssign) else None
            self._target(stmt.target, scope, stmt, loc, function, value)
            return
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            self._expr(stmt.iter, loc, function)
            self._target(stmt.target, scope, stmt, loc, function, None)
            self.model.loop_of_body[id(stmt.body)] = stmt
            self._body(stmt.body, scope, chain, function)
            self._body(stmt.orelse, scope, chain, function)
            return
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._expr(item.context_expr, loc, function)
                if item.optional_vars is not None:
                    self._target(item.optional_vars, scope, stmt, loc, function, None)
            if any(suppresses(item.context_expr) for item in stmt.items):
                # `with suppress(KeyError):` may leave its body part way: a block of its own.
                self._body(stmt.body, scope, chain, function)
                return
            # A with-body always runs, so it belongs to the enclosing block for dominance.
            for inner in stmt.body:
                self._stmt(inner, scope, chain, function)
            return
        if isinstance(stmt, (ast.If, ast.While)):
            self._expr(stmt.test, loc, function)
            if isinstance(stmt, ast.While):
                self.model.loop_of_body[id(stmt.body)] = stmt
            self._body(stmt.body, scope, chain, function)
            self._body(stmt.orelse, scope, chain, function)
            return
        if isinstance(stmt, _TRY_STATEMENTS):
            self._body(stmt.body, scope, chain, function)
            for handler in stmt.handlers:
                if handler.type is not None:
                    self._expr(handler.type, loc, function)
                if handler.name:
                    self._bind(scope, handler.name, "other", handler, stmt)
                self._body(handler.body, scope, chain, function)
            self._body(stmt.orelse, scope, chain, function)
            self._body(stmt.finalbody, scope, chain, function)
            return
        if sys.version_info >= (3, 10) and isinstance(stmt, ast.Match):
            self._expr(stmt.subject, loc, function)
            for case in stmt.cases:
                for node in ast.walk(case.pattern):
                    name = getattr(node, "name", None) or getattr(node, "rest", None)
                    if isinstance(name, str):
                        self._bind(scope, name, "other", node, stmt)
                if case.guard is not None:
                    self._expr(case.guard, loc, function)
                self._body(case.body, scope, chain, function)
            return
        if isinstance(stmt, ast.Return):
            self.model.loc_of[id(stmt)] = loc
            if stmt.value is not None:
                self._expr(stmt.value, loc, function)
            return
        # Expr, Assert, Raise, Delete, Pass, Break, Continue, TypeAlias, ...
        if isinstance(stmt, ast.Delete):
            self.model.deletes.append(stmt)
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr):
                self._expr(child, loc, function)

    def _function(self, node: FunctionNode, loc: Loc, enclosing: FunctionNode | None) -> None:
        model = self.model
        kind = "lambda" if isinstance(node, ast.Lambda) else "function"
        scope = Scope(kind, node, loc.scope)
        model.scope_of_function[id(node)] = scope
        model.loc_of[id(node)] = loc
        model.parent_function[id(node)] = enclosing
        model.functions.append(node)
        args = node.args
        for index, arg in enumerate(positional_args(node)):
            self._bind(scope, arg.arg, "param", arg, None, param_index=index)
        for arg in args.kwonlyargs:
            self._bind(scope, arg.arg, "param", arg, None)
        for star in (args.vararg, args.kwarg):
            if star is not None:
                self._bind(scope, star.arg, "param", star, None)
        if isinstance(node, ast.Lambda):
            self._expr(node.body, Loc(scope, None), node)
        else:
            self._body(node.body, scope, (), node)

    def _arguments_defaults(self, args: ast.arguments, loc: Loc, function: FunctionNode | None) -> None:
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self._expr(default, loc, function)

    def _annotations(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, loc: Loc, function: FunctionNode | None
    ) -> None:
        # Annotations are mostly names of types; calls inside them still matter for indexing.
        if node.returns is not None:
            self._expr(node.returns, loc, function)

    # Targets ----------------------------------------------------------------------------
    def _target(
        self,
        target: ast.expr,
        scope: Scope,
        stmt: ast.stmt,
        loc: Loc,
        function: FunctionNode | None,
        value: ast.expr | None,
    ) -> None:
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, "assign", target, stmt, value=value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            # `a, b = r, s` binds a to r and b to s; any other unpacking binds unknown values.
            values = _elementwise(target, value)
            for element, element_value in zip(target.elts, values, strict=False):
                self._target(element, scope, stmt, loc, function, element_value)
        elif isinstance(target, ast.Starred):
            self._target(target.value, scope, stmt, loc, function, None)
        elif scope.kind == "module" and value is not None and _global_key(target) is not None:
            # `globals()["KERNEL"] = k` at module level binds KERNEL, as `KERNEL = k` would
            self._expr(target, loc, function)
            self._bind(scope, cast(str, _global_key(target)), "assign", target, stmt, value=value)
            target._pallas_ls_walrus = True  # type: ignore[attr-defined]  # bindings.assigned reads its value
        else:  # attribute or subscript target: evaluates expressions, binds nothing
            self._expr(target, loc, function)

    def _bind(
        self,
        scope: Scope,
        name: str,
        kind: str,
        node: ast.AST,
        stmt: ast.AST | None,
        value: ast.expr | None = None,
        qualname: str | None = None,
        param_index: int | None = None,
    ) -> None:
        if scope.kind == "comprehension" and kind != "other":
            scope = _enclosing_non_comprehension(scope)  # walrus in a comprehension
        binding = Binding(name, kind, node, stmt, scope, value, qualname, param_index)
        if kind == "import" or (kind == "assign" and isinstance(value, (ast.Name, ast.Attribute, ast.Call))):
            self.model.alias_names.add(name)
        if scope is self.model.module_scope:
            self.model.module_bindings.append(binding)  # merged in order by ModuleModel
        else:
            scope.add(binding)

    # Expressions ------------------------------------------------------------------------
    def _expr(self, root: ast.expr, loc: Loc, function: FunctionNode | None) -> None:
        """Visit an expression without recursion (expressions can nest thousands deep).

        Every expression of a scope shares one Loc, so the stack holds nodes only; child fields
        come from a per-class table (much faster than ast.iter_child_nodes on big files).
        """
        stack: list[ast.AST] = [root]
        model = self.model
        loc_of = model.loc_of
        while stack:
            node = stack.pop()
            cls = type(node)
            if cls is ast.Name or cls is ast.Constant:
                continue
            if cls is ast.Call:
                model.index_call(node)  # type: ignore[arg-type]  # cls is ast.Call
                loc_of[id(node)] = loc
            elif cls is ast.Lambda:
                self._arguments_defaults(node.args, loc, function)  # type: ignore[attr-defined]  # cls is ast.Lambda
                self._function(node, loc, function)  # type: ignore[arg-type]  # cls is ast.Lambda
                continue
            elif cls in COMPREHENSIONS:
                self._comprehension(node, loc, function)  # type: ignore[arg-type]  # cls is one of them
                continue
            elif cls is ast.NamedExpr:
                self._bind(loc.scope, node.target.id, "assign", node.target, loc.stmt, value=node.value)  # type: ignore[attr-defined]  # cls is ast.NamedExpr
                node.target._pallas_ls_walrus = True  # type: ignore[attr-defined]  # bindings.assigned reads its value
                if loc.stmt is not None:  # None: a parameter's default, read in no statement
                    loc.stmt._pallas_ls_walrus = True  # type: ignore[attr-defined]  # reads in it may see it (flow.walrus_before)
            for name in _child_fields(cls):
                value = getattr(node, name, None)
                if value is None:
                    continue
                if isinstance(value, list):
                    stack.extend(v for v in value if v is not None and not isinstance(v, _SKIPPED))
                elif not isinstance(value, _SKIPPED):
                    stack.append(value)

    def _comprehension(
        self,
        node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp,
        loc: Loc,
        function: FunctionNode | None,
    ) -> None:
        scope = Scope("comprehension", node, loc.scope)
        self.model.scope_of_function[id(node)] = scope  # by node, as functions' and classes'
        inner = Loc(scope, loc.stmt)
        for index, generator in enumerate(node.generators):
            # The first iterable is evaluated in the enclosing scope.
            self._expr(generator.iter, loc if index == 0 else inner, function)
            for name_node in ast.walk(generator.target):
                if isinstance(name_node, ast.Name):
                    self._bind(scope, name_node.id, "other", name_node, loc.stmt)
            for condition in generator.ifs:
                self._expr(condition, inner, function)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            self._expr(part, inner, function)


# Child nodes that never hold an expression of interest (contexts, operators).
_SKIPPED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, str, int, float, complex, bytes)
_FIELDS_CACHE: dict[type, tuple[str, ...]] = {}


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """A node's children: ast.iter_child_nodes without its per-node generator of fields (a third
    of the time of a walk over a whole module)."""
    children: list[ast.AST] = []
    for name in _child_fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, list):
            children.extend(v for v in value if isinstance(v, ast.AST))
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


def _child_fields(cls: type[ast.AST]) -> tuple[str, ...]:
    fields = _FIELDS_CACHE.get(cls)
    if fields is None:
        fields = tuple(f for f in cls._fields if f not in ("ctx", "op", "ops", "type_comment", "kind"))
        _FIELDS_CACHE[cls] = fields
    return fields


def _elementwise(target: ast.Tuple | ast.List, value: ast.expr | None) -> list[ast.expr | None]:
    if (
        isinstance(value, (ast.Tuple, ast.List))
        and len(value.elts) == len(target.elts)
        and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts))
    ):
        return list(value.elts)
    return [None] * len(target.elts)


def _enclosing_non_comprehension(scope: Scope) -> Scope:
    while scope.kind == "comprehension" and scope.parent is not None:
        scope = scope.parent
    return scope


def positional_args(function: FunctionNode) -> list[ast.arg]:
    """A function's positional parameters (positional-only ones included), in order."""
    return list(getattr(function.args, "posonlyargs", [])) + list(function.args.args)


def suppresses(context: ast.expr) -> bool:
    """`contextlib.suppress(...)` / `suppress(...)`: a context manager that swallows exceptions."""
    func = context.func if isinstance(context, ast.Call) else None
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return name == "suppress"


def _is_globals_call(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "globals" and not node.args
    )


def _global_key(target: ast.expr) -> str | None:
    """`globals()["KERNEL"]` as a store target: the module name it binds."""
    if isinstance(target, ast.Subscript) and _is_globals_call(target.value):
        key = target.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier():
            return key.value
    return None


def _updates_globals(value: ast.expr) -> bool:
    """`globals().update(KERNEL=k)`: keywords only, each a name."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "update"
        and _is_globals_call(value.func.value)
        and not value.args
        and bool(value.keywords)
        and all(k.arg is not None for k in value.keywords)
    )
