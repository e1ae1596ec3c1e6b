"""Incremental analysis for edited documents: re-parse and re-model only the changed top-level blocks.

A keystroke changes one top-level block (a def, a class, a statement); the rest of the file is the
same text at the same lines.  Each block is parsed on its own (padded with newlines so its line
numbers are the file's) and its model parts are built once; both are reused while the block's
text and first line are unchanged.  `ast.parse` costs ~15 µs a line here, so on a 6k-line file
re-parsing one block instead of the file is what keeps diagnostics instant.

Equivalence with a whole-file parse: blocks start at column-0 lines that begin a statement, so a
construct that crosses a block boundary (an unclosed bracket, a string spanning lines that start
in column 0) makes the first block fail to parse, and `parse_blocks` merges it with the blocks it
runs into.  When every block parses, the concatenation is the file's tree.  A syntax error costs
the blocks it is in, wherever it is (`parse_blocks` never merges an open bracket into a following
`def`, nor an open string past the quote that would close it unless the merge parses): the
failing block is repaired, as `parse_with_recovery` does, and every other block is reused.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .analysis import ModuleAnalysis, analyze_model
from .cancel import StopCheck, stop_if
from .gcpause import paused_gc
from .model import ModelParts, ModuleModel, Scope, build_parts
from .no_launches import NoLaunches
from .slicing import kernel_slice
from .source import BlockKey, ParsedBlock, SourceFile, _parse_block, _try_parse, blocks_of_tree, parse_blocks
from .values.interpreter import NO_LOADER, Loader

# A slice bigger than this share of the file is not worth a first look: parse it all at once.
SLICE_WORTH_IT = 0.6


@dataclass
class IncrementalDocument:
    """The cache of one open document: its parsed blocks and their model parts, from the last version."""

    module_scope: Scope = field(default_factory=lambda: Scope("module", ast.Module(body=[], type_ignores=[]), None))
    _blocks: dict[BlockKey, ParsedBlock] = field(default_factory=dict)
    _parts: dict[int, ModelParts] = field(default_factory=dict)  # id(ParsedBlock) -> its model parts
    reused: int = 0  # blocks reused by the last update (for tests and benchmarks)
    # The last version launched nothing: what showed it (no_launches.NoLaunches), and its loader kind.
    _no_launches: NoLaunches | None = None
    _no_launches_loader: type | None = None

    def analyze(self, source: SourceFile, loader: Loader = NO_LOADER, should_stop: StopCheck = None) -> ModuleAnalysis:
        """The analysis of `source`, reusing the blocks and parts of the last version; Cancelled
        when `should_stop` says so (the cache is then as it was)."""
        with paused_gc():
            return self._analyze(source, loader, should_stop)

    def first_look(
        self, source: SourceFile, kernel_names: frozenset[str] = frozenset(), worth_it: float = SLICE_WORTH_IT
    ) -> ModuleAnalysis | None:
        """An analysis of the file's kernel slice alone (see `slicing`), for the first diagnostics of
        a newly opened document while the whole file is analysed.  Its findings are the whole
        file's, but for syntax errors outside the slice.  None: the slice is the whole file, or a
        block of it does not parse (the whole analysis will say why)."""
        with paused_gc():
            spans = kernel_slice(source.text, source.lines, kernel_names)
            if spans is None or sum(end - start for start, end in spans) > len(source.lines) * worth_it:
                return None
            blocks = [_parse_block(start, "".join(source.lines[start:end])) for start, end in spans]
            if any(block.problem is not None for block in blocks):
                return None
            tree = ast.Module(body=[s for block in blocks for s in block.stmts], type_ignores=[])
            sliced = SourceFile(text=source.text, path=source.path, had_bom=source.had_bom, _lines=source.lines)
            sliced.set_tree(tree, [])
            return analyze_model(sliced, ModuleModel(tree))

    def _analyze(self, source: SourceFile, loader: Loader = NO_LOADER, should_stop: StopCheck = None) -> ModuleAnalysis:
        # Cancellation (engine/cancel.py) is safe at every `should_stop` point: nothing of `self`
        # changes before the analysis is whole.  Parsing fills a copy of the block cache, new
        # parts go into a local list, and the one shared object, `module_scope` (its bindings
        # are replaced, as new dicts, by the merge in ModuleModel), gets its previous bindings
        # back when anything interrupts the analysis: the previous version's model, which the
        # project still holds, stays whole.
        previous = self._blocks
        if not previous:
            previous = self._first_version(source)
        stop_if(should_stop)
        blocks = parse_blocks(source.text, dict(previous), source.lines, should_stop)
        parts, changed = [], []
        for _, block in blocks:
            part = self._parts.get(id(block))
            if part is None:
                stop_if(should_stop)
                part = build_parts(block.stmts, self.module_scope)
                changed.append(part)
            parts.append(part)
        kept = {id(part) for part in parts}
        dropped = [part for part in self._parts.values() if id(part) not in kept]
        # The previous version's search for launches is reused only with the same kind of loader.
        launched_nothing = self._no_launches if self._no_launches_loader is type(loader) else None
        tree = ast.Module(body=[s for _, b in blocks for s in b.stmts], type_ignores=[])
        scope = self.module_scope
        saved = scope.bindings, scope.global_names
        try:
            model = ModuleModel(tree, parts, scope)
            source.set_tree(tree, [b.problem for _, b in blocks if b.problem is not None])
            analysis = analyze_model(source, model, loader, should_stop, launched_nothing, changed, dropped)
        except BaseException:
            scope.bindings, scope.global_names = saved
            raise
        self.reused = sum(1 for key, _ in blocks if key in previous)
        # Keep only what this version uses, so the cache does not grow with every keystroke.
        self._blocks = {key: block for key, block in blocks}
        self._parts = {id(block): part for (_, block), part in zip(blocks, parts, strict=False)}
        self._no_launches, self._no_launches_loader = analysis.no_launches, type(loader)
        return analysis

    @staticmethod
    def _first_version(source: SourceFile) -> dict[BlockKey, ParsedBlock]:
        """A whole-file parse split into blocks (cheaper than parsing block by block), or nothing."""
        result = _try_parse(source.text)
        return blocks_of_tree(source.text, result, source.lines) if isinstance(result, ast.Module) else {}
