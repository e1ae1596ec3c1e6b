"""Hover over a kernel's def line or an entry-point call: parameters, roles and launch sites."""

from __future__ import annotations

import pytest
from lsp_harness import capabilities, editor_session, eventually
from lsprotocol import types

pytestmark = pytest.mark.asyncio

SOURCE = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scaled_add(s_ref, x_ref, y_ref, o_ref, acc_ref, *, scale):
    acc_ref[...] = x_ref[...] + y_ref[...]
    o_ref[...] = acc_ref[...] * scale + s_ref[0]


x = jnp.ones((8, 128), jnp.float32)
s = jnp.zeros((1,), jnp.int32)
run = pl.pallas_call(
    functools.partial(scaled_add, scale=2.0),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(1,),
        scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)],
    ),
)
out = run(s, x, x)


def not_a_kernel(a):
    return a
"""

DEF_LINE = 8  # def scaled_add(...)
CALL_LINE = 15  # run = pl.pallas_call(


@pytest.mark.parametrize("client", ["visual-studio-code", "neovim"])
async def test_hover_on_the_def_line(tmp_path, client):
    async with editor_session(tmp_path, capabilities(client), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", SOURCE)
        hover = await ed.hover(uri, DEF_LINE, 6)
        assert hover is not None
        assert hover.contents.kind == types.MarkupKind.Markdown
        text = hover.contents.value
        assert "`scaled_add`" in text
        for name, role in [
            ("s_ref", "scalar prefetch"),
            ("x_ref", "input"),
            ("y_ref", "input"),
            ("o_ref", "output"),
            ("acc_ref", "scratch"),
            ("scale", "bound by partial"),
        ]:
            assert f"| `{name}` | {role} |" in text, (name, text)
        assert "pallas_call at line 16" in text
        # The hover is anchored on the kernel's name.
        assert hover.range == types.Range(
            start=types.Position(line=DEF_LINE, character=4), end=types.Position(line=DEF_LINE, character=14)
        )


async def test_hover_on_the_launch_call_and_elsewhere(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", SOURCE)
        hover = await ed.hover(uri, CALL_LINE + 1, 10)  # inside the pallas_call(...) arguments
        assert hover is not None and "`scaled_add`" in hover.contents.value
        assert hover.range.start == types.Position(line=CALL_LINE, character=6)
        # Not a kernel, not a launch: nothing.
        assert await ed.hover(uri, 27, 6) is None
        assert await ed.hover(uri, 0, 3) is None


async def test_plaintext_hover_for_clients_without_markdown(tmp_path):
    caps = capabilities("neovim")
    caps.text_document.hover.content_format = [types.MarkupKind.PlainText]
    async with editor_session(tmp_path, caps, initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", SOURCE)
        hover = await ed.hover(uri, DEF_LINE, 6)
        assert hover.contents.kind == types.MarkupKind.PlainText
        assert "o_ref: output" in hover.contents.value and "|" not in hover.contents.value


TPU_SOURCE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref, acc_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((2560, 1024), jnp.float32)
y = pl.pallas_call(
    scale,
    grid=(2,),
    in_specs=[pl.BlockSpec((1280, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((1280, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)],
)(x)
"""
TPU_CALL_LINE = 12


@pytest.mark.parametrize("generation, limit, over", [(None, "32 MiB", False), ("v5e", "16 MiB", True)])
async def test_hover_on_a_tpu_launch_shows_its_vmem(tmp_path, generation, limit, over):
    options = {"debounce": 0, **({"tpuGeneration": generation} if generation else {})}
    async with editor_session(tmp_path, capabilities("visual-studio-code"), initialization_options=options) as ed:
        uri = ed.open("kernel.py", TPU_SOURCE)
        diagnostics = await ed.diagnostics(uri)
        assert [d.code for d in diagnostics] == (["PAL102"] if over else [])
        text = (await ed.hover(uri, TPU_CALL_LINE + 3, 8)).contents.value
        assert f"**VMEM on a TPU**: at least 20 MiB of {limit}" + (" — over the limit" if over else "") in text
        assert "| input 1 | (1280, 1024) | float32 | 2 (double-buffered) | 10 MiB |" in text
        assert "| output 1 | (1280, 1024) | float32 | 2 (double-buffered) | 10 MiB |" in text
        assert "**20 MiB**" in text and "lower bound" in text
        assert "Scratch, not counted against the limit: (8, 128) float32 = 4 KiB." in text
        assert ("TPU v5e" if generation else "set `tpu-generation` for yours") in text


async def test_tpu_generation_setting_changes_the_findings(tmp_path):
    """The editor's `tpuGeneration`, then the workspace's pyproject when the editor says nothing."""
    configuration = {"pallas-ls": {"tpuGeneration": None}}
    async with editor_session(
        tmp_path,
        capabilities("visual-studio-code"),
        initialization_options={"debounce": 0},
        configuration=configuration,
    ) as ed:
        uri = ed.open("kernel.py", TPU_SOURCE)
        assert await ed.diagnostics(uri) == []
        ed.client.set_configuration({"tpuGeneration": "v5e"}, section="pallas-ls")
        ed.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

        async def reported():
            if ed.pull:
                items = (await ed.pull_report(uri)).items
            else:
                published = [p for p in ed.client.published if p.uri == uri]
                items = published[-1].diagnostics if published else []
            return [d.code for d in items] == ["PAL102"]

        await eventually(reported, "PAL102 once the generation is v5e")
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\ntpu-generation = "v5e"\n')
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", TPU_SOURCE)
        assert [d.code for d in await ed.diagnostics(uri)] == ["PAL102"]
