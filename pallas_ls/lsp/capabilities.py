"""What the client can do, read once from its `initialize` request (as ruff_server's
ResolvedClientCapabilities): everything else asks these flags, never the raw capabilities."""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types

from .convert import ClientFeatures
from .positions import UTF16


@dataclass(frozen=True)
class ClientCapabilities:
    encoding: str = UTF16  # the negotiated position encoding
    pull_diagnostics: bool = False  # textDocument/diagnostic, else diagnostics are pushed
    diagnostic_refresh: bool = False  # workspace/diagnostic/refresh
    document_changes: bool = False  # versioned edits in a WorkspaceEdit
    markdown_hover: bool = True
    work_done_progress: bool = False
    configuration: bool = False  # workspace/configuration
    register_watched_files: bool = False  # dynamic registration of workspace/didChangeWatchedFiles
    register_configuration: bool = False  # dynamic registration of workspace/didChangeConfiguration
    diagnostics: ClientFeatures = field(default_factory=ClientFeatures)

    @classmethod
    def from_initialize(cls, caps: types.ClientCapabilities, encoding: str) -> ClientCapabilities:
        td, ws = caps.text_document, caps.workspace
        formats = td.hover.content_format if td and td.hover and td.hover.content_format else None
        return cls(
            encoding=encoding,
            pull_diagnostics=bool(td and td.diagnostic is not None),
            diagnostic_refresh=bool(ws and ws.diagnostics and ws.diagnostics.refresh_support),
            document_changes=bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes),
            markdown_hover=formats is None or types.MarkupKind.Markdown in formats,
            work_done_progress=bool(caps.window and caps.window.work_done_progress),
            configuration=bool(ws and ws.configuration),
            register_watched_files=bool(
                ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration
            ),
            register_configuration=bool(
                ws and ws.did_change_configuration and ws.did_change_configuration.dynamic_registration
            ),
            diagnostics=_diagnostic_features(td),
        )


def _diagnostic_features(td: types.TextDocumentClientCapabilities | None) -> ClientFeatures:
    publish = td.publish_diagnostics if td else None
    pull = td.diagnostic if td else None
    related = bool((publish and publish.related_information) or (pull and getattr(pull, "related_information", None)))
    return ClientFeatures(related_information=related)
