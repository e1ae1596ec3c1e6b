"""The editor's open documents: their text as the client has it, kept in sync incrementally.

The server keeps its own copy (rather than pygls' workspace documents) so that line splitting and
column conversion follow LSP exactly: lines end at `\\r\\n`, `\\r` or `\\n`, and columns are in the
negotiated position encoding.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

from lsprotocol import types
from pygls.uris import to_fs_path

from ..engine.source import line_start_offsets
from .positions import from_client_column, to_client_column


def uri_to_path(uri: str) -> str | None:
    try:
        return to_fs_path(uri)
    except Exception:  # noqa: BLE001 - a strange URI is not a file we know
        return None


@dataclass
class Document:
    uri: str
    text: str
    version: int | None = None
    language_id: str = "python"
    path: str | None = None
    _line_starts: list[int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.path is None:
            self.path = uri_to_path(self.uri)

    # ------------------------------------------------------------------------------ lines
    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            self._line_starts = line_start_offsets(self.text)
        return self._line_starts

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line(self, index: int) -> str:
        """A line's text without its line ending ('' past the end)."""
        starts = self.line_starts
        if index < 0 or index >= len(starts):
            return ""
        end = starts[index + 1] if index + 1 < len(starts) else len(self.text)
        return self.text[starts[index] : end].rstrip("\r\n")

    # -------------------------------------------------------------------------- positions
    def offset_at(self, position: types.Position, encoding: str) -> int:
        """The index into `text` of a client position (clamped to the document)."""
        starts = self.line_starts
        if position.line < 0:
            return 0
        if position.line >= len(starts):
            return len(self.text)
        column = from_client_column(self.line(position.line), position.character, encoding)
        return starts[position.line] + column

    def code_point_position(self, position: types.Position, encoding: str) -> tuple[int, int]:
        """A client position as (line, code-point column), clamped to the document."""
        offset = self.offset_at(position, encoding)
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line, offset - self.line_starts[line]

    def client_position(self, line: int, column: int, encoding: str) -> types.Position:
        return types.Position(line=line, character=to_client_column(self.line(line), column, encoding))

    # ---------------------------------------------------------------------------- changes
    def apply_changes(self, changes: Iterable[types.TextDocumentContentChangeEvent], encoding: str) -> None:
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start = self.offset_at(change.range.start, encoding)
                end = self.offset_at(change.range.end, encoding)
                if end < start:
                    start, end = end, start
                self.text = self.text[:start] + change.text + self.text[end:]
            else:
                self.text = change.text
            self._line_starts = None


class DocumentStore:
    """Open documents by URI."""

    def __init__(self) -> None:
        self._documents: dict[str, Document] = {}
        self._texts: dict[str, str] = {}  # file path -> the text open there (kept for `texts_by_path`)

    def open(self, item: types.TextDocumentItem) -> Document:
        document = Document(item.uri, item.text, item.version, item.language_id or "python")
        self._documents[item.uri] = document
        self._keep_text(document)
        return document

    def change(self, params: types.DidChangeTextDocumentParams, encoding: str) -> Document | None:
        document = self._documents.get(params.text_document.uri)
        if document is None:
            return None
        document.apply_changes(params.content_changes, encoding)
        document.version = params.text_document.version
        self._keep_text(document)
        return document

    def close(self, uri: str) -> Document | None:
        document = self._documents.pop(uri, None)
        if document is not None and document.path:
            self._texts.pop(document.path, None)
            for other in self._documents.values():
                if other.path == document.path:  # the same file, open under another URI
                    self._keep_text(other)
        return document

    def texts_by_path(self) -> dict[str, str]:
        """A copy of {file path: open text}: what an analysis on another thread may read."""
        return dict(self._texts)

    def _keep_text(self, document: Document) -> None:
        if document.path:
            self._texts[document.path] = document.text

    def get(self, uri: str) -> Document | None:
        return self._documents.get(uri)

    def by_path(self, path: str) -> Document | None:
        for document in self._documents.values():
            if document.path == path:
                return document
        return None

    def __iter__(self):
        return iter(list(self._documents.values()))

    def __len__(self) -> int:
        return len(self._documents)
