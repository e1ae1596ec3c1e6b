"""`full`: ruff's default text form: each finding's concise line, then the source around it with
carets under the reported range and the fix's title as `= help:`.

```
kern.py:6:5: PAL001 [*] Pallas kernel `add_one` returns a value ...
  |
4 |
5 | def add_one(x_ref, o_ref):
6 |     return x_ref[...] + 1
  |     ^^^^^^^^^^^^^^^^^^^^^ PAL001
7 |
  |
  = help: Write the result to o_ref
```

In a notebook the snippet is the finding's cell (its rows are the cell's).  A file that cannot be
read again (deleted since, unreadable: PAL900) gets the concise line only.
"""

from __future__ import annotations

from ..engine.findings import Finding
from . import Report
from .jsonfmt import chosen_fix
from .ruledoc import caret_line, covered_spans
from .sources import SourceLines
from .text import code_style, finding_line, render_statistics, style, summary_lines

__all__ = ["render", "render_statistics", "snippet"]  # statistics: the same table as concise


CONTEXT_LINES = 2  # shown before and after the reported lines, as ruff


def snippet(finding: Finding, lines: list[str], color: bool = False) -> list[str]:
    """The numbered source lines around the finding, carets under its range, then the help line."""
    start, end = finding.range.start.line, finding.range.end.line
    if end > start and finding.range.end.column == 0:
        end -= 1  # a range ending at a line's start does not cover that line
    first, last = max(start - CONTEXT_LINES, 0), min(end + CONTEXT_LINES, len(lines) - 1)
    gutter = len(str(last + 1))
    bar = f"{'':>{gutter}} |"
    out = [bar]
    for number in range(first, last + 1):
        text = lines[number]
        out.append(f"{number + 1:>{gutter}} | {text}".rstrip())
        spans = covered_spans([finding.range], number, len(text)) if start <= number <= end else []
        if spans:
            marks = caret_line(text, spans)
            if number == end:
                marks += " " + finding.code
            out.append(f"{bar} {style(marks, code_style(finding), color)}")
    out.append(bar)
    fix = chosen_fix(finding)
    if fix is not None:
        out.append(f"{'':>{gutter}} = help: {fix.title}")
    return out


def render(report: Report) -> str:
    sources = SourceLines(report.sources)
    blocks = []
    for finding in report.findings:
        block = [finding_line(finding, report.cwd, report.color, report.status.unsafe)]
        lines = sources.lines(finding)
        if lines and finding.range.start.line < len(lines):
            block += snippet(finding, lines, report.color)
        blocks.append("\n".join(block) + "\n\n")
    tail = summary_lines(report, report.status)
    return "".join(blocks) + "".join(line + "\n" for line in tail)
