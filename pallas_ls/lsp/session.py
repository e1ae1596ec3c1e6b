"""The server's state, and nothing else: what the client can do, its settings, its documents (the
text in `DocumentStore`, everything else about each in one `DocState`), the workspace's roots, the
engine, and the threads analyses run on.

Everything here is read and written on the event loop thread; the workers only see a `Snapshot`
(results.py).  What happens to the state lives elsewhere: pipeline.py (edit -> diagnostics),
handlers/ (one module per family of LSP messages), indexing.py.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .capabilities import ClientCapabilities
from .documents import Document, DocumentStore
from .notebook_sync import SyncedNotebook
from .notebooks import NotebookState
from .results import DocResult, Snapshot
from .scheduler import Debouncer, Worker
from .settings import EditorSettings, SettingsResolver
from .workspace import Analyzer

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)


@dataclass
class DocState:
    """Everything the server knows about one open document besides its text."""

    result: DocResult | None = None  # the latest whole analysis kept (of this version or an older one)
    # The kernel slice's findings, when they were sent before the whole analysis (pipeline.py).
    first_look: DocResult | None = None
    in_flight: Snapshot | None = None  # the analysis handed to the worker, until it comes back
    # Requests waiting for the analysis of the current version; True: a first look will do (a pull).
    waiters: list[tuple[asyncio.Future, bool]] = field(default_factory=list)
    waits_for_settings: bool = False  # its analysis waits for the first workspace/configuration answer
    changed_at: float | None = None  # perf_counter of its last change, for the debug log of edit latency

    def wake(self, result: DocResult | None) -> None:
        """Answer every waiting request with `result` (None: there will be none)."""
        waiters, self.waiters = self.waiters, []
        for future, _ in waiters:
            if not future.done():
                future.set_result(result)


class Session:
    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.client = ClientCapabilities()
        self.store = DocumentStore()
        self.docs: dict[str, DocState] = {}  # by URI, for the documents in `store`
        # Open notebooks by URI (their module is a document in `store`), and each cell's notebook.
        self.notebooks: dict[str, NotebookState] = {}
        self.cell_notebook: dict[str, str] = {}
        self.notebook_cells: dict[str, SyncedNotebook] = {}  # the cells' texts, by notebook URI
        # Settings: initializationOptions and the workspace/configuration section, parsed into
        # `editor`; `generation` counts changes (a result of older settings is dropped).
        self.init_options: Any = None
        self.config_section: Any = None
        self.editor = EditorSettings()
        self.generation = 0
        self.resolver = SettingsResolver()
        self.settings_warnings: set[str] = set()  # shown for the settings as they are now
        # Until the first workspace/configuration answer, analyses wait (so the first diagnostics
        # already follow the editor's settings).
        self.settings_ready = True
        self.roots: list[str] = []
        self.analyzer = Analyzer()
        self.shown_warnings: set[str] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.worker: Worker | None = None  # documents' analyses
        self.background: Worker | None = None  # the workspace index, files changed on disk
        self.debouncer: Debouncer | None = None
        self.index_count = 0
        # workspace/diagnostic: the client pulls the workspace's reports; closed files' results by path.
        self.workspace_pulled = False
        self.closed_cache: dict[str, Any] = {}
        self.stopped = False

    # ------------------------------------------------------------------------- runtime
    def ensure_runtime(self) -> None:
        if self.loop is None:
            self.loop = asyncio.get_event_loop()
            self.worker = Worker(self.loop, "pallas-ls-analysis")
            self.background = Worker(self.loop, "pallas-ls-index")
            self.debouncer = Debouncer(self.loop)

    def stop(self) -> None:
        self.stopped = True
        for worker in (self.worker, self.background):
            if worker is not None:
                worker.stop()
        for state in self.docs.values():
            state.wake(None)

    @property
    def encoding(self) -> str:
        return self.client.encoding

    # ----------------------------------------------------------------------- documents
    def doc(self, uri: str) -> DocState:
        """The state of an open document (made on first use)."""
        state = self.docs.get(uri)
        if state is None:
            state = self.docs[uri] = DocState()
        return state

    def python_document(self, uri: str) -> Document | None:
        """The open document at `uri` if it is Python (the only kind analysed)."""
        document = self.store.get(uri)
        return document if document is not None and is_python(document) else None

    def forget(self, uri: str) -> None:
        """Drop everything known of `uri` but its text (closed, or opened anew): its state, its
        pending analysis, and the requests waiting for it."""
        if self.debouncer is not None:
            self.debouncer.cancel(uri)
        if self.worker is not None:
            self.worker.discard(uri)
        state = self.docs.pop(uri, None)
        if state is not None:
            state.wake(None)

    def fresh(self, result: DocResult | None, document: Document) -> bool:
        """`result` is the analysis of the document's current version under the current settings."""
        return (
            result is not None
            and result.version == document.version
            and result.generation == self.generation
            and not result.stale
        )

    # ------------------------------------------------------------------------ messages
    def show_warning(self, message: str, once: bool = True) -> None:
        """A warning for the user (a pop-up in most editors); `once`: never the same text twice."""
        if once:
            if message in self.shown_warnings:
                return
            self.shown_warnings.add(message)
        log.warning("%s", message)
        try:
            self.server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        except Exception:  # noqa: BLE001
            log.exception("cannot show a message")


def is_python(document: Document) -> bool:
    return document.language_id in ("python", "") or bool(document.path and document.path.endswith((".py", ".pyi")))
