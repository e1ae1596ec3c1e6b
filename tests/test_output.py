"""Output formats on hand-made findings: shapes that the engine does not produce yet (fixes,
warnings, multi-line messages) and escaping rules."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from pallas_ls import cli
from pallas_ls.engine.findings import Applicability, Edit, Finding, Fix, Related, Severity
from pallas_ls.engine.source import Range
from pallas_ls.output import Report, display_path, github, jsonfmt, sarif, text
from pallas_ls.output.ruledoc import annotated_source, rule_markdown
from pallas_ls.rules import RULES
from pallas_ls.rules.base import Example


def finding(**kw) -> Finding:
    defaults = dict(code="PAL001", message="bad", range=Range.of(0, 4, 0, 10), path="/w/a.py")
    return Finding(**{**defaults, **kw})


def test_fix_json_uses_the_preferred_fix_in_ruff_shape():
    first = Fix("first", (Edit(Range.of(0, 0, 0, 1), "x"),), Applicability.SAFE)
    preferred = Fix(
        "use o_ref",
        (Edit(Range.of(2, 4, 2, 11), "o_ref[...] = "), Edit(Range.of(0, 0, 0, 0), "import x\n")),
        Applicability.UNSAFE,
        preferred=True,
    )
    data = jsonfmt.finding_json(finding(fixes=[first, preferred]))
    assert data["fix"] == {
        "applicability": "unsafe",
        "message": "use o_ref",
        "edits": [  # sorted by position, 1-based
            {"content": "import x\n", "location": {"row": 1, "column": 1}, "end_location": {"row": 1, "column": 1}},
            {"content": "o_ref[...] = ", "location": {"row": 3, "column": 5}, "end_location": {"row": 3, "column": 12}},
        ],
    }
    assert jsonfmt.finding_json(finding(fixes=[first]))["fix"]["message"] == "first"
    assert jsonfmt.finding_json(finding())["fix"] is None


def test_json_related_defaults_to_the_same_file():
    data = jsonfmt.finding_json(finding(related=[Related(None, Range.of(5, 0, 5, 3), "launched here")]))
    assert data["related"] == [
        {
            "filename": "/w/a.py",
            "message": "launched here",
            "location": {"row": 6, "column": 1},
            "end_location": {"row": 6, "column": 4},
        }
    ]


def test_github_escaping():
    assert github.escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert github.escape_property("a:b,c%") == "a%3Ab%2Cc%25"
    line = github.annotation(finding(message="line one\nline two 100%", path="/w/we,ird:name.py"), "/w")
    assert line == (
        "::error file=we%2Cird%3Aname.py,line=1,col=5,endLine=1,endColumn=11,title=pallas-ls (PAL001)::"
        "line one%0Aline two 100%25"
    )
    assert "\n" not in line


def test_github_levels():
    for severity, command in [
        (Severity.WARNING, "::warning "),
        (Severity.INFO, "::notice "),
        (Severity.HINT, "::notice "),
    ]:
        assert github.annotation(finding(severity=severity), "/w").startswith(command)


def test_text_keeps_one_line_per_finding():
    report = Report([finding(message="first\nsecond")], "/w")
    assert text.render(report) == "a.py:1:5: PAL001 first second\nFound 1 error.\n"


def test_summary_wording():
    assert text.summary([]) == "All checks passed!"
    assert text.summary([finding(), finding()]) == "Found 2 errors."
    assert text.summary([finding(), finding(severity=Severity.WARNING)]) == "Found 1 error and 1 warning."
    mixed = [
        finding(),
        finding(severity=Severity.WARNING),
        finding(severity=Severity.WARNING),
        finding(severity=Severity.HINT),
    ]
    assert text.summary(mixed) == "Found 1 error, 2 warnings and 1 hint."


def test_display_path():
    assert display_path("/w/pkg/a.py", "/w") == "pkg/a.py"
    assert display_path("/elsewhere/a.py", "/w") == "/elsewhere/a.py"
    assert display_path("/w2/a.py", "/w") == "/w2/a.py"  # a sibling that shares a prefix
    assert display_path(None, "/w") == "-"


def test_sarif_levels_and_stdin():
    report = Report([finding(severity=Severity.HINT, path=None)], "/w")
    [result] = sarif.sarif_log(report)["runs"][0]["results"]
    assert result["level"] == "note"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "-"}


def test_sarif_escapes_uri():
    loc = sarif.artifact_location("/w/my dir/a#1.py", "/w")
    assert loc == {"uri": "my%20dir/a%231.py", "uriBaseId": "%SRCROOT%"}


def test_annotated_source_marks_wide_characters_and_multiline_ranges():
    example = Example("x", "s = «'中文'»\nf(«a,\n  b»)\n", valid=False)
    assert annotated_source(example).split("\n") == [
        "1 | s = '中文'",
        "  |     ^^^^^^",
        "2 | f(a,",
        "  |   ^^",
        "3 |   b)",
        "  | ^^^",
    ]


def test_rule_markdown_has_every_example_without_markers():
    for rule in RULES.values():
        markdown = rule_markdown(rule)
        assert "«" not in markdown and "»" not in markdown
        assert all(example.name in markdown for example in rule.examples)
        assert rule.docs in markdown


# Characters that may sit in a one-line string literal: no quotes, backslashes, line breaks,
# control characters or surrogates.
_LITERAL_TEXT = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters='"\\\x85'), max_size=12
)


@settings(max_examples=examples(60), deadline=None)
@given(prefix=_LITERAL_TEXT, crlf=st.booleans(), bom=st.booleans())
def test_columns_are_characters_for_any_text(prefix, crlf, bom):
    line = f'    s = "{prefix}"; return x_ref[...] + 1'
    source = (
        "from jax.experimental import pallas as pl\n\n\ndef k(x_ref, o_ref):\n"
        f"{line}\n\n\npl.pallas_call(k, out_shape=None)\n"
    )
    if crlf:
        source = source.replace("\n", "\r\n")
    data = (b"\xef\xbb\xbf" if bom else b"") + source.encode("utf-8")
    result = cli._check_bytes(data, "/w/k.py")
    [data_json] = [jsonfmt.finding_json(f) for f in result.findings if f.code == "PAL001"]
    start = line.index("return") + 1
    assert (data_json["location"], data_json["end_location"]) == (
        {"row": 5, "column": start},
        {"row": 5, "column": len(line) + 1},
    )
    json.dumps(data_json)  # always serialisable


def test_json_says_display_only_and_never_shows_the_suppression():
    shown = Fix("Return None instead", (Edit(Range.of(0, 10, 0, 20), ""),), Applicability.DISPLAY_ONLY, preferred=True)
    noqa = Fix(
        "Disable PAL001 for this line",
        (Edit(Range.of(3, 20, 3, 20), "  # noqa: PAL001"),),
        Applicability.DISPLAY_ONLY,
        suppression=True,
    )
    data = jsonfmt.finding_json(finding(fixes=[shown, noqa]))
    assert data["fix"]["applicability"] == "display-only" and data["fix"]["message"] == "Return None instead"
    assert data["noqa_row"] == 4  # where the suppression puts its comment (past a multi-line string)
    assert jsonfmt.finding_json(finding(fixes=[noqa]))["fix"] is None


def test_sarif_results_carry_fixes_without_the_suppression():
    write = Fix(
        "Write the result to `o_ref`",
        (Edit(Range.of(2, 4, 2, 11), "o_ref[...] = "),),
        Applicability.SAFE,
        preferred=True,
    )
    noqa = Fix(
        "Disable PAL001 for this line",
        (Edit(Range.of(2, 20, 2, 20), "  # noqa: PAL001"),),
        Applicability.DISPLAY_ONLY,
        suppression=True,
    )
    [result] = sarif.sarif_log(Report([finding(fixes=[write, noqa])], "/w"))["runs"][0]["results"]
    assert result["fixes"] == [
        {
            "description": {"text": "Write the result to `o_ref`"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "a.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 12},
                            "insertedContent": {"text": "o_ref[...] = "},
                        }
                    ],
                }
            ],
            "properties": {"applicability": "safe", "preferred": True},
        }
    ]
    [bare] = sarif.sarif_log(Report([finding(fixes=[noqa])], "/w"))["runs"][0]["results"]
    assert "fixes" not in bare
