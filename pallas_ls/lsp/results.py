"""One analysis as the client sees it: the `Snapshot` a job analyses and the `DocResult` it makes
(findings -> diagnostics JSON, positions in the client's encoding), and a pull's report of it.

Runs on the analysis worker (`result_of`) and is read on the loop: a DocResult never changes
once made, except for the lazily made views of it (cached properties) and `stale`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path

from ..engine.analysis import ModuleAnalysis
from ..engine.files import UnreadableFile, read_file_bytes
from ..engine.findings import Finding
from ..engine.source import SourceFile
from .convert import ClientFeatures, LineSource, diagnostic_from_json, finding_json, visible_findings
from .settings import EditorSettings, EffectiveSettings


@dataclass(frozen=True)
class Snapshot:
    """What one analysis job sees: a document's text at one version, under one settings generation."""

    uri: str
    path: str | None
    text: str
    version: int | None
    generation: int
    encoding: str
    editor: EditorSettings
    features: ClientFeatures
    open_texts: dict[str, str]
    # The document was just opened: publish the findings of its kernel slice before analysing the
    # whole file (engine/slicing.py), so a big file's first diagnostics do not wait for its parse.
    first_look: bool = False

    def same_text_as(self, text: str) -> bool:
        """The identity test makes the usual case (the same string) free; a document opened anew
        with other text at the snapshot's version differs (issue 15)."""
        return self.text is text or self.text == text


@dataclass
class DocResult:
    uri: str
    version: int | None
    generation: int
    source: SourceFile
    analysis: ModuleAnalysis | None
    findings: list[Finding]  # the visible ones, parallel to `diagnostics_json`
    diagnostics_json: list[dict[str, Any]]  # LSP Diagnostics, as they are published
    dependents: set[str] = field(default_factory=set)
    warnings: tuple[str, ...] = ()
    stale: bool = False  # another file changed what this one's findings would be

    @functools.cached_property
    def diagnostics_text(self) -> str:
        """The diagnostics' JSON text, made once: published or pulled as is, and named by result_id."""
        return json.dumps(self.diagnostics_json)

    @functools.cached_property
    def result_id(self) -> str:
        """Names this version's diagnostics (pull clients send it back)."""
        digest = hashlib.blake2b(f"{self.version}:{self.diagnostics_text}".encode(), digest_size=12)
        return digest.hexdigest()

    @functools.cached_property
    def diagnostics(self) -> list[types.Diagnostic]:
        """The diagnostics as lsprotocol objects (made only when a request needs them)."""
        return [diagnostic_from_json(d) for d in self.diagnostics_json]

    @property
    def lines(self) -> LineSource:
        return LineSource(self.source)

    @classmethod
    def empty(cls, snapshot: Snapshot) -> DocResult:
        """No findings (the analysis failed)."""
        source = SourceFile.from_text(snapshot.text, snapshot.path)
        return cls(snapshot.uri, snapshot.version, snapshot.generation, source, None, [], [])


def report_text(result: DocResult, previous_result_id: str | None) -> str:
    """A DocumentDiagnosticReport (lsprotocol's Related*DocumentDiagnosticReport) as JSON text."""
    if previous_result_id is not None and previous_result_id == result.result_id:
        return f'{{"kind": "unchanged", "resultId": "{result.result_id}"}}'
    return f'{{"kind": "full", "resultId": "{result.result_id}", "items": {result.diagnostics_text}}}'


def result_of(
    snapshot: Snapshot,
    settings: EffectiveSettings,
    source: SourceFile,
    analysis: ModuleAnalysis | None,
    findings: list[Finding],
    dependents: set[str],
) -> DocResult:
    """Findings -> the client's diagnostics (visible ones only, positions in its encoding).

    Related information in other files reads those files (open text first): worker threads only."""
    visible = visible_findings(findings, settings)
    lines = LineSource(source)
    related = _RelatedFiles(snapshot, lines)
    diagnostics = [
        finding_json(
            finding,
            lines,
            snapshot.encoding,
            uri=snapshot.uri,
            version=snapshot.version,
            severity=settings.rules.severity_for(finding.code, finding.severity),
            related_uri=related.uri,
            related_lines=related.lines,
            features=snapshot.features,
        )
        for finding in visible
    ]
    return DocResult(
        uri=snapshot.uri,
        version=snapshot.version,
        generation=snapshot.generation,
        source=source,
        analysis=analysis,
        findings=visible,
        diagnostics_json=diagnostics,
        dependents=dependents,
        warnings=settings.warnings,
    )


class _RelatedFiles:
    """The URI and lines of each file a finding's related information points into."""

    def __init__(self, snapshot: Snapshot, own_lines: LineSource) -> None:
        self._snapshot = snapshot
        self._own_lines = own_lines
        self._other_lines: dict[str | None, LineSource | None] = {}

    def _is_own(self, path: str | None) -> bool:
        own = self._snapshot.path
        return path is None or bool(own and os.path.abspath(path) == os.path.abspath(own))

    def uri(self, path: str | None) -> str:
        if self._is_own(path):
            return self._snapshot.uri
        return (from_fs_path(path) if path else None) or self._snapshot.uri

    def lines(self, path: str | None) -> LineSource | None:
        if self._is_own(path):
            return self._own_lines
        if path not in self._other_lines:
            text = self._snapshot.open_texts.get(path)  # type: ignore[arg-type]  # a finding's path is set for a related file
            if text is None:
                try:  # a regular file within the size limit only (issue 15)
                    text = read_file_bytes(path).decode("utf-8")  # type: ignore[arg-type]  # a finding's path is set for a related file
                except (OSError, UnicodeDecodeError, UnreadableFile):
                    text = None
            self._other_lines[path] = LineSource(SourceFile.from_text(text, path)) if text is not None else None
        return self._other_lines[path]
