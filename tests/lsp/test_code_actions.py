"""Code actions end to end: each quick fix applied and the resulting text checked, "Disable for
this line", fix-all, `context.only`, versioned `documentChanges`."""

from __future__ import annotations

import pytest
from lsp_harness import CLEAN, KERNEL, capabilities, editor_session
from lsprotocol import types

pytestmark = pytest.mark.asyncio

TWO_KERNELS = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2
    return ()


x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
a = pl.pallas_call(add_one, out_shape=shape)(x)
b = pl.pallas_call(double, out_shape=shape)(x)
"""

TWO_KERNELS_FIXED = TWO_KERNELS.replace("    return x_ref[...] + 1", "    o_ref[...] = x_ref[...] + 1").replace(
    "    o_ref[...] = x_ref[...] * 2\n    return ()\n", "    o_ref[...] = x_ref[...] * 2\n"
)


def whole(uri_diagnostic: types.Diagnostic) -> types.Range:
    return uri_diagnostic.range


async def actions_for(editor, uri, diagnostic, only=None):
    return await editor.code_actions(uri, diagnostic.range, [diagnostic], only=only)


async def test_quick_fixes_are_offered_with_titles_and_preference(editor):
    uri = editor.open("kernel.py", KERNEL)
    [diagnostic] = await editor.diagnostics(uri)
    actions = await actions_for(editor, uri, diagnostic, only=["quickfix"])
    by_title = {a.title: a for a in actions}
    assert list(by_title) == [
        "pallas-ls (PAL001): Write the result to `o_ref`",
        "pallas-ls (PAL001): Return None instead",
        "pallas-ls (PAL001): Disable PAL001 for this line",
    ]
    assert all(a.kind == types.CodeActionKind.QuickFix for a in actions)
    assert all(list(a.diagnostics) == [diagnostic] for a in actions)
    # Preferred only for the safe, preferred fix.
    assert [a.is_preferred for a in actions] == [True, None, None]
    # VS Code declared documentChanges: versioned edits. Neovim did not: plain changes.
    edit = actions[0].edit
    if editor.capabilities.workspace.workspace_edit.document_changes:
        assert edit.changes is None
        [change] = edit.document_changes
        assert change.text_document.uri == uri and change.text_document.version == editor.versions[uri]
    else:
        assert edit.document_changes is None and list(edit.changes) == [uri]


@pytest.mark.parametrize(
    "title, expected",
    [
        ("Write the result to `o_ref`", CLEAN),
        ("Return None instead", KERNEL.replace("    return x_ref[...] + 1", "    return")),
        (
            "Disable PAL001 for this line",
            KERNEL.replace("    return x_ref[...] + 1", "    return x_ref[...] + 1  # noqa: PAL001"),
        ),
    ],
)
async def test_each_quick_fix_applied(editor, title, expected):
    uri = editor.open("kernel.py", KERNEL)
    [diagnostic] = await editor.diagnostics(uri)
    [action] = [a for a in await actions_for(editor, uri, diagnostic) if a.title == f"pallas-ls (PAL001): {title}"]
    editor.apply(action.edit)
    assert editor.texts[uri] == expected
    assert await editor.diagnostics(uri) == []


async def test_disable_extends_an_existing_noqa(editor):
    text = KERNEL.replace("    return x_ref[...] + 1", "    return x_ref[...] + 1  # noqa:PAL002")
    uri = editor.open("kernel.py", text)
    [diagnostic] = await editor.diagnostics(uri)
    [action] = [a for a in await actions_for(editor, uri, diagnostic) if "Disable" in a.title]
    editor.apply(action.edit)
    line = editor.texts[uri].splitlines()[6]
    assert line.startswith("    return x_ref[...] + 1  # noqa")
    assert line.count("noqa") == 1 and "PAL001" in line and "PAL002" in line
    assert await editor.diagnostics(uri) == []


async def test_fix_all_applies_every_safe_preferred_fix(editor):
    uri = editor.open("kernels.py", TWO_KERNELS)
    diagnostics = await editor.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["PAL001", "PAL001"]
    everything = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    [action] = await editor.code_actions(uri, everything, [], only=["source.fixAll"])
    assert action.kind == "source.fixAll.pallas-ls"
    editor.apply(action.edit)
    assert editor.texts[uri] == TWO_KERNELS_FIXED
    assert await editor.diagnostics(uri) == []


async def test_context_only_is_respected(editor):
    uri = editor.open("kernels.py", TWO_KERNELS)
    diagnostics = await editor.diagnostics(uri)
    rng = diagnostics[0].range
    quick = await editor.code_actions(uri, rng, diagnostics[:1], only=[types.CodeActionKind.QuickFix])
    assert quick and all(a.kind == "quickfix" for a in quick)
    source = await editor.code_actions(uri, rng, diagnostics[:1], only=[types.CodeActionKind.Source])
    assert [a.kind for a in source] == ["source.fixAll.pallas-ls"]
    assert await editor.code_actions(uri, rng, diagnostics[:1], only=[types.CodeActionKind.Refactor]) == []
    # Without `only`: the quick fixes and fix-all.
    kinds = [a.kind for a in await editor.code_actions(uri, rng, diagnostics[:1])]
    assert kinds.count("source.fixAll.pallas-ls") == 1 and kinds.count("quickfix") == 3


async def test_no_fix_all_when_nothing_is_fixable(editor):
    uri = editor.open("clean.py", CLEAN)
    assert await editor.diagnostics(uri) == []
    rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    assert await editor.code_actions(uri, rng, [], only=["source.fixAll.pallas-ls"]) == []


async def test_stale_diagnostics_get_no_misplaced_fixes(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [old] = await ed.diagnostics(uri)
        ed.edit(uri, (0, 0), (0, 0), "\n\n")  # everything moves down two lines
        [new] = await ed.diagnostics(uri)
        assert await actions_for(ed, uri, old, only=["quickfix"]) == []
        titles = [a.title for a in await actions_for(ed, uri, new)]
        assert "pallas-ls (PAL001): Write the result to `o_ref`" in titles


async def test_fixes_without_data_are_found_from_the_server_copy(tmp_path):
    """A client that drops `data` still gets the fixes (matched by code and range)."""
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        diagnostic.data = None
        actions = await actions_for(ed, uri, diagnostic, only=["quickfix"])
        write = next(a for a in actions if a.title.endswith("Write the result to `o_ref`"))
        ed.apply(write.edit)
        assert ed.texts[uri] == CLEAN
