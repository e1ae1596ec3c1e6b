"""Issue 7, the server half: hostile frames, unknown methods, invalid params, requests after
shutdown and exit codes, documents never opened, out-of-range edits, hostile and huge documents, a
crashing rule, an analysis that is late, stale fixes, and the security points (pyproject is data,
the workspace is never imported, TCP binds the loopback address).

Everything runs against the real server process.  The frame-level tests speak Content-Length
framing themselves (`RawServer`), since no LSP client library can send a broken frame; the others
use the pytest-lsp harness.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import pathlib
import socket
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from lsp_harness import (
    CLEAN,
    DEADLINE,
    KERNEL,
    SERVER_COMMAND,
    capabilities,
    editor_session,
    eventually,
    wait_for,
)
from lsprotocol import types
from pygls.uris import from_fs_path

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import run_rules

pytestmark = pytest.mark.asyncio

RETURN_LINE = 6  # `    return x_ref[...] + 1` in KERNEL
RETURN_RANGE = {"start": {"line": 6, "character": 4}, "end": {"line": 6, "character": 25}}

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


# ================================================================================ raw frames
def frame(body: bytes | str | dict, length: int | None = None) -> bytes:
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


class RawServer:
    """`python -m pallas_ls.lsp` over pipes, with the framing done by hand.

    Every message the server sends is kept in `messages`; requests from the server are answered
    with null (the capabilities below give it little reason to send any).
    """

    def __init__(self, process: asyncio.subprocess.Process, root: pathlib.Path) -> None:
        self.process = process
        self.root = root
        self.messages: list[dict[str, Any]] = []
        self.next_id = 1000
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = None
            while True:
                line = await stdout.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None, "the server sent a frame without Content-Length"
            message = json.loads(await stdout.readexactly(length))
            self.messages.append(message)
            if "method" in message and "id" in message:  # a request from the server
                self.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)

    def notify(self, method: str, params: Any) -> None:
        self.write(frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def send_request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.write(frame({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return self.next_id

    async def response(self, msg_id: Any, deadline: float = DEADLINE) -> dict[str, Any]:
        def found():
            return next((m for m in self.messages if m.get("id") == msg_id and "method" not in m), None)

        end = time.monotonic() + deadline
        while (message := found()) is None:
            if self.process.returncode is not None:
                pytest.fail(f"the server exited ({self.process.returncode}) before answering {msg_id!r}")
            if time.monotonic() > end:
                pytest.fail(f"no answer to request {msg_id!r} within {deadline}s")
            await asyncio.sleep(0.01)
        return message

    async def request(self, method: str, params: Any) -> dict[str, Any]:
        return await self.response(self.send_request(method, params))

    def responses(self, since: int = 0) -> list[dict[str, Any]]:
        return [m for m in self.messages[since:] if "method" not in m]

    # ------------------------------------------------------------------- what must still work
    @property
    def uri(self) -> str:
        return from_fs_path(str(self.root / "kernel.py"))

    async def assert_works(self) -> None:
        """The open kernel's diagnostics and a hover are exactly right."""
        report = await self.request("textDocument/diagnostic", {"textDocument": {"uri": self.uri}})
        items = report["result"]["items"]
        assert [(d["code"], d["range"]) for d in items] == [("PAL001", RETURN_RANGE)], report
        hover = await self.request(
            "textDocument/hover", {"textDocument": {"uri": self.uri}, "position": {"line": 5, "character": 5}}
        )
        assert "`add_one`" in hover["result"]["contents"]["value"], hover
        assert self.process.returncode is None


RAW_CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {"diagnostic": {"dynamicRegistration": False}, "hover": {"contentFormat": ["markdown"]}},
}


@contextlib.asynccontextmanager
async def spawned(tmp_path: pathlib.Path) -> AsyncIterator[RawServer]:
    """The server process (stderr in tmp_path/stderr.log), killed at the end if still running."""
    with open(tmp_path / "stderr.log", "wb") as log:
        process = await asyncio.create_subprocess_exec(
            *SERVER_COMMAND, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log
        )
        server = RawServer(process, tmp_path)
        try:
            yield server
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            server.reader.cancel()


async def initialize(server: RawServer, root: pathlib.Path | None = None) -> None:
    init = await server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": from_fs_path(str(root)) if root else None,
            "capabilities": RAW_CAPABILITIES,
            "initializationOptions": {"debounce": 0},
        },
    )
    assert init["result"]["capabilities"]["positionEncoding"] == "utf-16"
    server.notify("initialized", {})


@contextlib.asynccontextmanager
async def raw_server(tmp_path: pathlib.Path) -> AsyncIterator[RawServer]:
    """An initialized server (pull diagnostics, UTF-16) with KERNEL open as kernel.py; at the end
    it must still work, and shut down and exit cleanly."""
    async with spawned(tmp_path) as server:
        await initialize(server, tmp_path)
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": server.uri, "languageId": "python", "version": 1, "text": KERNEL}},
        )
        await server.assert_works()
        yield server
        await server.assert_works()
        shutdown = await server.request("shutdown", None)
        assert shutdown == {"jsonrpc": "2.0", "id": server.next_id, "result": None}
        server.notify("exit", None)
        assert await asyncio.wait_for(server.process.wait(), DEADLINE) == 0


def shutdown_body(msg_id: int = 77) -> bytes:
    """A request that would end the session if the server took it: a misread frame shows."""
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "shutdown"}).encode()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"hello", id="text"),
        pytest.param(b'{"jsonrpc": "2.0", "id": 77, "method": ', id="truncated"),
        pytest.param(b"\xff\xfe\x00 not utf-8", id="not-utf8"),
        pytest.param(b"[" * 100_000, id="deeply-nested"),
        pytest.param(b"", id="empty"),
    ],
)
async def test_body_that_is_not_json_gets_a_parse_error(tmp_path, body):
    async with raw_server(tmp_path) as server:
        before = len(server.messages)
        server.write(frame(body))
        await server.assert_works()
        errors = [m for m in server.responses(before) if "error" in m]
        assert [(m["id"], m["error"]["code"]) for m in errors] == [(None, PARSE_ERROR)]


@pytest.mark.parametrize(
    "malformed",
    [
        pytest.param(frame(shutdown_body(), length=10), id="content-length-too-short"),
        pytest.param(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + shutdown_body(), id="absent"),
        pytest.param(b"Content-Length: twelve\r\n\r\n" + shutdown_body(), id="not-a-number"),
        pytest.param(b"Content-Length: -5\r\n\r\n" + shutdown_body(), id="negative"),
        pytest.param(b"Content-Length: 99999999999999\r\n\r\n" + shutdown_body(), id="absurdly-large"),
        pytest.param(
            b"garbage without a line end" + frame(shutdown_body()).replace(b"Content-Length", b"X-Length"), id="garbage"
        ),
    ],
)
async def test_malformed_frame_then_the_next_request_is_answered(tmp_path, malformed):
    async with raw_server(tmp_path) as server:
        server.write(malformed)
        # The very next request: answered, and correctly (the server did not take the shutdown).
        await server.assert_works()
        assert not [m for m in server.messages if m.get("id") == 77]


async def test_header_names_are_case_insensitive(tmp_path):
    async with raw_server(tmp_path) as server:
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "textDocument/hover",
                "params": {"textDocument": {"uri": server.uri}, "position": {"line": 5, "character": 5}},
            }
        ).encode()
        server.write(b"content-length: %d\r\n\r\n" % len(body) + body)
        assert "`add_one`" in (await server.response(5))["result"]["contents"]["value"]


async def test_frame_longer_than_its_content_length_says(tmp_path):
    """The server cannot know: it reads on into the next frame, which is lost; the one after that
    is found again and answered."""
    async with raw_server(tmp_path) as server:
        server.write(frame(shutdown_body(), length=len(shutdown_body()) + 10))
        server.send_request("textDocument/diagnostic", {"textDocument": {"uri": server.uri}})  # swallowed
        await server.assert_works()
        assert not [m for m in server.messages if m.get("id") == 77]


@pytest.mark.parametrize(
    "body, expected",
    [
        pytest.param("[1, 2]", (None, INVALID_REQUEST), id="array"),
        pytest.param("42", (None, INVALID_REQUEST), id="number"),
        pytest.param("null", (None, INVALID_REQUEST), id="null"),
        pytest.param('"text"', (None, INVALID_REQUEST), id="string"),
        pytest.param('{"foo": 1}', (None, INVALID_REQUEST), id="object"),
        pytest.param('[{"jsonrpc": "2.0", "id": 77, "method": "shutdown"}]', (None, INVALID_REQUEST), id="batch"),
        pytest.param('{"jsonrpc": "1.0", "id": 77, "method": "shutdown"}', (77, INVALID_REQUEST), id="version-1.0"),
        pytest.param('{"id": 77, "method": "shutdown"}', (77, INVALID_REQUEST), id="no-version"),
        pytest.param('{"jsonrpc": "2.0", "id": 77, "method": 7}', (77, INVALID_REQUEST), id="method-not-a-string"),
        pytest.param('{"jsonrpc": "2.0", "id": [77], "method": "shutdown"}', (None, INVALID_REQUEST), id="id-array"),
        pytest.param('{"jsonrpc": "2.0", "id": true, "method": "shutdown"}', (None, INVALID_REQUEST), id="id-bool"),
        pytest.param(
            '{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}', (None, INVALID_REQUEST), id="id-object"
        ),
        pytest.param('{"jsonrpc": "2.0", "id": 77}', (None, INVALID_REQUEST), id="neither-request-nor-response"),
        pytest.param('{"jsonrpc": "2.0", "id": 77, "result": null}', None, id="response-to-nothing"),
        pytest.param(
            '{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": "x"}', None, id="bad-notification"
        ),
        pytest.param('{"jsonrpc": "2.0", "method": 7}', None, id="notification-method-not-a-string"),
    ],
)
async def test_json_that_is_not_a_jsonrpc_message(tmp_path, body, expected):
    async with raw_server(tmp_path) as server:
        before = len(server.messages)
        server.write(frame(body))
        await server.assert_works()
        errors = [(m["id"], m["error"]["code"]) for m in server.responses(before) if "error" in m]
        assert errors == ([expected] if expected else [])


async def test_unknown_methods(tmp_path):
    async with raw_server(tmp_path) as server:
        for method in ("pallas/noSuchRequest", "$/noSuchRequest"):
            answer = await server.request(method, {"x": 1})
            assert answer["error"]["code"] == METHOD_NOT_FOUND and "result" not in answer
        # Params may be left out of a request altogether.
        server.write(frame({"jsonrpc": "2.0", "id": 42, "method": "pallas/noSuchRequest"}))
        assert (await server.response(42))["error"]["code"] == METHOD_NOT_FOUND
        # Unknown notifications, with and without `$/`, with and without params: no answer at all.
        before = len(server.messages)
        server.notify("pallas/noSuchNotification", {"x": 1})
        server.notify("$/noSuchNotification", {"x": 1})
        server.write(frame({"jsonrpc": "2.0", "method": "$/noSuchNotification"}))
        server.write(frame({"jsonrpc": "2.0", "method": "pallas/noSuchNotification"}))
        await server.assert_works()
        assert len(server.messages) - before == 2  # the two answers of assert_works, nothing else
    log = (tmp_path / "stderr.log").read_text()
    assert "pallas/noSuchNotification" in log  # an unknown notification is logged...
    assert "$/noSuchNotification" not in log  # ...a `$/` one is ignored silently


@pytest.mark.parametrize(
    "method, params",
    [
        ("textDocument/hover", {"textDocument": {"uri": "URI"}}),
        ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": -1, "character": 0}}),
        ("textDocument/hover", {"textDocument": {"uri": "URI"}, "position": {"line": "zero", "character": 0}}),
        ("textDocument/hover", {"position": {"line": 0, "character": 0}}),
        ("textDocument/hover", None),
        ("textDocument/hover", [1, 2]),
        ("textDocument/codeAction", {"textDocument": {"uri": "URI"}, "range": "abc", "context": {"diagnostics": []}}),
        ("textDocument/codeAction", {"textDocument": {"uri": "URI"}, "range": RETURN_RANGE}),
        (
            "textDocument/codeAction",
            {
                "textDocument": {"uri": "URI"},
                "range": RETURN_RANGE,
                "context": {"diagnostics": [{"range": 5, "message": "x"}]},
            },
        ),
        ("textDocument/diagnostic", {"textDocument": 3}),
    ],
)
async def test_invalid_params_get_an_invalid_params_error(tmp_path, method, params):
    async with raw_server(tmp_path) as server:
        params = json.loads(json.dumps(params).replace('"URI"', json.dumps(server.uri)))
        answer = await server.request(method, params)
        assert answer["error"]["code"] == INVALID_PARAMS and "result" not in answer, answer
        await server.assert_works()


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": "URI", "version": 2}, "contentChanges": [{"range": "top", "text": "\n\n"}]},
        {"textDocument": {"uri": "URI", "version": "two"}, "contentChanges": [{"text": "\n\n" + KERNEL}]},
        {"textDocument": {"uri": "URI", "version": 2}},
        {
            "textDocument": {"uri": "URI", "version": 2},
            "contentChanges": [
                {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n\n"},
                {"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n\n"},
            ],
        },
    ],
    ids=["range-not-an-object", "version-not-an-integer", "no-changes", "one-bad-change-of-two"],
)
async def test_notification_with_invalid_params_is_ignored(tmp_path, params):
    """The whole notification is dropped (not half applied): the document is as it was."""
    async with raw_server(tmp_path) as server:
        params = json.loads(json.dumps(params).replace('"URI"', json.dumps(server.uri)))
        before = len(server.messages)
        server.notify("textDocument/didChange", params)
        await server.assert_works()
        assert len(server.messages) - before == 2
        # A valid change afterwards applies to the text as it was.
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": server.uri, "version": 2},
                "contentChanges": [
                    {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n"}
                ],
            },
        )
        report = await server.request("textDocument/diagnostic", {"textDocument": {"uri": server.uri}})
        [diagnostic] = report["result"]["items"]
        assert diagnostic["range"]["start"] == {"line": RETURN_LINE + 1, "character": 4}
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": server.uri, "version": 3}, "contentChanges": [{"text": KERNEL}]},
        )


async def test_requests_after_shutdown_are_invalid_requests(tmp_path):
    async with spawned(tmp_path) as server:
        await initialize(server)
        assert (await server.request("shutdown", None))["result"] is None
        answer = await server.request(
            "textDocument/hover", {"textDocument": {"uri": server.uri}, "position": {"line": 0, "character": 0}}
        )
        assert answer["error"]["code"] == INVALID_REQUEST
        server.notify("exit", None)
        assert await asyncio.wait_for(server.process.wait(), DEADLINE) == 0


@pytest.mark.parametrize("shutdown, code", [(True, 0), (False, 1)], ids=["after-shutdown", "without-shutdown"])
async def test_exit_code(tmp_path, shutdown, code):
    """LSP: `exit` ends the process with 0 after `shutdown`, with 1 without it."""
    async with spawned(tmp_path) as server:
        await initialize(server)
        if shutdown:
            await server.request("shutdown", None)
        server.notify("exit", None)
        assert await asyncio.wait_for(server.process.wait(), DEADLINE) == code


# ===================================================================== documents and edits
async def test_documents_never_opened(editor):
    uri = editor.uri("never_opened.py")
    doc = types.TextDocumentIdentifier(uri=uri)
    zero = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    assert await editor.hover(uri, 0, 0) is None
    assert await editor.code_actions(uri, zero, []) == []
    report = await editor.pull_report(uri)
    assert report.kind == "full" and list(report.items) == []
    # didChange and didClose for it: ignored (no phantom document, nothing published).
    editor.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=5),
            content_changes=[types.TextDocumentContentChangePartial(range=zero, text="\n\n\n")],
        )
    )
    editor.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc))
    assert await editor.hover(uri, 0, 0) is None  # a round trip: both notifications were handled
    assert not [p for p in editor.client.published if p.uri == uri]
    # Opened now, it has exactly its own text.
    editor.open("never_opened.py", KERNEL)
    [diagnostic] = await editor.diagnostics(uri)
    assert diagnostic.range.start == types.Position(line=RETURN_LINE, character=4)


def comparable(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    return [(d.code, d.range, d.message, d.severity) for d in diagnostics]


async def assert_same_as_a_fresh_document(editor, uri: str, name: str) -> list[types.Diagnostic]:
    """The diagnostics of `uri` equal those of a new document holding the text the editor has."""
    got = await editor.diagnostics(uri)
    fresh = editor.open(name, editor.texts[uri])
    expected = await editor.diagnostics(fresh)
    editor.close(fresh)
    assert comparable(got) == comparable(expected)
    return got


async def test_out_of_range_edit_positions_are_clamped(editor):
    """A character past the end of its line means the line's end (LSP); a line past the end of the
    document means its end.  The harness's editor applies edits the same way (`client_offset`)."""
    uri = editor.open("kernel.py", KERNEL)
    assert len(await editor.diagnostics(uri)) == 1
    # Past the end of the return line: the noqa lands at its end and silences the finding.
    editor.edit(uri, (RETURN_LINE, 999), (RETURN_LINE, 5000), "  # noqa: PAL001")
    assert editor.texts[uri].splitlines()[RETURN_LINE] == "    return x_ref[...] + 1  # noqa: PAL001"
    assert await assert_same_as_a_fresh_document(editor, uri, "fresh1.py") == []
    # Past the end of the document: appended.
    extra = "\n\ndef two(x_ref, o_ref):\n    return 2\n\n\ny = pl.pallas_call(two, out_shape=x)(x)\n"
    editor.edit(uri, (10_000, 3), (20_000, 0), extra)
    assert editor.texts[uri].endswith(extra)
    [diagnostic] = await assert_same_as_a_fresh_document(editor, uri, "fresh2.py")
    assert diagnostic.range.start == types.Position(line=KERNEL.count("\n") + 3, character=4)
    # From the middle of a line to far past its end: the rest of the line goes, the noqa with it.
    editor.edit(uri, (RETURN_LINE, 25), (RETURN_LINE, 9_999), "")
    assert editor.texts[uri] == KERNEL + extra
    assert len(await assert_same_as_a_fresh_document(editor, uri, "fresh3.py")) == 2
    # A character past the end of a line in the middle of a multi-byte line.
    editor.edit(uri, (0, 0), (0, 0), "# é😀漢\n")
    editor.edit(uri, (0, 50), (1, 0), "")  # from past the end of line 0 to the start of line 1
    await assert_same_as_a_fresh_document(editor, uri, "fresh4.py")
    # Finally a full-text change: the document is exactly that text again.
    editor.replace_all(uri, KERNEL)
    [diagnostic] = await assert_same_as_a_fresh_document(editor, uri, "fresh5.py")
    assert diagnostic.range.start == types.Position(line=RETURN_LINE, character=4)


# ====================================================================== hostile documents
NESTED_DEFS = "".join("    " * i + f"def f{i}():\n" for i in range(150)) + "    " * 150 + "pass\n"
DEEP = "y = " + "(" * 3000 + "1" + ")" * 3000 + "\n"
# Legal syntax 3,000 levels deep, which CPython's own parser cannot build (a RecursionError there).
CHAINS = {
    "binop": "y = " + " + ".join(["1"] * 3000) + "\n",
    "attribute": "y = a" + ".b" * 3000 + "\n",
    "not": "y = " + "not " * 3000 + "x\n",
    "call": "y = f" + "()" * 3000 + "\n",
}


@pytest.mark.parametrize(
    "text, line, character",
    [
        pytest.param(KERNEL + DEEP, RETURN_LINE, 4, id="deep-expression-after"),
        pytest.param(DEEP + KERNEL, RETURN_LINE + 1, 4, id="deep-expression-before"),
        pytest.param("x = " + "[" * 3000 + "]" * 3000 + "\n" + KERNEL, RETURN_LINE + 1, 4, id="deep-list-before"),
        pytest.param(NESTED_DEFS + KERNEL, RETURN_LINE + 151, 4, id="nested-defs-before"),
        pytest.param(KERNEL + NESTED_DEFS, RETURN_LINE, 4, id="nested-defs-after"),
        pytest.param(KERNEL.replace("import jax\n", "import jax  # \x00\n", 1), RETURN_LINE, 4, id="nul-in-comment"),
        pytest.param("\x00\n" + KERNEL + "s = '\x00'\n", RETURN_LINE + 1, 4, id="nul-bytes"),
        pytest.param("def broken(:\n    pass\n" + KERNEL, RETURN_LINE + 2, 4, id="syntax-error-before"),
        pytest.param(KERNEL.replace("\n", "\r\n"), RETURN_LINE, 4, id="crlf"),
        pytest.param(KERNEL.replace("\n", "\r"), RETURN_LINE, 4, id="cr"),
        pytest.param("\ufeff" + KERNEL, RETURN_LINE, 4, id="bom"),
        pytest.param(KERNEL.replace("    ", "\t"), RETURN_LINE, 1, id="tabs"),
        *[pytest.param(KERNEL + chain, RETURN_LINE, 4, id=f"deep-{name}-after") for name, chain in CHAINS.items()],
        *[pytest.param(chain + KERNEL, RETURN_LINE + 1, 4, id=f"deep-{name}-before") for name, chain in CHAINS.items()],
    ],
)
async def test_hostile_documents_are_analysed(tmp_path, text, line, character):
    async with editor_session(
        tmp_path, capabilities("neovim", encodings=["utf-16"]), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("hostile.py", text)
        diagnostics = await ed.diagnostics(uri)
        assert [(d.code, d.range.start) for d in diagnostics] == [
            ("PAL001", types.Position(line=line, character=character))
        ]
        # Still answering about it, and about other documents.
        hover = await ed.hover(uri, line - 1, 5)
        assert hover is not None and "`add_one`" in hover.contents.value
        other = ed.open("kernel.py", KERNEL)
        assert len(await ed.diagnostics(other)) == 1
        # Edited (the incremental path): the finding moves down with its line.
        ed.edit(uri, (0, 0), (0, 0), "\n")
        assert [(d.code, d.range.start) for d in await ed.diagnostics(uri)] == [
            ("PAL001", types.Position(line=line + 1, character=character))
        ]


BIG = "".join(f"v{i} = {i}\n" for i in range(200_000)) + KERNEL
BIG_RETURN_LINE = 200_000 + RETURN_LINE


# Seconds after which a pull that has not been answered is a hang, not a slow machine.
HANG = 300


async def pull_within(ed, uri: str, seconds: float) -> list[tuple[str, int]]:
    report = await asyncio.wait_for(
        ed.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        ),
        seconds,
    )
    return [(d.code, d.range.start.line) for d in report.items]


@pytest.mark.serial  # ~1 GB of trees: not beside the other big file
async def test_a_200k_line_document(tmp_path):
    """Answered (the waits are a hang detector, generous for a loaded machine: speed is measured by
    benchmarks/bench_vs_ruff.py), hovered, edited at its top and at its end.  One document for all
    of it: opening it is what costs (~6 s), the size is what is tested."""
    async with editor_session(
        tmp_path, capabilities("neovim", encodings=["utf-16"]), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("big.py", BIG)
        assert await pull_within(ed, uri, HANG) == [("PAL001", BIG_RETURN_LINE)]
        hover = await ed.hover(uri, BIG_RETURN_LINE - 1, 5)
        assert hover is not None and "`add_one`" in hover.contents.value
        ed.edit(uri, (0, 0), (0, 0), "# top\n")  # every block moves down a line
        assert await pull_within(ed, uri, HANG) == [("PAL001", BIG_RETURN_LINE + 1)]
        end = BIG.count("\n") + 1
        ed.edit(
            uri,
            (end, 0),
            (end, 0),
            "\n\ndef two(x_ref, o_ref):\n    return 2\n\n\npl.pallas_call(two, out_shape=x)(x)\n",
        )
        assert await pull_within(ed, uri, HANG) == [("PAL001", BIG_RETURN_LINE + 1), ("PAL001", end + 3)]


# =========================================================================== a failing rule
PAL002_KERNEL = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh)
def copy(a_ref, b_ref):
    pltpu.sync_copy(a_ref, b_ref)


r = jax.new_ref(jnp.ones((8, 128)))
copy(r, r)


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


y = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32))(r)
"""


def failing_rule(base, code: str, error: BaseException):
    def check(analysis):
        raise error
        yield

    return dataclasses.replace(base, code=code, check=check)


@pytest.mark.parametrize(
    "error",
    [ValueError("rule bug"), RecursionError("too deep"), KeyError("x")],
    ids=["ValueError", "RecursionError", "KeyError"],
)
async def test_run_rules_survives_a_raising_rule(monkeypatch, caplog, error):
    """Engine level: the failure is logged with the rule's code and every other finding stays."""
    import pallas_ls.rules as rules

    analysis = analyze(SourceFile.from_text(PAL002_KERNEL, "/w/k.py"))
    expected = [(f.code, f.range) for f in run_rules(analysis)]
    assert sorted(code for code, _ in expected) == ["PAL001", "PAL002"]
    broken = failing_rule(rules.RULES["PAL002"], "PAL990", error)
    # First in the registry, so that every real rule runs after the failure.
    monkeypatch.setattr(rules, "RULES", {"PAL990": broken, **rules.RULES})
    with caplog.at_level("ERROR", logger="pallas_ls.engine.analysis"):
        got = run_rules(analyze(SourceFile.from_text(PAL002_KERNEL, "/w/k.py")))
    assert [(f.code, f.range) for f in got] == expected
    assert any("PAL990" in r.getMessage() and r.exc_info for r in caplog.records)


def patched_server(setup: str) -> list[str]:
    """The real server, with `setup` run first in its own process: the server has no hook for
    a broken or slow rule, so the test adds one to the rule registry before the server starts."""
    return [
        sys.executable,
        "-c",
        "import dataclasses, sys, time\nimport pallas_ls.rules as rules\n"
        + setup
        + "\nfrom pallas_ls.lsp.__main__ import run\nsys.exit(run(sys.argv[1:]))\n",
    ]


FAILING_SERVER = patched_server("""\
def check(analysis):
    raise RuntimeError("PAL990 exploded")
    yield

rules.RULES = {"PAL990": dataclasses.replace(rules.RULES["PAL002"], code="PAL990", check=check), **rules.RULES}
""")


async def test_a_raising_rule_in_the_server(tmp_path):
    log_file = tmp_path / "server.log"
    workspace = tmp_path / "ws"
    workspace.mkdir()
    command = [*FAILING_SERVER, "--log-file", str(log_file)]
    for name in ("neovim", "visual-studio-code"):
        async with editor_session(
            workspace, capabilities(name), initialization_options={"debounce": 0}, server_command=command
        ) as ed:
            uri = ed.open("k.py", PAL002_KERNEL)
            assert sorted(d.code for d in await ed.diagnostics(uri)) == ["PAL001", "PAL002"]
            ed.edit(uri, (0, 0), (0, 0), "\n")
            assert sorted(d.code for d in await ed.diagnostics(uri)) == ["PAL001", "PAL002"]
            [pal001] = [d for d in await ed.diagnostics(uri) if d.code == "PAL001"]
            actions = await ed.code_actions(uri, pal001.range, [pal001])
            assert any("Write the result" in a.title for a in actions)
    log = log_file.read_text()
    assert "rule PAL990 failed" in log and "PAL990 exploded" in log


# ============================================================================== stale fixes
async def test_fix_for_an_older_version_is_computed_for_the_current_one(tmp_path):
    """Diagnostics from version N, the document now at N+1 with the finding at the same place but
    different text around it: the fix offered is the one for N+1 (carrying N+1 as its version)."""
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [old] = await ed.diagnostics(uri)
        assert old.data["version"] == 1
        # Same range (line 6, 4..25) but other text in it and after it.
        ed.edit(uri, (RETURN_LINE, 24), (RETURN_LINE, 25), "2")
        ed.edit(uri, (RETURN_LINE, 25), (RETURN_LINE, 25), "  # two")
        # Asked at once, before any diagnostics of version 3 reached the client.
        actions = await ed.code_actions(uri, old.range, [old], only=["quickfix"])
        write = next(a for a in actions if a.title.endswith("Write the result to `o_ref`"))
        [change] = write.edit.document_changes
        assert change.text_document.version == ed.versions[uri] == 3
        ed.apply(write.edit)
        assert ed.texts[uri].splitlines()[RETURN_LINE] == "    o_ref[...] = x_ref[...] + 2  # two"
        assert await ed.diagnostics(uri) == []


async def test_fix_all_asked_right_after_an_edit(tmp_path):
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        await ed.diagnostics(uri)
        ed.edit(uri, (0, 0), (0, 0), "# moved\n")
        zero = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
        [action] = await ed.code_actions(uri, zero, [], only=["source.fixAll"])
        [change] = action.edit.document_changes
        assert change.text_document.version == ed.versions[uri]
        ed.apply(action.edit)
        assert ed.texts[uri] == "# moved\n" + CLEAN


async def test_no_fix_for_a_diagnostic_the_current_version_no_longer_has(tmp_path):
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [old] = await ed.diagnostics(uri)
        ed.edit(uri, (RETURN_LINE, 4), (RETURN_LINE, 11), "o_ref[...] = ")  # fixed by hand
        assert await ed.code_actions(uri, old.range, [old], only=["quickfix"]) == []
        assert await ed.diagnostics(uri) == []


# ================================================================================ security
async def test_pyproject_values_that_look_like_code_are_never_run(tmp_path):
    marker = tmp_path / "pwned"
    code = f"__import__('os').system('touch {marker}')"
    (tmp_path / "pyproject.toml").write_text(
        "[tool.pallas-ls]\n"
        f"select = [{json.dumps(code)}]\n"
        f"exclude = [{json.dumps('$(touch ' + str(marker) + ')')}, {json.dumps('`touch ' + str(marker) + '`')}]\n"
        f"severity = {{PAL001 = {json.dumps(code)}}}\n"
    )
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        assert [d.code for d in await ed.diagnostics(uri)] == ["PAL001"]  # the defaults, with a warning
        await wait_for(lambda: any("pyproject.toml" in m.message for m in ed.client.messages), "a settings warning")
    assert not marker.exists()


def listening_addresses(port: int) -> set[str]:
    """The local addresses of the LISTEN sockets on `port` (Linux /proc/net/tcp and tcp6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = pathlib.Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                if len(address) == 8:
                    found.add(socket.inet_ntop(socket.AF_INET, bytes.fromhex(address)[::-1]))
                else:
                    words = [bytes.fromhex(address[i : i + 8])[::-1] for i in range(0, 32, 8)]
                    found.add(socket.inet_ntop(socket.AF_INET6, b"".join(words)))
    return found


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads Linux's socket table")
async def test_tcp_binds_the_loopback_address_by_default(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = await asyncio.create_subprocess_exec(
        *SERVER_COMMAND, "--tcp", "--port", str(port), stderr=asyncio.subprocess.DEVNULL
    )
    try:
        end = time.monotonic() + DEADLINE
        while not (addresses := listening_addresses(port)):
            assert process.returncode is None, "the server exited"
            if time.monotonic() > end:
                pytest.fail("the server never listened")
            await asyncio.sleep(0.05)
        assert addresses == {"127.0.0.1"}
    finally:
        process.kill()
        await process.wait()


# ================================================================ an analysis that is late
SLOW_SERVER = patched_server("""\
import pallas_ls.lsp.pipeline as pipeline
pipeline.WAIT_TIMEOUT = 1.0  # how long a request waits for the analysis of the current version

def check(analysis):
    if "SLOW" in analysis.source.text:
        time.sleep(4)
    return
    yield

rules.RULES = {"PAL991": dataclasses.replace(rules.RULES["PAL002"], code="PAL991", check=check), **rules.RULES}
""")


async def test_a_late_analysis_is_never_answered_with_another_versions_results(tmp_path):
    """When the current version's analysis is not ready in time, a pull gets ServerCancelled with
    retriggerRequest (not the findings of the version before, whose lines are now wrong, nor an
    empty report), and a hover gets nothing rather than an answer about the old text."""
    from pygls.exceptions import JsonRpcException

    async with editor_session(
        tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}, server_command=SLOW_SERVER
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.range.start.line == RETURN_LINE
        ed.edit(uri, (0, 0), (0, 0), "# SLOW\n")
        with pytest.raises(JsonRpcException) as raised:
            await ed.pull_report(uri)
        assert raised.value.code == -32802 and raised.value.data == {"retriggerRequest": True}
        # Line 5 is now blank; in the old text it was `def add_one`.
        assert await ed.hover(uri, 5, 5) is None

        async def ready():
            try:
                return [d.range.start.line for d in await ed.diagnostics(uri)] == [RETURN_LINE + 1]
            except JsonRpcException:
                return False

        await eventually(ready, "the diagnostics of the slow version")
        hover = await ed.hover(uri, 6, 5)
        assert hover is not None and "`add_one`" in hover.contents.value


# Modules the server imports after start-up or at it: a workspace holding files of these names must
# not get them run (`python -m` puts the working directory first on sys.path).
SHADOWS = ("lsprotocol", "pygls", "cattrs", "json", "tomllib", "bisect", "hashlib", "difflib", "jax")


@pytest.mark.parametrize("module", [["-m", "pallas_ls.lsp"], ["-m", "pallas_ls", "serve"]], ids=["lsp", "serve"])
async def test_the_workspace_is_never_imported(tmp_path, module):
    marker = tmp_path / "imported"
    for name in SHADOWS:
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('pkg')\n")
    (tmp_path / "pkg" / "kernels.py").write_text(KERNEL.replace("x = jnp.ones", "import pkg\nx = jnp.ones"))
    # Started the way an editor starts it: in the workspace.
    command = ["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", str(tmp_path), sys.executable, *module]
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0}, server_command=command
    ) as ed:
        uri = ed.open("main.py", "import pkg.kernels\nimport json\n" + KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.range.start.line == RETURN_LINE + 2
        other = ed.open("pkg/kernels.py", (tmp_path / "pkg" / "kernels.py").read_text())
        assert len(await ed.diagnostics(other)) == 1
    assert not marker.exists(), marker.read_text()


async def test_other_documents_are_answered_while_an_analysis_runs(tmp_path):
    """Issue 16: while one document's analysis runs (4 s here), pulls and hovers for another
    document whose analysis is done are answered at once, not queued behind it."""
    async with editor_session(
        tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}, server_command=SLOW_SERVER
    ) as ed:
        other = ed.open("other.py", KERNEL)
        assert len(await ed.diagnostics(other)) == 1
        ed.open("slow.py", "# SLOW\n" + KERNEL)
        await asyncio.sleep(0.5)  # its analysis has started
        started = time.monotonic()
        assert len((await ed.pull_report(other)).items) == 1
        hover = await ed.hover(other, RETURN_LINE - 1, 5)
        assert hover is not None and "`add_one`" in hover.contents.value
        assert time.monotonic() - started < 2.0


@pytest.mark.serial
async def test_a_buffer_over_the_size_limit_is_one_pal900_and_blocks_nothing(tmp_path):
    """Issue 35: a 12 MB buffer cost 9 s and 2.1 GB, delayed every other file's diagnostics, and the
    server outlived `exit`.  It is a PAL900 on the document, as `check` reports a file that size;
    the other files' diagnostics come, and the session ends cleanly (editor_session checks it)."""
    line = "value_of_a_generated_table_from_pallas = [1, 2, 3, 4, 5, 6, 7, 8]\n"
    huge = line * (12 * 1024 * 1024 // len(line) + 1)
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        big = ed.open("generated.py", huge)
        [diagnostic] = await ed.diagnostics(big)
        assert diagnostic.code == "PAL900" and "too large" in diagnostic.message, diagnostic
        assert "max-file-size" in diagnostic.message
        kernel = ed.open("kernel.py", KERNEL)
        assert [d.code for d in await ed.diagnostics(kernel)] == ["PAL001"]
        end = huge.count("\n")
        ed.edit(big, (end, 0), (end, 0), "x = 1\n")  # still over: still one PAL900, no analysis
        [diagnostic] = await ed.diagnostics(big)
        assert diagnostic.code == "PAL900"
