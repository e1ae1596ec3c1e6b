"""Engine findings -> LSP diagnostics, with the fixes carried in `Diagnostic.data`.

A finding's range is in code points; the diagnostic's is in the negotiated position encoding,
converted with the text that was analysed.  The fixes are converted once, here, so that a code
action needs neither the engine nor a conversion: it checks the document version in `data` and
copies the edits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from lsprotocol import types

from ..engine.findings import Applicability, Finding, Fix, Severity
from ..engine.source import Position, Range, SourceFile
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

    def position(self, pos: Position, encoding: str) -> types.Position:
        column = pos.column + (self._shift if pos.line == 0 else 0)
        return types.Position(line=pos.line, character=to_client_column(self.line(pos.line), column, encoding))

    def range(self, rng: Range, encoding: str) -> types.Range:
        return types.Range(start=self.position(rng.start, encoding), end=self.position(rng.end, encoding))


def rule_url(code: str) -> str | None:
    from ..rules import RULES

    rule = RULES.get(code)
    return rule.url if rule is not None else None


@dataclass(frozen=True)
class ClientFeatures:
    """What the client said it can show, as far as diagnostics go."""

    related_information: bool = True
    code_description: bool = True
    data: bool = True

    @classmethod
    def from_capabilities(cls, capabilities: types.ClientCapabilities | None) -> "ClientFeatures":
        publish = capabilities.text_document.publish_diagnostics if capabilities and capabilities.text_document else None
        pull = capabilities.text_document.diagnostic if capabilities and capabilities.text_document else None
        related = bool(
            (publish and publish.related_information) or (pull and getattr(pull, "related_information", None))
        )
        return cls(related_information=related)


def fix_to_data(fix: Fix, lines: LineSource, encoding: str) -> dict[str, Any]:
    return {
        "title": fix.title,
        "applicability": Applicability(fix.applicability).value,
        "preferred": bool(fix.preferred),
        "edits": [
            {"range": _range_json(lines.range(edit.range, encoding)), "newText": edit.new_text} for edit in fix.edits
        ],
    }


def _range_json(rng: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


def range_from_json(value: Any) -> types.Range:
    start, end = value["start"], value["end"]
    return types.Range(
        start=types.Position(line=int(start["line"]), character=int(start["character"])),
        end=types.Position(line=int(end["line"]), character=int(end["character"])),
    )


def finding_to_diagnostic(
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
) -> types.Diagnostic:
    url = rule_url(finding.code)
    related = None
    if features.related_information and finding.related:
        related = []
        for item in finding.related:
            other = related_lines(item.path)
            rng = other.range(item.range, encoding) if other is not None else _plain_range(item.range)
            related.append(
                types.DiagnosticRelatedInformation(
                    location=types.Location(uri=related_uri(item.path), range=rng), message=item.message
                )
            )
    data: dict[str, Any] = {"version": version, "fixes": [fix_to_data(f, lines, encoding) for f in finding.fixes]}
    return types.Diagnostic(
        range=lines.range(finding.range, encoding),
        message=finding.message,
        severity=SEVERITIES.get(severity, types.DiagnosticSeverity.Error),
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related,
        data=data,
    )


def diagnostic_json(diagnostic: types.Diagnostic) -> dict[str, Any]:
    """The JSON of a diagnostic, written out by hand: pygls' generic conversion (cattrs) costs more
    than the rest of a small file's publication.  Equal to `converter.unstructure(diagnostic)`
    (tests/lsp/test_units.py checks it on every rule's examples)."""
    out: dict[str, Any] = {"range": _range_json(diagnostic.range), "message": diagnostic.message}
    if diagnostic.severity is not None:
        out["severity"] = diagnostic.severity.value
    if diagnostic.code is not None:
        out["code"] = diagnostic.code
    if diagnostic.code_description is not None:
        out["codeDescription"] = {"href": diagnostic.code_description.href}
    if diagnostic.source is not None:
        out["source"] = diagnostic.source
    if diagnostic.tags is not None:
        out["tags"] = [tag.value for tag in diagnostic.tags]
    if diagnostic.related_information is not None:
        out["relatedInformation"] = [
            {"location": {"uri": item.location.uri, "range": _range_json(item.location.range)}, "message": item.message}
            for item in diagnostic.related_information
        ]
    if diagnostic.data is not None:
        out["data"] = diagnostic.data
    return out


def publish_diagnostics_json(uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> dict[str, Any]:
    """The whole `textDocument/publishDiagnostics` notification, ready for `json.dumps`."""
    params: dict[str, Any] = {"uri": uri, "diagnostics": [diagnostic_json(d) for d in diagnostics]}
    if version is not None:
        params["version"] = version
    return {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params}


def _plain_range(rng: Range) -> types.Range:
    return types.Range(
        start=types.Position(line=rng.start.line, character=rng.start.column),
        end=types.Position(line=rng.end.line, character=rng.end.column),
    )


def visible_findings(findings: Iterable[Finding], settings) -> list[Finding]:
    """The findings the settings let through (PAL000 only when syntax errors are shown)."""
    return [finding for finding in findings if settings.is_enabled(finding.code)]
