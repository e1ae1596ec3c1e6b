"""Code actions as LSP objects: a diagnostic's quick fixes, "Disable CODE for this line", and the
workspace edits they carry.

Quick fixes are built from `Diagnostic.data` (diagnostic_data.py: edits already in the client's
position encoding, for the document version recorded there), so they need no analysis; the texts
of "Disable" and fix-all come from fixes.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ..engine.findings import SYNTAX_ERROR_CODE
from ..engine.noqa import noqa_edit
from .convert import SOURCE, LineSource
from .diagnostic_data import FixData
from .fixes import disable_title

QUICKFIX = types.CodeActionKind.QuickFix.value
FIX_ALL = "source.fixAll.pallas-ls"


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


def workspace_edit(
    uri: str, version: int | None, edits: list[types.TextEdit], document_changes: bool
) -> types.WorkspaceEdit:
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


def disable_action(
    uri: str,
    version: int | None,
    diagnostic: types.Diagnostic,
    lines: LineSource,
    line: int,
    encoding: str,
    document_changes: bool,
) -> types.CodeAction | None:
    code = str(diagnostic.code)
    if code == SYNTAX_ERROR_CODE:
        return None
    # The engine's one builder: on the line where a multi-line string or a continuation ends.
    edit = noqa_edit(lines.source, line, code)
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


def diagnostic_is_ours(diagnostic: types.Diagnostic) -> bool:
    return diagnostic.source == SOURCE and diagnostic.code is not None
