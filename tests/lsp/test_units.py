"""Unit tests of the server's pure parts: columns, document sync, conversion, edits, settings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from lsp_harness import apply_text_edits
from lsprotocol import types

from pallas_ls.engine.edits import apply_fixes
from pallas_ls.engine.findings import Applicability, Edit, Finding, Fix, Related, Severity
from pallas_ls.engine.noqa import noqa_edit, noqa_line_edit
from pallas_ls.engine.source import Range, SourceFile
from pallas_ls.lsp import actions, fixes
from pallas_ls.lsp.convert import (
    ClientFeatures,
    LineSource,
    diagnostic_from_json,
    finding_json,
    publish_diagnostics_body,
)
from pallas_ls.lsp.documents import Document
from pallas_ls.lsp.positions import from_client_column, to_client_column, units
from pallas_ls.lsp.settings import parse_editor_settings

LINE = 'a = "é😀中"  # x'


def independent_units(text: str, encoding: str) -> int:
    codec, width = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}[encoding]
    return len(text.encode(codec)) // width


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_columns_both_ways(encoding):
    columns = [independent_units(LINE[:i], encoding) for i in range(len(LINE) + 1)]
    assert [to_client_column(LINE, i, encoding) for i in range(len(LINE) + 1)] == columns
    assert [from_client_column(LINE, c, encoding) for c in columns] == list(range(len(LINE) + 1))
    assert units(LINE, encoding) == columns[-1]
    if encoding != "utf-32":
        assert columns[-1] > len(LINE)  # the line really has multi-unit characters


def test_columns_inside_a_character_and_past_the_end():
    # Half of the emoji's surrogate pair, the middle of é's UTF-8 bytes: the character's end.
    assert from_client_column(LINE, 7, "utf-16") == 7
    assert from_client_column(LINE, 6, "utf-8") == 6
    assert from_client_column(LINE, 500, "utf-16") == len(LINE)
    assert to_client_column(LINE, 500, "utf-8") == units(LINE, "utf-8")


def test_document_lines_follow_lsp_not_splitlines():
    # Form feed and U+2028 are not line breaks in LSP; \r, \n and \r\n are.
    document = Document("file:///t.py", "a\x0cb\u2028c\r\nd\re\nf")
    assert [document.line(i) for i in range(document.line_count)] == ["a\x0cb\u2028c", "d", "e", "f"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_incremental_changes(encoding):
    document = Document("file:///t.py", "x = '😀'\r\ny = 2\n")
    end_of_emoji = units("x = '😀", encoding)
    changes = [
        types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=0, character=end_of_emoji), end=types.Position(line=1, character=1)
            ),
            text="'\nz",
        ),
        types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=5, character=0), end=types.Position(line=5, character=0)),
            text="# end\n",
        ),
    ]
    document.apply_changes(changes, encoding)
    assert document.text == "x = '😀'\nz = 2\n# end\n"
    document.apply_changes([types.TextDocumentContentChangeWholeDocument(text="new")], encoding)
    assert document.text == "new" and document.line_count == 1


@given(st.text(alphabet=st.sampled_from("ab é😀中\n\r\t#"), max_size=40), st.data())
def test_incremental_change_matches_a_plain_splice(text, data):
    """Any edit expressed in client units lands where an independent implementation puts it."""
    encoding = data.draw(st.sampled_from(["utf-8", "utf-16", "utf-32"]))
    document = Document("file:///t.py", text)
    lines = document.line_count
    start_line = data.draw(st.integers(0, lines - 1))
    end_line = data.draw(st.integers(start_line, lines - 1))
    start_col = data.draw(st.integers(0, units(document.line(start_line), encoding)))
    end_col = data.draw(st.integers(0, units(document.line(end_line), encoding)))
    if end_line == start_line and end_col < start_col:
        start_col, end_col = end_col, start_col
    # Only positions on character boundaries (what a conforming client sends).
    for line, col in ((start_line, start_col), (end_line, end_col)):
        content = document.line(line)
        if to_client_column(content, from_client_column(content, col, encoding), encoding) != col:
            return
    rng = types.Range(
        start=types.Position(line=start_line, character=start_col), end=types.Position(line=end_line, character=end_col)
    )
    if "\r" in text:
        return  # the independent implementation splits with str.splitlines (\r alone differs)
    expected = apply_text_edits(text, [types.TextEdit(range=rng, new_text="<>")], encoding)
    document.apply_changes([types.TextDocumentContentChangePartial(range=rng, text="<>")], encoding)
    assert document.text == expected


def test_finding_json_carries_fixes_and_related():
    source = SourceFile.from_text("\ufeffé = 1; return 😀\nz = 2\n", "/w/k.py")
    finding = Finding(
        "PAL001",
        "msg",
        Range.of(0, 7, 0, 15),
        "/w/k.py",
        Severity.ERROR,
        related=[Related("/w/k.py", Range.of(1, 0, 1, 1), "here")],
        fixes=[Fix("Do it", (Edit(Range.of(0, 7, 0, 13), "x"),), Applicability.SAFE, True)],
    )
    lines = LineSource(source)
    diagnostic = diagnostic_from_json(
        finding_json(
            finding,
            lines,
            "utf-16",
            uri="file:///w/k.py",
            version=7,
            severity=Severity.WARNING,
            related_uri=lambda p: "file:///w/k.py",
            related_lines=lambda p: lines,
        )
    )
    # The BOM is one UTF-16 unit of line 0 in the client's text; the emoji two.
    assert diagnostic.range == types.Range(
        start=types.Position(line=0, character=8), end=types.Position(line=0, character=17)
    )
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert diagnostic.data == {
        "version": 7,
        "fixes": [
            {
                "title": "Do it",
                "applicability": "safe",
                "preferred": True,
                "suppression": False,
                "edits": [
                    {
                        "range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 14}},
                        "newText": "x",
                    }
                ],
            }
        ],
    }
    assert diagnostic.related_information[0].location.range.start == types.Position(line=1, character=0)


def _json_of_every_rule_example(encoding: str, features: ClientFeatures) -> list[dict]:
    from pallas_ls.lint import analyze_source
    from pallas_ls.rules import RULES

    diagnostics = []
    for rule in RULES.values():
        for example in rule.examples:
            lines = LineSource(SourceFile.from_text(example.source, "/w/k.py"))
            for finding in analyze_source(example.source, "/w/k.py"):
                diagnostics.append(
                    finding_json(
                        finding,
                        lines,
                        encoding,
                        uri="file:///w/k.py",
                        version=3,
                        severity=finding.severity,
                        related_uri=lambda p: "file:///w/other.py",
                        related_lines=lambda p, lines=lines: lines,
                        features=features,
                    )
                )
    return diagnostics


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("features", [ClientFeatures(), ClientFeatures(related_information=False)])
def test_published_json_is_what_pygls_would_send(encoding, features):
    """The JSON we write by hand is valid LSP as lsprotocol defines it: pygls structures it into a
    Diagnostic and back to the very same JSON (a misspelt key or a wrong type would not survive),
    on every diagnostic the rules make; and the notification is the one pygls would send."""
    from pygls.protocol import default_converter

    diagnostics = _json_of_every_rule_example(encoding, features)
    assert len({d["code"] for d in diagnostics}) >= 7  # every rule took part
    assert any("relatedInformation" in d for d in diagnostics) == features.related_information
    assert all("codeDescription" in d and d["data"]["fixes"] is not None for d in diagnostics)
    converter = default_converter()
    objects = [diagnostic_from_json(d) for d in diagnostics]
    assert [converter.unstructure(o) for o in objects] == diagnostics
    for version in (None, 5):
        expected = converter.unstructure(
            types.PublishDiagnosticsNotification(
                params=types.PublishDiagnosticsParams(uri="file:///w/k.py", version=version, diagnostics=objects)
            )
        )
        assert json.loads(publish_diagnostics_body("file:///w/k.py", version, json.dumps(diagnostics))) == expected


@pytest.mark.parametrize(
    "line, expected",
    [
        ("    return x", "    return x  # noqa: PAL001"),
        ("    return x   ", "    return x  # noqa: PAL001"),
        ("    return x  # noqa: PAL002", "    return x  # noqa: PAL002, PAL001"),
        ("    return x  # noqa:PAL002,PAL003  trailing", "    return x  # noqa:PAL002,PAL003, PAL001  trailing"),
        ("    return x  # a comment", "    return x  # a comment  # noqa: PAL001"),
        ("    return x  # noqa", None),  # already silenced
        ("    return x  # noqa: PAL001", None),
        ("    return x + \\", None),  # a comment after a continuation would not parse
    ],
)
def test_noqa_edit(line, expected):
    edit = noqa_line_edit(line, "PAL001")
    if expected is None:
        assert edit is None
    else:
        start, end, text = edit
        assert line[:start] + text + line[end:] == expected


def test_noqa_never_inside_a_multiline_string():
    source = SourceFile.from_text('def k(o_ref):\n    return """a\nb"""\n')
    edit = noqa_edit(source, 1, "PAL001")  # goes where the string ends
    assert edit is not None and edit.range.start.line == 2


@pytest.mark.parametrize(
    "old, new",
    [("a\r\nb\r\n", "a\r\nc\r\nb\r\n"), ("abc", "abXc"), ("same", "same"), ("x\r\ny", "x\ny"), ("", "new")],
)
def test_minimal_edit_reproduces_the_new_text(old, new):
    source = SourceFile.from_text(old)
    edit = fixes.minimal_edit(LineSource(source), old, new, "utf-16")
    assert apply_text_edits(old, [edit], "utf-16") == new
    # A CRLF pair is never split by the edit's range.
    for position in (edit.range.start, edit.range.end):
        offset = sum(len(line) for line in old.splitlines(keepends=True)[: position.line]) + position.character
        assert not (0 < offset < len(old) and old[offset - 1] == "\r" and old[offset] == "\n")


def test_apply_fixes_skips_overlaps():
    source = SourceFile.from_text("abcdef")
    first = Fix("1", (Edit(Range.of(0, 0, 0, 3), "X"),))
    overlapping = Fix("2", (Edit(Range.of(0, 2, 0, 4), "Y"),))
    later = Fix("3", (Edit(Range.of(0, 4, 0, 6), "Z"),))
    assert apply_fixes(source, [first, overlapping, later]) == ("XdZ", 2)
    # A fix whose own edits overlap is left out too.
    self_overlapping = Fix("4", (Edit(Range.of(0, 0, 0, 2), "P"), Edit(Range.of(0, 1, 0, 3), "Q")))
    assert apply_fixes(source, [self_overlapping, later]) == ("abcdZ", 1)


def test_kind_requested():
    assert actions.kind_requested("source.fixAll.pallas-ls", ["source"])
    assert actions.kind_requested("source.fixAll.pallas-ls", ["source.fixAll"])
    assert not actions.kind_requested("source.fixAll.pallas-ls", ["source.organizeImports"])
    assert not actions.kind_requested("quickfix", ["source"])
    assert actions.kind_requested("quickfix", None)


def test_editor_settings_layers_and_warnings():
    settings, warnings = parse_editor_settings(
        {"debounce": 10, "severity": {"PAL001": "warning"}},
        {"pallas-ls": {"showSyntaxErrors": True, "interpreter": "/x", "select": None, "ignore": "PAL002"}},
    )
    assert warnings == []
    assert settings.debounce_ms == 10 and settings.show_syntax_errors
    assert settings.overrides["ignore"] == ("PAL002",) and "select" not in settings.overrides
    _, warnings = parse_editor_settings(["not", "a", "table"], {"debounce": "soon", "colour": "red"})
    assert len(warnings) == 3 and any("colour" in w for w in warnings)


def test_exclusion_covers_directories_above_the_file(tmp_path):
    from pallas_ls.config import Settings
    from pallas_ls.discovery import ExcludePattern
    from pallas_ls.lsp.settings import EffectiveSettings

    root = str(tmp_path)
    settings = EffectiveSettings(Settings(), (ExcludePattern("generated", root), ExcludePattern("a/b/*.py", root)))
    assert settings.is_excluded(f"{root}/generated/x/k.py")
    assert settings.is_excluded(f"{root}/a/b/c.py")
    assert not settings.is_excluded(f"{root}/a/b/c/d.py")
    assert not settings.is_excluded(f"{root}/k.py")
    # Directories above the pattern's base do not count.
    inner = EffectiveSettings(Settings(), (ExcludePattern(tmp_path.name, f"{root}/sub"),))
    assert not inner.is_excluded(f"{root}/sub/k.py")


# ------------------------------------------------------------- hand-structured notifications
_POSITION = st.fixed_dictionaries({"line": st.integers(0, 10**6), "character": st.integers(0, 10**6)})
_CHANGE = st.one_of(
    st.fixed_dictionaries({"text": st.text(max_size=5)}),
    st.fixed_dictionaries(
        {"range": st.fixed_dictionaries({"start": _POSITION, "end": _POSITION}), "text": st.text(max_size=5)},
        optional={"rangeLength": st.integers(0, 100)},
    ),
)
_NOTIFICATIONS = {
    types.TEXT_DOCUMENT_DID_OPEN: st.fixed_dictionaries(
        {
            "textDocument": st.fixed_dictionaries(
                {
                    "uri": st.text(max_size=10),
                    "languageId": st.sampled_from(["python", "x"]),
                    "version": st.integers(-5, 10**9),
                    "text": st.text(max_size=20),
                }
            )
        }
    ),
    types.TEXT_DOCUMENT_DID_CHANGE: st.fixed_dictionaries(
        {
            "textDocument": st.fixed_dictionaries({"uri": st.text(max_size=10), "version": st.integers(0, 10**9)}),
            "contentChanges": st.lists(_CHANGE, max_size=3),
        }
    ),
    types.TEXT_DOCUMENT_DID_CLOSE: st.fixed_dictionaries(
        {"textDocument": st.fixed_dictionaries({"uri": st.text(max_size=10)})}
    ),
}
_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "textDocument",
                    "uri",
                    "version",
                    "text",
                    "languageId",
                    "contentChanges",
                    "range",
                    "start",
                    "end",
                    "line",
                    "character",
                    "rangeLength",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def _cattrs_params(method: str, params):
    from pygls.protocol import default_converter

    message_type = {
        types.TEXT_DOCUMENT_DID_OPEN: types.DidOpenTextDocumentNotification,
        types.TEXT_DOCUMENT_DID_CHANGE: types.DidChangeTextDocumentNotification,
        types.TEXT_DOCUMENT_DID_CLOSE: types.DidCloseTextDocumentNotification,
    }[method]
    return default_converter().structure({"jsonrpc": "2.0", "method": method, "params": params}, message_type).params


@pytest.mark.parametrize("method", sorted(_NOTIFICATIONS))
@hypothesis_settings(deadline=None)  # what is tested is equality; on a shared machine one example took 255 ms
@given(data=st.data())
def test_hand_structured_params_equal_pygls_ones(method, data):
    from pallas_ls.lsp.params import STRUCTURE

    params = data.draw(_NOTIFICATIONS[method])
    assert STRUCTURE[method](params) == _cattrs_params(method, params)


@pytest.mark.parametrize("method", sorted(_NOTIFICATIONS))
@given(junk=_JUNK)
def test_odd_params_are_left_to_pygls(method, junk):
    """Whatever the hand-written path accepts, pygls structures to the same thing; the rest it
    returns None for (the generic path then answers as before)."""
    from pallas_ls.lsp.params import STRUCTURE

    ours = STRUCTURE[method](junk)
    if ours is not None:
        assert ours == _cattrs_params(method, junk)


def test_the_store_keeps_the_open_text_of_each_file():
    from pallas_ls.lsp.documents import DocumentStore

    store = DocumentStore()
    item = types.TextDocumentItem(uri="file:///w/a.py", language_id="python", version=1, text="a = 1\n")
    store.open(item)
    store.open(types.TextDocumentItem(uri="untitled:1", language_id="python", version=1, text="x"))  # no file
    store.change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=item.uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="a = 2\n")],
        ),
        "utf-16",
    )
    assert store.texts_by_path() == {"/w/a.py": "a = 2\n"}
    store.open(types.TextDocumentItem(uri="file:///w/%61.py", language_id="python", version=1, text="other\n"))
    assert store.texts_by_path() == {"/w/a.py": "other\n"}  # the same file under another URI
    store.close("file:///w/%61.py")
    assert store.texts_by_path() == {"/w/a.py": "a = 2\n"}
    store.close(item.uri)
    assert store.texts_by_path() == {}


def test_the_server_applies_per_file_ignores_by_the_finding_path():
    from pallas_ls.config import Settings
    from pallas_ls.lsp.convert import visible_findings
    from pallas_ls.lsp.settings import EffectiveSettings

    rules, warnings = Settings.from_mapping({"per-file-ignores": {"tests/**": ["PAL001"]}}, root="/w")
    settings = EffectiveSettings(rules)
    assert warnings == [] and not settings.is_enabled("PAL001", "/w/tests/k.py")
    findings = [Finding("PAL001", "m", Range.of(0, 0, 0, 1), path) for path in ("/w/tests/k.py", "/w/src/k.py")]
    assert [f.path for f in visible_findings(findings, settings)] == ["/w/src/k.py"]
