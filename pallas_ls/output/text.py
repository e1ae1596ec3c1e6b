"""`path:row:col: CODE [*] message`, one line per finding, then ruff-style summary lines.

`[*]` marks a finding that `check --fix` would fix (with `--unsafe-fixes`: unsafe fixes too).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engine.findings import Finding, Severity
from ..fixing import applicable_fix, hidden_unsafe
from . import Report, display_path, one_based, rule_name

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_CODE_STYLE = {
    Severity.ERROR: "\x1b[1;31m",  # bold red
    Severity.WARNING: "\x1b[1;33m",  # bold yellow
    Severity.INFO: "\x1b[1;36m",  # bold cyan
    Severity.HINT: "\x1b[1;34m",  # bold blue
}
_FIX_MARK_STYLE = "\x1b[36m"  # cyan, as ruff's


@dataclass(frozen=True)
class FixStatus:
    """What `--fix` did and would do: the `[*]` marks and the summary depend on it."""

    unsafe: bool = False  # --unsafe-fixes: preferred unsafe fixes are applied (and marked) too
    fixed: tuple[Finding, ...] = ()  # the findings --fix fixed (the report holds those remaining)


def _style(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


def _one_line(message: str) -> str:
    # Tools that read this format (editors' errorformat, grep) expect one finding per line.
    return " ".join(message.split("\n"))


def finding_line(finding: Finding, cwd: str, color: bool = False, unsafe: bool = False) -> str:
    row, col = one_based(finding.range.start)
    path = _style(display_path(finding.path, cwd), _BOLD, color)
    if finding.cell is not None:
        path += f":cell {finding.cell}"
    code = _style(finding.code, _CODE_STYLE.get(finding.severity, _BOLD), color)
    mark = " " + _style("[*]", _FIX_MARK_STYLE, color) if applicable_fix(finding, unsafe) else ""
    return f"{path}:{row}:{col}: {code}{mark} {_one_line(finding.message)}"


_NOUNS = {
    Severity.ERROR: ("error", "errors"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.INFO: ("note", "notes"),
    Severity.HINT: ("hint", "hints"),
}


def _plural(count: int, severity: Severity) -> str:
    singular, plural = _NOUNS[severity]
    return f"{count} {singular if count == 1 else plural}"


def counted(findings: list[Finding] | tuple[Finding, ...]) -> str:
    """`3 errors`, `1 error and 2 warnings`, `1 error, 2 warnings and 1 hint`."""
    counts = Counter(f.severity for f in findings)
    parts = [_plural(counts[s], s) for s in Severity if counts[s]]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def summary(findings: list[Finding], fixed: tuple[Finding, ...] | list[Finding] = ()) -> str:
    """`Found 3 errors.`, `Found 1 error and 2 warnings.`, `Found 3 errors (2 fixed, 1 remaining).`
    or `All checks passed!`."""
    if fixed:
        return f"Found {counted([*fixed, *findings])} ({len(fixed)} fixed, {len(findings)} remaining)."
    if not findings:
        return "All checks passed!"
    return f"Found {counted(findings)}."


def _hidden_fixes(count: int) -> str:
    return f"{count} hidden fix can" if count == 1 else f"{count} hidden fixes can"


def fix_hint(findings: list[Finding], unsafe: bool = False, color: bool = False) -> str | None:
    """`[*] 2 fixable with the `--fix` option.` (and the unsafe fixes it leaves out), like ruff."""
    fixable = sum(1 for f in findings if applicable_fix(f, unsafe))
    hidden = sum(1 for f in findings if hidden_unsafe(f, unsafe))
    hidden_note = f"{_hidden_fixes(hidden)} be enabled with the `--unsafe-fixes` option"
    mark = _style("[*]", _FIX_MARK_STYLE, color)
    if fixable and hidden:
        return f"{mark} {fixable} fixable with the `--fix` option ({hidden_note})."
    if fixable:
        return f"{mark} {fixable} fixable with the `--fix` option."
    if hidden:
        return f"No fixes available ({hidden_note})."
    return None


def diff_summary(fixed: list[Finding], remaining: list[Finding], unsafe: bool = False) -> str:
    """What `--diff` prints on stderr: `Would fix 2 errors.` or `No errors would be fixed.`"""
    hidden = sum(1 for f in remaining if hidden_unsafe(f, unsafe))
    note = f" ({_hidden_fixes(hidden)} be enabled with the `--unsafe-fixes` option)" if hidden else ""
    return f"Would fix {counted(fixed)}{note}." if fixed else f"No errors would be fixed{note}."


def render(report: Report, status: FixStatus = FixStatus()) -> str:
    lines = [finding_line(f, report.cwd, report.color, status.unsafe) for f in report.findings]
    if not report.quiet:
        lines.append(summary(report.findings, status.fixed))
        hint = fix_hint(report.findings, status.unsafe, report.color)
        if hint:
            lines.append(hint)
    return "".join(line + "\n" for line in lines)


def statistics(findings: list[Finding]) -> list[tuple[str, str, int]]:
    """(code, name, count), the most frequent first, like `ruff --statistics`."""
    counts = Counter(f.code for f in findings)
    return [(code, rule_name(code), n) for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def render_statistics(report: Report, status: FixStatus = FixStatus()) -> str:
    rows = statistics(report.findings)
    width = max((len(str(n)) for _, _, n in rows), default=1)
    lines = [f"{n:>{width}}\t{code}\t{name}" for code, name, n in rows]
    if not report.quiet:
        lines.append(summary(report.findings, status.fixed))
    return "".join(line + "\n" for line in lines)
