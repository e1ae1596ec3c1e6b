"""The engine as the server uses it: one document's analysis, and the cross-module project.

Everything here runs on worker threads.  `Analyzer` wraps `engine.project.Project` (kernels defined in
one file and launched from another) behind a lock, and falls back on a file-local analysis when the
project cannot help (an unsaved `untitled:` buffer) or fails.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..engine.analysis import ModuleAnalysis, analyze
from ..engine.findings import Finding
from ..engine.names import mentions_pallas
from ..engine.project import UnreadableFile, read_file_bytes
from ..engine.source import SourceFile
from ..lint import Project, run_rules

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


@dataclass
class AnalysisOutcome:
    analysis: ModuleAnalysis | None
    findings: list[Finding]
    dependents: set[str] = field(default_factory=set)  # files whose kernels this one launches


class Analyzer:
    def __init__(self, roots: Iterable[str] = ()) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.lock = threading.RLock()
        self.project = Project(self.roots)

    # ------------------------------------------------------------------------ documents
    def analyze_document(self, path: str | None, text: str) -> AnalysisOutcome:
        """Findings for an editor buffer (its text, not the file on disk)."""
        text = without_lone_surrogates(text)
        if path and self.project is not None:
            try:
                with self.lock:
                    findings = self.project.findings_for(path, text)
                    analysis = self.project.analysis_of(path)
                    dependents = self.project.dependents(path)
                return AnalysisOutcome(analysis, findings, set(dependents))
            except Exception:  # noqa: BLE001 - fall back on the file on its own
                log.exception("cross-module analysis failed; analysing the file on its own")
        analysis = analyze(SourceFile.from_text(text, path))
        return AnalysisOutcome(analysis, run_rules(analysis))

    def first_look(self, path: str | None, text: str) -> list[Finding] | None:
        """Findings of a newly opened document's kernel slice, or None (see Project.first_look)."""
        if not path or self.project is None:
            return None
        text = without_lone_surrogates(text)
        try:
            with self.lock:
                return self.project.first_look(path, text)
        except Exception:  # noqa: BLE001 - the whole analysis follows anyway
            log.exception("the first look at a document failed")
            return None

    def known_findings(self, path: str | None, text: str) -> list[Finding] | None:
        """The findings of `text`, if the engine already knows them (see Project.known_findings);
        never waits: None while the engine is busy on another thread."""
        if not path or self.project is None or not self.lock.acquire(blocking=False):
            return None
        try:
            return self.project.known_findings(path, without_lone_surrogates(text))
        except Exception:  # noqa: BLE001 - the whole analysis follows anyway
            log.exception("looking up known findings failed")
            return None
        finally:
            self.lock.release()

    def close_document(self, path: str | None) -> set[str]:
        """The editor no longer holds `path`: use the file on disk again. Returns its old dependents."""
        if not path or self.project is None:
            return set()
        # Issue 15: closing `file:///dev/zero` read it under the lock every document needs.  Only a
        # regular file (within the size limit) is read again; the check is made before the lock.
        readable = is_regular_file(path)
        with self.lock:
            before = self._dependents(path)
            self.project.set_overlay(path, None)
            if readable:
                self._index(path)
            else:
                self.project.forget_file(path)
            return before | self._dependents(path)

    # ---------------------------------------------------------------------------- index
    def file_changed(self, path: str, deleted: bool = False) -> set[str]:
        """A file changed on disk: re-index it. Returns the files whose findings may change."""
        if self.project is None:
            return set()
        deleted = deleted or not is_regular_file(path)  # a FIFO or device is never read (issue 15)
        with self.lock:
            before = self._dependents(path)
            if deleted:
                self.project.forget_file(path)
            else:
                self._index(path)
            affected = before | self._dependents(path)
            if not deleted:  # a file new or changed on disk (a pull, a checkout) opens with its findings known
                for known in [path, *sorted(affected)]:
                    self._remember(known)
            return affected | ({os.path.abspath(path)} if not deleted else set())

    def launched_from_elsewhere(self, paths: Iterable[str]) -> set[str]:
        """Those of `paths` that define a kernel another indexed file launches."""
        if self.project is None:
            return set()
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
            self.project.index_file(path)  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001
            log.exception("indexing a file failed")

    def _remember(self, path: str) -> None:
        try:
            self.project.remember_findings(path)  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001
            log.exception("analysing %s ahead of time failed", path)
        else:
            log.debug("analysed %s ahead of time", os.path.basename(path))

    def _dependents(self, path: str) -> set[str]:
        try:
            return set(self.project.dependents(path))  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001
            return set()

    def index_workspace(
        self,
        paths: list[str],
        *,
        should_yield: Callable[[], None] = lambda: None,
        progress: Callable[[int, int], None] = lambda done, total: None,
        cancelled: Callable[[], bool] = lambda: False,
        time_budget: float = 120.0,
    ) -> int:
        """Index the launch sites of `paths` (bounded in time); returns how many were indexed.

        `should_yield` is called before each file so that edits (on the other worker) go first.
        """
        if self.project is None:
            return 0
        started = time.monotonic()
        done = 0
        indexed: list[str] = []
        for path in paths:
            if cancelled() or time.monotonic() - started > time_budget:
                log.info("workspace indexing stopped after %d of %d files", done, len(paths))
                break
            should_yield()
            if _may_launch(path):
                with self.lock:
                    self._index(path)
                indexed.append(path)
            done += 1
            progress(done, len(paths))
        self._remember_findings(indexed, should_yield, cancelled, deadline=started + time_budget)
        return done

    def _remember_findings(self, paths: list[str], should_yield: Callable[[], None], cancelled: Callable[[], bool],
                           deadline: float) -> None:
        """Analyse the indexed files (and those defining kernels they launch), now that the launches
        are known, so that opening one of them shows its findings without waiting for an analysis."""
        with self.lock:
            wanted = list(dict.fromkeys(paths + sorted(self.project.launched_files())))  # type: ignore[union-attr]
        for path in wanted:
            if cancelled() or time.monotonic() > deadline:
                log.info("stopped analysing indexed files ahead of time")
                return
            should_yield()
            with self.lock:
                self._remember(path)


def is_regular_file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _may_launch(path: str) -> bool:
    """A file that never mentions Pallas launches no kernel: not worth parsing for the index.

    Only regular files within the size limit are read (issue 15: a FIFO named *.py stalled the
    index forever, and with it every cross-file finding)."""
    try:
        return mentions_pallas(read_file_bytes(path).decode("utf-8", errors="replace"))
    except (OSError, UnreadableFile):
        return False
