"""End-to-end harness: a real server process (`python -m pallas_ls.lsp`, forked from a process that
imported it once: fork_server.py) driven by pytest-lsp.

`Editor` wraps a pytest-lsp client with what an editor does: open and edit documents (keeping its own
copy of the text), get diagnostics (pulled or pushed, whichever the server and capabilities agreed
on), apply workspace edits.  Waiting is always for a condition, with a deadline that fails the test.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import copy
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

PLAIN_SERVER_COMMAND = [sys.executable, "-m", "pallas_ls.lsp"]


def _forked_server_command() -> list[str]:
    """The command that starts a server forked from this worker's zygote (fork_server.py), which
    is started here; the plain command where fork or fd passing is missing, or with
    PALLAS_LS_TEST_FORK=0."""
    if os.environ.get("PALLAS_LS_TEST_FORK", "1") == "0" or not hasattr(os, "fork") or not hasattr(socket, "send_fds"):
        return PLAIN_SERVER_COMMAND
    script = str(pathlib.Path(__file__).with_name("fork_server.py"))
    directory = tempfile.mkdtemp(prefix="pallas-ls-zygote-")
    path = os.path.join(directory, "socket")
    zygote = subprocess.Popen([sys.executable, script, "zygote", path], stdin=subprocess.DEVNULL)

    def stop() -> None:
        zygote.kill()
        zygote.wait()
        shutil.rmtree(directory, ignore_errors=True)

    atexit.register(stop)
    return [sys.executable, script, "client", path]


SERVER_COMMAND = _forked_server_command()
DEADLINE = 20.0

KERNEL = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""

CLEAN = KERNEL.replace("    return x_ref[...] + 1", "    o_ref[...] = x_ref[...] + 1")


def capabilities(
    name: str, *, encodings: list[str] | None = None, pull: bool | None = None, refresh: bool = False
) -> types.ClientCapabilities:
    """A recorded client's capabilities, optionally with other position encodings or diagnostics."""
    caps = copy.deepcopy(client_capabilities(name))
    if encodings is not None:
        caps.general = caps.general or types.GeneralClientCapabilities()
        caps.general.position_encodings = encodings
    if pull is True and caps.text_document.diagnostic is None:
        caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=False)
    if pull is False:
        caps.text_document.diagnostic = None
    if refresh:
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)  # type: ignore[attr-defined]

    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    def unregister(client: LanguageClient, params: types.UnregistrationParams) -> None:
        return None

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.CLIENT_REGISTER_CAPABILITY] = register
    features[types.CLIENT_UNREGISTER_CAPABILITY] = unregister
    register_lsp_features(client, features)
    return client


async def wait_for(condition: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """Poll `condition` until it returns something truthy; fail the test after `deadline` seconds."""
    end = time.monotonic() + deadline
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"timed out after {deadline}s waiting for {what}")
        await asyncio.sleep(0.01)


async def eventually(predicate: Callable[[], Any], what: str, deadline: float = DEADLINE) -> None:
    """Like `wait_for`, for an async predicate (one that asks the server)."""
    end = time.monotonic() + deadline
    while not await predicate():
        if time.monotonic() > end:
            pytest.fail(f"timed out after {deadline}s waiting for {what}")
        await asyncio.sleep(0.02)


def client_offset(text: str, position: types.Position, encoding: str) -> int:
    """Index into `text` of a position in `encoding` units; written independently of the server's
    conversion (by encoding the line) so that a bug there cannot cancel out here."""
    lines = text.splitlines(keepends=True) or [""]
    if position.line >= len(lines):
        return len(text)
    line = lines[position.line]
    content = line.rstrip("\r\n")
    if encoding == "utf-8":
        column = len(content.encode("utf-8")[: position.character].decode("utf-8", errors="strict"))
    elif encoding == "utf-16":
        column = len(content.encode("utf-16-le")[: 2 * position.character].decode("utf-16-le", errors="strict"))
    else:
        column = min(position.character, len(content))
    return sum(len(line) for line in lines[: position.line]) + column


def apply_text_edits(text: str, edits: list[types.TextEdit], encoding: str = "utf-16") -> str:
    """Apply LSP edits to `text` as a client would (positions in `encoding`)."""
    offsets = [
        (client_offset(text, e.range.start, encoding), client_offset(text, e.range.end, encoding), e.new_text)
        for e in edits
    ]
    for start, end, new_text in sorted(offsets, key=lambda o: (o[0], o[1]), reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


class Editor:
    def __init__(
        self, client: LanguageClient, caps: types.ClientCapabilities, result: types.InitializeResult, root: pathlib.Path
    ):
        self.client = client
        self.capabilities = caps
        self.result = result
        self.root = root
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        encoding = result.capabilities.position_encoding
        self.encoding = str(getattr(encoding, "value", encoding) or "utf-16")

    @property
    def pull(self) -> bool:
        return self.capabilities.text_document.diagnostic is not None

    # -------------------------------------------------------------------------- documents
    def uri(self, name: str) -> str:
        return from_fs_path(str(self.root / name))

    def open(self, name: str, text: str, language_id: str = "python", uri: str | None = None) -> str:
        uri = uri or self.uri(name)
        self.texts[uri] = text
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)
            )
        )
        return uri

    def edit(self, uri: str, start: tuple[int, int], end: tuple[int, int], new_text: str) -> int:
        """An incremental change (positions in the negotiated encoding)."""
        rng = types.Range(start=types.Position(*start), end=types.Position(*end))
        self.texts[uri] = apply_text_edits(
            self.texts[uri], [types.TextEdit(range=rng, new_text=new_text)], self.encoding
        )
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new_text)],
            )
        )
        return self.versions[uri]

    def replace_all(self, uri: str, text: str) -> int:
        self.texts[uri] = text
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    def apply(self, edit: types.WorkspaceEdit) -> None:
        """Apply a workspace edit to the editor's buffers and tell the server, like an editor."""
        per_uri: dict[str, list[types.TextEdit]] = {}
        if edit.document_changes:
            for change in edit.document_changes:
                assert isinstance(change, types.TextDocumentEdit), change
                assert change.text_document.version == self.versions[change.text_document.uri], (
                    "edit for an old version"
                )
                per_uri.setdefault(change.text_document.uri, []).extend(change.edits)
        for uri, edits in (edit.changes or {}).items():
            per_uri.setdefault(uri, []).extend(edits)
        for uri, edits in per_uri.items():
            self.replace_all(uri, apply_text_edits(self.texts[uri], edits, self.encoding))

    # ------------------------------------------------------------------------ diagnostics
    async def diagnostics(self, uri: str, previous_result_id: str | None = None) -> list[types.Diagnostic]:
        """The diagnostics for the document's current version."""
        if self.pull:
            report = await self.pull_report(uri, previous_result_id)
            assert report.kind == "full", report
            return list(report.items)
        version = self.versions[uri]
        params = await wait_for(
            lambda: next((p for p in reversed(self.client.published) if p.uri == uri and p.version == version), None),
            f"diagnostics for {uri} v{version}",
        )
        return list(params.diagnostics)

    async def pull_report(self, uri: str, previous_result_id: str | None = None):
        return await asyncio.wait_for(
            self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous_result_id
                )
            ),
            DEADLINE,
        )

    async def code_actions(
        self, uri: str, rng: types.Range, diagnostics: list[types.Diagnostic], only: list[str] | None = None
    ) -> list[types.CodeAction]:
        result = await asyncio.wait_for(
            self.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    range=rng,
                    context=types.CodeActionContext(diagnostics=diagnostics, only=only),
                )
            ),
            DEADLINE,
        )
        return [a for a in (result or []) if isinstance(a, types.CodeAction)]

    async def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        return await asyncio.wait_for(
            self.client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=types.Position(line=line, character=character),
                )
            ),
            DEADLINE,
        )


@contextlib.asynccontextmanager
async def editor_session(
    root: pathlib.Path,
    caps: types.ClientCapabilities,
    *,
    initialization_options: Any = None,
    configuration: dict[str, Any] | None = None,
    server_command: list[str] | None = None,
) -> AsyncIterator[Editor]:
    config = ClientServerConfig(server_command=server_command or SERVER_COMMAND, client_factory=make_client)
    client = await config.start()
    try:
        if configuration is not None:
            client.set_configuration(configuration)
        result = await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(
                    capabilities=caps,
                    root_uri=from_fs_path(str(root)),
                    workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(root)), name=root.name)],
                    initialization_options=initialization_options,
                )
            ),
            DEADLINE,
        )
        yield Editor(client, caps, result, root)
        await asyncio.wait_for(client.shutdown_session(), DEADLINE)
        assert client._server is not None and client._server.returncode == 0, "unclean exit"
    finally:
        server = client._server
        if server is not None and server.returncode is None:  # a failed test: do not hang on it
            server.kill()
        await client.stop()
