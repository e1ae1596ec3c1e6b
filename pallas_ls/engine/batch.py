"""Checking many files at once (the CLI): the prefilter, a content-hash cache and both CPU cores.

1. Every file is read; one that never mentions Pallas is done (it cannot launch a kernel).
2. A file whose (path, text, pallas-ls version) is in the cache and that launches no imported
   kernel reuses its cached findings.
3. The others are analysed in worker processes when there are enough of them to pay for the
   processes (a file's own findings depend on its text only).
4. Files that launch kernels imported from another module, and the files defining those kernels,
   are checked together in this process by `Project`, which knows the cross-module facts.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import logging
import multiprocessing
import os
import pickle
import tempfile
from dataclasses import dataclass
from typing import Iterable, Sequence

from .. import __version__
from .findings import Finding
from .names import mentions_pallas
from .project import FileResult, Project, UnreadableFile, read_source

log = logging.getLogger(__name__)

# Below this many files to analyse, starting worker processes costs more than it saves.
_MIN_FILES_FOR_WORKERS = 12


@dataclass(frozen=True)
class _Checked:
    path: str
    findings: list[Finding]
    standalone: bool  # launches no kernel imported from another module
    error: str | None = None


def check_files(
    paths: Iterable[str], roots: Sequence[str] = (), cache_dir: str | None = None, jobs: int | None = None
) -> list[FileResult]:
    """Check files as one project; `cache_dir=None` disables the cache, `jobs=1` the workers."""
    paths = [os.path.abspath(p) for p in paths]
    cache = _Cache(cache_dir) if cache_dir else None
    results: dict[str, FileResult] = {}
    to_analyse: list[tuple[str, str]] = []  # (path, cache key)
    for path in paths:
        try:
            text = read_source(path).text
        except UnreadableFile as exc:
            results[path] = FileResult(path, [exc.finding(path)], exc.reason)
            continue
        if not mentions_pallas(text):
            results[path] = FileResult(path, [])
            continue
        key = _cache_key(path, text)
        cached = cache.get(key) if cache else None
        if cached is not None and cached.standalone:
            results[path] = FileResult(path, cached.findings)
        else:
            to_analyse.append((path, key))
    launchers = []
    for checked, key in _analyse_all(to_analyse, jobs):
        results[checked.path] = FileResult(checked.path, checked.findings, checked.error)
        if checked.standalone and checked.error is None and cache is not None:
            cache.put(key, checked)
        if not checked.standalone:
            launchers.append(checked.path)
    if launchers:
        _check_across_modules(launchers, set(paths), roots, results)
    return [results[p] for p in paths]


def _analyse_all(files: list[tuple[str, str]], jobs: int | None) -> list[tuple[_Checked, str]]:
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(files) < _MIN_FILES_FOR_WORKERS:
        return [(_analyse_one(path), key) for path, key in files]
    chunk = max(1, len(files) // (jobs * 4))
    context = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
    try:
        with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
            checked = list(pool.map(_analyse_one, [p for p, _ in files], chunksize=chunk))
    except (OSError, concurrent.futures.process.BrokenProcessPool) as exc:
        log.warning("worker processes failed (%s); checking in this process", exc)
        checked = [_analyse_one(path) for path, _ in files]
    return list(zip(checked, [k for _, k in files]))


def _analyse_one(path: str) -> _Checked:
    """One file on its own (in a worker): its findings, and whether it launches imported kernels."""
    project = Project()
    try:
        analysis = project.analysis_of(path)
        return _Checked(path, project.check_paths([path])[0].findings, standalone=not analysis.imported)
    except UnreadableFile as exc:
        return _Checked(path, [exc.finding(path)], True, exc.reason)
    except Exception:  # noqa: BLE001 - one file the engine cannot handle must not hide the rest
        log.exception("internal error while checking %s", path)
        return _Checked(path, [], True, "internal error")


def _check_across_modules(launchers: list[str], requested: set[str], roots, results: dict[str, FileResult]) -> None:
    """Launching files and the requested files defining their kernels, checked together."""
    project = Project(roots)
    targets = set()
    for path in launchers:
        targets |= {t for t in project.kernel_modules_launched_by(path) if t in requested}
    for result in project.check_paths(sorted(set(launchers) | targets)):
        results[result.path] = result


def _cache_key(path: str, text: str) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in (__version__, path, text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


class _Cache:
    """Findings by content hash, one file per entry; safe with concurrent runs (atomic renames)."""

    def __init__(self, directory: str):
        self.directory = os.path.join(directory, __version__)

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key)

    def get(self, key: str) -> _Checked | None:
        try:
            with open(self._file(key), "rb") as handle:
                value = pickle.load(handle)
            return value if isinstance(value, _Checked) else None
        except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            return None  # missing, from another version, or torn: recompute

    def put(self, key: str, value: _Checked) -> None:
        target = self._file(key)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            _write_gitignore(os.path.dirname(self.directory))
            fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, target)
        except OSError as exc:  # a read-only tree must not fail the check
            log.debug("cannot write cache entry %s: %s", target, exc)


def _write_gitignore(directory: str) -> None:
    marker = os.path.join(directory, ".gitignore")
    if not os.path.exists(marker):
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write("# Created by pallas-ls automatically.\n*\n")
