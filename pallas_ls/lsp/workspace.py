"""The engine as the server uses it: one document's analysis, and the cross-module project.

Everything here runs on worker threads.  `Analyzer` wraps `lint.Project` (kernels defined in one
file and launched from another) and the open documents beside it (engine/open_documents.py)
behind a lock, and falls back on a file-local analysis when the project cannot help (an unsaved
`untitled:` buffer) or fails.  The editor's open texts are the project's overlays.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..config import ConfigError, load_settings
from ..engine.analysis import ModuleAnalysis, analyze
from ..engine.cancel import StopCheck
from ..engine.environment import Environment
from ..engine.files import UnreadableFile, read_file_bytes
from ..engine.findings import Finding
from ..engine.names import mentions_pallas
from ..engine.open_documents import OpenDocuments
from ..engine.source import SourceFile
from ..engine.text_imports import quiet_launchers
from ..lint import Project, RuleRunner, rules_for

log = logging.getLogger(__name__)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> str:
    """The editor's text with each lone surrogate (JSON lets a client send "\\ud800") replaced by
    U+FFFD.  Python's parser cannot take such text at all, so the block holding one was dropped
    with all its findings (issue 15).  U+FFFD has the same length as a lone surrogate in code
    points, UTF-16 units and (surrogatepass) UTF-8 bytes: every position stays where it was."""
    if text.isascii() or _LONE_SURROGATE.search(text) is None:
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


def workspace_environment(roots: list[str]) -> Environment:
    """Where imports beyond the workspace are followed, as `check` chooses it: the `python` of the
    first root's pyproject, else $VIRTUAL_ENV, $CONDA_PREFIX, else the server's own interpreter."""
    root = roots[0] if roots else os.getcwd()
    try:
        settings = load_settings(root)
    except ConfigError:
        settings = None  # reported by the settings handler; here only the default environment
    explicit = settings.python if settings is not None else None
    return Environment.discover(explicit, os.environ, settings.root if settings and settings.root else root)


def workspace_rules(roots: list[str], tpu_generation: str | None = None) -> RuleRunner:
    """The rules with the editor's `tpuGeneration`, else the first root's pyproject's."""
    if tpu_generation is None:
        with contextlib.suppress(ConfigError):  # reported by the settings handler
            tpu_generation = load_settings(roots[0] if roots else os.getcwd()).tpu_generation
    return rules_for(tpu_generation)


@dataclass
class AnalysisOutcome:
    analysis: ModuleAnalysis | None
    findings: list[Finding]
    dependents: set[str] = field(default_factory=set)  # files whose kernels this one launches


class Analyzer:
    def __init__(self, roots: Iterable[str] = ()) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.lock = threading.RLock()
        self.rules = workspace_rules(self.roots)
        self.project = Project(self.roots, environment=workspace_environment(self.roots), lint=self.rules)
        self.documents = OpenDocuments(self.project)

    def use_rules(self, rules: RuleRunner) -> None:
        """Run the rules with other options (the TPU generation) from now on."""
        with self.lock:
            self.rules = self.project.lint = rules

    # ------------------------------------------------------------------------ documents
    def analyze_document(self, path: str | None, text: str, should_stop: StopCheck = None) -> AnalysisOutcome:
        """Findings for an editor buffer (its text, not the file on disk).

        Raises engine.cancel.Cancelled when `should_stop` says so (a newer edit came in); the
        project is left consistent (OpenDocuments.findings_for), and Cancelled, a BaseException,
        is not taken for a failure that falls back on the file alone."""
        text = without_lone_surrogates(text)
        if path:
            try:
                with self.lock:
                    findings = self.documents.findings_for(path, text, should_stop)
                    analysis = self.project.analysis_of(path)
                    dependents = self.project.dependents(path)
                return AnalysisOutcome(analysis, findings, set(dependents))
            except Exception:  # noqa: BLE001 - fall back on the file on its own
                log.exception("cross-module analysis failed; analysing the file on its own")
        analysis = analyze(SourceFile.from_text(text, path))
        return AnalysisOutcome(analysis, self.rules(analysis))

    def findings_of_text(self, path: str | None, text: str) -> list[Finding]:
        """The findings `path` would have with `text` (a fix-all round's text), with the launches
        of its kernels elsewhere, as `check --fix` analyses it; the document keeps its own text."""
        text = without_lone_surrogates(text)
        if path:
            try:
                with self.lock:
                    return self.project.findings_of_text(path, text)
            except Exception:  # noqa: BLE001 - fall back on the file on its own
                log.exception("cross-module analysis failed; analysing the file on its own")
        return self.rules(analyze(SourceFile.from_text(text, path)))

    def first_look(self, path: str | None, text: str) -> list[Finding] | None:
        """Findings of a newly opened document's kernel slice, or None (OpenDocuments.first_look)."""
        if not path:
            return None
        text = without_lone_surrogates(text)
        try:
            with self.lock:
                return self.documents.first_look(path, text)
        except Exception:  # noqa: BLE001 - the whole analysis follows anyway
            log.exception("the first look at a document failed")
            return None

    def close_document(self, path: str | None) -> set[str]:
        """The editor no longer holds `path`: use the file on disk again. Returns its old dependents."""
        if not path:
            return set()
        # Issue 15: closing `file:///dev/zero` read it under the lock every document needs.  Only a
        # regular file (within the size limit) is read again; the check is made before the lock.
        readable = is_regular_file(path)
        with self.lock:
            before = self._dependents(path)
            self.documents.close(path)
            if readable:
                self._index(path)
            else:
                self.documents.forget_file(path)
            return before | self._dependents(path)

    # ---------------------------------------------------------------------------- index
    def file_changed(self, path: str, deleted: bool = False) -> set[str]:
        """A file changed on disk: re-index it. Returns the files whose findings may change."""
        deleted = deleted or not is_regular_file(path)  # a FIFO or device is never read (issue 15)
        with self.lock:
            before = self._dependents(path)
            if deleted:
                self.documents.forget_file(path)
            else:
                self._index(path)
            affected = before | self._dependents(path)
            return affected | ({os.path.abspath(path)} if not deleted else set())

    def launched_from_elsewhere(self, paths: Iterable[str]) -> set[str]:
        """Those of `paths` that define a kernel another indexed file launches."""
        with self.lock:
            found = set()
            for path in paths:
                try:
                    if self.project.launchers_of(path) - {os.path.abspath(path)}:
                        found.add(path)
                except Exception:  # noqa: BLE001
                    log.exception("launchers_of failed")
            return found

    def _index(self, path: str) -> None:
        try:
            self.project.index_file(path)
        except Exception:  # noqa: BLE001
            log.exception("indexing a file failed")

    def _dependents(self, path: str) -> set[str]:
        try:
            return set(self.project.dependents(path))
        except Exception:  # noqa: BLE001
            return set()

    def index_workspace(
        self,
        paths: list[str],
        *,
        should_yield: Callable[[], object] = lambda: None,
        progress: Callable[[int, int], None] = lambda done, total: None,
        cancelled: Callable[[], bool] = lambda: False,
        time_budget: float = 120.0,
    ) -> int:
        """Index the launch sites of `paths` (bounded in time); returns how many were indexed.

        `should_yield` is called before each file so that edits (on the other worker) go first.
        """
        started = time.monotonic()
        done = 0
        loud: list[str] = []
        quiet: list[str] = []
        for path in paths:
            if cancelled() or time.monotonic() - started > time_budget:
                log.info("workspace indexing stopped after %d of %d files", done, len(paths))
                return done
            should_yield()
            if file_mentions_pallas(path):
                loud.append(path)
                with self.lock:
                    self._index(path)
            else:
                quiet.append(path)
            done += 1
            progress(done, len(paths))
        for path in self._quiet_launchers(loud, quiet):
            if cancelled() or time.monotonic() - started > time_budget:
                break
            should_yield()
            with self.lock:
                self._index(path)
        return done

    def _quiet_launchers(self, loud: list[str], quiet: list[str]) -> list[str]:
        """The files that never say "pallas" but import an indexed file's wrapper and name it
        (`from ops import run; run("bump", x)`): `check` analyses them with the project, so the
        editor indexes them too."""
        with self.lock:
            try:
                wrappers = self.project.wrappers_of(loud)
            except Exception:  # noqa: BLE001
                log.exception("finding the wrappers failed")
                return []
        if not wrappers:
            return []
        texts = {}
        for path in quiet:
            try:
                texts[path] = read_file_bytes(path).decode("utf-8", errors="replace")
            except (OSError, UnreadableFile):
                continue
        return quiet_launchers(wrappers, texts)


def is_regular_file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def file_mentions_pallas(path: str) -> bool:
    """Whether the file at `path` says "pallas" (False when it cannot be read).  A file that does
    not launches no kernel: the index and the closed files' report do not parse it.

    Only regular files within the size limit are read (issue 15: a FIFO named *.py stalled the
    index forever, and with it every cross-file finding)."""
    try:
        return mentions_pallas(read_file_bytes(path).decode("utf-8", errors="replace"))
    except (OSError, UnreadableFile):
        return False
