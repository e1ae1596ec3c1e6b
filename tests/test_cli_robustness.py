"""Issue 7, the CLI half: hostile trees, files that vanish, a 200k-line file, `--fix` that only ever
writes text that parses and is idempotent, and configuration that is data only.

What tests/test_cli.py and tests/test_cli_fix.py already pin (one non-UTF-8 file, BOM/CRLF
positions, permissions, symlinks to files, an unparsable fix result, atomic writes) is not repeated;
this file puts the hostile cases together, in one tree, through the real `python -m pallas_ls`.
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from pallas_ls import cli, fixing
from pallas_ls.engine.source import SourceFile

KERNEL = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def run(x):
    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32))(x)
"""
FIXED = KERNEL.replace("    return x_ref[...] + 1\n", "    o_ref[...] = x_ref[...] + 1\n")
RETURN_ROW = 7  # 1-based, as the CLI prints it

DEEP_PARENS = "y = " + "(" * 3000 + "1" + ")" * 3000 + "\n"
DEEP_BINOP = "y = " + " + ".join(["1"] * 3000) + "\n"  # legal, but too deep for CPython's parser
NESTED_DEFS = "".join("    " * i + f"def f{i}():\n" for i in range(150)) + "    " * 150 + "pass\n"

# name -> (content, [(code, row, column)] expected; None: do not check that finding's position)
HOSTILE: dict[str, tuple[bytes, list[tuple[str, int | None, int | None]]]] = {
    "latin1.py": ("s = 'caf\xe9'\n".encode("latin-1"), [("PAL900", 1, 9)]),
    "nul.py": (("# \x00\n" + KERNEL).encode(), [("PAL000", 1, None), ("PAL001", RETURN_ROW + 1, 5)]),
    "deep_parens.py": ((KERNEL + DEEP_PARENS).encode(), [("PAL001", RETURN_ROW, 5), ("PAL000", 12, None)]),
    "deep_binop.py": ((DEEP_BINOP + KERNEL).encode(), [("PAL000", None, None), ("PAL001", RETURN_ROW + 1, 5)]),
    "nested_defs.py": ((NESTED_DEFS + KERNEL).encode(), [("PAL000", 101, 1), ("PAL001", RETURN_ROW + 151, 5)]),
    "bom_crlf.py": (b"\xef\xbb\xbf" + KERNEL.replace("\n", "\r\n").encode(), [("PAL001", RETURN_ROW, 5)]),
    "tabs.py": (KERNEL.replace("    ", "\t").encode(), [("PAL001", RETURN_ROW, 2)]),
    "syntax_first.py": (
        ("def broken(:\n    pass\n" + KERNEL).encode(),
        [("PAL000", 1, 12), ("PAL001", RETURN_ROW + 2, 5)],
    ),
    "empty.py": (b"", []),
    "no_newline.py": (KERNEL.rstrip("\n").encode(), [("PAL001", RETURN_ROW, 5)]),
}
SPECIAL = {  # not regular files
    "loop.py": [("PAL900", 1, 1)],  # a symlink to itself
    "gone.py": [("PAL900", 1, 1)],  # a symlink to nothing: as if deleted after the directory was listed
}


def make_tree(root: pathlib.Path, copies: int = 1) -> pathlib.Path:
    for i in range(copies):
        directory = root / f"part{i}"
        directory.mkdir(parents=True)
        for name, (content, _) in HOSTILE.items():
            (directory / name).write_bytes(content)
        (directory / "loop.py").symlink_to("loop.py")
        (directory / "gone.py").symlink_to("missing.py")
        (directory / "up").symlink_to("..")  # a directory loop: never walked into
    return root


def pallas_ls(*argv: str, cwd: pathlib.Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pallas_ls", *argv], cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout
    )


def findings_by_file(stdout: str, root: pathlib.Path) -> dict[str, list[tuple[str, int, int]]]:
    found: dict[str, list] = {}
    for f in json.loads(stdout):
        name = str(pathlib.Path(f["filename"]).relative_to(root))
        found.setdefault(name, []).append((f["code"], f["location"]["row"], f["location"]["column"]))
    return found


def matches(got: list[tuple[str, int, int]], expected: list[tuple[str, int | None, int | None]]) -> bool:
    return len(got) == len(expected) and all(
        g[0] == e[0] and e[1] in (None, g[1]) and e[2] in (None, g[2])
        for g, e in zip(sorted(got), sorted(expected), strict=True)
    )


def snapshot(root: pathlib.Path) -> dict[str, tuple[int, int, bytes]]:
    """Each regular file's inode, mtime and bytes (an atomic rewrite changes the inode)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        if path.is_symlink():
            continue
        st = path.stat()
        out[str(path.relative_to(root))] = (st.st_ino, st.st_mtime_ns, path.read_bytes())
    return out


# --------------------------------------------------------------------------- hostile tree
@pytest.mark.parametrize("jobs", ["1", "2"], ids=["one-process", "workers"])
def test_hostile_tree_is_checked_without_a_traceback(tmp_path, jobs):
    # Two copies: more files than the batch checker's threshold for worker processes.
    root = make_tree(tmp_path / "tree", copies=2)
    for cache in (["--no-cache"], ["--cache-dir", str(tmp_path / "cache")], ["--cache-dir", str(tmp_path / "cache")]):
        result = pallas_ls("check", "--output-format", "json", "--jobs", jobs, *cache, cwd=root)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
        found = findings_by_file(result.stdout, root)
        for part in ("part0", "part1"):
            for name, (_, expected) in {**HOSTILE, **{n: (b"", e) for n, e in SPECIAL.items()}}.items():
                got = found.pop(f"{part}/{name}", [])
                assert matches(got, expected), (name, got, expected)
        assert found == {}  # nothing reported twice through the `up` loop, nothing else


def test_unreadable_files_say_why(tmp_path):
    root = make_tree(tmp_path / "tree")
    result = pallas_ls("check", "--no-cache", cwd=root)
    lines = {line.split(":")[0]: line for line in result.stdout.splitlines() if "PAL900" in line}
    assert "not valid UTF-8" in lines["part0/latin1.py"]
    assert "Too many levels of symbolic links" in lines["part0/loop.py"]
    assert "No such file or directory" in lines["part0/gone.py"]


def test_file_deleted_between_discovery_and_reading(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.py").write_text(KERNEL)
    (tmp_path / "b.py").write_text(KERNEL)
    real = cli.discover

    def discover_then_delete(*args, **kwargs):
        files = real(*args, **kwargs)
        os.unlink(tmp_path / "b.py")  # the file vanishes after the directory was listed
        return files

    monkeypatch.setattr(cli, "discover", discover_then_delete)
    monkeypatch.chdir(tmp_path)
    for argv in (["check", "--no-cache"], ["check", "--no-cache", "--fix"]):
        (tmp_path / "b.py").write_text(KERNEL)
        (tmp_path / "a.py").write_text(KERNEL)
        status = cli.main(argv)
        out, err = capsys.readouterr()
        assert status == 1 and "Traceback" not in err, err
        assert "b.py:1:1: PAL900 Unreadable file: cannot be read (No such file or directory)" in out
        assert not (tmp_path / "b.py").exists()  # never written back
        if "--fix" in argv:
            assert (tmp_path / "a.py").read_text() == FIXED
        else:
            assert f"a.py:{RETURN_ROW}:5: PAL001" in out


def test_file_deleted_between_fixing_and_writing_is_not_resurrected(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.py").write_text(KERNEL)
    (tmp_path / "b.py").write_text(KERNEL)
    real = fixing.write_atomically

    def delete_then_write(path, data, expected=None):
        if path.endswith("b.py"):
            os.unlink(path)
        return real(path, data, expected)

    monkeypatch.setattr(fixing, "write_atomically", delete_then_write)
    monkeypatch.chdir(tmp_path)
    status = cli.main(["check", "--no-cache", "--fix"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err and "cannot write the fixed" in err
    assert not (tmp_path / "b.py").exists()
    assert (tmp_path / "a.py").read_text() == FIXED
    assert sorted(os.listdir(tmp_path)) == ["a.py"]  # no temporary file left


# ------------------------------------------------------------------------------- --fix
def test_fix_on_the_hostile_tree(tmp_path):
    """Only files that parse are rewritten, each still parses, BOM and CRLF stay, nothing is
    left behind; a second --fix rewrites nothing."""
    root = make_tree(tmp_path / "tree")
    before = snapshot(root)
    first = pallas_ls("check", "--fix", "--no-cache", cwd=root)
    assert first.returncode == 1 and "Traceback" not in first.stderr, first.stderr
    after = snapshot(root)
    assert set(after) == set(before)  # no temporary or new files
    for name, (_ino, _, data) in after.items():
        old = before[name][2]
        if data != old:
            assert ast.parse(SourceFile.from_bytes(data, name).text) is not None
            assert _parses(old), f"{name} did not parse but was rewritten"
    assert {n for n in after if after[n][2] != before[n][2]} == {
        "part0/bom_crlf.py",
        "part0/tabs.py",
        "part0/no_newline.py",
    }
    assert after["part0/bom_crlf.py"][2] == b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode()
    second = pallas_ls("check", "--fix", "--no-cache", cwd=root)
    assert snapshot(root) == after  # idempotent: not even rewritten
    assert second.stdout.splitlines()[:-2] == first.stdout.splitlines()[:-2]


def _parses(data: bytes) -> bool:
    try:
        ast.parse(SourceFile.from_bytes(data, "x.py").text)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return False
    return True


def test_fix_does_not_promise_fixes_it_will_not_apply(tmp_path):
    (tmp_path / "k.py").write_text("def broken(:\n    pass\n" + KERNEL)
    result = pallas_ls("check", "--fix", "--no-cache", cwd=tmp_path)
    assert "[*]" not in result.stdout and "fixable with the `--fix` option" not in result.stdout


SEED = (
    KERNEL
    + """
def two(x_ref, o_ref):
    if x_ref.shape[0]:
        return x_ref[...] * 2
    return ()

r = pl.pallas_call(two, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32))
"""
)
FRAGMENTS = st.sampled_from(
    [
        "\n",
        " ",
        "\t",
        "(",
        ")",
        ":",
        "return ",
        "o_ref",
        "x_ref[...]",
        "é",
        "😀",
        "漢",
        "\r\n",
        "\x00",
        "#",
        "'",
        "pass\n",
        "    ",
        "def k(a_ref, b_ref):\n",
        "pl.pallas_call(k, out_shape=s)(x)\n",
        "yield ",
        "\ufeff",
    ]
)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(SEED)), FRAGMENTS), max_size=6), st.booleans())
def test_fix_output_parses_and_is_idempotent(mutations, unsafe):
    text = SEED
    for position, fragment in mutations:
        position = min(position, len(text))
        text = text[:position] + fragment + text[position:]
    data = text.encode("utf-8", "surrogatepass")

    def identity(findings):  # every finding selected
        return findings

    _, once = fixing.fix_bytes(data, "k.py", identity, unsafe)
    assert once is not None and not once.failed
    if once.changed:
        assert _parses(data) and _parses(once.data()), "wrote text that does not parse"
    _, twice = fixing.fix_bytes(once.data(), "k.py", identity, unsafe)
    assert twice is not None and not twice.changed, "a second --fix changed the text again"


# ----------------------------------------------------------------------- a 200k-line file
@pytest.mark.serial  # ~1 GB of trees: not beside the other big file
def test_a_200k_line_file(tmp_path):
    """Checked and fixed (the subprocess timeout bounds the time; no timing assertion).  That a
    second --fix finds nothing is the fixed text's business, not the size's: a small file shows it."""
    path = tmp_path / "big.py"
    filler = "".join(f"v{i} = {i}\n" for i in range(200_000))
    path.write_text(filler + KERNEL)
    result = pallas_ls("check", "--no-cache", cwd=tmp_path)
    assert result.returncode == 1 and f"big.py:{200_000 + RETURN_ROW}:5: PAL001" in result.stdout
    result = pallas_ls("check", "--fix", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert path.read_text() == filler + FIXED
    path.write_text(FIXED)
    before = snapshot(tmp_path)
    assert pallas_ls("check", "--fix", "--no-cache", cwd=tmp_path).stdout == "All checks passed!\n"
    assert snapshot(tmp_path) == before


# ------------------------------------------------------------------------ engine positions
@pytest.mark.parametrize(
    "text, row, column",
    [
        (KERNEL + "s = 1  # \x00\n", 12, 10),
        (KERNEL + DEEP_BINOP, 12, 1),
    ],
    ids=["nul", "deep-binop"],
)
def test_unlocated_syntax_errors_point_at_their_line(tmp_path, text, row, column):
    (tmp_path / "k.py").write_text(text)
    result = pallas_ls("check", "--no-cache", "--output-format", "json", cwd=tmp_path)
    [pal000] = [f for f in json.loads(result.stdout) if f["code"] == "PAL000"]
    assert (pal000["location"]["row"], pal000["location"]["column"]) == (row, column)


# ------------------------------------------------------------------------ configuration
def test_pyproject_values_that_look_like_code_are_data(tmp_path):
    marker = tmp_path / "pwned"
    code = f"__import__('os').system('touch {marker}')"
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "pyproject.toml").write_text(f"[tool.pallas-ls]\nselect = [{json.dumps(code)}]\n")
    result = pallas_ls("check", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert "invalid `select`: unknown rule code or prefix" in result.stderr and len(result.stderr.splitlines()) == 1
    # Values that are valid (globs, a severity) but look like shell or Python: used as data only.
    (tmp_path / "pyproject.toml").write_text(
        "[tool.pallas-ls]\n"
        f"exclude = [{json.dumps('$(touch ' + str(marker) + ')')}, {json.dumps('`touch ' + str(marker) + '`')},"
        f" {json.dumps(code)}]\n"
        'severity = {PAL001 = "warning"}\n'
    )
    result = pallas_ls("check", "--output-format", "json", cwd=tmp_path)
    assert result.returncode == 1 and [f["code"] for f in json.loads(result.stdout)] == ["PAL001"]
    assert not marker.exists()


SHADOWS = ("tomllib", "json", "difflib", "hashlib", "pickle", "tempfile", "concurrent", "jax", "numpy")


def test_checked_code_is_never_imported(tmp_path):
    """Neither the files checked (a package whose __init__ has side effects, launched across
    modules) nor modules in the working directory named like the ones pallas-ls imports."""
    marker = tmp_path / "imported"
    for name in SHADOWS:
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('pkg')\n")
    (pkg / "kernels.py").write_text("def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n")
    (tmp_path / "main.py").write_text(
        "import jax\nfrom jax.experimental import pallas as pl\nfrom pkg.kernels import add_one\n\n"
        "pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), 'f4'))(1)\n"
    )
    (tmp_path / "pyproject.toml").write_text("[tool.pallas-ls]\n")
    for argv in (["check", "--no-cache"], ["check", "--no-cache", "--jobs", "2"]):
        result = pallas_ls(*argv, cwd=tmp_path)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert result.stdout.startswith("pkg/kernels.py:2:5: PAL001 ")  # found across modules, statically
    result = pallas_ls("check", "--diff", "--unsafe-fixes", cwd=tmp_path)
    assert "+++ b/pkg/kernels.py" in result.stdout, result.stderr
    assert not marker.exists(), marker.read_text()


@pytest.mark.parametrize("pattern", ["*.py", "*.ipynb", "*", "*py"])
@given(name=st.text(alphabet="ab./py\\[*", max_size=10))
def test_suffix_globs_match_as_the_general_matcher_does(pattern, name):
    """`*.py`-like globs take a suffix test (discovery.GlobMatcher): the same answers as the NFA."""
    from pallas_ls.discovery import GlobMatcher

    fast, general = GlobMatcher(pattern), GlobMatcher(pattern)
    general._suffix = None
    assert fast._suffix is not None
    assert fast.fullmatch(name) == general.fullmatch(name)
