"""`run = "onSave"` (as ruff's `lint.run`): a text document's diagnostics follow saves, not keystrokes."""

from __future__ import annotations

import asyncio

import pytest
from lsp_harness import CLEAN, KERNEL, capabilities, editor_session
from lsprotocol import types

from pallas_ls.lsp.settings import parse_editor_settings


def save(ed, uri: str) -> None:
    ed.client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


def codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


@pytest.mark.asyncio
@pytest.mark.parametrize("client", ["neovim", "visual_studio_code"])
async def test_diagnostics_follow_saves(tmp_path, client):
    pull = client == "visual_studio_code"
    async with editor_session(
        tmp_path, capabilities(client, pull=pull), initialization_options={"run": "onSave"}
    ) as ed:
        uri = ed.open("kern.py", KERNEL)
        assert codes(await ed.diagnostics(uri)) == ["PAL001"]  # opening analyses, as ruff does
        ed.replace_all(uri, CLEAN)  # fixed, not saved
        if pull:
            # The last save's findings, not an analysis of the unsaved text.
            assert codes((await ed.pull_report(uri)).items) == ["PAL001"]
        else:
            await asyncio.sleep(1.0)
            assert not [p for p in ed.client.published if p.uri == uri and p.version == ed.versions[uri]]
        save(ed, uri)
        assert codes(await ed.diagnostics(uri)) == []


@pytest.mark.asyncio
async def test_on_type_is_the_default(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim", pull=False)) as ed:
        uri = ed.open("kern.py", KERNEL)
        assert codes(await ed.diagnostics(uri)) == ["PAL001"]
        ed.replace_all(uri, CLEAN)
        assert codes(await ed.diagnostics(uri)) == []


@pytest.mark.parametrize("value, on_save", [("onSave", True), ("onType", False), ("on-save", True)])
def test_run_values(value, on_save):
    settings, warnings = parse_editor_settings({"run": value})
    assert (settings.run_on_save, warnings) == (on_save, [])


def test_a_bad_run_value_is_a_warning_and_keeps_the_default():
    settings, warnings = parse_editor_settings({"run": "sometimes", "debounce": 5})
    assert settings.run_on_save is False and settings.debounce_ms == 5
    assert warnings == ['invalid `run`: expected "onType" or "onSave", got \'sometimes\'']
