"""The module-level statements that run before a read, in the order Python runs them on import.

A module reading another module's object at import time (`from pkg.registry import REG`, then
`REG[0]`) sees it as every module imported before the read left it: an import statement runs the
module it names (its packages first, each module once, an installed package's modules never
touching the project's objects), statement after statement, nested imports first.  `ImportOrder`
walks those statements in that order and hands each one that is not an import to its reader (a
`Visitor`), which follows what the statement does to the object, or gives up.

Within one module, what has run when its import reaches a statement (`functions_not_run_before`,
`NotRunYet`): the heap leaves out the stores of the statements after a read at import time, and of
the module's functions that nothing run so far names.

Gives up (False) where the order is not certain: a module that cannot be found, an import inside
another statement or through importlib, more than MAX_MODULES_RUN modules.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..model import Loc, ModelParts, ModuleModel
from ..names import EXTERNAL_ROOTS
from . import library
from .domain import EMPTY_ENV, Const, only_value
from .store_sites import StoreSite, store_sites

if TYPE_CHECKING:
    from .interpreter import Interpreter

# How many modules the walk behind one read goes through.
MAX_MODULES_RUN = 24


class Visitor(Protocol):
    def enter(self, model: ModuleModel) -> bool:
        """A module starts running (its imports and statements follow); False: give up."""
        ...

    def statement(self, model: ModuleModel, stmt: ast.stmt) -> bool:
        """A statement of it runs (not an import); False: give up."""
        ...


class ImportOrder:
    def __init__(self, interp: Interpreter, visitor: Visitor):
        self.interp = interp
        self.visitor = visitor
        self.ran: set[int] = set()

    def before(self, reader: ModuleModel, read: ast.AST) -> bool:
        """Run the reader's module-level statements before the one holding the read (`read`, a
        statement of its body); False when the walk gave up or the read is not found."""
        self.ran.add(id(reader))
        if not self.visitor.enter(reader):
            return False
        for stmt in reader.tree.body:
            if stmt is read:
                return True
            if not self._statement(reader, stmt):
                return False
        return False

    def _run_body(self, model: ModuleModel) -> bool:
        if id(model) in self.ran:
            return True  # run already (or running: an import cycle sees it as far as it got)
        if len(self.ran) >= MAX_MODULES_RUN:
            return False
        self.ran.add(id(model))
        return self.visitor.enter(model) and all(self._statement(model, stmt) for stmt in model.tree.body)

    def _statement(self, model: ModuleModel, stmt: ast.stmt) -> bool:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            return self._imports(model, stmt)
        if library.may_import_project_code(stmt):
            return False  # an import under an `if` or a `try`, importlib: what runs is not followed
        return self.visitor.statement(model, stmt)

    def _imports(self, model: ModuleModel, stmt: ast.Import | ast.ImportFrom) -> bool:
        """Run the project modules an import statement names, each package on the way first
        (`import pkg.impls`: pkg, then pkg.impls; `from pkg import impls`: the same when impls
        is a module)."""
        if isinstance(stmt, ast.Import):
            modules = [alias.name for alias in stmt.names]
            names: list[str] = []
        else:
            modules = ["." * stmt.level + (stmt.module or "")]
            names = [alias.name for alias in stmt.names]
        for dotted in modules:
            if not dotted.startswith(".") and dotted.split(".")[0] in EXTERNAL_ROOTS:
                continue
            parts = dotted.lstrip(".").split(".") if dotted.lstrip(".") else []
            level = "." * (len(dotted) - len(dotted.lstrip(".")))
            steps = [level + ".".join(parts[: i + 1]) for i in range(len(parts))] if not level else [dotted]
            for step in steps:
                found = self.interp.loader.module(model, step)
                if found is None or found[1] or not self._run(found[0]):
                    return False
            for name in names:  # `from pkg import impls`: a submodule runs too; a name does not
                found = self.interp.loader.module(model, f"{dotted}.{name}" if dotted.strip(".") else dotted + name)
                if found is not None and not found[1] and not self._run(found[0]):
                    return False
        return True

    def _run(self, module: ModuleModel) -> bool:
        """Run a module an import found: an installed one stands for itself (not run)."""
        return self.interp.loader.from_environment(module) or self._run_body(module)


def import_time_position(loc: Loc, model: ModuleModel) -> tuple[ModuleModel, int] | None:
    """When a read at `loc` runs, if it runs once as the module is imported (in a module-level
    statement, a class body or a comprehension there): the module and the first line of its
    top-level statement holding the read.  None in a function or lambda (it may run at any time)."""
    scope = loc.scope
    while scope.kind in ("class", "comprehension") and scope.parent is not None:
        scope = scope.parent
    if scope is not model.module_scope or loc.stmt is None:
        return None
    return model, top_level_start(model, loc.stmt)


def module_level_store_starts(model: ModuleModel) -> list[int]:
    """The first lines of the module's top-level statements that store into an object: a store
    not in a function, or a call of a function storing that only such calls name."""
    kept: list[int] | None = getattr(model, "_pallas_ls_store_starts", None)
    if kept is None:
        starts = {top_level_start(model, site.node) for site in store_sites(model) if site.function is None}
        for function in {id(site.function): site.function for site in store_sites(model) if site.function}.values():
            starts |= {top_level_start(model, call) for call in calls_at_import(model, function) or ()}
        kept = sorted(starts)
        model._pallas_ls_store_starts = kept  # type: ignore[attr-defined]  # a cache kept on the model
    return kept


def calls_at_import(model: ModuleModel, function: ast.AST) -> list[ast.Call] | None:
    """The module's statements calling a module-level def of its own (`use_plain()`,
    `configure("copy")`), or a classmethod or staticmethod of a module-level class
    (`Op.use(copy)`), when they are all that names it (as a name, an attribute or a string): it
    runs at import there, once per call, and never otherwise (but through another module, once
    this one is imported).  None: it is decorated otherwise, defined again, or named otherwise
    (passed on, called in a function)."""
    name = getattr(function, "name", None)
    if name is None or name.startswith("__") or reflective(model):
        return None  # `__getattr__`, `__init_subclass__`, `__set_name__`: Python calls them unnamed
    scope = model.scope_of_function.get(id(function))
    home = scope.parent if scope is not None else None
    if home is None or not (home is model.module_scope or (home.kind == "class" and home.parent is model.module_scope)):
        return None  # nested in a function: made anew at each call of it
    owner = home.node if home is not model.module_scope else None
    if [b.node for b in home.bindings.get(name, [])] != [function]:
        return None  # bound again
    decorators = [getattr(d, "id", None) for d in getattr(function, "decorator_list", ())]
    if decorators != [] if owner is None else decorators not in (["classmethod"], ["staticmethod"]):
        return None  # a method an instance calls (`reg.add(...)`): instances are not told apart
    named = model.calls_with_attribute([name]) if owner is not None else model.calls_named([name])
    calls = [
        c
        for c in named
        if is_a_statement_of_the_module(c, model)
        and (not isinstance(c.func, ast.Attribute) or isinstance(c.func.value, ast.Name))  # `C.m(...)`
    ]
    if not calls:
        return None  # not called by the module's statements (whether called at all: functions_not_run_before)
    return calls if mentions_of(model, name) == len(calls) else None


def is_a_statement_of_the_module(call: ast.Call, model: ModuleModel) -> bool:
    """`configure("copy")` written as a statement of the module's body itself: it surely runs,
    once (not under an `if`, in a loop or a `try`)."""
    stmt = model.loc(call).stmt
    return isinstance(stmt, ast.Expr) and stmt.value is call and top_level_statement(model, stmt) is stmt


def in_a_branch_not_taken(interp: Interpreter, node: ast.AST, loc: Loc, model: ModuleModel) -> bool:
    """Whether a module-level statement holding `node` (at `loc`) stands in a branch of an `if`
    (or `if`s, nested) that its condition, folded to a constant, never takes."""
    if len(model.block_chain.get(id(loc.stmt), ())) <= 1:
        return False  # a statement of the module's body itself (most stores): no branch around it
    line = getattr(node, "lineno", 0)
    body: list[ast.stmt] = model.tree.body
    while True:
        stmt = next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
        if not isinstance(stmt, ast.If):
            return False
        in_body = any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in stmt.body)
        test = only_value(interp.ev(stmt.test, Loc(model.module_scope, stmt), EMPTY_ENV, model))
        if isinstance(test, Const) and bool(test.value) != in_body:
            return True
        body = stmt.body if in_body else stmt.orelse


def runs_surely_once(call: ast.Call, model: ModuleModel) -> bool:
    """A call in a statement of the module's body itself that the statement always evaluates, once
    (`kernel = FNS[step()]`, `bad if step() else good`): not in a branch of a conditional
    expression, nor in an operand of `and` / `or` after the first, nor in a lambda or a loop of a
    comprehension."""
    stmt = model.loc(call).stmt
    top = top_level_statement(model, stmt) if stmt is not None else None
    if top is None or top is not stmt:
        return False
    return any(node is call for node in _surely_evaluated(top))


def _surely_evaluated(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and the nodes under it that evaluating it always evaluates, once."""
    yield node
    if isinstance(node, ast.IfExp):
        children: list[ast.AST] = [node.test]
    elif isinstance(node, ast.BoolOp):
        children = [node.values[0]]
    elif isinstance(node, (ast.Lambda, ast.While)):
        children = []  # a lambda's body runs when it is called; a while's test, once per round
    elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        children = [node.generators[0].iter]
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from _surely_evaluated(child)


def top_level_statement(model: ModuleModel, node: ast.AST) -> ast.stmt | None:
    """The statement of the module's body holding `node`."""
    index = bisect.bisect_right(_top_level_starts(model), getattr(node, "lineno", 0)) - 1
    return model.tree.body[index] if index >= 0 else None


def mentions_of(model: ModuleModel, name: str) -> int:
    """How many times the module names `name`: as a name, an attribute or a string."""
    counted: dict[str, int] | None = getattr(model, "_pallas_ls_mentions", None)
    if counted is None:
        counted = model._pallas_ls_mentions = {}  # type: ignore[attr-defined]  # a cache kept on the model
    if name not in counted:
        counted[name] = sum(_part_call_index(part).mentions.get(name, 0) for part in model._parts)  # noqa: SLF001
    return counted[name]


def reflective(model: ModuleModel) -> bool:
    """Does the module reach functions without naming them (`globals()[name]()`, `sys.modules`)?"""
    found: bool | None = getattr(model, "_pallas_ls_reflective", None)
    if found is None:
        found = any(_part_call_index(part).reflective for part in model._parts)  # noqa: SLF001
        model._pallas_ls_reflective = found  # type: ignore[attr-defined]  # a cache kept on the model
    return found


@dataclass
class _CallIndex:
    """How many times one block of top-level statements mentions each name (a name, an
    attribute, a string).  Kept on the block's parts: an edit elsewhere in the file reuses it."""

    mentions: dict[str, int]
    reflective: bool  # `globals()[name]()`: any function may be called where no call names it


def _part_call_index(part: ModelParts) -> _CallIndex:
    kept: _CallIndex | None = getattr(part, "_pallas_ls_call_index", None)
    if kept is not None:
        return kept
    index = _CallIndex({}, False)
    for stmt in part.statements:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name):
                mentioned = node.id
            elif isinstance(node, ast.Attribute):
                mentioned = node.attr
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                mentioned = node.value
            else:
                continue
            index.mentions[mentioned] = index.mentions.get(mentioned, 0) + 1
    index.reflective = any(name in index.mentions for name in _REFLECTIVE)
    part._pallas_ls_call_index = index  # type: ignore[attr-defined]  # a cache kept on the parts
    return index


def top_level_start(model: ModuleModel, node: ast.AST) -> int:
    """The first line (its decorators' included) of the top-level statement holding `node`."""
    starts = _top_level_starts(model)
    line = getattr(node, "lineno", 0)
    index = bisect.bisect_right(starts, line) - 1
    return starts[index] if index >= 0 else line


def top_level_def(model: ModuleModel, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The module-level def holding `node` (None: it is in another kind of statement)."""
    stmt = top_level_statement(model, node)
    return stmt if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _top_level_starts(model: ModuleModel) -> list[int]:
    starts: list[int] | None = getattr(model, "_pallas_ls_top_starts", None)
    if starts is None:
        starts = [
            min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))]) for stmt in model.tree.body
        ]
        model._pallas_ls_top_starts = starts  # type: ignore[attr-defined]  # a cache kept on the model
    return starts


# Names through which code may call any function of the module without naming it.
_REFLECTIVE = frozenset({"globals", "vars", "locals", "sys", "__import__", "importlib", "eval", "exec"})


def functions_not_run_before(model: ModuleModel, line: int) -> frozenset[str] | None:
    """The module-level defs that cannot have run when the module's import reaches the top-level
    statement starting at `line` (its own calls included): no code that ran by then names them,
    the module's statements up to it (a def's decorators and defaults, a class's whole body, its
    methods included), and the bodies of the defs those name, and so on.  None: code that ran
    may reach any function (`globals()`, `sys.modules`).  Another module's code is not counted:
    it can call them only once this module is imported (or through a circular import)."""
    memo: dict[int, frozenset[str] | None] | None = getattr(model, "_pallas_ls_not_run", None)
    if memo is None:
        memo = model._pallas_ls_not_run = {}  # type: ignore[attr-defined]  # a cache kept on the model
    if line not in memo:
        memo[line] = _not_run_before(model, line)
    return memo[line]


def functions_storing(model: ModuleModel) -> frozenset[str]:
    """The module-level defs holding a store into an object (in their body or a nested def)."""
    found: frozenset[str] | None = getattr(model, "_pallas_ls_storing_defs", None)
    if found is None:
        tops = (top_level_def(model, site.node) for site in store_sites(model) if site.function is not None)
        found = frozenset(top.name for top in tops if top is not None)
        model._pallas_ls_storing_defs = found  # type: ignore[attr-defined]  # a cache kept on the model
    return found


def _not_run_before(model: ModuleModel, line: int) -> frozenset[str] | None:
    defs = {stmt.name: stmt for stmt in model.tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    named: set[str] = set()
    for stmt, start in zip(model.tree.body, _top_level_starts(model), strict=True):
        if start > line:
            break
        named |= _names_read_when_run(stmt)
    work = [name for name in named if name in defs]
    while work:  # the bodies of the defs named so far, read only for those (a big module's others are not walked)
        for name in _names_read(defs[work.pop()]):
            if name not in named:
                named.add(name)
                if name in defs:
                    work.append(name)
    if named & _REFLECTIVE:
        return None
    return frozenset(defs) - named


def _names_read_when_run(stmt: ast.stmt) -> frozenset[str]:
    """The names a top-level statement reads when it runs (a def's: its decorators' and defaults')."""
    if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _names_read(stmt)
    parts = [*stmt.decorator_list, *stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d is not None)]
    return frozenset().union(*map(_names_read, parts))


def _names_read(node: ast.AST) -> frozenset[str]:
    """The names read anywhere in `node`, kept on it (an edit elsewhere leaves its nodes as they are)."""
    kept: frozenset[str] | None = getattr(node, "_pallas_ls_names_read", None)
    if kept is None:
        kept = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        node._pallas_ls_names_read = kept  # type: ignore[attr-defined]  # a cache kept on the node
    return kept


@dataclass(frozen=True)
class NotRunYet:
    """The stores of a module's import-time code that have not run when a read at import does:
    its module-level statements from `from_line` on, and the stores in the module-level defs
    named in `functions` (nothing that ran before the read calls them)."""

    model: int  # id of the module's model
    from_line: int | None
    functions: frozenset[str]


def not_run_yet(site: StoreSite, model: ModuleModel, cut: NotRunYet | None) -> bool:
    if cut is None or id(model) != cut.model:
        return False
    if site.function is None:
        return cut.from_line is not None and top_level_start(model, site.node) >= cut.from_line
    top = top_level_def(model, site.node) if cut.functions else None
    return top is not None and top.name in cut.functions
