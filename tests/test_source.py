"""Parsing that survives real files: recovery, new syntax, encodings and positions."""

from __future__ import annotations

import pytest

from pallas_ls.engine.source import SourceFile, normalise_new_syntax
from pallas_ls.lint import analyze_source

KERNEL = "def k(x_ref, o_ref):\n    return x_ref[...]\npl.pallas_call(k, s)\n"
IMPORT = "from jax.experimental import pallas as pl\n"


def codes(text: str) -> list[str]:
    return [f.code for f in analyze_source(text, "t.py")]


def test_syntax_error_before_a_kernel_keeps_later_kernels():
    text = IMPORT + "def broken(:\n    pass\n" + KERNEL
    assert codes(text) == ["PAL000", "PAL001"]


def test_syntax_error_inside_a_method_keeps_the_rest_of_the_class():
    text = (
        IMPORT
        + "class T:\n    def a(self):\n        x = (1,\n    def b(self):\n        def k(x_ref, o_ref):\n            return 1\n        pl.pallas_call(k, s)\n"
    )
    assert codes(text).count("PAL001") == 1


def test_unclosed_bracket_at_end_of_file():
    text = IMPORT + KERNEL + "x = foo(\n"
    assert codes(text) == ["PAL001", "PAL000"]


@pytest.mark.parametrize(
    "text",
    [
        "type Alias = int\n",
        "type Pair[T] = tuple[T, T]\n",
        "def f[T](x: T) -> T:\n    return x\n",
        "class Box[T: (int, str)]:\n    pass\n",
        "def cast[\n    Q: (int, str), K: (int, str)\n](q: Q, k: K) -> Q:\n    return q\n",  # tokamax writes these
    ],
)
def test_new_syntax_is_analysed_on_every_interpreter(text):
    assert codes(IMPORT + text + KERNEL) == ["PAL001"]


def test_normalisation_keeps_positions():
    text = "def f[T](x):\n    pass\ntype X = int\n"
    out = normalise_new_syntax(text)
    assert len(out) == len(text) and out.splitlines()[0] == "def f   (x):"


def test_crlf_positions():
    text = (IMPORT + KERNEL).replace("\n", "\r\n")
    [finding] = analyze_source(text, "t.py")
    assert (finding.range.start.line, finding.range.start.column, finding.range.end.column) == (2, 4, 21)


def test_bom_positions():
    source = SourceFile.from_bytes(("\ufeff" + IMPORT + KERNEL).encode("utf-8"), "t.py")
    assert source.had_bom and not source.text.startswith("\ufeff")
    [finding] = analyze_source(source.text, "t.py")
    assert finding.range.start == (2, 4)


def test_columns_are_code_points_with_non_ascii_text():
    text = IMPORT + "def k(x_ref, o_ref):\n    é = '😀漢'; return é + '😀'\npl.pallas_call(k, s)\n"
    [finding] = analyze_source(text, "t.py")
    line = text.splitlines()[2]
    assert finding.range.start.column == line.index("return")
    assert finding.range.end.column == len(line)


def test_non_utf8_bytes_raise_decode_error():
    with pytest.raises(UnicodeDecodeError):
        SourceFile.from_bytes(b"\xff\xfe\x00x", "t.py")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n",
        "\x00",
        "(" * 3000 + ")" * 3000,
        "x = " + "[" * 3000 + "]" * 3000 + "\n",
        "".join("    " * i + f"def f{i}():\n" for i in range(150)) + "    " * 150 + "pass\n",
    ],
)
def test_hostile_input_does_not_raise(text):
    analyze_source(IMPORT + text, "t.py")


# ------------------------------------------------------------------ recovery that stays local
# A file of many functions with docstrings of both shapes, a decorated def and a kernel at the end.
FUNCTION = '''\
def f{n}(x):
    """Lowers thing {n}.

    More words.
    """
    y = x + {n}
    return y


@register
def g{n}(x):
    """
    Opener alone on its line.
    """
    return x


'''
BIG = IMPORT + "".join(FUNCTION.format(n=n) for n in range(60)) + KERNEL


def parsed_lines(monkeypatch, text: str) -> tuple[list[str], int]:
    """The codes an open document shows after editing BIG into `text`, and how many lines the
    parser was given for that edit (padding not counted)."""
    from pallas_ls.engine import source
    from pallas_ls.engine.incremental import IncrementalDocument
    from pallas_ls.lint import run_rules

    document = IncrementalDocument()
    document.analyze(SourceFile.from_text(BIG, "t.py"))
    counted = []
    real = source._try_parse

    def counting(text):
        counted.append(text.lstrip("\n").count("\n"))
        return real(text)

    monkeypatch.setattr(source, "_try_parse", counting)
    found = [f.code for f in run_rules(document.analyze(SourceFile.from_text(text, "t.py")))]
    return found, sum(counted)


@pytest.mark.parametrize(
    "edit",
    [
        ("y = x + 3\n", "y = x + 3(\n"),  # an unclosed bracket at the end of a line
        ("y = x + 3\n", "y = foo(x,\n"),
        ("y = x + 3\n", 'y = x + 3 """\n'),  # a string left open, closed by the next docstring's quote
        ("y = x + 3\n", 'y = """\n'),  # ... where the statement could go on after the string
        ("    y = x + 3\n", "     y = x + 3\n"),  # a stray indent
        ("y = x + 3\n", "y = x + \\\n"),  # a backslash at the end of the line
    ],
)
def test_an_error_costs_its_own_block_not_the_rest_of_the_file(monkeypatch, edit):
    old, new = edit
    text = BIG.replace(old, new, 1)
    assert text != BIG
    found, lines = parsed_lines(monkeypatch, text)
    # The blocks after the error keep their findings: the kernel at the very end.
    assert found == ["PAL000", "PAL001"]
    # A few blocks of ~10 lines (the broken one, its repairs, a look past a string), never the
    # 1000 lines after it.
    assert lines < 120
    # The same findings from a fresh parse (which first tries the whole file).
    assert codes(text) == ["PAL000", "PAL001"]


@pytest.mark.parametrize(
    "text",
    [
        'T = """\ndef a():\n    pass\n"""\n',  # a template holding a def in column 0
        'T = """\ndef a():\n""" + """\nclass B:\n"""\n',  # two of them, one statement
        'T = foo("""\ndef a():\n""",\nb)\n',  # a call going on after the string
        'T = """\n@d\ndef a():\n""".strip()\n',
        "T = '''\nimport os\n''' if x else '''\nreturn 1\n'''\n",
        'def f():\n    s = """\ndef a():\n"""\n    return s\n',
        "T = \\\nimport_me\n",
    ],
)
def test_constructs_over_column_zero_statements_still_parse(text):
    from pallas_ls.engine.source import parse_blocks

    text = IMPORT + text + KERNEL
    blocks = parse_blocks(text)
    assert all(block.problem is None for _, block in blocks)
    import ast

    expected = ast.dump(ast.parse(text))
    assert ast.dump(ast.Module(body=[s for _, b in blocks for s in b.stmts], type_ignores=[])) == expected
    assert codes(text) == ["PAL001"]


def test_a_string_that_never_closes_is_the_error_of_its_block():
    text = IMPORT + 'def broken():\n    x = """\n' + KERNEL.replace("def k", "\ndef k")
    assert codes(text) == ["PAL000", "PAL001"]


# A kernel whose multi-line call is where typing goes wrong; its return value is written last.
TYPED_IN = (
    IMPORT
    + """\
def k(x_ref, o_ref):
    y = pl.dot(
        x_ref[...],
        x_ref[...],
    )
    z = 1
    return y


def launch(s):
    return pl.pallas_call(k, s)
"""
)


def repair_parses(monkeypatch, text: str) -> tuple[list, int]:
    """The statements `k` keeps after `parse_blocks` repairs `text`, and how many parses it took."""
    import ast

    from pallas_ls.engine import source

    count = []
    real = source._try_parse
    monkeypatch.setattr(source, "_try_parse", lambda t: count.append(1) or real(t))
    blocks = source.parse_blocks(text)
    kernel = next(s for _, b in blocks for s in b.stmts if isinstance(s, ast.FunctionDef))
    return [type(s).__name__ for s in kernel.body], len(count)


@pytest.mark.parametrize(
    "old, new",
    [
        ("    )\n", '    ) """\n'),  # a string left open after a call's `)`
        ("    )\n", "    )(\n"),  # a bracket typed at the end of that line
        ("    z = 1\n", "     z = 1\n"),  # a space typed at column 0 ...
        ("    z = 1\n", "   z = 1\n"),  # ... or deleted there
    ],
)
def test_typing_errors_are_repaired_in_one_parse_keeping_the_statement(monkeypatch, old, new):
    """The repair undoes what was typed (the line before the quote or bracket, the indentation
    it left), so the kernel keeps every statement, its PAL001 included, for one parse of the
    block beyond the one that failed; blanking the line instead unclosed the call and cost a
    parse per line of it."""
    text = TYPED_IN.replace(old, new, 1)
    assert text != TYPED_IN
    kept, parses = repair_parses(monkeypatch, text)
    assert kept == ["Assign", "Assign", "Return"]
    assert parses == repair_parses(monkeypatch, TYPED_IN)[1] + 1
    assert codes(text) == ["PAL000", "PAL001"]


def test_a_body_under_a_blanked_header_goes_with_it():
    """A def header that cannot be repaired is blanked, and its body with it: moving the body
    up a level would put the nested def's `return 1` in the kernel (a false PAL001)."""
    text = (
        IMPORT
        + "def k(x_ref, o_ref):\n    def helper(:\n        return 1\n    o_ref[...] = x_ref[...]\npl.pallas_call(k, s)\n"
    )
    assert codes(text) == ["PAL000"]
