"""`pylint`: `path:row: [CODE] message`, the line pylint's parseable format prints (and the one
ruff's `pylint` format writes), for tools that already read pylint's output."""

from __future__ import annotations

from ..engine.findings import Finding
from . import Report, display_path


def pylint_line(finding: Finding, cwd: str) -> str:
    path = display_path(finding.path, cwd)
    if finding.cell is not None:  # rows are the cell's: say which cell, as the text formats do
        path += f":cell {finding.cell}"
    message = " ".join(finding.message.split("\n"))  # one finding per line
    return f"{path}:{finding.range.start.line + 1}: [{finding.code}] {message}"


def render(report: Report) -> str:
    return "".join(pylint_line(f, report.cwd) + "\n" for f in report.findings)
