"""Notebooks read as one module and written back byte for byte (pallas_ls/notebook.py).

The files in tests/notebooks/ were written by nbformat 5.11 (4.5, with cell ids; 4.4 without, with
sources as strings; and one with CRLF line ends inside the sources).
"""

from __future__ import annotations

import json
import pathlib

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.notebook import CellMap, Notebook, NotebookError
from pallas_ls.engine.source import SourceFile
from pallas_ls.fixing import fix_pass
from pallas_ls.lint import run_rules

NOTEBOOKS = pathlib.Path(__file__).with_name("notebooks")
FILES = sorted(NOTEBOOKS.glob("*.ipynb"))


def read(path: pathlib.Path) -> str:
    return path.read_bytes().decode("utf-8")


def findings_of(notebook: Notebook):
    return run_rules(analyze(SourceFile.from_text(notebook.python, "nb.ipynb")))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_kernel_in_one_cell_launched_in_another(path):
    notebook = Notebook.parse(read(path))
    [finding] = findings_of(notebook)
    assert finding.code == "PAL001"
    cell, position = CellMap.of(notebook.python).locate(finding.range.start)
    assert (cell, position.line, position.column) == (3, 2, 4)  # `return y`, the third line of cell 3
    assert "cell 5, line 3" in CellMap.of(notebook.python).describe_lines(finding.message)  # its launch


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fix_changes_only_the_fixed_cell_source(path):
    text = read(path)
    notebook = Notebook.parse(text)
    fixed, _ = fix_pass(SourceFile.from_text(notebook.python, "nb.ipynb"), findings_of(notebook), False)
    out = notebook.with_python(fixed)
    before, after = json.loads(text), json.loads(out)
    changed = [i for i, (a, b) in enumerate(zip(before["cells"], after["cells"], strict=False)) if a != b]
    assert changed == [2]
    assert "".join(after["cells"][2]["source"]).endswith("    o_ref[...] = y")
    assert "# the new value" in "".join(after["cells"][2]["source"])
    # Every byte outside the changed source value is kept.
    start, end = notebook.cells[2].span
    assert out.startswith(text[:start]) and out.endswith(text[end:])
    assert findings_of(Notebook.parse(out)) == []


def test_magics_and_shell_escapes_are_masked_not_errors():
    notebook = Notebook.parse(read(NOTEBOOKS / "proto_v45.ipynb"))
    assert "!pip" not in notebook.python and "%matplotlib" not in notebook.python
    assert "echo hello" not in notebook.python  # a %%bash cell is not Python
    assert "x = jnp.ones" in notebook.python  # a %%timeit cell is
    assert "files = None" in notebook.python  # `files = !ls`
    assert [f.code for f in findings_of(notebook)] == ["PAL001"]


def test_markdown_and_raw_cells_are_skipped_but_counted():
    notebook = Notebook.parse(read(NOTEBOOKS / "proto_v45.ipynb"))
    assert [c.cell.number for c in notebook.code] == [2, 3, 5, 6, 7]
    assert "Prototype" not in notebook.python and "raw text" not in notebook.python


def _notebook(*sources, minor: int = 5) -> str:
    cells = [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s} for s in sources
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": minor}, indent=1) + "\n"


def test_a_fix_touching_a_masked_line_leaves_the_cell_alone():
    notebook = Notebook.parse(_notebook(["def k(x_ref, o_ref):\n", "    return 1\n", "%time k\n"]))
    python = notebook.python.replace("    return 1\npass\n", "    o_ref[...] = 1\n")
    assert notebook.with_python(python) == notebook.text


def test_masked_lines_are_restored_when_a_fix_adds_lines():
    notebook = Notebook.parse(_notebook(["%load_ext foo\n", "def k(x_ref, o_ref):\n", "    return 1, 2\n", "!ls"]))
    python = notebook.python.replace("    return 1, 2\n", "    o_ref[...] = 1\n    p_ref[...] = 2\n")
    source = json.loads(notebook.with_python(python))["cells"][0]["source"]
    assert source == [
        "%load_ext foo\n",
        "def k(x_ref, o_ref):\n",
        "    o_ref[...] = 1\n",
        "    p_ref[...] = 2\n",
        "!ls",
    ]


def test_json_with_tricky_strings_is_located():
    text = _notebook(['s = "]}\\\\\\" [{"\n', "def k(x_ref, o_ref):\n", "    return 1\n"], "x = 1")
    notebook = Notebook.parse(text)
    python = notebook.python.replace("    return 1\n", "    o_ref[...] = 1\n")
    out = json.loads(notebook.with_python(python))
    assert out["cells"][0]["source"][2] == "    o_ref[...] = 1\n" and out["cells"][1]["source"] == "x = 1"


def test_an_empty_source_list_gets_nbformat_layout():
    text = _notebook([])
    notebook = Notebook.parse(text)
    out = notebook.with_python(notebook.python + "x = 1\ny = 2\n")
    assert json.loads(out)["cells"][0]["source"] == ["x = 1\n", "y = 2"]
    assert '"source": [\n    "x = 1\\n",\n    "y = 2"\n   ]' in out


@pytest.mark.parametrize(
    "text, reason",
    [
        ("{not json", "not valid JSON"),
        ('{"cells": 3}', "no list of `cells`"),
        ('{"cells": [], "nbformat": 3}', "nbformat 3"),
        ('{"cells": [{"cell_type": "code", "source": 7}], "nbformat": 4}', "neither a string nor a list"),
        ('{"cells": [{"cell_type": "code"}], "nbformat": 4}', "has no `source`"),
    ],
)
def test_what_is_not_a_notebook_says_why(text, reason):
    with pytest.raises(NotebookError, match=reason):
        Notebook.parse(text)


# ------------------------------------------------------------------------------ the command line
def run_cli(*args: str, cwd: pathlib.Path, stdin: bytes | None = None, isolated: bool = True):
    import subprocess
    import sys

    options = ["--isolated"] if isolated else []
    return subprocess.run(
        [sys.executable, "-m", "pallas_ls", "check", *options, "--no-cache", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
    )


def test_check_finds_notebooks_in_directories_and_locates_cells(tmp_path):
    (tmp_path / "proto.ipynb").write_bytes((NOTEBOOKS / "proto_v45.ipynb").read_bytes())
    (tmp_path / "broken.ipynb").write_text('{"cells": [')
    run = run_cli(".", cwd=tmp_path)
    out = run.stdout.decode()
    assert run.returncode == 1
    assert "proto.ipynb:cell 3:3:5: PAL001" in out and "launched by pallas_call on cell 5, line 3" in out
    assert "broken.ipynb:1:1: PAL900" in out and "not valid JSON" in out
    [finding] = json.loads(run_cli("--output-format", "json", "proto.ipynb", cwd=tmp_path).stdout)
    assert (finding["cell"], finding["location"], finding["noqa_row"]) == (3, {"row": 3, "column": 5}, 3)
    assert finding["fix"]["edits"][0]["location"] == {"row": 3, "column": 5}
    github = run_cli("--output-format", "github", "proto.ipynb", cwd=tmp_path).stdout.decode()
    assert "line=3," in github and "::cell 3, line 3: Pallas kernel" in github


def test_fix_and_diff_edit_only_the_cell(tmp_path):
    original = (NOTEBOOKS / "proto_v45.ipynb").read_bytes()
    notebook = tmp_path / "proto.ipynb"
    notebook.write_bytes(original)
    diff = run_cli("--diff", "proto.ipynb", cwd=tmp_path).stdout.decode()
    assert diff.startswith("--- a/proto.ipynb:cell 3\n+++ b/proto.ipynb:cell 3\n") and "+    o_ref[...] = y" in diff
    assert notebook.read_bytes() == original
    run = run_cli("--fix", "proto.ipynb", cwd=tmp_path)
    assert run.returncode == 0, run.stdout
    fixed = notebook.read_bytes()
    assert fixed == original.replace(b'"    return y"', b'"    o_ref[...] = y"')
    stdin = run_cli("--fix", "--stdin-filename", "proto.ipynb", "-", cwd=tmp_path, stdin=original)
    assert stdin.stdout == fixed


def test_noqa_in_a_cell_silences(tmp_path):
    text = read(NOTEBOOKS / "proto_v45.ipynb").replace('"    return y"', '"    return y  # noqa: PAL001"')
    (tmp_path / "proto.ipynb").write_text(text)
    assert run_cli("proto.ipynb", cwd=tmp_path).returncode == 0


def test_include_and_extend_include_choose_what_directories_yield(tmp_path):
    (tmp_path / "proto.ipynb").write_bytes((NOTEBOOKS / "proto_v45.ipynb").read_bytes())
    (tmp_path / "kernels.pyw").write_text("")
    assert "proto.ipynb:cell 3" in run_cli(".", cwd=tmp_path).stdout.decode()
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\ninclude = ["*.py"]\n')
    assert run_cli(".", cwd=tmp_path, isolated=False).returncode == 0  # notebooks left out
    (tmp_path / "pyproject.toml").write_text('[tool.pallas-ls]\ninclude = ["*.py"]\nextend-include = ["*.ipynb"]\n')
    assert "proto.ipynb:cell 3" in run_cli(".", cwd=tmp_path, isolated=False).stdout.decode()


def test_a_notebook_known_by_its_cells_as_an_editor_sends_them():
    kernel = "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n"
    launch = (
        "import jax\nfrom jax.experimental import pallas as pl\n%time 1\n"
        "pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), 'float32'))(x)"
    )
    notebook = Notebook.of_cells([("markdown", "# A kernel"), ("code", kernel), ("code", launch)])
    [finding] = findings_of(notebook)
    located = CellMap.of(notebook.python).located(finding)
    assert (located.cell, located.range.start.line) == (2, 1)
    assert "on cell 3, line 4" in located.message


@pytest.mark.parametrize("odd", ["\u2028", "\x0c", "\x1c", "\x85"])
def test_cell_lines_are_split_as_python_and_lsp_split_them(odd):
    """A form feed or U+2028 in a cell is no line end (str.splitlines' is): the cells after it
    keep their place, so a finding lands on the line the editor shows."""
    first = f"import jax\nfrom jax.experimental import pallas as pl\ns = 'a{odd}b'\n"
    kernel = "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n"
    launch = "pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), 'float32'))(x)\n"
    notebook = Notebook.of_cells([("code", first), ("code", kernel), ("code", launch)])
    assert [c.first_line for c in notebook.code] == [1, 5, 8]
    [finding] = findings_of(notebook)
    located = CellMap.of(notebook.python).located(finding)
    assert (located.cell, located.range.start.line) == (2, 1)
    assert "on cell 3, line 1" in located.message


def test_a_lost_marker_line_writes_nothing():
    notebook = Notebook.parse(_notebook(["a = 1\n"], ["b = 2\n"]))
    merged = notebook.python.replace("# pallas-ls: notebook cell 2\n", "")
    assert notebook.fixed_sources(merged) == {} and notebook.with_python(merged) == notebook.text


def test_a_fix_that_would_cross_a_cell_boundary_is_never_applied():
    from pallas_ls.engine.edits import apply_fixes
    from pallas_ls.engine.findings import Edit, Fix
    from pallas_ls.engine.notebook import crosses_cells
    from pallas_ls.engine.source import Range

    notebook = Notebook.parse(_notebook(["a = 1\n"], ["b = 2\n"]))
    source = SourceFile.from_text(notebook.python, "nb.ipynb")  # lines: marker 1, a = 1, marker 2, b = 2
    across = Fix("join", (Edit(Range.of(1, 5, 3, 0), ""),))  # from cell 1 into cell 2, over the marker
    inside = Fix("a", (Edit(Range.of(1, 4, 1, 5), "9"),))
    at_next_marker = Fix("end of cell 1", (Edit(Range.of(2, 0, 2, 0), "c = 3\n"),))
    before_all = Fix("top", (Edit(Range.of(0, 0, 0, 0), "import os\n"),))
    in_marker = Fix("marker", (Edit(Range.of(0, 3, 0, 3), "x"),))
    assert [
        crosses_cells(source, [(source.offset(e.range.start), source.offset(e.range.end))])
        for fix in (across, inside, at_next_marker, before_all, in_marker)
        for e in fix.edits
    ] == [True, False, False, True, True]
    text, applied = apply_fixes(source, [across, inside, at_next_marker, before_all])
    assert applied == 2
    assert notebook.fixed_sources(text) == {1: "a = 9\nc = 3\n"}
    # The same text outside a notebook is just comments: nothing is refused.
    plain = SourceFile.from_text(notebook.python, "nb.py")
    assert apply_fixes(plain, [across])[1] == 1


KERNEL_CELL = """\
import jax
from jax.experimental import pallas as pl


def k(x_ref, o_ref):
    return x_ref[...]


def f(x):
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""


@pytest.mark.parametrize(
    "magic", ["%%bash", "%%writefile helper.py", "%%script sh", "%%html", "%%sh", "  %%bash", "%%javascript"]
)
def test_a_cell_magic_with_an_indented_body_is_not_python(magic):
    """Issue 35: `%%bash` with an indented body gave a false PAL000 and blocked every fix."""
    body = f"{magic}\nfor f in *.py; do\n    echo $f\n\tdone\n        <b>x</b>\n  def f(:\n"
    notebook = Notebook.parse(_notebook(body.splitlines(keepends=True), KERNEL_CELL.splitlines(keepends=True)))
    findings = findings_of(notebook)
    assert [f.code for f in findings] == ["PAL001"], findings
    fixed, done = fix_pass(SourceFile.from_text(notebook.python, "nb.ipynb"), findings, unsafe=False)
    cells = json.loads(notebook.with_python(fixed))["cells"]
    assert len(done) == 1 and cells[0]["source"] == body.splitlines(keepends=True)
    assert "    o_ref[...] = x_ref[...]\n" in cells[1]["source"]


@pytest.mark.parametrize("magic", ["%%time", "%%timeit -n 1"])
def test_a_timing_cell_magic_body_stays_python(magic):
    notebook = Notebook.parse(_notebook([f"{magic}\n", "def g(:\n"]))
    assert [f.code for f in findings_of(notebook)] == ["PAL000"]
