"""The server process: `pallas-ls serve`, TCP on 127.0.0.1, clean exit, and logs without source text."""

from __future__ import annotations

import asyncio
import pathlib
import socket
import sys

import pytest
from lsp_harness import DEADLINE, KERNEL, SERVER_COMMAND, capabilities, editor_session, make_client, wait_for
from lsprotocol import types
from pygls.uris import from_fs_path

pytestmark = pytest.mark.asyncio


def serve_command() -> list[str]:
    script = pathlib.Path(sys.executable).parent / "pallas-ls"
    if script.exists():
        return [str(script), "serve"]
    return [sys.executable, "-m", "pallas_ls", "serve"]


@pytest.mark.skipif(not (pathlib.Path(__file__).parents[2] / "pallas_ls" / "cli.py").exists(), reason="no CLI yet")
async def test_through_pallas_ls_serve(tmp_path):
    async with editor_session(
        tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}, server_command=serve_command()
    ) as ed:
        assert ed.result.server_info.name == "pallas-ls"
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.code == "PAL001"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_tcp(tmp_path):
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        *SERVER_COMMAND, "--tcp", "--port", str(port), stderr=asyncio.subprocess.PIPE
    )
    client = make_client()
    try:
        for _ in range(200):  # the server needs a moment to import and listen
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.05)
        else:
            pytest.fail("the server never listened")
        caps = capabilities("visual-studio-code")
        client.capabilities = caps
        await asyncio.wait_for(
            client.initialize_async(
                types.InitializeParams(
                    capabilities=caps, root_uri=from_fs_path(str(tmp_path)), initialization_options={"debounce": 0}
                )
            ),
            DEADLINE,
        )
        client.initialized(types.InitializedParams())
        uri = from_fs_path(str(tmp_path / "kernel.py"))
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=KERNEL)
            )
        )
        params = await wait_for(lambda: next((p for p in client.published if p.uri == uri), None), "diagnostics")
        assert [d.code for d in params.diagnostics] == ["PAL001"] and params.version == 1
        await asyncio.wait_for(client.shutdown_async(None), DEADLINE)
        client.exit(None)
        # `exit` ends this connection's session only (issue 15): the server still serves a new one.
        second = make_client()
        second.capabilities = caps
        await second.start_tcp("127.0.0.1", port)
        try:
            result = await asyncio.wait_for(
                second.initialize_async(types.InitializeParams(capabilities=caps)), DEADLINE
            )
            assert result.server_info.name == "pallas-ls" and process.returncode is None
            await asyncio.wait_for(second.shutdown_async(None), DEADLINE)
            second.exit(None)
        finally:
            await asyncio.wait_for(second.stop(), DEADLINE)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await client.stop()


@pytest.mark.parametrize("level, leaks", [("info", False), ("debug", None)])
async def test_logs_hold_no_source_text_below_debug(tmp_path, level, leaks):
    log_file = tmp_path / "server.log"
    secret = "SECRET_IDENTIFIER_4711"
    text = KERNEL.replace("x = jnp.ones", f"{secret} = 1\nx = jnp.ones")
    command = [*SERVER_COMMAND, "--log-file", str(log_file), "--log-level", level]
    workspace = tmp_path / "ws"
    workspace.mkdir()
    async with editor_session(
        workspace, capabilities("visual-studio-code"), initialization_options={"debounce": 0}, server_command=command
    ) as ed:
        uri = ed.open("kernel.py", text)
        [diagnostic] = await ed.diagnostics(uri)
        actions = await ed.code_actions(uri, diagnostic.range, [diagnostic])
        assert actions
        await ed.hover(uri, 5, 5)
    log = log_file.read_text()
    assert "initialized" in log
    if leaks is False:
        assert secret not in log and "x_ref[...] + 1" not in log
    else:
        # At debug level pygls logs whole messages; that is what debug is for.
        assert "textDocument/didOpen" in log
    assert "Traceback" not in log
