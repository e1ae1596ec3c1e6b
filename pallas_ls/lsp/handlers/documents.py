"""Document sync and files changed on disk: didOpen, didChange, didClose, didSave,
didChangeWatchedFiles.  Each change is handed to the pipeline; closing forgets the document."""

from __future__ import annotations

import logging
import os
import time
from functools import partial
from typing import TYPE_CHECKING

from lsprotocol import types

from ..documents import uri_to_path
from ..session import is_python
from .configuration import use_configured_rules
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

log = logging.getLogger(__name__)


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        session.ensure_runtime()
        # Issue 15: a didOpen supersedes whatever was known of its URI, whatever its version (a
        # close and reopen with other text at version 1, or a second didOpen, used to be answered
        # with the old text's findings, which had the same version number).
        session.forget(params.text_document.uri)
        document = session.store.open(params.text_document)
        if is_python(document):
            pipeline.schedule(document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        document = session.store.change(params, session.encoding)
        if document is None:
            log.warning("didChange for a document that is not open")
            return
        if is_python(document):
            session.doc(document.uri).changed_at = time.perf_counter()
            if not session.editor.run_on_save:
                pipeline.schedule_after_edit(document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = session.store.close(uri)
        session.forget(uri)
        if not session.client.pull_diagnostics and document is not None:  # a never-opened one had nothing published
            pipeline.publish(uri, None, "[]")
        if document is not None and document.path:
            pipeline.run_background(partial(session.analyzer.close_document, document.path), pipeline.refresh_paths)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded()
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        # As you type, the buffer was already analysed as the overlay of its file; other files'
        # launch sites are unchanged.  With `run = "onSave"` the save is when it is analysed.
        uri = params.text_document.uri
        if session.editor.run_on_save and session.python_document(uri) is not None:
            pipeline.schedule(uri, 0)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        settings_changed = False
        for change in params.changes:
            path = uri_to_path(change.uri)
            if not path:
                continue
            if os.path.basename(path) == "pyproject.toml":
                settings_changed = True
                continue
            if not path.endswith(".py") or session.store.by_path(path) is not None:
                continue  # an open document's buffer wins over the file on disk
            deleted = change.type == types.FileChangeType.Deleted
            pipeline.run_background(partial(session.analyzer.file_changed, path, deleted), pipeline.refresh_paths)
        if settings_changed:
            session.resolver.invalidate()
            use_configured_rules(session)
            pipeline.settings_changed()
