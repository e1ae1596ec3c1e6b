"""Background indexing of the workspace's launch sites (kernels defined in one file, launched in
another), bounded in time and size, yielding to edits."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from .session import Session

log = logging.getLogger(__name__)

INDEX_TIME_BUDGET = 120.0
INDEX_MAX_FILES = 20_000


def start_indexing(session: "Session", roots: list[str] | None = None) -> None:
    """Index the launch sites under `roots` (default: the workspace) on the background worker,
    reporting `$/progress` when the client supports it; then refresh the open documents whose
    kernels turned out to be launched elsewhere."""
    roots = list(session.roots if roots is None else roots)
    if session.analyzer.project is None or not roots or session.background is None:
        session.index_done = True
        return
    session.index_count += 1
    token = f"pallas-ls-index-{os.getpid()}-{session.index_count}"
    progress_ready = asyncio.Event()
    use_progress = session.work_done_progress

    async def begin() -> None:
        nonlocal use_progress
        if use_progress:
            try:
                await session.server.work_done_progress.create_async(token)
                session.server.work_done_progress.begin(
                    token, types.WorkDoneProgressBegin(title="pallas-ls: indexing kernels", percentage=0)
                )
            except Exception as exc:  # noqa: BLE001
                log.info("no progress reporting: %s", exc)
                use_progress = False
        progress_ready.set()

    asyncio.ensure_future(begin())
    last_report = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if not use_progress or (now - last_report[0] < 0.25 and done != total):
            return
        last_report[0] = now
        percentage = int(done * 100 / total) if total else 100

        def send() -> None:
            if progress_ready.is_set() and use_progress:
                session.server.work_done_progress.report(
                    token, types.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=percentage)
                )

        if session.loop is not None:
            session.loop.call_soon_threadsafe(send)

    resolver, editor = session.resolver, session.editor
    worker = session.worker

    def job() -> int:
        from ..discovery import ExcludePattern, discover

        excludes: list[ExcludePattern] = []
        for root in roots:
            excludes += resolver.resolve(os.path.join(root, "__init__.py"), editor).excludes
        paths = discover([r for r in roots if os.path.isdir(r)], excludes)[:INDEX_MAX_FILES]
        count = session.analyzer.index_workspace(
            paths,
            should_yield=lambda: worker.idle.wait(timeout=5.0) if worker is not None else None,
            progress=report,
            cancelled=lambda: session.stopped,
            time_budget=INDEX_TIME_BUDGET,
        )
        # The open documents whose kernels other files launch: their findings may have grown.
        open_paths = [d.path for d in session.store if d.path]
        return count, session.analyzer.launched_from_elsewhere(open_paths)

    def finished(outcome: Any, error: BaseException | None) -> None:
        session.index_done = True
        affected: set[str] = set()
        if error is not None:
            log.error("workspace indexing failed: %s", error, exc_info=error)
        else:
            count, affected = outcome
            log.info("indexed %s files", count)
        if use_progress:
            async def end() -> None:
                await progress_ready.wait()
                if use_progress:
                    session.server.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))

            asyncio.ensure_future(end())
        session._refresh_paths(affected)

    session.run_background(job, finished)
