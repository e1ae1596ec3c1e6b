"""Code actions: the fixes carried in diagnostics, "Disable for this line", and fix-all.

Quick fixes are built from `Diagnostic.data` (edits already in the client's position encoding, for
the document version recorded there), so they need no analysis.  Fix-all applies the preferred safe
fix of every finding (as `pallas-ls check --fix` does) and repeats on the result while fixes
overlapped, up to a few rounds.
"""

from __future__ import annotations

import ast
import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from lsprotocol import types

from ..engine.findings import SYNTAX_ERROR_CODE, Applicability, Finding, Fix
from ..engine.noqa import noqa_edit as engine_noqa_edit, noqa_line_edit
from ..engine.source import SourceFile
from .convert import SOURCE, LineSource, range_from_json

log = logging.getLogger(__name__)

QUICKFIX = types.CodeActionKind.QuickFix.value
FIX_ALL = "source.fixAll.pallas-ls"
MAX_FIX_ALL_ROUNDS = 4


def kind_requested(kind: str, only: Sequence[str] | None, *, default: bool = True) -> bool:
    """Whether `kind` is among the kinds the client asked for (hierarchically: `source` covers
    `source.fixAll.pallas-ls`)."""
    if not only:
        return default
    for wanted in only:
        wanted = str(getattr(wanted, "value", wanted))
        if kind == wanted or kind.startswith(wanted + "."):
            return True
    return False


def workspace_edit(uri: str, version: int | None, edits: list[types.TextEdit], document_changes: bool) -> types.WorkspaceEdit:
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                    edits=list(edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})


# ------------------------------------------------------------------------------- quick fixes
@dataclass(frozen=True)
class FixData:
    title: str
    applicability: str
    preferred: bool
    edits: list[types.TextEdit]

    @property
    def safe(self) -> bool:
        return self.applicability == Applicability.SAFE.value


def fixes_from_data(data: Any) -> list[FixData] | None:
    """The fixes serialised in a diagnostic's data (None when data is missing or malformed)."""
    if not isinstance(data, dict) or not isinstance(data.get("fixes"), list):
        return None
    fixes = []
    try:
        for item in data["fixes"]:
            edits = [types.TextEdit(range=range_from_json(e["range"]), new_text=str(e["newText"])) for e in item["edits"]]
            fixes.append(FixData(str(item["title"]), str(item.get("applicability", "unsafe")), bool(item.get("preferred")), edits))
    except (KeyError, TypeError, ValueError):
        return None
    return fixes


def quick_fix_actions(
    uri: str,
    version: int | None,
    diagnostic: types.Diagnostic,
    fixes: list[FixData],
    document_changes: bool,
) -> list[types.CodeAction]:
    code = str(diagnostic.code)
    actions = []
    for fix in fixes:
        actions.append(
            types.CodeAction(
                title=f"pallas-ls ({code}): {fix.title}",
                kind=QUICKFIX,
                diagnostics=[diagnostic],
                edit=workspace_edit(uri, version, fix.edits, document_changes),
                is_preferred=True if (fix.preferred and fix.safe) else None,
            )
        )
    return actions


def disable_title(code: str) -> str:
    return f"Disable {code} for this line"


def is_disable_fix(title: str) -> bool:
    """Whether an engine fix is its own "Disable ... for this line" (then ours is not added)."""
    return title.startswith("Disable ") or "noqa" in title


# ------------------------------------------------------------------------------------- noqa
def lines_inside_strings(tree: ast.AST) -> frozenset[int]:
    """0-based lines whose end lies inside a multi-line string literal (a comment there would
    become part of the string)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and getattr(node, "end_lineno", None):
            if isinstance(node, ast.Constant) and not isinstance(node.value, (str, bytes)):
                continue
            if node.end_lineno > node.lineno:
                inside.update(range(node.lineno - 1, node.end_lineno - 1))
    return frozenset(inside)


def noqa_edit(line_text: str, line: int, code: str, in_string: frozenset[int]) -> tuple[int, int, str] | None:
    """The engine's noqa builder on one line (None inside a multi-line string: see engine/noqa.py)."""
    return None if line in in_string else noqa_line_edit(line_text, code)


def disable_action(
    uri: str,
    version: int | None,
    diagnostic: types.Diagnostic,
    lines: LineSource,
    line: int,
    in_string: frozenset[int],
    encoding: str,
    document_changes: bool,
) -> types.CodeAction | None:
    code = str(diagnostic.code)
    if code == SYNTAX_ERROR_CODE:
        return None
    edit = engine_noqa_edit(lines.source, line, code)  # the engine's string-aware builder
    if edit is None:
        return None
    new_text = edit.new_text
    rng = types.Range(start=lines.position(edit.range.start, encoding), end=lines.position(edit.range.end, encoding))
    return types.CodeAction(
        title=f"pallas-ls ({code}): {disable_title(code)}",
        kind=QUICKFIX,
        diagnostics=[diagnostic],
        edit=workspace_edit(uri, version, [types.TextEdit(range=rng, new_text=new_text)], document_changes),
    )


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


def diagnostic_is_ours(diagnostic: types.Diagnostic) -> bool:
    return diagnostic.source == SOURCE and diagnostic.code is not None
