"""The diagnostics pipeline: an edit -> (debounce) -> an analysis on the worker -> diagnostics
published (push) or kept for the client's pulls, and the files whose findings it changed analysed
again.

On the loop: `schedule`, `_submit`, `_finished`, publishing and the requests' `current_result`.
On the analysis worker: `_analyze` (it reads only its `Snapshot`, and calls the engine).  A result
for an older version, older settings or another text than the document has now is dropped.

One special case earns its place on the open path: a big file's **kernel slice first**.  Opening
jax's 5.4k-line Mosaic lowering, the whole analysis takes ~120 ms on a quiet machine against ruff
server's ~21 ms to first diagnostics; the slice's findings (engine/slicing.py) are there in ~11 ms.
Without it, didOpen -> first diagnostics went from 54 ms to 1017 ms (medians of interleaved runs on
a machine at load ~10, issue 19).  So they are published (or answer a waiting pull, when the client
can be told to pull again) before the whole analysis, which follows and is sent only if it differs.
Below FIRST_LOOK_MIN_CHARS (engine/open_documents.py) there is no slice to take.  The other open-path
special cases did not pay for themselves and are gone (README, Performance).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from ..engine.cancel import Cancelled
from ..engine.files import text_too_large
from ..engine.source import SourceFile
from .convert import publish_diagnostics_body
from .documents import Document
from .notebooks import split_diagnostics
from .results import DocResult, Snapshot, result_of
from .session import Session
from .settings import EffectiveSettings
from .transport import send_body

log = logging.getLogger(__name__)

WAIT_TIMEOUT = 60.0  # a request never waits longer than this for an analysis
# Seconds the worker waits for the loop to send a kernel slice's findings before it goes on with the
# whole analysis, which holds the GIL (`ast.parse` of a big file never lets go of it).
FIRST_LOOK_HANDOFF = 0.2


class Pipeline:
    def __init__(self, session: Session) -> None:
        self.session = session

    # ------------------------------------------------------------------------ scheduling
    def schedule(self, uri: str, delay: float) -> None:
        session = self.session
        if session.stopped or session.debouncer is None:
            return
        if not session.settings_ready:
            session.doc(uri).waits_for_settings = True
            return
        session.debouncer.schedule(uri, delay, partial(self._submit, uri))

    def schedule_after_edit(self, uri: str) -> None:
        self.schedule(uri, self.session.editor.debounce_ms / 1000.0)

    def schedule_open_documents(self) -> None:
        for document in self.session.store:
            self.schedule(document.uri, 0)

    def settings_arrived(self) -> None:
        """The first settings are in: analyse the documents that waited for them."""
        session = self.session
        if session.settings_ready:
            return
        session.settings_ready = True
        for uri in sorted(uri for uri, state in session.docs.items() if state.waits_for_settings):
            session.docs[uri].waits_for_settings = False
            self.schedule(uri, 0)

    def _submit(self, uri: str) -> None:
        session = self.session
        document = session.store.get(uri)
        if document is None or session.worker is None:
            return
        state = session.doc(uri)
        snapshot = self._snapshot(document, first_look=state.result is None and state.first_look is None)
        # Cancel the running analysis only when its result would be dropped as stale (another
        # version, text or settings); a refresh of the same version lets it finish.
        previous = state.in_flight
        stale = previous is not None and (
            previous.version != snapshot.version
            or previous.generation != snapshot.generation
            or not previous.same_text_as(snapshot.text)
        )
        state.in_flight = snapshot
        if log.isEnabledFor(logging.DEBUG) and state.changed_at is not None:
            log.debug(
                "v%s submitted %.1f ms after its change",
                document.version,
                (time.perf_counter() - state.changed_at) * 1000,
            )
        cancel = threading.Event()  # set by the worker when a newer job for `uri` comes in (issue 16)
        session.worker.submit(
            uri,
            partial(self._analyze, snapshot, cancel.is_set),
            partial(self._finished, snapshot),
            cancel,
            cancel_running=stale,
        )

    def _snapshot(self, document: Document, first_look: bool = False) -> Snapshot:
        session = self.session
        return Snapshot(
            uri=document.uri,
            path=document.path,
            text=document.text,
            version=document.version,
            generation=session.generation,
            encoding=session.encoding,
            editor=session.editor,
            features=session.client.diagnostics,
            open_texts=session.store.texts_by_path(),
            first_look=first_look,
        )

    # ------------------------------------------------------------------ on the worker
    def _analyze(self, snapshot: Snapshot, should_stop: Callable[[], bool] | None = None) -> DocResult:
        started = time.perf_counter()
        analyzer = self.session.analyzer
        settings = self.session.resolver.resolve(snapshot.path, snapshot.editor)
        too_large = text_too_large(snapshot.text)
        if settings.is_excluded(snapshot.path) or too_large is not None:
            source = SourceFile.from_text(snapshot.text, snapshot.path)
            analysis, dependents = None, set()
            findings = [] if too_large is None else [too_large.finding(snapshot.path)]
        else:
            if snapshot.first_look:
                self._take_first_look(snapshot, settings)
            outcome = analyzer.analyze_document(snapshot.path, snapshot.text, should_stop)
            analysis, findings, dependents = outcome.analysis, outcome.findings, outcome.dependents
            source = analysis.source if analysis is not None else SourceFile.from_text(snapshot.text, snapshot.path)
        result = result_of(snapshot, settings, source, analysis, findings, dependents)
        log.debug(
            "analysed %s v%s: %d findings in %.1f ms",
            os.path.basename(snapshot.path or snapshot.uri),
            snapshot.version,
            len(result.findings),
            (time.perf_counter() - started) * 1000,
        )
        return result

    def _take_first_look(self, snapshot: Snapshot, settings: EffectiveSettings) -> None:
        """Hand the kernel slice's findings to the loop, and let it send them before the whole
        analysis takes the GIL."""
        started = time.perf_counter()
        loop = self.session.loop
        findings = self.session.analyzer.first_look(snapshot.path, snapshot.text)
        if findings is None or loop is None:
            return
        source = SourceFile.from_text(snapshot.text, snapshot.path)
        result = result_of(snapshot, settings, source, None, findings, set())
        log.debug(
            "first look at %s: %d findings in %.1f ms",
            os.path.basename(snapshot.path or snapshot.uri),
            len(result.findings),
            (time.perf_counter() - started) * 1000,
        )
        sent = threading.Event()
        try:
            loop.call_soon_threadsafe(self._first_look_ready, snapshot, result, sent)
        except RuntimeError:  # the loop is closed: the server is exiting
            return
        sent.wait(FIRST_LOOK_HANDOFF)

    # ---------------------------------------------------------------------- on the loop
    def _current(self, snapshot: Snapshot) -> Document | None:
        """The document, if `snapshot` is still of its current version, settings and text."""
        document = self.session.store.get(snapshot.uri)
        if (
            document is None
            or document.version != snapshot.version
            or snapshot.generation != self.session.generation
            or not snapshot.same_text_as(document.text)
        ):
            return None
        return document

    def _first_look_ready(self, snapshot: Snapshot, result: DocResult, sent: threading.Event) -> None:
        """Publish (or answer waiting pulls with) the kernel slice's diagnostics."""
        try:
            state = self.session.docs.get(snapshot.uri)
            if (
                self._current(snapshot) is None
                or state is None
                or (state.result is not None and state.result.version == snapshot.version)
            ):
                return
            state.first_look = result
            client = self.session.client
            if not client.pull_diagnostics:
                self.publish(snapshot.uri, snapshot.version, result.diagnostics_text)
            elif client.diagnostic_refresh:  # a pull answered now can be corrected by a refresh later
                for future, first_look_ok in state.waiters:
                    if first_look_ok and not future.done():
                        future.set_result(result)
        finally:
            sent.set()

    def _finished(self, snapshot: Snapshot, result: DocResult | None, error: BaseException | None) -> None:
        """Keep the result if it is still current, then publish it."""
        session = self.session
        state = session.docs.get(snapshot.uri)
        if state is not None and state.in_flight is snapshot:
            state.in_flight = None
        if isinstance(error, Cancelled):  # a newer job for this document replaced it: no result
            log.debug("cancelled the analysis of version %s", snapshot.version)
            return
        if self._current(snapshot) is None or state is None:
            log.debug("dropped a stale result for version %s", snapshot.version)
            return
        if error is not None or result is None:
            log.error("analysis failed: %s: %s", type(error).__name__, error, exc_info=error)
            result = DocResult.empty(snapshot)
        for warning in result.warnings:
            session.show_warning(warning)
        previous, state.result = state.result, result
        state.wake(result)
        self._send_if_changed(snapshot, result, previous, state.first_look)
        state.first_look = None
        if log.isEnabledFor(logging.DEBUG) and state.changed_at is not None:
            log.debug(
                "v%s done %.1f ms after its change", snapshot.version, (time.perf_counter() - state.changed_at) * 1000
            )
        # Kernels this file launches (now or before the edit) may have changed their findings.
        affected = result.dependents | (previous.dependents if previous is not None else set())
        if affected:
            self.refresh_paths(affected, exclude=snapshot.uri)

    def _send_if_changed(
        self, snapshot: Snapshot, result: DocResult, previous: DocResult | None, first_look: DocResult | None
    ) -> None:
        """Push the result unless the client holds the same diagnostics already (the first look's,
        if they were sent, else the last result's); a pull client is asked to pull again when its
        first look missed something (a syntax error outside the slice)."""
        sent_first = first_look is not None and first_look.version == snapshot.version
        shown = first_look if sent_first else previous
        if shown is not None and shown.result_id == result.result_id:
            return
        if not self.session.client.pull_diagnostics:
            self.publish(snapshot.uri, snapshot.version, result.diagnostics_text)
        elif sent_first or snapshot.uri in self.session.notebooks or self.session.editor.run_on_save:
            # (With `run = "onSave"` the client pulled before the save's analysis was done.)
            # A notebook's cells are pulled one by one: an edit in one cell (a launch) can change
            # another's findings (its kernel), which the client would not pull again by itself.
            self.refresh_pulled()

    def publish(self, uri: str, version: int | None, diagnostics_text: str) -> None:
        """Send diagnostics (the JSON text of a list of them, see DocResult.diagnostics_text) for `uri`
        (a notebook's go to its cells)."""
        notebook = self.session.notebooks.get(uri)
        if notebook is not None:
            for cell, diagnostics in split_diagnostics(notebook, diagnostics_text).items():
                self.publish(cell, None, json.dumps(diagnostics))
            return
        try:
            # JSON text straight to the writer: pygls' notify() would convert with cattrs, which
            # costs more than the rest of a small file's analysis-to-screen path.
            send_body(self.session.server.protocol, publish_diagnostics_body(uri, version, diagnostics_text))
        except Exception:  # noqa: BLE001
            log.exception("cannot publish diagnostics")

    def refresh_paths(self, paths: Any, error: BaseException | None = None, exclude: str | None = None) -> None:
        """Re-analyse the open documents among `paths` (files whose findings another file changed)."""
        if error is not None:
            log.error("background work failed: %s", error, exc_info=error)
            return
        wanted = {os.path.abspath(p) for p in (paths or ())}
        touched = False
        for document in self.session.store:
            if document.uri == exclude or not document.path or os.path.abspath(document.path) not in wanted:
                continue
            state = self.session.docs.get(document.uri)
            if state is not None and state.result is not None:
                state.result.stale = True
            self.schedule_after_edit(document.uri)
            touched = True
        if touched or self.session.workspace_pulled:  # closed files' workspace reports may change too
            self.refresh_pulled()

    def refresh_pulled(self) -> None:
        client = self.session.client
        if client.pull_diagnostics and client.diagnostic_refresh:
            try:
                self.session.server.workspace_diagnostic_refresh(None)
            except Exception:  # noqa: BLE001
                log.exception("workspace/diagnostic/refresh failed")

    def settings_changed(self) -> None:
        """Settings (editor or pyproject) changed: analyse every open document again."""
        self.session.generation += 1
        for state in self.session.docs.values():
            if state.result is not None:
                state.result.stale = True
        self.schedule_open_documents()
        self.refresh_pulled()

    # ------------------------------------------------------------------------ requests
    def ready_result(self, uri: str, document: Document, first_look_ok: bool) -> DocResult | None:
        """The result of the document's current version if there is one now (or its first look,
        when that will do)."""
        state = self.session.docs.get(uri)
        if state is None:
            return None
        if self.session.fresh(state.result, document):
            return state.result
        first_look = state.first_look
        if first_look_ok and first_look is not None and first_look.version == document.version:
            return first_look
        return None

    def last_saved_result(self, uri: str) -> DocResult | None:
        """With `run = "onSave"`, a text document's last analysis while no newer one is coming
        (edits since the save are not analysed: its diagnostics follow saves).  Else None."""
        session = self.session
        state = session.docs.get(uri)
        if (
            not session.editor.run_on_save
            or state is None
            or state.result is None
            or uri in session.notebooks
            or state.in_flight is not None
            or (session.debouncer and session.debouncer.pending(uri))
        ):
            return None
        return state.result

    async def current_result(self, uri: str, first_look_ok: bool = False) -> DocResult | None:
        """The analysis of the document's current version (waiting for it if needed).

        `first_look_ok`: the first look's result will do (diagnostics only)."""
        session = self.session
        document = session.python_document(uri)
        if document is None or session.loop is None:
            return None
        ready = self.ready_result(uri, document, first_look_ok)
        if ready is not None:
            return ready
        state = session.doc(uri)
        if not (session.debouncer and session.debouncer.pending(uri)) and state.in_flight is None:
            self.schedule(uri, 0)
        future: asyncio.Future = session.loop.create_future()
        waiter = (future, first_look_ok and session.client.diagnostic_refresh)
        state.waiters.append(waiter)
        try:
            return await asyncio.wait_for(future, WAIT_TIMEOUT)
        except asyncio.TimeoutError:
            log.error("no analysis result within %ss", WAIT_TIMEOUT)
            return state.result
        finally:
            if waiter in state.waiters:
                state.waiters.remove(waiter)

    # ------------------------------------------------------------------------ workers
    def run_background(self, job: Callable[[], Any], callback: Callable[[Any, BaseException | None], None]) -> None:
        session = self.session
        if session.background is not None and not session.stopped:
            session.background.submit(object(), job, callback)

    async def run_in_worker(self, job: Callable[[], Any]) -> Any:
        """Run a job on the analysis worker and await its result (cancellable)."""
        session = self.session
        assert session.loop is not None and session.worker is not None
        return await self._awaited(session.worker, job)

    async def run_in_background(self, job: Callable[[], Any]) -> Any:
        """Run a job on the background worker (the index's: edits keep the analysis worker), after
        the indexing run under way, if any, and await its result; None when the server is stopping."""
        session = self.session
        if session.loop is None or session.background is None or session.stopped:
            return None
        return await self._awaited(session.background, job)

    async def _awaited(self, worker: Any, job: Callable[[], Any]) -> Any:
        assert self.session.loop is not None
        future: asyncio.Future = self.session.loop.create_future()

        def done(result: Any, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        worker.submit(object(), job, done)
        return await future
