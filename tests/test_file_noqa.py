"""File-level suppression: `# pallas-ls: noqa[: CODES]` on a line of its own (engine/noqa.py)."""

from __future__ import annotations

import pathlib

import pytest

from pallas_ls.engine.noqa import noqa_line
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import analyze_source

KERNEL = """import jax
from jax.experimental import pallas as pl
{header}

def kernel(x_ref, o_ref):
    return x_ref[...] * 2


def f(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""


def codes(header: str) -> list[str]:
    return [finding.code for finding in analyze_source(KERNEL.format(header=header), "kern.py")]


def test_without_a_file_noqa_the_finding_is_reported():
    assert codes("# an ordinary comment") == ["PAL001"]


@pytest.mark.parametrize(
    "header",
    [
        "# pallas-ls: noqa",
        "# pallas-ls: noqa: PAL001",
        "#pallas-ls:noqa:PAL001,PAL002",
        "    # PALLAS-LS: NOQA: pal001",
        "# ruff: noqa: PAL001",
        "# flake8: noqa: E501, PAL001",
    ],
)
def test_file_noqa_silences(header):
    assert codes(header) == []


@pytest.mark.parametrize(
    "header",
    [
        "# pallas-ls: noqa: PAL002",  # another code
        "# ruff: noqa",  # addressed to ruff
        "# flake8: noqa",
        "# ruff: noqa: E501",
        "x = 1  # pallas-ls: noqa",  # not on a line of its own
        '"""\n# pallas-ls: noqa\n"""',  # text inside a string
        "# pallas-ls: noqa: PAL001 because",  # not a noqa comment
    ],
)
def test_not_a_file_noqa_for_this_finding(header):
    assert codes(header) == ["PAL001"]


def _whole_tree_continuations(source) -> dict[int, int]:
    """The reference: every line's continuation, from one walk of the whole tree."""
    import ast

    out: dict[int, int] = {}
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Constant) and not isinstance(node.value, (str, bytes)):
            continue
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and (node.end_lineno or node.lineno) > node.lineno:
            for inside in range(node.lineno - 1, node.end_lineno - 1):
                out.setdefault(inside, node.end_lineno - 1)
    for index in range(len(source.line_starts) - 1):
        if index not in out and source.line_text(index).rstrip().endswith("\\") and "#" not in source.line_text(index):
            out[index] = index + 1
    return out


CONTINUED = '''x = 1; y = """a
b"""; z = """c
d"""
@deco("""e
f""")
def k(o_ref):
    s = f"""{o_ref}
    {1 + \\
    2}"""
    t = 1 + \\
        2
    return """g
h"""  # noqa: PAL001
broken = (
'''


@pytest.mark.parametrize(
    "text",
    [
        CONTINUED,
        KERNEL.format(header='"""doc\n# pallas-ls: noqa\n"""'),
        *[p.read_text() for p in sorted(pathlib.Path(__file__).parent.glob("holdout/cases/*.py"))][:60],
    ],
)
def test_noqa_lines_as_a_walk_of_the_whole_tree_finds_them(text):
    """The noqa line of every line, found by walking only the statement that holds it, is the
    one a walk of the whole tree gives (the per-statement lookup is what keeps an edit cheap)."""
    source = SourceFile.from_text(text)
    reference = _whole_tree_continuations(source)
    for line in range(len(source.lines)):
        expected, seen = line, 0
        while expected in reference and seen < 10_000:
            expected, seen = reference[expected], seen + 1
        assert noqa_line(source, line) == expected, line
