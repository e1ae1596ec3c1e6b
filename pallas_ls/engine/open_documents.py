"""The documents open in an editor, kept beside the engine's Project (issue 19).

The Project checks files, reading a path's text from its overlay instead of disk when it has one
(`Project.set_overlay`, also what `check --fix` uses for its rounds).  What only an editor needs
lives here: each open document's IncrementalDocument (an edit parses its edited blocks only), the
first look at a big document just opened, and the put-back of both when an analysis is cancelled.
The server (lsp/workspace.Analyzer) holds one, and calls it under its lock.
"""

from __future__ import annotations

import os

from .analysis import ModuleAnalysis
from .cancel import Cancelled, StopCheck
from .findings import Finding
from .incremental import IncrementalDocument
from .names import mentions_pallas
from .project import Project
from .source import SourceFile
from .values.interpreter import Loader

# Below this size (~500 lines) the whole analysis takes a few milliseconds: no first look.
FIRST_LOOK_MIN_CHARS = 20_000


class OpenDocuments:
    """The open documents of one Project: a document is open while its text is the project's
    overlay, from its first analysis (`findings_for`) to `close`."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._documents: dict[str, IncrementalDocument] = {}

    def findings_for(self, path: str, text: str, should_stop: StopCheck = None) -> list[Finding]:
        """Findings for an open document's `text` (its overlay from now on), analysed incrementally.

        Cancelled as Project.findings_for says: the project puts the overlay back, the document's
        IncrementalDocument its own state, and a document cancelled in its first analysis was
        never open."""
        path = os.path.abspath(path)
        try:
            return self.project.findings_for(path, text, should_stop, analyse=self._analyse_incrementally)
        except Cancelled:
            if self.project.overlay_of(path) is None:
                self._documents.pop(path, None)
            raise

    def _analyse_incrementally(self, source: SourceFile, loader: Loader, should_stop: StopCheck) -> ModuleAnalysis:
        document = self._documents.setdefault(source.path or "", IncrementalDocument())
        return document.analyze(source, loader, should_stop)

    def first_look(self, path: str, text: str) -> list[Finding] | None:
        """The findings of a newly opened document's kernel slice (see `slicing`), before its whole
        analysis: the same findings but for syntax errors outside the slice.  None when there is
        no first look to take (the document was analysed before, or the slice is most of it)."""
        path = os.path.abspath(path)
        if len(text) < FIRST_LOOK_MIN_CHARS or path in self._documents:
            return None
        if not mentions_pallas(text) and not self.project.launchers_of(path):
            return None
        kernel_names = self.project.kernels_launched_elsewhere(path)
        analysis = IncrementalDocument().first_look(SourceFile.from_text(text, path), kernel_names)
        return self.project.lint_analysis(path, analysis) if analysis is not None else None

    def close(self, path: str) -> None:
        """The editor closed `path`: the project reads it from disk again."""
        self.project.set_overlay(path, None)
        self._documents.pop(os.path.abspath(path), None)

    def forget_file(self, path: str) -> None:
        """`path` is gone (deleted, or not a regular file): the project forgets it (Project.forget_file),
        and its incremental state starts afresh."""
        self.project.forget_file(path)
        self._documents.pop(os.path.abspath(path), None)
