"""`check --output-format` in each of ruff's formats, and the adoption flags (issue 18), run
in-process through the `run` fixture of test_cli."""

from __future__ import annotations

import json
import pathlib
import re
import xml.etree.ElementTree as ET

import pytest
from test_cli import CLEAN_SRC, PAL001_AT, PAL001_SRC, PAL002_SRC, write

NOTEBOOK = pathlib.Path(__file__).with_name("notebooks") / "proto_v45.ipynb"
SCHEMAS = pathlib.Path(__file__).with_name("schemas")


def assert_valid(document, schema_name: str) -> None:
    """`document` conforms to the schema in tests/schemas (every violation listed)."""
    import jsonschema

    schema = json.loads((SCHEMAS / schema_name).read_text())
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
    assert not errors, errors


@pytest.fixture
def project(tmp_path):
    """Two files with one finding each (PAL001 in bad.py, PAL002 in pkg/dup.py) and a clean one."""
    write(tmp_path / "bad.py", PAL001_SRC)
    write(tmp_path / "pkg" / "dup.py", PAL002_SRC)
    write(tmp_path / "ok.py", CLEAN_SRC)
    return tmp_path


def check(run, *argv: str, **kw) -> str:
    status, out, err = run("check", "--isolated", "--no-cache", *argv, **kw)
    assert status in (0, 1), err
    return out


# ----------------------------------------------------------------------------------- full
def test_full_shows_the_source_line_carets_and_the_fix(run, project):
    out = check(run, "--output-format", "full", "bad.py")
    lines = out.splitlines()
    assert re.fullmatch(r"bad\.py:6:5: PAL001 \[\*\] Pallas kernel .*", lines[0])
    assert "6 |     return x_ref[...] + 1" in lines
    carets = next(line for line in lines if "^" in line)
    assert carets == "  |     " + "^" * (PAL001_AT[3] - PAL001_AT[1]) + " PAL001"
    assert "  = help: Write the result to `o_ref`" in lines
    assert lines[-2:] == ["Found 1 error.", "[*] 1 fixable with the `--fix` option."]


def test_full_quotes_stdin_and_notebook_cells(run, project):
    out = check(run, "--output-format", "full", "-", "--stdin-filename", "k.py", stdin=PAL001_SRC.encode())
    assert "6 |     return x_ref[...] + 1" in out
    write(project / "proto.ipynb", NOTEBOOK.read_bytes())
    out = check(run, "--output-format", "full", "proto.ipynb")
    assert "proto.ipynb:cell 3:3:5: PAL001" in out
    assert re.search(r"^3 \|     return ", out, re.M)  # the cell's third line, not the module's


def test_default_is_concise_when_not_a_terminal(run, project):
    default = check(run)
    assert default == check(run, "--output-format", "concise") == check(run, "--output-format", "text")
    assert " | " not in default


# ------------------------------------------------------------------------------- json-lines
def test_json_lines_is_one_json_object_per_finding(run, project):
    out = check(run, "--output-format", "json-lines")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["code"] for r in rows] == ["PAL001", "PAL002"]
    assert rows == json.loads(check(run, "--output-format", "json"))


# ------------------------------------------------------------------------------------ junit
def test_junit_parses_with_one_testcase_per_finding_grouped_by_file(run, project):
    root = ET.fromstring(check(run, "--output-format", "junit"))
    assert root.tag == "testsuites" and root.get("tests") == "2" and root.get("failures") == "2"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"bad.py", str(pathlib.Path("pkg/dup.py"))}
    [case] = suites["bad.py"].findall("testcase")
    assert (case.get("name"), case.get("classname"), case.get("line"), case.get("column")) == (
        "org.pallas-ls.PAL001",
        "bad",
        "6",
        "5",
    )
    failure = case.find("failure")
    assert failure.text.startswith("line 6, col 5, Pallas kernel") and "add_one" in failure.get("message")
    assert suites[str(pathlib.Path("pkg/dup.py"))].find("testcase").get("classname") == "pkg.dup"


def test_junit_clean_run_is_one_passing_testcase(run, tmp_path):
    write(tmp_path / "ok.py", CLEAN_SRC)
    root = ET.fromstring(check(run, "--output-format", "junit"))
    assert root.get("failures") == "0" and len(root.iter("testcase").__next__().findall("failure")) == 0


# ----------------------------------------------------------------------------------- gitlab
def test_gitlab_code_quality_shape(run, project):
    issues = json.loads(check(run, "--output-format", "gitlab"))
    assert len(issues) == 2
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert isinstance(issue["location"]["path"], str) and isinstance(issue["location"]["lines"]["begin"], int)
        assert issue["description"].startswith(issue["check_name"] + ": ")
    first = issues[0]
    assert (first["check_name"], first["location"]["path"], first["location"]["lines"]["begin"]) == (
        "PAL001",
        "bad.py",
        6,
    )
    assert len({i["fingerprint"] for i in issues}) == 2


def test_gitlab_fingerprints_are_stable_across_runs_and_line_moves(run, project, monkeypatch):
    before = [i["fingerprint"] for i in json.loads(check(run, "--output-format", "gitlab"))]
    assert before == [i["fingerprint"] for i in json.loads(check(run, "--output-format", "gitlab"))]
    write(project / "bad.py", "# a new first line\n" + PAL001_SRC)  # the finding moves one row down
    moved = json.loads(check(run, "--output-format", "gitlab"))
    assert moved[0]["location"]["lines"]["begin"] == 7
    assert [i["fingerprint"] for i in moved] == before
    monkeypatch.setenv("CI_PROJECT_DIR", str(project / "pkg"))
    paths = [i["location"]["path"] for i in json.loads(check(run, "--output-format", "gitlab"))]
    assert "dup.py" in paths  # relative to the GitLab checkout


def test_gitlab_fingerprints_of_repeated_findings_differ(tmp_path):
    from pallas_ls.engine.findings import Finding
    from pallas_ls.engine.source import Range
    from pallas_ls.output import Report, gitlab

    same = Finding("PAL001", "returns a value", Range.of(0, 0, 0, 1), path=str(tmp_path / "gone.py"))
    issues = gitlab.issues(Report([same, same], str(tmp_path)))
    assert issues[0]["fingerprint"] != issues[1]["fingerprint"]


# ----------------------------------------------------------------------------------- rdjson
def test_rdjson_is_a_reviewdog_diagnostic_result(run, project):
    result = json.loads(check(run, "--output-format", "rdjson"))
    assert result["source"]["name"] == "pallas-ls"
    first = result["diagnostics"][0]
    assert first["code"]["value"] == "PAL001" and first["code"]["url"].endswith("PAL001.md")
    assert first["severity"] in ("ERROR", "WARNING", "INFO")
    assert first["location"]["path"] == "bad.py"
    assert first["location"]["range"] == {"start": {"line": 6, "column": 5}, "end": {"line": 6, "column": 26}}
    [suggestion] = first["suggestions"]
    assert suggestion["text"] == "o_ref[...] = " and suggestion["range"]["start"] == {"line": 6, "column": 5}


def test_rdjson_columns_are_utf8_bytes(run, tmp_path):
    write(
        tmp_path / "wide.py",
        PAL001_SRC.replace("return x_ref[...] + 1", "return x_ref[...] + 1  # é").replace(
            "def add_one(x_ref, o_ref):\n    return", "def add_one(x_ref, o_ref):\n    é = 1; return"
        ),
    )
    [diagnostic] = json.loads(check(run, "--output-format", "rdjson"))["diagnostics"]
    concise = check(run, "--output-format", "concise")
    code_points = int(re.search(r"wide\.py:6:(\d+):", concise).group(1))
    assert diagnostic["location"]["range"]["start"]["column"] == code_points + 1  # é is two bytes


# ----------------------------------------------------------------------------------- pylint
def test_pylint_lines(run, project):
    out = check(run, "--output-format", "pylint")
    lines = out.splitlines()
    assert re.fullmatch(r"bad\.py:6: \[PAL001\] Pallas kernel .*", lines[0])
    assert re.fullmatch(r"pkg[/\\]dup\.py:15: \[PAL002\] .*", lines[1])
    assert len(lines) == 2  # no summary: tools parse every line


# -------------------------------------------------------------------------------- notebooks
def test_notebook_cells_in_every_format(run, tmp_path):
    write(tmp_path / "proto.ipynb", NOTEBOOK.read_bytes())
    assert "proto.ipynb:cell 3:3: [PAL001]" in check(run, "--output-format", "pylint")
    [row] = [json.loads(line) for line in check(run, "--output-format", "json-lines").splitlines()]
    assert row["cell"] == 3
    [issue] = json.loads(check(run, "--output-format", "gitlab"))
    assert issue["cell"] == 3 and issue["location"]["lines"]["begin"] == 3
    case = ET.fromstring(check(run, "--output-format", "junit")).find("testsuite/testcase")
    assert case.get("cell") == "3" and case.find("failure").text.startswith("cell 3, line 3, col 5, ")
    [diagnostic] = json.loads(check(run, "--output-format", "rdjson"))["diagnostics"]
    assert diagnostic["message"].startswith("cell 3, line 3: ") and "suggestions" not in diagnostic


# ------------------------------------------------------------------------------- --output-file
@pytest.mark.parametrize("fmt", [None, "json", "junit"])
def test_output_file_gets_the_report_and_stdout_stays_empty(run, project, fmt):
    argv = ["--output-format", fmt] if fmt else []
    status, out, err = run("check", "--isolated", "--no-cache", "-o", "reports/out.txt", *argv)
    assert (status, out) == (1, ""), err
    written = (project / "reports" / "out.txt").read_text(encoding="utf-8")
    if fmt is None:  # a file is not a terminal: concise, with the summary (as ruff writes it)
        assert written.splitlines()[-2:] == [  # the PAL002 merge is unsafe (issue 14)
            "Found 2 errors.",
            "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
        ]
        assert "\x1b[" not in written
    elif fmt == "json":
        assert [f["code"] for f in json.loads(written)] == ["PAL001", "PAL002"]
    else:
        assert ET.fromstring(written).get("failures") == "2"


def test_output_file_that_cannot_be_written_is_a_usage_error(run, project):
    write(project / "afile", "")
    status, _, err = run("check", "--isolated", "-o", "afile/report.txt")
    assert status == 2 and err.startswith("pallas-ls: error: cannot write the report to afile/report.txt")


# ---------------------------------------------------------------------------------- --statistics
def test_statistics_fixable_marks():
    from pallas_ls.output.text import CodeCount, fixable_mark

    assert [fixable_mark(CodeCount("PAL001", "x", 3, n), color=False) for n in (3, 1, 0)] == ["[*]", "[~]", "[ ]"]


def test_statistics_without_anything_fixable_has_no_mark_column(run, tmp_path):
    write(tmp_path / "c.py", "from jax.experimental import pallas as pl\ndef broken(:\n")
    out = check(run, "--statistics")
    assert out.splitlines()[0] == "1\tPAL000\tsyntax-error"


# ---------------------------------------------------------------------------------- --show-fixes
def test_show_fixes_lists_what_fix_fixed_per_file(run, project):
    write(project / "pkg" / "more.py", PAL001_SRC)
    out = check(run, "--fix", "--unsafe-fixes", "--show-fixes")  # the PAL002 merge is unsafe
    assert out.splitlines() == [
        "Fixed 3 errors:",
        "- bad.py:",
        "    1 × PAL001 (kernel-returns-value)",
        f"- {pathlib.Path('pkg/dup.py')}:",
        "    1 × PAL002 (duplicate-ref-argument)",
        f"- {pathlib.Path('pkg/more.py')}:",
        "    1 × PAL001 (kernel-returns-value)",
        "",
        "Found 3 errors (3 fixed, 0 remaining).",
    ]


def test_show_fixes_with_stdin_goes_to_stderr(run, tmp_path):
    _status, out, err = run(
        "check",
        "--isolated",
        "--no-cache",
        "--fix",
        "--show-fixes",
        "-",
        "--stdin-filename",
        "k.py",
        stdin=PAL001_SRC.encode(),
    )
    assert "o_ref[...] = x_ref" in out and "Fixed 1 error:" in err and "- k.py:" in err


def test_without_show_fixes_fix_prints_only_the_summary(run, project):
    assert check(run, "--fix", "--unsafe-fixes") == "Found 2 errors (2 fixed, 0 remaining).\n"


def test_gitlab_report_is_valid_against_the_code_quality_format(run, project):
    write(project / "proto.ipynb", NOTEBOOK.read_bytes())
    issues = json.loads(check(run, "--output-format", "gitlab"))
    assert len(issues) == 3
    assert_valid(issues, "gitlab-code-quality.json")
    assert_valid([], "gitlab-code-quality.json")


# ------------------------------------------------------------------------------------ sarif
def test_sarif_is_valid_against_the_sarif_2_1_0_schema(run, project):
    write(project / "proto.ipynb", NOTEBOOK.read_bytes())
    log = json.loads(check(run, "--output-format", "sarif"))
    assert len(log["runs"][0]["results"]) == 3
    assert_valid(log, "sarif-2.1.0-rtm.5.json")
    write(project / "bad.py", CLEAN_SRC)
    write(project / "pkg" / "dup.py", CLEAN_SRC)
    (project / "proto.ipynb").unlink()
    assert_valid(json.loads(check(run, "--output-format", "sarif")), "sarif-2.1.0-rtm.5.json")  # no results


def test_sarif_help_uri_for_every_rule_and_pseudo_rule(run, project):
    from pallas_ls.config import known_codes

    rules = json.loads(check(run, "--output-format", "sarif"))["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == known_codes()
    repo = pathlib.Path(__file__).resolve().parent.parent
    for rule in rules:
        assert rule["helpUri"].endswith(f"/docs/rules/{rule['id']}.md")
        assert (repo / "docs" / "rules" / f"{rule['id']}.md").is_file()


# --------------------------------------------------------------------------------- configuration
def configured(root: pathlib.Path, table: str) -> None:
    write(root / "pyproject.toml", "[tool.pallas-ls]\n" + table)


def codes(run, *argv: str, **kw) -> list[tuple[str, str]]:
    status, out, err = run("check", "--no-cache", "--output-format", "json", *argv, **kw)
    assert status in (0, 1), err
    return [(pathlib.Path(f["filename"]).name, f["code"]) for f in json.loads(out)]


def test_per_file_ignores_from_pyproject(run, project):
    configured(project, '[tool.pallas-ls.per-file-ignores]\n"pkg/**" = ["PAL002"]\n"bad.py" = ["PAL0"]\n')
    assert codes(run) == []
    configured(project, '[tool.pallas-ls.per-file-ignores]\n"dup.py" = ["PAL002"]\n')  # a base name
    assert codes(run) == [("bad.py", "PAL001")]


def test_per_file_ignores_are_relative_to_the_config_file(run, project):
    configured(project, 'per-file-ignores = { "pkg/*.py" = ["PAL002"] }\n')
    assert codes(run, cwd=project / "pkg") == []  # run from below the root: the pattern still holds


def test_extend_select_extend_ignore_and_extend_exclude(run, project):
    configured(project, 'select = ["PAL003"]\nextend-select = ["PAL00"]\nextend-ignore = ["PAL002"]\n')
    assert codes(run) == [("bad.py", "PAL001")]
    configured(project, 'extend-exclude = ["pkg"]\n')
    assert codes(run) == [("bad.py", "PAL001")]
    assert codes(run, "--extend-exclude", "bad.py") == []
    both = codes(run, "--isolated", "--extend-select", "PAL001", "--select", "PAL002")
    assert both == [("bad.py", "PAL001"), ("dup.py", "PAL002")]


def test_config_key_value_overrides_the_file_and_repeats(run, project):
    configured(project, 'select = ["PAL002"]\n')
    assert codes(run, "--config", 'select = ["PAL001"]') == [("bad.py", "PAL001")]
    assert codes(run, "--config", "select = ['PAL001']", "--config", "select = ['PAL002']") == [("dup.py", "PAL002")]
    assert codes(run, "--config", 'per-file-ignores = { "bad.py" = ["PAL001"] }', "--config", "select=['PAL001']") == []
    assert codes(run, "--config", str(project / "pyproject.toml")) == [("dup.py", "PAL002")]


@pytest.mark.parametrize(
    "value, message",
    [
        ("select", "is neither a file nor a TOML `KEY = VALUE` pair"),
        ("nope = 1", "--config 'nope = 1': unknown setting `nope`"),
        ("select = ['PAL999']", "unknown rule code or prefix 'PAL999'"),
    ],
)
def test_config_errors_are_usage_errors(run, project, value, message):
    status, _, err = run("check", "--config", value)
    assert status == 2 and message in err and err.startswith("pallas-ls: error: ")


def test_show_files_lists_what_would_be_checked(run, project):
    configured(project, 'extend-exclude = ["ok.py"]\n')
    status, out, _ = run("check", "--show-files")
    assert status == 0
    assert out.splitlines() == sorted([str(project / "bad.py"), str(project / "pkg" / "dup.py")])


def test_show_settings_prints_the_resolved_table(run, project):
    configured(project, 'per-file-ignores = { "pkg/**" = ["PAL002"] }\n')
    status, out, _ = run("check", "--show-settings", "--config", "extend-select = ['PAL001']", "--ignore", "PAL006")
    assert status == 0
    assert f"Settings path: {json.dumps(str(project / 'pyproject.toml'))}" in out
    assert 'per-file-ignores = { "pkg/**" = ["PAL002"] }' in out.splitlines()
    assert 'extend-select = ["PAL001"]' in out.splitlines() and 'ignore = ["PAL006"]' in out.splitlines()


def test_junit_stays_parsable_with_control_characters(tmp_path):
    from pallas_ls.engine.findings import Finding
    from pallas_ls.engine.source import Range
    from pallas_ls.output import Report, junit

    odd = Finding("PAL001", "returns '\x01\x1b'", Range.of(0, 0, 0, 1), path=str(tmp_path / "k.py"))
    failure = ET.fromstring(junit.render(Report([odd], str(tmp_path)))).find("testsuite/testcase/failure")
    assert failure.get("message") == "returns '\ufffd\ufffd'"
