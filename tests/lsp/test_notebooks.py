"""Notebook documents (LSP 3.17 notebookDocument/*): the code cells analysed as one module, the
diagnostics on each cell's URI with cell-relative ranges, code actions and hover in cells."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
import pytest_asyncio
from lsp_harness import KERNEL, Editor, apply_text_edits, capabilities, editor_session, wait_for
from lsprotocol import types

from pallas_ls.engine.notebook import Notebook as EngineNotebook

pytestmark = pytest.mark.asyncio

IMPORTS = KERNEL.split("\n\n\n")[0] + "\n"  # the import lines
KERNEL_CELL = "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n"
LAUNCH_CELL = (
    "x = jnp.ones((8, 128), jnp.float32)\n"
    "out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n"
)
FIXED_CELL = "def add_one(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + 1\n"


def notebook_caps(name: str, pull: bool) -> types.ClientCapabilities:
    caps = capabilities(name, pull=pull)
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()
    )
    return caps


class Notebook:
    """A notebook open in the editor: its cells (URI, kind, text) kept as the client has them."""

    def __init__(self, editor: Editor, name: str, cells: list[tuple[str, str]]):
        self.editor, self.client = editor, editor.client
        self.uri = editor.uri(name)
        self.version = 1
        self.count = 0
        self.cells: list[list] = [[self.cell_uri(), kind, text] for kind, text in cells]
        self.client.notebook_document_did_open(
            types.DidOpenNotebookDocumentParams(
                notebook_document=types.NotebookDocument(
                    uri=self.uri, notebook_type="jupyter-notebook", version=1, cells=[self.cell(c) for c in self.cells]
                ),
                cell_text_documents=[self.item(c) for c in self.cells],
            )
        )

    def cell_uri(self) -> str:
        self.count += 1
        return self.uri.replace("file://", "vscode-notebook-cell://", 1) + f"#W{self.count}sZmlsZQ%3D%3D"

    @staticmethod
    def cell(c) -> types.NotebookCell:
        kind = types.NotebookCellKind.Code if c[1] == "code" else types.NotebookCellKind.Markup
        return types.NotebookCell(kind=kind, document=c[0])

    @staticmethod
    def item(c) -> types.TextDocumentItem:
        return types.TextDocumentItem(
            uri=c[0], language_id="python" if c[1] == "code" else "markdown", version=1, text=c[2]
        )

    def uri_of(self, index: int) -> str:
        return self.cells[index][0]

    def _change(self, change: types.NotebookDocumentChangeEvent) -> None:
        self.version += 1
        self.client.notebook_document_did_change(
            types.DidChangeNotebookDocumentParams(
                notebook_document=types.VersionedNotebookDocumentIdentifier(uri=self.uri, version=self.version),
                change=change,
            )
        )

    def set_text(self, index: int, text: str) -> None:
        self.cells[index][2] = text
        self._change(
            types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(
                                uri=self.uri_of(index), version=self.version
                            ),
                            changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                        )
                    ]
                )
            )
        )

    def edit(self, index: int, edits: list[types.TextEdit]) -> None:
        self.set_text(index, apply_text_edits(self.cells[index][2], edits, self.editor.encoding))

    def splice(self, start: int, delete: int, new: list[tuple[str, str]]) -> None:
        removed = self.cells[start : start + delete]
        added = [[self.cell_uri(), kind, text] for kind, text in new]
        self.cells[start : start + delete] = added
        self._change(
            types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    structure=types.NotebookDocumentCellChangeStructure(
                        array=types.NotebookCellArrayChange(
                            start=start, delete_count=delete, cells=[self.cell(c) for c in added]
                        ),
                        did_open=[self.item(c) for c in added],
                        did_close=[types.TextDocumentIdentifier(uri=c[0]) for c in removed],
                    )
                )
            )
        )

    def move(self, index: int, to: int) -> None:
        """A move as VS Code sends it: the cell removed and inserted elsewhere (same URI, no
        open/close of its text document)."""
        moved = self.cells.pop(index)
        self._change(
            types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    structure=types.NotebookDocumentCellChangeStructure(
                        array=types.NotebookCellArrayChange(start=index, delete_count=1)
                    )
                )
            )
        )
        self.cells.insert(to, moved)
        self._change(
            types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    structure=types.NotebookDocumentCellChangeStructure(
                        array=types.NotebookCellArrayChange(start=to, delete_count=0, cells=[self.cell(moved)])
                    )
                )
            )
        )

    def apply(self, edit: types.WorkspaceEdit) -> list[int]:
        """A workspace edit over the cells, applied as an editor does (each TextDocumentEdit for
        the cell's current version); the indexes of the cells edited."""
        per_cell: dict[str, list[types.TextEdit]] = {}
        for change in edit.document_changes or ():
            assert isinstance(change, types.TextDocumentEdit), change
            per_cell.setdefault(change.text_document.uri, []).extend(change.edits)
        for uri, edits in (edit.changes or {}).items():
            per_cell.setdefault(uri, []).extend(edits)
        indexes = [[c[0] for c in self.cells].index(uri) for uri in per_cell]
        for index, edits in zip(indexes, per_cell.values(), strict=False):
            self.edit(index, edits)
        return indexes

    def ipynb(self) -> str:
        """The notebook as an nbformat 4.5 file, as Jupyter writes it."""

        def cell(i, c):
            common = {"cell_type": c[1], "id": f"cell-{i}", "metadata": {}, "source": c[2].splitlines(keepends=True)}
            return {**common, "execution_count": None, "outputs": []} if c[1] == "code" else common

        return (
            json.dumps(
                {
                    "cells": [cell(i, c) for i, c in enumerate(self.cells)],
                    "metadata": {"language_info": {"name": "python"}},
                    "nbformat": 4,
                    "nbformat_minor": 5,
                },
                indent=1,
            )
            + "\n"
        )

    def close(self) -> None:
        self.client.notebook_document_did_close(
            types.DidCloseNotebookDocumentParams(
                notebook_document=types.NotebookDocumentIdentifier(uri=self.uri),
                cell_text_documents=[types.TextDocumentIdentifier(uri=c[0]) for c in self.cells],
            )
        )

    async def diagnostics(self, index: int, want=lambda d: True) -> list[types.Diagnostic]:
        """The cell's diagnostics once `want` holds for them (pulled or pushed)."""
        uri = self.uri_of(index)
        if self.editor.pull:
            found: list = []

            async def pulled():
                report = await self.client.text_document_diagnostic_async(
                    types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
                )
                found[:] = [list(report.items)]
                return want(found[0])

            end = 20
            import asyncio
            import time

            deadline = time.monotonic() + end
            while not await pulled():
                if time.monotonic() > deadline:
                    pytest.fail(f"pulled diagnostics of {uri}: {found}")
                await asyncio.sleep(0.05)
            return found[0]
        published = await wait_for(
            lambda: (
                uri in self.client.diagnostics
                and want(list(self.client.diagnostics[uri]))
                and [list(self.client.diagnostics[uri])]
            ),
            f"diagnostics of {uri}",
        )
        return published[0]


CLIENTS = {"vscode": ("visual-studio-code", False), "neovim": ("neovim", True)}


@pytest_asyncio.fixture(params=sorted(CLIENTS))
async def editor(request, tmp_path: pathlib.Path):
    name, pull = CLIENTS[request.param]
    async with editor_session(tmp_path, notebook_caps(name, pull), initialization_options={"debounce": 0}) as ed:
        yield ed


def pal001(diagnostics):
    return [d for d in diagnostics if d.code == "PAL001"]


async def test_advertises_notebook_sync(editor):
    sync = editor.result.capabilities.notebook_document_sync
    assert sync is not None
    selector = sync.notebook_selector[0]
    assert selector.notebook == "*" and selector.cells[0].language == "python"


async def test_kernel_in_one_cell_launched_in_another(editor):
    nb = Notebook(
        editor, "k.ipynb", [("markdown", "# Title\n"), ("code", IMPORTS), ("code", KERNEL_CELL), ("code", LAUNCH_CELL)]
    )
    found = pal001(await nb.diagnostics(2, lambda ds: pal001(ds)))
    assert len(found) == 1 and found[0].range.start.line == 1, found
    assert await nb.diagnostics(1) == [] and await nb.diagnostics(3, lambda ds: not pal001(ds)) is not None
    nb.set_text(2, FIXED_CELL)
    assert await nb.diagnostics(2, lambda ds: not ds) == []
    nb.close()


async def test_structure_changes(editor):
    nb = Notebook(editor, "s.ipynb", [("code", IMPORTS), ("code", FIXED_CELL), ("code", LAUNCH_CELL)])
    assert await nb.diagnostics(1) == []
    # A cell added with the bad kernel, before the launch: the later definition wins.
    nb.splice(2, 0, [("code", KERNEL_CELL)])
    found = pal001(await nb.diagnostics(2, lambda ds: pal001(ds)))
    assert found[0].range.start.line == 1
    # Moved after the launch: the launch sees the fixed kernel again.
    nb.move(2, 3)
    assert nb.cells[3][2] == KERNEL_CELL
    assert await nb.diagnostics(3, lambda ds: not ds) == []
    # Moved before the good kernel: the later (good) definition still wins.
    nb.move(3, 1)
    assert [c[2] for c in nb.cells[1:3]] == [KERNEL_CELL, FIXED_CELL]
    assert await nb.diagnostics(1, lambda ds: not ds) == []
    # The good kernel removed: the launch now runs the bad one, reported in its cell (a removal
    # ignored, or the wrong cell removed, leaves it clean); the launch's own cell stays clean.
    removed = nb.uri_of(2)
    nb.splice(2, 1, [])
    found = pal001(await nb.diagnostics(1, lambda ds: pal001(ds)))
    assert [d.range.start.line for d in found] == [1], found
    assert not pal001(await nb.diagnostics(2))
    if not editor.pull:  # the removed cell's diagnostics were cleared, not left behind
        assert not editor.client.diagnostics.get(removed)
    # A cell replaced by a new one (new URI) with the same text still gets its diagnostics.
    nb.splice(1, 2, [("code", KERNEL_CELL), ("code", LAUNCH_CELL)])
    assert pal001(await nb.diagnostics(1, lambda ds: pal001(ds)))
    nb.splice(1, 1, [("code", KERNEL_CELL)])
    assert pal001(await nb.diagnostics(1, lambda ds: pal001(ds)))
    nb.close()
    if not editor.pull:
        await wait_for(lambda: all(not editor.client.diagnostics.get(c[0], ()) for c in nb.cells), "cleared")


async def test_close_clears(editor):
    if editor.pull:
        pytest.skip("a pull client drops a closed document's diagnostics itself")
    nb = Notebook(editor, "c.ipynb", [("code", IMPORTS + KERNEL_CELL + LAUNCH_CELL)])
    assert pal001(await nb.diagnostics(0, lambda ds: pal001(ds)))
    nb.close()
    await nb.diagnostics(0, lambda ds: not ds)


async def test_quick_fix_in_a_cell(editor):
    nb = Notebook(editor, "q.ipynb", [("code", IMPORTS), ("code", KERNEL_CELL), ("code", LAUNCH_CELL)])
    found = pal001(await nb.diagnostics(1, lambda ds: pal001(ds)))
    actions = await editor.code_actions(nb.uri_of(1), found[0].range, found, only=["quickfix"])
    fixes = [a for a in actions if "Disable" not in a.title]
    assert fixes, actions
    edit = fixes[0].edit
    if edit.document_changes:
        (change,) = edit.document_changes
        assert change.text_document.uri == nb.uri_of(1)
        edits = change.edits
    else:
        assert list(edit.changes) == [nb.uri_of(1)]
        edits = edit.changes[nb.uri_of(1)]
    nb.edit(1, edits)
    assert not pal001(await nb.diagnostics(1, lambda ds: not pal001(ds)))


async def test_disable_and_fix_all_in_a_cell(editor):
    nb = Notebook(editor, "d.ipynb", [("code", IMPORTS), ("code", KERNEL_CELL), ("code", LAUNCH_CELL)])
    found = pal001(await nb.diagnostics(1, lambda ds: pal001(ds)))
    actions = await editor.code_actions(nb.uri_of(1), found[0].range, found, only=["quickfix"])
    disable = [a for a in actions if "Disable" in a.title]
    assert disable
    all_fix = await editor.code_actions(nb.uri_of(1), found[0].range, [], only=["source.fixAll"])
    assert [a.kind for a in all_fix] == ["source.fixAll.pallas-ls"], all_fix
    for action in disable + all_fix:
        edit = action.edit
        uris = [c.text_document.uri for c in edit.document_changes] if edit.document_changes else list(edit.changes)
        assert uris == [nb.uri_of(1)]
    edits = (
        disable[0].edit.document_changes[0].edits
        if disable[0].edit.document_changes
        else disable[0].edit.changes[nb.uri_of(1)]
    )
    assert edits[0].range.start.line <= 1
    nb.edit(1, edits)
    assert not pal001(await nb.diagnostics(1, lambda ds: not pal001(ds)))


async def test_hover_in_a_cell(editor):
    nb = Notebook(editor, "h.ipynb", [("code", IMPORTS), ("code", FIXED_CELL), ("code", LAUNCH_CELL)])
    await nb.diagnostics(1)
    hover = await editor.hover(nb.uri_of(1), 0, 5)
    assert hover is not None and "x_ref" in hover.contents.value
    assert hover.range is None or hover.range.start.line == 0


async def test_magics_and_markdown_are_silent(editor):
    nb = Notebook(
        editor,
        "m.ipynb",
        [
            ("markdown", "def f(:\n  this is not python\n"),
            ("code", "!pip install jax\n%matplotlib inline\n" + IMPORTS),
            ("code", "%%timeit\n" + FIXED_CELL),
            ("code", LAUNCH_CELL + "x?\n"),
        ],
    )
    for index in (1, 2, 3):
        assert await nb.diagnostics(index) == []
    if not editor.pull:
        assert nb.uri_of(0) not in editor.client.diagnostics or not editor.client.diagnostics[nb.uri_of(0)]


async def test_an_edit_after_a_line_separator_in_a_cell_lands_where_the_editor_put_it(editor):
    """U+2028 is no line end in LSP: a cell holding one keeps its lines, so an incremental edit
    of a later line changes that line (pygls' workspace split there and edited the wrong line)."""
    odd = "s = 'a\u2028b'\n" + FIXED_CELL
    nb = Notebook(editor, "u.ipynb", [("code", IMPORTS), ("code", odd), ("code", LAUNCH_CELL)])
    assert await nb.diagnostics(1) == []
    rng = types.Range(start=types.Position(line=2, character=4), end=types.Position(line=2, character=16))
    nb.cells[1][2] = odd.replace("    o_ref[...] =", "    return")
    nb._change(
        types.NotebookDocumentChangeEvent(
            cells=types.NotebookDocumentCellChanges(
                text_content=[
                    types.NotebookDocumentCellContentChanges(
                        document=types.VersionedTextDocumentIdentifier(uri=nb.uri_of(1), version=nb.version + 1),
                        changes=[types.TextDocumentContentChangePartial(range=rng, text="return")],
                    )
                ]
            )
        )
    )
    found = await nb.diagnostics(1, lambda ds: pal001(ds))
    assert [(d.code, d.range.start.line) for d in found] == [("PAL001", 2)], found
    nb.close()


SECOND_KERNEL_CELL = (
    "%load_ext autoreload\n"  # a masked IPython line, which fix-all leaves alone
    "def double(x_ref, o_ref):\n    return x_ref[...] * 2\n"
)
LAUNCH_BOTH_CELL = LAUNCH_CELL + "out2 = pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n"


def cli_fixed_sources(notebook_text: str, directory: pathlib.Path) -> list[str]:
    """The cells' sources after `pallas-ls check --fix` on the notebook written as a file."""
    path = directory / "cli.ipynb"
    path.write_text(notebook_text)
    subprocess.run(
        [sys.executable, "-m", "pallas_ls", "check", "--isolated", "--no-cache", "--fix", path.name],
        cwd=directory,
        capture_output=True,
        check=False,
    )
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]]


async def test_fix_all_edits_each_cell_as_check_fix_does(editor, tmp_path_factory):
    nb = Notebook(
        editor,
        "f.ipynb",
        [
            ("code", IMPORTS),
            ("code", KERNEL_CELL),
            ("markdown", "# Doubling\n"),
            ("code", SECOND_KERNEL_CELL),
            ("code", LAUNCH_BOTH_CELL),
        ],
    )
    assert pal001(await nb.diagnostics(1, lambda ds: pal001(ds)))
    assert pal001(await nb.diagnostics(3, lambda ds: pal001(ds)))
    expected = cli_fixed_sources(nb.ipynb(), tmp_path_factory.mktemp("cli"))
    assert expected[1] == FIXED_CELL and expected[3] != SECOND_KERNEL_CELL  # check --fix fixes both

    [action] = await editor.code_actions(
        nb.uri_of(1),
        types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        [],
        only=["source.fixAll"],
    )
    edit = action.edit
    if edit.document_changes:  # each edit for the version of its cell
        assert [c.text_document.version for c in edit.document_changes] == [1, 1]
    assert sorted(nb.apply(edit)) == [1, 3]
    compile(EngineNotebook.of_cells([(c[1], c[2]) for c in nb.cells]).python, "f.ipynb", "exec")  # magics masked
    assert [c[2] for c in nb.cells] == expected
    assert nb.cells[3][2].startswith("%load_ext autoreload\n")
    for index in (1, 3):
        assert await nb.diagnostics(index, lambda ds: not pal001(ds)) == []
    nb.close()


async def test_apply_fix_all_on_a_cell_fixes_the_notebook(editor):
    received = []

    @editor.client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        received.append(nb.apply(params.edit))
        return types.ApplyWorkspaceEditResult(applied=True)

    nb = Notebook(
        editor,
        "a.ipynb",
        [("code", IMPORTS), ("code", KERNEL_CELL), ("code", SECOND_KERNEL_CELL), ("code", LAUNCH_BOTH_CELL)],
    )
    assert pal001(await nb.diagnostics(2, lambda ds: pal001(ds)))
    applied = await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="pallas-ls.applyFixAll", arguments=[nb.uri_of(3)])
    )  # the active cell: the launch
    assert applied is True and [sorted(r) for r in received] == [[1, 2]]
    assert nb.cells[1][2] == FIXED_CELL and "o_ref[...] = x_ref[...] * 2" in nb.cells[2][2]
    for index in (1, 2):
        assert await nb.diagnostics(index, lambda ds: not pal001(ds)) == []
    nb.close()
