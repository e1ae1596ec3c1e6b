"""Issue 15, the server half: one regression test per defect a hostile user reproduced, against the
real server process (stdio, or TCP for the connection tests).

Special files never read (`file:///dev/zero` opened and closed, a FIFO in the workspace), one
session per TCP connection, linear-time and validated exclude globs, a didOpen superseding what
was known of its URI, -32002 before initialize, cancellations logged at debug, and a lone
surrogate in a string.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import socket
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from lsp_harness import CLEAN, DEADLINE, KERNEL, SERVER_COMMAND
from pygls.uris import from_fs_path
from test_robustness import frame, initialize, raw_server, spawned

pytestmark = pytest.mark.asyncio

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero")


def open_params(uri: str, text: str, version: int = 1) -> dict[str, Any]:
    return {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}}


async def pulled_codes(server, uri: str) -> list[str]:
    report = await server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    assert "result" in report, report
    return [d["code"] for d in report["result"]["items"]]


async def pull_until(server, uri: str, wanted: list[str], deadline: float = DEADLINE) -> None:
    end = time.monotonic() + deadline
    codes: list[str] = []
    while time.monotonic() < end:
        response = await server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        if "result" in response:
            codes = [d["code"] for d in response["result"]["items"]]
            if codes == wanted:
                return
        await asyncio.sleep(0.05)
    pytest.fail(f"diagnostics of {uri} were {codes}, never {wanted}")


# ------------------------------------------------------------------------ 3. special files
@posix_only
@pytest.mark.parametrize("special", ["fifo", "dev-zero"])
async def test_opening_and_closing_a_special_file_starves_no_document(tmp_path, special):
    """Closing a document made the server read its file again under the analyzer's lock: a FIFO
    blocked it forever, /dev/zero until memory ran out; every later document went without
    diagnostics.  (On the code of the issue, the dev-zero case eats memory: run the fifo one.)"""
    if special == "fifo":
        os.mkfifo(tmp_path / "pipe.py")
        uri = from_fs_path(str(tmp_path / "pipe.py"))
    else:
        uri = "file:///dev/zero"
    async with raw_server(tmp_path) as server:
        server.notify("textDocument/didOpen", open_params(uri, "x = 1\n"))
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        other = from_fs_path(str(tmp_path / "other.py"))
        server.notify("textDocument/didOpen", open_params(other, KERNEL))
        await pull_until(server, other, ["PAL001"])


KERNELS = "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n"
OPS = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import add_one

x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""


@posix_only
async def test_a_fifo_in_the_workspace_does_not_stall_the_index(tmp_path):
    """Indexing read the FIFO 0pipe.py (listed first) forever: kernels.py's cross-file PAL001 never came."""
    os.mkfifo(tmp_path / "0pipe.py")
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "ops.py").write_text(OPS)
    async with spawned(tmp_path) as server:
        await initialize(server, tmp_path)
        uri = from_fs_path(str(tmp_path / "kernels.py"))
        server.notify("textDocument/didOpen", open_params(uri, KERNELS))
        await pull_until(server, uri, ["PAL001"])


# ---------------------------------------------------------------------------------- 4. TCP
class TcpClient:
    """One raw LSP connection: every message received is kept."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.messages: list[dict[str, Any]] = []
        self.next_id = 0
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int) -> TcpClient:
        end = time.monotonic() + DEADLINE
        while True:
            try:
                return cls(*await asyncio.open_connection("127.0.0.1", port))
            except OSError:
                if time.monotonic() > end:
                    raise
                await asyncio.sleep(0.05)

    async def _read(self) -> None:
        try:
            while True:
                length = None
                while True:
                    line = await self.reader.readline()
                    if not line:
                        return
                    if not line.strip():
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                message = json.loads(await self.reader.readexactly(length))
                self.messages.append(message)
                if "method" in message and "id" in message:
                    self.writer.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
        except (ConnectionError, asyncio.IncompleteReadError):
            return

    def notify(self, method: str, params: Any) -> None:
        self.writer.write(frame({"jsonrpc": "2.0", "method": method, "params": params}))

    async def request(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        msg_id = self.next_id
        self.writer.write(frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}))
        end = time.monotonic() + DEADLINE
        while True:
            found = next((m for m in self.messages if m.get("id") == msg_id and "method" not in m), None)
            if found is not None:
                return found
            if time.monotonic() > end:
                pytest.fail(f"no answer to {method} on this connection")
            await asyncio.sleep(0.01)

    async def initialize(self, root: pathlib.Path) -> None:
        # Push diagnostics (no `diagnostic` capability): the server sends them unasked.
        answer = await self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": from_fs_path(str(root)),
                "capabilities": {},
                "initializationOptions": {"debounce": 0},
            },
        )
        assert "result" in answer, answer
        self.notify("initialized", {})

    async def published(self, uri: str) -> list[dict[str, Any]]:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            found = [
                m["params"]["diagnostics"]
                for m in self.messages
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ]
            if found and found[-1]:
                return found[-1]
            await asyncio.sleep(0.02)
        pytest.fail(f"nothing published for {uri}")

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
        self.task.cancel()


@contextlib.asynccontextmanager
async def tcp_server(tmp_path: pathlib.Path) -> AsyncIterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with open(tmp_path / "stderr.log", "wb") as log:
        process = await asyncio.create_subprocess_exec(*SERVER_COMMAND, "--tcp", "--port", str(port), stderr=log)
        try:
            yield port
            assert process.returncode is None, "the server exited"
        finally:
            process.kill()
            await process.wait()


async def test_tcp_connections_are_separate_sessions(tmp_path):
    async with tcp_server(tmp_path) as port:
        first = await TcpClient.connect(port)
        await first.initialize(tmp_path)
        second = await TcpClient.connect(port)
        await second.initialize(tmp_path)
        uri = from_fs_path(str(tmp_path / "kernel.py"))
        first.notify("textDocument/didOpen", open_params(uri, KERNEL))
        [diagnostic] = await first.published(uri)
        assert diagnostic["code"] == "PAL001"
        hover = await first.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 5}}
        )
        assert "`add_one`" in hover["result"]["contents"]["value"]
        # The second client opened nothing: it never sees the first one's diagnostics or answers.
        await asyncio.sleep(0.3)
        assert all(m.get("params", {}).get("uri") != uri for m in second.messages), second.messages
        assert all(m.get("id") in (None, 1) or "method" in m for m in second.messages), second.messages
        # The second connection closing (after `exit`) ends its own session only.
        assert (await second.request("shutdown", None))["result"] is None
        second.notify("exit", None)
        await second.close()
        await asyncio.sleep(0.3)
        hover = await first.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 5}}
        )
        assert "`add_one`" in hover["result"]["contents"]["value"]
        await first.close()
        # The server still listens: a new client gets a session of its own.
        third = await TcpClient.connect(port)
        await third.initialize(tmp_path)
        third.notify("textDocument/didOpen", open_params(uri, KERNEL))
        [diagnostic] = await third.published(uri)
        assert diagnostic["code"] == "PAL001"
        await third.close()


# --------------------------------------------------------------------------------- 5. globs
async def test_an_invalid_exclude_glob_is_shown_and_the_other_settings_stay(tmp_path):
    async with spawned(tmp_path) as server:
        init = await server.request(
            "initialize",
            {
                "processId": None,
                "rootUri": from_fs_path(str(tmp_path)),
                "capabilities": {"textDocument": {"diagnostic": {}}},
                "initializationOptions": {"debounce": 0, "exclude": ["[z-a]"], "severity": {"PAL001": "warning"}},
            },
        )
        assert "result" in init
        server.notify("initialized", {})
        uri = from_fs_path(str(tmp_path / "kernel.py"))
        server.notify("textDocument/didOpen", open_params(uri, KERNEL))
        report = await server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert [(d["code"], d["severity"]) for d in report["result"]["items"]] == [("PAL001", 2)], report
        shown = [m["params"]["message"] for m in server.messages if m.get("method") == "window/showMessage"]
        assert any("[z-a]" in message for message in shown), shown


async def test_a_catastrophic_exclude_glob_does_not_stall_the_server(tmp_path):
    async with spawned(tmp_path) as server:
        await server.request(
            "initialize",
            {
                "processId": None,
                "rootUri": from_fs_path(str(tmp_path)),
                "capabilities": {"textDocument": {"diagnostic": {}}},
                "initializationOptions": {"debounce": 0, "exclude": ["*a*a*a*a*a*a*a*a*a*a*b"]},
            },
        )
        server.notify("initialized", {})
        uri = from_fs_path(str(tmp_path / ("a" * 200 + ".py")))
        server.notify("textDocument/didOpen", open_params(uri, KERNEL))
        assert await pulled_codes(server, uri) == ["PAL001"]


# ------------------------------------------------------------- 7. a didOpen supersedes all
# Big enough that its analysis is still running when the document is opened again.
FILLER = "".join(f"v{i} = [{i}, {i} + 1]\n" for i in range(40_000))


@pytest.mark.parametrize("close_first", [True, False], ids=["close-reopen", "open-twice"])
async def test_a_reopened_document_never_gets_the_old_texts_findings(tmp_path, close_first):
    """The old text's analysis (same version number, 1) finishing after the reopen was taken as
    the new text's."""
    async with raw_server(tmp_path) as server:
        other = from_fs_path(str(tmp_path / "other.py"))
        server.notify("textDocument/didOpen", open_params(other, KERNEL + FILLER))
        await asyncio.sleep(0.05)  # its analysis has started
        if close_first:
            server.notify("textDocument/didClose", {"textDocument": {"uri": other}})
        server.notify("textDocument/didOpen", open_params(other, CLEAN))  # version 1 again
        assert await pulled_codes(server, other) == []


# ---------------------------------------------------------------------------------- 8. smaller
async def test_requests_before_initialize_get_server_not_initialized(tmp_path):
    async with spawned(tmp_path) as server:
        uri = from_fs_path(str(tmp_path / "kernel.py"))
        answer = await server.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
        )
        assert answer["error"]["code"] == -32002, answer
        answer = await server.request("shutdown", None)
        assert answer["error"]["code"] == -32002, answer
        await initialize(server, tmp_path)
        server.notify("textDocument/didOpen", open_params(uri, KERNEL))
        assert await pulled_codes(server, uri) == ["PAL001"]


async def test_cancellations_are_not_warnings(tmp_path):
    async with raw_server(tmp_path) as server:
        for msg_id in range(5000, 5020):
            server.notify("$/cancelRequest", {"id": msg_id})
        await server.assert_works()
    log = (tmp_path / "stderr.log").read_text()
    assert "Cancel" not in log and "cancel" not in log, log[-2000:]


@pytest.mark.parametrize("where", ["own-line", "finding-line", "launch-line"])
async def test_a_lone_surrogate_in_a_string_keeps_the_files_diagnostics(tmp_path, where):
    """The editor's text may hold a lone surrogate (JSON's "\\ud800"); on a finding's line the
    UTF-16 column conversion used to fail, and the file got no diagnostics at all."""
    if where == "own-line":
        text = KERNEL.replace("import jax\n", "import jax\ns = '\ud800'\n", 1)
    elif where == "finding-line":
        text = KERNEL.replace("    return x_ref[...] + 1", "    return x_ref[...] + len('\ud800')")
    else:
        text = KERNEL.replace("pl.pallas_call(add_one, ", "pl.pallas_call(add_one, name='\ud800', ")
    async with raw_server(tmp_path) as server:
        uri = from_fs_path(str(tmp_path / "surrogate.py"))
        server.notify("textDocument/didOpen", open_params(uri, text))
        report = await server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert [d["code"] for d in report["result"]["items"]] == ["PAL001"], report
