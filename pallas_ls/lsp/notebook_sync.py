"""A notebook's cells as the client synced them (notebookDocument/didOpen and didChange): their
order, kinds and texts, each text a `documents.Document`, so cell edits split lines and convert
columns exactly as LSP says, like every text document's (pygls' workspace splits at form feeds
and U+2028 too, and applied an edit after one of them to the wrong place)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from .documents import Document

PYTHON = ("python", "")


@dataclass
class SyncedCell:
    uri: str
    kind: int  # types.NotebookCellKind value
    document: Document

    @property
    def engine_kind(self) -> str:
        """As engine/notebook.Notebook.of_cells takes it (a code cell in another language: raw)."""
        if self.kind == types.NotebookCellKind.Code.value:
            return "code" if self.document.language_id in PYTHON else "raw"
        return "markdown"


@dataclass
class SyncedNotebook:
    uri: str
    cells: list[SyncedCell] = field(default_factory=list)
    # Cells taken out of the array whose text documents were not closed: a move (VS Code sends it
    # as a removal, then an insertion of the same URI in a later change) keeps their text here.
    detached: dict[str, SyncedCell] = field(default_factory=dict)

    @classmethod
    def opened(cls, params: types.DidOpenNotebookDocumentParams) -> SyncedNotebook:
        items = {item.uri: item for item in params.cell_text_documents}
        return cls(
            params.notebook_document.uri,
            [_cell(c.document, c.kind, items.get(c.document)) for c in params.notebook_document.cells],
        )

    def cell(self, uri: str) -> SyncedCell | None:
        """The cell `uri` (one being moved too: an edit of it is kept for when it is inserted)."""
        return next((c for c in self.cells if c.uri == uri), None) or self.detached.get(uri)

    def version_of(self, uri: str) -> int | None:
        cell = self.cell(uri)
        return cell.document.version if cell is not None else None

    def cells_for_build(self) -> list[tuple[str, str, str]]:
        """(cell URI, kind, text) in order, for notebooks.build."""
        return [(c.uri, c.engine_kind, c.document.text) for c in self.cells]

    def apply(self, change: types.NotebookDocumentChangeEvent, encoding: str) -> None:
        """Cells added, removed or moved (a moved cell keeps its text: it is not opened again, and
        may be removed in one change and inserted in the next),
        kinds changed, then cell texts edited."""
        cells = change.cells
        if cells is None:
            return
        if cells.structure is not None:
            before = {**self.detached, **{c.uri: c for c in self.cells}}
            array = cells.structure.array
            opened = {item.uri: item for item in cells.structure.did_open or ()}
            removed = self.cells[array.start : array.start + array.delete_count]
            self.cells[array.start : array.start + array.delete_count] = [
                _cell(c.document, c.kind, opened[c.document])
                if c.document in opened
                else before.get(c.document) or _cell(c.document, c.kind, None)
                for c in array.cells or ()
            ]
            present = {c.uri for c in self.cells}
            closed = {c.uri for c in cells.structure.did_close or ()}
            self.detached.update((c.uri, c) for c in removed)
            self.detached = {uri: c for uri, c in self.detached.items() if uri not in present | closed}
        for changed in cells.data or ():
            cell = self.cell(changed.document)
            if cell is not None:
                cell.kind = _kind(changed.kind)
        for content in cells.text_content or ():
            cell = self.cell(content.document.uri)
            if cell is not None:
                cell.document.apply_changes(content.changes, encoding)
                cell.document.version = content.document.version


def _kind(kind: object) -> int:
    value: Any = getattr(kind, "value", kind)  # an enum member or the int the client sent
    return int(value)


def _cell(uri: str, kind: object, item: types.TextDocumentItem | None) -> SyncedCell:
    if item is None:
        return SyncedCell(uri, _kind(kind), Document(uri, "", None, "python", path=""))
    return SyncedCell(uri, _kind(kind), Document(uri, item.text, item.version, item.language_id or "python", path=""))
