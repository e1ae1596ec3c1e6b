"""Opening a file whose findings the server already knows (issue 6).

While indexing, the server analyses the workspace's Pallas files once the launches between files
are known; opening one of them with the text on disk then publishes its findings at once, from the
message loop, before (and without waiting for) the analysis of the document, which follows and
publishes again only if it differs.  Known means: the same text, and the same launches elsewhere of
its kernels; anything else takes the normal path.
"""

from __future__ import annotations

import contextlib

import pytest
from lsprotocol import types

from lsp_harness import SERVER_COMMAND, capabilities, editor_session, wait_for
from test_cross_module import KERNELS, OPS, OPS_WITHOUT_LAUNCH

pytestmark = pytest.mark.asyncio

CLIENTS = [("visual-studio-code", {}), ("neovim", {"refresh": True})]


def known_in_log(log_file) -> list[str]:
    """The files whose findings the server published as known (its debug log says so)."""
    lines = log_file.read_text().splitlines() if log_file.exists() else []
    return [line.split(": ")[-2].split()[-1] for line in lines if "known without an analysis" in line]


@contextlib.asynccontextmanager
async def logged_session(tmp_path, client: str = "visual-studio-code", files: dict[str, str] | None = None, **extra):
    """(editor, log file) of a server whose workspace holds `files` (kernels.py and ops.py by
    default), started with a debug log and indexed."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    for name, text in ({"kernels.py": KERNELS, "ops.py": OPS} if files is None else files).items():
        (workspace / name).write_text(text)
    log_file = tmp_path / "server.log"
    command = SERVER_COMMAND + ["--log-file", str(log_file), "--log-level", "debug"]
    caps = capabilities(client, **extra)
    async with editor_session(workspace, caps, initialization_options={"debounce": 0}, server_command=command) as ed:
        await indexed(ed)
        yield ed, log_file


async def indexed(ed) -> None:
    await wait_for(lambda: [r for rs in ed.client.progress_reports.values() for r in rs
                            if isinstance(r, types.WorkDoneProgressEnd)], "the end of indexing")


@pytest.mark.parametrize("client, extra", CLIENTS, ids=["push", "pull"])
async def test_a_workspace_file_opens_with_its_findings_known(tmp_path, client, extra):
    async with logged_session(tmp_path, client, **extra) as (ed, log_file):
        uri = ed.open("kernels.py", KERNELS)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.code == "PAL001" and "ops.py:8" in diagnostic.message  # launched from the other file
        assert known_in_log(log_file) == ["kernels.py"]
        await ed.hover(uri, 0, 0)  # waits for the document's own analysis
        if not ed.pull:  # which found the same: nothing more was sent
            assert [len(p.diagnostics) for p in ed.client.published if p.uri == uri] == [1]
        else:
            assert ed.client.diagnostic_refresh_count == 0
            # The pull was answered in the loop turn it arrived in, not through pygls' machinery.
            assert "answered textDocument/diagnostic at once" in log_file.read_text()
        # A text that differs from the one analysed is not known.
        ed.open("ops.py", OPS + "\n# edited\n")
        await ed.diagnostics(ed.uri("ops.py"))
        assert known_in_log(log_file) == ["kernels.py"]


async def test_findings_are_not_known_once_a_launch_elsewhere_changed(tmp_path):
    async with logged_session(tmp_path) as (ed, log_file):
        ops = ed.open("ops.py", OPS_WITHOUT_LAUNCH)  # the editor's ops.py no longer launches the kernel
        await ed.diagnostics(ops)
        uri = ed.open("kernels.py", KERNELS)
        assert await ed.diagnostics(uri) == []
        assert known_in_log(log_file) == []


async def test_a_file_that_arrives_on_disk_later_opens_with_its_findings_known(tmp_path):
    """A pull or a checkout brings files: the file watcher's notification has them analysed."""
    async with logged_session(tmp_path, files={}) as (ed, log_file):
        workspace = tmp_path / "ws"
        (workspace / "kernels.py").write_text(KERNELS)
        (workspace / "ops.py").write_text(OPS)
        ed.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=ed.uri(name), type=types.FileChangeType.Created) for name in ("kernels.py", "ops.py")
        ]))
        # kernels.py is analysed when it arrives, and again once ops.py's launch of its kernel is indexed.
        await wait_for(lambda: log_file.read_text().count("analysed kernels.py ahead of time") == 2, "the watcher's work")
        uri = ed.open("kernels.py", KERNELS)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.code == "PAL001"
        assert known_in_log(log_file) == ["kernels.py"]
