"""A code action in a notebook cell never edits a masked IPython line (lsp/notebooks.py)."""

from __future__ import annotations

from lsprotocol import types

from pallas_ls.lsp import notebooks

CELL = "x = 1\nfiles = !ls\ny = 2\n"


def action(state, start_line: int, end_line: int) -> types.CodeAction:
    first = state.starts["cell:1"]
    rng = types.Range(start=types.Position(line=first + start_line, character=0),
                      end=types.Position(line=first + end_line, character=0))
    return types.CodeAction(title="t", edit=types.WorkspaceEdit(changes={"nb": [types.TextEdit(range=rng, new_text="z\n")]}))


def test_edits_on_masked_lines_are_not_offered():
    state, _ = notebooks.build("nb", 1, [("cell:0", "markdown", "# title"), ("cell:1", "code", CELL)])
    assert state.masked["cell:1"] == {1}
    kept = notebooks.actions_to_cell(state, "cell:1", 1, [action(state, 0, 1), action(state, 2, 3)])
    assert [a.edit.changes["cell:1"][0].range.start.line for a in kept] == [0, 2]  # line 0 and line 2 only
    assert notebooks.actions_to_cell(state, "cell:1", 1, [action(state, 1, 2)]) == []
    assert notebooks.actions_to_cell(state, "cell:1", 1, [action(state, 0, 2)]) == []
