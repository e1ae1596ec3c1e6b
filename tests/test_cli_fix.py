"""`pallas-ls check --fix`, `--unsafe-fixes` and `--diff` on real files, and the JSON `fix` field."""

from __future__ import annotations

import json
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from pallas_ls import fixing
from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import run_rules

# A kernel whose output ref is known from the launch: a SAFE fix "Write the result to `o_ref`".
SAFE_SRC = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def run(x):
    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32))(x)
"""
SAFE_FIXED = SAFE_SRC.replace("    return x_ref[...] + 1\n", "    o_ref[...] = x_ref[...] + 1\n")

# out_shape is a parameter: the layout is unknown, the output is found by name -> an UNSAFE fix.
UNSAFE_SRC = """\
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def launcher(shape):
    # Neither the layout (a parameter) nor the signature (the inputs are never seen) is known.
    return pl.pallas_call(add_one, out_shape=shape)
"""
UNSAFE_FIXED = UNSAFE_SRC.replace("    return x_ref[...] + 1\n", "    o_ref[...] = x_ref[...] + 1\n")

# PAL002 with an (unsafe) merge fix.
PAL002_SRC = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh)
def copy(a_ref, b_ref):
    pltpu.sync_copy(a_ref, b_ref)


r = jax.new_ref(jnp.ones((8, 128)))
copy(r, r)
"""
PAL002_FIXED = PAL002_SRC.replace(
    "def copy(a_ref, b_ref):\n    pltpu.sync_copy(a_ref, b_ref)", "def copy(a_ref):\n    pltpu.sync_copy(a_ref, a_ref)"
).replace("copy(r, r)\n", "copy(r)\n")

# PAL002 where the kernel is launched twice: no fix but "Disable PAL002 for this line".
NOQA_ONLY_SRC = """\
import jax
from jax.experimental import pallas as pl


@pl.kernel(mesh=m)
def add(a, b):
    pass


r = jax.new_ref(x)
add(r, r)
add(x, y)
"""

# A functional-style kernel with two returns: both fixes add the output parameter at the same
# place, so they overlap and the second one is applied by a second pass.
TWO_RETURNS_SRC = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def double(x_ref):
    if x_ref.shape[0] > 4:
        return x_ref[...] * 2
    return x_ref[...] + x_ref[...]


def run(x):
    return pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32))(x)
"""
TWO_RETURNS_FIXED = TWO_RETURNS_SRC.replace(
    """\
def double(x_ref):
    if x_ref.shape[0] > 4:
        return x_ref[...] * 2
    return x_ref[...] + x_ref[...]
""",
    """\
def double(x_ref, o_ref):
    if x_ref.shape[0] > 4:
        o_ref[...] = x_ref[...] * 2
        return
    o_ref[...] = x_ref[...] + x_ref[...]
""",
)


def write(path: pathlib.Path, content: str | bytes) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def subprocess_cli(*argv: str, cwd: pathlib.Path, stdin: bytes) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pallas_ls", *argv], cwd=cwd, input=stdin, capture_output=True, env=env, timeout=120
    )


def identity(path: pathlib.Path) -> tuple[int, int, bytes]:
    """What changes when a file is rewritten (the inode: an atomic write replaces the file)."""
    st = path.stat()
    return st.st_ino, st.st_mtime_ns, path.read_bytes()


# ------------------------------------------------------------------------------------ --fix
def test_fix_applies_the_safe_fix_exactly(run, tmp_path):
    bad = write(tmp_path / "bad.py", SAFE_SRC)
    status, out, err = run("check", "--fix")
    assert (status, out, err) == (0, "Found 1 error (1 fixed, 0 remaining).\n", "")
    assert bad.read_bytes() == SAFE_FIXED.encode()
    assert sorted(os.listdir(tmp_path)) == ["bad.py"]  # no temporary file left behind


def test_second_fix_changes_nothing(run, tmp_path):
    bad = write(tmp_path / "bad.py", SAFE_SRC)
    assert run("check", "--fix")[0] == 0
    before = identity(bad)
    assert run("check", "--fix") == (0, "All checks passed!\n", "")
    assert identity(bad) == before  # not even rewritten


def test_fix_loops_until_overlapping_fixes_are_all_applied(run, tmp_path):
    source = SourceFile.from_text(TWO_RETURNS_SRC, "k.py")
    findings = [f for f in run_rules(analyze(source)) if f.code == "PAL001"]
    _, fixed = fixing.fix_pass(source, findings, unsafe=False)
    assert len(findings) == 2 and len(fixed) == 1  # one pass takes one of the two overlapping fixes
    path = write(tmp_path / "k.py", TWO_RETURNS_SRC)
    status, out, _ = run("check", "--fix")
    assert path.read_text() == TWO_RETURNS_FIXED
    assert status == 0 and out.endswith("(2 fixed, 0 remaining).\n")
    assert run("check")[0] == 0


def test_fix_reports_what_remains(run, tmp_path):
    write(tmp_path / "a.py", SAFE_SRC)
    unsafe = write(tmp_path / "b.py", UNSAFE_SRC)
    status, out, _ = run("check", "--fix")
    lines = out.splitlines()
    assert status == 1
    assert lines[0].startswith("b.py:5:5: PAL001 Pallas kernel `add_one`")  # no [*]: its fix is unsafe
    assert lines[1:] == [
        "Found 2 errors (1 fixed, 1 remaining).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    assert unsafe.read_text() == UNSAFE_SRC
    assert run("check", "--fix", "--exit-zero")[0] == 0


def test_unsafe_fixes(run, tmp_path):
    path = write(tmp_path / "b.py", UNSAFE_SRC)
    status, out, _ = run("check", "--unsafe-fixes")  # without --fix: shown as fixable, nothing written
    assert status == 1 and " PAL001 [*] " in out and out.endswith("[*] 1 fixable with the `--fix` option.\n")
    assert path.read_text() == UNSAFE_SRC
    assert run("check", "--fix", "--unsafe-fixes") == (0, "Found 1 error (1 fixed, 0 remaining).\n", "")
    assert path.read_text() == UNSAFE_FIXED


def test_noqa_fix_is_never_applied(run, tmp_path):
    path = write(tmp_path / "k.py", NOQA_ONLY_SRC)
    before = identity(path)
    for argv in (["--fix"], ["--fix", "--unsafe-fixes"]):
        status, out, _ = run("check", *argv)
        assert status == 1
        assert out.splitlines()[0].startswith("k.py:11:8: PAL002 Ref `r` is passed twice")
        assert out.splitlines()[1:] == ["Found 1 error."]  # no fix, hidden or not
    assert identity(path) == before
    assert run("check", "--diff", "--unsafe-fixes")[:2] == (0, "")


def test_only_selected_findings_are_fixed(run, tmp_path):
    a = write(tmp_path / "a.py", SAFE_SRC)
    b = write(tmp_path / "b.py", PAL002_SRC)
    status, out, _ = run("check", "--fix", "--select", "PAL002")
    assert status == 1 and b.read_text() == PAL002_SRC  # the merge is unsafe: --fix leaves it
    status, out, _ = run("check", "--fix", "--unsafe-fixes", "--select", "PAL002")
    assert (status, out) == (0, "Found 1 error (1 fixed, 0 remaining).\n")
    assert a.read_text() == SAFE_SRC and b.read_text() == PAL002_FIXED
    status, out, _ = run("check", "--fix", "--ignore", "PAL001")
    assert (status, out) == (0, "All checks passed!\n") and a.read_text() == SAFE_SRC


def test_fix_keeps_permissions(run, tmp_path):
    path = write(tmp_path / "bad.py", SAFE_SRC)
    path.chmod(0o640)
    assert run("check", "--fix")[0] == 0
    assert path.read_text() == SAFE_FIXED
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_fix_follows_a_symlink(run, tmp_path):
    target = write(tmp_path / "real" / "bad.py", SAFE_SRC)
    link = tmp_path / "bad.py"
    link.symlink_to(target)
    assert run("check", "--fix", "bad.py")[0] == 0
    assert link.is_symlink() and target.read_text() == SAFE_FIXED


@pytest.mark.parametrize(("bom", "newline"), [(True, "\n"), (False, "\r\n"), (True, "\r\n")])
def test_fix_keeps_bom_and_line_endings(run, tmp_path, bom, newline):
    prefix = b"\xef\xbb\xbf" if bom else b""
    path = write(tmp_path / "bad.py", prefix + SAFE_SRC.replace("\n", newline).encode())
    assert run("check", "--fix") == (0, "Found 1 error (1 fixed, 0 remaining).\n", "")
    assert path.read_bytes() == prefix + SAFE_FIXED.replace("\n", newline).encode()


def test_crlf_return_fix_adds_crlf_lines(run, tmp_path):
    path = write(tmp_path / "k.py", TWO_RETURNS_SRC.replace("\n", "\r\n"))
    assert run("check", "--fix")[0] == 0
    assert path.read_bytes() == TWO_RETURNS_FIXED.replace("\n", "\r\n").encode()


def test_result_that_does_not_parse_is_never_written(run, tmp_path, monkeypatch):
    path = write(tmp_path / "bad.py", SAFE_SRC)
    before = identity(path)
    monkeypatch.setattr(fixing, "apply_edits", lambda text, source, edits: text + "def broken(:\n")
    status, out, err = run("check", "--fix")
    assert status == 2
    assert identity(path) == before
    assert "internal error while fixing" in err and "would not compile" in err and "left unchanged" in err
    assert out.startswith("bad.py:7:5: PAL001 [*] ")  # still reported, still fixable
    assert "Found 1 error." in out


def test_file_with_a_syntax_error_is_not_fixed(run, tmp_path):
    path = write(tmp_path / "bad.py", SAFE_SRC + "\n\ndef broken(:\n    pass\n")
    before = identity(path)
    status, out, _ = run("check", "--fix")
    assert status == 1 and "PAL000" in out and "PAL001" in out
    assert identity(path) == before


def test_unwritable_file_is_an_error_and_left_unchanged(run, tmp_path, monkeypatch):
    path = write(tmp_path / "bad.py", SAFE_SRC)

    def refuse(target, data, expected=None):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fixing, "write_atomically", refuse)
    status, out, err = run("check", "--fix")
    assert status == 2 and "cannot write the fixed" in err and "Permission denied" in err
    assert path.read_text() == SAFE_SRC
    assert "Found 1 error." in out  # reported as it still is


def test_fix_with_json_output_reports_what_remains(run, tmp_path):
    write(tmp_path / "a.py", SAFE_SRC)
    write(tmp_path / "b.py", UNSAFE_SRC)
    status, out, _ = run("check", "--fix", "--output-format", "json")
    assert status == 1
    assert [(f["filename"], f["fix"]["applicability"]) for f in json.loads(out)] == [(str(tmp_path / "b.py"), "unsafe")]


# ------------------------------------------------------------------------------------ --diff
def test_diff_prints_and_writes_nothing(run, tmp_path):
    path = write(tmp_path / "pkg" / "bad.py", SAFE_SRC)
    before = identity(path)
    status, out, err = run("check", "--diff")
    assert status == 1
    assert out == (
        "--- a/pkg/bad.py\n"
        "+++ b/pkg/bad.py\n"
        "@@ -4,7 +4,7 @@\n"
        " \n"
        " \n"
        " def add_one(x_ref, o_ref):\n"
        "-    return x_ref[...] + 1\n"
        "+    o_ref[...] = x_ref[...] + 1\n"
        " \n"
        " \n"
        " def run(x):\n"
    )
    assert err == "Would fix 1 error.\n"
    assert identity(path) == before
    assert run("check", "--diff", "--fix")[0] == 1 and identity(path) == before  # --diff wins


def test_diff_exit_zero_when_nothing_would_change(run, tmp_path):
    write(tmp_path / "b.py", UNSAFE_SRC)
    assert run("check", "--diff") == (
        0,
        "",
        "No errors would be fixed (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n",
    )
    status, out, err = run("check", "--diff", "--unsafe-fixes")
    assert status == 1 and out.startswith("--- a/b.py\n+++ b/b.py\n") and err == "Would fix 1 error.\n"
    assert run("check", "--diff", "--unsafe-fixes", "--exit-zero", "-q")[0] == 0


def test_diff_marks_a_missing_final_newline(run, tmp_path):
    kernel = "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n\n\n"
    path = write(tmp_path / "k.py", SAFE_SRC.replace(kernel, "") + "\n\n" + kernel.rstrip("\n"))
    status, out, _ = run("check", "--diff")
    assert status == 1
    assert out.endswith(
        "-    return x_ref[...] + 1\n\\ No newline at end of file\n+    o_ref[...] = x_ref[...] + 1\n\\ No newline at end of file\n"
    )
    assert run("check", "--fix")[0] == 0
    assert path.read_text().endswith("\n    o_ref[...] = x_ref[...] + 1")


def test_diff_keeps_crlf_in_the_changed_lines(run, tmp_path):
    write(tmp_path / "bad.py", SAFE_SRC.replace("\n", "\r\n"))
    _, out, _ = run("check", "--diff")
    assert "-    return x_ref[...] + 1\r\n+    o_ref[...] = x_ref[...] + 1\r\n" in out


# ------------------------------------------------------------------------------------ stdin
def test_stdin_fix_prints_the_fixed_source(run):
    assert run("check", "--fix", "-", stdin=SAFE_SRC.encode()) == (0, SAFE_FIXED, "")


def test_stdin_fix_reports_remaining_findings_on_stderr(run):
    status, out, err = run("check", "--fix", "-", "--stdin-filename", "k.py", stdin=UNSAFE_SRC.encode())
    assert status == 1 and out == UNSAFE_SRC
    assert err.startswith("k.py:5:5: PAL001 ") and "Found 1 error." in err
    status, out, err = run("check", "--fix", "--unsafe-fixes", "-", stdin=UNSAFE_SRC.encode())
    assert (status, out, err) == (0, UNSAFE_FIXED, "")


def test_stdin_fix_keeps_bom_and_crlf_and_prints_nothing_else(run):
    data = b"\xef\xbb\xbf" + SAFE_SRC.replace("\n", "\r\n").encode()
    status, out, err = run("check", "--fix", "-", stdin=data)
    assert status == 0 and err == ""
    assert out == "\ufeff" + SAFE_FIXED.replace("\n", "\r\n")


def test_stdin_fix_echoes_unreadable_input(tmp_path):
    result = subprocess_cli("check", "--fix", "-", cwd=tmp_path, stdin=b"x = '\xff'\n")
    assert result.returncode == 1 and b"PAL900" in result.stderr
    assert result.stdout == b"x = '\xff'\n"  # the input as it was, byte for byte


def test_stdin_diff(run):
    status, out, err = run("check", "--diff", "-", "--stdin-filename", "k.py", stdin=SAFE_SRC.encode())
    assert status == 1 and out.startswith("--- a/k.py\n+++ b/k.py\n@@ -4,7 +4,7 @@\n")
    assert err == "Would fix 1 error.\n"
    assert run("check", "--diff", "-", stdin=SAFE_FIXED.encode()) == (0, "", "No errors would be fixed.\n")


def test_stdin_fix_via_subprocess(tmp_path):
    data = b"\xef\xbb\xbf" + SAFE_SRC.replace("\n", "\r\n").encode()
    result = subprocess_cli("check", "--fix", "-", cwd=tmp_path, stdin=data)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"\xef\xbb\xbf" + SAFE_FIXED.replace("\n", "\r\n").encode()


# ------------------------------------------------------------------------ text marks, json fix
def test_text_marks_fixable_findings_and_counts_them(run, tmp_path):
    write(tmp_path / "a.py", SAFE_SRC)
    write(tmp_path / "b.py", UNSAFE_SRC)
    write(tmp_path / "c.py", NOQA_ONLY_SRC)
    status, out, _ = run("check")
    lines = out.splitlines()
    assert status == 1
    assert lines[0].startswith("a.py:7:5: PAL001 [*] Pallas kernel `add_one`")
    assert lines[1].startswith("b.py:5:5: PAL001 Pallas kernel `add_one`")
    assert lines[2].startswith("c.py:11:8: PAL002 Ref `r`")
    assert lines[3:] == [
        "Found 3 errors.",
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    _, coloured, _ = run("check", "--color", "always")
    assert "\x1b[36m[*]\x1b[0m" in coloured


def test_json_fix_field(run, tmp_path):
    write(tmp_path / "a.py", SAFE_SRC)
    write(tmp_path / "b.py", UNSAFE_SRC)
    write(tmp_path / "c.py", NOQA_ONLY_SRC)
    _, out, _ = run("check", "--output-format", "json")
    fixes = {pathlib.Path(f["filename"]).name: f["fix"] for f in json.loads(out)}
    assert fixes["a.py"] == {
        "applicability": "safe",
        "message": "Write the result to `o_ref`",
        "edits": [
            {"content": "o_ref[...] = ", "location": {"row": 7, "column": 5}, "end_location": {"row": 7, "column": 12}}
        ],
    }
    assert fixes["b.py"]["applicability"] == "unsafe" and fixes["b.py"]["message"] == "Write the result to `o_ref`"
    assert fixes["c.py"] is None  # only the noqa suppression: no fix


def test_add_noqa_silences_every_finding_with_the_engine_builder(run, tmp_path):
    multiline = SAFE_SRC.replace("    return x_ref[...] + 1\n", '    return """a\nb"""\n')
    a = write(tmp_path / "a.py", SAFE_SRC)
    b = write(tmp_path / "b.py", multiline)
    status, _, err = run("check", "--add-noqa")
    assert status == 0 and "Added 2 noqa directives." in err
    assert a.read_text() == SAFE_SRC.replace(
        "    return x_ref[...] + 1\n", "    return x_ref[...] + 1  # noqa: PAL001\n"
    )
    assert b.read_text() == multiline.replace('b"""\n', 'b"""  # noqa: PAL001\n')  # not inside the string
    assert run("check")[:2] == (0, "All checks passed!\n")


def test_a_walk_skips_links_out_of_the_tree_and_fix_never_writes_there(run, tmp_path):
    """Issue 35: in proj/, `link.py -> ../outside/k.py`: `check --fix .` must not rewrite outside/k.py
    (nor report it: it is not part of the tree); a link inside the tree is one file, fixed once."""
    outside = write(tmp_path / "outside" / "k.py", SAFE_SRC)
    proj = tmp_path / "proj"
    inside = write(proj / "pkg" / "real.py", SAFE_SRC)
    (proj / "link.py").symlink_to(outside)
    (proj / "alias.py").symlink_to(inside)
    (proj / "linked_dir").symlink_to(tmp_path / "outside", target_is_directory=True)
    status, out, _ = run("check", "--fix", "proj")
    assert (status, out) == (0, "Found 1 error (1 fixed, 0 remaining).\n"), out
    assert outside.read_text() == SAFE_SRC and inside.read_text() == SAFE_FIXED
    write(inside, SAFE_SRC)
    status, out, _ = run("check", "--output-format", "concise", "proj")
    assert status == 1 and out.count("PAL001") == 1 and "outside" not in out, out
    # named explicitly, a link is followed wherever it leads
    assert run("check", "--fix", "proj/link.py")[0] == 0 and outside.read_text() == SAFE_FIXED
