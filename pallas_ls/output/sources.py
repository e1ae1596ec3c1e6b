"""The source lines a finding's rows refer to, for formats that quote the source (`full`) or hash
it (`gitlab`): the file's, or in a notebook the finding's cell's."""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.files import UnreadableFile, read_source
from ..engine.findings import UNREADABLE_CODE, Finding
from ..engine.notebook import Notebook, NotebookError
from ..engine.source import split_lines_keepends


class SourceLines:
    """Source lines by (path, cell), each file read once per report."""

    def __init__(self, given: Mapping[str | None, str]) -> None:
        self.given = given
        self.texts: dict[str | None, str | None] = {}
        self.cached: dict[tuple[str | None, int | None], list[str] | None] = {}

    def lines(self, finding: Finding) -> list[str] | None:
        if finding.code == UNREADABLE_CODE:
            return None
        key = (finding.path, finding.cell)
        if key not in self.cached:
            self.cached[key] = self._lines(*key)
        return self.cached[key]

    def _lines(self, path: str | None, cell: int | None) -> list[str] | None:
        text = self._text(path)
        if text is not None and cell is not None:
            text = _cell_source(text, cell)
        # Rows are counted at the line ends Python knows (not at str.splitlines' form feeds).
        return None if text is None else [line.rstrip("\r\n") for line in split_lines_keepends(text)]

    def line(self, finding: Finding) -> str:
        """The text of the finding's first line ("" when it cannot be read)."""
        lines = self.lines(finding) or []
        row = finding.range.start.line
        return lines[row] if row < len(lines) else ""

    def _text(self, path: str | None) -> str | None:
        """The file's text as read (a notebook: its JSON)."""
        if path not in self.texts:
            self.texts[path] = self.given.get(path) if path in self.given else _read(path)
        return self.texts[path]


def _read(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        source = read_source(path)
    except (UnreadableFile, OSError):
        return None
    return source.notebook.text if source.notebook is not None else source.text


def _cell_source(notebook_text: str, cell: int) -> str | None:
    try:
        cells = Notebook.parse(notebook_text).cells
    except NotebookError:
        return None
    return next((c.source for c in cells if c.number == cell), None)
