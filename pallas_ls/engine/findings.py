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
