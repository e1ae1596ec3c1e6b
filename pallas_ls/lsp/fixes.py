"""The server's text-level fixing, in one place: applying fixes (overlaps resolved), fix-all's
rounds, and which fix is the suppression one.  `# noqa` edits come from the engine's one builder
(engine/noqa.py).
"""

from __future__ import annotations

import ast
import logging
from typing import Callable, Iterable

from lsprotocol import types

from ..engine.findings import Applicability, Finding, Fix
from ..engine.source import SourceFile
from .convert import LineSource

log = logging.getLogger(__name__)

MAX_FIX_ALL_ROUNDS = 4


def disable_title(code: str) -> str:
    return f"Disable {code} for this line"


def is_disable_fix(fix) -> bool:
    """Whether an engine fix (a Fix, or its FixData from a diagnostic) is its own "Disable ... for
    this line" (then ours is not added): the typed marker, never the title."""
    return bool(fix.suppression)



# ---------------------------------------------------------------------------------- fix all
def preferred_safe_fix(finding: Finding) -> Fix | None:
    for fix in finding.fixes:
        if fix.preferred and Applicability(fix.applicability) is Applicability.SAFE:
            return fix
    return None


def apply_fixes(source: SourceFile, fixes: Iterable[Fix]) -> tuple[str, int, int]:
    """Apply non-overlapping fixes (in order) to `source.text`: (new text, applied, skipped)."""
    chosen: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    applied = skipped = 0
    for fix in fixes:
        spans = [(source.offset(e.range.start), source.offset(e.range.end), e.new_text) for e in fix.edits]
        if any(_overlaps(a, b, taken) for a, b, _ in spans) or _self_overlapping(spans):
            skipped += 1
            continue
        chosen.extend(spans)
        taken.extend((a, b) for a, b, _ in spans)
        applied += 1
    text = source.text
    for start, end, new_text in sorted(chosen, key=lambda s: (s[0], s[1]), reverse=True):
        text = text[:start] + new_text + text[end:]
    return text, applied, skipped


def _overlaps(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    for a, b in taken:
        if start < b and a < end:
            return True
        if start == end == a or (a == b == start):  # two insertions at one place: order unknown
            return True
    return False


def _self_overlapping(spans: list[tuple[int, int, str]]) -> bool:
    ordered = sorted((a, b) for a, b, _ in spans)
    return any(ordered[i][1] > ordered[i + 1][0] for i in range(len(ordered) - 1))


def fix_all_text(
    source: SourceFile,
    findings: list[Finding],
    reanalyze: Callable[[str], list[Finding]],
) -> str | None:
    """The text after every preferred safe fix (None when nothing changes or the result would
    not parse).  `reanalyze(text)` gives the visible findings of an intermediate text."""
    text = source.text
    current, current_findings = source, findings
    for _ in range(MAX_FIX_ALL_ROUNDS):
        fixes = [fix for fix in map(preferred_safe_fix, current_findings) if fix is not None]
        if not fixes:
            break
        text, applied, skipped = apply_fixes(current, fixes)
        if not applied or not skipped:
            break
        current = SourceFile.from_text(text, source.path)
        current_findings = reanalyze(text)
    if text == source.text:
        return None
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        log.warning("fix-all result does not parse; not offered")
        return None
    return text


def minimal_edit(lines: LineSource, old: str, new: str, encoding: str) -> types.TextEdit:
    """One edit turning `old` (the analysed text, BOM stripped) into `new`: the changed middle."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    # Never split a "\r\n" pair.
    if 0 < prefix < len(old) and old[prefix - 1] == "\r" and old[prefix] == "\n":
        prefix -= 1
    end = len(old) - suffix
    if suffix and 0 < end < len(old) and old[end - 1] == "\r" and old[end] == "\n":
        suffix -= 1
        end += 1
    source = lines.source
    rng = types.Range(
        start=lines.position(source.position_at(prefix), encoding),
        end=lines.position(source.position_at(end), encoding),
    )
    return types.TextEdit(range=rng, new_text=new[prefix : len(new) - suffix])
