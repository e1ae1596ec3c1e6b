"""`gitlab`: a GitLab Code Quality report (`artifacts: reports: codequality:`), a JSON array of
issues in the CodeClimate subset GitLab reads: description, check_name, fingerprint, severity and
location.path / location.lines.begin.

https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format

Paths are relative to `$CI_PROJECT_DIR` when set (GitLab links them to the repository), else to
the working directory.  The fingerprint identifies an issue across pipelines, so that a merge
request shows what it introduced and fixed: it hashes the code, the path, the message and the
text of the reported line (not its row, nor numbers in the message: they move whenever lines are
added above), and repeats
of the same issue in one file are told apart by their order.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

from ..engine.findings import Finding, Severity
from . import Report, display_path, one_based
from .sources import SourceLines

# GitLab's levels: info, minor, major, critical, blocker.  A Pallas kernel bug fails at trace time
# or computes garbage, which is more than a style issue: errors are `major`.
_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info", Severity.HINT: "info"}


def project_dir(cwd: str) -> str:
    return os.environ.get("CI_PROJECT_DIR") or cwd


def fingerprint(finding: Finding, path: str, line_text: str, occurrence: int) -> str:
    # Numbers in a message are mostly line numbers (`launched by pallas_call on line 9`): left
    # out, so that adding a line above does not make GitLab see the issue as fixed and new.
    message = re.sub(r"\d+", "#", finding.message)
    key = "\0".join([finding.code, path, str(finding.cell or ""), message, line_text.strip(), str(occurrence)])
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def issue(finding: Finding, path: str, issue_fingerprint: str) -> dict[str, Any]:
    row, _ = one_based(finding.range.start)
    end_row, _ = one_based(finding.range.end)
    description = f"{finding.code}: {finding.message}"
    data: dict[str, Any] = {
        # GitLab shows the description only, so it carries the code too (as ruff's does).
        "description": description if finding.cell is None else f"cell {finding.cell}, line {row}: {description}",
        "check_name": finding.code,
        "fingerprint": issue_fingerprint,
        "severity": _SEVERITY[finding.severity],
        "location": {"path": path, "lines": {"begin": row, "end": end_row}},
    }
    if finding.cell is not None:  # a notebook: the lines are the cell's (GitLab ignores extra keys)
        data["cell"] = finding.cell
    return data


def issues(report: Report) -> list[dict[str, Any]]:
    sources = SourceLines(report.sources)
    base = project_dir(report.cwd)
    seen: set[str] = set()
    out = []
    for finding in report.findings:
        path = display_path(finding.path, base)
        line_text = sources.line(finding)
        occurrence = 0
        # The same issue twice in a file (the same line text): the later one gets the next number.
        while (value := fingerprint(finding, path, line_text, occurrence)) in seen:
            occurrence += 1
        seen.add(value)
        out.append(issue(finding, path, value))
    return out


def render(report: Report) -> str:
    return json.dumps(issues(report), indent=2, ensure_ascii=False) + "\n"
