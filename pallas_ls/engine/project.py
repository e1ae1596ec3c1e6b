"""Cross-module facts: kernels defined in one file and launched from another.

Imports are resolved from the file system the way Python would find them (packages, `__init__.py`,
relative imports), without importing anything.  The kernel is reported in the file that defines
it, with the launch in the other file as related information.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import Linter, ModuleAnalysis, analyze, analyze_model
from .cancel import Cancelled, StopCheck, stop_if
from .dependencies import UNREADABLE, Dependencies, Lookup, text_digest
from .environment import Environment
from .files import FileResult, UnreadableFile, file_digest, read_source
from .findings import Finding
from .gcpause import paused_gc
from .kernels import KernelSite, KernelTarget, Launch, function_at
from .launches import launching_summary
from .locating import ModuleLocator
from .model import ModuleModel
from .names import mentions_pallas
from .source import SourceFile
from .text_imports import quiet_launchers
from .values.domain import EMPTY_ENV, Env
from .values.interpreter import Loader

log = logging.getLogger(__name__)

# How many re-exports (`from .impl import k` in an __init__) we follow.
_MAX_REEXPORTS = 4


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
class Project(ModuleLocator):
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


class _ProjectLoader(Loader):
    """Finds the modules an analysed file imports, in the project, then in its environment
    (never importing them)."""

    def __init__(self, project: Project, root_path: str | None, own_record: bool = False):
        self.project = project
        self.root_path = os.path.abspath(root_path) if root_path else None
        self._paths: dict[int, str] = {}
        self._names: dict[int, str] = {}  # id(model) -> the dotted name an absolute import found it by
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
        if not dotted.startswith("."):
            parts = dotted.split(".")
            self._names.setdefault(id(model), ".".join(parts[: len(parts) - len(rest)]))
        self._sources[id(model)] = source
        if in_environment:
            self._environment_paths[module_path] = (package or "") if dotted.startswith(".") else dotted.split(".")[0]
        return model, rest

    def path_of(self, model: ModuleModel) -> str | None:
        return self._paths.get(id(model))

    def module_name(self, model: ModuleModel) -> str | None:
        return self._names.get(id(model))

    def source_of(self, model: ModuleModel) -> SourceFile | None:
        return self._sources.get(id(model))

    def from_environment(self, model: ModuleModel) -> bool:
        return self._paths.get(id(model)) in self._environment_paths

    def launching_summary(self, model: ModuleModel) -> dict[int, Any] | None:
        path = self._paths.get(id(model))
        if path is None or path in self._environment_paths:
            return None  # environment modules are followed from their package: not summarised alone
        return self.project.launching_summary(model, path, self.dependencies)
