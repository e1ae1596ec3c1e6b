"""Jupyter notebooks (nbformat 4) as one Python module, and back.

A notebook's code cells, in order, are analysed as one module (a kernel defined in one cell and
launched in another is found; a name redefined in a later cell is the later definition from that
cell on, as the value interpreter reads any module).  Each code cell is preceded by a marker
comment line, so a position in the module maps back to (cell, line in the cell) and a fixed module
splits back into cells.

IPython syntax is masked, never parsed: line magics and shell escapes (`%time f()`, `!pip ...`,
`x = !ls`), help (`?obj`, `obj?`), and cells whose cell magic runs something other than Python
(`%%bash`, `%%writefile`).  A masked line keeps its line number; writing a fixed cell back restores
every masked line, and a cell whose fix would touch a masked line is left as it was.

Writing back edits only the JSON text of the `source` value of each changed cell, in the form it
had (a string, or a list of lines laid out as before): every other byte of the file is kept.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

from .findings import Finding, Related
from .source import Position, Range, SourceFile, split_lines_keepends

MARKER = "# pallas-ls: notebook cell {number}"
_MARKER_LINE = re.compile(r"# pallas-ls: notebook cell (\d+)\r?\n?$")

# Cell magics whose body is Python that IPython runs (the magic line itself is masked).
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "python", "python3", "pypy"})
_ASSIGNED_MAGIC = re.compile(r"^(\s*[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*)[%!].*$")


class NotebookError(ValueError):
    """The file is not a notebook pallas-ls can read; the message says why."""


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based over all cells, markdown and raw included (as ruff and Jupyter count)
    kind: str  # "code" | "markdown" | "raw"
    source: str
    span: tuple[int, int]  # where the `source` value is in the notebook's JSON text
    as_list: bool  # the source was stored as a list of lines (the usual form)


@dataclass(frozen=True)
class CellText:
    """One code cell as it appears in the module: its first line there and its masked lines."""

    cell: Cell
    first_line: int  # 0-based line of the module where the cell's first line is
    lines: tuple[str, ...]  # the cell's lines as analysed (masked), with their line ends
    masked: dict[int, str] = field(default_factory=dict)  # line in the cell -> original line


@dataclass(frozen=True)
class Notebook:
    text: str  # the notebook file's JSON text
    cells: tuple[Cell, ...]
    code: tuple[CellText, ...]
    python: str  # the code cells as one module, each after its marker line

    @classmethod
    def parse(cls, text: str) -> Notebook:
        cells = tuple(_cells(text))
        code, python = _module_of(cells)
        return cls(text, cells, code, python)

    @classmethod
    def of_cells(cls, cells: list[tuple[str, str]]) -> Notebook:
        """A notebook known by its cells, (kind, source) in order (an editor's notebook document):
        `python` and the cell map, without a file to write back to."""
        known = tuple(Cell(i + 1, kind, source, (0, 0), True) for i, (kind, source) in enumerate(cells))
        code, python = _module_of(known)
        return cls("", known, code, python)

    def with_python(self, fixed: str) -> str:
        """The notebook's JSON text with the code cells replaced by those of `fixed` (a fixed
        `python`).  Cells whose text did not change, or whose change would touch a masked line,
        keep their bytes."""
        return replace_sources(self.text, self.cells, self.fixed_sources(fixed))

    def fixed_sources(self, fixed: str) -> dict[int, str]:
        """The new `source` of each code cell (by cell number) that `fixed`, a fixed `python`,
        changes: masked lines restored; a cell whose change would touch a masked line is left
        out, and so is every cell when a marker line was lost (the cells cannot be told apart).
        `--fix` writes these into the file; the server's fix-all edits the cells with them."""
        new_sources = {}
        for cell, new_lines in zip(self.code, _split_cells(fixed, len(self.code)) or (), strict=False):
            if tuple(new_lines) == cell.lines:
                continue
            restored = _restore_masked(cell, new_lines)
            if restored is None:
                continue
            if not cell.cell.source.endswith(("\n", "\r")) and restored and restored[-1].endswith("\n"):
                restored[-1] = restored[-1][:-1]  # the newline added before the next marker
            new_sources[cell.cell.number] = "".join(restored)
        return new_sources


@dataclass(frozen=True)
class CellMap:
    """Where each code cell starts in a notebook's module, read from its marker lines (so it holds
    for the module as analysed, and for the module after fixes changed its line counts)."""

    starts: tuple[tuple[int, int], ...]  # (0-based module line of the cell's first line, cell number)

    @classmethod
    def of(cls, python: str) -> CellMap:
        starts = []
        for line, text in enumerate(_lines(python)):
            marker = _MARKER_LINE.match(text)
            if marker:
                starts.append((line + 1, int(marker.group(1))))
        return cls(tuple(starts))

    def locate(self, position: Position) -> tuple[int, Position]:
        """(cell number, position in the cell) of a position of the module."""
        for first, number in reversed(self.starts):
            if position.line >= first:
                return number, Position(position.line - first, position.column)
        first, number = self.starts[0] if self.starts else (0, 1)
        return number, Position(0, 0)  # on the first marker line (nothing is reported there)

    def cell_range(self, range_: Range) -> tuple[int, Range]:
        cell, start = self.locate(range_.start)
        end_cell, end = self.locate(range_.end)
        return cell, Range(start, end if end_cell == cell else start)

    def describe_lines(self, message: str) -> str:
        """`line 14` in a message (the module's line of a launch, say) as `cell 5, line 3`."""

        def cell_line(match: re.Match[str]) -> str:
            cell, position = self.locate(Position(int(match.group(1)) - 1, 0))
            return f"cell {cell}, line {position.line + 1}"

        return _LINE_IN_MESSAGE.sub(cell_line, message)

    def located(self, finding: Finding) -> Finding:
        """The finding as output shows it: cell-relative ranges (its own, its related places' in
        the notebook, its fixes' edits) and `line N` of its message as `cell C, line L`."""
        cell, range_ = self.cell_range(finding.range)
        related = [self._related(r, finding.path) for r in finding.related]
        fixes = [
            replace(fix, edits=tuple(replace(e, range=self.cell_range(e.range)[1]) for e in fix.edits))
            for fix in finding.fixes
        ]
        return replace(
            finding, range=range_, cell=cell, message=self.describe_lines(finding.message), related=related, fixes=fixes
        )

    def _related(self, related: Related, path: str | None) -> Related:
        if related.path not in (None, path):
            return related
        cell, range_ = self.cell_range(related.range)
        return replace(related, range=range_, cell=cell, message=self.describe_lines(related.message))


_LINE_IN_MESSAGE = re.compile(r"\bline (\d+)\b")


def _lines(text: str) -> list[str]:
    """The lines of `text` with their ends, split where Python and LSP split them (at \\r\\n, \\r or
    \\n; not at the form feeds or U+2028 str.splitlines also takes): a cell's lines are the module's,
    and a position maps to the line the client sees."""
    return split_lines_keepends(text) if text else []


def is_notebook_path(path: str | None) -> TypeGuard[str]:
    return path is not None and path.endswith(".ipynb")


def _module_of(cells: tuple[Cell, ...]) -> tuple[tuple[CellText, ...], str]:
    """The code cells as one module: each after its marker line, IPython syntax masked."""
    code: list[CellText] = []
    parts: list[str] = []
    line = 0
    for cell in cells:
        if cell.kind != "code":
            continue
        parts.append(MARKER.format(number=cell.number) + "\n")
        line += 1
        lines, masked = _masked_lines(cell.source)
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += "\n"  # the next marker starts a line of its own
        code.append(CellText(cell, line, tuple(lines), masked))
        parts.extend(lines)
        line += len(lines)
    return tuple(code), "".join(parts)


# ------------------------------------------------------------------------------------ reading
def _cells(text: str) -> list[Cell]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (RecursionError, MemoryError):  # issue 35: metadata nesting 100k lists ended the whole run
        raise NotebookError("its JSON is nested too deeply to read") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise NotebookError("not a Jupyter notebook: no list of `cells`")
    version = document.get("nbformat")
    if version != 4:
        raise NotebookError(f"nbformat {version!r} is not supported (only nbformat 4)")
    spans = _source_spans(text)
    cells = []
    for index, raw in enumerate(document["cells"]):
        if not isinstance(raw, dict):
            raise NotebookError(f"cell {index + 1} is not an object")
        source = raw.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            joined, as_list = "".join(source), True
        elif isinstance(source, str):
            joined, as_list = source, False
        else:
            raise NotebookError(f"cell {index + 1}: `source` is neither a string nor a list of strings")
        span = spans.get(index)
        if span is None:
            raise NotebookError(f"cell {index + 1} has no `source`")
        cells.append(Cell(index + 1, str(raw.get("cell_type", "")), joined, span, as_list))
    return cells


def _masked_lines(source: str) -> tuple[list[str], dict[int, str]]:
    lines = _lines(source)
    masked: dict[int, str] = {}
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        magic = lines[first].lstrip()[2:].split(None, 1)
        python_body = bool(magic) and magic[0] in _PYTHON_CELL_MAGICS
        # Issue 35: a `%%bash` / `%%writefile` body is not Python at all: every line of it is masked
        # flush left (its indentation kept, `    echo $f` gave a false "unexpected indent").
        for i in range(first, len(lines) if not python_body else first + 1):
            masked[i] = lines[i]
    cell_magic = set(masked)
    for i, line in enumerate(lines):
        if i not in masked and _is_ipython_line(line):
            masked[i] = line
    out = list(lines)
    for i, original in masked.items():
        out[i] = _mask(original, flush_left=i in cell_magic)
    return out, masked


def _is_ipython_line(line: str) -> bool:
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return False
    return stripped[0] in "%!?" or stripped.endswith("?") or bool(_ASSIGNED_MAGIC.match(line.rstrip("\r\n")))


def _mask(line: str, flush_left: bool = False) -> str:
    """The line as Python that means nothing here: `pass` at its indentation (an assignment from
    a magic keeps its targets: `x = None`), its line end kept; `flush_left`: a line of a cell
    magic, `pass` with no indentation (or empty, for a blank line)."""
    body = line.rstrip("\r\n")
    end = line[len(body) :]
    if flush_left:
        return ("pass" if body.strip() else "") + end
    assigned = _ASSIGNED_MAGIC.match(body)
    if assigned:
        return assigned.group(1) + "None" + end
    indent = body[: len(body) - len(body.lstrip())]
    return (indent + "pass" if body.strip() else body) + end


# ------------------------------------------------------------------------------------ writing
def _split_cells(fixed: str, count: int) -> list[list[str]] | None:
    """The lines of each cell in a fixed module (split at the marker lines); None when a marker
    was lost (a fix that crossed a cell boundary: see crosses_cells), so nothing is written."""
    cells: list[list[str]] = []
    for line in _lines(fixed):
        if _MARKER_LINE.match(line):
            cells.append([])
        elif cells:
            cells[-1].append(line)
    return cells if len(cells) == count else None


def crosses_cells(source: SourceFile, spans: list[tuple[int, int]]) -> bool:
    """Whether an edit (offsets `spans` in a notebook's module) would touch a marker line: it
    spans a cell boundary, or lands before the first cell, and could not be split back into
    cells.  Such a fix is never applied (`--fix`, fix-all): it would corrupt the cells around it.
    An insertion at the start of a later marker line ends the cell before it: that one is fine."""
    if not is_notebook_path(source.path):
        return False
    markers = _marker_spans(source)
    for start, end in spans:
        for index, (line_start, line_end) in enumerate(markers):
            if start < line_end and end > line_start:
                return True
            if start == end and line_start < start < line_end:
                return True
            if index == 0 and start == end == line_start:
                return True
    return False


def _marker_spans(source: SourceFile) -> list[tuple[int, int]]:
    """(start, end) offsets of each marker line of a notebook's module, its line end included."""
    starts = source.line_starts
    spans = []
    for line, text in enumerate(source.lines):
        if _MARKER_LINE.match(text):
            spans.append((starts[line], starts[line] + len(text)))
    return spans


def _restore_masked(cell: CellText, new_lines: list[str]) -> list[str] | None:
    if not cell.masked:
        return list(new_lines)
    matcher = difflib.SequenceMatcher(a=cell.lines, b=new_lines, autojunk=False)
    restored = list(new_lines)
    kept = set()
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            if block.a + k in cell.masked:
                restored[block.b + k] = cell.masked[block.a + k]
                kept.add(block.a + k)
    return restored if kept == set(cell.masked) else None


def replace_sources(text: str, cells: tuple[Cell, ...], sources: dict[int, str]) -> str:
    """`text` with the `source` values of the numbered cells replaced, each in its old form."""
    out = []
    at = 0
    for cell in cells:
        if cell.number not in sources:
            continue
        start, end = cell.span
        out.append(text[at:start])
        out.append(_encode_source(text, cell, sources[cell.number]))
        at = end
    out.append(text[at:])
    return "".join(out)


def _encode_source(text: str, cell: Cell, source: str) -> str:
    ascii_only = "\\u" in text and text.isascii()  # a notebook written with ensure_ascii
    if not cell.as_list:
        return json.dumps(source, ensure_ascii=ascii_only)
    old = text[cell.span[0] : cell.span[1]]
    lead, separator, trail = _list_layout(text, cell.span, old)
    items = [json.dumps(line, ensure_ascii=ascii_only) for line in source.splitlines(keepends=True)]
    if not items:
        return "[]"
    return "[" + lead + separator.join(items) + trail + "]"


def _list_layout(text: str, span: tuple[int, int], old: str) -> tuple[str, str, str]:
    """The whitespace after `[`, between items and before `]` of a list as it was written."""
    inner = old[1:-1]
    if inner.strip():
        lead = inner[: len(inner) - len(inner.lstrip())]
        trail = inner[len(inner.rstrip()) :]
        return lead, "," + lead if "\n" in lead else ", ", trail
    # An empty list: lay the items out as nbformat does (indent=1): one per line, one space deeper
    # than the line of the `"source"` key.
    key_line = text[text.rfind("\n", 0, span[0]) + 1 : span[0]]
    indent = key_line[: len(key_line) - len(key_line.lstrip())] + " "
    return "\n" + indent, ",\n" + indent, "\n" + indent[:-1]


# ---------------------------------------------------------------------- where `source` values are
def _source_spans(text: str) -> dict[int, tuple[int, int]]:
    """For each cell index, the (start, end) of its `source` value in the JSON text."""
    scanner = _Scanner(text)
    spans: dict[int, tuple[int, int]] = {}
    for key, start, _ in scanner.members(scanner.skip_ws(0)):
        if key != "cells":
            continue
        for index, cell_start in enumerate(scanner.elements(start)):
            if text[cell_start] != "{":
                continue
            for cell_key, value_start, value_end in scanner.members(cell_start):
                if cell_key == "source":
                    spans[index] = (value_start, value_end)
    return spans


class _Scanner:
    """Just enough of a JSON reader to find where values are (the text is already known valid)."""

    _STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
    _SCALAR = re.compile(r"[^,\]}\s]+")

    def __init__(self, text: str):
        self.text = text

    def skip_ws(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in " \t\r\n":
            i += 1
        return i

    def value_end(self, i: int) -> int:
        ch = self.text[i]
        if ch == '"':
            return self._STRING.match(self.text, i).end()  # type: ignore[union-attr]  # the JSON was parsed whole: every string matches
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            j = self.skip_ws(i + 1)
            while self.text[j] != close:
                if ch == "{":
                    j = self.skip_ws(self.value_end(j))  # the key
                    j = self.skip_ws(j + 1)  # the colon
                j = self.skip_ws(self.value_end(j))
                if self.text[j] == ",":
                    j = self.skip_ws(j + 1)
            return j + 1
        return self._SCALAR.match(self.text, i).end()  # type: ignore[union-attr]  # the JSON was parsed whole: every scalar matches

    def members(self, i: int) -> Iterator[tuple[Any, int, int]]:
        """(key, value start, value end) of each member of the object at `i`."""
        j = self.skip_ws(i + 1)
        while self.text[j] != "}":
            key_end = self.value_end(j)
            key = json.loads(self.text[j:key_end])
            start = self.skip_ws(self.skip_ws(key_end) + 1)
            end = self.value_end(start)
            yield key, start, end
            j = self.skip_ws(end)
            if self.text[j] == ",":
                j = self.skip_ws(j + 1)

    def elements(self, i: int) -> Iterator[int]:
        """The start of each element of the array at `i`."""
        j = self.skip_ws(i + 1)
        while self.text[j] != "]":
            yield j
            j = self.skip_ws(self.value_end(j))
            if self.text[j] == ",":
                j = self.skip_ws(j + 1)
