"""Reusing an empty search: the evidence that a module version launches nothing, and the blocks an
edit makes stale (the search for launches is run again on their seeds only)."""

from __future__ import annotations

import ast
import collections
from dataclasses import dataclass

from .cancel import stop_if
from .kernels import Launch
from .launches import LaunchFinder, candidates_in, defined_names, is_seed, is_seed_expr
from .model import ModelParts, ModuleModel, Scope
from .values.bindings import star_imports
from .values.domain import (
    EMPTY_ENV,
    MAX_SUMMARIES,
)


@dataclass(frozen=True, eq=False)
class NoLaunches:
    """A module version's search for launches found none (no launch, no launching function), and
    what that search read beyond the statement each evaluation started in, block by block.

    Most modules that say "pallas" launch nothing (a 5k-line lowering file), and searching one
    costs ~35 ms a keystroke.  Evaluations reach another block only through module-level names (a
    def, a class, an import, an assignment, `global`, a list's `.append`), the module-level calls
    of a top-level function (notebook-style redefinitions), star imports and the loader: each is
    recorded by the interpreter (with the block that read it) or refused here.  After an edit,
    the blocks that read a name an edited block binds are stale, and so, in turn, are the blocks
    that read a name a stale block binds; only the seeds of the edited and stale blocks are
    evaluated again (`no_launches_after`): typing in a class that a hundred functions name
    re-evaluates those functions' seeds, not the module's."""

    seeds: frozenset[ast.AST]  # the seed calls and decorators of that version (nodes, kept alive)
    aliases: frozenset[str]  # its alias names and def names, which tell calls that are seeds
    defined: frozenset[str]
    # name -> the blocks (ModelParts) whose evaluation read it; None among them: a place no block
    # holds (a change of that name means a whole search).
    names_read: dict[str, frozenset[ModelParts | None]]
    calls_read: dict[str, frozenset[ModelParts | None]]
    imports_not_found: frozenset[str]


def no_launches_found(finder: LaunchFinder, model: ModuleModel, found: list[Launch]) -> NoLaunches | None:
    """The evidence of a whole search that found nothing, or None (it found something, consulted
    another module, or stopped at a budget, after which what it read is not all it would read)."""
    interp = finder.interp
    if (
        found
        or finder.launches
        or finder._launching_in(model)
        or interp.loaded
        or star_imports(interp, model)
        or len(interp._summaries) >= MAX_SUMMARIES
        or len(finder._explored) >= LaunchFinder.MAX_EXPLORED
    ):
        return None
    blocks = _BlockOfPlace(model)
    return NoLaunches(
        frozenset(_seeds(model)),
        frozenset(model.alias_names),
        frozenset(defined_names(model)),
        blocks.readers(interp.module_names_read),
        blocks.readers(interp.module_calls_read),
        frozenset(interp.imports_not_found),
    )


def no_launches_after(
    previous: NoLaunches, finder: LaunchFinder, model: ModuleModel, changed: list[ModelParts], dropped: list[ModelParts]
) -> NoLaunches | None:
    """The evidence that `model` launches nothing, when the previous version's search found
    nothing and `changed` (the new version's fresh ModelParts) and `dropped` (the previous
    version's parts no longer used) are all the edit touched; None when that cannot be shown
    (the whole search must run)."""
    interp = finder.interp
    stale = _stale_blocks(previous, model, changed, dropped)
    if stale is None:
        return None
    evaluated = changed + stale
    defined = defined_names(model)
    if model.alias_names <= previous.aliases and defined <= previous.defined:
        # No name became an alias or a def: the unchanged blocks' seeds are among the previous
        # ones (seeds and candidates are told by those names), and the new ones are the edit's.
        gone = _nodes_of(dropped)
        new = _seeds_in(model, evaluated, defined)
        seeds = frozenset(node for node in previous.seeds if id(node) not in gone) | frozenset(new)
    else:
        seeds = frozenset(_seeds(model))
        fresh = _nodes_of(changed)
        if any(id(node) not in fresh for node in seeds if node not in previous.seeds):
            return None  # a call of an unchanged block became a seed (a new alias or def name)
        new = _seeds_in(model, evaluated, defined)
    if star_imports(interp, model):
        return None
    if any(interp.loader.module(model, dotted) is not None for dotted in previous.imports_not_found):
        return None
    # What is being shown: nothing launches.  Assumed while the seeds are evaluated (a call of a
    # function of the module is then not relevant), which is consistent when none is.
    finder._launching[id(model)] = {}
    candidates = {id(call) for call in candidates_in(model, evaluated, defined)}
    decorated = {
        id(d): node
        for part in evaluated
        for node in part.decorated
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for d in node.decorator_list
    }
    for node in new:
        stop_if(finder.should_stop)
        if (
            id(node) in candidates
            and isinstance(node, ast.Call)
            and finder._relevant(interp.ev(node.func, model.loc(node), EMPTY_ENV, model))
        ):
            return None
        if id(node) in decorated and finder._launching_decorators(decorated[id(node)], model):
            return None
    if finder.launches or interp.loaded or len(interp._summaries) >= MAX_SUMMARIES:
        return None
    blocks = _BlockOfPlace(model)
    kept = set(model._parts)
    return NoLaunches(
        seeds,
        frozenset(model.alias_names),
        frozenset(defined),
        _merged_readers(previous.names_read, blocks.readers(interp.module_names_read), kept),
        _merged_readers(previous.calls_read, blocks.readers(interp.module_calls_read), kept),
        previous.imports_not_found | interp.imports_not_found,
    )


def _stale_blocks(
    previous: NoLaunches, model: ModuleModel, changed: list[ModelParts], dropped: list[ModelParts]
) -> list[ModelParts] | None:
    """The unchanged blocks whose seeds may evaluate otherwise after the edit: those that read a
    name an edited block binds, or scanned the module-level calls of a function an edited block
    calls, then those that read a name one of them binds.  None: a name read by no block (a
    whole search)."""
    kept = set(model._parts)
    edited = set(changed)
    stale: list[ModelParts] = []
    seen: set[ModelParts] = set()
    names: set[str] = set()
    calls: set[str] = set()
    for part in changed + dropped:
        bound, called = _touched_names(part)
        names |= bound
        calls |= called
    if len(changed) == 1 and len(dropped) == 1:
        # One block replaced in place (typing): a function it calls at module level as often as
        # before is called at the same places among the other blocks, so what its body saw there
        # changes only through the names the block binds (`names`), not through the calls.
        before, after = _module_level_calls_counted(dropped[0]), _module_level_calls_counted(changed[0])
        calls = {name for name in calls if before[name] != after[name]}
    while names or calls:
        readers = [previous.names_read.get(n, ()) for n in names] + [previous.calls_read.get(n, ()) for n in calls]
        names, calls = set(), set()  # an unchanged block calls what it called: only its names change
        for blocks in readers:
            if None in blocks:
                return None
            for reader in blocks:
                if reader is not None and reader in kept and reader not in edited and reader not in seen:
                    seen.add(reader)
                    stale.append(reader)
                    names |= _touched_names(reader)[0]
    return stale


class _BlockOfPlace:
    """The block (ModelParts) of the places the interpreter records reads at."""

    def __init__(self, model: ModuleModel):
        self.model = model
        self.part_of = {sid: part for part in model._parts for sid in part.block_chain}

    def readers(self, reads: dict[str, dict[int, object]]) -> dict[str, frozenset[ModelParts | None]]:
        return {name: frozenset(self._block(place) for place in places.values()) for name, places in reads.items()}

    def _block(self, place: object) -> ModelParts | None:
        part = self.part_of.get(id(place))
        if part is not None:
            return part
        scope = place if isinstance(place, Scope) else None
        while scope is not None and scope.parent is not None and scope.parent is not self.model.module_scope:
            scope = scope.parent
        if scope is None or scope.parent is None:
            return None  # the module's own end, or not a place of this model
        return self.part_of.get(id(scope.node))


def _merged_readers(
    previous: dict[str, frozenset[ModelParts | None]],
    new: dict[str, frozenset[ModelParts | None]],
    kept: set[ModelParts],
) -> dict[str, frozenset[ModelParts | None]]:
    """The readers of both searches, but for blocks the module no longer has."""
    merged = {name: frozenset(p for p in parts if p is None or p in kept) for name, parts in previous.items()}
    for name, parts in new.items():
        merged[name] = merged.get(name, frozenset()) | parts
    return merged


def _seeds(model: ModuleModel) -> list[ast.AST]:
    """The calls and decorators a search evaluates first (`LaunchFinder.run`, `_launching_in`)."""
    return _seeds_in(model, model._parts, defined_names(model))


def _seeds_in(model: ModuleModel, parts: list[ModelParts], defined: set[str]) -> list[ast.AST]:
    seeds: list[ast.AST] = [call for call in candidates_in(model, parts, defined) if is_seed(call, model)]
    for part in parts:
        for node in part.decorated:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                seeds += [d for d in node.decorator_list if is_seed_expr(d, model)]
    return seeds


def _nodes_of(parts: list[ModelParts]) -> set[int]:
    """ids of the calls and decorators written in `parts`."""
    ids: set[int] = set()
    for part in parts:
        for calls in list(part.calls_by_name.values()) + list(part.calls_by_attribute.values()):
            ids.update(id(call) for call in calls)
        ids.update(id(call) for call in part.calls_of_calls)
        ids.update(id(call) for call in part.calls_of_items)
        for node in part.decorated:
            ids.update(id(d) for d in node.decorator_list)
    return ids


def _module_level_calls_counted(part: ModelParts) -> collections.Counter[str]:
    """How many times the block calls each name at module level."""
    return collections.Counter(
        {
            name: sum(
                getattr(part.loc_of.get(id(call)), "scope", part.module_scope) is part.module_scope for call in calls
            )
            for name, calls in part.calls_by_name.items()
        }
    )


def _touched_names(part: ModelParts) -> tuple[set[str], set[str]]:
    """What one block offers other blocks' evaluations: the module-level names it binds (or
    declares global, or appends to), and the names it calls at module level."""
    bound = {b.name for b in part.module_bindings} | set(part.global_names)
    # `global name` in a function of the block: its assignments are module-level bindings too.
    bound |= {name for scope in part.scope_of_function.values() for name in scope.global_names}
    for method in ("append", "extend", "insert"):
        bound |= {
            call.func.value.id
            for call in part.calls_by_attribute.get(method, ())
            if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        }
    called = {name for name, count in _module_level_calls_counted(part).items() if count}
    return bound, called
