"""The server's parts that the split into modules made separate (issue 19): the client's
capabilities, Diagnostic.data's one conversion, the settings-key normalisation, and the project
analysis fix-all's later rounds use (the same as `check --fix`'s, issue 14)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities
from test_cross_module import KERNELS, OPS

from pallas_ls.config import normalise_key
from pallas_ls.engine.findings import Applicability, Edit, Fix
from pallas_ls.engine.source import Range, SourceFile
from pallas_ls.lsp.capabilities import ClientCapabilities
from pallas_ls.lsp.convert import ClientFeatures, LineSource
from pallas_ls.lsp.diagnostic_data import DiagnosticData, data_json
from pallas_ls.lsp.workspace import Analyzer


def test_capabilities_of_recorded_clients():
    neovim = ClientCapabilities.from_initialize(client_capabilities("neovim"), "utf-16")
    vscode = ClientCapabilities.from_initialize(client_capabilities("visual-studio-code"), "utf-16")
    assert neovim.pull_diagnostics and not vscode.pull_diagnostics  # VS Code 1.65's recorded set pushes
    assert vscode.document_changes and vscode.work_done_progress and vscode.diagnostics.related_information
    assert ClientCapabilities.from_initialize(types.ClientCapabilities(), "utf-8") == ClientCapabilities(
        encoding="utf-8", diagnostics=ClientFeatures(related_information=False)
    )


def test_diagnostic_data_reads_back_what_is_written():
    source = SourceFile.from_text("x = 1\ny = 'é'\n", "/w/k.py")
    fix = Fix("Write it", (Edit(Range.of(1, 4, 1, 7), "'e'"),), Applicability.SAFE, preferred=True)
    data = DiagnosticData.from_json(data_json(7, [fix], LineSource(source), "utf-16"))
    assert data is not None and data.version == 7
    [read] = data.fixes
    assert (read.title, read.safe, read.preferred) == ("Write it", True, True)
    assert read.edits == [
        types.TextEdit(
            range=types.Range(start=types.Position(line=1, character=4), end=types.Position(line=1, character=7)),
            new_text="'e'",
        )
    ]


@pytest.mark.parametrize("value", [None, [], {"fixes": None}, {"fixes": [{"title": "t"}]}, {"fixes": [1]}])
def test_diagnostic_data_that_a_client_mangled_is_none(value):
    assert DiagnosticData.from_json(value) is None


@pytest.mark.parametrize("key", ["show-syntax-errors", "show_syntax_errors", "showSyntaxErrors", "show.syntax.errors"])
def test_one_key_normalisation_for_pyproject_and_editor(key):
    assert normalise_key(key) == "show_syntax_errors"


def test_fix_all_rounds_see_kernels_launched_elsewhere(tmp_path):
    """A later fix-all round's text is analysed with the launches of its kernels in other files,
    as `check --fix` analyses it: analysed alone, kernels.py has no kernel at all."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "ops.py").write_text(OPS)
    analyzer = Analyzer([str(tmp_path)])
    kernels = str(tmp_path / "kernels.py")
    analyzer.index_workspace([kernels, str(tmp_path / "ops.py")])
    edited = KERNELS + "\n# a later round's text\n"
    assert [f.code for f in analyzer.findings_of_text(kernels, edited)] == ["PAL001"]
    assert [f.code for f in analyzer.findings_of_text(None, edited)] == []
    # The document's own text (its overlay) is untouched: its analysis is still of KERNELS.
    assert analyzer.analyze_document(kernels, KERNELS).analysis.source.text == KERNELS


def test_editor_settings_are_typed_and_a_bad_value_keeps_only_its_own_default():
    from pallas_ls.lsp.settings import EditorSettings, RuleOverrides, parse_editor_settings

    settings, warnings = parse_editor_settings(
        {"debounce": "soon", "ignore": ["PAL002"], "maxFileSize": 1024, "showSyntaxErrors": "yes"}
    )
    assert settings == EditorSettings(RuleOverrides(ignore=("PAL002",), max_file_size=1024))
    assert len(warnings) == 2 and all("debounce" in w or "showSyntaxErrors" in w for w in warnings)
    assert parse_editor_settings(None) == (EditorSettings(), [])


def test_workspace_index_reads_quiet_files_that_call_a_wrapper(tmp_path):
    """main.py never says "pallas" but calls ops.run("bump"), which ops.py's own call decides
    launches copy: the editor's index reads it as `check` does, so ops.py shows bump's return."""
    ops = (
        "import jax\nfrom jax.experimental import pallas as pl\n"
        "def copy(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n"
        "def bump(x_ref, o_ref):\n    return x_ref[...] + 1\n"
        "KS = {'copy': copy, 'bump': bump}\n"
        "def run(name, x):\n    return pl.pallas_call(KS[name], out_shape=x)(x)\n"
        "run('copy', x)\n"
    )
    (tmp_path / "ops.py").write_text(ops)
    (tmp_path / "main.py").write_text("from ops import run\nrun('bump', x)\n")
    (tmp_path / "other.py").write_text("import os\n")
    analyzer = Analyzer([str(tmp_path)])
    paths = [str(tmp_path / n) for n in ("ops.py", "main.py", "other.py")]
    assert analyzer.index_workspace(paths) == 3
    assert [f.code for f in analyzer.findings_of_text(paths[0], ops)] == ["PAL001"]
