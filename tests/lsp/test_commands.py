"""`workspace/executeCommand` `pallas-ls.applyFixAll`: the server asks the client to apply every
preferred safe fix (`workspace/applyEdit`), and the applied edit leaves the file clean."""

from __future__ import annotations

import asyncio

import pytest
from lsp_harness import DEADLINE, KERNEL, capabilities, editor_session, wait_for
from lsprotocol import types

pytestmark = pytest.mark.asyncio

COMMAND = "pallas-ls.applyFixAll"


def accept_edits(ed) -> list[types.ApplyWorkspaceEditParams]:
    """Let the test client apply the server's workspace/applyEdit to its buffers, like an editor."""
    received: list[types.ApplyWorkspaceEditParams] = []

    @ed.client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        received.append(params)
        ed.apply(params.edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    return received


async def execute(ed, arguments: list) -> object:
    return await asyncio.wait_for(
        ed.client.workspace_execute_command_async(types.ExecuteCommandParams(command=COMMAND, arguments=arguments)),
        DEADLINE,
    )


async def test_the_command_is_advertised(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim")) as ed:
        provider = ed.result.capabilities.execute_command_provider
        assert provider is not None and COMMAND in provider.commands


@pytest.mark.parametrize("argument", ["uri", "object"])
async def test_apply_fix_all_fixes_the_file(tmp_path, argument):
    async with editor_session(tmp_path, capabilities("neovim")) as ed:
        received = accept_edits(ed)
        uri = ed.open("kernel.py", KERNEL)
        assert [d.code for d in await ed.diagnostics(uri)] == ["PAL001"]
        applied = await execute(ed, [uri if argument == "uri" else {"uri": uri}])
        assert applied is True
        assert len(received) == 1
        await wait_for(lambda: ed.versions[uri] == 2, "the edited version")
        assert "return x_ref" not in ed.texts[uri]
        assert await ed.diagnostics(uri) == []


async def test_nothing_to_fix_or_no_such_document(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim")) as ed:
        received = accept_edits(ed)
        uri = ed.open("clean.py", "x = 1\n")
        assert await ed.diagnostics(uri) == []
        assert await execute(ed, [uri]) is False
        assert await execute(ed, [ed.uri("not_open.py")]) is False
        assert await execute(ed, []) is False
        assert received == []
