"""The `pallas-ls` command line, run for real: in-process through `main(argv)` for speed, and as
`python -m pallas_ls` subprocesses where the process boundary matters (exit status, stdin, -m)."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import subprocess
import sys
import types

import pytest

from pallas_ls import cli, lint
from pallas_ls.discovery import ExcludePattern, discover
from pallas_ls.rules import RULES

REPO = pathlib.Path(__file__).resolve().parent.parent

PAL001_SRC = """\
import jax
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), "f4"))
"""
# `return x_ref[...] + 1` on line 6, columns 5..26 (1-based, end exclusive like ruff's).
PAL001_AT = (6, 5, 6, 26)

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
PAL002_AT = (15, 9, 15, 10)

CLEAN_SRC = """\
import jax
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


out = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct((8,), "f4"))
"""


def write(path: pathlib.Path, text: str | bytes) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))  # write_text would translate \n on Windows
    return path


def subprocess_cli(*argv: str, cwd: pathlib.Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pallas_ls", *argv], cwd=cwd, input=stdin, capture_output=True, env=env, timeout=120
    )


def json_findings(run, *argv: str, **kw) -> list[dict]:
    status, out, err = run("check", "--output-format", "json", *argv, **kw)
    assert status in (0, 1), err
    return json.loads(out)


def span(finding: dict) -> tuple[int, int, int, int]:
    loc, end = finding["location"], finding["end_location"]
    return loc["row"], loc["column"], end["row"], end["column"]


# ------------------------------------------------------------------------------ text output
def test_text_output_lines_and_summary(run, tmp_path):
    write(tmp_path / "pkg" / "bad.py", PAL001_SRC)
    write(tmp_path / "pkg" / "ok.py", CLEAN_SRC)
    status, out, err = run("check")
    lines = out.splitlines()
    assert status == 1, err
    assert re.fullmatch(r"pkg[/\\]bad\.py:6:5: PAL001 \[\*\] Pallas kernel `add_one` .*returns a value.*", lines[0])
    assert lines[1:] == ["Found 1 error.", "[*] 1 fixable with the `--fix` option."]
    assert "\x1b[" not in out  # captured output is not a terminal


def test_clean_tree_passes(run, tmp_path):
    write(tmp_path / "ok.py", CLEAN_SRC)
    assert run("check") == (0, "All checks passed!\n", "")


def test_path_outside_cwd_is_absolute(run, tmp_path):
    bad = write(tmp_path / "elsewhere" / "bad.py", PAL001_SRC)
    (tmp_path / "here").mkdir()
    _status, out, _ = run("check", str(bad), cwd=tmp_path / "here")
    assert out.startswith(f"{bad}:6:5: PAL001 ")


def test_quiet_drops_the_summary(run, tmp_path):
    write(tmp_path / "bad.py", PAL001_SRC)
    status, out, _ = run("check", "--quiet")
    assert status == 1 and len(out.splitlines()) == 1 and "Found" not in out


def test_statistics(run, tmp_path):
    write(tmp_path / "a.py", PAL001_SRC)
    write(tmp_path / "b.py", PAL001_SRC)
    write(tmp_path / "c.py", PAL002_SRC)
    status, out, _ = run("check", "--statistics")
    assert status == 1
    assert out.splitlines() == [
        "2\tPAL001\t[*] kernel-returns-value",  # [*]: --fix fixes them all, as ruff marks it
        "1\tPAL002\t[ ] duplicate-ref-argument",
        "Found 3 errors.",
    ]
    status, out, _ = run("check", "--statistics", "--output-format", "json")
    assert json.loads(out) == [
        {"code": "PAL001", "name": "kernel-returns-value", "count": 2, "fixable_count": 2},
        {"code": "PAL002", "name": "duplicate-ref-argument", "count": 1, "fixable_count": 0},
    ]


def test_color_always_and_never(run, tmp_path):
    write(tmp_path / "bad.py", PAL001_SRC)
    _, coloured, _ = run("check", "--color", "always")
    _, plain, _ = run("check", "--color", "never")
    assert "\x1b[1;31mPAL001\x1b[0m" in coloured
    assert "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


@pytest.mark.parametrize(
    ("tty", "env", "expected"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),
        (True, {"TERM": "dumb"}, False),
    ],
)
def test_color_auto(monkeypatch, tty, env, expected):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(isatty=lambda: tty))
    assert cli._use_color("auto") is expected


# ------------------------------------------------------------------------------ json output
def test_json_output_is_ruff_shaped(run, tmp_path):
    bad = write(tmp_path / "bad.py", PAL001_SRC)
    [finding] = json_findings(run)
    assert {"code", "message", "filename", "location", "end_location", "severity", "url", "fix", "noqa_row"} <= set(
        finding
    )
    assert finding["code"] == "PAL001"
    assert finding["filename"] == str(bad) and os.path.isabs(finding["filename"])
    assert span(finding) == PAL001_AT
    assert finding["severity"] == "error"
    assert finding["noqa_row"] == 6
    fix = finding["fix"]  # null, or ruff's shape (the engine decides whether it has a fix)
    if fix is not None:
        assert set(fix) == {"applicability", "message", "edits"} and fix["applicability"] in ("safe", "unsafe")
        for edit in fix["edits"]:
            assert set(edit) == {"content", "location", "end_location"}
    assert finding["url"] == RULES["PAL001"].url
    # The launch site comes along as related information.
    assert finding["related"][0]["location"]["row"] == 9


def test_json_urls_point_at_generated_docs(run, tmp_path):
    write(tmp_path / "a.py", PAL001_SRC)
    write(tmp_path / "b.py", PAL002_SRC)
    write(tmp_path / "c.py", "from jax.experimental import pallas as pl\ndef broken(:\n")
    findings = json_findings(run)
    assert {f["code"] for f in findings} == {"PAL000", "PAL001", "PAL002"}
    for finding in findings:  # the pseudo-rule PAL000 has a page too
        assert finding["url"].endswith(f"/docs/rules/{finding['code']}.md")
        assert (REPO / "docs" / "rules" / f"{finding['code']}.md").is_file()


def test_json_empty_array_when_clean(run, tmp_path):
    write(tmp_path / "ok.py", CLEAN_SRC)
    assert run("check", "--output-format", "json") == (0, "[]\n", "")


# ---------------------------------------------------------------------------- github output
GITHUB_LINE = re.compile(
    r"::(?P<kind>error|warning|notice) file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
    r"endLine=(?P<endLine>\d+),endColumn=(?P<endColumn>\d+),title=pallas-ls \((?P<code>PAL\d+)\)::(?P<message>.+)"
)


def test_github_annotations(run, tmp_path):
    write(tmp_path / "src" / "bad.py", PAL001_SRC)
    status, out, _ = run("check", "--output-format", "github")
    [line] = out.splitlines()
    match = GITHUB_LINE.fullmatch(line)
    assert status == 1 and match, line
    assert match["kind"] == "error" and match["code"] == "PAL001"
    assert match["file"] == os.path.join("src", "bad.py")
    assert tuple(int(match[k]) for k in ("line", "col", "endLine", "endColumn")) == PAL001_AT


def test_github_warning_severity_from_config(run, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.pallas-ls]\nseverity = {PAL001 = "warning"}\n')
    write(tmp_path / "bad.py", PAL001_SRC)
    status, out, _ = run("check", "--output-format", "github")
    assert status == 1 and out.startswith("::warning file=bad.py,line=6,")


def test_github_output_is_empty_when_clean(run, tmp_path):
    write(tmp_path / "ok.py", CLEAN_SRC)
    assert run("check", "--output-format", "github") == (0, "", "")


# ----------------------------------------------------------------------------- sarif output
def test_sarif_log(run, tmp_path):
    write(tmp_path / "pkg" / "bad.py", PAL001_SRC)
    write(tmp_path / "pkg" / "dup.py", PAL002_SRC)
    status, out, _ = run("check", "--output-format", "sarif")
    log = json.loads(out)
    assert status == 1
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    [run_] = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "pallas-ls" and driver["version"] and driver["informationUri"].startswith("https://")
    assert run_["columnKind"] == "unicodeCodePoints"
    rules = driver["rules"]
    for rule in rules:
        assert {"id", "name", "shortDescription", "defaultConfiguration"} <= set(rule)
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert {r["id"]: r.get("helpUri") for r in rules}["PAL001"] == RULES["PAL001"].url

    results = {r["ruleId"]: r for r in run_["results"]}
    assert set(results) == {"PAL001", "PAL002"}
    pal001 = results["PAL001"]
    assert rules[pal001["ruleIndex"]]["id"] == "PAL001"
    assert pal001["level"] == "error" and "add_one" in pal001["message"]["text"]
    location = pal001["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/bad.py", "uriBaseId": "%SRCROOT%"}
    region = location["region"]
    assert (region["startLine"], region["startColumn"], region["endLine"], region["endColumn"]) == PAL001_AT
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    # PAL002 points at the first occurrence of the ref.
    related = results["PAL002"]["relatedLocations"][0]
    assert related["physicalLocation"]["region"]["startLine"] == 15
    assert related["message"]["text"]


def test_sarif_uri_outside_cwd_is_a_file_uri(run, tmp_path):
    bad = write(tmp_path / "elsewhere" / "bad.py", PAL001_SRC)
    (tmp_path / "here").mkdir()
    _, out, _ = run("check", "--output-format", "sarif", str(bad), cwd=tmp_path / "here")
    artifact = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": bad.as_uri()}


# ------------------------------------------------------------------------------ exit status
def test_exit_status_via_subprocess(tmp_path):
    write(tmp_path / "ok.py", CLEAN_SRC)
    assert subprocess_cli("check", cwd=tmp_path).returncode == 0
    write(tmp_path / "bad.py", PAL001_SRC)
    found = subprocess_cli("check", cwd=tmp_path)
    assert found.returncode == 1 and b"bad.py:6:5: PAL001" in found.stdout
    assert subprocess_cli("check", "--exit-zero", cwd=tmp_path).returncode == 0
    usage = subprocess_cli("check", "--output-format", "xml", cwd=tmp_path)
    assert usage.returncode == 2
    assert usage.stderr.decode().startswith("pallas-ls: error: argument --output-format: invalid choice")
    assert len(usage.stderr.decode().splitlines()) == 1


def test_missing_path_is_a_usage_error(run, tmp_path):
    status, out, err = run("check", "nope.py")
    assert (status, out) == (2, "")
    assert err == "pallas-ls: error: no such file or directory: nope.py\n"


def test_no_command_prints_help_and_fails(run):
    status, _out, err = run()
    assert status == 2 and "usage: pallas-ls" in err


def test_version(run):
    status, out, _ = run("--version")
    assert status == 0 and re.fullmatch(r"pallas-ls \S+\n", out)


def test_internal_error_is_one_line_without_verbose(run, tmp_path, monkeypatch):
    write(tmp_path / "bad.py", PAL001_SRC)

    def explode(text, path=None, rules=None):
        if path is None:
            raise RuntimeError("engine exploded")
        return real(text, path, rules)

    real = lint.analyze_source
    monkeypatch.setattr(lint, "analyze_source", explode)  # what stdin is checked with
    status, out, err = run("check", "bad.py", "-", stdin=CLEAN_SRC.encode())
    assert status == 2
    assert "bad.py:6:5: PAL001" in out  # the other file is still reported
    assert "Traceback" not in err
    assert "internal error while checking stdin: RuntimeError: engine exploded" in err
    status, _, err = run("check", "--verbose", "-", stdin=CLEAN_SRC.encode())
    assert status == 2 and "Traceback (most recent call last)" in err


def test_a_failing_rule_makes_the_run_fail(run, tmp_path, monkeypatch):
    """The engine logs a rule that crashes and carries on; the CLI must not report success."""
    write(tmp_path / "bad.py", PAL001_SRC)
    write(tmp_path / "dup.py", PAL002_SRC)

    def boom(analysis):
        raise ValueError("rule bug")

    monkeypatch.setitem(RULES, "PAL002", dataclasses.replace(RULES["PAL002"], check=boom))
    status, out, err = run("check")
    assert status == 2
    assert "bad.py:6:5: PAL001" in out
    assert "ValueError: rule bug" in err and "Traceback" not in err
    assert err.splitlines()[-1].startswith("pallas-ls: error: 2 internal error(s) while checking")


def test_crash_outside_the_engine_is_reported_in_one_line(run, tmp_path, monkeypatch):
    write(tmp_path / "bad.py", PAL001_SRC)
    monkeypatch.setattr(cli, "discover", lambda *a, **k: 1 / 0)
    status, out, err = run("check")
    assert status == 2 and out == ""
    assert (
        err
        == "pallas-ls: error: internal error: ZeroDivisionError: division by zero (run with --verbose for the traceback)\n"
    )
    status, _, err = run("check", "-v")
    assert status == 2 and "Traceback" in err


# --------------------------------------------------------------------------- select/ignore
@pytest.fixture
def both_rules(tmp_path):
    write(tmp_path / "a.py", PAL001_SRC)
    write(tmp_path / "b.py", PAL002_SRC)


@pytest.mark.parametrize(
    ("argv", "codes"),
    [
        ([], {"PAL001", "PAL002"}),
        (["--select", "PAL002"], {"PAL002"}),
        (["--select", "pal001"], {"PAL001"}),
        (["--select", "PAL001,PAL002"], {"PAL001", "PAL002"}),
        (["--select", "PAL001", "--select", "PAL002"], {"PAL001", "PAL002"}),
        (["--ignore", "PAL001"], {"PAL002"}),
        (["--select", "PAL00"], {"PAL001", "PAL002"}),
        (["--select", "ALL", "--ignore", "PAL00"], set()),
        (["--ignore", "PAL"], set()),
        (["--select", "PAL001", "--ignore", "PAL"], {"PAL001"}),  # the more specific selector wins
        (["--select", "PAL001", "--ignore", "PAL001"], set()),  # a tie goes to ignore
    ],
)
def test_select_and_ignore(run, both_rules, argv, codes):
    assert {f["code"] for f in json_findings(run, *argv)} == codes


def test_only_ignored_findings_exit_zero(run, both_rules):
    status, out, _ = run("check", "--ignore", "PAL001,PAL002")
    assert (status, out) == (0, "All checks passed!\n")


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_code_is_a_usage_error(run, both_rules, option):
    status, out, err = run("check", option, "PAL001,PAL999")
    assert (status, out) == (2, "")
    assert err.startswith(f"pallas-ls: error: {option}: unknown rule code or prefix 'PAL999'")


# ------------------------------------------------------------------------------------ stdin
def test_stdin_with_filename(run, tmp_path):
    status, out, _ = run("check", "-", "--stdin-filename", "pkg/kernels.py", stdin=PAL001_SRC.encode())
    assert status == 1
    assert out.splitlines()[0].startswith(os.path.join("pkg", "kernels.py") + ":6:5: PAL001 ")
    status, out, _ = run("check", "--stdin-filename", "k.py", "--output-format", "json", stdin=PAL001_SRC.encode())
    assert json.loads(out)[0]["filename"] == str(tmp_path / "k.py")


def test_stdin_without_filename(run):
    status, out, _ = run("check", "-", stdin=PAL001_SRC.encode())
    assert status == 1 and out.startswith("-:6:5: PAL001 ")
    assert run("check", "-", stdin=CLEAN_SRC.encode())[0] == 0


def test_stdin_via_subprocess(tmp_path):
    result = subprocess_cli("check", "-", "--stdin-filename", "x.py", cwd=tmp_path, stdin=PAL002_SRC.encode())
    assert result.returncode == 1
    assert result.stdout.decode().startswith("x.py:15:9: PAL002 ")


def test_stdin_not_utf8(run):
    status, out, err = run("check", "-", stdin=b"x = '\xff'\n")
    assert status == 1 and out.startswith("-:1:6: PAL900 Unreadable file: not valid UTF-8")
    assert "Traceback" not in err


# -------------------------------------------------------------------------------- discovery
def test_skipped_directories(run, tmp_path):
    for skipped in [
        ".git",
        ".hg",
        "node_modules",
        "__pycache__",
        ".tox",
        ".nox",
        "build",
        "dist",
        ".eggs",
        ".venv",
        "venv",
    ]:
        write(tmp_path / skipped / "bad.py", PAL001_SRC)
    write(tmp_path / "myenv" / "pyvenv.cfg", "home = /usr\n")  # a virtualenv under any name
    write(tmp_path / "myenv" / "lib" / "bad.py", PAL001_SRC)
    write(tmp_path / "src" / "bad.pyi", PAL001_SRC)  # stubs are not checked
    write(tmp_path / "src" / "bad.txt", PAL001_SRC)
    write(tmp_path / "src" / "real.py", PAL001_SRC)
    findings = json_findings(run)
    assert [f["filename"] for f in findings] == [str(tmp_path / "src" / "real.py")]


def test_exclude_option_and_explicit_files(run, tmp_path):
    write(tmp_path / "gen" / "a.py", PAL001_SRC)
    write(tmp_path / "src" / "gen_b.py", PAL001_SRC)
    write(tmp_path / "src" / "c.py", PAL001_SRC)
    files = {os.path.basename(f["filename"]) for f in json_findings(run, "--exclude", "gen", "--exclude", "gen_*.py")}
    assert files == {"c.py"}
    # A file named on the command line is checked even when it matches an exclude pattern.
    named = json_findings(run, "--exclude", "gen_*.py", "src/gen_b.py")
    assert [os.path.basename(f["filename"]) for f in named] == ["gen_b.py"]


def test_explicit_skipped_directory_is_walked(run, tmp_path):
    write(tmp_path / "build" / "bad.py", PAL001_SRC)
    assert json_findings(run) == []
    assert len(json_findings(run, "build")) == 1


def test_each_file_reported_once(run, tmp_path):
    write(tmp_path / "pkg" / "bad.py", PAL001_SRC)
    assert len(json_findings(run, "pkg", "pkg/bad.py", ".")) == 1


def test_no_python_files_warns(run, tmp_path):
    (tmp_path / "empty").mkdir()
    status, out, err = run("check", "empty")
    assert (status, out) == (0, "All checks passed!\n")
    assert err == "pallas-ls: warning: no Python files found under empty\n"


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("gen", "gen", True),
        ("gen", "src/gen", True),
        ("gen", "src/generated", False),
        ("*_pb2.py", "a/b/x_pb2.py", True),
        ("tests/fixtures", "tests/fixtures", True),
        ("tests/fixtures", "other/tests/fixtures", False),
        ("tests/*.py", "tests/a.py", True),
        ("tests/*.py", "tests/sub/a.py", False),
        ("tests/**/*.py", "tests/sub/deep/a.py", True),
        ("tests/**/*.py", "tests/a.py", True),
        ("/build", "build", True),
        ("./src/x.py", "src/x.py", True),
        ("[ab].py", "a.py", True),
        ("[!ab].py", "a.py", False),
        ("[!ab].py", "c.py", True),
        ("?.py", "ab.py", False),
    ],
)
def test_exclude_pattern(tmp_path, pattern, path, matches):
    assert ExcludePattern(pattern, str(tmp_path)).matches(str(tmp_path / path)) is matches


def test_anchored_pattern_ignores_paths_outside_its_base(tmp_path):
    assert not ExcludePattern("a/*.py", str(tmp_path / "base")).matches(str(tmp_path / "a" / "x.py"))


def test_discover_order_is_stable(tmp_path):
    for name in ["b.py", "a.py", "sub/z.py", "sub/c.py"]:
        write(tmp_path / name, "")
    assert discover([str(tmp_path)]) == [str(tmp_path / n) for n in ["a.py", "b.py", "sub/c.py", "sub/z.py"]]


# ------------------------------------------------------------------ files that are not plain
def test_non_utf8_file_is_unreadable_not_a_crash(run, tmp_path):
    write(tmp_path / "latin1.py", "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n".encode("latin-1"))
    write(tmp_path / "bad.py", PAL001_SRC)
    status, out, err = run("check")
    lines = out.splitlines()
    assert status == 1 and "Traceback" not in err
    assert re.fullmatch(r"latin1\.py:\d+:\d+: PAL900 Unreadable file: .*not valid UTF-8.*", lines[1])
    assert lines[0].startswith("bad.py:6:5: PAL001")


def test_undecodable_byte_position_counts_characters(run):
    # `é` is two bytes of valid UTF-8 before the bad byte: the column counts it once.
    _status, out, _ = run("check", "-", stdin="x = 1\ns = 'é".encode() + b"\xff'\n")
    assert out.startswith("-:2:7: PAL900 Unreadable file: not valid UTF-8 (byte 0xFF cannot be decoded)")


def test_unreadable_stdin_is_reported_once():
    result = cli._check_bytes(b"\xff", "/w/b.py")
    assert [f.code for f in result.findings] == ["PAL900"] and result.error


def test_unreadable_file_can_be_ignored(run, tmp_path):
    write(tmp_path / "latin1.py", b"s = '\xe9'\n")
    assert run("check", "--ignore", "PAL900")[0] == 0


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX permissions")
def test_permission_denied_is_unreadable(run, tmp_path, monkeypatch):
    secret = write(tmp_path / "secret.py", PAL001_SRC)
    secret.chmod(0)
    if os.geteuid() == 0:  # root reads any file: the kernel's answer to anyone else, given by hand
        real_open = os.open

        def denied(path, *args, **kwargs):
            if os.fspath(path).endswith("secret.py"):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", denied)
    try:
        status, out, _ = run("check")
    finally:
        secret.chmod(0o644)
    assert status == 1 and out.startswith("secret.py:1:1: PAL900 Unreadable file: cannot be read (Permission denied)")


@pytest.mark.parametrize(
    "encode",
    [
        pytest.param(lambda s: s.encode(), id="lf"),
        pytest.param(lambda s: s.replace("\n", "\r\n").encode(), id="crlf"),
        pytest.param(lambda s: b"\xef\xbb\xbf" + s.encode(), id="bom"),
        pytest.param(lambda s: b"\xef\xbb\xbf" + s.replace("\n", "\r\n").encode(), id="bom-crlf"),
        pytest.param(lambda s: s.replace("\n", "\r").encode(), id="cr"),
    ],
)
def test_line_endings_and_bom_keep_positions(run, tmp_path, encode):
    write(tmp_path / "bad.py", encode(PAL001_SRC))
    [finding] = json_findings(run)
    assert span(finding) == PAL001_AT


def test_bom_on_the_reported_line(run, tmp_path):
    # The finding is on line 1, right after the BOM: the BOM is not a column.
    source = (
        "def k(x_ref, o_ref): return 1\nfrom jax.experimental import pallas as pl\npl.pallas_call(k, out_shape=None)\n"
    )
    write(tmp_path / "k.py", b"\xef\xbb\xbf" + source.encode())
    [finding] = json_findings(run)
    assert span(finding) == (1, 22, 1, 30)


@pytest.mark.parametrize("prefix", ["é", "🙂", "中文字", "e\u0301", "𝔘𝔫𝔦"])  # noqa: RUF001 - characters outside the BMP, on purpose
def test_columns_count_characters(run, tmp_path, prefix):
    line = f'    s = "{prefix}"; return x_ref[...] + 1'
    source = PAL001_SRC.replace("    return x_ref[...] + 1", line)
    write(tmp_path / "k.py", source)
    start = line.index("return") + 1
    [finding] = json_findings(run)
    assert span(finding) == (6, start, 6, len(line) + 1)
    _, out, _ = run("check")
    assert out.startswith(f"k.py:6:{start}: PAL001")
    _, out, _ = run("check", "--output-format", "github")
    assert f"line=6,col={start},endLine=6,endColumn={len(line) + 1}," in out
    _, out, _ = run("check", "--output-format", "sarif")
    region = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startColumn"], region["endColumn"]) == (start, len(line) + 1)


def test_non_ascii_path(run, tmp_path):
    bad = write(tmp_path / "ядро" / "カーネル.py", PAL001_SRC)
    _status, out, _ = run("check", "--output-format", "json")
    assert json.loads(out)[0]["filename"] == str(bad)


def test_syntax_error_is_reported_and_the_rest_still_checked(run, tmp_path):
    source = PAL001_SRC + "\n\ndef broken(:\n    pass\n"
    write(tmp_path / "k.py", source)
    findings = json_findings(run)
    assert [f["code"] for f in findings] == ["PAL001", "PAL000"]
    assert findings[1]["location"]["row"] == 12
    assert [f["code"] for f in json_findings(run, "--ignore", "PAL000")] == ["PAL001"]


def test_noqa_is_respected(run, tmp_path):
    write(tmp_path / "k.py", PAL001_SRC.replace("return x_ref[...] + 1", "return x_ref[...] + 1  # noqa: PAL001"))
    assert run("check")[0] == 0


# ----------------------------------------------------------------------------- configuration
def test_config_from_nearest_pyproject(run, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.pallas-ls]\nignore = ["PAL001"]\nexclude = ["skipped"]\n')
    # A pyproject.toml without our table (a sub-package's) does not hide the repository's settings.
    write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "sub"\n')
    write(tmp_path / "sub" / "a.py", PAL001_SRC)
    write(tmp_path / "sub" / "b.py", PAL002_SRC)
    write(tmp_path / "sub" / "skipped" / "c.py", PAL002_SRC)
    findings = json_findings(run, "sub")
    assert [(f["code"], os.path.basename(f["filename"])) for f in findings] == [("PAL002", "b.py")]
    # Started from the subdirectory, the settings are still found by walking up.
    findings = json_findings(run, ".", cwd=tmp_path / "sub")
    assert [f["code"] for f in findings] == ["PAL002"]


def test_config_exclude_is_relative_to_the_config_file(run, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.pallas-ls]\nexclude = ["pkg/generated/**"]\n')
    write(tmp_path / "pkg" / "generated" / "x.py", PAL001_SRC)
    write(tmp_path / "pkg" / "y.py", PAL001_SRC)
    (tmp_path / "pkg" / "inner").mkdir()
    findings = json_findings(run, str(tmp_path / "pkg"), cwd=tmp_path / "pkg" / "inner")
    assert [os.path.basename(f["filename"]) for f in findings] == ["y.py"]


def test_cli_select_overrides_config(run, tmp_path, both_rules):
    write(tmp_path / "pyproject.toml", '[tool.pallas-ls]\nselect = ["PAL001"]\nignore = ["PAL002"]\n')
    assert {f["code"] for f in json_findings(run)} == {"PAL001"}
    # --select starts over (the file's ignore goes too); --ignore adds to the file's.
    assert {f["code"] for f in json_findings(run, "--select", "PAL002")} == {"PAL002"}
    assert {f["code"] for f in json_findings(run, "--ignore", "PAL001")} == set()


def test_severity_override(run, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.pallas-ls]\nseverity = { PAL001 = "warning" }\n')
    write(tmp_path / "bad.py", PAL001_SRC)
    [finding] = json_findings(run)
    assert finding["severity"] == "warning"
    status, out, _ = run("check")
    assert status == 1 and out.splitlines()[-2:] == ["Found 1 warning.", "[*] 1 fixable with the `--fix` option."]


def test_show_syntax_errors_false(run, tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.pallas-ls]\nshow-syntax-errors = false\n")
    write(tmp_path / "broken.py", "from jax.experimental import pallas as pl\ndef broken(:\n")
    assert run("check")[0] == 0


def test_syntax_errors_are_reported_only_in_files_that_use_pallas(run, tmp_path):
    # A file that never mentions Pallas is not parsed at all (the prefilter that keeps big trees fast).
    write(tmp_path / "unrelated.py", "def broken(:\n")
    assert run("check")[0] == 0
    write(tmp_path / "kernels.py", "from jax.experimental import pallas as pl\ndef broken(:\n")
    assert {f["code"] for f in json_findings(run)} == {"PAL000"}


def test_isolated_and_explicit_config(run, tmp_path, both_rules):
    write(tmp_path / "pyproject.toml", '[tool.pallas-ls]\nignore = ["PAL001", "PAL002"]\n')
    write(tmp_path / "other.toml", '[tool.pallas-ls]\nignore = ["PAL002"]\n')
    assert json_findings(run) == []
    assert {f["code"] for f in json_findings(run, "--isolated")} == {"PAL001", "PAL002"}
    assert {f["code"] for f in json_findings(run, "--config", "other.toml")} == {"PAL001"}


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('select = ["PAL999"]', "invalid `select`: unknown rule code or prefix 'PAL999'"),
        ('select = "PAL001 PAL999"', "invalid `select`: unknown rule code or prefix 'PAL999'"),
        ("ignore = 3", "invalid `ignore`: expected a list of strings, got 3"),
        (
            'severity = {PAL001 = "fatal"}',
            "invalid `severity`: severity of PAL001 must be one of error, warning, info, hint",
        ),
        ('severity = {PAL123 = "error"}', "invalid `severity`: unknown rule code 'PAL123'"),
        ('show-syntax-errors = "yes"', "invalid `show-syntax-errors`: expected true or false"),
        ("colour = true", "unknown setting `colour`"),
        ("select = [", "invalid TOML"),
    ],
)
def test_invalid_config_is_a_clear_error(run, tmp_path, toml, message):
    write(tmp_path / "pyproject.toml", f"[tool.pallas-ls]\n{toml}\n")
    write(tmp_path / "bad.py", PAL001_SRC)
    status, out, err = run("check")
    assert (status, out) == (2, "")
    assert err.startswith(f"pallas-ls: error: {tmp_path / 'pyproject.toml'}: ")
    assert message in err and len(err.splitlines()) == 1


def test_non_table_tool_section_is_an_error(run, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool]\npallas-ls = "on"\n')
    status, _, err = run("check")
    assert status == 2 and "[tool.pallas-ls] must be a table" in err


def test_config_never_runs_project_code(run, tmp_path):
    # A conftest/setup file that would leave a marker if imported: reading settings must not.
    write(tmp_path / "pyproject.toml", "[tool.pallas-ls]\n")
    marker = tmp_path / "imported"
    write(tmp_path / "setup.py", f"open({str(marker)!r}, 'w').close()\n")
    write(tmp_path / "conftest.py", f"open({str(marker)!r}, 'w').close()\n")
    assert run("check")[0] == 0
    assert not marker.exists()


# ------------------------------------------------------------------------------------ rule
def test_rule_shows_docs_and_marked_examples(run):
    status, out, _ = run("rule", "PAL001")
    rule = RULES["PAL001"]
    assert status == 0
    assert out.startswith("PAL001 kernel-returns-value (error)\n")
    assert rule.summary in out and rule.docs in out and rule.url in out
    assert "«" not in out and "»" not in out
    for example in rule.examples:
        assert f"{'Valid' if example.valid else 'Invalid'}: {example.name}" in out
    # Under `return x_ref[...] + 1` of the first invalid example, a caret line marks the range.
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith("|     return x_ref[...] + 1"))
    assert lines[at + 1].endswith("|     " + "^" * len("return x_ref[...] + 1"))


def test_rule_by_name_and_case_insensitive(run):
    assert run("rule", "duplicate-ref-argument")[1] == run("rule", "pal002")[1]


def test_rule_json(run):
    status, out, _ = run("rule", "PAL002", "--output-format", "json")
    data = json.loads(out)
    assert status == 0 and data["code"] == "PAL002" and data["url"] == RULES["PAL002"].url
    invalid = [e for e in data["examples"] if not e["valid"]]
    assert invalid and all(e["ranges"] for e in invalid) and "«" not in out


def test_rule_all(run):
    status, out, _ = run("rule", "--all")
    codes = [line.split()[0] for line in out.splitlines()]
    assert status == 0 and codes == sorted({*RULES, "PAL000", "PAL900"})
    status, out, _ = run("rule", "--all", "--output-format", "json")
    assert [r["code"] for r in json.loads(out)] == codes


def test_rule_pseudo_code(run):
    status, out, _ = run("rule", "PAL900")
    assert status == 0 and out.startswith("PAL900 unreadable-file")


@pytest.mark.parametrize("argv", [["rule", "PAL777"], ["rule"]])
def test_rule_usage_errors(run, argv):
    status, out, err = run(*argv)
    assert (status, out) == (2, "") and err.startswith("pallas-ls: error: ")


# ----------------------------------------------------------------------------------- serve
def test_serve_passes_options_to_the_server(run, monkeypatch):
    seen = {}
    fake = types.ModuleType("pallas_ls.lsp.server")
    fake.main = lambda args: seen.setdefault("args", args) and 0
    monkeypatch.setitem(sys.modules, "pallas_ls.lsp.server", fake)
    assert run("serve")[0] == 0
    args = seen.pop("args")
    assert (args.stdio, args.tcp, args.host, args.port, args.log_file, args.log_level) == (
        True,
        False,
        "127.0.0.1",
        2087,
        None,
        "INFO",
    )
    assert (
        run("serve", "--tcp", "--port", "9000", "--host", "0.0.0.0", "--log-file", "x.log", "--log-level", "debug")[0]
        == 0
    )
    args = seen["args"]
    assert (args.tcp, args.port, args.host, args.log_file, args.log_level) == (True, 9000, "0.0.0.0", "x.log", "DEBUG")
    assert run("serve", "--tcp", "--stdio")[0] == 2


def test_serve_without_the_server_module(run, monkeypatch):
    real_import = cli.importlib.import_module

    def missing(name, *a):
        if name == "pallas_ls.lsp.server":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *a)

    monkeypatch.setattr(cli.importlib, "import_module", missing)
    status, out, err = run("serve")
    assert (status, out) == (2, "")
    assert (
        err
        == "pallas-ls: error: the language server is not available in this installation (pallas_ls.lsp.server is missing)\n"
    )


# -------------------------------------------------------------------------- repo contents
def test_examples_show_the_documented_findings(run):
    """The README quick start runs `pallas-ls check examples/`: it must find exactly the two bugs."""
    kernels = REPO / "examples" / "demo" / "kernels.py"
    lines = kernels.read_text(encoding="utf-8").splitlines()
    pal001_line = next(i for i, line in enumerate(lines, 1) if "return e / e.sum" in line)
    pal002_line = next(i for i, line in enumerate(lines, 1) if "double_kernel(buf, buf)" in line)
    findings = json_findings(run, "examples", cwd=REPO)
    assert [(f["code"], f["filename"], f["location"]["row"]) for f in findings] == [
        ("PAL001", str(kernels), pal001_line),
        ("PAL002", str(kernels), pal002_line),
    ]


def test_python_dash_m_on_examples(tmp_path):
    result = subprocess_cli("check", str(REPO / "examples"), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.decode().endswith(
        "Found 2 errors.\n[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )


def test_rule_docs_are_up_to_date():
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen_rule_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_rule_docs_check_notices_stale_files(tmp_path):
    script = [sys.executable, str(REPO / "scripts" / "gen_rule_docs.py"), "--docs-dir", str(tmp_path)]
    assert subprocess.run(script, capture_output=True, timeout=120).returncode == 0
    assert subprocess.run([*script, "--check"], capture_output=True, timeout=120).returncode == 0
    (tmp_path / "PAL001.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "PAL999.md").write_text("a rule that does not exist\n", encoding="utf-8")
    stale = subprocess.run([*script, "--check"], capture_output=True, text=True, timeout=120)
    assert stale.returncode == 1 and "PAL001.md" in stale.stderr and "PAL999.md" in stale.stderr
