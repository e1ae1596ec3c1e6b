"""A kernel defined in kernels.py and launched from ops.py: its PAL001 shows in kernels.py (ops.py
is on disk, not open), and goes away when ops.py changes: on disk (didChangeWatchedFiles) or in
the editor (didChange)."""

from __future__ import annotations

import pytest
from lsp_harness import capabilities, editor_session, eventually, wait_for
from lsprotocol import types

pytestmark = pytest.mark.asyncio

KERNELS = """\
def add_one(x_ref, o_ref):
    return x_ref[...] + 1
"""

OPS = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import add_one

x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""

OPS_WITHOUT_LAUNCH = OPS.replace("out = pl.pallas_call", "out = pl.no_such_call")


async def current_codes(ed, uri) -> list[str]:
    if ed.pull:
        return [d.code for d in (await ed.pull_report(uri)).items]
    published = [p for p in ed.client.published if p.uri == uri]
    return [d.code for d in published[-1].diagnostics] if published else []


CLIENTS = [
    ("visual-studio-code", {}),  # push
    ("neovim", {"refresh": True}),  # pull, with workspace/diagnostic/refresh
]


@pytest.mark.parametrize("client, extra", CLIENTS, ids=["push", "pull"])
async def test_launch_in_a_file_on_disk(tmp_path, client, extra):
    (tmp_path / "kernels.py").write_text(KERNELS)
    ops = tmp_path / "ops.py"
    ops.write_text(OPS)
    caps = capabilities(client, **extra)
    async with editor_session(tmp_path, caps, initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernels.py", KERNELS)

        async def reported() -> bool:
            return await current_codes(ed, uri) == ["PAL001"]

        await eventually(reported, "PAL001 in kernels.py once ops.py is indexed")
        diagnostic = (await ed.diagnostics(uri))[0]
        assert "ops.py:8" in diagnostic.message
        [related] = diagnostic.related_information
        assert related.location.uri == ed.uri("ops.py")
        assert related.location.range.start == types.Position(line=7, character=6)
        hover = await ed.hover(uri, 0, 5)
        assert hover is not None and "pallas_call at ops.py:8" in hover.contents.value
        assert "| `o_ref` | output |" in hover.contents.value
        if client == "visual-studio-code":
            # Indexing reported $/progress to a client that supports it.
            reports = await wait_for(
                lambda: [
                    r
                    for rs in ed.client.progress_reports.values()
                    for r in rs
                    if isinstance(r, types.WorkDoneProgressEnd)
                ],
                "progress end",
            )
            assert reports

        # ops.py stops launching the kernel, on disk.
        ops.write_text(OPS_WITHOUT_LAUNCH)
        refreshes = ed.client.diagnostic_refresh_count
        ed.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=ed.uri("ops.py"), type=types.FileChangeType.Changed)]
            )
        )

        async def cleared() -> bool:
            return await current_codes(ed, uri) == []

        await eventually(cleared, "kernels.py cleared after ops.py changed")
        if ed.pull:
            await wait_for(lambda: ed.client.diagnostic_refresh_count > refreshes, "workspace/diagnostic/refresh")


@pytest.mark.parametrize("client, extra", CLIENTS, ids=["push", "pull"])
async def test_editing_the_launching_file_refreshes_the_kernel_file(tmp_path, client, extra):
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "ops.py").write_text(OPS_WITHOUT_LAUNCH)
    async with editor_session(tmp_path, capabilities(client, **extra), initialization_options={"debounce": 0}) as ed:
        kernels = ed.open("kernels.py", KERNELS)
        ops = ed.open("ops.py", OPS_WITHOUT_LAUNCH)
        assert await ed.diagnostics(kernels) == []
        # The user adds the launch in ops.py (unsaved): kernels.py gets the finding.
        ed.replace_all(ops, OPS)
        assert await ed.diagnostics(ops) == []

        async def reported() -> bool:
            return await current_codes(ed, kernels) == ["PAL001"]

        await eventually(reported, "PAL001 in kernels.py after editing ops.py")
        # And loses it when the launch goes away again.
        ed.replace_all(ops, OPS_WITHOUT_LAUNCH)

        async def cleared() -> bool:
            return await current_codes(ed, kernels) == []

        await eventually(cleared, "kernels.py cleared after editing ops.py")
