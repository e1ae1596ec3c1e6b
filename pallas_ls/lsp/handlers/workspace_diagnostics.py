"""`workspace/diagnostic`: a report per file of the workspace, open or not.

Open documents are reported from their current result (as `textDocument/diagnostic` would);
closed files from their analysis on disk with the launches the workspace index knows of
(../closed_files.py, cached: an unchanged closed file is not analysed again).  A report whose
result id the client sent back in `previousResultIds` is `unchanged`; a closed file reported
before and no longer (deleted, now excluded) is sent once with no items, so the client clears it.  A `partialResultToken` is
not used: the whole report is the response (the spec lets a server do so); a `workDoneToken` gets
`$/progress` begin / report / end around it.  When the index or an
edit changes what closed files report, pipeline.refresh_paths sends `workspace/diagnostic/refresh`.
"""

from __future__ import annotations

import asyncio
import os
from functools import partial
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import from_fs_path

from ..closed_files import ClosedRun, closed_results
from ..results import DocResult, Snapshot
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

SETTINGS_WAIT = 5.0


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    @guarded(default={"items": []})
    async def workspace_diagnostic(params: types.WorkspaceDiagnosticParams) -> Any:
        session.workspace_pulled = True
        await settings_ready(session)
        progress = Progress(server, params.work_done_token)
        try:
            return await workspace_report(params, progress)
        finally:
            progress.end()

    async def workspace_report(params: types.WorkspaceDiagnosticParams, progress: Progress) -> Any:
        progress.step("open documents")
        previous = {p.uri: p.value for p in params.previous_result_ids or ()}
        # An open notebook's module is reported per cell (pushed or pulled on the cell URIs), never
        # under the notebook's own URI with the module's line numbers.
        open_uris = [
            d.uri
            for d in session.store
            if session.python_document(d.uri) is not None and d.uri not in session.notebooks
        ]
        opened = await asyncio.gather(*(pipeline.current_result(uri) for uri in open_uris))
        items = []
        for uri, result in zip(open_uris, opened, strict=False):
            document = session.store.get(uri)
            if result is not None and document is not None and result.version == document.version:
                items.append(report(result, previous.get(uri)))
        progress.step("closed files")
        run, cache = closed_run(session), session.closed_cache
        outcome = await pipeline.run_in_background(partial(closed_results, run, cache))
        if outcome is not None:
            closed, new_cache = outcome
            items += [report(result, previous.get(result.uri)) for result in closed]
            # Files reported before and not now (deleted, excluded, opened elsewhere): cleared once.
            reported = {item["uri"] for item in items}
            gone = {entry[1].uri for entry in cache.values() if entry[1] is not None} - reported
            items += [{"kind": "full", "uri": uri, "version": None, "items": []} for uri in sorted(gone)]
            session.closed_cache = new_cache
        return {"items": items}


class Progress:
    """`$/progress` for a client that gave the request a work-done token (else nothing is sent).
    The report is one answer, not partial results: a step per stage, then the end."""

    def __init__(self, server: LanguageServer, token: types.ProgressToken | None) -> None:
        self.server, self.token, self.begun = server, token, False

    def step(self, message: str) -> None:
        if self.token is None:
            return
        tracker = self.server.work_done_progress
        if not self.begun:
            tracker.begin(self.token, types.WorkDoneProgressBegin(title="pallas-ls", message=message))
            self.begun = True
        else:
            tracker.report(self.token, types.WorkDoneProgressReport(message=message))

    def end(self) -> None:
        if self.token is None or not self.begun:
            return
        tracker = self.server.work_done_progress
        tracker.end(self.token, types.WorkDoneProgressEnd())
        # pygls keeps every begun token for a cancellation it never delivers here: drop ours.
        tracker.tokens.pop(self.token, None)


async def settings_ready(session: Session) -> None:
    """Wait (briefly, bounded) for the first workspace/configuration answer, as analyses do."""
    waited = 0.0
    while not session.settings_ready and not session.stopped and waited < SETTINGS_WAIT:
        await asyncio.sleep(0.02)
        waited += 0.02


def closed_run(session: Session) -> ClosedRun:
    editor, generation, encoding = session.editor, session.generation, session.encoding
    features, open_texts = session.client.diagnostics, session.store.texts_by_path()
    idle = session.worker.idle if session.worker is not None else None  # set while no document is analysed

    def snapshot_for(path: str, text: str) -> Snapshot:
        return Snapshot(
            uri=from_fs_path(path) or path,
            path=path,
            text=text,
            version=None,
            generation=generation,
            encoding=encoding,
            editor=editor,
            features=features,
            open_texts=open_texts,
        )

    return ClosedRun(
        roots=list(session.roots),
        analyzer=session.analyzer,
        settings_for=lambda path: session.resolver.resolve(path, editor),
        snapshot_for=snapshot_for,
        should_yield=lambda: idle.wait(timeout=5.0) if idle is not None else None,
        open_texts={os.path.abspath(p): t for p, t in open_texts.items()},
        generation=generation,
        encoding=encoding,
    )


def report(result: DocResult, previous_result_id: str | None) -> dict[str, Any]:
    """A WorkspaceFullDocumentDiagnosticReport, or the Unchanged one when the client has it already."""
    head = {"uri": result.uri, "version": result.version, "resultId": result.result_id}
    if previous_result_id is not None and previous_result_id == result.result_id:
        return {"kind": "unchanged", **head}
    return {"kind": "full", **head, "items": result.diagnostics_json}
