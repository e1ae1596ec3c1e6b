"""PAL007 when-body-returns-value beyond the rule's examples."""

from __future__ import annotations

import textwrap

import pytest

from pallas_ls.lint import analyze_source

HEADER = """\
import functools
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def store(o_ref):
    o_ref[...] = 0

def value(o_ref):
    return o_ref[...]

"""


def pal007(body: str) -> list[str]:
    text = HEADER + "def k(x_ref, o_ref):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    text += "pl.pallas_call(k, out_shape=s)(x)\n"
    lines = text.splitlines()
    return [
        lines[f.range.start.line][f.range.start.column : f.range.end.column]
        for f in analyze_source(text, "t.py")
        if f.code == "PAL007"
    ]


REPORTED = {
    "decorated": ("@pl.when(pl.program_id(0) == 0)\ndef _():\n    return 1\n", ["return 1"]),
    "applied-name": (
        "def inc():\n    return o_ref[...] + 1\npl.when(pl.program_id(0) == 0)(inc)\n",
        ["return o_ref[...] + 1"],
    ),
    "applied-lambda": ("pl.when(pl.program_id(0) == 0)(lambda: x_ref[...])\n", ["x_ref[...]"]),
    "applied-partial": ("pl.when(pl.program_id(0) == 0)(functools.partial(value, o_ref))\n", ["return o_ref[...]"]),
    "helper-value": ("@pl.when(pl.program_id(0) == 0)\ndef _():\n    return value(o_ref)\n", ["return value(o_ref)"]),
    "every-value-return": (
        "@pl.when(pl.program_id(0) == 0)\ndef _():\n    if d:\n        return 0\n    return []\n",
        ["return 0", "return []"],
    ),
    "traced-looking-constant": ("@pl.when(1)\ndef _():\n    return 1\n", ["return 1"]),
    "ref-value-condition": ("@pl.when((x_ref[0, 0] > 0) & (o_ref[0, 0] < 1))\ndef _():\n    return 1\n", ["return 1"]),
    "decorator-made-by-a-helper": (
        "first_step = lambda: pl.when(pl.program_id(0) == 0)\n@first_step()\ndef _():\n    return 1\n",
        ["return 1"],
    ),
    "local-traced-condition": (
        "first = pl.program_id(0) == 0\n@pl.when(first)\ndef _():\n    return 1\n",
        ["return 1"],
    ),
}

SILENT = {
    "no-return": "@pl.when(c)\ndef _():\n    o_ref[...] = 1\n",
    "none-returns": "@pl.when(c)\ndef _():\n    if d:\n        return\n    return None\n",
    "none-helper": "@pl.when(c)\ndef _():\n    return store(o_ref)\n",
    "none-apis": "@pl.when(c)\ndef _():\n    return pltpu.sync_copy(x_ref, o_ref)\n",
    "unknown-call": "@pl.when(c)\ndef _():\n    return mystery(o_ref)\n",
    "nested-def": "@pl.when(c)\ndef _():\n    def f(i, a):\n        return a + 1\n    o_ref[...] = jax.lax.fori_loop(0, 2, f, 0)\n",
    "python-bool-literal": "@pl.when(True)\ndef _():\n    return 1\n",
    # JAX runs a plain `if` for a Python bool: only a condition that is certainly traced is reported.
    "condition-of-unknown-kind": "@pl.when(c)\ndef _():\n    return 1\n",
    "static-shape-comparison": "@pl.when(x_ref.shape[0] > 4)\ndef _():\n    return 1\n",
    "lambda-returning-none": "pl.when(c)(lambda: o_ref.__setitem__(..., 1))\n",
    "loop-body-is-not-when": "@pl.loop(0, 4)\ndef _(i):\n    return None\n",
    "helper-decorator-not-when": "deco = lambda: functools.lru_cache\n@deco()\ndef _():\n    return 1\n",
    "helper-when-on-a-python-bool": "at = lambda flag: pl.when(flag)\n@at(True)\ndef _():\n    return 1\n",
}


@pytest.mark.parametrize("body, expected", REPORTED.values(), ids=REPORTED.keys())
def test_reported(body, expected):
    assert pal007(body) == expected


@pytest.mark.parametrize("body", SILENT.values(), ids=SILENT.keys())
def test_silent(body):
    assert pal007(body) == []


def test_not_also_reported_as_pal001():
    text = (
        HEADER
        + "def k(x_ref, o_ref):\n    @pl.when(pl.program_id(0) == 0)\n    def _():\n        return 1\npl.pallas_call(k, out_shape=s)(x)\n"
    )
    codes = [f.code for f in analyze_source(text, "t.py")]
    assert codes == ["PAL007"]


@pytest.mark.parametrize(
    ("debug", "expected"), [("False", []), ("True", ["return o_ref[...]"]), ("flag()", ["return o_ref[...]"])]
)
def test_a_return_under_a_module_constant_runs_only_when_it_is_true(debug, expected):
    """`if DEBUG: return ...` in a when body, with the module's `DEBUG = False`, never runs."""
    body = "@pl.when(pl.program_id(0) == 0)\ndef _():\n    if DEBUG:\n        return o_ref[...]\n"
    text = f"{HEADER}DEBUG = {debug}\ndef k(x_ref, o_ref):\n{textwrap.indent(body, '    ')}pl.pallas_call(k, out_shape=s)(x)\n"
    lines = text.splitlines()
    found = [f for f in analyze_source(text, "t.py") if f.code == "PAL007"]
    assert [lines[f.range.start.line][f.range.start.column : f.range.end.column] for f in found] == expected
