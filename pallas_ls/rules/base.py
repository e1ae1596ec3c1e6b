"""What every rule module provides, and the example format that drives its tests and docs.

A rule module defines CODE, NAME, SEVERITY, SUMMARY, DOCS, EXAMPLES and `check(ctx)`.
Examples are complete, runnable programs: the `jax` test tier executes them under real JAX to
confirm that each INVALID one fails the way the rule claims and each VALID one runs.

In an INVALID example, `«` and `»` surround every range the rule must report.  They are stripped
before the code is analysed or run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from ..engine.findings import Applicability, Finding, Severity
from ..engine.source import Range

if TYPE_CHECKING:
    from ..engine.analysis import ModuleAnalysis

OPEN_MARK = "\u00ab"  # «
CLOSE_MARK = "\u00bb"  # »

DOCS_BASE_URL = "https://github.com/pallas-ls/pallas-ls/blob/main/docs/rules/"


@dataclass(frozen=True)
class Example:
    name: str
    code: str  # the program, with «…» around each expected finding when invalid
    valid: bool
    # For INVALID examples: a substring of the exception JAX raises when the program runs.
    jax_error: str | None = None
    # For INVALID examples of a TPU rule (PAL1xx): a substring of what compiling it for a TPU
    # raises.  Such an example has no jax_error: interpret mode runs it (that is the point).
    tpu_error: str | None = None
    # The expected text after the preferred fixes are applied (None: no fix applied in bulk).
    fixed: str | None = None
    # How far those preferred fixes may be trusted: "safe" (`--fix`) or "unsafe" (`--unsafe-fixes`).
    fix_applicability: Applicability = Applicability.SAFE

    @property
    def source(self) -> str:
        return self.code.replace(OPEN_MARK, "").replace(CLOSE_MARK, "")

    @property
    def expected_ranges(self) -> list[Range]:
        return marked_ranges(self.code)


def marked_ranges(marked: str) -> list[Range]:
    """The ranges (code points, 0-based) between « and » in `marked`, positions of the clean text."""
    ranges: list[Range] = []
    stack: list[tuple[int, int]] = []
    line = col = 0
    for ch in marked:
        if ch == OPEN_MARK:
            stack.append((line, col))
            continue
        if ch == CLOSE_MARK:
            start = stack.pop()
            ranges.append(Range.of(start[0], start[1], line, col))
            continue
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 1
    return sorted(ranges)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    docs: str
    examples: tuple[Example, ...]
    check: Callable[[ModuleAnalysis], Iterable[Finding]]

    @property
    def url(self) -> str:
        return f"{DOCS_BASE_URL}{self.code}.md"

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        return cls(
            code=module.CODE,
            name=module.NAME,
            severity=module.SEVERITY,
            summary=module.SUMMARY,
            docs=module.DOCS.strip("\n"),
            examples=tuple(module.EXAMPLES),
            check=module.check,
        )

    @property
    def valid_examples(self) -> list[Example]:
        return [e for e in self.examples if e.valid]

    @property
    def invalid_examples(self) -> list[Example]:
        return [e for e in self.examples if not e.valid]
