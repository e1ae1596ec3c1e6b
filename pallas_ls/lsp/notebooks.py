"""Notebook documents (LSP 3.17): a notebook is analysed as one module, its code cells in order
(engine/notebook.Notebook.of_cells) under the notebook's URI and file path, through the same
pipeline as a text document.  This module maps between that module and the cells: diagnostics
split per cell URI with cell-relative lines, a cell position to a module position, and edits back
(an edit that would span cells is not offered), and a fixed module back into per-cell edits
(fix-all).

Only lines move: every cell line is a whole module line (each cell follows a marker line of its
own), so columns, in whatever encoding the client negotiated, are the same in both.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from ..engine.notebook import CellMap, Notebook
from ..engine.source import SourceFile, split_lines_keepends
from .convert import LineSource


@dataclass
class NotebookState:
    """One open notebook: its code cells as the module analysed."""

    uri: str
    version: int
    cells: list[str] = field(default_factory=list)  # every cell's URI, in order
    starts: dict[str, int] = field(default_factory=dict)  # code cell URI -> its first module line
    lengths: dict[str, int] = field(default_factory=dict)  # code cell URI -> its line count
    # code cell URI -> its IPython lines (`%time`, `x = !ls`), masked in the module: an edit there
    # would write the mask over the user's line, so none is offered (as `check --fix` refuses).
    masked: dict[str, frozenset[int]] = field(default_factory=dict)
    cell_map: CellMap = field(default_factory=lambda: CellMap(()))  # for `line N` in messages
    notebook: Notebook | None = None  # the cells as the engine reads them, to split a fixed module

    def cell_at(self, line: int) -> tuple[str | None, int]:
        """(cell URI, line in the cell) of a module line; (None, 0) on a marker line."""
        for uri, first in self.starts.items():
            if first <= line < first + self.lengths[uri]:
                return uri, line - first
        return None, 0


def build(uri: str, version: int, cells: list[tuple[str, str, str]]) -> tuple[NotebookState, str]:
    """The state and the module text of a notebook of (cell URI, kind, text) cells."""
    notebook = Notebook.of_cells([(kind, text) for _, kind, text in cells])
    state = NotebookState(uri, version, [cell_uri for cell_uri, _, _ in cells])
    for code in notebook.code:
        cell_uri = cells[code.cell.number - 1][0]
        state.starts[cell_uri] = code.first_line
        state.lengths[cell_uri] = max(len(code.lines), 1)
        state.masked[cell_uri] = frozenset(code.masked)
    state.cell_map = CellMap.of(notebook.python)
    state.notebook = notebook
    return state, notebook.python


def split_diagnostics(state: NotebookState, diagnostics_text: str) -> dict[str, list[dict]]:
    """The module's diagnostics (JSON text of a list) per cell URI, cell-relative; every cell has
    an entry (empty for a clean one, so its squiggles clear)."""
    by_cell: dict[str, list[dict]] = {uri: [] for uri in state.cells}
    for diagnostic in json.loads(diagnostics_text):
        cell, range_ = cell_range(state, diagnostic["range"])
        if cell is None:
            continue
        diagnostic["range"] = range_
        diagnostic["message"] = state.cell_map.describe_lines(diagnostic["message"])
        related = []
        for info in diagnostic.get("relatedInformation") or ():
            location = info["location"]
            if location["uri"] == state.uri:
                other, other_range = cell_range(state, location["range"])
                if other is None:
                    continue
                info = {**info, "location": {"uri": other, "range": other_range}}
            related.append(info)
        if "relatedInformation" in diagnostic:
            diagnostic["relatedInformation"] = related
        by_cell[cell].append(diagnostic)
    return by_cell


def cell_range(state: NotebookState, range_: dict) -> tuple[str | None, dict]:
    """A module range (LSP JSON) as (cell URI, cell-relative range); the end is kept in the cell."""
    cell, line = state.cell_at(range_["start"]["line"])
    end_cell, end_line = state.cell_at(range_["end"]["line"])
    start = {"line": line, "character": range_["start"]["character"]}
    if end_cell == cell:
        end = {"line": end_line, "character": range_["end"]["character"]}
    elif cell is not None:
        end = {"line": state.lengths[cell], "character": 0}
    else:
        end = start
    return cell, {"start": start, "end": end}


def to_module(state: NotebookState, cell_uri: str, position: types.Position) -> types.Position:
    return types.Position(line=state.starts.get(cell_uri, 0) + position.line, character=position.character)


def range_to_module(state: NotebookState, cell_uri: str, range_: types.Range) -> types.Range:
    return types.Range(start=to_module(state, cell_uri, range_.start), end=to_module(state, cell_uri, range_.end))


def range_to_cell(state: NotebookState, cell_uri: str, range_: types.Range) -> types.Range | None:
    """A module range as a range of `cell_uri`, None if any part of it is outside that cell."""
    start_cell, start = state.cell_at(range_.start.line)
    end_cell, end = state.cell_at(range_.end.line)
    first = state.starts.get(cell_uri)
    if start_cell != cell_uri:
        return None
    if end_cell != cell_uri:
        # The end just past the cell's last line (its newline) is still inside the cell.
        if first is None or range_.end.line != first + state.lengths[cell_uri] or range_.end.character != 0:
            return None
        end = state.lengths[cell_uri]
    return types.Range(
        start=types.Position(line=start, character=range_.start.character),
        end=types.Position(line=end, character=range_.end.character),
    )


# --------------------------------------------------------------------- requests on a cell
def owner(session: Any, uri: str) -> NotebookState | None:
    """The open notebook `uri` is a code cell of, if it is one."""
    notebook = session.cell_notebook.get(uri)
    state = session.notebooks.get(notebook) if notebook is not None else None
    return state if state is not None and uri in state.starts else None


def diagnostic_to_module(state: NotebookState, cell_uri: str, diagnostic: types.Diagnostic) -> types.Diagnostic:
    return types.Diagnostic(
        range=range_to_module(state, cell_uri, diagnostic.range),
        message=diagnostic.message,
        severity=diagnostic.severity,
        code=diagnostic.code,
        source=diagnostic.source,
        data=diagnostic.data,
        tags=diagnostic.tags,
    )


def actions_to_cell(
    state: NotebookState, cell_uri: str, cell_version: int | None, found: list[types.CodeAction]
) -> list[types.CodeAction]:
    """The actions whose edits all fall in `cell_uri`, their edits against the cell."""
    kept = []
    for action in found:
        edit = action.edit
        if edit is None:
            continue
        edits = [
            e
            for change in edit.document_changes or ()
            if isinstance(change, types.TextDocumentEdit)
            for e in change.edits
        ] + [e for es in (edit.changes or {}).values() for e in es]
        moved = [range_to_cell(state, cell_uri, e.range) for e in edits]
        if not edits or any(r is None for r in moved) or _touches_masked(state, cell_uri, moved):
            continue  # an edit outside the cell (or spanning cells, or on an IPython line) is not offered
        cell_edits = [
            types.TextEdit(range=r, new_text=e.new_text)
            for r, e in zip(moved, edits, strict=True)
            if r is not None and isinstance(e, types.TextEdit)  # (None was ruled out above; no snippets here)
        ]
        if edit.document_changes:
            action.edit = types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=cell_uri, version=cell_version),
                        edits=cell_edits,
                    )
                ]
            )
        else:
            action.edit = types.WorkspaceEdit(changes={cell_uri: cell_edits})
        action.diagnostics = None  # they were the module's copies
        kept.append(action)
    return kept


def fix_all_edit(
    state: NotebookState, fixed: str, encoding: str, cell_version: Callable[[str], int | None], document_changes: bool
) -> types.WorkspaceEdit | None:
    """Fix-all on a notebook: `fixed` (the module after the fixes) as edits of each changed cell,
    cell-relative, on the cells' URIs.  The cells come from the engine's one split
    (Notebook.fixed_sources, as `check --fix` writes them: a cell whose change would touch a
    masked IPython line is left as it was); each cell's edits are its changed runs of lines, and
    a cell where one of them still covers a masked line is left out too.  None if nothing is left."""
    if state.notebook is None:
        return None
    per_cell: dict[str, list[types.TextEdit]] = {}
    for number, new_source in state.notebook.fixed_sources(fixed).items():
        cell_uri = state.cells[number - 1]
        edits = cell_edits(state.notebook.cells[number - 1].source, new_source, encoding)
        if edits and not _touches_masked(state, cell_uri, [e.range for e in edits]):
            per_cell[cell_uri] = edits
    if not per_cell:
        return None
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=cell_version(uri)),
                    edits=edits,
                )
                for uri, edits in per_cell.items()
            ]
        )
    return types.WorkspaceEdit(changes=per_cell)


def cell_edits(old: str, new: str, encoding: str) -> list[types.TextEdit]:
    """Edits turning a cell's text `old` into `new`: one per changed run of lines (so the lines
    between two fixes, a masked one say, are not rewritten), each trimmed to what changed."""
    old_lines, new_lines = split_lines_keepends(old), split_lines_keepends(new)
    lines = LineSource(SourceFile.from_text(old))
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    edits = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end, text = starts[i1], starts[i2], "".join(new_lines[j1:j2])
        start, end, text = _trimmed(old, start, end, text)
        rng = types.Range(
            start=lines.position(lines.source.position_at(start), encoding),
            end=lines.position(lines.source.position_at(end), encoding),
        )
        edits.append(types.TextEdit(range=rng, new_text=text))
    return edits


def _trimmed(old: str, start: int, end: int, text: str) -> tuple[int, int, str]:
    """The replacement of old[start:end] by `text` without their common ends (kept within the
    run, so edits never overlap), never splitting a "\r\n" pair."""
    segment = old[start:end]
    limit = min(len(segment), len(text))
    prefix = 0
    while prefix < limit and segment[prefix] == text[prefix]:
        prefix += 1
    if prefix and segment[prefix - 1 : prefix + 1] == "\r\n":
        prefix -= 1
    suffix = 0
    while suffix < limit - prefix and segment[len(segment) - 1 - suffix] == text[len(text) - 1 - suffix]:
        suffix += 1
    if suffix and segment[len(segment) - suffix - 1 : len(segment) - suffix + 1] == "\r\n":
        suffix -= 1
    return start + prefix, end - suffix, text[prefix : len(text) - suffix]


def _touches_masked(state: NotebookState, cell_uri: str, ranges: list) -> bool:
    masked = state.masked.get(cell_uri, frozenset())
    for r in ranges:
        last = r.end.line - 1 if r.end.character == 0 and r.end.line > r.start.line else r.end.line
        if any(line in masked for line in range(r.start.line, last + 1)):
            return True
    return False


def report_to_cell(state: NotebookState, cell_uri: str, report: dict) -> dict:
    if report.get("kind") == "full":
        report = {**report, "items": split_diagnostics(state, json.dumps(report["items"])).get(cell_uri, [])}
    return report
