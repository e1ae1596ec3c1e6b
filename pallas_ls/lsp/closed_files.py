"""The workspace's closed files as `workspace/diagnostic` reports them (runs on the background
worker, yielding to documents' analyses as the index does).

Which files: the Python files under the roots that mention Pallas (the index's test,
`file_mentions_pallas`) and the files defining kernels that indexed files launch (kern.py need not
say "pallas"), less the open documents (reported from their own results), the excluded files and
those over the size limit.

Each file's result is cached under a key of what its findings depend on: its own stat (mtime, size),
the settings generation, the client's encoding, and the files that launch its kernels (their stat,
or the open text's hash).  An unchanged closed file is not read or analysed again on the next pull
(only stat'ed); what a file imports beyond its launchers is not part of the key.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..discovery import discover
from ..engine.files import UnreadableFile, read_file_bytes
from ..engine.source import SourceFile
from .indexing import INDEX_MAX_FILES
from .results import DocResult, Snapshot, result_of
from .settings import EffectiveSettings
from .workspace import Analyzer, file_mentions_pallas

log = logging.getLogger(__name__)

Cache = dict[str, tuple[Any, DocResult | None]]  # path -> (key, its result; None: nothing to report)


@dataclass(frozen=True)
class ClosedRun:
    """What one pull's job reads (made on the loop)."""

    roots: list[str]
    analyzer: Analyzer
    settings_for: Callable[[str], EffectiveSettings]  # path -> its settings (the resolver is thread-safe)
    snapshot_for: Callable[[str, str], Snapshot]  # (path, text) -> the Snapshot of a closed file
    open_texts: dict[str, str]  # abspath -> open text
    generation: int
    encoding: str
    should_yield: Callable[[], Any] = lambda: None  # called before each analysis: edits go first


def _stat_key(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def closed_results(run: ClosedRun, cache: Cache) -> tuple[list[DocResult], Cache]:
    """The results of the closed files (those with something to report or not), and the new cache."""
    project = run.analyzer.project
    roots = [r for r in run.roots if os.path.isdir(r)]
    root_settings = [run.settings_for(os.path.join(root, "__init__.py")) for root in roots]
    excludes = [p for settings in root_settings for p in settings.excludes]
    # As `check`: what .gitignore and .ignore ignore is not reported, unless a root's
    # `respect-gitignore = false` says otherwise.
    respect_gitignore = all(settings.rules.respect_gitignore for settings in root_settings)
    with run.analyzer.lock:
        launched = {os.path.abspath(p) for p in project.launched_files()}
    candidates = set(discover(roots, excludes, respect_gitignore=respect_gitignore)[:INDEX_MAX_FILES]) | launched
    results: list[DocResult] = []
    new_cache: Cache = {}
    for path in sorted(candidates):
        path = os.path.abspath(path)
        if path in run.open_texts or not path.endswith((".py", ".pyi")):
            continue
        own = _stat_key(path)
        if own is None:
            continue
        with run.analyzer.lock:
            launchers = sorted(project.launchers_of(path) - {path})
        key = (
            own,
            run.generation,
            run.encoding,
            tuple((p, hash(run.open_texts[p]) if p in run.open_texts else _stat_key(p)) for p in launchers),
        )
        cached = cache.get(path)
        if cached is not None and cached[0] == key:
            result = cached[1]
        else:
            run.should_yield()
            result = _analyse(run, path, is_launched=bool(launchers))
        new_cache[path] = (key, result)
        if result is not None:
            results.append(result)
    return results, new_cache


def _analyse(run: ClosedRun, path: str, is_launched: bool) -> DocResult | None:
    settings = run.settings_for(path)
    if settings.is_excluded(path) or not (is_launched or file_mentions_pallas(path)):
        return None
    try:
        text = read_file_bytes(path).decode("utf-8")
    except (OSError, UnreadableFile, UnicodeDecodeError):
        return None
    try:
        with run.analyzer.lock:
            findings = run.analyzer.findings_of_text(path, text)
    except Exception:  # noqa: BLE001 - one bad file never spoils the report
        log.exception("analysing a closed file failed")
        return None
    return result_of(run.snapshot_for(path, text), settings, SourceFile.from_text(text, path), None, findings, set())
