"""A code action in a notebook cell never edits a masked IPython line, and fix-all's module edit
splits into edits of each changed cell (lsp/notebooks.py)."""

from __future__ import annotations

from lsprotocol import types

from pallas_ls.lsp import notebooks

CELL = "x = 1\nfiles = !ls\ny = 2\n"


def action(state, start_line: int, end_line: int) -> types.CodeAction:
    first = state.starts["cell:1"]
    rng = types.Range(
        start=types.Position(line=first + start_line, character=0),
        end=types.Position(line=first + end_line, character=0),
    )
    return types.CodeAction(
        title="t", edit=types.WorkspaceEdit(changes={"nb": [types.TextEdit(range=rng, new_text="z\n")]})
    )


def test_edits_on_masked_lines_are_not_offered():
    state, _ = notebooks.build("nb", 1, [("cell:0", "markdown", "# title"), ("cell:1", "code", CELL)])
    assert state.masked["cell:1"] == {1}
    kept = notebooks.actions_to_cell(state, "cell:1", 1, [action(state, 0, 1), action(state, 2, 3)])
    assert [a.edit.changes["cell:1"][0].range.start.line for a in kept] == [0, 2]  # line 0 and line 2 only
    assert notebooks.actions_to_cell(state, "cell:1", 1, [action(state, 1, 2)]) == []
    assert notebooks.actions_to_cell(state, "cell:1", 1, [action(state, 0, 2)]) == []


def test_fix_all_edits_around_a_masked_line_but_never_on_it():
    cells = [("cell:0", "markdown", "# title"), ("cell:1", "code", CELL), ("cell:2", "code", "z = 3\n")]
    state, module = notebooks.build("nb", 1, cells)
    fixed = module.replace("x = 1\n", "x = 10\n").replace("y = 2\n", "y = 20\n").replace("z = 3\n", "z = 30\n")
    edit = notebooks.fix_all_edit(state, fixed, "utf-16", lambda uri: 7, document_changes=False)
    lines = {uri: [(e.range.start.line, e.range.end.line) for e in edits] for uri, edits in edit.changes.items()}
    assert lines == {"cell:1": [(0, 0), (2, 2)], "cell:2": [(0, 0)]}  # line 1 (`files = !ls`) untouched
    assert [e.new_text for e in edit.changes["cell:1"]] == ["0", "0"]
    # A fix that rewrites the masked line's place: that cell is left out, the other still fixed.
    rewritten = fixed.replace("files = None\n", "files = []\n")
    edit = notebooks.fix_all_edit(state, rewritten, "utf-16", lambda uri: 7, document_changes=True)
    assert [(c.text_document.uri, c.text_document.version) for c in edit.document_changes] == [("cell:2", 7)]


def test_fix_all_that_loses_a_cell_boundary_edits_nothing():
    state, module = notebooks.build("nb", 1, [("cell:1", "code", "x = 1\n"), ("cell:2", "code", "y = 2\n")])
    merged = module.replace("# pallas-ls: notebook cell 2\n", "")
    assert notebooks.fix_all_edit(state, merged, "utf-16", lambda uri: 1, document_changes=False) is None


def test_cell_edits_keep_crlf_pairs_and_columns_in_the_client_encoding():
    edits = notebooks.cell_edits("a = '\u00e9'\r\nb = 1\r\n", "a = '\u00e9'\r\nb = 2\r\n", "utf-16")
    assert [(e.range.start.line, e.range.start.character, e.range.end.character, e.new_text) for e in edits] == [
        (1, 4, 5, "2")
    ]
    edits = notebooks.cell_edits("a = '\U0001f600' + 1\n", "a = '\U0001f600' + 2\n", "utf-16")
    assert [(e.range.start.character, e.new_text) for e in edits] == [(11, "2")]
