"""Code actions: each of our diagnostics' quick fixes and "Disable CODE for this line", and
fix-all (`source.fixAll.pallas-ls`), which applies the preferred safe fixes as `check --fix`
does, with the same project analysis (kernels launched from other files included).

In a notebook's cell the actions are the notebook module's: quick fixes kept to that cell, and
fix-all over the whole notebook, its edit split per cell (notebooks.fix_all_edit)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from lsprotocol import types

from .. import actions, fixes, notebooks
from ..diagnostic_data import DiagnosticData, FixData
from ..results import DocResult
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

KINDS = [types.CodeActionKind.QuickFix, actions.FIX_ALL]


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=False)
    )
    @guarded()
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = cell_uri = params.text_document.uri
        notebook = notebooks.owner(session, uri)
        if notebook is not None:  # a notebook's cell: the notebook's actions, kept to the cell
            uri = notebook.uri
            params.context.diagnostics = [
                notebooks.diagnostic_to_module(notebook, cell_uri, d) for d in params.context.diagnostics
            ]
        document = session.store.get(uri)
        if document is None:
            return None
        want_quickfix = actions.kind_requested(actions.QUICKFIX, params.context.only)
        want_fix_all = actions.kind_requested(actions.FIX_ALL, params.context.only)
        if not (want_quickfix or want_fix_all):
            return None
        # Quick fixes only need the analysis of this version (whatever settings changed since);
        # wait for one only when there is none yet.
        state = session.docs.get(uri)
        result = state.result if state is not None else None
        if result is None or result.version != document.version or want_fix_all:
            result = await pipeline.current_result(uri)
        document = session.store.get(uri)
        if result is None or document is None or result.version != document.version:
            return None
        found: list[types.CodeAction] = []
        if want_quickfix:
            for diagnostic in params.context.diagnostics:
                if actions.diagnostic_is_ours(diagnostic):
                    found += quick_fixes(session, result, diagnostic)
        if notebook is not None:  # the quick fixes kept to the cell; fix-all edits any cell
            found = notebooks.actions_to_cell(notebook, cell_uri, cell_version(session, notebook.uri, cell_uri), found)
        if want_fix_all:
            action = await fix_all(session, pipeline, result)
            if action is not None:
                found.append(action)
        return found


def cell_version(session: Session, notebook_uri: str, cell_uri: str) -> int | None:
    synced = session.notebook_cells.get(notebook_uri)
    return synced.version_of(cell_uri) if synced is not None else None


def quick_fixes(session: Session, result: DocResult, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    data = DiagnosticData.from_json(diagnostic.data)
    if data is not None and data.version == result.version:
        fix_list: list[FixData] = data.fixes
    else:  # no data (the client dropped it): find our own copy of the diagnostic
        own = _own_diagnostic(result, diagnostic)
        if own is None:
            return []  # a diagnostic from an older version: its fixes would be misplaced
        own_data = DiagnosticData.from_json(own.data)
        fix_list = own_data.fixes if own_data is not None else []
    document_changes = session.client.document_changes
    found = actions.quick_fix_actions(result.uri, result.version, diagnostic, fix_list, document_changes)
    if not any(fixes.is_disable_fix(fix) for fix in fix_list):
        action = actions.disable_action(
            result.uri,
            result.version,
            diagnostic,
            result.lines,
            diagnostic.range.start.line,
            session.encoding,
            document_changes,
        )
        if action is not None:
            found.append(action)
    return found


def _own_diagnostic(result: DocResult, diagnostic: types.Diagnostic) -> types.Diagnostic | None:
    for own in result.diagnostics:
        if own.code == diagnostic.code and own.range == diagnostic.range:
            return own
    return None


async def fix_all(session: Session, pipeline: Pipeline, result: DocResult) -> types.CodeAction | None:
    if not any(fixes.preferred_safe_fix(f) for f in result.findings):
        return None
    editor, path, analyzer = session.editor, result.source.path, session.analyzer

    def reanalyze(text: str):
        """A later round's findings: the project's, as `check --fix` sees them (issue 14)."""
        settings = session.resolver.resolve(path, editor)
        return [f for f in analyzer.findings_of_text(path, text) if settings.is_enabled(f.code, f.path)]

    new_text = await pipeline.run_in_worker(partial(fixes.fix_all_text, result.source, result.findings, reanalyze))
    document = session.store.get(result.uri)
    if new_text is None or document is None or document.version != result.version:
        return None
    notebook = session.notebooks.get(result.uri)
    if notebook is not None:  # a notebook's module: edits of each cell it changes
        edit = notebooks.fix_all_edit(
            notebook,
            new_text,
            session.encoding,
            partial(cell_version, session, result.uri),
            session.client.document_changes,
        )
        if edit is None:
            return None
    else:
        text_edit = fixes.minimal_edit(result.lines, result.source.text, new_text, session.encoding)
        edit = actions.workspace_edit(result.uri, result.version, [text_edit], session.client.document_changes)
    return types.CodeAction(title="pallas-ls: Fix all auto-fixable problems", kind=actions.FIX_ALL, edit=edit)
