"""The interpreter's state and the evaluation of expressions (`Interpreter.ev`).

Names, calls, attributes and classes are evaluated by the functions of `bindings`, `calls`,
`operations` and `classes`, which take the interpreter as their first argument.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, cast

from ..model import (
    Binding,
    Loc,
    ModuleModel,
    Scope,
)
from ..source import SourceFile
from . import (
    arrays,
    bindings,
    calls,
    enums,
    flow,
    generators,
    imported_globals,
    iteration,
    library,
    mutations,
    operations,
    ref_identity,
    registrations,
)
from .domain import (
    EMPTY_ENV,
    MAX_EVAL_DEPTH,
    MAX_FOLDED_PAIRS,
    MAX_FSTRING_CHOICES,
    MAX_REPEAT,
    MAY_NAME_OBJECTS,
    NONE_SET,
    Array,
    Const,
    DictV,
    Entry,
    EnumMember,
    Env,
    Evaluated,
    Func,
    Module,
    Opaque,
    Param,
    Seq,
    SliceObject,
    U,
    Unknown,
    Value,
    hashable,
    int_constant,
    key_of,
    only_value,
    repeated_seq,
    single_known_seq,
    small_constant,
    union,
)
from .folding import compared, fold
from .heap import Heap
from .import_order import import_time_position


# ------------------------------------------------------------------------------- loader
class Loader:
    """Finds the project modules an import names (the project implements it; single-file analysis
    uses this one, which finds none)."""

    def module(self, from_model: ModuleModel, dotted: str) -> tuple[ModuleModel, list[str]] | None:
        """The module that `dotted` (as written in an import of `from_model`'s file; relative when
        it starts with '.') names, and the attribute names left after it."""
        return None

    def path_of(self, model: ModuleModel) -> str | None:
        return None

    def module_name(self, model: ModuleModel) -> str | None:
        """The dotted name an absolute import found the module by (its `__name__`); None: not known."""
        return None

    def source_of(self, model: ModuleModel) -> SourceFile | None:
        return None

    def from_environment(self, model: ModuleModel) -> bool:
        """Whether the module was read from the Python environment (followed, never checked)."""
        return False

    def launching_summary(self, model: ModuleModel) -> dict[int, ast.AST] | None:
        """The functions of an imported module that may launch, as the module's own analysis
        finds them, when the project shares such summaries between analyses (a whole-project
        check, where files do not change); None: find them in this analysis."""
        return None


NO_LOADER = Loader()


# --------------------------------------------------------------------------- interpreter
class Interpreter:
    """Evaluates expressions of one module (and the project modules it imports) to value sets.

    One interpreter per analysis of a module version: its caches are valid for that version only.
    """

    def __init__(self, model: ModuleModel, loader: Loader = NO_LOADER):
        self.model = model
        self.loader = loader
        self._memo: dict[tuple[Any, ...], frozenset[Value]] = {}
        self._active: set[tuple[Any, ...]] = set()
        self._summaries: dict[tuple[Any, ...], frozenset[Value]] = {}
        self.mros: dict[Value, list[Value] | None] = {}  # classes.class_mro's answers
        self._eval_depth = 0
        self._call_depth = 0
        self._instance_attrs: dict[int, dict[str, list[Any]]] = {}
        self._star_imports: dict[int, list[ast.ImportFrom]] = {}
        self._module_calls: dict[tuple[int, str], list[Any]] = {}
        self._mutations: dict[int, dict[str, list[mutations.Mutation]]] = {}
        # What each simple `while` / `for` loop leaves its names, by (id of the loop, env): simple_loops.py
        self._simple_loops: dict[tuple[int, Env], dict[str, frozenset[Value]] | None] = {}
        self.loop_statements: dict[int, frozenset[int]] = {}  # by scope node: statements in its loops
        # Launch registry (filled by kernels.LaunchMaker as calls of entry points are evaluated).
        self.on_entry_call: Callable[..., frozenset[Value] | None] | None = None
        self.on_factory_call: Callable[..., frozenset[Value] | None] | None = None
        self.on_decorator_launch: Callable[..., frozenset[Value] | None] | None = None
        self.on_invocation: Callable[..., None] | None = None
        self.on_function_call: Callable[..., None] | None = None
        self.loaded: dict[int, ModuleModel] = {}  # other modules' models consulted, by id
        self.heap = Heap(self)
        self.library_models: dict[int, ModuleModel] = {}  # the models (values/models) evaluated
        # What the evaluations read of this module beyond the statement they started in (see
        # no_launches.NoLaunches, which reuses a search for launches that found none): the names
        # looked up at module level (bound there or not) and the top-level functions whose
        # module-level calls were scanned, each with the places that read it (by id: the
        # statement, or the scope at whose end it was read), and the imports the loader could
        # not find.
        self.module_names_read: dict[str, dict[int, Any]] = {}
        self.module_calls_read: dict[str, dict[int, Any]] = {}
        self.imports_not_found: set[str] = set()
        # When the read being evaluated runs, for a read in a module's import-time code: that
        # module and the line of its top-level statement holding the read (None: in a function,
        # which may run at any time).  The heap leaves out the module's stores made after it.
        self.reading_at: tuple[ModuleModel, int] | None = None

    def models(self) -> list[ModuleModel]:
        return [self.model, *list(self.loaded.values())]

    # ------------------------------------------------------------------------ evaluation
    def ev(self, expr: ast.AST, loc: Loc, env: Env = EMPTY_ENV, model: ModuleModel | None = None) -> frozenset[Value]:
        """What `expr`, evaluated at `loc` (in `model`, default the interpreter's) with `env`, can be."""
        model = model or self.model
        key = (id(expr), env)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._active or self._eval_depth > MAX_EVAL_DEPTH:
            return U
        self._active.add(key)
        self._eval_depth += 1
        reading_at, self.reading_at = self.reading_at, import_time_position(loc, model)
        try:
            result = self._ev(expr, loc, env, model)
        except RecursionError:
            result = U
        finally:
            self._eval_depth -= 1
            self._active.discard(key)
            self.reading_at = reading_at
        self._memo[key] = result
        return result

    def _keys_if_known(self, values: frozenset[Value]) -> frozenset[Value]:
        """A dict on the right of `in` as the tuple of its keys, when the program's stores leave
        them known and nothing removes any (`key in mapping` of a ChainMap's lookup)."""
        d = next(iter(values)) if len(values) == 1 else None
        if not isinstance(d, DictV) or d.items is None:
            return values
        filled = self.dict_contents(d)
        keys = [k for k, _ in d.items]
        if filled.items is None or [k for k, _ in filled.items] != keys or (d.site and self.heap.removes_items(d)):
            return values  # a store adds keys (perhaps in a call that never runs), or one is removed
        if not all(isinstance(k, (str, int)) for k in keys):
            return values
        return frozenset({Seq("tuple", tuple(frozenset({Const(k)}) for k in keys))})

    def _ev(self, expr: ast.AST, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        if isinstance(expr, ast.Constant):
            return frozenset({Const(expr.value)}) if small_constant(expr.value) else frozenset({Opaque("str")})
        if isinstance(expr, ast.Name):
            return self._ev_name(expr, loc, env, model)
        if isinstance(expr, ast.Attribute):
            stored = mutations.attribute_stored_before(self, expr, loc, env, model)
            if stored is None:
                stored = imported_globals.read_after_calls(self, expr, loc, model)
            if stored is not None:
                return stored
            receivers = self.ev(expr.value, loc, env, model)
            at_once = operations.view_consumed_at_once(expr, loc.stmt)
            found = union(operations.attribute(self, v, expr.attr, model, at_once) for v in receivers)
            module = next(iter(receivers)) if len(receivers) == 1 else None
            if isinstance(module, Module) and any(isinstance(v, (Seq, DictV)) for v in found):
                # `registry.IMPLS["main"]`: a registry of that module, filled by the modules run before
                return registrations.read_through_the_module(self, module.model, expr.attr, found, loc, model) or found
            return found
        if isinstance(expr, ast.Call):
            return calls.ev_call(self, expr, loc, env, model)
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice):
            return self._sliced(expr, loc, env, model)
        if isinstance(expr, ast.Subscript):
            index = self.ev(expr.slice, loc, env, model)
            sliced = next(iter(index)) if len(index) == 1 else None
            values = self.ev(expr.value, loc, env, model)
            if isinstance(sliced, SliceObject) and all(isinstance(v, (Seq, Const)) for v in values):
                return self._slice_values(values, list(sliced.parts), True, None)  # `xs[SEL]`, `SEL = slice(1, None)`
            return union(arrays.indexed(v, expr.slice) or operations.subscript(self, v, index) for v in values)
        if isinstance(expr, (ast.Tuple, ast.List)):
            elts = self._elements(expr.elts, loc, env, model)
            kind = "tuple" if isinstance(expr, ast.Tuple) else "list"
            site = id(expr) if kind == "list" else 0
            if elts is None:
                members = union(
                    self.ev(e.value if isinstance(e, ast.Starred) else e, loc, env, model) for e in expr.elts
                )
                return frozenset({Seq(kind, None, members, site)})
            return frozenset({Seq(kind, elts, site=site)})
        if isinstance(expr, ast.Dict):
            return frozenset({self._dict_display(expr, loc, env, model)})
        if isinstance(expr, ast.Lambda):
            return frozenset({Func(expr, model, env)})
        if isinstance(expr, ast.YieldFrom):  # `got = yield from inner()`: what inner returns
            return generators.returned_to_yield_from(self, self.ev(expr.value, loc, env, model))
        if isinstance(expr, ast.IfExp):
            test = self.ev(expr.test, loc, env, model)
            truth = operations.truth_of(self, test)
            if truth is True:
                return self.ev(expr.body, loc, env, model)
            if truth is False:
                return self.ev(expr.orelse, loc, env, model)
            return self.ev(expr.body, loc, env, model) | self.ev(expr.orelse, loc, env, model)
        if isinstance(expr, ast.BinOp):
            return self._binop(expr, loc, env, model)
        if isinstance(expr, ast.UnaryOp):
            operand = self.ev(expr.operand, loc, env, model)
            if any(isinstance(v, Array) for v in operand):
                return frozenset({arrays.array_of(operand)})
            if isinstance(expr.op, ast.Not):
                truth = operations.truth_of(self, operand)
                return frozenset({Const(not truth)}) if truth is not None else frozenset({Opaque("bool")})
            only = next(iter(operand)) if len(operand) == 1 else None
            if isinstance(only, Const):
                value = only.value
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    if isinstance(expr.op, ast.USub):
                        return frozenset({Const(-value)})
                    if isinstance(expr.op, ast.UAdd):
                        return frozenset({Const(value)})
                    if isinstance(value, int):  # `~n`
                        return frozenset({Const(~value)})
            return frozenset({Opaque("number")})
        if isinstance(expr, ast.BoolOp):
            return self._boolop(expr, loc, env, model)
        if isinstance(expr, ast.Compare):
            parts = [self.ev(expr.left, loc, env, model)] + [self.ev(c, loc, env, model) for c in expr.comparators]
            identity = all(isinstance(op, (ast.Is, ast.IsNot)) for op in expr.ops)  # a bool, of arrays too
            if not identity and any(isinstance(v, Array) for p in parts for v in p):
                return frozenset({Array()})
            if len(expr.ops) == 1:  # `"fast" in registry`, `mode == other` through the class's methods
                flags = enums.flags_compared(self, expr.ops[0], parts[0], parts[1])  # `Feature.FAST in enabled`
                if flags is not None:
                    return frozenset({Const(flags)})
                by_dunder = operations.compared_by_dunder(self, expr.ops[0], parts[0], parts[1])
                if by_dunder is not None:
                    return frozenset({Const(by_dunder)})
            ordering = all(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in expr.ops)
            if ordering or sum(any(isinstance(v, EnumMember) for v in p) for p in parts) == 1:
                parts = [enums.as_plain_values(self, p) for p in parts]  # `Level.HIGH == 2`, `a < b`
            for position, op in enumerate(expr.ops):
                if isinstance(op, (ast.In, ast.NotIn)):
                    parts[position + 1] = self._keys_if_known(parts[position + 1])
            folded = compared(expr.ops, parts)
            return frozenset({Const(folded)}) if folded is not None else frozenset({Opaque("bool")})
        if isinstance(expr, ast.NamedExpr):
            return self.ev(expr.value, loc, env, model)
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            return self._comprehension(expr, loc, env, model)
        if isinstance(expr, ast.Set) and not any(isinstance(e, ast.Starred) for e in expr.elts):
            elements = [only_value(self.ev(e, loc, env, model)) for e in expr.elts]
            if all(
                isinstance(e, Const) and isinstance(e.value, (str, int, float)) for e in elements
            ) and not mutations.set_display_may_change(model, loc.stmt):
                return frozenset({Const(frozenset(cast(Const, e).value for e in elements))})  # `x in {"a", "b"}`
        if isinstance(expr, (ast.SetComp, ast.Set)):
            return frozenset({Opaque("set")})
        if isinstance(expr, ast.DictComp):
            return self._dict_comprehension(expr, loc, env, model)
        if isinstance(expr, ast.JoinedStr):
            return self._fstring(expr, loc, env, model)
        if isinstance(expr, ast.Starred):
            return self.ev(expr.value, loc, env, model)
        if isinstance(expr, Evaluated):
            return expr.values
        return U  # await, yield, slices, ...

    def _sliced(self, expr: ast.Subscript, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        """`xs[1:]`, `xs[::-1]` of a known tuple or list: the elements it keeps; of another
        sequence, a sequence of its elements; of an array, an array."""
        bounds = cast(ast.Slice, expr.slice)
        # A bound left out or None (`xs[start:stop]` with stop None) takes the default.
        evaluated = [
            self.ev(part, loc, env, model) if part is not None else NONE_SET
            for part in (bounds.lower, bounds.upper, bounds.step)
        ]
        parts = [None if value == NONE_SET else int_constant(value) for value in evaluated]
        known = all(value == NONE_SET or part is not None for part, value in zip(parts, evaluated, strict=True))
        return self._slice_values(self.ev(expr.value, loc, env, model), parts, known, bounds)

    def _slice_values(
        self, values: frozenset[Value], parts: list[int | None], known: bool, bounds: ast.Slice | None
    ) -> frozenset[Value]:
        """Each value sliced by `parts` (start, stop, step; `known`: all of them constants)."""
        out: set[Value] = set()
        for value in values:
            if isinstance(value, Seq):
                value = self.heap.list_contents(value)
                if value.elts is not None and known and parts[2] != 0:
                    out.add(Seq(value.kind, value.elts[slice(*parts)]))
                else:
                    out.add(Seq(value.kind, None, value.all_members()))
            elif isinstance(value, Array):
                out |= (arrays.indexed(value, bounds) if bounds is not None else None) or {
                    Array(value.origin, None, value.dtype)
                }
            elif isinstance(value, Const) and isinstance(value.value, str) and known and parts[2] != 0:
                out.add(Const(value.value[slice(*parts)]))  # `"pmub"[::-1]`, `name[len("fused_"):]`
            else:
                out |= operations.subscript(self, value, U)
        return frozenset(out) or U

    def _fstring(self, expr: ast.JoinedStr, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        """An f-string whose parts are each one of a few constants is one of a few constant strings
        (`f"_{mode}_kernel"` with mode "sum" or "max"); otherwise some string."""
        texts = [""]
        for part in expr.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                choices = [part.value]
            elif isinstance(part, ast.FormattedValue):
                values = self.ev(part.value, loc, env, model)
                spec = _constant_format_spec(part.format_spec)
                if spec is None or not all(
                    isinstance(v, Const) and isinstance(v.value, (str, int, float)) for v in values
                ):
                    return frozenset({Opaque("str")})
                try:  # `f"k_{n:02d}"`, `f"{name!r}"`: as Python formats the constant
                    choices = [format(_converted(cast(Const, v).value, part.conversion), spec) for v in values]
                except (TypeError, ValueError):
                    return frozenset({Opaque("str")})
            else:
                return frozenset({Opaque("str")})
            texts = [t + c for t in texts for c in choices]
            if not texts or len(texts) > MAX_FSTRING_CHOICES:
                return frozenset({Opaque("str")})
        return frozenset(Const(t) for t in texts)

    def _elements(self, elts: list[ast.expr], loc: Loc, env: Env, model: ModuleModel) -> tuple[Any, ...] | None:
        out: list[frozenset[Value]] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                inner = self.ev(e.value, loc, env, model)
                seq = single_known_seq(inner)
                if seq is None:
                    return None
                out.extend(seq.elements())
            else:
                out.append(self.ev(e, loc, env, model))
        return tuple(out)

    def _dict_display(self, expr: ast.Dict, loc: Loc, env: Env, model: ModuleModel) -> DictV:
        # Constant key -> (key, value) in order.  A repeated key moves to the end and its last value
        # wins; each key is one dict operation (issue 35: rebuilding the items per key was
        # quadratic in the literal's size).
        ordered: dict[object, tuple[Any, frozenset[Value]]] = {}

        def put(key: Any, value: frozenset[Value]) -> None:
            ordered.pop(hashable(key), None)
            ordered[hashable(key)] = (key, value)

        known = True
        members: set[Value] = set()
        for k, v in zip(expr.keys, expr.values, strict=True):
            value = self.ev(v, loc, env, model)
            if k is None:  # `**spread`
                d = next(iter(value)) if len(value) == 1 else None
                d = self.dict_contents(d) if isinstance(d, DictV) else d  # with what the program stored
                if isinstance(d, DictV) and d.items is not None:
                    for spread_key, spread_value in d.items:
                        put(spread_key, spread_value)
                    members |= d.all_values()
                    continue
                for spread in value:  # keys unknown: its values may be any of the result's
                    members |= spread.all_values() if isinstance(spread, DictV) else U
                known = False
                continue
            members |= value
            key = self.ev(k, loc, env, model)
            known_key, const = key_of(next(iter(key)) if len(key) == 1 else None)
            if known_key:
                put(const, value)
            else:
                known = False
        return DictV(
            tuple(ordered.values()) if known else None,
            frozenset(members),
            site=id(expr),
            toplevel=loc.scope.kind in ("module", "class"),
        )

    def _comprehension(
        self, expr: ast.ListComp | ast.GeneratorExp, loc: Loc, env: Env, model: ModuleModel
    ) -> frozenset[Value]:
        """`[S for _ in range(3)]`: three elements when the count is constant and the element does
        not depend on the loop variable (then it is evaluated once); else elements unknown."""
        [*generators] = expr.generators
        count = None
        if len(generators) == 1 and not generators[0].ifs and not generators[0].is_async:
            count = self._range_length(generators[0].iter, loc, env, model)
            targets = {n.id for n in ast.walk(generators[0].target) if isinstance(n, ast.Name)}
            uses_target = any(isinstance(n, ast.Name) and n.id in targets for n in ast.walk(expr.elt))
            if count is not None and count <= MAX_REPEAT and not uses_target:
                element = self.ev(expr.elt, loc, env, model)
                # Each iteration evaluates the element again: a Ref it makes is a new one each time
                # (a Ref made outside, `[r for _ in range(2)]`, stays the same one).
                inside = {id(node) for node in ast.walk(expr.elt)}
                outside = frozenset(
                    r for r in ref_identity.refs_in(element, 0) if id(ref_identity.ref_origin(r)) not in inside
                )
                return frozenset(
                    {Seq("list", tuple(ref_identity.retag(element, outside, (expr, i), 0) for i in range(count)))}
                )
        scope = model.scope_of_function.get(id(expr))
        unrolled = self._unrolled(expr, scope, loc, env, model) if scope is not None else None
        if unrolled is not None and (unrolled[1] or isinstance(expr.elt, MAY_NAME_OBJECTS)):
            # Each element in the environment that binds the targets to it (`[d > 8 for d in x.shape]`)
            elements, exact = unrolled
            made = tuple(self.ev(expr.elt, Loc(cast(Scope, scope), None), bound, model) for bound in elements)
            return frozenset({Seq("list", made) if exact else Seq("list", None, union(made) | U)})
        if scope is None or not isinstance(expr.elt, MAY_NAME_OBJECTS):
            # Arithmetic, strings: nothing a rule follows but how many (`[x * i for i in range(3)]`
            # star-unpacked into a launch's inputs).
            if count is None and len(generators) == 1 and not generators[0].ifs and not generators[0].is_async:
                over = single_known_seq(self.ev(generators[0].iter, loc, env, model))
                count = len(over.elements()) if over is not None else None
            if count is not None and count <= MAX_REPEAT:
                element = self.ev(expr.elt, Loc(scope, None), env, model) if scope is not None else U
                return frozenset({Seq("list", (element,) * count)})
            return frozenset({Seq("list", None, U)})
        members = self.ev(expr.elt, Loc(scope, None), env, model)
        return frozenset({Seq("list", None, members)})

    def _unrolled(
        self, expr: ast.ListComp | ast.GeneratorExp | ast.DictComp, scope: Scope, loc: Loc, env: Env, model: ModuleModel
    ) -> tuple[list[Env], bool] | None:
        """A comprehension whose `for`s run over known sequences, element by element (`[x for g in
        groups for x in g]`: each later `for` in the environments the earlier ones bound): the
        environments that bind its targets to each combination its `if`s may keep, and whether the
        `if`s were all decided (then the elements are known in order).  None: not unrollable."""
        inside = Loc(scope, None)
        kept: list[Env] = [env]
        exact = True
        for index, generator in enumerate(expr.generators):
            if generator.is_async:
                return None
            targets = [
                (b, path)
                for found in scope.bindings.values()
                for b in found
                if b.kind == "other" and (path := bindings.path_to(generator.target, b.node)) is not None
            ]
            extended: list[Env] = []
            for outer in kept:
                # The first iterable is evaluated in the enclosing scope, the others inside.
                iterable = self.ev(generator.iter, loc if index == 0 else inside, outer, model)
                seq = operations.unpacked(self, iterable)
                if seq is None or len(extended) + len(seq.elements()) > MAX_REPEAT:
                    return None
                for element in seq.elements():
                    bound = outer.extended((b, bindings.destructure(element, path)) for b, path in targets)
                    truths = [operations.truth_of(self, self.ev(test, inside, bound, model)) for test in generator.ifs]
                    if False in truths:
                        continue  # this element is certainly filtered out
                    exact = exact and None not in truths
                    extended.append(bound)
            kept = extended
        return kept, exact

    def _dict_comprehension(self, expr: ast.DictComp, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        """`{k: v for k, v in pairs}` over a known sequence: one item per element (each evaluated
        with the targets bound to that element); otherwise keys unknown, values what `v` gives."""
        comprehension = model.scope_of_function.get(id(expr))
        if comprehension is None:
            return frozenset({DictV(None, U)})
        inside = Loc(comprehension, None)
        toplevel = loc.scope.kind in ("module", "class")
        unrolled = self._unrolled(expr, comprehension, loc, env, model)
        if unrolled is not None and unrolled[1]:
            items = []
            for bound in unrolled[0]:
                known, key = key_of(only_value(self.ev(expr.key, inside, bound, model)))
                if not known:
                    break
                items.append((key, self.ev(expr.value, inside, bound, model)))
            else:
                return frozenset({DictV(tuple(items), union(v for _, v in items), id(expr), toplevel)})
        made = self.ev(expr.value, inside, env, model)
        return frozenset({DictV(None, made, id(expr), toplevel)})

    def _comprehension_target(self, b: Binding, env: Env, model: ModuleModel, when: str = "now") -> frozenset[Value]:
        """A name a comprehension's `for` binds: what iterating its iterable gives (or, while a
        known sequence is unrolled, what the environment binds it to).  Read by a function made
        in it, `when` it is called: "last", after the comprehension (a known sequence's last
        element); "any", at some iteration (not the environment's)."""
        bound = env.get(b) if when == "now" else None
        if bound is not None:
            return bound
        node = b.scope.node
        generators = getattr(node, "generators", [])
        for index, generator in enumerate(generators):
            path = bindings.path_to(generator.target, b.node)
            if path is None:
                continue
            # The first iterable is evaluated in the enclosing scope, the others inside.
            scope = b.scope.parent if index == 0 and b.scope.parent is not None else b.scope
            iterable = self.ev(generator.iter, Loc(scope, b.stmt), env, model)
            known = (
                single_known_seq(iterable) if when == "last" and len(generators) == 1 and not generator.ifs else None
            )
            if known is not None and known.elts:
                return bindings.destructure(known.elts[-1], path)
            return bindings.destructure(operations.iterate(self, iterable), path)
        return U

    def _range_length(self, expr: ast.expr, loc: Loc, env: Env, model: ModuleModel) -> int | None:
        if not (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "range"
            and not expr.keywords
            and 1 <= len(expr.args) <= 3
        ):
            return None
        ints = iteration.constant_range([int_constant(self.ev(a, loc, env, model)) for a in expr.args])
        return None if ints is None else len(ints)

    def _boolop(self, expr: ast.BoolOp, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        """`a or b` / `a and b` as Python evaluates it: an operand whose truth is known either ends
        the evaluation (its value is the result) or is passed over; an unknown one may be either."""
        stops_at = isinstance(expr.op, ast.Or)  # `or` stops at a true operand, `and` at a false one
        out: set[Value] = set()
        for index, operand in enumerate(expr.values):
            value = self.ev(operand, loc, env, model)
            truth = operations.truth_of(self, value)
            if index == len(expr.values) - 1 or truth is stops_at:
                out |= value
                if truth is stops_at:
                    break
            elif truth is None:
                out |= value
        return frozenset(out)

    def _binop(self, expr: ast.BinOp, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        left = self.ev(expr.left, loc, env, model)
        right = self.ev(expr.right, loc, env, model)
        return self.binary(expr.op, left, right, expr, loc)

    def binary(
        self, op: ast.operator, left: frozenset[Value], right: frozenset[Value], site: ast.AST, loc: Loc
    ) -> frozenset[Value]:
        """`left op right` (`site`: the expression or `x op= v` statement, where a dict it makes is made)."""
        flags = enums.combined_flags(self, op, left, right)
        if flags is not None:
            return flags  # `Feature.FAST | Feature.DEBUG`
        left, right = enums.as_plain_values(self, left), enums.as_plain_values(self, right)
        if any(isinstance(v, Array) for v in left | right):
            return frozenset({arrays.arithmetic_result(left, right)})
        left, right = _sets_of_keys(self, op, left, right)
        if isinstance(op, ast.Mult):
            repeated = repeated_seq(left, right) or repeated_seq(right, left)
            if repeated is not None:
                return repeated
        if isinstance(op, ast.BitOr) and left and right and all(isinstance(v, DictV) for v in left | right):
            return frozenset(  # `DEFAULTS | OVERRIDES`: the right operand's keys win
                self._dict_union(cast(DictV, a), cast(DictV, b), site, loc) for a in left for b in right
            )
        if isinstance(op, ast.Add):
            ls, rs = single_known_seq(left), single_known_seq(right)
            if ls is not None and rs is not None and ls.kind == rs.kind:
                return frozenset({Seq(ls.kind, ls.elements() + rs.elements())})
            if any(isinstance(v, Seq) for v in left | right):
                seqs = [v for v in left | right if isinstance(v, Seq)]
                return frozenset({Seq(seqs[0].kind, None, union(s.all_members() for s in seqs))})
        if isinstance(op, ast.Mod) and isinstance(only_value(left), Const) and single_known_seq(right) is not None:
            # `"%s_%d" % (name, n)`: the tuple's elements formatted, when they are all constants
            elements = [only_value(e) for e in cast(Seq, single_known_seq(right)).elements()]
            if all(isinstance(e, Const) for e in elements):
                right = frozenset({Const(tuple(cast(Const, e).value for e in elements))})
        if len(left) * len(right) <= MAX_FOLDED_PAIRS and all(isinstance(v, Const) for v in left | right):
            # Each constant with each (`n % 2` for n in 2 or 4 is 0): known when every pair folds.
            pairs = [fold(op, cast(Const, a).value, cast(Const, b).value) for a in left for b in right]
            if pairs and all(folded is not None for folded in pairs):
                return frozenset(cast(list[Value], pairs))
        if any(isinstance(v, Param) for v in left | right):
            return frozenset({Array("traced")})  # in a kernel, parameters are refs (or arrays read from them)
        return frozenset({Opaque("number")})  # arithmetic never gives None

    def _dict_union(self, left: DictV, right: DictV, expr: ast.AST, loc: Loc) -> DictV:
        left, right = self.dict_contents(left), self.dict_contents(right)
        toplevel = loc.scope.kind in ("module", "class")
        if left.items is None or right.items is None:
            return DictV(None, left.all_values() | right.all_values(), id(expr), toplevel)
        merged = {hashable(k): (k, v) for k, v in left.items}
        for k, v in right.items:
            merged[hashable(k)] = (k, v)  # a key of both keeps its place; the value is the right's
        return DictV(tuple(merged.values()), left.all_values() | right.all_values(), id(expr), toplevel)

    # -------------------------------------------------------------------------- names
    def _ev_name(self, expr: ast.Name, loc: Loc, env: Env, model: ModuleModel) -> frozenset[Value]:
        walrus = flow.walrus_before(expr, loc) if hasattr(loc.stmt, "_pallas_ls_walrus") else None
        if walrus is not None:  # bound earlier in the read's own statement
            return bindings.binding_value(self, walrus, env, model, loc)
        reaching = flow.live(self, bindings.lookup(self, expr.id, loc, model), loc, env, model)
        if not reaching:
            return bindings.unbound_name(self, expr.id, model)
        values = union(bindings.binding_value(self, b, env, model, loc) for b in reaching)
        # The real entry point wins over a fallback defined beside it (`try: import ... except: def`).
        entries = frozenset(v for v in values if isinstance(v, Entry))
        return entries or values

    def dict_contents(self, d: DictV, view: bool = False) -> DictV:
        return self.heap.dict_contents(d, view)

    def depends_on_unknown(self, values: frozenset[Value] | None) -> bool:
        """Whether a value set holds something not known here (Unknown, an unbound parameter)."""
        return values is None or any(isinstance(v, (Unknown, Param)) for v in values)


def _sets_of_keys(
    interp: Interpreter, op: ast.operator, left: frozenset[Value], right: frozenset[Value]
) -> tuple[frozenset[Value], frozenset[Value]]:
    """`d.keys() - {"bump"}`: beside a set of constants, a set operation's other operand (a dict's
    keys view, which the domain holds as a list of its keys) as the set of its constants.  A list
    there would raise a TypeError in Python: only a view (or a set) reaches such an operation."""
    if type(op) not in (ast.Sub, ast.BitAnd, ast.BitOr, ast.BitXor):
        return left, right
    a, b = only_value(left), only_value(right)
    if isinstance(a, Const) and isinstance(a.value, frozenset):
        return left, _as_set(interp, right)
    if isinstance(b, Const) and isinstance(b.value, frozenset):
        return _as_set(interp, left), right
    return left, right


def _as_set(interp: Interpreter, values: frozenset[Value]) -> frozenset[Value]:
    constant = library.constant_set(interp, values)  # as `set(keys)` reads them
    return frozenset({constant}) if constant is not None else values


def _constant_format_spec(spec: ast.expr | None) -> str | None:
    """An f-string field's format spec when it is constant (`02d`; "" when there is none)."""
    if spec is None:
        return ""
    if isinstance(spec, ast.JoinedStr) and all(
        isinstance(part, ast.Constant) and isinstance(part.value, str) for part in spec.values
    ):
        return "".join(str(cast(ast.Constant, part).value) for part in spec.values)
    return None


def _converted(value: object, conversion: int) -> object:
    """An f-string field's `!s`, `!r` or `!a` conversion (-1: none)."""
    convert: dict[int, Callable[[object], object]] = {ord("s"): str, ord("r"): repr, ord("a"): ascii}
    return convert[conversion](value) if conversion in convert else value
