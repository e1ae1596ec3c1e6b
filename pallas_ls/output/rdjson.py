"""`rdjson`: the Reviewdog Diagnostic Format (a DiagnosticResult), for `reviewdog -f=rdjson`,
which posts the findings as review comments and the fixes as suggested changes.

https://github.com/reviewdog/reviewdog/tree/master/proto/rdf

reviewdog counts columns in UTF-8 bytes (1-based), unlike the other formats' characters, so a
finding after a non-ASCII character lands under the right text.  A notebook's rows are its cell's,
which reviewdog cannot know: the message says `cell N, line R:` (the format has no extra fields).
"""

from __future__ import annotations

import json
from typing import Any

from ..engine.findings import Finding, Severity
from ..engine.source import Position, Range
from . import INFORMATION_URI, Report, display_path, rule_url
from .jsonfmt import chosen_fix
from .sources import SourceLines

_SEVERITY = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO", Severity.HINT: "INFO"}


class _Columns:
    """Code-point positions as reviewdog's 1-based UTF-8 byte columns."""

    def __init__(self, finding: Finding, sources: SourceLines) -> None:
        self.lines = sources.lines(finding) or []

    def position(self, pos: Position) -> dict[str, int]:
        text = self.lines[pos.line] if pos.line < len(self.lines) else ""
        column = len(text[: pos.column].encode("utf-8", "surrogatepass")) + max(pos.column - len(text), 0)
        return {"line": pos.line + 1, "column": column + 1}

    def range(self, range_: Range) -> dict[str, Any]:
        return {"start": self.position(range_.start), "end": self.position(range_.end)}


def diagnostic(finding: Finding, cwd: str, sources: SourceLines) -> dict[str, Any]:
    columns = _Columns(finding, sources)
    message = finding.message
    if finding.cell is not None:
        message = f"cell {finding.cell}, line {finding.range.start.line + 1}: {message}"
    code: dict[str, str] = {"value": finding.code}
    url = rule_url(finding.code)
    if url:
        code["url"] = url
    data: dict[str, Any] = {
        "message": message,
        "location": {"path": display_path(finding.path, cwd), "range": columns.range(finding.range)},
        "severity": _SEVERITY[finding.severity],
        "code": code,
    }
    fix = chosen_fix(finding)
    # A notebook's fix edits are in the cell's rows too: reviewdog would put them on the JSON's.
    if fix is not None and finding.cell is None:
        data["suggestions"] = [
            {"range": columns.range(e.range), "text": e.new_text} for e in sorted(fix.edits, key=lambda e: e.range)
        ]
    return data


def render(report: Report) -> str:
    sources = SourceLines(report.sources)
    result = {
        "source": {"name": "pallas-ls", "url": INFORMATION_URI},
        "diagnostics": [diagnostic(f, report.cwd, sources) for f in report.findings],
    }
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
