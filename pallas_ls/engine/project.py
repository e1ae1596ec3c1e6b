"""Cross-module facts: kernels defined in one file and launched from another.

Imports are resolved from the file system the way Python would find them (packages, `__init__.py`,
relative imports), without importing anything.  The kernel is reported in the file that defines
it, with the launch in the other file as related information.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import stat  # read_file_bytes: only regular files are read (issue 15)
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import Linter, ModuleAnalysis, analyze, analyze_model
from .cancel import Cancelled, StopCheck, stop_if
from .dependencies import UNREADABLE, Dependencies, Lookup, text_digest
from .environment import Environment
from .findings import UNREADABLE_CODE, Finding, Severity
from .gcpause import paused_gc
from .kernels import KernelSite, KernelTarget, Launch, function_at
from .launches import launching_summary
from .model import ModuleModel
from .names import import_statements, mentions_pallas
from .notebook import Notebook, NotebookError, is_notebook_path
from .source import Range, SourceFile
from .values.domain import EMPTY_ENV, Env
from .values.interpreter import Loader

log = logging.getLogger(__name__)

# How many re-exports (`from .impl import k` in an __init__) we follow.
_MAX_REEXPORTS = 4


@dataclass
class FileResult:
    path: str
    findings: list[Finding]
    error: str | None = None  # the file could not be read or decoded


@dataclass(frozen=True)
class ForeignLaunch:
    """A launch in `launch_path` of a kernel that `def_path` defines under `name`."""

    launch_path: str
    launch: Launch
    launch_source: SourceFile
    def_path: str
    name: str
    bound_positional: int
    bound_keywords: frozenset[str]
    env: Env = EMPTY_ENV  # the closure the kernel was made in (its bindings are of the def file's model)


_FILE_START = Range.of(0, 0, 0, 0)


class UnreadableFile(Exception):
    """A file that cannot be read or is not UTF-8; `where` is the offending byte's position."""

    def __init__(self, reason: str, where: Range = _FILE_START):
        super().__init__(reason)
        self.reason = reason
        self.where = where

    def finding(self, path: str | None) -> Finding:
        return Finding(UNREADABLE_CODE, f"Unreadable file: {self.reason}", self.where, path, Severity.ERROR)


# Issue 15: a file bigger than this is reported (PAL900 "too large") instead of read.  The CLI
# and the server set it from the `max-file-size` setting (set_max_file_size).
DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024
max_file_size = DEFAULT_MAX_FILE_SIZE


def set_max_file_size(size: int | None) -> None:
    global max_file_size
    max_file_size = DEFAULT_MAX_FILE_SIZE if size is None else size


def read_file_bytes(path: str) -> bytes:
    """The bytes of a regular file of at most `max_file_size` bytes; UnreadableFile otherwise.

    Issue 15: a FIFO named *.py blocked `open` forever, a symlink to /dev/zero read until memory
    ran out.  The path is stat'ed before it is opened (a FIFO or a device is never opened), opened
    non-blocking (in case it was swapped for a FIFO since), checked again on the open descriptor,
    and read up to one byte past the limit (a file growing meanwhile is caught too)."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise UnreadableFile("is not a regular file")
        if before.st_size > max_file_size:
            raise UnreadableFile(too_large_reason(before.st_size))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise UnreadableFile(f"cannot be read ({exc.strerror or exc})") from exc
    try:
        after = os.fstat(fd)
        if not stat.S_ISREG(after.st_mode):
            raise UnreadableFile("is not a regular file")
        chunks, size = [], 0
        while size <= max_file_size:
            chunk = os.read(fd, min(1 << 20, max_file_size + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableFile(f"cannot be read ({exc.strerror or exc})") from exc
    finally:
        os.close(fd)
    if size > max_file_size:
        raise UnreadableFile(too_large_reason(size, at_least=True))
    return b"".join(chunks)


def text_too_large(text: str) -> UnreadableFile | None:
    """An editor's buffer over `max_file_size`, as `read_file_bytes` refuses a file that size
    (issue 35: a 52 MB buffer cost the server 39 s and 9.5 GB).  Its size in UTF-8 is only
    computed when it could be over (a character is at most four bytes)."""
    if len(text) * 4 <= max_file_size:
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    return UnreadableFile(too_large_reason(size)) if size > max_file_size else None


def too_large_reason(size: int, at_least: bool = False) -> str:
    more = "more than " if at_least else ""
    return f"is too large ({more}{size} bytes; the limit is {max_file_size}, see the `max-file-size` setting)"


def read_source(path: str) -> SourceFile:
    """Read and decode one file; UnreadableFile says why it could not be."""
    return source_from_bytes(read_file_bytes(path), path)


def source_from_bytes(data: bytes, path: str | None) -> SourceFile:
    """A file's source; for a notebook (`*.ipynb`), its code cells as one module."""
    try:
        source = SourceFile.from_bytes(data, path)
    except UnicodeDecodeError as exc:
        reason = f"not valid UTF-8 (byte 0x{data[exc.start]:02X} cannot be decoded)"
        raise UnreadableFile(reason, _byte_position(data, exc.start)) from exc
    if not is_notebook_path(path):
        return source
    try:
        notebook = Notebook.parse(source.text)
    except NotebookError as exc:
        raise UnreadableFile(str(exc), Range.of(0, 0, 0, 1)) from None
    return SourceFile(notebook.python, path, source.had_bom, notebook=notebook)


def _byte_position(data: bytes, offset: int) -> Range:
    """Where an undecodable byte is, in code points of the valid text before it."""
    before = data[:offset]
    line = before.count(b"\n")
    column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace"))
    return Range.of(line, column, line, column + 1)


@dataclass
class _Summary:
    """A module's launching functions, made once per check (None while being made)."""

    model: ModuleModel
    launching: dict[int, Any] | None = None
    dependencies: Dependencies = field(default_factory=Dependencies)


@dataclass
class _Entry:
    text: str  # compared whole: equal strings compare at memcmp speed, far cheaper than hashing
    analysis: ModuleAnalysis

    @property
    def loaded_others(self) -> bool:
        interp = getattr(self.analysis.model, "_interpreter", None)
        return bool(interp is not None and interp.loaded)


# How `Project.findings_for` analyses a text it has no analysis of: (source, the project's loader,
# should_stop) -> analysis.  None: a whole analysis; the editor's open documents pass an
# incremental one (engine/open_documents.py).
TextAnalyser = Callable[[SourceFile, Loader, StopCheck], ModuleAnalysis]


@dataclass
class ParsedModules:
    """What several projects of one check may share (`Project.parsed`): the project modules read
    through imports, parsed and modelled, and what each may launch."""

    models: dict[str, tuple[SourceFile, ModuleModel]] = field(default_factory=dict)
    summaries: dict[str, _Summary] = field(default_factory=dict)


@dataclass
class Project:
    """A set of files analysed together (kernels defined in one, launched from another).

    `lint` runs the rules on an analysis: the engine knows none (pallas_ls.lint.Project sets the
    product's rules).  A path's text is read from disk unless an overlay stands in for it
    (`set_overlay`: the text of a `check --fix` round, or of a document open in an editor).  What
    only an editor keeps about its open documents lives beside the project, in
    engine/open_documents.OpenDocuments."""

    roots: Sequence[str] = ()
    lint: Linter | None = None
    _analyses: dict[str, _Entry] = field(default_factory=dict)
    _overlays: dict[str, str] = field(default_factory=dict)
    _index: dict[str, list[ForeignLaunch]] = field(default_factory=dict)  # launch path -> launches
    # The same launches by the file defining the kernel: def path -> launch path -> launches.
    _launched_in: dict[str, dict[str, list[ForeignLaunch]]] = field(default_factory=dict)
    # Modules read through imports: an overlay of one of them drops what was made from them.
    _consulted: set[str] = field(default_factory=set)
    _models: dict[str, tuple[SourceFile, ModuleModel]] = field(default_factory=dict)  # modules read by imports
    # Where imports the project cannot resolve are looked up (installed and editable packages);
    # None: the project only.  Modules read from it are followed, never checked.
    environment: Environment | None = None
    # When set, every import any analysis of the project resolves and every file it reads is
    # recorded here (`check` caches what a whole cross-module phase depended on); else each
    # analysis' loader records its own (engine/dependencies.py).
    recording: Dependencies | None = None
    # A whole-project check (files do not change while it runs) shares what each imported module
    # may launch between the analyses that import it (`launching_summary`): issue 33, a kernel
    # library's helpers were summarised again by every file importing them.
    share_summaries: bool = False
    _summaries: dict[str, _Summary] = field(default_factory=dict)
    # Projects of one check run one after another (the cross-module phase's groups, each recording
    # what it reads) share the modules read through imports and their summaries: a read of either
    # is recorded by each analysis that makes it (a summary's reads are its own, added to each
    # analysis using it), so sharing them loses nothing of what a group depends on.
    parsed: ParsedModules | None = None

    def __post_init__(self) -> None:
        self.roots = [os.path.abspath(r) for r in self.roots]
        if self.parsed is not None:
            self._models, self._summaries = self.parsed.models, self.parsed.summaries

    # ------------------------------------------------------------------------- overlays
    def set_overlay(self, path: str, text: str | None) -> None:
        """Read `path`'s text from here instead of disk from now on (None: from disk again).

        The one way a front end puts its own text in place of a file's: what depends on the old
        text (import resolutions through it, analyses that read it) is made again when needed."""
        path = os.path.abspath(path)
        if path in self._consulted and self._overlays.get(path) != text:
            self._forget_resolutions()
        if text is None:
            self._overlays.pop(path, None)
        else:
            self._overlays[path] = text

    def overlay_of(self, path: str) -> str | None:
        """The text read for `path` instead of disk, if any."""
        return self._overlays.get(os.path.abspath(path))

    def analysis_of(self, path: str) -> ModuleAnalysis:
        """The (cached) analysis of a file's current text; raises UnreadableFile."""
        return self._analysis_for(self._source_of(os.path.abspath(path)))

    def _source_of(self, path: str) -> SourceFile:
        if path in self._overlays:
            source = SourceFile.from_text(self._overlays[path], path)
        else:
            try:
                source = read_source(path)
            except UnreadableFile:
                if self.recording is not None:
                    self.recording.add_file(path, UNREADABLE)
                raise
        if self.recording is not None:
            self.recording.add_file(path, text_digest(source.text))
        return source

    def _analysis_for(self, source: SourceFile) -> ModuleAnalysis:
        cached = self._analyses.get(source.path or "")
        if cached is not None and cached.text == source.text:
            return cached.analysis
        loaded = self._models.get(source.path or "")
        if loaded is not None and loaded[0].text == source.text:
            # The model imports already read: closures made there keep their bindings' identity.
            analysis = analyze_model(loaded[0], loaded[1], self._loader(source))
        else:
            analysis = analyze(source, self._loader(source))
        self._analyses[source.path or ""] = _Entry(source.text, analysis)
        return analysis

    # ----------------------------------------------------------------------- checking
    def check_paths(self, paths: Iterable[str], analyse_all: bool = False) -> list[FileResult]:
        """Check files together: kernels launched by one of them are checked where defined.

        A file that never mentions Pallas cannot launch a kernel, so it is not even parsed unless
        another file launches a kernel it defines (the cheap prefilter that makes big trees fast).
        """
        with paused_gc():
            return self._check_paths([os.path.abspath(p) for p in paths], analyse_all)

    def _check_paths(self, paths: list[str], analyse_all: bool = False) -> list[FileResult]:
        results: dict[str, FileResult] = {}
        analyses: dict[str, ModuleAnalysis] = {}
        skipped: dict[str, SourceFile] = {}
        for path in paths:
            try:
                source = self._source_of(path)
                if analyse_all or mentions_pallas(source.text):
                    analyses[path] = self._analysis_for(source)
                else:
                    results[path] = FileResult(path, [])
                    skipped[path] = source
            except UnreadableFile as exc:
                results[path] = FileResult(path, [exc.finding(path)], exc.reason)
            except Exception:  # noqa: BLE001 - e.g. a RecursionError deep in a pathological file
                log.exception("internal error while analysing %s", path)
                results[path] = FileResult(path, [], "internal error")
        # A file that never says "pallas" can still launch through a wrapper it imports from one
        # that does: analyse those that import a module named like a Pallas file of the check.
        launching = {p: a.launching for p, a in analyses.items() if a.launching}
        texts = {path: source.text for path, source in skipped.items()}
        for path in quiet_launchers(launching, texts, self.imports_pallas_from_environment):
            try:
                analyses[path] = self._analysis_for(skipped[path])
            except Exception:  # noqa: BLE001
                log.exception("internal error while analysing %s", path)
        foreign: dict[str, list[ForeignLaunch]] = {}
        for path, analysis in list(analyses.items()):
            for launch in self._foreign_launches(path, analysis):
                foreign.setdefault(launch.def_path, []).append(launch)
        for def_path in foreign:
            if def_path in results and def_path not in analyses and results[def_path].error is None:
                analyses[def_path] = self.analysis_of(def_path)
        for path, analysis in analyses.items():
            try:
                results[path] = FileResult(path, self._run(analysis, foreign.get(path, [])))
            except Exception:  # noqa: BLE001 - one file the engine cannot handle must not hide the rest
                log.exception("internal error while checking %s", path)
                results[path] = FileResult(path, [], "internal error")
        return [results[p] for p in paths]

    def set_environment(self, environment: Environment | None) -> None:
        """Follow imports beyond the project into `environment` from now on (the interpreter
        setting changed): every analysis and known finding is made again when next asked for."""
        self.environment = environment
        self._forget_resolutions()
        self._analyses.clear()

    def imports_pallas_from_environment(self, text: str) -> bool:
        """Whether a file that never says "pallas" imports an installed module that may launch."""
        return self.environment is not None and self.environment.imports_pallas(text)

    def findings_for(
        self, path: str, text: str, should_stop: StopCheck = None, analyse: TextAnalyser | None = None
    ) -> list[Finding]:
        """Findings for `path` with `text` as its overlay from now on, including kernels launched
        from indexed files; `analyse` makes the analysis when there is none of `text` (None: a
        whole one; OpenDocuments passes an incremental one).

        Cancelled when `should_stop` says so (engine/cancel.py), leaving the project as if this
        call had never been made (while the text is analysed: its overlay is put back, and
        `analyse` puts its own state back), or as after a whole analysis of `text` (before the
        rules, which change nothing the project keeps)."""
        path = os.path.abspath(path)
        stop_if(should_stop)
        before = self._overlays.get(path)
        self.set_overlay(path, text)
        if (
            not mentions_pallas(text)
            and not self._launches_of_kernels_in(path)
            and not self.imports_pallas_from_environment(text)
        ):
            self._set_launches(path, [])
            findings: list[Finding] = []  # it launches nothing, and no indexed file launches a kernel it defines
        else:
            try:
                analysis = self._analysis_of_text(path, text, should_stop, analyse)
            except Cancelled:
                # `_analyses` and `_index` still hold the previous version's analysis and
                # launches: the overlay goes back to its text too.  (Setting the overlay may have
                # dropped resolutions and loaded models: caches only, made again when needed.)
                self.set_overlay(path, before)
                raise
            # No cancel between the analysis and its launches: once the new model is made, the
            # previous version's (which the old launches hold) no longer has its own bindings.
            self._set_launches(path, self._foreign_launches(path, analysis))
            stop_if(should_stop)
            findings = self.lint_analysis(path, analysis)
        return findings

    def findings_of_text(self, path: str, text: str) -> list[Finding]:
        """The findings `path` would have with `text`, with the indexed launches of its kernels
        elsewhere, leaving its overlay (the editor's text) as it is: what a fix-all round sees."""
        path = os.path.abspath(path)
        source = SourceFile.from_text(text, path)
        return self.lint_analysis(path, analyze(source, self._loader(source)))

    def lint_analysis(self, path: str, analysis: ModuleAnalysis) -> list[Finding]:
        """The rules on an analysis of `path`'s text (any version of it), with the indexed
        launches of its kernels in other files."""
        return self._run(analysis, self._launches_of_kernels_in(os.path.abspath(path)))

    def kernels_launched_elsewhere(self, path: str) -> frozenset[str]:
        """The names of the functions `path` defines that indexed files launch as kernels."""
        return frozenset(f.name.split(".")[0] for f in self._launches_of_kernels_in(os.path.abspath(path)))

    def _launches_of_kernels_in(self, path: str) -> list[ForeignLaunch]:
        """The indexed launches, in other files, of kernels that `path` defines."""
        return [f for entries in self._launched_in.get(path, {}).values() for f in entries]

    def _set_launches(self, path: str, launches: list[ForeignLaunch]) -> None:
        """Record the cross-module launches written in `path`, in both directions."""
        for old in self._index.pop(path, []):
            by_launcher = self._launched_in.get(old.def_path, {})
            by_launcher.pop(path, None)
            if not by_launcher:
                self._launched_in.pop(old.def_path, None)
        if not launches:
            return
        self._index[path] = launches
        for launch in launches:
            self._launched_in.setdefault(launch.def_path, {}).setdefault(path, []).append(launch)

    def _analysis_of_text(
        self, path: str, text: str, should_stop: StopCheck, analyse: TextAnalyser | None
    ) -> ModuleAnalysis:
        source = SourceFile.from_text(text, path)
        if analyse is None:
            return self._analysis_for(source)
        cached = self._analyses.get(path)
        if cached is not None and cached.text == source.text:
            return cached.analysis
        analysis = analyse(source, self._loader(source), should_stop)
        self._analyses[path] = _Entry(source.text, analysis)
        return analysis

    def _run(self, analysis: ModuleAnalysis, launches: list[ForeignLaunch]) -> list[Finding]:
        analysis.foreign_sites = [site for f in launches for site in self._sites_in(analysis, f)]
        if self.lint is None:
            raise TypeError("this Project has no rules to run: make it with pallas_ls.lint.Project")
        return self.lint(analysis)

    # -------------------------------------------------------------------------- index
    def index_file(self, path: str) -> None:
        """Record (or refresh) the cross-module launches written in `path` (it changed on disk)."""
        path = os.path.abspath(path)
        self._forget_resolutions()
        try:
            analysis = self.analysis_of(path)
        except UnreadableFile:
            self._set_launches(path, [])
            return
        self._set_launches(path, self._foreign_launches(path, analysis))

    def forget_file(self, path: str) -> None:
        path = os.path.abspath(path)
        self._forget_resolutions()
        self._set_launches(path, [])
        self._analyses.pop(path, None)

    def wrappers_of(self, paths: Iterable[str]) -> dict[str, frozenset[str]]:
        """The launching names (`ModuleAnalysis.launching`: wrappers, launchers decided by their
        own calls) of those of `paths` that have any, from their analyses."""
        found = {}
        for path in paths:
            try:
                names = self.analysis_of(os.path.abspath(path)).launching
            except UnreadableFile:
                continue
            if names:
                found[os.path.abspath(path)] = names
        return found

    def kernel_modules_launched_by(self, path: str) -> set[str]:
        """The files defining kernels that `path` imports and launches."""
        path = os.path.abspath(path)
        try:
            analysis = self.analysis_of(path)
        except UnreadableFile:
            return set()
        return {f.def_path for f in self._foreign_launches(path, analysis)}

    def dependents(self, path: str) -> set[str]:
        """Files whose kernels `path` launches (their findings change when `path` does)."""
        path = os.path.abspath(path)
        return {f.def_path for f in self._index.get(path, [])}

    def launched_files(self) -> set[str]:
        """The files defining kernels that indexed files launch."""
        return set(self._launched_in)

    def launchers_of(self, path: str) -> set[str]:
        path = os.path.abspath(path)
        return set(self._launched_in.get(path, {}))

    # ---------------------------------------------------------------- import resolution
    def _foreign_launches(self, path: str, analysis: ModuleAnalysis) -> list[ForeignLaunch]:
        """The launches `path` makes (or reaches through wrappers) of kernels other files define."""
        interp = getattr(analysis.model, "_interpreter", None)
        loader = interp.loader if interp is not None else None
        found = []
        for foreign in analysis.imported:
            def_path = loader.path_of(foreign.model) if loader is not None else None
            if def_path is None or loader is None or loader.from_environment(foreign.model):
                continue  # findings are reported in the project's files only
            launch_path, launch_source = path, analysis.source
            if foreign.launch.model is not analysis.model and loader is not None:
                launch_path = loader.path_of(foreign.launch.model) or path
                launch_source = loader.source_of(foreign.launch.model) or analysis.source
            found.append(
                ForeignLaunch(
                    launch_path,
                    foreign.launch,
                    launch_source,
                    os.path.abspath(def_path),
                    foreign.qualpath,
                    foreign.bound_positional,
                    foreign.bound_keywords,
                    foreign.env,
                )
            )
        return found

    @staticmethod
    def dependencies_of(analysis: ModuleAnalysis) -> Dependencies:
        """What `analysis` read besides its own file: the imports it resolved, the files it read."""
        interp = getattr(analysis.model, "_interpreter", None)
        loader = interp.loader if interp is not None else None
        return loader.dependencies if isinstance(loader, _ProjectLoader) else Dependencies()

    def _forget_resolutions(self) -> None:
        self._consulted.clear()
        self._summaries.clear()
        # Analyses read other modules' models through the loader: they are stale now too.
        self._models.clear()
        for path in [p for p, entry in self._analyses.items() if entry.loaded_others]:
            self._analyses.pop(path, None)

    def launching_summary(self, model: ModuleModel, path: str, asking: Dependencies) -> dict[int, Any] | None:
        """What the project module at `path` (read as `model`) may launch, computed once by an
        analysis rooted at it; its reads are added to `asking`.  None when summaries are not
        shared, or while this module's own summary is being made (modules importing each other)."""
        if not self.share_summaries:
            return None
        summary = self._summaries.get(path)
        if summary is None or summary.model is not model:
            summary = self._summaries[path] = _Summary(model)
            loader = _ProjectLoader(self, path, own_record=True)
            summary.launching = launching_summary(model, loader)
            summary.dependencies = loader.dependencies
        if summary.launching is None:
            return None
        asking.include(summary.dependencies)
        return summary.launching

    # ------------------------------------------------------------------ module loading
    def _loader(self, source: SourceFile) -> _ProjectLoader:
        return _ProjectLoader(self, source.path)

    def model_of(self, path: str) -> tuple[SourceFile, ModuleModel] | None:
        """The source and model of a project module, parsed once (imports of it read it as source)."""
        path = os.path.abspath(path)
        entry = self._analyses.get(path)
        if entry is not None:
            return entry.analysis.source, entry.analysis.model
        cached = self._models.get(path)
        if cached is None:
            try:
                source = self._source_of(path)
            except UnreadableFile:
                return None
            if source.syntax_problems and not source.tree.body:
                return None
            cached = (source, ModuleModel(source.tree))
            self._models[path] = cached
        self._consulted.add(path)
        return cached

    def _locate_module(self, from_path: str, dotted: str) -> tuple[str, list[str]] | None:
        level = len(dotted) - len(dotted.lstrip("."))
        parts = [p for p in dotted[level:].split(".") if p]
        if level:
            base = os.path.dirname(os.path.abspath(from_path))
            for _ in range(level - 1):
                base = os.path.dirname(base)
            search = [base]
        else:
            search = self._search_roots(from_path)
        for cut in range(len(parts), -1, -1):
            for directory in search:
                # `from . import REGISTRY`: no module `.REGISTRY`, a name of the package's __init__
                module_file = _module_file(directory, parts[:cut]) if cut or not level else _package_init(directory)
                if module_file is not None:
                    return module_file, parts[cut:]
        return None

    def locate_import(
        self, from_path: str, dotted: str, package: str | None
    ) -> tuple[tuple[str, list[str]] | None, bool]:
        """Where `dotted` (imported in `from_path`) is, and whether that is in the environment.
        Relative imports stay in their package; an absolute one is the project's first, then the
        environment's, but the absolute imports of an installed module (`package`: the top-level
        package it was found under) are the environment's, as Python would find them."""
        environment = self.environment
        relative = dotted.startswith(".")
        if package is None or relative:
            located = self._locate_module(from_path, dotted)
            if located is not None or relative or environment is None:
                return located, package is not None and located is not None
        located = environment.locate(dotted) if environment is not None else None
        if (
            located is None
            or dotted.split(".")[0] == package
            or environment is None
            or environment.leads_to_pallas(located[0])
        ):
            return located, located is not None
        # A package that never leads to Pallas (scipy, a tokenizer) cannot launch a kernel: it
        # stays opaque, as if not installed, instead of being parsed module after module.
        return None, False

    def resolves_as_before(self, lookup: Lookup) -> str | None:
        """Where `lookup`'s import resolves now (for Dependencies.still_hold)."""
        located, _ = self.locate_import(lookup.from_path, lookup.dotted, lookup.package)
        return os.path.abspath(located[0]) if located is not None else None

    def _search_roots(self, from_path: str) -> list[str]:
        """Where absolute imports are looked up: above the file's top package, then the roots."""
        directory = os.path.dirname(os.path.abspath(from_path))
        top = directory
        while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
            top = os.path.dirname(top)
        roots = [top, directory]
        for root in self.roots:
            roots += [root, os.path.join(root, "src")]
        return list(dict.fromkeys(roots))

    # ----------------------------------------------------------------------- targets
    def _sites_in(self, analysis: ModuleAnalysis, foreign: ForeignLaunch) -> list[KernelSite]:
        """Kernel sites in `analysis` (the defining module) for one foreign launch."""
        if os.path.abspath(analysis.path or "") != foreign.def_path:
            return []
        function = function_at(analysis.model, foreign.name)
        if function is None:
            return []
        target = KernelTarget(function, foreign.bound_positional, foreign.bound_keywords, foreign.env)
        return [KernelSite(foreign.launch, target, foreign.launch_path, foreign.launch_source)]


def file_digest(path: str) -> str:
    """The digest of a file's text as the project reads it (UNREADABLE when it cannot be)."""
    try:
        return text_digest(read_source(path).text)
    except UnreadableFile:
        return UNREADABLE


def mentions_one_of(text: str, names: frozenset[str]) -> bool:
    """Whether `text` holds one of `names` as a whole word (a substring search first: a regular
    expression tried at every position of a long text costs 20 times more)."""
    return any(name and name in text and _word(name).search(text) for name in names)


@functools.lru_cache(maxsize=256)
def _word(name: str) -> re.Pattern[str]:
    return re.compile(r"\b" + re.escape(name) + r"\b")


# What marks a project's root, looking up from a checked file (as ruff finds its pyproject).
_ROOT_MARKERS = ("pyproject.toml", ".git", "setup.py", "setup.cfg")


def project_root(path: str) -> str:
    """The nearest directory above `path` with a pyproject.toml, .git, setup.py or setup.cfg
    (the file's own directory when there is none)."""
    start = os.path.dirname(os.path.abspath(path))
    directory = start
    while True:
        if any(os.path.exists(os.path.join(directory, marker)) for marker in _ROOT_MARKERS):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return start
        directory = parent


def quiet_launchers(
    wrappers: dict[str, frozenset[str]],
    quiet: dict[str, str],
    imports_pallas: Callable[[str], bool] | None = None,
) -> list[str]:
    """Of the files that never say "pallas" (`quiet`: path -> text), those that may launch a kernel:
    they import a file holding wrappers (`wrappers`: path -> the wrappers' names, see
    ModuleAnalysis.launching) and name one, or they import an installed module that may launch
    (`imports_pallas`).  One step further: a file so found holds what it makes of a wrapper at
    module level as a wrapper in turn - a subclass (`class Fancy(base.Op)` in fancy.py; then
    main.py's `fancy.Fancy().run(x)` launches Op.run's kernel), a function calling one, a partial
    or alias of one (`fast = functools.partial(launch.launch, ...)`).  Read as text, never parsed."""
    found = [path for path, text in quiet.items() if imports_pallas is not None and imports_pallas(text)]
    left = {path: text for path, text in quiet.items() if path not in found}
    holding = {path: names for path, names in wrappers.items() if names}
    for _ in range(_QUIET_STEPS):
        if not holding or not left:
            break
        imported = ImportedFiles(holding)
        names = frozenset().union(*holding.values())
        step = [
            path for path, text in left.items() if mentions_one_of(text, names) and imported.imported_by(text, path)
        ]
        found += step
        holding = {path: _wrappers_made_of(left.pop(path), names) for path in step}
        holding = {path: made for path, made in holding.items() if made}
    return found


_CLASS_WITH_BASES = re.compile(r"^class\s+([A-Za-z_]\w*)\s*\(([^)]*)\)", re.MULTILINE)
# A module-level def or assignment: its line at column 0 and the indented (or blank) lines after it.
_DEF_OR_ASSIGNMENT = re.compile(
    r"^(?:(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)|([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=))"
    r"(.*(?:\n(?:[ \t]+.*|[ \t]*(?=\n)))*)",
    re.MULTILINE,
)


def _wrappers_made_of(text: str, names: frozenset[str]) -> frozenset[str]:
    """The module-level names of `text` made of one of `names`: a class deriving from a wrapper
    class (`class Fancy(base.Op)`), a function calling a wrapper, an alias or partial of one
    (`fast = functools.partial(launch.launch, kernel=k)`)."""
    subclasses = {cls for cls, bases in _CLASS_WITH_BASES.findall(text) if mentions_one_of(bases, names)}
    made = {
        defined or assigned
        for defined, assigned, rest in _DEF_OR_ASSIGNMENT.findall(text)
        if mentions_one_of(rest, names)
    }
    return frozenset(subclasses | made)


# How many files deep `quiet_launchers` follows imports from a wrapper's file: its importers, and theirs.
_QUIET_STEPS = 2


def launching_context(named: Iterable[str], candidates: Iterable[str]) -> list[str]:
    """The candidate files that may launch a kernel defined in a named file: they say "pallas" and
    import a module named like one of the named files (read as text; never parsed here).

    `check kern.py` (pre-commit passes only the changed files) must see the launch in launch.py
    that makes kern.py's function a kernel; these files are analysed with the named ones, and
    their own findings are not reported.  A file that never says "pallas" is one too when it names
    a function or class a named Pallas file defines at module level (`from ops import run;
    run("bump", x)`: what `run` launches is decided by its calls, this one included), and so are
    those `quiet_launchers` finds one step further (a subclass of such a class, and its users)."""
    named = [os.path.abspath(p) for p in named]
    imported = ImportedFiles(named)
    wanted = set(named)
    found = []
    quiet: dict[str, str] = {}
    for path in candidates:
        path = os.path.abspath(path)
        if path in wanted:
            continue
        try:
            text = read_file_bytes(path).decode("utf-8", errors="replace")
        except UnreadableFile:
            continue
        if mentions_pallas(text):
            if imported.imported_by(text, path):
                found.append(path)
        else:
            quiet[path] = text
    return found + quiet_launchers(_defined_in_pallas_files(named), quiet)


_TOP_LEVEL_DEF = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)


def _defined_in_pallas_files(paths: list[str]) -> dict[str, frozenset[str]]:
    """The module-level defs and classes of each of `paths` that says "pallas" (read as text)."""
    names: dict[str, frozenset[str]] = {}
    for path in paths:
        try:
            text = read_file_bytes(path).decode("utf-8", errors="replace")
        except UnreadableFile:
            continue
        if mentions_pallas(text):
            names[path] = frozenset(_TOP_LEVEL_DEF.findall(text))
    return names


class ImportedFiles:
    """Whether a file's import lines name one of some files as a module (read as text, never
    parsed): `import a.wrap`, `from a.wrap import f`, `from a import wrap`, `from . import wrap`,
    or the package whose `__init__` imports one of them (a re-export).

    An absolute import matches a file whose path ends with the dotted name (where the project's
    roots are is not known here); a relative one, the file it names from the importing file's
    directory.  (Matching module names alone made every jax module that imports `jax._src.core`
    a launcher of a wrapper named `core`: 30 files analysed again for nothing, 1.4 s of 3.)"""

    def __init__(self, files: Iterable[str]):
        files = [os.path.abspath(f) for f in files]
        self._files = {_module_parts(f): f for f in files}
        self._modules = set(self._files)
        for directory in {os.path.dirname(f) for f in files}:
            init = os.path.join(directory, "__init__.py")
            if init in files:
                continue
            try:
                with open(init, encoding="utf-8", errors="replace") as handle:
                    text = handle.read(200_000)
            except OSError:
                continue
            if self.imported_by(text, init):
                self._modules.add(_module_parts(init))

    def __bool__(self) -> bool:
        return bool(self._modules)

    def imported_by(self, text: str, path: str) -> bool:
        for module, names in import_statements(text):
            for dotted in (
                module,
                *(f"{module}.{name}" if not module.endswith(".") else module + name for name in names),
            ):
                if self._names_one(dotted, path):
                    return True
        return False

    def files_imported_by(self, text: str, path: str) -> set[str]:
        """Which of the files a file's import lines name (directly, not through a package)."""
        found = set()
        for module, names in import_statements(text):
            for dotted in (
                module,
                *(f"{module}.{name}" if not module.endswith(".") else module + name for name in names),
            ):
                relative, parts = _imported_module(dotted, path)
                found |= {f for module_parts, f in self._files.items() if _matches(module_parts, relative, parts)}
        return found

    def _names_one(self, dotted: str, path: str) -> bool:
        relative, parts = _imported_module(dotted, path)
        if relative:
            return parts in self._modules
        return any(_matches(module, relative, parts) for module in self._modules)


def _imported_module(dotted: str, path: str) -> tuple[bool, tuple[str, ...]]:
    """What an import of `dotted` written in `path` names: (True, the whole module's parts) for a
    relative import, (False, the dotted name's parts, which a module's path ends with) else."""
    level = len(dotted) - len(dotted.lstrip("."))
    parts = tuple(p for p in dotted[level:].split(".") if p)
    if not level:
        return False, parts
    base = os.path.dirname(os.path.abspath(path))
    for _ in range(level - 1):
        base = os.path.dirname(base)
    return True, _module_parts(os.path.join(base, *parts) + ".py")


def _matches(module: tuple[str, ...], relative: bool, parts: tuple[str, ...]) -> bool:
    if relative:
        return module == parts
    return bool(parts) and module[-len(parts) :] == parts


def _module_parts(path: str) -> tuple[str, ...]:
    """`/a/pkg/wrap.py` -> (..., "a", "pkg", "wrap"); a package's `__init__.py` is the package."""
    stem = os.path.splitext(os.path.normpath(path))[0]
    parts = tuple(stem.split(os.sep))
    return parts[:-1] if parts and parts[-1] == "__init__" else parts


def _module_file(directory: str, parts: list[str]) -> str | None:
    if not parts:
        return None
    candidate = os.path.join(directory, *parts)
    if os.path.isfile(candidate + ".py"):
        return candidate + ".py"
    init = os.path.join(candidate, "__init__.py")
    if os.path.isfile(init):
        return init
    return None


def _package_init(directory: str) -> str | None:
    init = os.path.join(directory, "__init__.py")
    return init if os.path.isfile(init) else None


class _ProjectLoader(Loader):
    """Finds the modules an analysed file imports, in the project, then in its environment
    (never importing them)."""

    def __init__(self, project: Project, root_path: str | None, own_record: bool = False):
        self.project = project
        self.root_path = os.path.abspath(root_path) if root_path else None
        self._paths: dict[int, str] = {}
        self._sources: dict[int, SourceFile] = {}
        # Files read from the environment -> the top-level package they were found under.
        self._environment_paths: dict[str, str] = {}
        # What this analysis read besides its own file (or the project's record, when it keeps one
        # and this is not a summary, whose reads each analysis using it adds to its own).
        self.dependencies = project.recording if project.recording is not None and not own_record else Dependencies()

    def module(self, from_model: ModuleModel, dotted: str) -> tuple[ModuleModel, list[str]] | None:
        from_path = self._paths.get(id(from_model), self.root_path)
        if from_path is None:
            return None
        from_path = os.path.abspath(from_path)
        package = self._environment_paths.get(from_path)
        located, in_environment = self.project.locate_import(from_path, dotted, package)
        module_path = os.path.abspath(located[0]) if located is not None else None
        self.dependencies.add_lookup(Lookup(from_path, dotted, package, module_path))
        if located is None or module_path is None:
            return None
        rest = located[1]
        if module_path == self.root_path:
            return None  # the module itself (a package importing from its own __init__)
        if in_environment:
            loaded = self.project.environment.model_of(module_path)  # type: ignore[union-attr]  # in_environment implies an environment
        else:
            loaded = self.project.model_of(module_path)
        self.dependencies.add_file(module_path, text_digest(loaded[0].text) if loaded else file_digest(module_path))
        if loaded is None:
            return None
        source, model = loaded
        self._paths[id(model)] = module_path
        self._sources[id(model)] = source
        if in_environment:
            self._environment_paths[module_path] = (package or "") if dotted.startswith(".") else dotted.split(".")[0]
        return model, rest

    def path_of(self, model: ModuleModel) -> str | None:
        return self._paths.get(id(model))

    def source_of(self, model: ModuleModel) -> SourceFile | None:
        return self._sources.get(id(model))

    def from_environment(self, model: ModuleModel) -> bool:
        return self._paths.get(id(model)) in self._environment_paths

    def launching_summary(self, model: ModuleModel) -> dict[int, Any] | None:
        path = self._paths.get(id(model))
        if path is None or path in self._environment_paths:
            return None  # environment modules are followed from their package: not summarised alone
        return self.project.launching_summary(model, path, self.dependencies)
