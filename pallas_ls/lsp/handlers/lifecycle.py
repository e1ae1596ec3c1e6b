"""initialize, initialized, shutdown and workspace folders: what the client can do, the workspace's
roots, dynamic registrations, and when the workspace index starts."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder

from ..capabilities import ClientCapabilities
from ..documents import uri_to_path
from ..indexing import Indexer, IndexRun
from ..positions import normalise_encoding
from ..workspace import Analyzer
from . import configuration
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

log = logging.getLogger(__name__)

SETTINGS_TIMEOUT = 5.0  # how long analyses wait for the first workspace/configuration answer
INDEX_START_DELAY = 0.3  # seconds after `initialized`: editors open their visible documents first


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    indexers: list[Indexer] = []  # made at `initialized`, once the loop runs

    def start_index(roots: list[str] | None = None) -> None:
        assert session.loop is not None, "indexing starts once the loop runs (at `initialized`)"
        if not indexers:
            indexers.append(
                Indexer(
                    server,
                    session.loop,
                    pipeline.run_background,
                    pipeline.refresh_paths,
                    progress=session.client.work_done_progress,
                )
            )
        indexers[0].start(index_run(session, session.roots if roots is None else roots))

    @server.feature(types.INITIALIZE)
    @guarded()
    def initialize(params: types.InitializeParams) -> None:
        session.ensure_runtime()
        encoding = normalise_encoding(ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities))
        session.client = ClientCapabilities.from_initialize(params.capabilities, encoding)
        session.roots = workspace_roots(params)
        session.resolver.workspace_root = session.roots[0] if session.roots else None
        session.analyzer = Analyzer(session.roots)
        session.init_options = params.initialization_options
        session.settings_ready = not session.client.configuration
        configuration.apply_settings(session, pipeline, notify=False)
        log.info(
            "initialized: encoding=%s diagnostics=%s roots=%d debounce=%gms",
            session.encoding,
            "pull" if session.client.pull_diagnostics else "push",
            len(session.roots),
            session.editor.debounce_ms,
        )

    @server.feature(types.INITIALIZED)
    @guarded()
    async def initialized(params: types.InitializedParams) -> None:
        try:
            if session.client.configuration:
                await asyncio.wait_for(configuration.fetch(session, pipeline, notify=False), SETTINGS_TIMEOUT)
        except asyncio.TimeoutError:
            log.warning("no answer to workspace/configuration within %ss", SETTINGS_TIMEOUT)
        finally:
            pipeline.settings_arrived()
        await _register_capabilities(server, session)
        _when_analyses_are_done(session, start_index, INDEX_START_DELAY)

    @server.feature(types.SHUTDOWN)
    @guarded()
    def shutdown(params: None) -> None:
        session.stop()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    def did_change_workspace_folders(params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {uri_to_path(f.uri) for f in params.event.removed}
        added = [p for p in (uri_to_path(f.uri) for f in params.event.added) if p]
        session.roots = [r for r in session.roots if r not in removed] + [os.path.abspath(p) for p in added]
        session.resolver.workspace_root = session.roots[0] if session.roots else None
        with session.analyzer.lock:
            session.analyzer.project.roots = list(session.roots)
        if added:
            start_index(added)


def workspace_roots(params: types.InitializeParams) -> list[str]:
    roots = []
    for folder in params.workspace_folders or []:
        path = uri_to_path(folder.uri)
        if path:
            roots.append(path)
    if not roots and params.root_uri:
        path = uri_to_path(params.root_uri)
        if path:
            roots.append(path)
    if not roots and params.root_path:
        roots.append(params.root_path)
    return [os.path.abspath(r) for r in roots]


def index_run(session: Session, roots: list[str]) -> IndexRun:
    resolver, editor = session.resolver, session.editor  # as they are when the run starts
    return IndexRun(
        roots=list(roots),
        analyzer=session.analyzer,
        excludes_under=lambda root: list(resolver.resolve(os.path.join(root, "__init__.py"), editor).excludes),
        open_paths=lambda: [d.path for d in session.store if d.path],
        analysis_idle=session.worker.idle if session.worker is not None else None,
        stopped=lambda: session.stopped,
    )


def _when_analyses_are_done(session: Session, start: Callable[[], None], delay: float) -> None:
    """Start the workspace index once the documents opened with the editor are analysed.

    Indexing holds the engine (and the GIL: `ast.parse` of a big file never lets go of it) for
    tens of milliseconds per file; started at once, it would sit in front of the first
    didOpen's analysis, which is the one the user is waiting for.
    """
    loop = session.loop
    assert loop is not None

    def check() -> None:
        if session.stopped:
            return
        if session.worker is not None and not session.worker.idle.is_set():
            loop.call_later(0.05, check)
            return
        start()

    loop.call_later(delay, check)


async def _register_capabilities(server: LanguageServer, session: Session) -> None:
    """Watch the workspace's Python files and pyproject.toml, and hear of configuration changes,
    where the client lets the server register for them."""
    registrations = []
    if session.client.register_watched_files:
        watchers = [
            types.FileSystemWatcher(glob_pattern="**/*.py"),
            types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
        ]
        registrations.append(
            types.Registration(
                id="pallas-ls-watched-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
            )
        )
    if session.client.register_configuration:
        registrations.append(
            types.Registration(id="pallas-ls-configuration", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION)
        )
    if not registrations:
        return
    try:
        await server.client_register_capability_async(types.RegistrationParams(registrations=registrations))
    except Exception as exc:  # noqa: BLE001
        log.info("client/registerCapability failed: %s", exc)
