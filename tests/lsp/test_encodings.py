"""Position encodings: utf-8, utf-16 and utf-32 negotiated, with exact columns around é, emoji and
CJK text, in diagnostics, incremental edits, code actions and hover."""

from __future__ import annotations

import pytest
from lsp_harness import capabilities, editor_session
from lsprotocol import types

pytestmark = pytest.mark.asyncio

SOURCE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    ñ = "é😀中"; return x_ref[...] + 1


x = jnp.ones((8, 128), jnp.float32)
_ = "😀"; out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # 计算 😀
"""
LINE = 6


def units(text: str, encoding: str) -> int:
    return (
        len(text.encode(encoding.replace("utf-16", "utf-16-le").replace("utf-32", "utf-32-le")))
        // {"utf-8": 1, "utf-16": 2, "utf-32": 4}[encoding]
    )


# `    ñ = "é😀中"; ` is 15 code points; in UTF-16 the emoji is two units; in UTF-8 ñ and é are
# two bytes each, the emoji four and 中 three.
START = {"utf-32": 15, "utf-16": 16, "utf-8": 22}
assert {e: units('    ñ = "é😀中"; ', e) for e in START} == START
RETURN_LENGTH = len("return x_ref[...] + 1")  # ASCII: the same in every encoding
# The launch (related information) on line 10 starts after `_ = "😀"; out = `.
LAUNCH_START = {"utf-32": 15, "utf-16": 16, "utf-8": 18}
assert {e: units('_ = "😀"; out = ', e) for e in LAUNCH_START} == LAUNCH_START
LAUNCH_LENGTH = len("pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))")


@pytest.mark.parametrize(
    "client, offered, negotiated",
    [
        ("neovim", ["utf-8"], "utf-8"),
        ("neovim", ["utf-16"], "utf-16"),
        ("neovim", ["utf-32"], "utf-32"),
        ("neovim", ["utf-32", "utf-8", "utf-16"], "utf-32"),  # the client's first choice
        ("visual-studio-code", None, "utf-16"),  # nothing offered: UTF-16
    ],
)
async def test_columns_in_every_encoding(tmp_path, client, offered, negotiated):
    caps = capabilities(client, encodings=offered) if offered else capabilities(client)
    async with editor_session(tmp_path, caps, initialization_options={"debounce": 0}) as ed:
        assert ed.encoding == negotiated
        uri = ed.open("kernel.py", SOURCE)
        [diagnostic] = await ed.diagnostics(uri)
        start = START[negotiated]
        assert diagnostic.range == types.Range(
            start=types.Position(line=LINE, character=start),
            end=types.Position(line=LINE, character=start + RETURN_LENGTH),
        )
        [related] = diagnostic.related_information
        launch = LAUNCH_START[negotiated]
        assert related.location.range == types.Range(
            start=types.Position(line=10, character=launch),
            end=types.Position(line=10, character=launch + LAUNCH_LENGTH),
        )

        # Each fix's edit lands exactly (applied by an independent implementation of the encoding).
        actions = await ed.code_actions(uri, diagnostic.range, [diagnostic], only=["quickfix"])
        disable = next(a for a in actions if "Disable" in a.title)
        write = next(a for a in actions if "Write the result" in a.title)
        ed.apply(disable.edit)
        assert ed.texts[uri].splitlines()[LINE] == '    ñ = "é😀中"; return x_ref[...] + 1  # noqa: PAL001'
        assert await ed.diagnostics(uri) == []
        # Undo with an incremental edit positioned after the non-ASCII text.
        end_of_code = start + RETURN_LENGTH
        ed.edit(uri, (LINE, end_of_code), (LINE, end_of_code + len("  # noqa: PAL001")), "")
        assert ed.texts[uri] == SOURCE
        [diagnostic] = await ed.diagnostics(uri)
        actions = await ed.code_actions(uri, diagnostic.range, [diagnostic], only=["quickfix"])
        write = next(a for a in actions if "Write the result" in a.title)
        ed.apply(write.edit)
        assert ed.texts[uri].splitlines()[LINE] == '    ñ = "é😀中"; o_ref[...] = x_ref[...] + 1'
        assert await ed.diagnostics(uri) == []


async def test_incremental_edit_inside_non_ascii_text(tmp_path):
    """Edits whose positions fall after astral characters, in UTF-16 (surrogate pairs)."""
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("kernel.py", SOURCE)
        await ed.diagnostics(uri)
        # Replace 中 (UTF-16 columns 12-13 on the line: the emoji before it takes two) with two emoji.
        ed.edit(uri, (LINE, 12), (LINE, 13), "🎉🎉")
        assert '"é😀🎉🎉"' in ed.texts[uri]
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.range.start == types.Position(line=LINE, character=START["utf-16"] + 3)
        hover = await ed.hover(uri, 5, 5)
        assert hover is not None and "`add_one`" in hover.contents.value
