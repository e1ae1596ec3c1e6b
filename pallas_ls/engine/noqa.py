"""`# noqa` comments: `# noqa` silences every finding on its line, `# noqa: PAL001, PAL002` those codes.

File-level, on a line of its own anywhere in the file: `# pallas-ls: noqa` silences every finding
of the file, `# pallas-ls: noqa: PAL001, PAL002` those codes.  `# ruff: noqa: PAL001` (and
`# flake8: noqa: PAL001`) count when they name pallas-ls codes, as ruff's `lint.external`
expects of other tools' codes; a bare `# ruff: noqa` or `# flake8: noqa` is addressed to those
tools and silences nothing here.

This module is the one home of suppression: what a line's noqa says (`noqa_codes`), on which line a
finding's noqa belongs (`noqa_line`: a finding that starts on a line ending inside a multi-line
string or with a backslash continuation is silenced where that string or continuation ends, since
a comment cannot go inside either), and the one string-aware builder of the edit that adds one
(`noqa_edit`), used by the engine's "Disable CODE for this line" fix and the editor's action.
"""

from __future__ import annotations

import ast
import bisect
import re

from .findings import Edit
from .source import Position, Range, SourceFile

_NOQA = re.compile(r"#\s*noqa(?P<colon>\s*:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*))?", re.IGNORECASE)
_CODE = re.compile(r"[A-Za-z]+[0-9]+")
_FILE_NOQA = re.compile(
    r"^[ \t]*#[ \t]*(?P<tool>pallas-ls|ruff|flake8)[ \t]*:[ \t]*noqa"
    r"(?:[ \t]*:[ \t]*(?P<codes>[A-Za-z]+[0-9]+(?:[ \t,]+[A-Za-z]+[0-9]+)*))?[ \t]*$",
    re.IGNORECASE,
)
OWN_PREFIX = "PAL"


def noqa_codes(line: str) -> frozenset[str] | None:
    """None: no noqa comment; empty set: a bare `# noqa` (everything); else the codes named."""
    if "#" not in line:
        return None
    match = _NOQA.search(line)
    if match is None:
        return None
    if not match.group("codes"):
        return frozenset()
    return frozenset(code.upper() for code in _CODE.findall(match.group("codes")))


def is_suppressed(code: str, line: str) -> bool:
    codes = noqa_codes(line)
    return codes is not None and (not codes or code in codes)


def file_noqa_codes(source: SourceFile) -> frozenset[str] | None:
    """The file-level noqa: None when there is none, empty set: every code, else the codes named."""
    cached: frozenset[str] | bool | None = getattr(source, "_file_noqa", False)
    if cached is not False:
        return cached  # type: ignore[return-value]  # False (not yet computed) was ruled out
    codes: set[str] = set()
    everything = found = False
    for line in _lines_saying_noqa(source):
        match = _FILE_NOQA.match(source.line_text(line))
        if match is None or _inside_string(source, line):
            continue
        named = {code.upper() for code in _CODE.findall(match.group("codes") or "")}
        if match.group("tool").lower() != "pallas-ls":
            named = {code for code in named if code.startswith(OWN_PREFIX)}
            if not named:
                continue  # addressed to another tool
        found = True
        everything = everything or not named
        codes |= named
    result = None if not found else frozenset() if everything else frozenset(codes)
    source._file_noqa = result  # type: ignore[attr-defined]  # a cache kept on the source
    return result


def _lines_saying_noqa(source: SourceFile) -> list[int]:
    """The lines where "noqa" appears, in any case.  (One lower-cased copy and str.find: a
    case-insensitive regex over a 5k-line file costs seven times as much, on every edit.)"""
    lowered = source.text.lower()
    lines: list[int] = []
    at = lowered.find("noqa")
    while at >= 0:
        line = source.position_at(at).line
        if not lines or lines[-1] != line:
            lines.append(line)
        at = lowered.find("noqa", at + 4)
    return lines


def _inside_string(source: SourceFile, line: int) -> bool:
    """Whether `line` is within a multi-line string (a `#` there is text, not a comment)."""
    return _continued(source, line) is not None  # a comment line never continues with a backslash


def is_suppressed_at(code: str, source: SourceFile, line: int) -> bool:
    """Whether a finding of `code` starting on `line` is silenced (by the file's noqa, on that line
    or on its noqa line)."""
    file_codes = file_noqa_codes(source)
    if file_codes is not None and (not file_codes or code in file_codes):
        return True
    if is_suppressed(code, source.line_text(line)):
        return True
    target = noqa_line(source, line)
    return target != line and is_suppressed(code, source.line_text(target))


def noqa_line(source: SourceFile, line: int) -> int:
    """The 0-based line where a `# noqa` for a finding starting on `line` goes."""
    seen = 0
    while (continued := _continued(source, line)) is not None and seen < 10_000:
        line, seen = continued, seen + 1
    return line


def _continued(source: SourceFile, line: int) -> int | None:
    """The line the end of `line` continues on: where the multi-line string it ends inside ends,
    or the next line after a backslash; None when the line ends its statement."""
    end = _string_end(source, line)
    if end is not None:
        return end
    if line < len(source.line_starts) - 1:
        text = source.line_text(line)
        if text.rstrip().endswith("\\") and "#" not in text:
            return line + 1
    return None


def _string_end(source: SourceFile, line: int) -> int | None:
    """The line the multi-line string that `line` is inside (not on its last line) ends on, or
    None.  Only the nodes whose lines hold `line` are looked at, in the top-level statements
    holding it: a finding's noqa line must not cost a walk of a 400-line function (~10 ms) on
    every keystroke that leaves a syntax error in it."""
    tree = source.tree
    cached = getattr(source, "_noqa_strings", None)
    if cached is None or cached[0] is not tree:
        cached = source._noqa_strings = (tree, [_first_line(stmt) for stmt in tree.body])  # type: ignore[attr-defined]  # a cache kept on the source
    starts = cached[1]
    body = tree.body
    index = bisect.bisect_right(starts, line) - 1
    # Top-level statements do not overlap, but several may share a line (`a = 1; b = """...`).
    while index >= 0 and (body[index].end_lineno or body[index].lineno) - 1 >= line:
        end = _string_around(body[index], line)
        if end is not None:
            return end
        index -= 1
    return None


def _string_around(stmt: ast.stmt, line: int) -> int | None:
    """The outermost string (or f-string) of `stmt` spanning `line` and the line after it: its last line."""
    stack: list[ast.AST] = [stmt]
    while stack:
        for child in ast.iter_child_nodes(stack.pop()):
            first = getattr(child, "lineno", None)
            if first is None:  # arguments, comprehensions, contexts: no lines of their own
                stack.append(child)
                continue
            last: int = getattr(child, "end_lineno", None) or first
            if not first - 1 <= line <= last - 1:
                continue  # nothing under it holds the line
            if line < last - 1 and (
                isinstance(child, ast.JoinedStr)
                or (isinstance(child, ast.Constant) and isinstance(child.value, (str, bytes)))
            ):
                return last - 1
            stack.append(child)
    return None


def _first_line(stmt: ast.stmt) -> int:
    """A statement's 0-based first line, its decorators included."""
    decorators: list[ast.expr] = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno] + [d.lineno for d in decorators]) - 1


def noqa_line_edit(line_text: str, code: str) -> tuple[int, int, str] | None:
    """(start column, end column, new text) in code points that adds `code` to the `# noqa` of a
    line (appended to its code list, or a new `  # noqa: CODE` at its end); None when the line is
    already silenced or ends in a backslash continuation (a comment there would not parse)."""
    if line_text.rstrip().endswith("\\"):
        return None
    codes = noqa_codes(line_text)
    if codes is not None:
        if not codes or code in codes:
            return None  # already silenced (a bare noqa silences everything)
        match = _NOQA.search(line_text)
        if match is None or match.end("codes") < 0:
            return None
        end = match.end("codes")
        return end, end, f", {code}"
    content_end = len(line_text.rstrip())
    separator = "  " if content_end else ""
    return content_end, len(line_text), f"{separator}# noqa: {code}"


def noqa_edit(source: SourceFile, line: int, code: str) -> Edit | None:
    """The edit silencing `code` for a finding that starts on `line` (None: already silenced)."""
    target = noqa_line(source, line)
    if is_suppressed_at(code, source, line):
        return None
    edit = noqa_line_edit(source.line_text(target), code)
    if edit is None:
        return None
    start, end, text = edit
    return Edit(Range(Position(target, start), Position(target, end)), text)
