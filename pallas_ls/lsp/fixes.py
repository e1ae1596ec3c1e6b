"""The server's text-level fixing: fix-all's rounds (fixes applied by the engine's one routine,
overlaps resolved as `--fix` resolves them), which fix is the suppression one, and the minimal edit.  `# noqa` edits come from the engine's one builder
(engine/noqa.py).
"""

from __future__ import annotations

import ast
import logging
from collections.abc import Callable

from lsprotocol import types

from ..engine.edits import apply_fixes
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
        text, applied = apply_fixes(current, fixes)
        if not applied or applied == len(fixes):  # nothing done, or nothing left for another round
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
