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
import logging
import multiprocessing
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from .dependencies import Dependencies, Lookup, text_digest
from .environment import Environment
from .files import FileResult, UnreadableFile, file_digest, read_source
from .findings_cache import AcrossResults, Checked, FindingsCache, cache_key, keyed_digest
from .gcpause import collected_once, freeze_survivors
from .locating import ModuleLocator
from .names import mentions_pallas
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
    cache = FindingsCache(cache_dir, getattr(lint, "cache_key", "")) if cache_dir else None
    unchanged = _Unchanged(_OneRunLocator(environment=environment))
    results: dict[str, FileResult] = {}
    to_analyse: list[tuple[str, str]] = []  # (path, cache key)
    quiet: dict[str, str] = {}  # files that never say "pallas": path -> text
    keys: dict[str, str] = {}  # files that say "pallas": path -> cache key
    checked: list[Checked] = []
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
        keys[path] = key = cache_key(path, text, environment)
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
        keys.update((p, cache_key(p, quiet[p], environment)) for p in quiet_ones)
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
                    key = cache_key(path, _read_text(path), self.environment)
                except UnreadableFile as exc:
                    key = exc.reason
            parts += [path, key]
        return keyed_digest(parts)

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
    ) -> AcrossResults:
        """Every group of launchers with the files it launches kernels of: from the cache, or
        checked (in worker processes when there are several).  Groups found to reach one file (a
        quiet launcher's target, an import the roots resolve otherwise than a file's own analysis
        did) are checked again, together: the results are those of one project holding them all."""
        done: dict[tuple[str, ...], AcrossResults] = {}
        unknown = []
        for group in groups or [self.launchers]:
            cached = cache.get(group) if cache is not None else None
            if cached is not None:
                done[tuple(group)] = cached
            else:
                unknown.append(group)
        fresh: list[AcrossResults] = []
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
        return AcrossResults(list(results.values()), recording)

    def _check_each(
        self, lint: Linter, groups: list[list[str]], jobs: int, parsed: ParsedModules
    ) -> list[AcrossResults]:
        if len(groups) > 1 and jobs > 1:
            parallel = self._check_groups(lint, groups, jobs)
            if parallel is not None:
                return parallel
        return [_check_group(group, self, lint, parsed) for group in groups]

    def _check_groups(self, lint: Linter, groups: list[list[str]], jobs: int) -> list[AcrossResults] | None:
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

    cache: FindingsCache
    across: _Across
    keys: dict[str, str]  # a checked file's own cache key, by path
    _unchanged: _Unchanged | None = None
    _group_keys: dict[tuple[str, ...], str] = field(default_factory=dict)  # a group missed is put later

    def _key(self, group: Sequence[str]) -> str:
        key = self._group_keys.get(tuple(group))
        if key is None:
            key = self._group_keys[tuple(group)] = self.across.group_key(group, self.keys)
        return key

    def get(self, group: Sequence[str]) -> AcrossResults | None:
        found = self.cache.get_across(self._key(group))
        if found is None:
            return None
        if self._unchanged is None:
            self._unchanged = _Unchanged(self.across.locator())
        return found if self._unchanged.still(found.dependencies) else None

    def put(self, group: Sequence[str], found: AcrossResults) -> None:
        if all(r.error is None for r in found.results):
            self.cache.put_across(self._key(group), found)


def _meeting(done: dict[tuple[str, ...], AcrossResults]) -> set[tuple[str, ...]]:
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
) -> AcrossResults:
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
    return AcrossResults(results, recording)


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
) -> list[tuple[Checked, str]]:
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


def _analyse_one(path: str) -> Checked:
    """One file on its own (in a worker): its findings, and whether it launches imported kernels."""
    with collected_once():
        return _analysed(path)


def _analysed(path: str) -> Checked:
    project = _project
    if project is None:
        raise RuntimeError("_begin() sets up the check before files are analysed")
    try:
        analysis = project.analysis_of(path)
        findings = project.check_paths([path])[0].findings
        return Checked(
            path,
            findings,
            standalone=not analysis.imported,
            launching=analysis.launching,
            dependencies=project.dependencies_of(analysis),
            targets=frozenset(project.kernel_modules_launched_by(path)) if analysis.imported else frozenset(),
        )
    except UnreadableFile as exc:
        return Checked(path, [exc.finding(path)], True, exc.reason)
    except Exception:  # noqa: BLE001 - one file the engine cannot handle must not hide the rest
        log.exception("internal error while checking %s", path)
        return Checked(path, [], True, "internal error")
