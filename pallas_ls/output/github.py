"""GitHub Actions workflow commands: one `::error ...::message` annotation per finding.

https://docs.github.com/actions/reference/workflow-commands-for-github-actions
"""

from __future__ import annotations

from ..engine.findings import Finding, Severity
from . import Report, display_path, one_based

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice", Severity.HINT: "notice"}


def escape_data(text: str) -> str:
    """The message part: `%`, CR and LF would end or corrupt the command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Property values also may not contain the `:` and `,` that delimit properties."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding, cwd: str) -> str:
    row, col = one_based(finding.range.start)
    end_row, end_col = one_based(finding.range.end)
    title = f"pallas-ls ({finding.code})" + (f" cell {finding.cell}" if finding.cell is not None else "")
    properties: dict[str, str | int] = {
        "file": display_path(finding.path, cwd),
        "line": row,
        "col": col,
        "endLine": end_row,
        "endColumn": end_col,
        "title": title,  # GitHub shows a notebook's JSON: the rows are the cell's
    }
    message = finding.message
    if finding.cell is not None:
        message = f"cell {finding.cell}, line {row}: {message}"
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{_COMMAND[finding.severity]} {props}::{escape_data(message)}"


def render(report: Report) -> str:
    return "".join(annotation(f, report.cwd) + "\n" for f in report.findings)
