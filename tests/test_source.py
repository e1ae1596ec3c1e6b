"""Parsing that survives real files: recovery, new syntax, encodings and positions."""

from __future__ import annotations

import pytest

from pallas_ls.engine.analysis import analyze_source
from pallas_ls.engine.source import SourceFile, normalise_new_syntax

KERNEL = "def k(x_ref, o_ref):\n    return x_ref[...]\npl.pallas_call(k, s)\n"
IMPORT = "from jax.experimental import pallas as pl\n"


def codes(text: str) -> list[str]:
    return [f.code for f in analyze_source(text, "t.py")]


def test_syntax_error_before_a_kernel_keeps_later_kernels():
    text = IMPORT + "def broken(:\n    pass\n" + KERNEL
    assert codes(text) == ["PAL000", "PAL001"]


def test_syntax_error_inside_a_method_keeps_the_rest_of_the_class():
    text = IMPORT + "class T:\n    def a(self):\n        x = (1,\n    def b(self):\n        def k(x_ref, o_ref):\n            return 1\n        pl.pallas_call(k, s)\n"
    assert codes(text).count("PAL001") == 1


def test_unclosed_bracket_at_end_of_file():
    text = IMPORT + KERNEL + "x = foo(\n"
    assert codes(text) == ["PAL001", "PAL000"]


@pytest.mark.parametrize("text", [
    "type Alias = int\n",
    "type Pair[T] = tuple[T, T]\n",
    "def f[T](x: T) -> T:\n    return x\n",
    "class Box[T: (int, str)]:\n    pass\n",
])
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


@pytest.mark.parametrize("text", ["", "\n", "\x00", "(" * 3000 + ")" * 3000, "x = " + "[" * 3000 + "]" * 3000 + "\n",
                                  "".join("    " * i + f"def f{i}():\n" for i in range(150)) + "    " * 150 + "pass\n"])
def test_hostile_input_does_not_raise(text):
    analyze_source(IMPORT + text, "t.py")
