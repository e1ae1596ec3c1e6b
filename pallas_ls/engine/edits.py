"""Text edits: building them from the source, applying them, and the noqa fix every finding carries."""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from .findings import Applicability, Edit, Finding, Fix
from .noqa import noqa_edit
from .notebook import crosses_cells
from .source import Position, Range, SourceFile

T = TypeVar("T")


class OverlappingEdits(ValueError):
    pass


def apply_edits(text: str, source: SourceFile, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (positions in `source`, which must hold `text`)."""
    spans = sorted(
        ((source.offset(e.range.start), source.offset(e.range.end), e.new_text) for e in edits),
        key=lambda s: (s[0], s[1]),
    )
    pieces: list[str] = []
    cursor = 0
    for start, end, new_text in spans:
        if start < cursor:
            raise OverlappingEdits(f"edit at offset {start} overlaps the previous one")
        pieces.append(text[cursor:start])
        pieces.append(new_text)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def non_overlapping(source: SourceFile, candidates: Iterable[T], fix_of: Callable[[T], Fix]) -> list[T]:
    """The candidates (in order) whose fix can be applied with those taken before it: the one rule
    for overlapping fixes, shared by `--fix`, the editor's fix-all and its code actions.

    A fix whose edits overlap one another, or overlap an edit of a fix taken earlier, is left out;
    a later `--fix` pass (or fix-all round) picks it up on the new text.  In a notebook's module, a
    fix that would touch a cell boundary is left out for good (notebook.crosses_cells)."""
    taken: list[tuple[int, int]] = []
    chosen: list[T] = []
    for candidate in candidates:
        spans = [(source.offset(e.range.start), source.offset(e.range.end)) for e in fix_of(candidate).edits]
        if _self_overlapping(spans) or any(_overlaps(span, other) for span in spans for other in taken):
            continue
        if crosses_cells(source, spans):
            continue
        taken.extend(spans)
        chosen.append(candidate)
    return chosen


def apply_fixes(source: SourceFile, fixes: Sequence[Fix]) -> tuple[str, int]:
    """Apply as many fixes as possible without overlap (in order); returns (text, fixes applied)."""
    chosen = non_overlapping(source, fixes, lambda fix: fix)
    return apply_edits(source.text, source, [edit for fix in chosen for edit in fix.edits]), len(chosen)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Two insertions at the same point conflict too (their order would be arbitrary).
    if a[0] == a[1] == b[0] == b[1]:
        return True
    return a[0] < b[1] and b[0] < a[1]


def _self_overlapping(spans: list[tuple[int, int]]) -> bool:
    ordered = sorted(spans)
    return any(_overlaps(ordered[i], ordered[i + 1]) for i in range(len(ordered) - 1))


def parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def compiles(text: str) -> bool:
    """Whether `text` compiles, not only parses: `return` outside a function, `nonlocal` at module
    level, a misplaced `await` or a default before a non-default parameter parse but do not compile."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "<fixed>", "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False


def fix_keeps_code_valid(source: SourceFile, fix: Fix) -> bool:
    """Every fixed text must compile: a fix that would break the file is not offered.

    Only the top-level statements the edits touch are re-parsed (they start in column 0, so they
    parse on their own): a whole-file parse per fix would cost too much on every keystroke.
    """
    lines = [line for edit in fix.edits for line in (edit.range.start.line, edit.range.end.line)]
    first, last = _enclosing_statement_lines(source, min(lines), max(lines))
    start = source.line_starts[first]
    end = source.line_starts[last + 1] if last + 1 < len(source.line_starts) else len(source.text)
    shifted = []
    for edit in fix.edits:
        a, b = source.offset(edit.range.start), source.offset(edit.range.end)
        if a < start or b > end:
            return False
        shifted.append((a - start, b - start, edit.new_text))
    snippet = source.text[start:end]
    for a, b, new_text in sorted(shifted, reverse=True):
        snippet = snippet[:a] + new_text + snippet[b:]
    return compiles(snippet)


def _enclosing_statement_lines(source: SourceFile, first: int, last: int) -> tuple[int, int]:
    """The 0-based line span of the module-level statements covering lines first..last."""
    lo, hi = first, last
    body = source.tree.body
    # Module-level statements follow one another: the first that ends at or after `first` is
    # found by bisection (a 200k-line file has as many statements), the scan stops past `last`.
    start = bisect.bisect_left(body, first, key=_last_line)
    for stmt in body[start:]:
        decorators = getattr(stmt, "decorator_list", [])
        top = min([stmt.lineno] + [d.lineno for d in decorators]) - 1
        if top > last:
            break
        lo, hi = min(lo, top), max(hi, _last_line(stmt))
    return lo, hi


def _last_line(stmt: ast.stmt) -> int:
    """A statement's last line, 0-based."""
    return (stmt.end_lineno or stmt.lineno) - 1


# ------------------------------------------------------------------------------ helpers
def line_indent(source: SourceFile, line: int) -> str:
    """The line's indentation as Python's tokenizer sees it: the blanks after the last form feed
    of its leading whitespace (a form feed resets the column count)."""
    text = source.line_text(line)
    leading = text[: len(text) - len(text.lstrip(" \t\f"))]
    return leading.rsplit("\f", 1)[-1]


def line_end(source: SourceFile, line: int) -> Position:
    """The position just before the line ending of `line`."""
    return Position(line, len(source.line_text(line)))


def insert(at: Position, text: str) -> Edit:
    return Edit(Range(at, at), text)


def replace(range_: Range, text: str) -> Edit:
    return Edit(range_, text)


def delete_lines(source: SourceFile, first: int, last: int) -> Edit:
    """Delete whole lines first..last (their line endings included)."""
    end = Position(last + 1, 0) if last + 1 < len(source.line_starts) else line_end(source, last)
    start = Position(first, 0)
    if end.line == last and first > 0:  # the last line of a file without a final newline
        start = line_end(source, first - 1)
    return Edit(Range(start, end), "")


# --------------------------------------------------------------------------------- noqa
def noqa_fix(source: SourceFile, finding: Finding) -> Fix | None:
    """ "Disable CODE for this line": add `# noqa: CODE`, or add CODE to the line's noqa list, on
    the line where a comment can silence the finding (see `noqa.noqa_line`).  A suppression, not a
    fix: `--fix` and fix-all never apply it."""
    edit = noqa_edit(source, finding.range.start.line, finding.code)
    if edit is None:
        return None
    return Fix(
        f"Disable {finding.code} for this line", (edit,), Applicability.DISPLAY_ONLY, preferred=False, suppression=True
    )


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")


def free_name(preferred: str, taken: set[str]) -> str:
    """`preferred`, or `preferred2`, `preferred3`, ... whichever is not taken."""
    if preferred not in taken:
        return preferred
    base = preferred[:-4] if preferred.endswith("_ref") else preferred
    suffix = "_ref" if preferred.endswith("_ref") else ""
    n = 2
    while f"{base}{n}{suffix}" in taken:
        n += 1
    return f"{base}{n}{suffix}"
