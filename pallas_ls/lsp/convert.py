"""Engine findings -> LSP diagnostics (as JSON), with the fixes carried in `Diagnostic.data`.

A finding's range is in code points; the diagnostic's is in the negotiated position encoding,
converted with the text that was analysed.  The fixes are converted once, here, so that a code
action needs neither the engine nor a conversion: it checks the document version in `data` and
copies the edits.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from ..engine.findings import Finding, Severity
from ..engine.source import Position, Range, SourceFile
from .diagnostic_data import data_json
from .positions import to_client_column

SOURCE = "pallas-ls"

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


class LineSource:
    """The lines of one analysed text, for column conversion (a BOM is part of line 0's text)."""

    def __init__(self, source: SourceFile):
        self.source = source
        self._shift = 1 if source.had_bom else 0

    def line(self, line: int) -> str:
        text = self.source.line_text(line)
        return "\ufeff" + text if line == 0 and self._shift else text

    def position_json(self, pos: Position, encoding: str) -> dict[str, int]:
        column = pos.column + (self._shift if pos.line == 0 else 0)
        return {"line": pos.line, "character": to_client_column(self.line(pos.line), column, encoding)}

    def range_json(self, rng: Range, encoding: str) -> dict[str, Any]:
        return {"start": self.position_json(rng.start, encoding), "end": self.position_json(rng.end, encoding)}

    def position(self, pos: Position, encoding: str) -> types.Position:
        value = self.position_json(pos, encoding)
        return types.Position(line=value["line"], character=value["character"])

    def range(self, rng: Range, encoding: str) -> types.Range:
        return types.Range(start=self.position(rng.start, encoding), end=self.position(rng.end, encoding))


@functools.cache
def rule_url(code: str) -> str | None:
    from ..rules import RULES

    rule = RULES.get(code)
    return rule.url if rule is not None else None


@dataclass(frozen=True)
class ClientFeatures:
    """What the client said it can show, as far as diagnostics go."""

    related_information: bool = True


def finding_json(
    finding: Finding,
    lines: LineSource,
    encoding: str,
    *,
    uri: str,
    version: int | None,
    severity: Severity,
    related_uri: Callable[[str | None], str],
    related_lines: Callable[[str | None], LineSource | None],
    features: ClientFeatures = ClientFeatures(),
) -> dict[str, Any]:
    """A finding as the JSON of an LSP Diagnostic, positions in the client's `encoding`.

    JSON is what is published, so it is made directly: building lsprotocol objects and converting
    them (cattrs) cost more than the rest of a small file's way to the screen.  `diagnostic_from_json`
    makes the object when a request needs one."""
    out: dict[str, Any] = {
        "range": lines.range_json(finding.range, encoding),
        "message": finding.message,
        "severity": SEVERITIES.get(severity, types.DiagnosticSeverity.Error).value,
        "code": finding.code,
        "source": SOURCE,
        "data": data_json(version, finding.fixes, lines, encoding),
    }
    url = rule_url(finding.code)
    if url:
        out["codeDescription"] = {"href": url}
    if features.related_information and finding.related:
        related = []
        for item in finding.related:
            other = related_lines(item.path)
            rng = other.range_json(item.range, encoding) if other is not None else _plain_range_json(item.range)
            related.append({"location": {"uri": related_uri(item.path), "range": rng}, "message": item.message})
        out["relatedInformation"] = related
    return out


def diagnostic_from_json(value: dict[str, Any]) -> types.Diagnostic:
    return _converter().structure(value, types.Diagnostic)


@functools.lru_cache(maxsize=1)
def _converter() -> Any:
    from pygls.protocol import default_converter

    return default_converter()


def publish_diagnostics_body(uri: str, version: int | None, diagnostics_text: str) -> str:
    """The JSON text of a `textDocument/publishDiagnostics` notification, around the diagnostics'
    own JSON text (made once per result: it also names the result, see DocResult.result_id)."""
    version_text = "" if version is None else f', "version": {json.dumps(version)}'
    return (
        f'{{"jsonrpc": "2.0", "method": "{types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}", '
        f'"params": {{"uri": {json.dumps(uri)}{version_text}, "diagnostics": {diagnostics_text}}}}}'
    )


def _plain_range_json(rng: Range) -> dict[str, Any]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.column},
        "end": {"line": rng.end.line, "character": rng.end.column},
    }


def visible_findings(findings: Iterable[Finding], settings) -> list[Finding]:
    """The findings the settings let through (PAL000 only when syntax errors are shown)."""
    return [finding for finding in findings if settings.is_enabled(finding.code, finding.path)]
