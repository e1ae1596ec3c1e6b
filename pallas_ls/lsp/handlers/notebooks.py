"""Notebook document sync: notebookDocument/didOpen, didChange, didSave, didClose.  The session
keeps the cells' texts (notebook_sync.py, as exact as a text document's); on each message the code cells are made into
one module (notebooks.py), kept as a document under the notebook's URI and handed to the pipeline
like any edit.  Diagnostics go to the cells (Pipeline.publish)."""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING

from lsprotocol import types

from .. import notebooks
from ..notebook_sync import SyncedNotebook
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

# Markdown cells are synced too, though never analysed: a client sends only the cells the selector
# names (VS Code does), and "cell C" in messages counts every cell, markdown included, as the CLI
# and ruff do.  With Python cells alone the kernel's "cell 3" would be the file's cell 4.
SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            notebook="*",
            cells=[types.NotebookCellLanguage(language="python"), types.NotebookCellLanguage(language="markdown")],
        )
    ],
    save=True,
)


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    def rebuild(uri: str, delay: float) -> None:
        synced = session.notebook_cells.get(uri)
        if synced is None:
            return
        previous = session.notebooks.get(uri)
        version = previous.version + 1 if previous is not None else 1
        cells = synced.cells_for_build()
        state, text = notebooks.build(uri, version, cells)
        gone = set(previous.cells) - set(state.cells) if previous is not None else set()
        session.notebooks[uri] = state
        if previous is not None and previous.cells != state.cells and uri in session.docs:
            session.docs[uri].result = None  # so the next result goes to every cell, new ones too
        for cell in gone:
            session.cell_notebook.pop(cell, None)
            if not session.client.pull_diagnostics:
                pipeline.publish(cell, None, "[]")
        session.cell_notebook.update((cell, uri) for cell in state.cells)
        session.store.open(types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text))
        session.doc(uri).changed_at = time.perf_counter()
        pipeline.schedule(uri, delay)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(params: types.DidOpenNotebookDocumentParams) -> None:
        session.ensure_runtime()
        session.forget(params.notebook_document.uri)
        session.notebooks.pop(params.notebook_document.uri, None)
        session.notebook_cells[params.notebook_document.uri] = SyncedNotebook.opened(params)
        rebuild(params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(params: types.DidChangeNotebookDocumentParams) -> None:
        synced = session.notebook_cells.get(params.notebook_document.uri)
        if synced is None:
            return
        synced.apply(params.change, session.encoding)
        rebuild(params.notebook_document.uri, session.editor.debounce_ms / 1000.0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    @guarded()
    def did_save(params: types.DidSaveNotebookDocumentParams) -> None:
        return  # the module was analysed as the overlay of the notebook's file already

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(params: types.DidCloseNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        document = session.store.close(uri)
        session.forget(uri)
        state = session.notebooks.pop(uri, None)
        session.notebook_cells.pop(uri, None)
        for cell in state.cells if state is not None else ():
            session.cell_notebook.pop(cell, None)
            if not session.client.pull_diagnostics:
                pipeline.publish(cell, None, "[]")
        if document is not None and document.path:
            pipeline.run_background(partial(session.analyzer.close_document, document.path), pipeline.refresh_paths)
