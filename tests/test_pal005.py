"""PAL005 generator-or-async-kernel beyond the rule's examples."""

from __future__ import annotations

import textwrap

import pytest

from pallas_ls.lint import analyze_source

HEADER = """\
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
"""


def findings(code: str) -> list[tuple[str, str]]:
    text = HEADER + textwrap.dedent(code)
    lines = text.splitlines()
    return [
        (f.code, lines[f.range.start.line][f.range.start.column : f.range.end.column])
        for f in analyze_source(text, "t.py")
        if f.code in ("PAL005", "PAL001")
    ]


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def k(x_ref, o_ref):\n    yield\npl.pallas_call(k, out_shape=s)(x)\n", [("PAL005", "def k")]),
        (
            "def k(x_ref, o_ref):\n    x = yield 1\n    return x\npl.pallas_call(k, out_shape=s)(x)\n",
            [("PAL005", "def k")],
        ),
        ("async def k(x_ref, o_ref):\n    return 1\npl.pallas_call(k, out_shape=s)(x)\n", [("PAL005", "async def k")]),
        ("@pl.core_map(mesh)\ndef _():\n    yield from range(2)\n", [("PAL005", "def _")]),
        (
            "def f(m):\n    def k(x_ref, o_ref):\n        yield\n    return k\npl.kernel(f(1), mesh=mesh)(x)\n",
            [("PAL005", "def k")],
        ),
    ],
    ids=["yield", "yield-expression-with-return", "async", "core-map", "factory"],
)
def test_reported_once_and_not_as_pal001(code, expected):
    assert findings(code) == expected


@pytest.mark.parametrize(
    "code",
    [
        "def k(x_ref, o_ref):\n    def g():\n        yield 1\n    o_ref[...] = sum(g())\npl.pallas_call(k, out_shape=s)(x)\n",
        "def k(x_ref, o_ref):\n    o_ref[...] = sum(i for i in range(3))\npl.pallas_call(k, out_shape=s)(x)\n",
        "async def helper():\n    pass\ndef k(x_ref, o_ref):\n    o_ref[...] = 1\npl.pallas_call(k, out_shape=s)(x)\n",
        "def gen(x_ref, o_ref):\n    yield\n",
    ],
    ids=["nested-generator", "generator-expression", "async-helper", "not-a-kernel"],
)
def test_silent(code):
    assert findings(code) == []


def test_one_finding_for_a_kernel_launched_twice():
    code = "def k(x_ref, o_ref):\n    yield\npl.pallas_call(k, out_shape=s)(x)\npl.pallas_call(k, out_shape=s)(y)\n"
    [finding] = [f for f in analyze_source(HEADER + code, "t.py") if f.code == "PAL005"]
    assert len(finding.related) == 2
    assert "`k`" in finding.message and "no len()" in finding.message
