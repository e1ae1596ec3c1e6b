"""What the engine reports: findings, their related locations and their fixes.

Everything here is plain data in code points (0-based), independent of any front end.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .source import Position, Range


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


class Applicability(str, enum.Enum):
    """ruff's three levels: how far a fix may be trusted without a human looking at it."""

    SAFE = "safe"  # applied by `check --fix` and by fix-all
    UNSAFE = "unsafe"  # offered, applied only with `--unsafe-fixes`
    DISPLAY_ONLY = "display-only"  # offered in the editor, never applied in bulk

    @property
    def applied_in_bulk(self) -> bool:
        return self is not Applicability.DISPLAY_ONLY


@dataclass(frozen=True)
class Edit:
    """Replace the text in `range` of one file by `new_text` (insertion: an empty range)."""

    range: Range
    new_text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    preferred: bool = False
    # "Disable CODE for this line": a noqa comment, not a fix (never applied by --fix or fix-all).
    suppression: bool = False


@dataclass(frozen=True)
class Related:
    """Another place that explains a finding (the launch site, the first occurrence, ...)."""

    path: str | None
    range: Range
    message: str
    cell: int | None = None  # in a notebook: the cell `range` is relative to (1-based over all cells)


@dataclass
class Finding:
    code: str
    message: str
    range: Range
    path: str | None = None
    severity: Severity = Severity.ERROR
    related: list[Related] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    # In a notebook, once located for output: the cell (1-based over all cells) that `range`,
    # and the ranges of the fixes' edits, are relative to.  Analysis and fixing use module ranges.
    cell: int | None = None

    @property
    def sort_key(self) -> tuple[str, Position, Position, str, str]:
        return (self.path or "", self.range.start, self.range.end, self.code, self.message)


# The pseudo-rule for text that does not parse.  It is not in the rule registry (it has no
# examples and nothing to fix) but it has a code so it can be selected, ignored and suppressed.
SYNTAX_ERROR_CODE = "PAL000"
UNREADABLE_CODE = "PAL900"


# ------------------------------------------------------------- which fix `--fix` applies
def is_suppression(fix: Fix, finding: Finding | None = None) -> bool:
    """The "Disable CODE for this line" fix the engine adds to every finding (its typed marker)."""
    return fix.suppression


def preferred_fix(finding: Finding) -> Fix | None:
    """The finding's preferred fix, unless that is only the noqa suppression."""
    fix = next((f for f in finding.fixes if f.preferred), None)
    return None if fix is None or is_suppression(fix, finding) else fix


def applicable_fix(finding: Finding, unsafe: bool) -> Fix | None:
    """The fix `--fix` applies to `finding` (`unsafe`: `--unsafe-fixes` was given), or None."""
    fix = preferred_fix(finding)
    if fix is None or not fix.applicability.applied_in_bulk:
        return None  # display-only: offered in the editor, never applied in bulk
    if fix.applicability is not Applicability.SAFE and not unsafe:
        return None
    return fix


def hidden_unsafe(finding: Finding, unsafe: bool) -> bool:
    """Whether `finding` has a preferred fix that only `--unsafe-fixes` would apply."""
    fix = preferred_fix(finding)
    return not unsafe and fix is not None and fix.applicability is Applicability.UNSAFE
