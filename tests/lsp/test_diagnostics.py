"""Diagnostics end to end: push (VS Code capabilities) and pull (Neovim), versions, incremental
edits, clearing on close, syntax errors, stale results, cancellation."""

from __future__ import annotations

import asyncio

import pytest
from lsp_harness import CLEAN, KERNEL, capabilities, editor_session, wait_for
from lsprotocol import types

pytestmark = pytest.mark.asyncio

RETURN_LINE = 6  # `    return x_ref[...] + 1`


async def test_mode_follows_client_capabilities(editor):
    options = editor.result.capabilities.diagnostic_provider
    assert options is not None and options.identifier == "pallas-ls"
    assert editor.result.capabilities.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    uri = editor.open("kernel.py", KERNEL)
    diagnostics = await editor.diagnostics(uri)
    if editor.pull:
        # Pull mode: the server never pushes.
        assert not [p for p in editor.client.published if p.uri == uri]
    else:
        assert [p.version for p in editor.client.published if p.uri == uri] == [1]
    assert len(diagnostics) == 1


async def test_diagnostic_fields(editor):
    uri = editor.open("kernel.py", KERNEL)
    [diagnostic] = await editor.diagnostics(uri)
    assert diagnostic.source == "pallas-ls"
    assert diagnostic.code == "PAL001"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.code_description.href.endswith("PAL001.md")
    assert diagnostic.range == types.Range(
        start=types.Position(line=RETURN_LINE, character=4), end=types.Position(line=RETURN_LINE, character=25)
    )
    assert "add_one" in diagnostic.message
    [related] = diagnostic.related_information
    assert related.location.uri == uri
    assert related.location.range.start.line == 10  # the pallas_call line
    assert "pallas_call" in related.message
    # The fixes travel in data, already in client units, for this document version.
    assert diagnostic.data["version"] == 1
    titles = [fix["title"] for fix in diagnostic.data["fixes"]]
    assert "Write the result to `o_ref`" in titles


async def test_incremental_edits_update_diagnostics(editor):
    uri = editor.open("kernel.py", KERNEL)
    assert len(await editor.diagnostics(uri)) == 1
    # Fix the kernel with an incremental edit: `return ` -> `o_ref[...] = `.
    editor.edit(uri, (RETURN_LINE, 4), (RETURN_LINE, 11), "o_ref[...] = ")
    assert editor.texts[uri] == CLEAN
    assert await editor.diagnostics(uri) == []
    # Break it again, elsewhere on the line (a pure insertion), then check the new range.
    editor.edit(uri, (RETURN_LINE, 4), (RETURN_LINE, 17), "return ")
    [diagnostic] = await editor.diagnostics(uri)
    assert diagnostic.range.start == types.Position(line=RETURN_LINE, character=4)
    # Insert lines above: the diagnostic moves down.
    editor.edit(uri, (0, 0), (0, 0), "# one\n# two\n")
    [diagnostic] = await editor.diagnostics(uri)
    assert diagnostic.range.start.line == RETURN_LINE + 2
    assert diagnostic.data["version"] == editor.versions[uri]


async def test_cleared_on_close(tmp_path):
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0}
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        assert len(await ed.diagnostics(uri)) == 1
        ed.close(uri)
        await wait_for(
            lambda: ed.client.published[-1].uri == uri and len(ed.client.published[-1].diagnostics) == 0,
            "empty diagnostics after close",
        )


async def test_pull_result_ids_and_unchanged_reports(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        first = await ed.pull_report(uri)
        assert first.kind == "full" and len(first.items) == 1 and first.result_id
        again = await ed.pull_report(uri, previous_result_id=first.result_id)
        assert again.kind == "unchanged" and again.result_id == first.result_id
        ed.edit(uri, (0, 0), (0, 0), "\n")
        after_edit = await ed.pull_report(uri, previous_result_id=first.result_id)
        assert after_edit.kind == "full" and after_edit.result_id != first.result_id
        assert after_edit.items[0].range.start.line == RETURN_LINE + 1


async def test_syntax_errors_hidden_by_default_and_shown_on_request(tmp_path):
    broken = KERNEL + "\ndef broken(:\n    pass\n"
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", broken)
        assert [d.code for d in await ed.diagnostics(uri)] == ["PAL001"]
    async with editor_session(
        tmp_path, capabilities("neovim"), initialization_options={"debounce": 0, "showSyntaxErrors": True}
    ) as ed:
        uri = ed.open("kernel.py", broken)
        codes = sorted(d.code for d in await ed.diagnostics(uri))
        assert codes == ["PAL000", "PAL001"]


async def test_edit_storm_reports_only_the_final_text(tmp_path):
    """Many quick edits: every push carries the version it was computed for, and the last one
    matches the final text."""
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 30}
    ) as ed:
        uri = ed.open("kernel.py", CLEAN)
        assert await ed.diagnostics(uri) == []
        # Type "return " over the assignment one character at a time, then undo half of it.
        for i in range(1, 40):
            ed.replace_all(uri, CLEAN + "\n" * i)
        ed.replace_all(uri, KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.code == "PAL001"
        versions = [p.version for p in ed.client.published if p.uri == uri]
        assert versions == sorted(versions)
        # Debounced: far fewer analyses than edits.
        assert len(versions) < 20


async def test_cancelled_pull_request(tmp_path):
    """`$/cancelRequest` for a pull that waits on a (debounced) analysis is answered with
    RequestCancelled, and the server keeps working."""
    from pygls.exceptions import JsonRpcRequestCancelled

    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 3000}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        await ed.diagnostics(uri)
        ed.edit(uri, (0, 0), (0, 0), "\n")  # its analysis now waits 3 s (debounce)
        pending = ed.client.protocol.send_request(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)),
            msg_id="pull-to-cancel",
        )
        ed.client.cancel_request(types.CancelParams(id="pull-to-cancel"))
        with pytest.raises(JsonRpcRequestCancelled):
            await asyncio.wait_for(asyncio.wrap_future(pending), 2.5)  # before the debounce ends
        # The server is still alive and answers the next pull for the current version.
        report = await ed.pull_report(uri)
        assert report.kind == "full" and report.items[0].range.start.line == RETURN_LINE + 1


async def test_a_non_python_document_is_ignored(editor):
    uri = editor.open("notes.txt", "return 1\n", language_id="plaintext")
    if editor.pull:
        assert await editor.diagnostics(uri) == []
    else:
        # Nothing is published for it; a Python document opened after it still is.
        other = editor.open("kernel.py", KERNEL)
        assert len(await editor.diagnostics(other)) == 1
        assert not [p for p in editor.client.published if p.uri == uri]


async def test_an_unsaved_untitled_buffer(editor):
    """A buffer with no file behind it is analysed on its own; related locations point at it."""
    uri = editor.open("", KERNEL, uri="untitled:Untitled-1")
    [diagnostic] = await editor.diagnostics(uri)
    assert diagnostic.code == "PAL001"
    assert diagnostic.related_information[0].location.uri == uri


async def test_a_pull_of_unchanged_diagnostics_says_unchanged(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        first = await ed.pull_report(uri)
        assert len(first.items) == 1
        again = await ed.pull_report(uri, previous_result_id=first.result_id)
        assert again.kind == "unchanged" and again.result_id == first.result_id
