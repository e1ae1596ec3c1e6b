"""Settings: initializationOptions, workspace/configuration (and its changes), pyproject.toml;
invalid values give a visible warning and the defaults, never a crash."""

from __future__ import annotations

import pytest
from lsp_harness import KERNEL, capabilities, editor_session, eventually, wait_for
from lsprotocol import types

pytestmark = pytest.mark.asyncio


def warnings_of(editor) -> list[str]:
    return [m.message for m in editor.client.messages if m.type == types.MessageType.Warning]


async def test_invalid_initialization_options_warn_and_fall_back(tmp_path):
    options = {
        "select": "BOGUS",
        "severity": {"PAL001": "loud"},
        "debounce": -5,
        "showSyntaxErrors": "yes",
        "debounce_ms": 0,
    }
    # workspace/configuration answers too (valid): the init options' problems are not repeated.
    async with editor_session(
        tmp_path,
        capabilities("neovim"),
        initialization_options=options,
        configuration={"pallas-ls": {"showSyntaxErrors": False}},
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.severity == types.DiagnosticSeverity.Error  # the default
        messages = await wait_for(lambda: len(warnings_of(ed)) >= 4 and warnings_of(ed), "warnings")
        text = "\n".join(messages)
        assert "`select`" in text and "BOGUS" in text
        assert "`severity`" in text and "loud" in text
        assert "`showSyntaxErrors`" in text and "`debounce`" in text
        assert len(messages) == 4, messages


async def test_initialization_options_set_severity_and_selection(tmp_path):
    options = {"debounce": 0, "severity": {"PAL001": "warning"}}
    async with editor_session(tmp_path, capabilities("visual-studio-code"), initialization_options=options) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.severity == types.DiagnosticSeverity.Warning
    async with editor_session(
        tmp_path, capabilities("visual-studio-code"), initialization_options={"debounce": 0, "ignore": ["PAL001"]}
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        assert await ed.diagnostics(uri) == []
    assert not warnings_of(ed)


@pytest.mark.parametrize("client", ["visual-studio-code", "neovim"])
async def test_workspace_configuration_and_its_changes(tmp_path, client):
    # VS Code sends its whole section, client-only keys and nulls included: no warnings for those.
    section = {
        "path": [],
        "interpreter": "",
        "select": None,
        "ignore": ["PAL001"],
        "severity": {},
        "showSyntaxErrors": False,
        "logLevel": "info",
        "trace": {"server": "off"},
    }
    async with editor_session(
        tmp_path, capabilities(client), initialization_options={"debounce": 0}, configuration={"pallas-ls": section}
    ) as ed:
        if client == "visual-studio-code":
            methods = await wait_for(lambda: [r.method for r in ed.client.registrations], "registrations")
            assert types.WORKSPACE_DID_CHANGE_CONFIGURATION in methods
            assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods
        uri = ed.open("kernel.py", KERNEL)
        # The configuration is fetched after `initialized`; once applied, PAL001 is ignored.
        assert await ed.diagnostics(uri) == []
        # The user changes the setting: the server fetches it again and re-analyses.
        ed.client.set_configuration({**section, "ignore": None, "severity": {"PAL001": "hint"}}, section="pallas-ls")
        ed.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

        async def hinted():
            if ed.pull:
                items = (await ed.pull_report(uri)).items
            else:
                published = [p for p in ed.client.published if p.uri == uri]
                items = published[-1].diagnostics if published else []
            return len(items) == 1 and items[0].severity == types.DiagnosticSeverity.Hint

        await eventually(hinted, "PAL001 reported as a hint")
        assert not warnings_of(ed)


async def test_pyproject_settings_and_editor_overrides(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\nseverity = { PAL001 = "information" }\n')
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.severity == types.DiagnosticSeverity.Information
    # The editor's settings win over pyproject's.
    async with editor_session(
        tmp_path, capabilities("neovim"), initialization_options={"debounce": 0, "severity": {"PAL001": "warning"}}
    ) as ed:
        uri = ed.open("kernel.py", KERNEL)
        [diagnostic] = await ed.diagnostics(uri)
        assert diagnostic.severity == types.DiagnosticSeverity.Warning


async def test_pyproject_exclude_and_reread_on_change(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.pallas-ls]\nexclude = ["generated/**"]\n')
    (tmp_path / "generated").mkdir()
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        excluded = ed.open("generated/kernel.py", KERNEL)
        assert await ed.diagnostics(excluded) == []
        uri = ed.open("kernel.py", KERNEL)
        assert len(await ed.diagnostics(uri)) == 1
        # pyproject.toml changes on disk: the watched-files notification makes the server re-read it.
        pyproject.write_text('[tool.pallas-ls]\nignore = ["PAL001"]\n')
        ed.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=ed.uri("pyproject.toml"), type=types.FileChangeType.Changed)]
            )
        )
        assert await ed.diagnostics(uri) == []
        assert len(await ed.diagnostics(excluded)) == 0


async def test_invalid_pyproject_warns_and_uses_defaults(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\nselect = ["NOPE"]\n')
    async with editor_session(tmp_path, capabilities("neovim"), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("kernel.py", KERNEL)
        assert len(await ed.diagnostics(uri)) == 1
        messages = await wait_for(lambda: warnings_of(ed), "a warning")
        assert any("pyproject.toml" in m and "NOPE" in m for m in messages)
