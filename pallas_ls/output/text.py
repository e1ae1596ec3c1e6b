"""`path:row:col: CODE [*] message`, one line per finding, then ruff-style summary lines.

`[*]` marks a finding that `check --fix` would fix (with `--unsafe-fixes`: unsafe fixes too).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engine.findings import Finding, Severity, applicable_fix, hidden_unsafe
from . import FixStatus, Report, display_path, one_based, rule_name

__all__ = ["FixStatus", "render", "render_statistics", "statistics", "summary"]

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_CODE_STYLE = {
    Severity.ERROR: "\x1b[1;31m",  # bold red
    Severity.WARNING: "\x1b[1;33m",  # bold yellow
    Severity.INFO: "\x1b[1;36m",  # bold cyan
    Severity.HINT: "\x1b[1;34m",  # bold blue
}
_FIX_MARK_STYLE = "\x1b[36m"  # cyan, as ruff's


def style(text: str, sgr: str, color: bool) -> str:
    return f"{sgr}{text}{_RESET}" if color else text


def _one_line(message: str) -> str:
    # Tools that read this format (editors' errorformat, grep) expect one finding per line.
    return " ".join(message.split("\n"))


def location(finding: Finding, cwd: str, color: bool = False) -> str:
    """`path:row:col`, or `path:cell N:row:col` in a notebook (rows relative to the cell)."""
    row, col = one_based(finding.range.start)
    path = style(display_path(finding.path, cwd), _BOLD, color)
    if finding.cell is not None:
        path += f":cell {finding.cell}"
    return f"{path}:{row}:{col}"


def code_style(finding: Finding) -> str:
    return _CODE_STYLE.get(finding.severity, _BOLD)


def finding_line(finding: Finding, cwd: str, color: bool = False, unsafe: bool = False) -> str:
    code = style(finding.code, code_style(finding), color)
    mark = " " + style("[*]", _FIX_MARK_STYLE, color) if applicable_fix(finding, unsafe) else ""
    return f"{location(finding, cwd, color)}: {code}{mark} {_one_line(finding.message)}"


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
    mark = style("[*]", _FIX_MARK_STYLE, color)
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


def fixes_applied(fixed: tuple[Finding, ...] | list[Finding], cwd: str, color: bool = False) -> list[str]:
    """What `--show-fixes` prints after `--fix`, as ruff does:

    Fixed 2 errors:
    - kern.py:
        2 × PAL001 (kernel-returns-value)
    """
    if not fixed:
        return []
    by_file: dict[str, Counter[str]] = {}
    for finding in fixed:
        by_file.setdefault(display_path(finding.path, cwd), Counter())[finding.code] += 1
    lines = [style(f"Fixed {counted(fixed)}:", _BOLD, color)]
    for path in sorted(by_file):
        lines.append(f"- {style(path, _BOLD, color)}:")
        for code, count in sorted(by_file[path].items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"    {count} × {code} ({rule_name(code)})")
    return lines


def summary_lines(report: Report, status: FixStatus) -> list[str]:
    """The fixes applied (with --show-fixes), `Found ...` and the fix hint; nothing with --quiet."""
    if report.quiet:
        return []
    lines = []
    if report.show_fixes and status.fixed:
        lines += ([""] if report.findings else []) + fixes_applied(status.fixed, report.cwd, report.color) + [""]
    hint = fix_hint(report.findings, status.unsafe, report.color)
    return lines + [summary(report.findings, status.fixed)] + ([hint] if hint else [])


def render(report: Report, status: FixStatus | None = None) -> str:
    status = report.status if status is None else status
    lines = [finding_line(f, report.cwd, report.color, status.unsafe) for f in report.findings]
    return "".join(line + "\n" for line in lines + summary_lines(report, status))


@dataclass(frozen=True)
class CodeCount:
    code: str
    name: str
    count: int
    fixable: int  # how many of them `--fix` would fix


def statistics(findings: list[Finding], unsafe: bool = False) -> list[CodeCount]:
    """One row per code, the most frequent first, like `ruff --statistics`."""
    counts = Counter(f.code for f in findings)
    fixable = Counter(f.code for f in findings if applicable_fix(f, unsafe))
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [CodeCount(code, rule_name(code), n, fixable[code]) for code, n in ordered]


def fixable_mark(row: CodeCount, color: bool) -> str:
    """As ruff: `[*]` all of a code's findings are fixable, `[~]` some, `[ ]` none."""
    if row.fixable == row.count:
        return "[" + style("*", _FIX_MARK_STYLE, color) + "]"
    return "[" + style("~", _FIX_MARK_STYLE, color) + "]" if row.fixable else "[ ]"


def render_statistics(report: Report, status: FixStatus | None = None) -> str:
    status = report.status if status is None else status
    rows = statistics(report.findings, status.unsafe)
    count_width = max((len(str(r.count)) for r in rows), default=1)
    code_width = max((len(r.code) for r in rows), default=1)
    # The mark column appears only when something is fixable (ruff does the same).
    marks = any(r.fixable for r in rows)
    lines = [
        f"{r.count:>{count_width}}\t{r.code:<{code_width}}\t"
        + (fixable_mark(r, report.color) + " " if marks else "")
        + r.name
        for r in rows
    ]
    return "".join(line + "\n" for line in lines + ([] if report.quiet else [summary(report.findings, status.fixed)]))
