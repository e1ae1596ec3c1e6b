"""Background indexing of the workspace's launch sites (kernels defined in one file, launched in
another), bounded in time and size, yielding to edits, with `$/progress` when the client shows it.

`Indexer` is given what it works with (an `IndexRun`); it reads nothing else of the server's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from ..discovery import ExcludePattern, discover
from .scheduler import spawn
from .workspace import Analyzer

log = logging.getLogger(__name__)

INDEX_TIME_BUDGET = 120.0
INDEX_MAX_FILES = 20_000


@dataclass(frozen=True)
class IndexRun:
    """The inputs of one indexing run."""

    roots: list[str]
    analyzer: Analyzer
    excludes_under: Callable[[str], list[ExcludePattern]]  # a root -> the exclude patterns there
    open_paths: Callable[[], list[str]]  # the open documents' files, when the run ends
    analysis_idle: threading.Event | None  # set while no document is being analysed: edits go first
    stopped: Callable[[], bool]


class Indexer:
    def __init__(
        self,
        server: Any,
        loop: asyncio.AbstractEventLoop,
        run_background: Callable,
        on_affected: Callable[[set[str]], None],
        progress: bool,
    ) -> None:
        self._work_done = server.work_done_progress  # pygls' $/progress sender
        self._loop = loop
        self._run_background = run_background
        self._on_affected = on_affected  # the open files whose kernels turned out to be launched elsewhere
        self._progress = progress
        self._runs = 0

    def start(self, run: IndexRun) -> None:
        """Index the launch sites under `run.roots` on the background worker, then hand the open
        documents whose kernels other files launch to `on_affected`."""
        if not run.roots:
            return
        self._runs += 1
        progress = _Progress(self._work_done, self._loop, f"pallas-ls-index-{os.getpid()}-{self._runs}", self._progress)

        def job() -> tuple[int, set[str]]:
            excludes = [pattern for root in run.roots for pattern in run.excludes_under(root)]
            paths = discover([r for r in run.roots if os.path.isdir(r)], excludes)[:INDEX_MAX_FILES]
            idle = run.analysis_idle
            count = run.analyzer.index_workspace(
                paths,
                should_yield=lambda: idle.wait(timeout=5.0) if idle is not None else None,
                progress=progress.report,
                cancelled=run.stopped,
                time_budget=INDEX_TIME_BUDGET,
            )
            # The open documents whose kernels other files launch: their findings may have grown.
            return count, run.analyzer.launched_from_elsewhere(run.open_paths())

        def finished(outcome: Any, error: BaseException | None) -> None:
            affected: set[str] = set()
            if error is not None:
                log.error("workspace indexing failed: %s", error, exc_info=error)
            else:
                count, affected = outcome
                log.info("indexed %s files", count)
            progress.end()
            self._on_affected(affected)

        progress.begin()
        self._run_background(job, finished)


class _Progress:
    """`$/progress` for one run (nothing when the client does not show work-done progress)."""

    def __init__(self, work_done: Any, loop: asyncio.AbstractEventLoop, token: str, enabled: bool) -> None:
        self._work_done, self._loop, self._token, self._enabled = work_done, loop, token, enabled
        self._ready = asyncio.Event()
        self._last_report = 0.0

    def begin(self) -> None:
        async def begin() -> None:
            if self._enabled:
                try:
                    await self._work_done.create_async(self._token)
                    self._work_done.begin(
                        self._token, types.WorkDoneProgressBegin(title="pallas-ls: indexing kernels", percentage=0)
                    )
                except Exception as exc:  # noqa: BLE001
                    log.info("no progress reporting: %s", exc)
                    self._enabled = False
            self._ready.set()

        spawn(begin())

    def report(self, done: int, total: int) -> None:
        """Called on the background worker."""
        now = time.monotonic()
        if not self._enabled or (now - self._last_report < 0.25 and done != total):
            return
        self._last_report = now
        percentage = int(done * 100 / total) if total else 100

        def send() -> None:
            if self._ready.is_set() and self._enabled:
                self._work_done.report(
                    self._token, types.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=percentage)
                )

        self._loop.call_soon_threadsafe(send)

    def end(self) -> None:
        if not self._enabled:
            return

        async def end() -> None:
            await self._ready.wait()
            if self._enabled:
                self._work_done.end(self._token, types.WorkDoneProgressEnd(message="done"))

        spawn(end())
