"""The server's state and the flow of one edit: document -> debounce -> worker -> diagnostics.

Everything in `Session` runs on the event loop thread except the job functions handed to the
workers, which only read a `Snapshot` and call the engine.  Results come back to the loop, where a
result for an older version (or older settings) than the document has now is dropped.

Diagnostics are pulled (`textDocument/diagnostic`) when the client can, otherwise pushed with the
document version.  A pull, a hover or a code action waits (cancellably) for the analysis of the
document's current version.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.uris import from_fs_path

from ..engine.analysis import ModuleAnalysis, analyze
from ..lint import run_rules
from ..engine.findings import Finding
from ..engine.project import UnreadableFile, read_file_bytes, set_max_file_size
from ..engine.source import Position, SourceFile
from . import actions
from .convert import (
    ClientFeatures, LineSource, diagnostic_from_json, finding_json, publish_diagnostics_body, visible_findings,
)
from .documents import Document, DocumentStore, uri_to_path
from .hover import describe_at, render
from .indexing import start_indexing
from .positions import UTF16
from .scheduler import Debouncer, Worker
from .settings import EditorSettings, SettingsResolver, parse_editor_settings
from .transport import send_body
from .workspace import Analyzer

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

CONFIG_SECTION = "pallas-ls"
WAIT_TIMEOUT = 60.0  # a request never waits longer than this for an analysis
SERVER_CANCELLED = types.LSPErrorCodes.ServerCancelled.value
INDEX_START_DELAY = 0.3  # seconds after `initialized`: editors open their visible documents first
# When a newly opened document's findings were known (and shown), its own analysis is not urgent:
# it waits this long, so that it does not hold the GIL while the loop answers the editor's requests
# around the open (a pull for those diagnostics, say), unless a request needs it sooner.
KNOWN_ANALYSIS_DELAY = 0.1
FIRST_LOOK_HANDOFF = 0.2  # seconds the worker waits for the loop to send a first look before going on
SETTINGS_TIMEOUT = 5.0  # how long analyses wait for the first workspace/configuration answer


@dataclass(frozen=True)
class Snapshot:
    """What one analysis job sees: a document's text at one version, under one settings generation."""

    uri: str
    path: str | None
    text: str
    version: int | None
    generation: int
    encoding: str
    editor: EditorSettings
    features: ClientFeatures
    open_texts: dict[str, str]
    # The document was just opened: publish the findings of its kernel slice before analysing the
    # whole file (engine/slicing.py), so a big file's first diagnostics do not wait for its parse.
    first_look: bool = False


@dataclass
class DocResult:
    uri: str
    version: int | None
    generation: int
    source: SourceFile
    analysis: ModuleAnalysis | None
    findings: list[Finding]  # the visible ones, parallel to `diagnostics_json`
    diagnostics_json: list[dict[str, Any]]  # LSP Diagnostics, as they are published
    dependents: set[str] = field(default_factory=set)
    warnings: tuple[str, ...] = ()
    stale: bool = False  # another file changed what this one's findings would be
    _in_string: frozenset[int] | None = None

    @functools.cached_property
    def diagnostics_text(self) -> str:
        """The diagnostics' JSON text, made once: published or pulled as is, and named by result_id."""
        return json.dumps(self.diagnostics_json)

    @functools.cached_property
    def result_id(self) -> str:
        """Names this version's diagnostics (pull clients send it back)."""
        digest = hashlib.blake2b(f"{self.version}:{self.diagnostics_text}".encode(), digest_size=12)
        return digest.hexdigest()

    @functools.cached_property
    def diagnostics(self) -> list[types.Diagnostic]:
        """The diagnostics as lsprotocol objects (made only when a request needs them)."""
        return [diagnostic_from_json(d) for d in self.diagnostics_json]

    @property
    def lines(self) -> LineSource:
        return LineSource(self.source)

    def lines_in_strings(self) -> frozenset[int]:
        if self._in_string is None:
            self._in_string = actions.lines_inside_strings(self.source.tree) if self.analysis else frozenset()
        return self._in_string


def _report_text(result: DocResult, previous_result_id: str | None) -> str:
    """A DocumentDiagnosticReport (lsprotocol's Related*DocumentDiagnosticReport) as JSON text."""
    if previous_result_id is not None and previous_result_id == result.result_id:
        return f'{{"kind": "unchanged", "resultId": "{result.result_id}"}}'
    return f'{{"kind": "full", "resultId": "{result.result_id}", "items": {result.diagnostics_text}}}'


def _other_text(snapshot: Snapshot, document: Document) -> bool:
    """The document was opened anew with other text at the snapshot's version (issue 15); the
    identity test makes the usual case (the same string) free."""
    return snapshot.text is not document.text and snapshot.text != document.text


def _is_python(document: Document) -> bool:
    return document.language_id in ("python", "") or bool(document.path and document.path.endswith((".py", ".pyi")))


class Session:
    def __init__(self, server: "LanguageServer") -> None:
        self.server = server
        self.store = DocumentStore()
        self.encoding = UTF16
        self.features = ClientFeatures()
        self.pull = False
        self.refresh_support = False
        self.document_changes = False
        self.markdown_hover = True
        self.work_done_progress = False
        self.configuration_support = False
        self.init_options: Any = None
        self.config_section: Any = None
        self.editor = EditorSettings()
        self.generation = 0
        self.resolver = SettingsResolver()
        self.analyzer = Analyzer()
        self.roots: list[str] = []
        self.results: dict[str, DocResult] = {}
        self.first_looks: dict[str, DocResult] = {}  # published before the whole analysis (see Snapshot)
        self.not_urgent: set[str] = set()  # analyses delayed by KNOWN_ANALYSIS_DELAY, not yet submitted
        # Futures waiting for a document's analysis; True: a first look will do (a pull).
        self.waiters: dict[str, list[tuple[asyncio.Future, bool]]] = {}
        self.in_flight: dict[str, Snapshot] = {}
        self.shown_warnings: set[str] = set()
        self.settings_warnings: set[str] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.worker: Worker | None = None
        self.background: Worker | None = None
        self.debouncer: Debouncer | None = None
        self.stopped = False
        self.index_done = False
        self.index_count = 0
        # Until the first workspace/configuration answer, analyses wait (so the first diagnostics
        # already follow the editor's settings); `deferred` holds the documents that waited.
        self.settings_ready = True
        self.deferred: set[str] = set()
        self.changed_at: dict[str, float] = {}  # for the debug log of edit latency

    # ------------------------------------------------------------------------- lifecycle
    def _ensure_runtime(self) -> None:
        if self.loop is None:
            self.loop = asyncio.get_event_loop()
            self.worker = Worker(self.loop, "pallas-ls-analysis")
            self.background = Worker(self.loop, "pallas-ls-index")
            self.debouncer = Debouncer(self.loop)

    def initialize(self, params: types.InitializeParams, encoding: str) -> None:
        self._ensure_runtime()
        caps = params.capabilities
        self.encoding = encoding
        self.features = ClientFeatures.from_capabilities(caps)
        td = caps.text_document
        ws = caps.workspace
        self.pull = bool(td and td.diagnostic is not None)
        self.refresh_support = bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)
        self.document_changes = bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)
        formats = td.hover.content_format if td and td.hover and td.hover.content_format else None
        self.markdown_hover = formats is None or types.MarkupKind.Markdown in formats
        self.work_done_progress = bool(caps.window and caps.window.work_done_progress)
        self.configuration_support = bool(ws and ws.configuration)
        self.roots = self._roots(params)
        self.resolver.workspace_root = self.roots[0] if self.roots else None
        self.analyzer = Analyzer(self.roots)
        self.init_options = params.initialization_options
        self.settings_ready = not self.configuration_support
        self._apply_settings(notify=False)
        log.info(
            "initialized: encoding=%s diagnostics=%s roots=%d debounce=%gms",
            self.encoding, "pull" if self.pull else "push", len(self.roots), self.editor.debounce_ms,
        )

    @staticmethod
    def _roots(params: types.InitializeParams) -> list[str]:
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

    async def initialized(self) -> None:
        try:
            if self.configuration_support:
                await asyncio.wait_for(self.fetch_configuration(notify=False), SETTINGS_TIMEOUT)
        except asyncio.TimeoutError:
            log.warning("no answer to workspace/configuration within %ss", SETTINGS_TIMEOUT)
        finally:
            self._settings_arrived()
        await self._register_watchers()
        self._index_when_quiet(INDEX_START_DELAY)

    def _settings_arrived(self) -> None:
        if self.settings_ready:
            return
        self.settings_ready = True
        for uri in sorted(self.deferred):
            self.schedule(uri, 0)
        self.deferred.clear()

    def shutdown(self) -> None:
        self.stopped = True
        for worker in (self.worker, self.background):
            if worker is not None:
                worker.stop()
        for futures in self.waiters.values():
            for future, _ in futures:
                if not future.done():
                    future.set_result(None)
        self.waiters.clear()

    # -------------------------------------------------------------------------- settings
    def _apply_settings(self, notify: bool = True) -> None:
        editor, warnings = parse_editor_settings(self.init_options, self.config_section)
        self.editor = editor
        set_max_file_size(editor.overrides.get("max_file_size"))  # `maxFileSize` (issue 15)
        for warning in warnings:
            if warning not in self.settings_warnings:  # each problem once, until it is fixed
                self.show_warning(f"pallas-ls settings: {warning}; using the default for it", once=False)
        self.settings_warnings = set(warnings)
        if notify:
            self.settings_changed()

    def settings_changed(self) -> None:
        """Settings (editor or pyproject) changed: analyse every open document again."""
        self.generation += 1
        for result in self.results.values():
            result.stale = True
        for document in self.store:
            self.schedule(document.uri, 0)
        self._refresh_pulled()

    async def fetch_configuration(self, notify: bool = True) -> None:
        try:
            values = await self.server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=CONFIG_SECTION)])
            )
        except Exception as exc:  # noqa: BLE001 - a client that cannot answer keeps the old settings
            log.warning("workspace/configuration failed: %s", exc)
            return
        section = values[0] if values else None
        if section != self.config_section:
            self.config_section = section
            self._apply_settings(notify=notify)

    def did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        if self.configuration_support:
            asyncio.ensure_future(self.fetch_configuration())
            return
        settings = params.settings
        if isinstance(settings, dict) and CONFIG_SECTION in settings:
            settings = settings[CONFIG_SECTION]
        self.config_section = settings
        self._apply_settings()

    def show_warning(self, message: str, once: bool = True) -> None:
        if once:
            if message in self.shown_warnings:
                return
            self.shown_warnings.add(message)
        log.warning("%s", message)
        try:
            self.server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        except Exception:  # noqa: BLE001
            log.exception("cannot show a message")

    async def _register_watchers(self) -> None:
        caps = self.server.client_capabilities
        ws = caps.workspace if caps else None
        registrations = []
        if ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration:
            registrations.append(
                types.Registration(
                    id="pallas-ls-watched-files",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(
                        watchers=[
                            types.FileSystemWatcher(glob_pattern="**/*.py"),
                            types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                        ]
                    ),
                )
            )
        if ws and ws.did_change_configuration and ws.did_change_configuration.dynamic_registration:
            registrations.append(
                types.Registration(id="pallas-ls-configuration", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION)
            )
        if not registrations:
            return
        try:
            await self.server.client_register_capability_async(types.RegistrationParams(registrations=registrations))
        except Exception as exc:  # noqa: BLE001
            log.info("client/registerCapability failed: %s", exc)

    # ------------------------------------------------------------------------- documents
    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self._ensure_runtime()
        # Issue 15: a didOpen supersedes whatever was known of its URI, whatever its version (a
        # close and reopen with other text at version 1, or a second didOpen, used to be answered
        # with the old text's findings, which had the same version number).
        self._forget(params.text_document.uri)
        document = self.store.open(params.text_document)
        if _is_python(document):
            if self._show_known_findings(document):
                self.not_urgent.add(document.uri)
                self.schedule(document.uri, KNOWN_ANALYSIS_DELAY)
            else:
                self.schedule(document.uri, 0)

    def _show_known_findings(self, document: Document) -> bool:
        """Publish at once, from the loop, the findings of a newly opened text that the engine
        already knows (the file was analysed while indexing, or was open before with this text).
        The whole analysis still follows, like after a first look, and is published only if it
        differs (it cannot, unless the engine was wrong about knowing)."""
        if self.stopped or not self.settings_ready or not document.path or self.loop is None:
            return False
        findings = self.analyzer.known_findings(document.path, document.text)
        if findings is None:
            return False
        snapshot = self._snapshot(document)
        settings = self.resolver.resolve(snapshot.path, snapshot.editor)
        if settings.is_excluded(snapshot.path):
            return False
        result = self._result_of(snapshot, settings, SourceFile.from_text(snapshot.text, snapshot.path), None,
                                 findings, set())
        self.first_looks[document.uri] = result
        log.debug("%s: %d findings known without an analysis", os.path.basename(document.path), len(result.findings))
        if not self.pull:
            self.publish(document.uri, document.version, result.diagnostics_text)
        return True

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        document = self.store.change(params, self.encoding)
        if document is None:
            log.warning("didChange for a document that is not open")
            return
        if _is_python(document):
            self.changed_at[document.uri] = time.perf_counter()
            self.schedule(document.uri, self.editor.debounce_ms / 1000.0)

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = self.store.close(uri)
        self._forget(uri)
        if not self.pull and document is not None:  # a document never opened had nothing published
            self.publish(uri, None, "[]")
        if document is not None and document.path and self.analyzer.project is not None:
            path = document.path
            self.run_background(partial(self.analyzer.close_document, path), self._refresh_paths)

    def _forget(self, uri: str) -> None:
        """Drop every result, pending analysis and waiter of `uri` (closed, or opened anew)."""
        if self.debouncer is not None:
            self.debouncer.cancel(uri)
        if self.worker is not None:
            self.worker.discard(uri)
        self.in_flight.pop(uri, None)
        self.deferred.discard(uri)
        self.changed_at.pop(uri, None)
        self.results.pop(uri, None)
        self.first_looks.pop(uri, None)
        self.not_urgent.discard(uri)
        for future, _ in self.waiters.pop(uri, []):
            if not future.done():
                future.set_result(None)

    def did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        # The buffer was already analysed as the overlay of its file; other files' launch sites
        # are unchanged.  Nothing to do beyond keeping the documents current.
        return

    def did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        settings_changed = False
        for change in params.changes:
            path = uri_to_path(change.uri)
            if not path:
                continue
            if os.path.basename(path) == "pyproject.toml":
                settings_changed = True
                continue
            if not path.endswith(".py") or self.store.by_path(path) is not None:
                continue  # an open document's buffer wins over the file on disk
            deleted = change.type == types.FileChangeType.Deleted
            self.run_background(partial(self.analyzer.file_changed, path, deleted), self._refresh_paths)
        if settings_changed:
            self.resolver.invalidate()
            self.settings_changed()

    # ------------------------------------------------------------------------- analysis
    def schedule(self, uri: str, delay: float) -> None:
        if self.stopped or self.debouncer is None:
            return
        if not self.settings_ready:
            self.deferred.add(uri)
            return
        self.debouncer.schedule(uri, delay, partial(self._submit, uri))

    def _submit(self, uri: str) -> None:
        self.not_urgent.discard(uri)
        document = self.store.get(uri)
        if document is None or self.worker is None:
            return
        snapshot = self._snapshot(document, first_look=uri not in self.results and uri not in self.first_looks)
        self.in_flight[uri] = snapshot
        if log.isEnabledFor(logging.DEBUG) and uri in self.changed_at:
            log.debug("v%s submitted %.1f ms after its change", document.version,
                      (time.perf_counter() - self.changed_at[uri]) * 1000)
        self.worker.submit(uri, partial(self._analyze, snapshot), partial(self._finished, snapshot))

    def _snapshot(self, document: Document, first_look: bool = False) -> Snapshot:
        return Snapshot(
            uri=document.uri,
            path=document.path,
            text=document.text,
            version=document.version,
            generation=self.generation,
            encoding=self.encoding,
            editor=self.editor,
            features=self.features,
            open_texts=self.store.texts_by_path(),
            first_look=first_look,
        )

    def _analyze(self, snapshot: Snapshot) -> DocResult:
        """Runs on the analysis worker."""
        started = time.perf_counter()
        settings = self.resolver.resolve(snapshot.path, snapshot.editor)
        if settings.is_excluded(snapshot.path):
            source = SourceFile.from_text(snapshot.text, snapshot.path)
            analysis, findings, dependents = None, [], set()
        else:
            if snapshot.first_look:
                self._take_first_look(snapshot, settings)
            outcome = self.analyzer.analyze_document(snapshot.path, snapshot.text)
            analysis, findings, dependents = outcome.analysis, outcome.findings, outcome.dependents
            source = analysis.source if analysis is not None else SourceFile.from_text(snapshot.text, snapshot.path)
        result = self._result_of(snapshot, settings, source, analysis, findings, dependents)
        log.debug(
            "analysed %s v%s: %d findings in %.1f ms",
            os.path.basename(snapshot.path or snapshot.uri), snapshot.version, len(result.findings),
            (time.perf_counter() - started) * 1000,
        )
        return result

    def _take_first_look(self, snapshot: Snapshot, settings: Any) -> None:
        """Runs on the analysis worker: hand the kernel slice's findings to the loop, and let it
        publish them before the whole analysis takes the GIL (`ast.parse` never lets go of it)."""
        started = time.perf_counter()
        findings = self.analyzer.first_look(snapshot.path, snapshot.text)
        if findings is None or self.loop is None:
            return
        source = SourceFile.from_text(snapshot.text, snapshot.path)
        result = self._result_of(snapshot, settings, source, None, findings, set())
        log.debug("first look at %s: %d findings in %.1f ms", os.path.basename(snapshot.path or snapshot.uri),
                  len(result.findings), (time.perf_counter() - started) * 1000)
        published = threading.Event()
        try:
            self.loop.call_soon_threadsafe(self._first_look_ready, snapshot, result, published)
        except RuntimeError:  # the loop is closed: the server is exiting
            return
        published.wait(FIRST_LOOK_HANDOFF)

    def _first_look_ready(self, snapshot: Snapshot, result: DocResult, published: threading.Event) -> None:
        """Back on the loop: publish (or answer waiting pulls with) the first look's diagnostics."""
        try:
            document = self.store.get(snapshot.uri)
            current = self.results.get(snapshot.uri)
            if (document is None or document.version != snapshot.version or snapshot.generation != self.generation
                    or _other_text(snapshot, document)
                    or (current is not None and current.version == snapshot.version)):
                return
            self.first_looks[snapshot.uri] = result
            if not self.pull:
                self.publish(snapshot.uri, snapshot.version, result.diagnostics_text)
            elif self.refresh_support:  # a pull answered now can be corrected by a refresh later
                for future, first_look_ok in self.waiters.get(snapshot.uri, []):
                    if first_look_ok and not future.done():
                        future.set_result(result)
        finally:
            published.set()

    def _result_of(self, snapshot: Snapshot, settings: Any, source: SourceFile, analysis: ModuleAnalysis | None,
                   findings: list[Finding], dependents: set[str]) -> DocResult:
        """Findings -> the client's diagnostics (visible ones only, positions in its encoding)."""
        visible = visible_findings(findings, settings)
        lines = LineSource(source)
        other_lines: dict[str | None, LineSource | None] = {}

        def related_lines(path: str | None) -> LineSource | None:
            if path is None or (snapshot.path and os.path.abspath(path) == os.path.abspath(snapshot.path)):
                return lines
            if path not in other_lines:
                text = snapshot.open_texts.get(path)
                if text is None:
                    try:  # a regular file within the size limit only (issue 15)
                        text = read_file_bytes(path).decode("utf-8")
                    except (OSError, UnicodeDecodeError, UnreadableFile):
                        text = None
                other_lines[path] = LineSource(SourceFile.from_text(text, path)) if text is not None else None
            return other_lines[path]

        def related_uri(path: str | None) -> str:
            if path is None or (snapshot.path and os.path.abspath(path) == os.path.abspath(snapshot.path)):
                return snapshot.uri
            return from_fs_path(path) or snapshot.uri

        diagnostics = [
            finding_json(
                finding,
                lines,
                snapshot.encoding,
                uri=snapshot.uri,
                version=snapshot.version,
                severity=settings.rules.severity_for(finding.code, finding.severity),
                related_uri=related_uri,
                related_lines=related_lines,
                features=snapshot.features,
            )
            for finding in visible
        ]
        return DocResult(
            uri=snapshot.uri,
            version=snapshot.version,
            generation=snapshot.generation,
            source=source,
            analysis=analysis,
            findings=visible,
            diagnostics_json=diagnostics,
            dependents=dependents,
            warnings=settings.warnings,
        )

    def _finished(self, snapshot: Snapshot, result: DocResult | None, error: BaseException | None) -> None:
        """Back on the loop: keep the result if it is still current, then publish it."""
        if self.in_flight.get(snapshot.uri) is snapshot:
            del self.in_flight[snapshot.uri]
        document = self.store.get(snapshot.uri)
        if (document is None or document.version != snapshot.version or snapshot.generation != self.generation
                or _other_text(snapshot, document)):
            log.debug("dropped a stale result for version %s", snapshot.version)
            return
        if error is not None or result is None:
            log.error("analysis failed: %s: %s", type(error).__name__, error, exc_info=error)
            source = SourceFile.from_text(snapshot.text, snapshot.path)
            result = DocResult(snapshot.uri, snapshot.version, snapshot.generation, source, None, [], [])
        for warning in result.warnings:
            self.show_warning(warning)
        previous = self.results.get(snapshot.uri)
        self.results[snapshot.uri] = result
        for future, _ in self.waiters.pop(snapshot.uri, []):
            if not future.done():
                future.set_result(result)
        # What the client holds: the first look's diagnostics, if they were sent, else the last result's.
        first_look = self.first_looks.pop(snapshot.uri, None)
        shown = first_look if first_look is not None and first_look.version == snapshot.version else previous
        unchanged = shown is not None and shown.result_id == result.result_id
        if not self.pull and not unchanged:
            self.publish(snapshot.uri, snapshot.version, result.diagnostics_text)
        if self.pull and shown is first_look and first_look is not None and not unchanged:
            self._refresh_pulled()  # the first look missed something (a syntax error outside its slice)
        if log.isEnabledFor(logging.DEBUG) and snapshot.uri in self.changed_at:
            log.debug("v%s done %.1f ms after its change", snapshot.version,
                      (time.perf_counter() - self.changed_at[snapshot.uri]) * 1000)
        # Kernels this file launches (now or before the edit) may have changed their findings.
        affected = result.dependents | (previous.dependents if previous is not None else set())
        if affected:
            self._refresh_paths(affected, exclude=snapshot.uri)

    def publish(self, uri: str, version: int | None, diagnostics_text: str) -> None:
        """Send diagnostics (the JSON text of a list of them, see DocResult.diagnostics_text) for `uri`."""
        try:
            # JSON text straight to the writer: pygls' notify() would convert with cattrs, which
            # costs more than the rest of a small file's analysis-to-screen path.
            send_body(self.server.protocol, publish_diagnostics_body(uri, version, diagnostics_text))
        except Exception:  # noqa: BLE001
            log.exception("cannot publish diagnostics")

    def _refresh_paths(self, paths: Any, error: BaseException | None = None, exclude: str | None = None) -> None:
        """Re-analyse the open documents among `paths` (files whose findings another file changed)."""
        if error is not None:
            log.error("background work failed: %s", error, exc_info=error)
            return
        wanted = {os.path.abspath(p) for p in (paths or ())}
        touched = False
        for document in self.store:
            if document.uri == exclude or not document.path or os.path.abspath(document.path) not in wanted:
                continue
            if document.uri in self.results:
                self.results[document.uri].stale = True
            self.schedule(document.uri, self.editor.debounce_ms / 1000.0)
            touched = True
        if touched:
            self._refresh_pulled()

    def _refresh_pulled(self) -> None:
        if self.pull and self.refresh_support:
            try:
                self.server.workspace_diagnostic_refresh(None)
            except Exception:  # noqa: BLE001
                log.exception("workspace/diagnostic/refresh failed")

    def run_background(self, job: Callable[[], Any], callback: Callable[[Any, BaseException | None], None]) -> None:
        if self.background is not None and not self.stopped:
            self.background.submit(object(), job, callback)

    async def run_in_worker(self, job: Callable[[], Any]) -> Any:
        """Run a job on the analysis worker and await its result (cancellable)."""
        assert self.loop is not None and self.worker is not None
        future: asyncio.Future = self.loop.create_future()

        def done(result: Any, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        self.worker.submit(object(), job, done)
        return await future

    def _fresh(self, result: DocResult | None, document: Document) -> bool:
        return (
            result is not None
            and result.version == document.version
            and result.generation == self.generation
            and not result.stale
        )

    def _ready_result(self, uri: str, document: Document, first_look_ok: bool) -> DocResult | None:
        """The result of the document's current version if there is one now (or its first look,
        when that will do)."""
        result = self.results.get(uri)
        if self._fresh(result, document):
            return result
        first_look = self.first_looks.get(uri)
        if first_look_ok and first_look is not None and first_look.version == document.version:
            return first_look
        return None

    async def current_result(self, uri: str, first_look_ok: bool = False) -> DocResult | None:
        """The analysis of the document's current version (waiting for it if needed).

        `first_look_ok`: the first look's result will do (diagnostics only; see Snapshot)."""
        document = self.store.get(uri)
        if document is None or not _is_python(document) or self.loop is None:
            return None
        ready = self._ready_result(uri, document, first_look_ok)
        if ready is not None:
            return ready
        if uri in self.not_urgent:
            self.schedule(uri, 0)  # it is urgent now
        if not (self.debouncer and self.debouncer.pending(uri)) and uri not in self.in_flight:
            self.schedule(uri, 0)
        future: asyncio.Future = self.loop.create_future()
        waiter = (future, first_look_ok and self.refresh_support)
        self.waiters.setdefault(uri, []).append(waiter)
        try:
            return await asyncio.wait_for(future, WAIT_TIMEOUT)
        except asyncio.TimeoutError:
            log.error("no analysis result within %ss", WAIT_TIMEOUT)
            return self.results.get(uri)
        finally:
            waiting = self.waiters.get(uri)
            if waiting and waiter in waiting:
                waiting.remove(waiter)

    # ---------------------------------------------------------------------- pull requests
    async def document_diagnostic(self, params: types.DocumentDiagnosticParams):
        uri = params.text_document.uri
        result = await self.current_result(uri, first_look_ok=self.refresh_support)
        document = self.store.get(uri)
        if document is not None and _is_python(document) and not self.stopped and (
                result is None or result.version != document.version):
            # No analysis of this version in time: never answer with another version's findings
            # (their positions are wrong) nor with none; the client asks again.
            raise JsonRpcException("the analysis of this version is not ready", SERVER_CANCELLED,
                                   {"retriggerRequest": True})
        if result is None:
            return {"kind": "full", "items": []}
        return json.loads(_report_text(result, params.previous_result_id))  # one way to write a report

    def diagnostic_report_at_once(self, params: Any) -> str | None:
        """The answer to a `textDocument/diagnostic` request (its params as JSON) when it is ready
        now, without pygls' request machinery: a result of the document's current version (or its
        first look, as `document_diagnostic` would use it).  None: take the usual way."""
        document = params.get("textDocument") if type(params) is dict else None
        uri = document.get("uri") if type(document) is dict else None
        previous = params.get("previousResultId") if uri is not None else None
        if type(uri) is not str or not (previous is None or type(previous) is str) or self.stopped:
            return None
        document = self.store.get(uri)
        if document is None or not _is_python(document):
            return None
        result = self._ready_result(uri, document, first_look_ok=self.refresh_support)
        return _report_text(result, previous) if result is not None else None

    # ---------------------------------------------------------------------------- hover
    async def hover(self, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        document = self.store.get(uri)
        if document is None:
            return None
        result = await self.current_result(uri)
        if result is None or result.analysis is None or result.version != document.version:
            return None
        line, column = document.code_point_position(params.position, self.encoding)
        if line == 0 and result.source.had_bom:
            column = max(column - 1, 0)
        info = describe_at(result.analysis, Position(line, column))
        if info is None:
            return None
        kind = types.MarkupKind.Markdown if self.markdown_hover else types.MarkupKind.PlainText
        return types.Hover(
            contents=types.MarkupContent(kind=kind, value=render(info, self.markdown_hover)),
            range=result.lines.range(info.range, self.encoding),
        )

    # ----------------------------------------------------------------------- code actions
    async def code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        document = self.store.get(uri)
        if document is None:
            return None
        only = params.context.only
        want_quickfix = actions.kind_requested(actions.QUICKFIX, only)
        want_fix_all = actions.kind_requested(actions.FIX_ALL, only)
        if not (want_quickfix or want_fix_all):
            return None
        # Quick fixes only need the analysis of this version (whatever settings changed since);
        # wait for one only when there is none yet.
        result = self.results.get(uri)
        if result is None or result.version != document.version or want_fix_all:
            result = await self.current_result(uri)
        document = self.store.get(uri)
        if result is None or document is None or result.version != document.version:
            return None
        found: list[types.CodeAction] = []
        if want_quickfix:
            for diagnostic in params.context.diagnostics:
                if actions.diagnostic_is_ours(diagnostic):
                    found += self._quick_fixes(result, diagnostic)
        if want_fix_all:
            action = await self._fix_all(result)
            if action is not None:
                found.append(action)
        return found

    def _quick_fixes(self, result: DocResult, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        data = diagnostic.data
        fixes = None
        if isinstance(data, dict) and data.get("version") == result.version:
            fixes = actions.fixes_from_data(data)
        if fixes is None:  # no data (the client dropped it): find our own copy of the diagnostic
            own = self._own_diagnostic(result, diagnostic)
            if own is None:
                return []  # a diagnostic from an older version: its fixes would be misplaced
            fixes = actions.fixes_from_data(own.data) or []
        found = actions.quick_fix_actions(result.uri, result.version, diagnostic, fixes, self.document_changes)
        if not any(actions.is_disable_fix(fix.title) for fix in fixes):
            action = actions.disable_action(
                result.uri, result.version, diagnostic, result.lines, diagnostic.range.start.line,
                result.lines_in_strings(), self.encoding, self.document_changes,
            )
            if action is not None:
                found.append(action)
        return found

    @staticmethod
    def _own_diagnostic(result: DocResult, diagnostic: types.Diagnostic) -> types.Diagnostic | None:
        for own in result.diagnostics:
            if own.code == diagnostic.code and own.range == diagnostic.range:
                return own
        return None

    async def _fix_all(self, result: DocResult) -> types.CodeAction | None:
        if not any(actions.preferred_safe_fix(f) for f in result.findings):
            return None
        editor, path = self.editor, result.source.path

        def reanalyze(text: str) -> list[Finding]:
            settings = self.resolver.resolve(path, editor)
            return visible_findings(run_rules(analyze(SourceFile.from_text(text, path))), settings)

        new_text = await self.run_in_worker(partial(actions.fix_all_text, result.source, result.findings, reanalyze))
        document = self.store.get(result.uri)
        if new_text is None or document is None or document.version != result.version:
            return None
        edit = actions.minimal_edit(result.lines, result.source.text, new_text, self.encoding)
        return types.CodeAction(
            title="pallas-ls: Fix all auto-fixable problems",
            kind=actions.FIX_ALL,
            edit=actions.workspace_edit(result.uri, result.version, [edit], self.document_changes),
        )

    def did_change_workspace_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {uri_to_path(f.uri) for f in params.event.removed}
        added = [p for p in (uri_to_path(f.uri) for f in params.event.added) if p]
        self.roots = [r for r in self.roots if r not in removed] + [os.path.abspath(p) for p in added]
        self.resolver.workspace_root = self.roots[0] if self.roots else None
        project = self.analyzer.project
        if project is not None:
            with self.analyzer.lock:
                project.roots = list(self.roots)
        if added:
            self.start_indexing(added)

    # -------------------------------------------------------------------- workspace index
    def start_indexing(self, roots: list[str] | None = None) -> None:
        start_indexing(self, roots)

    def _index_when_quiet(self, delay: float) -> None:
        """Start the workspace index once the documents opened with the editor are analysed.

        Indexing holds the engine (and the GIL: `ast.parse` of a big file never lets go of it) for
        tens of milliseconds per file; started at once, it would sit in front of the first
        didOpen's analysis, which is the one the user is waiting for.
        """
        def check() -> None:
            if self.stopped:
                return
            if self.worker is not None and not self.worker.idle.is_set():
                self.loop.call_later(0.05, check)  # type: ignore[union-attr]
                return
            self.start_indexing()

        assert self.loop is not None
        self.loop.call_later(delay, check)
