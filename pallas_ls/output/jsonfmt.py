"""A JSON array with ruff's field names, so tools that read `ruff check --output-format json` work."""

from __future__ import annotations

import json
from typing import Any

from ..engine.findings import Finding, Fix, is_suppression
from ..engine.source import Position, Range
from . import Report, absolute_path, one_based, rule_url
from .text import statistics


def _location(pos: Position) -> dict[str, int]:
    row, column = one_based(pos)
    return {"row": row, "column": column}


def _span(range_: Range) -> dict[str, dict[str, int]]:
    return {"location": _location(range_.start), "end_location": _location(range_.end)}


def chosen_fix(finding: Finding) -> Fix | None:
    """The fix a single-fix format shows: the preferred one, else the first; never the
    "Disable CODE for this line" suppression (None when that is all the finding has)."""
    fixes = [f for f in finding.fixes if not is_suppression(f, finding)]
    return next((f for f in fixes if f.preferred), fixes[0] if fixes else None)


def fix_json(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    edits = sorted(fix.edits, key=lambda e: e.range)
    return {
        "applicability": fix.applicability.value,
        "message": fix.title,
        "edits": [{"content": e.new_text, **_span(e.range)} for e in edits],
    }


def noqa_row(finding: Finding) -> int:
    """1-based: where the engine's suppression puts the comment (past a multi-line string or a
    backslash continuation), else the finding's first line."""
    line = next(
        (f.edits[0].range.start.line for f in finding.fixes if f.suppression and f.edits), finding.range.start.line
    )
    return line + 1


def finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "code": finding.code,
        "message": finding.message,
        "severity": finding.severity.value,
        "filename": absolute_path(finding.path),
        "cell": finding.cell,  # in a notebook: the cell (1-based) that rows are relative to, as ruff
        **_span(finding.range),
        "noqa_row": noqa_row(finding),  # the line a noqa comment must be on to silence it
        "url": rule_url(finding.code),
        "fix": fix_json(chosen_fix(finding)),
        # Not in ruff's schema: where else to look (a launch site, the first occurrence, ...).
        "related": [
            {
                "filename": absolute_path(r.path or finding.path),
                "message": r.message,
                **_span(r.range),
                **({"cell": r.cell} if r.cell is not None else {}),
            }
            for r in finding.related
        ],
    }


def render(report: Report) -> str:
    return json.dumps([finding_json(f) for f in report.findings], indent=2, ensure_ascii=False) + "\n"


def render_statistics(report: Report) -> str:
    rows = [
        {"code": r.code, "name": r.name, "count": r.count, "fixable_count": r.fixable}
        for r in statistics(report.findings, report.status.unsafe)
    ]
    return json.dumps(rows, indent=2) + "\n"
