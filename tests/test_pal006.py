"""PAL006 dropped-return-value: every body form, with and without a carry."""

from __future__ import annotations

import textwrap

import pytest

from pallas_ls.engine.findings import Severity
from pallas_ls.lint import analyze_source

HEADER = """\
import functools
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import mosaic_gpu as plgpu
"""


def pal006(code: str) -> list[str]:
    text = HEADER + textwrap.dedent(code)
    lines = text.splitlines()
    return [
        lines[f.range.start.line][f.range.start.column : f.range.end.column]
        for f in analyze_source(text, "t.py")
        if f.code == "PAL006"
    ]


REPORTED = {
    "tpu-pipeline-positional": (
        "def body(x_ref, o_ref):\n    return x_ref[...]\npltpu.emit_pipeline(body, grid=(1,))(x, o)\n",
        ["return x_ref[...]"],
    ),
    "tpu-pipeline-keyword-and-with-allocations": (
        "def body(x_ref, o_ref):\n    return 1\npltpu.emit_pipeline_with_allocations(body=body, grid=(1,))\n",
        ["return 1"],
    ),
    "tpu-pipeline-partial-decorator": (
        "@functools.partial(pltpu.emit_pipeline, grid=(2,))\ndef pipe(x_ref, o_ref):\n    return x_ref[...] * 2\n",
        ["return x_ref[...] * 2"],
    ),
    "gpu-kernel-decorator": (
        "@plgpu.kernel(out_type=s, grid=(1,))\ndef k(x_ref, o_ref):\n    return o_ref[...]\n",
        ["return o_ref[...]"],
    ),
    "gpu-kernel-applied-lambda": ("f = plgpu.kernel(out_type=s)(lambda x, o: x[...])\n", ["x[...]"]),
    "gpu-pipeline-without-carry": (
        "plgpu.emit_pipeline(lambda idx, x, o: x[...] + 1, grid=(4,), in_specs=[b], out_specs=[b])(x, o)\n",
        ["x[...] + 1"],
    ),
    "nd-loop-returning-a-number": (
        "@plgpu.nd_loop((4,), collective_axes='sm')\ndef _(info):\n    return 0\n",
        ["return 0"],
    ),
    "nd-loop-with-carry-none": (
        "@plgpu.nd_loop((4,), collective_axes='sm', init_carry=None)\ndef _(info):\n    return (1, 2)\n",
        ["return (1, 2)"],
    ),
}

SILENT = {
    "attribute-of-an-unknown-object": (  # not certainly a value
        "@plgpu.nd_loop((4,), collective_axes='sm')\ndef _(info):\n    return info.index\n"
    ),
    "nd-loop-with-carry": (
        "@plgpu.nd_loop((4,), collective_axes='sm', init_carry=0)\ndef _(info, carry):\n    return carry + 1\n"
    ),
    "gpu-pipeline-with-carry": ("plgpu.emit_pipeline(lambda idx, x, o, c: c + 1, grid=(4,), init_carry=0)(x, o)\n"),
    "carry-may-come-from-kwargs": (
        "@plgpu.nd_loop((4,), collective_axes='sm', **opts)\ndef _(info, carry):\n    return carry + 1\n"
    ),
    "returns-none": (
        "def body(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n    return None\npltpu.emit_pipeline(body, grid=(1,))(x, o)\n"
    ),
    "empty-tuple": "def body(x_ref, o_ref):\n    return ()\npltpu.emit_pipeline(body, grid=(1,))(x, o)\n",
    "nested-returns": (
        "def body(x_ref, o_ref):\n    def f(v):\n        return v * 2\n    o_ref[...] = f(x_ref[...])\n"
        "pltpu.emit_pipeline(body, grid=(1,))(x, o)\n"
    ),
    "pl-kernel-is-pal001": "@pl.kernel(out_type=s, mesh=m)\ndef k(x_ref, o_ref):\n    return 1\n",
    "local-function-named-emit-pipeline": (
        "def emit_pipeline(body, **kw):\n    return body\ndef body(x):\n    return x\nemit_pipeline(body, grid=(1,))\n"
    ),
}


@pytest.mark.parametrize("code, expected", REPORTED.values(), ids=REPORTED.keys())
def test_reported(code, expected):
    assert pal006(code) == expected


@pytest.mark.parametrize("code", SILENT.values(), ids=SILENT.keys())
def test_silent(code):
    assert pal006(code) == []


def test_is_a_warning_that_names_the_api():
    code = "@plgpu.nd_loop((4,), collective_axes='sm')\ndef step(info):\n    return 0\n"
    [finding] = [f for f in analyze_source(HEADER + code, "t.py") if f.code == "PAL006"]
    assert finding.severity is Severity.WARNING
    assert "`step`" in finding.message and "plgpu.nd_loop" in finding.message and "init_carry" in finding.message
