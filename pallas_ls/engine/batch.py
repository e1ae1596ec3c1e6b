"""Checking many files at once (the CLI): the prefilter, a content-hash cache and both CPU cores.

1. Every file is read; one that never mentions Pallas is done (it cannot launch a kernel).
2. A file whose (path, text, pallas-ls version) is in the cache reuses its cached findings while
   what its analysis read besides its own text (the imports it resolved, the modules they led to:
   engine/dependencies.py) is unchanged.
3. The others are analysed in worker processes when there are enough of them to pay for the
   processes; each process keeps one Project, so a module many files import is modelled once.
4. Files that launch kernels imported from another module, and the files defining those kernels,
   are checked together by `Project`, which knows the cross-module facts: in groups that share no
   file, each cached on its own (keyed by its launching files) under the same condition.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import multiprocessing
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .. import __version__
from .dependencies import Dependencies, Lookup, text_digest
from .environment import Environment
from .files import FileResult, UnreadableFile, file_digest, read_source
from .findings import Applicability, Edit, Finding, Fix, Related, Severity
from .gcpause import collected_once, freeze_survivors
from .locating import ModuleLocator
from .names import mentions_pallas
from .source import Range
from .text_imports import ImportedFiles, quiet_launchers

if TYPE_CHECKING:
    # The analysis engine (engine.project and all behind it) is imported in the functions that
    # analyse: a check whose findings all come from the cache never loads it (issue 33: the
    # import was most of such a run).
    from .analysis import Linter
    from .project import ParsedModules, Project

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Below this many files to analyse, starting worker processes costs more than it saves.
_MIN_FILES_FOR_WORKERS = 12


@dataclass(frozen=True)
class _Checked:
    path: str
    findings: list[Finding]
    standalone: bool  # launches no kernel imported from another module
    error: str | None = None
    launching: frozenset[str] = frozenset()  # names of its functions that may launch (wrappers)
    # What the analysis read besides the file's own text; None: not cacheable.
    dependencies: Dependencies | None = field(default=None, compare=False)
    # The files defining kernels it launches (a launcher's; None: not known, as in older cache entries).
    targets: frozenset[str] | None = None


def check_files(
    paths: Iterable[str],
    roots: Sequence[str] = (),
    cache_dir: str | None = None,
    jobs: int | None = None,
    environment: Environment | None = None,
    context: Sequence[str] = (),
    *,
    lint: Linter,
) -> list[FileResult]:
    """Check files as one project with the rules `lint` runs (a module-level function: worker
    processes are handed it by name); `cache_dir=None` disables the cache, `jobs=1` the workers;
    `environment`: where imports beyond the project are followed (None: nowhere); `context`: other
    files of the project that may launch the checked files' kernels (analysed, not reported)."""
    paths = [os.path.abspath(p) for p in paths]
    cache = _Cache(cache_dir, getattr(lint, "cache_key", "")) if cache_dir else None
    unchanged = _Unchanged(_OneRunLocator(environment=environment))
    results: dict[str, FileResult] = {}
    to_analyse: list[tuple[str, str]] = []  # (path, cache key)
    quiet: dict[str, str] = {}  # files that never say "pallas": path -> text
    keys: dict[str, str] = {}  # files that say "pallas": path -> cache key
    checked: list[_Checked] = []
    pallas: dict[str, str] = {}  # files that say "pallas": path -> text
    for path in paths:
        try:
            text = _read_text(path)
        except UnreadableFile as exc:
            results[path] = FileResult(path, [exc.finding(path)], exc.reason)
            continue
        unchanged.read(path, text)
        if mentions_pallas(text):
            pallas[path] = text
        else:
            results[path] = FileResult(path, [])
            quiet[path] = text
    # Every file is read before a cached result is trusted: what it depended on is mostly these.
    for path, text in pallas.items():
        keys[path] = key = _cache_key(path, text, environment)
        cached = cache.get(key, path) if cache else None
        if cached is not None and unchanged.still(cached.dependencies):
            checked.append(cached)
        else:
            to_analyse.append((path, key))
    for fresh, key in _analyse_all(to_analyse, jobs, lint, environment):
        checked.append(fresh)
        if fresh.error is None and fresh.dependencies is not None and cache is not None:
            cache.put(key, fresh)
    launchers = []
    targets_of: dict[str, frozenset[str] | None] = {}  # launcher -> the files it launches kernels of
    wrappers: dict[str, frozenset[str]] = {}
    for one in checked:
        results[one.path] = FileResult(one.path, one.findings, one.error)
        if not one.standalone:
            launchers.append(one.path)
            targets_of[one.path] = one.targets
        if one.launching:
            wrappers[one.path] = one.launching
    # A file that never says "pallas" may still launch through a wrapper imported from a Pallas
    # file of the check, or one of an installed package: those are checked with the project.
    quiet_ones = quiet_launchers(wrappers, quiet, environment.imports_pallas if environment is not None else None)
    launchers += quiet_ones
    # A quiet launcher is analysed in the cross-module phase only: it launches through the wrappers'
    # files it imports, so it goes with them and what they launch (see _Across.independent_groups).
    if quiet_ones and wrappers:
        imported = ImportedFiles(wrappers)
        for path in quiet_ones:
            through = imported.files_imported_by(quiet[path], path)
            targets_of[path] = frozenset(through).union(*(targets_of.get(w) or () for w in through))
    # Files outside the check that launch kernels of checked files (engine.text_imports.launching_context).
    launchers += [os.path.abspath(p) for p in context if os.path.abspath(p) not in results]
    if launchers:
        across = _Across(sorted(set(launchers)), set(paths), roots, environment)
        # The quiet launchers' texts were read above: their keys need no second read.
        keys.update((p, _cache_key(p, quiet[p], environment)) for p in quiet_ones)
        groups_cache = _GroupCache(cache, across, keys) if cache is not None else None
        found = across.check(lint, across.independent_groups(targets_of), jobs, groups_cache)
        for result in found.results:
            results[result.path] = result
    return [results[p] for p in paths]


class _OneRunLocator(ModuleLocator):
    """Imports resolved again during one check, when files are not added or removed: where a
    directory's absolute imports are looked up is asked of the file system once (tokamax's
    cached files: 442 lookups from 30 directories).  An editor's project must not keep this."""

    def __init__(self, roots: Sequence[str] = (), environment: Environment | None = None):
        super().__init__(roots, environment)
        self._search_of: dict[str, list[str]] = {}

    def _search_roots(self, from_path: str) -> list[str]:
        directory = os.path.dirname(os.path.abspath(from_path))
        if directory not in self._search_of:
            self._search_of[directory] = super()._search_roots(from_path)
        return self._search_of[directory]


class _Unchanged:
    """Whether what a cached result depended on is still as it was (files hashed once a run)."""

    def __init__(self, locator: ModuleLocator):
        self.locator = locator
        self._digests: dict[str, str] = {}
        self._texts: dict[str, str] = {}  # files this run has read already: hashed from here
        self._directories: dict[str, str] = {}
        self._resolved: dict[tuple[str, str, str | None], str | None] = {}

    def read(self, path: str, text: str) -> None:
        """`path`'s text as this run read it (a dependency on it is hashed without reading it again)."""
        self._texts[path] = text

    def still(self, dependencies: Dependencies | None) -> bool:
        return dependencies is not None and dependencies.still_hold(self._resolves, self._digest)

    def _resolves(self, lookup: Lookup) -> str | None:
        """Project.resolves_as_before, once a run per directory and import: where an import
        resolves depends on the importing file's directory only, and a library's files import
        the same modules (2290 lookups for tokamax's 121 cached files, 0.18 s, before)."""
        directory = self._directories.get(lookup.from_path)
        if directory is None:
            directory = self._directories[lookup.from_path] = os.path.dirname(os.path.abspath(lookup.from_path))
        key = (directory, lookup.dotted, lookup.package)
        if key not in self._resolved:
            self._resolved[key] = self.locator.resolves_as_before(lookup)
        return self._resolved[key]

    def _digest(self, path: str) -> str:
        if path not in self._digests:
            text = self._texts.get(path)
            self._digests[path] = file_digest(path) if text is None else text_digest(text)
        return self._digests[path]


@dataclass(frozen=True)
class _AcrossResults:
    results: list[FileResult]
    dependencies: Dependencies


@dataclass
class _Across:
    """The cross-module phase: launching files and the requested files defining their kernels,
    checked in groups that share no file (each group in a project of its own, in worker processes
    when there are several), each group cached on its own: one changed file costs the groups that
    read it (issue 33)."""

    launchers: list[str]
    requested: set[str]
    roots: Sequence[str]
    environment: Environment | None

    def locator(self) -> ModuleLocator:
        """Where the groups' imports resolve (a cached group's are resolved again before reuse)."""
        return _OneRunLocator(self.roots, environment=self.environment)

    def group_key(self, group: Sequence[str], keys: dict[str, str]) -> str:
        """A group's launchers' own keys (their text, the installed modules they import), the roots
        and the requested files: what its check reads beyond them is its recorded dependencies."""
        parts = ["across", *map(os.path.abspath, self.roots), "", *sorted(self.requested), ""]
        for path in group:
            key = keys.get(path)
            if key is None:  # a launcher outside the check (`context`): not read yet
                try:
                    key = _cache_key(path, _read_text(path), self.environment)
                except UnreadableFile as exc:
                    key = exc.reason
            parts += [path, key]
        return _digest(parts)

    def independent_groups(self, targets_of: dict[str, frozenset[str] | None]) -> list[list[str]]:
        """The launchers in groups that share no file defining kernels they launch, as the
        per-file analyses found (a launcher not analysed on its own, a quiet or context file,
        is a group of its own): each group may be checked on its own.  `check` makes sure."""
        group_of: dict[str, int] = {}
        groups: dict[int, set[str]] = {}
        for index, path in enumerate(self.launchers):
            files = {path} | {t for t in targets_of.get(path) or () if t in self.requested}
            joined = {group_of[f] for f in files if f in group_of}
            members = set(files).union(*(groups.pop(g) for g in joined))
            groups[index] = members
            group_of.update(dict.fromkeys(members, index))
        launchers = set(self.launchers)
        return [sorted(members & launchers) for members in groups.values()]

    def check(
        self,
        lint: Linter,
        groups: list[list[str]] | None = None,
        jobs: int | None = None,
        cache: _GroupCache | None = None,
    ) -> _AcrossResults:
        """Every group of launchers with the files it launches kernels of: from the cache, or
        checked (in worker processes when there are several).  Groups found to reach one file (a
        quiet launcher's target, an import the roots resolve otherwise than a file's own analysis
        did) are checked again, together: the results are those of one project holding them all."""
        done: dict[tuple[str, ...], _AcrossResults] = {}
        unknown = []
        for group in groups or [self.launchers]:
            cached = cache.get(group) if cache is not None else None
            if cached is not None:
                done[tuple(group)] = cached
            else:
                unknown.append(group)
        fresh: list[_AcrossResults] = []
        if unknown:
            from .project import ParsedModules  # the engine, when something is analysed (see the imports)

            parsed = ParsedModules()  # for the groups checked in this process: files do not change during a check
            fresh = self._check_each(lint, unknown, jobs or os.cpu_count() or 1, parsed)
        for group, found in zip(unknown, fresh, strict=True):
            done[tuple(group)] = found
            if cache is not None:
                cache.put(group, found)
        met = _meeting(done)
        recording = Dependencies()
        results: dict[str, FileResult] = {}
        for checked, found in done.items():
            if checked not in met:
                results.update((r.path, r) for r in found.results)
                recording.include(found.dependencies)
        if met:
            together = sorted({path for group in met for path in group})
            again = cache.get(together) if cache is not None else None
            if again is None:
                again = _check_group(together, self, lint, parsed)
                if cache is not None:
                    cache.put(together, again)
            results.update((r.path, r) for r in again.results)
            recording.include(again.dependencies)
        return _AcrossResults(list(results.values()), recording)

    def _check_each(
        self, lint: Linter, groups: list[list[str]], jobs: int, parsed: ParsedModules
    ) -> list[_AcrossResults]:
        if len(groups) > 1 and jobs > 1:
            parallel = self._check_groups(lint, groups, jobs)
            if parallel is not None:
                return parallel
        return [_check_group(group, self, lint, parsed) for group in groups]

    def _check_groups(self, lint: Linter, groups: list[list[str]], jobs: int) -> list[_AcrossResults] | None:
        """`groups` checked by worker processes (None: they could not be started)."""
        context = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
        order = sorted(range(len(groups)), key=lambda i: -len(groups[i]))  # the longest first: it starts at once
        try:
            with concurrent.futures.ProcessPoolExecutor(
                min(jobs, len(groups)), mp_context=context, initializer=_begin_groups, initargs=(self, lint)
            ) as pool:
                done = dict(zip(order, pool.map(_check_group, [groups[i] for i in order]), strict=True))
        except (OSError, concurrent.futures.process.BrokenProcessPool) as exc:
            log.warning("worker processes failed (%s); checking in this process", exc)
            return None
        return [done[i] for i in range(len(groups))]


@dataclass
class _GroupCache:
    """The cross-module phase's groups in the findings cache: an entry is reused while what the
    group's check read (imports resolved, files hashed) is as it was."""

    cache: _Cache
    across: _Across
    keys: dict[str, str]  # a checked file's own cache key, by path
    _unchanged: _Unchanged | None = None
    _group_keys: dict[tuple[str, ...], str] = field(default_factory=dict)  # a group missed is put later

    def _key(self, group: Sequence[str]) -> str:
        key = self._group_keys.get(tuple(group))
        if key is None:
            key = self._group_keys[tuple(group)] = self.across.group_key(group, self.keys)
        return key

    def get(self, group: Sequence[str]) -> _AcrossResults | None:
        found = self.cache.get_across(self._key(group))
        if found is None:
            return None
        if self._unchanged is None:
            self._unchanged = _Unchanged(self.across.locator())
        return found if self._unchanged.still(found.dependencies) else None

    def put(self, group: Sequence[str], found: _AcrossResults) -> None:
        if all(r.error is None for r in found.results):
            self.cache.put_across(self._key(group), found)


def _meeting(done: dict[tuple[str, ...], _AcrossResults]) -> set[tuple[str, ...]]:
    """The groups whose results share a file with another group's."""
    owners: dict[str, list[tuple[str, ...]]] = {}
    for group, found in done.items():
        for result in found.results:
            owners.setdefault(result.path, []).append(group)
    return {group for groups in owners.values() if len(groups) > 1 for group in groups}


# What a worker process checks groups for, and the imported modules its groups read (`_begin_groups`).
_group_check: tuple[_Across, Linter, ParsedModules] | None = None


def _begin_groups(across: _Across, lint: Linter) -> None:
    from .project import ParsedModules  # the engine, when something is analysed (see the imports)

    global _group_check
    _group_check = (across, lint, ParsedModules())


def _check_group(
    launchers: list[str], across: _Across | None = None, lint: Linter | None = None, parsed: ParsedModules | None = None
) -> _AcrossResults:
    """Launchers with the requested files whose kernels they launch, checked together in a project
    of their own (what it reads is what this group depends on): for `across` and `lint`, or
    those this worker was begun with (`_begin_groups`)."""
    if across is None or lint is None:
        if _group_check is None:
            raise RuntimeError("_begin_groups() sets up a worker before it checks groups")
        across, lint, parsed = _group_check
    from .project import Project  # the engine, when something is analysed (see the imports)

    recording = Dependencies()
    project = Project(
        across.roots,
        environment=across.environment,
        lint=lint,
        recording=recording,
        share_summaries=True,
        parsed=parsed,
    )
    targets = set()
    for path in launchers:
        targets |= {t for t in project.kernel_modules_launched_by(path) if t in across.requested}
    results = project.check_paths(sorted(set(launchers) | targets), analyse_all=True)
    return _AcrossResults(results, recording)


def _read_text(path: str) -> str:
    """A file's (or notebook's code cells') text.  Issue 35: one file that breaks the reader (a
    RecursionError, an error of ours) is that file's PAL900, never the end of the whole run."""
    try:
        return read_source(path).text
    except UnreadableFile:
        raise
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - one file must not hide the others
        log.debug("cannot read %s", path, exc_info=True)
        raise UnreadableFile(f"cannot be read (internal error: {type(exc).__name__})") from None


# The check under way in this process (check_files sets it here and in each worker process,
# through the pool's initializer), so that the unit of work stays one path: `_analyse_one(path)`.
# One Project per process for the whole run: a module that many files import (a library's
# common helpers) is parsed and modelled once per process, not once per importing file.  Files
# do not change during a check, so what one file's analysis read stays true for the next.
_project: Project | None = None


def _begin(lint: Linter, environment: Environment | None) -> None:
    from .project import Project  # the engine, when something is analysed (see the imports)

    global _project
    _project = Project(environment=environment, lint=lint, share_summaries=True)


def _analyse_all(
    files: list[tuple[str, str]], jobs: int | None, lint: Linter, environment: Environment | None
) -> list[tuple[_Checked, str]]:
    if not files:
        return []
    jobs = jobs or os.cpu_count() or 1
    _begin(lint, environment)
    if jobs <= 1 or len(files) < _MIN_FILES_FOR_WORKERS:
        return [(_analyse_one(path), key) for path, key in files]
    # Biggest first, one file at a time: a 10k-line test file handed out last would leave the
    # other worker idle for the seconds it takes (a file costs far more than its hand-off).
    order = sorted(range(len(files)), key=lambda i: -_size(files[i][0]))
    freeze_survivors()
    context = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
    try:
        with concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=context, initializer=_begin, initargs=(lint, environment)
        ) as pool:
            done = dict(zip(order, pool.map(_analyse_one, [files[i][0] for i in order]), strict=True))
        checked = [done[i] for i in range(len(files))]
    except (OSError, concurrent.futures.process.BrokenProcessPool) as exc:
        log.warning("worker processes failed (%s); checking in this process", exc)
        _begin(lint, environment)
        checked = [_analyse_one(path) for path, _ in files]
    return list(zip(checked, [k for _, k in files], strict=True))


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _analyse_one(path: str) -> _Checked:
    """One file on its own (in a worker): its findings, and whether it launches imported kernels."""
    with collected_once():
        return _analysed(path)


def _analysed(path: str) -> _Checked:
    project = _project
    if project is None:
        raise RuntimeError("_begin() sets up the check before files are analysed")
    try:
        analysis = project.analysis_of(path)
        findings = project.check_paths([path])[0].findings
        return _Checked(
            path,
            findings,
            standalone=not analysis.imported,
            launching=analysis.launching,
            dependencies=project.dependencies_of(analysis),
            targets=frozenset(project.kernel_modules_launched_by(path)) if analysis.imported else frozenset(),
        )
    except UnreadableFile as exc:
        return _Checked(path, [exc.finding(path)], True, exc.reason)
    except Exception:  # noqa: BLE001 - one file the engine cannot handle must not hide the rest
        log.exception("internal error while checking %s", path)
        return _Checked(path, [], True, "internal error")


def _cache_key(path: str, text: str, environment: Environment | None = None) -> str:
    """A file's findings can depend on the installed modules it imports: which files those are is
    part of the key (a package installed since is a miss)."""
    installed = environment.fingerprint(text) if environment is not None else ""
    return _digest([path, text] + ([installed] if installed else []))


def _digest(parts: Iterable[str]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in (analyser_version(), *parts):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def analyser_version() -> str:
    """pallas-ls's version and a fingerprint of its own source files (path, size, mtime): a
    development checkout changes its rules without changing its version, and a cached finding
    made by other rules must not be reused (issue 33: keyed by the analyser's version)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return f"{__version__}+{source_fingerprint(package)}"


def source_fingerprint(directory: str) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                info = os.stat(path)
                digest.update(f"{os.path.relpath(path, directory)}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


class _Cache:
    """Findings by content hash, one JSON file per entry; safe with concurrent runs (atomic renames).

    Issue 15: entries used to be pickles, so a planted entry ran code.  Now an entry is plain JSON,
    validated field by field; anything unexpected (another shape, wrong types, an entry made for
    another key, a file that is not ours) is a miss, never an error.

    Issue 35: an entry is authenticated.  Its first line is an HMAC of the rest, keyed with a
    secret kept in the user's own cache home (`$XDG_CACHE_HOME/pallas-ls/cache.key`), never in the
    project: an entry committed to a repository (CI paths are predictable, and the key of an entry
    is a hash of public data) cannot be forged to hide a finding.  Without a usable key there is no
    cache.  The cache directory, and
    every directory under it, must be a real directory (not a symlink) owned by us, or the cache
    is not used at all: a symlinked cache must not make `check` write outside the project.
    """

    MAX_ENTRY = 1 << 22  # bytes: no real entry comes close

    def __init__(self, directory: str, options: str = ""):
        self.root = directory
        self.directory = os.path.join(directory, __version__)
        self.usable = True
        self.options = options  # the rules' options (the TPU generation): findings depend on them

    def _file(self, key: str) -> str:
        name = _digest([self.options, key]) if self.options else key
        return os.path.join(self.directory, name[:2], name + ".json")

    def _safe_directory(self, path: str, create: bool) -> bool:
        """`path` is a directory, not a symlink, owned by us (created, private, when `create`)."""
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            if not create:
                return False
            try:
                os.mkdir(path, 0o700)
                info = os.lstat(path)
            except OSError:
                return False
        except OSError:
            return False
        return stat.S_ISDIR(info.st_mode) and _owned(info)

    def _safe_tree(self, key: str, create: bool) -> bool:
        if not self.usable:
            return False
        if not self._safe_directory(self.root, create):
            if os.path.lexists(self.root):
                log.warning("not using the cache %s: it is a symlink, not a directory, or not owned by you", self.root)
                self.usable = False
            return False
        return self._safe_directory(self.directory, create) and self._safe_directory(
            os.path.dirname(self._file(key)), create
        )

    def get(self, key: str, path: str) -> _Checked | None:
        """A file's entry (its findings and what they depended on), if it is exactly what `put` wrote."""
        return self._read(key, lambda data: _checked_from_json(data, key, path))

    def put(self, key: str, value: _Checked) -> None:
        self._write(key, _checked_to_json(value, key))

    def get_across(self, key: str) -> _AcrossResults | None:
        """A cross-module phase's entry (the findings of each file it checked and what it read)."""
        return self._read(key, lambda data: _across_from_json(data, key))

    def put_across(self, key: str, value: _AcrossResults) -> None:
        self._write(key, _across_to_json(value, key))

    def _read(self, key: str, parse: Callable[[Any], _T | None]) -> _T | None:
        if not self._safe_tree(key, create=False):
            return None
        try:
            fd = os.open(self._file(key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None  # missing: compute
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _owned(info) or info.st_size > self.MAX_ENTRY:
                return None
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(self.MAX_ENTRY + 1)
            mac, _, body = data.partition(b"\n")
            secret = _secret()
            if secret is None or not hmac.compare_digest(mac, _mac(secret, body)):
                return None  # forged, or made with another key: recompute
            return parse(json.loads(body))
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None  # torn, from another version, or planted: recompute
        finally:
            os.close(fd)

    def _write(self, key: str, entry: dict[str, Any]) -> None:
        target = self._file(key)
        secret = _secret()
        try:
            if secret is None or not self._safe_tree(key, create=True):
                return
            _write_gitignore(self.root)
            fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-")
            try:
                body = json.dumps(entry).encode("utf-8")
                with os.fdopen(fd, "wb") as handle:
                    handle.write(_mac(secret, body) + b"\n" + body)
                os.replace(temporary, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except (OSError, ValueError) as exc:  # a read-only tree must not fail the check
            log.debug("cannot write cache entry %s: %s", target, exc)


def _mac(secret: bytes, body: bytes) -> bytes:
    return hmac.new(secret, body, hashlib.sha256).hexdigest().encode("ascii")


def user_cache_home() -> str:
    """The user's own cache directory (not the project's): `%LOCALAPPDATA%`, `~/Library/Caches`,
    else `$XDG_CACHE_HOME` or `~/.cache`."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return os.environ["LOCALAPPDATA"]
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches")
    return os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")


_SECRETS: dict[str, bytes | None] = {}  # key file -> its secret, once per process


def _secret() -> bytes | None:
    """The cache's HMAC key, created (private, 32 random bytes) on first use; None when the user's
    cache home cannot hold one (then nothing is cached)."""
    path = os.path.join(user_cache_home(), "pallas-ls", "cache.key")
    if path not in _SECRETS:
        _SECRETS[path] = _read_or_create_secret(path)
    return _SECRETS[path]


def _read_or_create_secret(path: str) -> bytes | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(2):
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            _create_secret(path)
            continue
        except OSError as exc:
            log.warning("not using the cache: cannot read its key %s: %s", path, exc)
            return None
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            secret = handle.read(256).strip()
        if stat.S_ISREG(info.st_mode) and _owned(info) and len(secret) >= 32:
            return secret
        log.warning("not using the cache: its key %s is not a private file of yours", path)
        return None
    return None


def _create_secret(path: str) -> None:
    """Written whole, then linked into place: a concurrent run reads a complete key or none."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".key-")  # private (0600)
    except OSError as exc:
        log.debug("cannot create the cache key %s: %s", path, exc)
        return
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        os.link(temporary, path)
    except OSError as exc:  # FileExistsError: another run made it first, read theirs
        log.debug("cache key %s not created here: %s", path, exc)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _owned(info: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


# ------------------------------------------------------------------ cache entries as plain JSON
def _range_json(r: Any) -> list[int]:
    return [r.start.line, r.start.column, r.end.line, r.end.column]


def _checked_to_json(value: _Checked, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "path": value.path,
        "standalone": value.standalone,
        "launching": sorted(value.launching),
        "targets": sorted(value.targets) if value.targets is not None else None,
        "findings": _findings_to_json(value.findings),
        "dependencies": value.dependencies.to_json() if value.dependencies is not None else None,
    }


def _across_to_json(value: _AcrossResults, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "results": [{"path": r.path, "findings": _findings_to_json(r.findings)} for r in value.results],
        "dependencies": value.dependencies.to_json(),
    }


def _findings_to_json(findings: list[Finding]) -> list[dict[str, Any]]:
    return [
        {
            "code": f.code,
            "message": f.message,
            "range": _range_json(f.range),
            "path": f.path,
            "severity": f.severity.value,
            "related": [{"path": r.path, "range": _range_json(r.range), "message": r.message} for r in f.related],
            "fixes": [
                {
                    "title": x.title,
                    "applicability": x.applicability.value,
                    "preferred": x.preferred,
                    "suppression": x.suppression,
                    "edits": [{"range": _range_json(e.range), "new_text": e.new_text} for e in x.edits],
                }
                for x in f.fixes
            ],
        }
        for f in findings
    ]


def _want(value: Any, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise TypeError(f"expected {kind}, got {type(value).__name__}")
    return value


def _optional_str(value: Any) -> str | None:
    return None if value is None else _want(value, str)


def _range_from(value: Any) -> Range:
    parts = _want(value, list)
    if len(parts) != 4 or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in parts):
        raise ValueError("a range is four non-negative integers")
    return Range.of(*parts)


def _checked_from_json(data: Any, key: str, path: str) -> _Checked | None:
    """A file's entry back, if it is exactly what `put` writes for this key and path; else None.

    An entry is only believed for its own key (the hash of version, path and text), so an entry
    copied from a clean file cannot hide another file's findings."""
    _want(data, dict)
    if data.get("key") != key or data.get("path") != path:
        return None
    findings = _findings_from_json(data["findings"])
    launching = frozenset(_want(name, str) for name in _want(data["launching"], list))
    dependencies = Dependencies.from_json(data["dependencies"])
    listed = data.get("targets")
    targets = frozenset(_want(t, str) for t in _want(listed, list)) if listed is not None else None
    return _Checked(path, findings, _want(data["standalone"], bool), None, launching, dependencies, targets)


def _across_from_json(data: Any, key: str) -> _AcrossResults | None:
    _want(data, dict)
    if data.get("key") != key:
        return None
    results = [
        FileResult(_want(item["path"], str), _findings_from_json(item["findings"]))
        for item in map(lambda r: _want(r, dict), _want(data["results"], list))
    ]
    return _AcrossResults(results, Dependencies.from_json(data["dependencies"]))


def _findings_from_json(items: Any) -> list[Finding]:
    """Raises TypeError, ValueError or KeyError for anything but what `_findings_to_json` makes."""
    findings = []
    for item in _want(items, list):
        _want(item, dict)
        code = _want(item["code"], str)
        if not code.startswith("PAL"):
            raise ValueError(f"not a finding of ours: {code}")
        findings.append(
            Finding(
                code,
                _want(item["message"], str),
                _range_from(item["range"]),
                _optional_str(item["path"]),
                Severity(_want(item["severity"], str)),
                [
                    Related(_optional_str(r["path"]), _range_from(r["range"]), _want(r["message"], str))
                    for r in map(lambda r: _want(r, dict), _want(item["related"], list))
                ],
                [
                    Fix(
                        _want(x["title"], str),
                        tuple(
                            Edit(_range_from(e["range"]), _want(e["new_text"], str))
                            for e in map(lambda e: _want(e, dict), _want(x["edits"], list))
                        ),
                        Applicability(_want(x["applicability"], str)),
                        _want(x["preferred"], bool),
                        _want(x["suppression"], bool),
                    )
                    for x in map(lambda x: _want(x, dict), _want(item["fixes"], list))
                ],
            )
        )
    return findings


def _write_gitignore(directory: str) -> None:
    marker = os.path.join(directory, ".gitignore")
    if not os.path.exists(marker):
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write("# Created by pallas-ls automatically.\n*\n")
