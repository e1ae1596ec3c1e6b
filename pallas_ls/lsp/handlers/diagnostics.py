"""Pulled diagnostics (`textDocument/diagnostic`): the report of the document's current version,
never another version's (their positions would be wrong)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .. import notebooks
from ..results import report_text
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

NAME = "pallas-ls"
SERVER_CANCELLED = types.LSPErrorCodes.ServerCancelled.value


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=True),
    )
    @guarded(default=types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def document_diagnostic(params: types.DocumentDiagnosticParams):
        uri = cell_uri = params.text_document.uri
        notebook = notebooks.owner(session, uri)
        if notebook is not None:  # a notebook's cell: its part of the notebook's report
            uri = notebook.uri
        saved = pipeline.last_saved_result(uri)  # run = "onSave": the last save's, whatever the version
        result = (
            saved
            if saved is not None
            else await pipeline.current_result(uri, first_look_ok=session.client.diagnostic_refresh)
        )
        document = session.python_document(uri)
        if (
            document is not None
            and not session.stopped
            and saved is None
            and (result is None or result.version != document.version)
        ):
            # No analysis of this version in time: never answer with another version's findings
            # (their positions are wrong) nor with none; the client asks again.
            raise JsonRpcException(
                "the analysis of this version is not ready", SERVER_CANCELLED, {"retriggerRequest": True}
            )
        if result is None:
            return {"kind": "full", "items": []}
        report = json.loads(report_text(result, params.previous_result_id))  # one way to write a report
        return report if notebook is None else notebooks.report_to_cell(notebook, cell_uri, report)
