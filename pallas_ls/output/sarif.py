"""SARIF 2.1.0, the format GitHub code scanning and other CI dashboards ingest.

Columns are code points (`columnKind: unicodeCodePoints`): SARIF's default is UTF-16 code units,
which would put every finding after an emoji one column off.
"""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any
from urllib.parse import quote

from .. import rules as registry
from ..engine.findings import Finding, Fix, Severity
from ..engine.source import Range
from . import INFORMATION_URI, Report, display_path, one_based, rule_url, tool_version

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}


def _rule_descriptor(code: str) -> dict[str, Any]:
    from ..config import PSEUDO_RULES

    rule = registry.RULES.get(code)
    if rule is None:
        name, summary = PSEUDO_RULES[code]
        return {
            "id": code,
            "name": name,
            "shortDescription": {"text": summary},
            "helpUri": rule_url(code),
            "defaultConfiguration": {"level": "error"},
        }
    return {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "help": {"text": rule.docs, "markdown": rule.docs},
        "helpUri": rule.url,
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
    }


def artifact_location(path: str | None, cwd: str) -> dict[str, str]:
    """A path under the working directory is relative to %SRCROOT% (what code scanning expects)."""
    shown = display_path(path, cwd)
    if path is None or os.path.isabs(shown):
        return {"uri": pathlib.Path(shown).as_uri() if path is not None else shown}
    return {"uri": quote(pathlib.PurePath(shown).as_posix()), "uriBaseId": SRCROOT}


def _region(range_: Range) -> dict[str, int]:
    (row, col), (end_row, end_col) = one_based(range_.start), one_based(range_.end)
    return {"startLine": row, "startColumn": col, "endLine": end_row, "endColumn": end_col}


def _physical(path: str | None, range_: Range, cwd: str) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": artifact_location(path, cwd), "region": _region(range_)}}


def _result(finding: Finding, rule_index: dict[str, int], cwd: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "level": _LEVEL[finding.severity],
        "message": {"text": finding.message},
        "locations": [_physical(finding.path, finding.range, cwd)],
    }
    if finding.code in rule_index:
        result["ruleIndex"] = rule_index[finding.code]
    if finding.cell is not None:  # a notebook: the region is in this cell's source (1-based cells)
        result["properties"] = {"cell": finding.cell}
    fixes = [_fix(fix, finding.path, cwd) for fix in finding.fixes if not fix.suppression]
    if fixes:
        result["fixes"] = fixes
    if finding.related:
        result["relatedLocations"] = [
            {"id": i, **_physical(r.path or finding.path, r.range, cwd), "message": {"text": r.message}}
            for i, r in enumerate(finding.related)
        ]
    return result


def _fix(fix: Fix, path: str | None, cwd: str) -> dict[str, Any]:
    """A SARIF `fix`: its replacements (regions of the original text, one-based code points), and
    how far it may be trusted (`safe` / `unsafe` / `display-only`, as in the JSON format)."""
    replacements = [
        {"deletedRegion": _region(edit.range), "insertedContent": {"text": edit.new_text}}
        for edit in sorted(fix.edits, key=lambda e: e.range)
    ]
    return {
        "description": {"text": fix.title},
        "artifactChanges": [{"artifactLocation": artifact_location(path, cwd), "replacements": replacements}],
        "properties": {"applicability": fix.applicability.value, "preferred": fix.preferred},
    }


def sarif_log(report: Report) -> dict[str, Any]:
    from ..config import known_codes

    codes = known_codes()
    rule_index = {code: i for i, code in enumerate(codes)}
    driver = {
        "name": "pallas-ls",
        "version": tool_version(),
        "informationUri": INFORMATION_URI,
        "rules": [_rule_descriptor(code) for code in codes],
    }
    run = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {SRCROOT: {"uri": pathlib.Path(report.cwd).as_uri() + "/"}},
        "results": [_result(f, rule_index, report.cwd) for f in report.findings],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(report: Report) -> str:
    return json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n"
